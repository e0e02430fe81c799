// Package integration runs forgego against a real Gitea server (Forgejo's
// upstream, same /api/v1 family), or a real Forgejo: the tests ask which
// one it is (onForgejo, from /version) where the two answer differently,
// and none skips for it. It needs the variables that scripts/gitea.sh start
// writes (FORGEGO_IT_URL, FORGEGO_IT_ADMIN_TOKEN, …; set them by hand for a
// Forgejo, see CONTRIBUTING.md); without them every test is skipped, saying
// so. .ci/run starts a Gitea and runs this suite on every submission.
//
// The run also writes the route matrix, docs/ROUTES.md: for every operation
// of the client, whether this run exercised it and how it went. Only a full
// run writes it (no -run or -skip filter), so that a partial run never
// replaces the matrix with a smaller one.
package integration

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
)

// env is the server under test.
type env struct {
	url                        string
	admin, user2               string
	adminToken, user2Token     string
	adminPassword, user2Passwd string
}

var (
	server     *env
	serverOnce sync.Once
	reportPath string
	required   bool // FORGEGO_IT_REQUIRE=1: a skipped suite fails
	// suite counts the top-level tests that called need.
	suite    = newAccounting()
	matrix   = newRouteMatrix()
	skipWhy  = "skipped: no real server; run `. \"$(scripts/gitea.sh start)\"` first (see scripts/gitea.md)"
	runStamp = time.Now().UTC().Format("150405")
	// transport is shared by every test client: it notes router-level misses
	// for the matrix.
	transport = &missTransport{next: http.DefaultTransport, misses: map[string]bool{}}
)

// targetOK is the number of distinct operations a full run must see
// answered successfully (issue 4).
const targetOK = 150

func TestMain(m *testing.M) {
	flag.Parse()
	// The server's variables are read inside the tests (need), never here:
	// go test's result cache only sees what the tests themselves read, so a
	// run against a freshly started server, with fresh tokens, can never be
	// replayed from a cached run.
	code := m.Run()
	if sharedCleanup != nil {
		sharedCleanup()
	}
	code = reportRun(code)
	if server != nil && code == 0 && fullRun() && os.Getenv("FORGEGO_IT_ROUTES") != "off" {
		counts, err := matrix.write(routesPath())
		if err != nil {
			fmt.Fprintln(os.Stderr, "integration: writing the route matrix:", err)
			code = 1
		} else {
			fmt.Fprintf(os.Stderr, "integration: route matrix: %d exercised-ok, %d exercised-failing, %d not-on-this-server, %d not-yet-exercised\n",
				counts["exercised-ok"], counts["exercised-failing"], counts["not-on-this-server"], counts["not-yet-exercised"])
			if counts["exercised-ok"] < targetOK {
				fmt.Fprintf(os.Stderr, "integration: FAIL: only %d operations exercised-ok, the target is %d\n", counts["exercised-ok"], targetOK)
				code = 1
			}
		}
	}
	os.Exit(code)
}

// fullRun reports whether every test of the package ran: no -run or -skip
// filter.
func fullRun() bool {
	for _, name := range []string{"test.run", "test.skip"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return false
		}
	}
	return true
}

// loadServer reads the server's variables once, from inside a test (see
// TestMain).
func loadServer() *env {
	serverOnce.Do(func() {
		reportPath = os.Getenv("FORGEGO_IT_REPORT")
		// Read here, inside a test, so that go test's cache keys on it: read
		// only after m.Run, a cached run without it was replayed as ok.
		required = os.Getenv("FORGEGO_IT_REQUIRE") == "1"
		if u := os.Getenv("FORGEGO_IT_URL"); u != "" {
			server = &env{
				url:           u,
				admin:         os.Getenv("FORGEGO_IT_ADMIN"),
				user2:         os.Getenv("FORGEGO_IT_USER2"),
				adminToken:    os.Getenv("FORGEGO_IT_ADMIN_TOKEN"),
				user2Token:    os.Getenv("FORGEGO_IT_USER2_TOKEN"),
				adminPassword: os.Getenv("FORGEGO_IT_ADMIN_PASSWORD"),
				user2Passwd:   os.Getenv("FORGEGO_IT_USER2_PASSWORD"),
			}
		}
	})
	return server
}

// need skips t visibly when no real server is configured, and counts the
// top-level tests that ran against the server or were skipped.
func need(t *testing.T) *env {
	t.Helper()
	e := loadServer()
	suite.note(t, e != nil)
	if e == nil {
		t.Skip(skipWhy)
	}
	return e
}

