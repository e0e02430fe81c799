package forgejotest

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// Defaults of a new Server.
const (
	// DefaultUser is the login of the user the server starts with; its token
	// is [Server.Token] and [Server.Client] authenticates as it.
	DefaultUser = "forgejotest"
	// DefaultVersion is what /version answers without [WithRelease] or
	// [WithVersion]: the version of the development build whose spec the
	// server serves, so that a client with [forgejo.WithVersionCheck] is
	// let through to every operation the server answers. [WithRelease]
	// reports an older release instead.
	DefaultVersion = "16.0.0-dev-539-4695780d41+gitea-1.22.0"
	// DefaultMaxResponseItems is max_response_items, the page size every
	// listing is clamped to (Codeberg's value).
	DefaultMaxResponseItems = 50
	// DefaultPagingNum is default_paging_num, the page size of a listing
	// asked without a limit.
	DefaultPagingNum = 30
)

// FastRetry is the retry policy of [Server.Client]: three attempts with
// millisecond delays, Retry-After honoured but clamped to 5ms, so that tests
// exercising retries stay fast.
var FastRetry = forgejo.RetryPolicy{
	MaxAttempts:       3,
	BaseDelay:         time.Millisecond,
	MaxDelay:          5 * time.Millisecond,
	Jitter:            forgejo.JitterNone,
	RespectRetryAfter: true,
}

// Option configures a [Server].
type Option func(*config)

type config struct {
	maxItems    int
	pagingNum   int
	clock       func() time.Time
	rlQuota     int
	rlWindow    time.Duration
	version     string
	defaultUser string
	release     string // WithRelease's line, "" for the pinned spec
	err         error  // an option's misuse, Start's error

	fakeClock       *FakeClock // WithClock's, when a FakeClock
	deliveryTimeout time.Duration
	maxAttachment   int64
	listenAddr      string
}

// WithMaxResponseItems sets max_response_items, the page size every listing
// is clamped to (default 50). Gitea's integration server uses 20.
func WithMaxResponseItems(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxItems = n
		}
	}
}

// WithDefaultPagingNum sets default_paging_num, the page size of a listing
// asked without a limit (default 30).
func WithDefaultPagingNum(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.pagingNum = n
		}
	}
}

// WithClock makes the server read time from c instead of the system
// clock: for timestamps, the rate-limit windows and Retry-After dates
// (only its Now is read). [FakeClock] is one whose time a test sets;
// give the same clock to the client ([forgejo.WithClock]) and the server
// to move both. Delay faults still wait in real time.
func WithClock(c forgejo.Clock) Option {
	return func(cfg *config) {
		if c != nil {
			cfg.clock = c.Now
			cfg.fakeClock, _ = c.(*FakeClock) // its moves drive attached runners
		}
	}
}

// WithRateLimit emulates Codeberg's edge rate limiter: quota requests per
// fixed window, counted from the server's start. Every response carries
// `ratelimit-policy: "baseline";q=Q;w=W` and `ratelimit: "baseline";r=R;t=T`
// (R the requests left, T the seconds until the window resets, rounded up);
// failed requests count too; once the quota is spent the server answers 429
// with Retry-After (T seconds) until the window resets. Off by default.
func WithRateLimit(quota int, window time.Duration) Option {
	return func(c *config) {
		if quota > 0 && window > 0 {
			c.rlQuota, c.rlWindow = quota, window
		}
	}
}

// DefaultMaxAttachmentSize is a default Forgejo's [attachment] MAX_SIZE,
// 2048 MiB: the largest file one attachment or release asset may hold.
const DefaultMaxAttachmentSize = 2048 << 20

// WithMaxAttachmentSize sets the largest file, in bytes, an attachment or a
// release asset may hold (default [DefaultMaxAttachmentSize]); a larger one
// is answered 413. Uploads are streamed and counted, never held in memory,
// so a test can send a file of any size; a small bound tests the refusal
// without sending gigabytes.
func WithMaxAttachmentSize(n int64) Option {
	return func(c *config) {
		if n > 0 {
			c.maxAttachment = n
		}
	}
}

// WithVersion sets what /version answers (default [DefaultVersion]).
func WithVersion(v string) Option {
	return func(c *config) { c.version = v }
}

// WithListenAddr makes [Start] listen on addr, host:port as net.Listen
// takes it, instead of 127.0.0.1 on a free port (a standalone server on a
// known port, such as 'forgego fake serve'). The fake has no real
// authentication worth the name: keep it on a loopback address.
// [NewServer] accepts it too.
func WithListenAddr(addr string) Option {
	return func(c *config) { c.listenAddr = addr }
}

