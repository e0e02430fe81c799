package forgejo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"time"
)

// Version is this library's version, sent in the default User-Agent.
const Version = "0.1.0-dev"

// DefaultBaseURL is the API root used when no [WithBaseURL] option is given.
const DefaultBaseURL = "https://codeberg.org/api/v1"

// Defaults for the client's bounds.
const (
	// DefaultPageSize is the page size sent when a listing's Limit is zero.
	DefaultPageSize = 30
	// MaxPageSize is the largest page size the client will ask for: Codeberg's
	// max_response_items. Instances clamp larger requests silently.
	MaxPageSize = 50
	// DefaultMaxResponseBytes bounds every response body except downloads.
	DefaultMaxResponseBytes = 16 << 20
	// DefaultMaxDownloadBytes bounds raw-file, archive and ZIP downloads.
	DefaultMaxDownloadBytes = 50 << 20
	// DefaultAttemptTimeout bounds one attempt (send and read of one
	// request), not the whole retried call.
	DefaultAttemptTimeout = 30 * time.Second
)

// Client talks to one Forgejo instance. Build it with [NewClient]; it is
// immutable afterwards and safe for concurrent use by many goroutines.
type Client struct {
	baseURL string // validated API root, no trailing slash
	// cred is reached through a closure: fmt, printing a Client nested in a
	// caller's struct, can show a func's address but never what it holds.
	cred             func() *credential // nil when anonymous
	userAgent        string
	retry            RetryPolicy
	pageSize         int
	httpClient       *http.Client
	maxResponseBytes int64
	maxDownloadBytes int64
	attemptTimeout   time.Duration
	observer         Observer
	retryObserver    RetryObserver // observer, when it also implements RetryObserver
	// rateLimitObserver is observer, when it also implements
	// RateLimitObserver.
	rateLimitObserver RateLimitObserver
	limits            *limits // rate-limit snapshot, pacing and retry budget

	// Test seams: fake time and randomness so that retry tests never sleep.
	sleep  func(ctx context.Context, d time.Duration) error
	randN  func(n int64) int64 // uniform in [0, n)
	now    func() time.Time
	common service

	// Services: the API operations, grouped as a reader of the API looks
	// for them.
	Actions       *ActionsService
	ActivityPub   *ActivityPubService
	Admin         *AdminService
	Issues        *IssuesService
	Misc          *MiscService
	Notifications *NotificationsService
	Orgs          *OrgsService
	Packages      *PackagesService
	PullRequests  *PullRequestsService
	Repos         *ReposService
	Settings      *SettingsService
	Users         *UsersService
}

// service is shared by every service type so that a client allocates the
// link back to itself once.
type service struct{ client *Client }

// Service types. Their methods are the API operations.
type (
	// ActionsService holds Forgejo Actions: workflow runs, jobs, tasks,
	// artifacts and logs, workflow dispatch, and the runners, secrets and
	// variables of repositories, organizations, users and the instance.
	ActionsService service
	// ActivityPubService holds the ActivityPub federation endpoints.
	ActivityPubService service
	// AdminService holds site administration: users, organizations,
	// webhooks, cron tasks, quotas and unadopted repositories.
	AdminService service
	// IssuesService holds issues and what belongs to them: comments,
	// attachments, reactions, labels on an issue, dependencies, pins,
	// stopwatches, tracked time and milestones.
	IssuesService service
	// MiscService holds the instance-wide odds and ends: version, node
	// info, markdown rendering, templates, signing keys.
	MiscService service
	// NotificationsService holds the notification threads of the
	// authenticated user.
	NotificationsService service
	// OrgsService holds organizations, their members, teams, labels,
	// webhooks and quotas.
	OrgsService service
	// PackagesService holds the package registry.
	PackagesService service
	// PullRequestsService holds pull requests, their reviews, review
	// comments and review requests, diffs and merges.
	PullRequestsService service
	// ReposService holds repositories and their contents: files, branches,
	// tags, commits and statuses, releases, labels, webhooks, keys, mirrors,
	// topics, wiki pages and collaborators.
	ReposService service
	// SettingsService holds the instance's published limits and features.
	SettingsService service
	// UsersService holds users: the authenticated user's profile, keys,
	// emails, followers, stars and tokens, and other users' public data.
	UsersService service
)

// defaultTransport is shared by clients that were not given an *http.Client,
// so that they share one connection pool. Its dial timeout plays the role of
// the connect timeout.
var defaultTransport = func() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	return t
}()