// accounting is the suite's count of top-level tests, by name: those that
// used the server, and those that were skipped. A skip counts wherever it
// happens: before need (no server), or after it (a test, or a subtest that
// called need, skipping itself); a test with any skip is counted as
// skipped, not ran, so that FORGEGO_IT_REQUIRE=1 and .ci/run fail on it.
type accounting struct {
	mu           sync.Mutex
	ran, skipped map[string]bool
	watched      map[testing.TB]bool // the tests whose late skip a cleanup watches
}

func newAccounting() *accounting {
	return &accounting{ran: map[string]bool{}, skipped: map[string]bool{}, watched: map[testing.TB]bool{}}
}

// note counts t's top-level test: skipped when there is no server (served
// false), else ran, until t skips itself: a cleanup registered here (once
// per t) sees t.Skipped() when t ends.
func (a *accounting) note(t testing.TB, served bool) {
	top, _, _ := strings.Cut(t.Name(), "/")
	a.mu.Lock()
	defer a.mu.Unlock()
	if !served {
		a.skipped[top] = true
		return
	}
	a.ran[top] = true
	if a.watched[t] {
		return
	}
	a.watched[t] = true
	t.Cleanup(func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		delete(a.watched, t)
		if t.Skipped() {
			a.skipped[top] = true
		}
	})
}

// counts is how many top-level tests ran (used the server and never
// skipped) and how many were skipped.
func (a *accounting) counts() (ran, skipped int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for top := range a.ran {
		if !a.skipped[top] {
			ran++
		}
	}
	return ran, len(a.skipped)
}

// skippedNames are the skipped top-level tests, sorted.
func (a *accounting) skippedNames() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	names := make([]string, 0, len(a.skipped))
	for top := range a.skipped {
		names = append(names, top)
	}
	sort.Strings(names)
	return names
}

// reportRun says how many tests used the server, fails the run when
// FORGEGO_IT_REQUIRE=1 (as .ci/run sets it) and the suite was skipped in
// whole or in part, and writes FORGEGO_IT_REPORT for .ci/run.
func reportRun(code int) int {
	loadServer()
	ran, skipped := suite.counts()
	fmt.Fprintf(os.Stderr, "integration: %d tests ran against a real server, %d skipped\n", ran, skipped)
	if server != nil && skipped > 0 {
		fmt.Fprintln(os.Stderr, "integration: skipped:", strings.Join(suite.skippedNames(), " "))
	}
	if server == nil {
		fmt.Fprintln(os.Stderr, "integration:", skipWhy)
	}
	if required && (server == nil || skipped > 0 || ran == 0) {
		fmt.Fprintln(os.Stderr, "integration: FAIL: FORGEGO_IT_REQUIRE=1 but the suite did not run against the server")
		code = 1
	}
	if reportPath != "" {
		if err := os.WriteFile(reportPath, fmt.Appendf(nil, "ran=%d skipped=%d code=%d\n", ran, skipped, code), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "integration: writing the report:", err)
			code = 1
		}
	}
	return code
}

// client builds a client for the real server with the given token ("" for
// anonymous). Retries are quick: the server is local.
func client(t *testing.T, token string, opts ...forgejo.ClientOption) *forgejo.Client {
	t.Helper()
	e := need(t)
	base := []forgejo.ClientOption{
		forgejo.WithBaseURL(e.url),
		forgejo.WithRetryPolicy(forgejo.RetryPolicy{MaxAttempts: 3, BaseDelay: 10 * time.Millisecond, MaxDelay: 100 * time.Millisecond}),
		forgejo.WithHooks(matrix.hooks()),
		forgejo.WithHTTPClient(&http.Client{Transport: transport}),
	}
	if token != "" {
		base = append(base, forgejo.WithToken(token))
	}
	c, err := forgejo.NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func admin(t *testing.T) *forgejo.Client { return client(t, need(t).adminToken) }
func user2(t *testing.T) *forgejo.Client { return client(t, need(t).user2Token) }

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return c
}

// unique returns a name no other run or test uses on the shared server:
// the run's start time, a counter, and a few changing digits.
func unique(prefix string) string {
	return fmt.Sprintf("%s-%s-%d%03d", prefix, runStamp, uniqueSeq.Add(1), time.Now().UnixNano()%1000)
}

var uniqueSeq atomic.Int64

// mustStatus asserts err is an *APIError with the given status and a
// message from the server.
func mustStatus(t *testing.T, err error, status int) *forgejo.APIError {
	t.Helper()
	var ae *forgejo.APIError
	if !errors.As(err, &ae) || ae.StatusCode != status {
		t.Fatalf("err = %v, want *APIError %d", err, status)
	}
	return ae
}