// WithDefaultUser sets the login of the default user (default
// [DefaultUser]).
func WithDefaultUser(login string) Option {
	return func(c *config) {
		if login != "" {
			c.defaultUser = login
		}
	}
}

// Server is a fake Forgejo. Build it with [NewServer] in a test or [Start]
// elsewhere; it is safe for concurrent use.
type Server struct {
	// URL is the instance root, such as "http://127.0.0.1:41234"; the API
	// is below it at /api/v1.
	URL string

	ts     *httptest.Server
	tb     testing.TB
	cfg    config
	routes []*route
	byOp   map[string]*route
	ops    []knownOp // WithRelease's operations, nil for the pinned spec's
	host   string

	mu       sync.Mutex
	st       *state
	faults   []*pendingFault
	log      []*RecordedRequest
	rl       *rateLimiter
	defUser  *user
	defToken string
	handlers map[string]http.HandlerFunc // Handle's, by operationId

	dq deliveryQueue // webhook deliveries, with their own lock
}

// NewServer starts a fake Forgejo on 127.0.0.1 for the test t and closes it
// when the test ends.
func NewServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s, err := Start(opts...)
	if err != nil {
		t.Fatalf("forgejotest: %v", err)
	}
	s.tb = t
	t.Cleanup(s.Close)
	return s
}

// Start starts a fake Forgejo on 127.0.0.1 outside a test (a demo, a
// command-line tool). Close it when done.
func Start(opts ...Option) (*Server, error) {
	cfg := config{
		maxItems: DefaultMaxResponseItems, pagingNum: DefaultPagingNum, clock: time.Now,
		version: DefaultVersion, defaultUser: DefaultUser, maxAttachment: DefaultMaxAttachmentSize,
	}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.err != nil {
		return nil, cfg.err
	}
	addr := cmp.Or(cfg.listenAddr, "127.0.0.1:0")
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	s := &Server{cfg: cfg, st: newState()}
	if cfg.release != "" {
		s.ops = releaseOps(cfg.release)
	}
	s.deliveriesInit()
	s.routes = buildRoutes()
	s.byOp = map[string]*route{}
	for _, rt := range s.routes {
		s.byOp[rt.op] = rt
	}
	ts := httptest.NewUnstartedServer(s)
	ts.Listener.Close()
	ts.Listener = l
	ts.Start()
	s.ts, s.URL = ts, ts.URL
	s.host = strings.TrimPrefix(ts.URL, "http://")
	now := cfg.clock()
	if cfg.rlQuota > 0 {
		s.rl = &rateLimiter{quota: cfg.rlQuota, window: cfg.rlWindow, start: now}
	}
	s.defUser = s.st.addUser(cfg.defaultUser, now)
	s.defToken = s.st.newToken(s.defUser)
	return s, nil
}

// Close shuts the server down, dropping open connections. It is safe to
// call more than once.
func (s *Server) Close() {
	s.ts.CloseClientConnections()
	s.ts.Close()
	s.dq.cancel() // deliveries still queued fail fast
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = s.WaitDeliveries(ctx)
}

// Token is the default user's token.
func (s *Server) Token() string { return s.defToken }

// DefaultUser is the default user's login.
func (s *Server) DefaultUser() string { return s.defUser.login }

// HTTPClient is an *http.Client for this server.
func (s *Server) HTTPClient() *http.Client { return s.ts.Client() }

// NewClient returns a *forgejo.Client for this server, authenticated as the
// default user and retrying with [FastRetry]; opts are applied after those
// and override them (forgejo.WithToken(AddUser("bob")) to act as bob).
func (s *Server) NewClient(opts ...forgejo.ClientOption) (*forgejo.Client, error) {
	base := []forgejo.ClientOption{
		forgejo.WithBaseURL(s.URL), forgejo.WithToken(s.defToken),
		forgejo.WithRetryPolicy(FastRetry), forgejo.WithHTTPClient(s.ts.Client()),
	}
	return forgejo.NewClient(append(base, opts...)...)
}

// Client is [Server.NewClient] that fails the test (or panics, for a server
// from [Start]) on a bad option.
func (s *Server) Client(opts ...forgejo.ClientOption) *forgejo.Client {
	c, err := s.NewClient(opts...)
	if err != nil {
		s.fatalf("Client: %v", err)
	}
	return c
}

