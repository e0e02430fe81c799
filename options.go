package forgejo

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ClientOption configures a [Client] in [NewClient]. An option that rejects its
// argument makes NewClient return a [*ValidationError]; the rejected value is
// never echoed in the message.
type ClientOption func(*config) error

// config is what options write; NewClient copies it into the Client.
type config struct {
	baseURL          string
	cred             func() *credential
	userAgent        string
	retry            RetryPolicy
	pageSize         int
	httpClient       *http.Client
	maxResponseBytes int64
	maxDownloadBytes int64
	attemptTimeout   time.Duration
	hooks            []Hooks // WithHooks (hooks.go)
	pacing           *Pacing
	pacer            Pacer
	tokenSource      TokenSource
	budget           *RetryBudget
	clock            Clock
	versionCheck     bool // WithVersionCheck (version_check.go)
	walkConcurrency  int  // WithWalkConcurrency (pagination.go)
}

// WithBaseURL sets the instance to talk to. It accepts an instance root
// ("https://forge.example") or an API root ("https://forge.example/api/v1");
// "/api/v1" is appended when missing and trailing slashes are dropped. The
// URL must be http or https, have a host, and carry no user information, no
// query, no fragment and no control characters.
func WithBaseURL(u string) ClientOption {
	return func(c *config) error {
		c.baseURL = u
		return nil
	}
}

// WithToken authenticates with a Forgejo access token, sent as
// "Authorization: token …". The token is trimmed (a trailing newline from a
// file or environment variable is common); a blank token or one with control
// characters is rejected. The token never appears in any output of the
// library.
func WithToken(token string) ClientOption {
	return func(c *config) error {
		t := strings.TrimSpace(token)
		if t == "" {
			return &ValidationError{Field: "token", Message: "must not be blank"}
		}
		if hasControl(t) {
			return &ValidationError{Field: "token", Message: "must not contain a control character"}
		}
		c.cred = newCredential("token", "token "+t, t)
		return nil
	}
}

// WithBasicAuth authenticates with a username and password (HTTP Basic).
// Prefer tokens: an account with two-factor authentication cannot use basic
// auth. The password is not trimmed; an empty password, a blank username, or
// control characters in either are rejected.
func WithBasicAuth(username, password string) ClientOption {
	return func(c *config) error {
		if strings.TrimSpace(username) == "" {
			return &ValidationError{Field: "username", Message: "must not be blank"}
		}
		if hasControl(username) || strings.Contains(username, ":") {
			return &ValidationError{Field: "username", Message: "must not contain a colon or a control character"}
		}
		if password == "" {
			return &ValidationError{Field: "password", Message: "must not be empty"}
		}
		if hasControl(password) {
			return &ValidationError{Field: "password", Message: "must not contain a control character"}
		}
		c.cred = newCredential("basic", "Basic "+base64.StdEncoding.EncodeToString([]byte(username+":"+password)), password)
		return nil
	}
}

// WithUserAgent sets the User-Agent header; the default is
// "forgego/<Version>". It is trimmed; blank or control characters are
// rejected.
func WithUserAgent(ua string) ClientOption {
	return func(c *config) error {
		ua = strings.TrimSpace(ua)
		if ua == "" {
			return &ValidationError{Field: "userAgent", Message: "must not be blank"}
		}
		if hasControl(ua) {
			return &ValidationError{Field: "userAgent", Message: "must not contain a control character"}
		}
		c.userAgent = ua
		return nil
	}
}

// WithRetryPolicy sets how many attempts a retryable call gets and how long
// to wait between them. Which calls may be repeated at all is stated by each
// operation and cannot be changed here. Without this option a client uses
// [DefaultRetryPolicy]; WithRetryPolicy([RetryOff]) turns retries off (one
// attempt, no delay).
func WithRetryPolicy(p RetryPolicy) ClientOption {
	return func(c *config) error {
		if err := p.validate(); err != nil {
			return err
		}
		c.retry = p
		return nil
	}
}

// WithPageSize sets the page size sent when a listing's Limit is zero:
// any positive number, default [DefaultPageSize]. Instances clamp a size
// past their maximum ([CodebergMaxPageSize] on codeberg.org) silently; walks
// follow Link, so a clamped walk is still complete.
func WithPageSize(n int) ClientOption {
	return func(c *config) error {
		if err := checkPageSize("pageSize", n); err != nil {
			return err
		}
		c.pageSize = n
		return nil
	}
}