// ok fails the test at once on err.
func ok(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// cleanup registers a deletion to run when t ends. A 404 means the test
// already deleted the thing, which is fine; anything else is a failure.
func cleanup(t *testing.T, what string, del func(context.Context) (*forgejo.Response, error)) {
	t.Helper()
	t.Cleanup(func() {
		c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := del(c)
		var ae *forgejo.APIError
		if err != nil && !(errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound) {
			t.Errorf("cleanup: delete %s: %v", what, err)
		}
	})
}

// status is the HTTP status of a response, 0 when none arrived.
func status(resp *forgejo.Response) int {
	if resp == nil || resp.StatusCode == 0 {
		return 0
	}
	return resp.StatusCode
}

// missTransport notes every router-level miss, keyed by method and path:
// a text/plain "404 page not found" (no such path on this server) or an
// empty 405 with an Allow header (the path exists, not with this method).
// The matrix can then tell a missing route from a missing object, also for
// the Bool operations, whose 404 the client turns into false.
type missTransport struct {
	next   http.RoundTripper
	mu     sync.Mutex
	misses map[string]bool
}

func (m *missTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := m.next.RoundTrip(r)
	if err != nil {
		return resp, err
	}
	notFound := resp.StatusCode == http.StatusNotFound && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain")
	notAllowed := resp.StatusCode == http.StatusMethodNotAllowed && resp.Header.Get("Allow") != ""
	if !notFound && !notAllowed {
		return resp, err
	}
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, 4096))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	text := strings.TrimSpace(string(body))
	if rerr == nil && (notFound && text == "404 page not found" || notAllowed && text == "") {
		m.mu.Lock()
		m.misses[r.Method+" "+r.URL.EscapedPath()] = true
		m.mu.Unlock()
	}
	return resp, nil
}

// missed reports whether the call's route answered a router-level miss.
func (m *missTransport) missed(call forgejo.CallContext) bool {
	u, err := url.Parse(call.URL)
	if err != nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.misses[call.Method+" "+u.EscapedPath()]
}

// routeMatrix records, through its hooks,, per operation, how the real
// server answered. It is the source of docs/ROUTES.md.
type routeMatrix struct {
	mu  sync.Mutex
	ops map[string]*routeStats
}

type routeStats struct {
	absent    string         // set by a test that proved the operation absent another way
	responses int            // responses from a route that exists
	answered  int            // of those, attempts that then failed (status or decode)
	missing   int            // router-level 404s: the route does not exist here
	failures  map[string]int // why attempts failed: a status, "decode" or "transport"
}

func newRouteMatrix() *routeMatrix { return &routeMatrix{ops: map[string]*routeStats{}} }

func (m *routeMatrix) stats(op string) *routeStats {
	s := m.ops[op]
	if s == nil {
		s = &routeStats{failures: map[string]int{}}
		m.ops[op] = s
	}
	return s
}

// hooks are the matrix's client hooks.
func (m *routeMatrix) hooks() forgejo.Hooks {
	return forgejo.Hooks{Response: m.OnResponse, Error: m.OnError}
}

func (m *routeMatrix) OnResponse(_ context.Context, call forgejo.CallContext, status int) {
	miss := (status == http.StatusNotFound || status == http.StatusMethodNotAllowed) && transport.missed(call)
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.stats(call.Operation)
	if miss {
		s.missing++
		return
	}
	s.responses++
}

func (m *routeMatrix) OnError(_ context.Context, call forgejo.CallContext, err error) {
	if call.Final {
		return
	}
	var (
		ae *forgejo.APIError
		de *forgejo.DecodeError
		te *forgejo.TransportError
	)
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.stats(call.Operation)
	switch {
	case errors.As(err, &ae):
		if (ae.StatusCode == http.StatusNotFound || ae.StatusCode == http.StatusMethodNotAllowed) && transport.missed(call) {
			return // counted as missing in OnResponse
		}
		s.answered++
		s.failures[fmt.Sprint(ae.StatusCode)]++
	case errors.As(err, &de):
		s.answered++
		s.failures["decode"]++
	case errors.As(err, &te) && te.Kind == forgejo.TransportResponseTooLarge:
		s.answered++
		s.failures["too-large"]++
	default:
		s.failures["transport"]++
	}
}

// markAbsent records that op does not exist on this server although the
// server answered from a handler: Gitea routes the same path to another
// operation. why says which.
func (m *routeMatrix) markAbsent(op, why string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stats(op).absent = why
}