// AnonymousClient is a client without credentials, for public reads and
// for checking 401s.
func (s *Server) AnonymousClient(opts ...forgejo.ClientOption) *forgejo.Client {
	base := []forgejo.ClientOption{
		forgejo.WithBaseURL(s.URL), forgejo.WithRetryPolicy(FastRetry), forgejo.WithHTTPClient(s.ts.Client()),
	}
	c, err := forgejo.NewClient(append(base, opts...)...)
	if err != nil {
		s.fatalf("AnonymousClient: %v", err)
	}
	return c
}

func (s *Server) fatalf(format string, args ...any) {
	msg := "forgejotest: " + fmt.Sprintf(format, args...)
	if s.tb != nil {
		s.tb.Helper()
		s.tb.Fatal(msg)
	}
	panic(msg)
}

func (s *Server) now() time.Time { return s.cfg.clock() }

// route is one operation the fake implements.
type route struct {
	method string
	tmpl   template
	op     string
	auth   bool // a token is required
	upload bool // the body is a file upload, streamed (see readUpload)
	h      func(c *call)
}

// call is one request being answered; handlers run with Server.mu held.
type call struct {
	s      *Server
	st     *state
	r      *http.Request
	p      map[string]string
	q      url.Values
	body   []byte
	up     *streamedUpload // the streamed upload of an upload route
	user   *user
	now    time.Time
	v      view
	status int
	header http.Header
	out    []byte
}

// response is what will be written.
type response struct {
	status int
	header http.Header
	body   []byte
}

const jsonType = "application/json;charset=utf-8"

func (c *call) json(status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		panic("forgejotest: cannot encode a response: " + err.Error())
	}
	c.status, c.out = status, data
	c.header.Set("Content-Type", jsonType)
}

// empty answers status with no body.
func (c *call) empty(status int) { c.status, c.out = status, nil }

func (c *call) swagger() string { return c.s.URL + "/api/swagger" }

// fail answers Forgejo's {"message","url"} error body.
func (c *call) fail(status int, msg string) {
	c.json(status, errorBody{Message: msg, URL: c.swagger()})
}

// internalError answers Forgejo's 500 {"message","url"}. As on a server in
// production mode, only a site administrator reads the message; anyone else
// gets "".
func (c *call) internalError(msg string) {
	if c.user == nil || !c.user.isAdmin {
		msg = ""
	}
	c.fail(http.StatusInternalServerError, msg)
}

// failErrs answers {"message","url","errors"}.
func (c *call) failErrs(status int, msg string, errs ...string) {
	if errs == nil {
		errs = []string{}
	}
	c.json(status, errorBody{Message: msg, URL: c.swagger(), Errors: &errs})
}

// notFound is Forgejo's generic 404, as Codeberg sends it for a missing
// repository: {"message":"The target couldn't be found.","url":…,"errors":[]}.
func (c *call) notFound() { c.failErrs(http.StatusNotFound, "The target couldn't be found.") }

// decode reads the JSON body into v; a malformed body is answered 422 as
// Forgejo's binding does, and decode reports false.
func (c *call) decode(v any) bool {
	if len(bytes.TrimSpace(c.body)) == 0 {
		return true
	}
	if err := json.Unmarshal(c.body, v); err != nil {
		c.fail(http.StatusUnprocessableEntity, "[]: "+err.Error())
		return false
	}
	return true
}

