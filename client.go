package forgejo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"codeberg.org/forgego/forgejo/internal/secret"
)

// Version is this library's version, sent in the default User-Agent.
const Version = "0.1.0-dev"

// DefaultBaseURL is the API root used when no [WithBaseURL] option is given.
const DefaultBaseURL = "https://codeberg.org/api/v1"

// Defaults for the client's bounds.
const (
	// DefaultPageSize is the page size sent when a listing's Limit is zero.
	DefaultPageSize = 30
	// CodebergMaxPageSize is codeberg.org's max_response_items, the largest
	// page it serves. The client sends any positive page size; every
	// instance clamps to its own maximum, silently.
	CodebergMaxPageSize = 50
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
	hooks            Hooks        // WithHooks, chained (hooks.go)
	hookPanics       *hookPanics  // which hooks have panicked, reported once each
	limits           *limits      // rate-limit snapshot and pacing
	budget           *retryTokens // the retry budget; nil when off
	pacer            Pacer        // shared pacing (WithPacer); nil when local only
	tokenSource      TokenSource
	walkConcurrency  int // pages in flight per walk (WithWalkConcurrency, pagination.go)
	// secrets is what every rendered text is scrubbed of (redact.go),
	// behind a closure for the reason cred is.
	secretsFn func() *secret.Set
	versions  *versionState // the server's version, learnt once (version_check.go)

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

// NewClient builds a client from options. It does no network I/O. Invalid
// configuration is reported here as a [*ValidationError], never as a panic and
// never on the first call.
func NewClient(opts ...ClientOption) (*Client, error) {
	cfg := config{
		baseURL:          DefaultBaseURL,
		userAgent:        "forgego/" + Version,
		retry:            DefaultRetryPolicy(),
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
		hookPanics:       &hookPanics{},
		walkConcurrency:  cfg.walkConcurrency,
		sleep:            sleepContext,
		randN:            rand.Int64N,
		now:              time.Now,
		versions:         newVersionState(cfg.versionCheck),
	}
	set := newSecretSet()
	if cr := c.credential(); cr != nil {
		for _, v := range cr.secrets {
			set.Add(v)
		}
	}
	c.secretsFn = func() *secret.Set { return set }
	if c.httpClient == nil {
		// No transport of its own: net/http uses http.DefaultTransport as it
		// is at each call, so a test tool that swaps it (httpmock, a
		// recording transport) sees every request, as with go-github.
		c.httpClient = &http.Client{}
	}
	c.httpClient = withSafeRedirects(c.httpClient, c.baseURL)
	if cfg.clock != nil {
		c.now, c.sleep = cfg.clock.Now, cfg.clock.Sleep
	}
	c.hooks = c.chainHooks(cfg.hooks)
	if cfg.pacer != nil && cfg.pacing == nil {
		cfg.pacing = &Pacing{MaxWait: DefaultPacingMaxWait} // the fallback, and the bound on every wait
	}
	c.pacer = cfg.pacer
	c.tokenSource = cfg.tokenSource
	c.limits = newLimits(cfg.pacing)
	c.budget = newRetryTokens(cfg.budget)
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
// the pipeline to set the Authorization header.
type credential struct {
	kind    string   // "token" or "basic", for printing
	header  string   // the whole Authorization header value
	secrets []string // texts to mask wherever the server echoes them
}

func newCredential(kind, header string, secrets ...string) func() *credential {
	cr := &credential{kind: kind, header: header}
	// The header's value after its scheme, not the whole header, so that an
	// echo reads "token ***" and still names what was masked.
	cr.secrets = append(secrets, strings.TrimPrefix(strings.TrimPrefix(header, "Basic "), "token "))
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

// withSafeRedirects returns a copy of hc (the caller's stays untouched and
// is never closed) whose redirect rule is the library's:
//
//   - Only a GET or HEAD follows a redirect. Any other request (a write, an
//     OPTIONS) answered with any 3xx comes back as an *APIError with the
//     status and Location: net/http would turn a POST answered 301–303 into
//     a GET that "succeeds" while changing nothing, and re-send it with its
//     body on 307/308, so a write could reach the server twice.
//   - The credential goes only to the origin (scheme, host and port) of the
//     base URL. A redirect to any other origin (another port of the same
//     host, https to http, another host) is followed without the
//     Authorization header, the one-time password, cookies and Referer:
//     net/http compares host names only, and keeps the header across ports
//     and schemes. Downloads that an instance serves from object storage
//     (attachments, LFS) work this way.
//   - The caller's per-call headers ([Header], [IfNoneMatch],
//     [IfModifiedSince], [OTP]) follow the same rule as the credential:
//     they go to the base URL's origin only. A header such as X-Api-Key is
//     as much a credential as Authorization, and the library cannot tell
//     which ones are. So do the headers the InjectHeaders hook ([Hooks]) adds.
//
// A CheckRedirect of the caller's runs after these rules.
func withSafeRedirects(hc *http.Client, base string) *http.Client {
	cp := *hc
	next := hc.CheckRedirect
	home := originOf(base)
	cp.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > 0 && via[0].Method != http.MethodGet && via[0].Method != http.MethodHead {
			return http.ErrUseLastResponse
		}
		if len(via) > 0 && req.Method != via[0].Method {
			return http.ErrUseLastResponse
		}
		if originOf(req.URL.String()) != home {
			for _, h := range credentialHeaders {
				req.Header.Del(h)
			}
			if own, ok := req.Context().Value(perCallHeadersKey{}).(http.Header); ok {
				for h := range own {
					req.Header.Del(h)
				}
			}
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

// perCallHeadersKey carries the names of a request's per-call headers and
// of those its InjectHeaders hook added in its context, so that the redirect
// rule can remove them (newHTTPRequest sets it).
type perCallHeadersKey struct{}

// credentialHeaders are removed from a request redirected off the base
// URL's origin.
var credentialHeaders = []string{"Authorization", "Proxy-Authorization", "X-Forgejo-OTP", "X-Gitea-OTP", "Cookie", "Cookie2", "Referer"}

// originOf returns scheme://host:port of a URL with the default port made
// explicit, lower-cased; "" when it does not parse. Two URLs may share a
// credential only when their origins are equal and not "".
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
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