// WithHTTPClient makes the client send through hc, which the caller owns:
// without it, the client sends through http.DefaultTransport as it is at
// each call (so a test tool that swaps http.DefaultTransport sees every
// request), with the same redirect rule and attempt timeout.
// The library never closes it or its transport. Configure TLS, proxies and
// connection pooling there. The client keeps a shallow copy of hc (sharing
// its Transport and Jar) whose CheckRedirect also refuses redirects that
// would turn a write into a GET; changes made to hc's fields after NewClient
// are not seen.
func WithHTTPClient(hc *http.Client) ClientOption {
	return func(c *config) error {
		if hc == nil {
			return &ValidationError{Field: "httpClient", Message: "must not be nil"}
		}
		c.httpClient = hc
		return nil
	}
}

// WithMaxResponseBytes bounds every response body except downloads (default
// [DefaultMaxResponseBytes]). A larger body fails the call with a
// [TransportResponseTooLarge] error, which is never retried.
func WithMaxResponseBytes(n int64) ClientOption {
	return func(c *config) error {
		if n <= 0 {
			return &ValidationError{Field: "maxResponseBytes", Message: "must be positive"}
		}
		c.maxResponseBytes = n
		return nil
	}
}

// WithMaxDownloadBytes bounds raw-file, archive and ZIP downloads (default
// [DefaultMaxDownloadBytes]).
func WithMaxDownloadBytes(n int64) ClientOption {
	return func(c *config) error {
		if n <= 0 {
			return &ValidationError{Field: "maxDownloadBytes", Message: "must be positive"}
		}
		c.maxDownloadBytes = n
		return nil
	}
}

// WithAttemptTimeout bounds each attempt (send plus reading the body),
// default [DefaultAttemptTimeout]; zero means no per-attempt bound. A timed
// out attempt is a retryable [TransportTimeout]; the caller's ctx still bounds
// the whole call, and its expiry is never retried.
func WithAttemptTimeout(d time.Duration) ClientOption {
	return func(c *config) error {
		if d < 0 {
			return &ValidationError{Field: "attemptTimeout", Message: "must not be negative"}
		}
		c.attemptTimeout = d
		return nil
	}
}

// Clock is the time source of every module of forgego: where a [Client]
// reads the time and waits (the backoff between attempts, pacing waits,
// the attempt durations it reports; [WithClock]), where a webhook Worker
// and MemoryQueue measure leases, retry times and the shutdown bound, and
// what a forgejotest server reads its time from. The default everywhere is
// the real clock. A test passes a fake one whose time it advances
// (forgejotest.FakeClock is one), so that retries, pacing and leases run
// without sleeping.
type Clock interface {
	// Now is the current time.
	Now() time.Time
	// Sleep waits for d, and must return ctx's error as soon as ctx is
	// done.
	Sleep(ctx context.Context, d time.Duration) error
	// Timer returns a channel that receives once d has passed, and a
	// function that releases the timer if it has not fired: a wait that
	// can be selected on together with other events.
	Timer(d time.Duration) (<-chan time.Time, func())
}

// SystemClock returns the real clock: time.Now, and timers of package
// time. It is the default wherever a [Clock] is taken; a fake clock of a
// test may embed it for the methods it does not fake.
func SystemClock() Clock { return systemClock{} }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) Sleep(ctx context.Context, d time.Duration) error { return sleepContext(ctx, d) }

func (systemClock) Timer(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTimer(d)
	return t.C, func() { t.Stop() }
}

// WithClock replaces the real clock (see [Clock]). Per-attempt timeouts
// still use real time.
func WithClock(c Clock) ClientOption {
	return func(cfg *config) error {
		if c == nil {
			return &ValidationError{Field: "clock", Message: "must not be nil"}
		}
		cfg.clock = c
		return nil
	}
}

// normalizeBaseURL validates a base URL and turns an instance root into an
// API root. Messages never echo the value: it may carry credentials.
func normalizeBaseURL(raw string) (string, error) {
	fail := func(msg string) error { return &ValidationError{Field: "baseURL", Message: msg} }
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", fail("must not be blank")
	}
	if hasControl(s) {
		return "", fail("must not contain a control character")
	}
	lower := strings.ToLower(s)
	if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
		return "", fail("must start with http:// or https://")
	}
	if strings.Contains(s, "?") {
		return "", fail("must not carry a query string")
	}
	if strings.Contains(s, "#") {
		return "", fail("must not carry a fragment")
	}
	rest := s[strings.Index(s, "://")+3:]
	authority := rest
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		authority = rest[:i]
	}
	if strings.Contains(authority, "@") {
		return "", fail("must not carry user information before the host")
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Hostname() == "" {
		return "", fail("must have a host after the scheme")
	}
	s = strings.TrimRight(s, "/")
	if !strings.HasSuffix(strings.ToLower(s), "/api/v1") {
		s += "/api/v1"
	}
	return s, nil
}

func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' {
			return true
		}
	}
	return false
}