// ServeHTTP answers one request: it logs it, applies the rate limiter and
// any queued fault, then the fake's handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	apiPath, isAPI := strings.CutPrefix(r.URL.EscapedPath(), "/api/v1/")
	apiPath = "/" + apiPath
	var res resolution
	if isAPI {
		res = s.resolve(r.Method, apiPath)
	}
	var custom http.HandlerFunc
	if res.op != "" {
		s.mu.Lock()
		custom = s.handlers[res.op]
		s.mu.Unlock()
	}
	// An upload is streamed later, outside the lock; any other body is
	// read whole, up to maxBody.
	streamed := res.route != nil && res.route.upload && custom == nil
	var body []byte
	var bodySize int64
	if !streamed {
		body, _ = io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		bodySize = int64(len(body))
		if bodySize > maxBody {
			body = body[:maxRecorded]
		}
	}

	s.mu.Lock()
	now := s.now()
	entry := &RecordedRequest{
		Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Query: r.URL.Query(),
		Body: body, BodySize: bodySize, Operation: cmp.Or(res.op, res.named), Time: now,
	}
	s.log = append(s.log, entry)
	var rlHeaders http.Header
	limited, retryAfter := false, 0
	if s.rl != nil {
		rlHeaders, limited, retryAfter = s.rl.take(now)
	}
	var step *faultStep
	if !limited && isAPI {
		step = s.takeFault(r.Method, apiPath, cmp.Or(res.op, res.named))
	}
	s.mu.Unlock()

	finish := func(status int, fault string) {
		s.mu.Lock()
		entry.Status = status
		if fault != "" {
			entry.Fault = fault
		}
		s.mu.Unlock()
	}

	if limited {
		resp := &response{status: http.StatusTooManyRequests, header: http.Header{}, body: []byte("Too Many Requests\n")}
		resp.header.Set("Content-Type", "text/plain; charset=utf-8")
		resp.header.Set("Retry-After", strconv.Itoa(retryAfter))
		s.write(w, resp, rlHeaders, now, nil)
		finish(resp.status, "rate limited")
		return
	}

	if step != nil && step.f.Delay > 0 {
		t := time.NewTimer(step.f.Delay)
		select {
		case <-r.Context().Done():
			t.Stop()
			finish(0, step.describe()+" (client gave up)")
			return
		case <-t.C:
		}
	}
	if step != nil && step.f.Reset {
		finish(0, step.describe())
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				if tc, ok := conn.(*net.TCPConn); ok {
					_ = tc.SetLinger(0) // a real RST, not a polite FIN
				}
				conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler) // closes the connection without an answer
	}

	var resp *response
	switch {
	case step != nil && step.status != 0:
		resp = step.injected(s, now)
	case !isAPI:
		resp = plainNotFound()
	case bodySize > maxBody:
		resp = s.errorResponse(http.StatusRequestEntityTooLarge, fmt.Sprintf("forgejotest: a request body larger than %d MiB is refused (uploads excepted)", maxBody>>20))
	case custom != nil:
		resp = s.serveCustom(custom, r, res, body)
	case streamed:
		rec := &headRecorder{r: r.Body, keep: maxRecorded}
		r.Body = io.NopCloser(rec)
		up := readUpload(r, s.cfg.maxAttachment)
		s.mu.Lock()
		entry.Body, entry.BodySize = rec.head, rec.n
		s.mu.Unlock()
		resp = s.dispatchUpload(r, res, up, now)
	default:
		resp = s.dispatch(r, res, body, now)
	}
	s.write(w, resp, rlHeaders, now, step)
	finish(resp.status, step.describe())
}

func plainNotFound() *response {
	h := http.Header{}
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	return &response{status: http.StatusNotFound, header: h, body: []byte("404 page not found\n")}
}

