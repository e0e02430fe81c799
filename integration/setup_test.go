// Package integration runs forgego against a real Gitea server (Forgejo's
// upstream, same /api/v1 family). It needs the variables that
// scripts/gitea.sh start writes (FORGEGO_IT_URL, FORGEGO_IT_ADMIN_TOKEN, …);
// without them every test is skipped, saying so. .ci/run starts the server
// and runs this suite on every submission.
//
// The run also writes the route matrix, docs/ROUTES.md: for every operation
// of the client, whether this run exercised it and how it went.
package integration

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
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
	server   *env
	matrix   = newRouteMatrix()
	skipWhy  = "skipped: no real server; run `. \"$(scripts/gitea.sh start)\"` first (see scripts/gitea.md)"
	runStamp = time.Now().UTC().Format("150405")
)

func TestMain(m *testing.M) {
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
	} else {
		fmt.Fprintln(os.Stderr, "integration:", skipWhy)
	}
	code := m.Run()
	if server != nil && code == 0 && os.Getenv("FORGEGO_IT_ROUTES") != "off" {
		if err := matrix.write(routesPath()); err != nil {
			fmt.Fprintln(os.Stderr, "integration: writing the route matrix:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// need skips t visibly when no real server is configured.
func need(t *testing.T) *env {
	t.Helper()
	if server == nil {
		t.Skip(skipWhy)
	}
	return server
}

// client builds a client for the real server with the given token ("" for
// anonymous). Retries are quick: the server is local.
func client(t *testing.T, token string, opts ...forgejo.Option) *forgejo.Client {
	t.Helper()
	e := need(t)
	base := []forgejo.Option{
		forgejo.WithBaseURL(e.url),
		forgejo.WithRetryPolicy(forgejo.RetryPolicy{MaxAttempts: 3, BaseDelay: 10 * time.Millisecond, MaxDelay: 100 * time.Millisecond}),
		forgejo.WithObserver(matrix),
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

// unique returns a name no other run or test uses on the shared server.
func unique(prefix string) string {
	return fmt.Sprintf("%s-%s-%d", prefix, runStamp, time.Now().UnixNano()%1_000_000)
}

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

// routeMatrix is an Observer that records, per operation, how the real
// server answered. It is the source of docs/ROUTES.md.
type routeMatrix struct {
	mu  sync.Mutex
	ops map[string]*routeStats
}

type routeStats struct {
	responses   int         // responses received
	attemptErrs int         // attempts that failed (status, decode, transport)
	missing     int         // router-level 404s: the route does not exist here
	statuses    map[int]int // failing statuses
}

func newRouteMatrix() *routeMatrix { return &routeMatrix{ops: map[string]*routeStats{}} }

func (m *routeMatrix) stats(op string) *routeStats {
	s := m.ops[op]
	if s == nil {
		s = &routeStats{statuses: map[int]int{}}
		m.ops[op] = s
	}
	return s
}

func (m *routeMatrix) OnRequest(context.Context, forgejo.CallContext) {}

func (m *routeMatrix) OnResponse(_ context.Context, call forgejo.CallContext, status int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stats(call.Operation).responses++
}

func (m *routeMatrix) OnError(_ context.Context, call forgejo.CallContext, err error) {
	if call.Final {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.stats(call.Operation)
	s.attemptErrs++
	var ae *forgejo.APIError
	if errors.As(err, &ae) {
		s.statuses[ae.StatusCode]++
		if ae.StatusCode == 404 && ae.Message == "404 page not found" {
			s.missing++
		}
	}
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

func routesPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "docs", "ROUTES.md")
}

// write renders the matrix: every operation of the client, in table order.
func (m *routeMatrix) write(path string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	ops := forgejo.Operations()
	counts := map[string]int{}
	var rows []string
	for _, op := range ops {
		state, detail := "not-yet-exercised", ""
		if s := m.ops[op.ID]; s != nil {
			switch {
			case s.responses > s.attemptErrs:
				state = "exercised-ok"
			case s.missing > 0 && s.missing == s.attemptErrs:
				state = "not-on-this-server"
			default:
				state = "exercised-failing"
				var codes []string
				for code, n := range s.statuses {
					codes = append(codes, fmt.Sprintf("%d×%d", code, n))
				}
				sort.Strings(codes)
				detail = strings.Join(codes, ", ")
			}
		}
		counts[state]++
		rows = append(rows, fmt.Sprintf("| `%s` | %s | `%s` | %s.%s | %s | %s |", op.ID, op.Method, op.Path, op.Service, op.Name, state, detail))
	}
	var b strings.Builder
	b.WriteString("# Route matrix\n\n")
	b.WriteString("Written by the integration suite (`integration/`) from what it did against a real Gitea\n")
	b.WriteString("(`scripts/gitea.sh`, Gitea " + serverVersion() + "). Regenerate with\n")
	b.WriteString("`. \"$(scripts/gitea.sh start)\" && go test ./integration/`.\n\n")
	b.WriteString("| state | operations |\n|---|---:|\n")
	for _, st := range []string{"exercised-ok", "exercised-failing", "not-on-this-server", "not-yet-exercised"} {
		fmt.Fprintf(&b, "| %s | %d |\n", st, counts[st])
	}
	fmt.Fprintf(&b, "| total | %d |\n\n", len(ops))
	b.WriteString("| operationId | method | path | Go method | state | failing statuses |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		b.WriteString(r + "\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