// NewClient builds a client from options. It does no network I/O. Invalid
// configuration is reported here as a [*ValidationError], never as a panic and
// never on the first call.
func NewClient(opts ...Option) (*Client, error) {
	cfg := config{
		baseURL:          DefaultBaseURL,
		userAgent:        "forgego/" + Version,
		retry:            DefaultRetryPolicy,
		pageSize:         DefaultPageSize,
		maxResponseBytes: DefaultMaxResponseBytes,
		maxDownloadBytes: DefaultMaxDownloadBytes,
		attemptTimeout:   DefaultAttemptTimeout,
	}
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	base, err := normalizeBaseURL(cfg.baseURL)
	if err != nil {
		return nil, err
	}
	c := &Client{
		baseURL:          base,
		cred:             cfg.cred,
		userAgent:        cfg.userAgent,
		retry:            cfg.retry,
		pageSize:         cfg.pageSize,
		httpClient:       cfg.httpClient,
		maxResponseBytes: cfg.maxResponseBytes,
		maxDownloadBytes: cfg.maxDownloadBytes,
		attemptTimeout:   cfg.attemptTimeout,
		observer:         cfg.observer,
		sleep:            sleepContext,
		randN:            rand.Int64N,
		now:              time.Now,
	}
	if c.httpClient == nil {
		c.httpClient = &http.Client{Transport: defaultTransport}
	}
	c.httpClient = withSafeRedirects(c.httpClient)
	if cfg.clock != nil {
		c.now, c.sleep = cfg.clock.Now, cfg.clock.Sleep
	}
	if ro, ok := c.observer.(RetryObserver); ok {
		c.retryObserver = ro
	}
	if ro, ok := c.observer.(RateLimitObserver); ok {
		c.rateLimitObserver = ro
	}
	c.limits = newLimits(cfg.pacing, cfg.budget)
	c.common.client = c
	c.Actions = (*ActionsService)(&c.common)
	c.ActivityPub = (*ActivityPubService)(&c.common)
	c.Admin = (*AdminService)(&c.common)
	c.Issues = (*IssuesService)(&c.common)
	c.Misc = (*MiscService)(&c.common)
	c.Notifications = (*NotificationsService)(&c.common)
	c.Orgs = (*OrgsService)(&c.common)
	c.Packages = (*PackagesService)(&c.common)
	c.PullRequests = (*PullRequestsService)(&c.common)
	c.Repos = (*ReposService)(&c.common)
	c.Settings = (*SettingsService)(&c.common)
	c.Users = (*UsersService)(&c.common)
	return c, nil
}

// BaseURL returns the API root the client sends to, such as
// "https://codeberg.org/api/v1".
func (c *Client) BaseURL() string { return c.baseURL }

// PageSize returns the page size sent when a listing's Limit is zero.
func (c *Client) PageSize() int { return c.pageSize }

// RetryPolicy returns the client's retry policy.
func (c *Client) RetryPolicy() RetryPolicy { return c.retry }

// Format renders the client without its credential, for every verb, so that
// printing or logging a client can never leak a token.
//
// Format has a value receiver so that printing a dereferenced Client is
// masked too.
func (c Client) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, "forgejo.Client{baseURL: %s, auth: %s, userAgent: %q, retry: %s, pageSize: %d}",
		c.baseURL, c.credential().String(), c.userAgent, c.retry, c.pageSize)
}

// LogValue renders the client for log/slog without its credential.
func (c *Client) LogValue() slog.Value {
	if c == nil {
		return slog.StringValue("forgejo.Client(nil)")
	}
	return slog.StringValue(fmt.Sprint(*c))
}

// credential is what authenticates the client. It is only ever read by
// the pipeline to set the Authorization header and to scrub echoes of it.
type credential struct {
	kind   string   // "token" or "basic", for printing
	header string   // the whole Authorization header value
	scrubs []string // texts to mask wherever the server echoes them
}

func newCredential(kind, header string, secrets ...string) func() *credential {
	cr := &credential{kind: kind, header: header}
	for _, s := range append(secrets, header, strings.TrimPrefix(strings.TrimPrefix(header, "Basic "), "token ")) {
		if len(s) >= 8 { // shorter texts would mask innocent words
			cr.scrubs = append(cr.scrubs, s)
		}
	}
	return func() *credential { return cr }
}

// credential returns the client's credential, nil when anonymous.
func (c *Client) credential() *credential {
	if c.cred == nil {
		return nil
	}
	return c.cred()
}

// Format masks the credential for every verb.
func (cr *credential) Format(f fmt.State, verb rune) { fmt.Fprint(f, cr.String()) }

// String masks the credential.
func (cr *credential) String() string {
	if cr == nil {
		return "none"
	}
	return cr.kind + " ***"
}

// scrub replaces any echo of the credential in text that came from the
// server (error messages, decode causes), as a last line of defence.
func (c *Client) scrub(s string) string {
	cr := c.credential()
	if cr == nil {
		return s
	}
	for _, secret := range cr.scrubs {
		if strings.Contains(s, secret) {
			s = strings.ReplaceAll(s, secret, redactedMask)
		}
	}
	return s
}

// withSafeRedirects returns a copy of hc (the caller's stays untouched and
// is never closed) that refuses to follow a redirect which would change the
// request's method. net/http turns a POST, PATCH, PUT or DELETE answered
// with 301, 302 or 303 into a GET of the new location: after a repository
// is renamed or transferred, an edit or delete of the old path would then
// "succeed" as a read while changing nothing. Such a redirect comes back
// instead as an *APIError with the 3xx status and the Location header.
// Redirects that keep the method (a GET, or 307/308) are still followed.
func withSafeRedirects(hc *http.Client) *http.Client {
	cp := *hc
	next := hc.CheckRedirect
	cp.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > 0 && req.Method != via[0].Method {
			return http.ErrUseLastResponse
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &cp
}

// sleepContext waits for d or until ctx is done, whichever comes first.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