// Handle answers the operation operationID (an operationId of the client's
// table, forgejo.Operations(), implemented by the fake or not) with h from
// now on, instead of the fake's own handler or its 501: a test can answer an
// operation the fake does not model, or answer one differently. The request
// is routed, logged and counted as any other ([Server.Requests],
// [Server.Count]); a queued [Fault] or the rate limiter still comes first;
// then h sees the request with its path parameters set, so that
// r.PathValue("owner") reads them as the operation's path template names
// them, and its body whole. h runs without the server's lock, so it may call
// the Server's methods. The server adds its Date (and rate-limit) headers to
// what h writes. No credentials are checked for h: it decides.
//
// A nil h gives the operation back to the fake. An operationId the table
// does not know fails the test, or panics for a server from [Start].
func (s *Server) Handle(operationID string, h http.HandlerFunc) {
	if s.tb != nil {
		s.tb.Helper()
	}
	found := false
	for _, k := range libraryOps() {
		found = found || k.id == operationID
	}
	if !found {
		s.fatalf("Handle: %q is no operationId of the client's table (forgejo.Operations())", operationID)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if h == nil {
		delete(s.handlers, operationID)
		return
	}
	if s.handlers == nil {
		s.handlers = map[string]http.HandlerFunc{}
	}
	s.handlers[operationID] = h
}

// serveCustom runs a handler of Handle and captures what it writes.
func (s *Server) serveCustom(h http.HandlerFunc, r *http.Request, res resolution, body []byte) *response {
	for k, v := range res.params {
		r.SetPathValue(k, v)
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := httptest.NewRecorder()
	h(rec, r)
	return &response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// Body bounds: a body other than an upload's is held whole up to maxBody
// (the fake keeps files in memory, so this is its own bound, not
// Forgejo's); the request log keeps the first maxRecorded bytes of an
// upload's body (or of a refused one).
const (
	maxBody     = 64 << 20
	maxRecorded = 1 << 20
)

func (s *Server) errorResponse(status int, msg string) *response {
	h := http.Header{}
	h.Set("Content-Type", jsonType)
	data, _ := json.Marshal(errorBody{Message: msg, URL: s.URL + "/api/swagger"})
	return &response{status: status, header: h, body: data}
}

func (s *Server) dispatchUpload(r *http.Request, res resolution, up *streamedUpload, now time.Time) *response {
	return s.dispatchWith(r, res, nil, up, now)
}

// dispatch runs the fake's handler for a resolved request.
func (s *Server) dispatch(r *http.Request, res resolution, body []byte, now time.Time) *response {
	return s.dispatchWith(r, res, body, nil, now)
}

func (s *Server) dispatchWith(r *http.Request, res resolution, body []byte, up *streamedUpload, now time.Time) *response {
	switch {
	case res.route == nil && res.op != "":
		h := http.Header{}
		h.Set("Content-Type", jsonType)
		data, _ := json.Marshal(errorBody{
			Message: "forgejotest does not implement " + res.op + " (" + r.Method + " " + r.URL.Path + ")",
			URL:     s.URL + "/api/swagger",
		})
		return &response{status: http.StatusNotImplemented, header: h, body: data}
	case res.route == nil && len(res.allowed) > 0:
		h := http.Header{}
		for _, m := range res.allowed {
			h.Add("Allow", m)
		}
		return &response{status: http.StatusMethodNotAllowed, header: h}
	case res.route == nil:
		return plainNotFound()
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	c := &call{s: s, st: s.st, r: r, p: res.params, q: r.URL.Query(), body: body, up: up, now: now, header: http.Header{}}
	u, bad := s.authenticate(r)
	c.user = u
	c.v = view{root: s.URL, host: s.host, viewer: u, st: s.st}
	defer c.bindToken()() // scopes.go
	switch {
	case bad:
		c.fail(http.StatusUnauthorized, badCredentials(r)) // h_users.go
	case u != nil && s.st.signInRefusal(u, s.URL) != "": // h_users_accounts.go
		c.json(http.StatusForbidden, map[string]string{"message": s.st.signInRefusal(u, s.URL)})
	case res.route.auth && u == nil:
		c.fail(http.StatusUnauthorized, "token is required")
	case c.scopeRefused(res.op): // scopes.go
	default:
		res.route.h(c)
	}
	if c.status == 0 {
		c.status = http.StatusOK
	}
	return &response{status: c.status, header: c.header, body: c.out}
}

// authenticate reads "token X", "Bearer X", or Basic auth with a token as
// the password. bad means credentials were sent and are not valid.
func (s *Server) authenticate(r *http.Request) (u *user, bad bool) {
	h := strings.TrimSpace(r.Header.Get("Authorization"))
	if h == "" {
		return nil, false
	}
	scheme, cred, _ := strings.Cut(h, " ")
	cred = strings.TrimSpace(cred)
	switch strings.ToLower(scheme) {
	case "token", "bearer":
		if u := s.st.tokens[cred]; u != nil {
			return u, false
		}
	case "basic":
		raw, err := base64.StdEncoding.DecodeString(cred)
		if err == nil {
			login, pass, _ := strings.Cut(string(raw), ":")
			if u := s.st.tokens[pass]; u != nil && strings.EqualFold(u.login, login) {
				return u, false
			}
			if u := s.st.checkPassword(login, pass); u != nil { // accounts with a password (h_users_accounts.go)
				return u, false
			}
		}
	}
	return nil, true
}

// write sends resp with the rate-limit headers, a Date from the server's
// clock, and the fault's body damage if any.
func (s *Server) write(w http.ResponseWriter, resp *response, rl http.Header, now time.Time, step *faultStep) {
	h := w.Header()
	for k, vs := range resp.header {
		h[k] = vs
	}
	for k, vs := range rl {
		h[k] = vs // lower-case keys, as Codeberg's edge sends them
	}
	h.Set("Date", now.UTC().Format(http.TimeFormat))
	body := resp.body
	if step != nil && step.f.OversizeBody > int64(len(body)) {
		body = append(body, bytes.Repeat([]byte(" "), int(step.f.OversizeBody)-len(body))...)
	}
	if step != nil && step.f.TruncateBody {
		// Declare more than is sent, then stop: net/http closes the
		// connection and the client reads an unexpected EOF.
		h.Set("Content-Length", strconv.Itoa(len(body)+64))
		w.WriteHeader(resp.status)
		_, _ = w.Write(body[:len(body)/2])
		return
	}
	if resp.status != http.StatusNoContent && resp.status != http.StatusNotModified {
		h.Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(resp.status)
	if len(body) > 0 && resp.status != http.StatusNoContent {
		_, _ = w.Write(body)
	}
}