// state classifies one operation.
func (s *routeStats) state() (state, detail string) {
	if s == nil {
		return "not-yet-exercised", ""
	}
	if s.absent != "" && s.responses <= s.answered {
		return "not-on-this-server", s.absent
	}
	var why []string
	for k, n := range s.failures {
		why = append(why, fmt.Sprintf("%s×%d", k, n))
	}
	sort.Strings(why)
	switch {
	case s.responses > s.answered:
		return "exercised-ok", ""
	case s.missing > 0 && len(s.failures) == 0:
		return "not-on-this-server", ""
	case len(s.failures) > 0:
		return "exercised-failing", strings.Join(why, ", ")
	}
	return "not-yet-exercised", ""
}

// counts returns how many operations are in each state.
func (m *routeMatrix) counts() map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	counts := map[string]int{}
	for _, op := range forgejo.Operations() {
		st, _ := m.ops[op.ID].state()
		counts[st]++
	}
	return counts
}

// serverVersion asks the server under test for its version.
func serverVersion() string {
	c, err := forgejo.NewClient(forgejo.WithBaseURL(server.url))
	if err != nil {
		return "(unknown)"
	}
	v, _, err := c.Misc.GetVersion(context.Background())
	if err != nil {
		return "(unknown)"
	}
	return v.Version
}

// serverKind names the server under test from its version string: a
// Forgejo reports its own version with the Gitea level it is compatible
// with ("15.0.3+gitea-1.22.0"), a Gitea its bare version ("1.27.3").
func serverKind(version string) string {
	info, ok := forgejo.ParseVersion(version)
	switch {
	case !ok:
		return "a real server of unknown kind (version " + version + ")"
	case info.Forgejo:
		return "a real Forgejo (Forgejo " + version + ")"
	}
	return "a real Gitea (`scripts/gitea.sh`, Gitea " + version + ")"
}

func routesPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "docs", "ROUTES.md")
}

// write renders the matrix: every operation of the client, in table order.
func (m *routeMatrix) write(path string) (map[string]int, error) {
	counts := m.counts()
	m.mu.Lock()
	defer m.mu.Unlock()
	var rows []string
	for _, op := range forgejo.Operations() {
		state, detail := m.ops[op.ID].state()
		rows = append(rows, fmt.Sprintf("| `%s` | %s | `%s` | %s.%s | %s | %s |", op.ID, op.Method, op.Path, op.Service, op.Name, state, detail))
	}
	var b strings.Builder
	b.WriteString("# Route matrix\n\n")
	version := serverVersion()
	b.WriteString("Written by the integration suite (`integration/`) from what it did against " + serverKind(version) + ".\n")
	b.WriteString("Regenerate with `. \"$(scripts/gitea.sh start)\" && go test ./integration/` (a real Gitea, as .ci/run does;\n")
	b.WriteString("a full run: `-run` does not write it).\n\n")
	b.WriteString("- **exercised-ok**: the server answered at least one call of the operation with success.\n")
	b.WriteString("- **exercised-failing**: every call failed; the statuses (or `decode`) are listed. Each is a refusal of this\n")
	b.WriteString("  server's setup (no signing key, git hooks disabled, no runner) or a Gitea body the client's Forgejo model\n")
	b.WriteString("  cannot decode; see docs/HAZARDS.md.\n")
	b.WriteString("- **not-on-this-server**: the route does not exist here: a router-level `text/plain` \"404 page not found\",\n")
	if info, _ := forgejo.ParseVersion(version); info.Forgejo {
		b.WriteString("  or an empty 405 with `Allow` (the path exists with other methods): operations newer than this release,\n")
		b.WriteString("  and those behind a setting that is off here (quota, repository flags, federation).\n")
	} else {
		b.WriteString("  or an empty 405 with `Allow` (the path exists with other methods). Forgejo-only operations: quota, flags,\n")
		b.WriteString("  blocking, ActivityPub, runner registration, sync_fork, notes writing, review comments by id….\n")
	}
	b.WriteString("- **not-yet-exercised**: no test calls it yet.\n\n")
	b.WriteString("| state | operations |\n|---|---:|\n")
	for _, st := range []string{"exercised-ok", "exercised-failing", "not-on-this-server", "not-yet-exercised"} {
		fmt.Fprintf(&b, "| %s | %d |\n", st, counts[st])
	}
	fmt.Fprintf(&b, "| total | %d |\n\n", len(rows))
	b.WriteString("| operationId | method | path | Go method | state | detail |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		b.WriteString(r + "\n")
	}
	return counts, os.WriteFile(path, []byte(b.String()), 0o644)
}
