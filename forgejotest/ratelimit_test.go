package forgejotest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// fakeClock is a settable clock for deterministic rate-limit tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Sleep and Timer move the time on by d and end at once.
func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.Advance(d)
	return ctx.Err()
}

func (c *fakeClock) Timer(d time.Duration) (<-chan time.Time, func()) {
	c.Advance(d)
	ch := make(chan time.Time, 1)
	ch <- c.Now()
	return ch, func() {}
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestRateLimitQuotaAndReset(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)}
	srv := NewServer(t, WithRateLimit(3, 10*time.Second), WithClock(clock))
	srv.AddRepo("alice", "demo")

	type want struct {
		status     int
		limit      string
		retryAfter string
	}
	step := func(name, path string, w want) {
		t.Helper()
		resp, body := raw(t, srv, "GET", path, "", nil)
		if resp.StatusCode != w.status {
			t.Errorf("%s: status %d, want %d (%s)", name, resp.StatusCode, w.status, body)
		}
		if got := resp.Header.Get("Ratelimit-Policy"); got != `"baseline";q=3;w=10` {
			t.Errorf("%s: ratelimit-policy %q", name, got)
		}
		if got := resp.Header.Get("Ratelimit"); got != w.limit {
			t.Errorf("%s: ratelimit %q, want %q", name, got, w.limit)
		}
		if got := resp.Header.Get("Retry-After"); got != w.retryAfter {
			t.Errorf("%s: Retry-After %q, want %q", name, got, w.retryAfter)
		}
	}
	step("first", "/api/v1/version", want{200, `"baseline";r=2;t=10`, ""})
	clock.Advance(1500 * time.Millisecond)
	// Failed requests spend quota too: a 404 and an unknown route.
	step("404", "/api/v1/repos/alice/nope", want{404, `"baseline";r=1;t=9`, ""})
	step("unknown route", "/api/v1/nope", want{404, `"baseline";r=0;t=9`, ""})
	step("spent", "/api/v1/version", want{429, `"baseline";r=0;t=9`, "9"})
	clock.Advance(4 * time.Second) // 5.5s in: 4.5s left, rounded up
	step("still spent", "/api/v1/version", want{429, `"baseline";r=0;t=5`, "5"})
	clock.Advance(4500 * time.Millisecond) // the window resets at 10s
	step("new window", "/api/v1/version", want{200, `"baseline";r=2;t=10`, ""})
	clock.Advance(25 * time.Second) // two windows later, aligned on the start
	step("skipped windows", "/api/v1/version", want{200, `"baseline";r=2;t=5`, ""})

	log := srv.Requests()
	if log[3].Status != 429 || log[3].Fault != "rate limited" || log[3].Operation != "getVersion" {
		t.Errorf("log %+v", log[3])
	}
}

func TestRateLimitWithClient(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)}
	srv := NewServer(t, WithRateLimit(2, time.Minute), WithClock(clock))
	client := srv.Client()
	ctx := context.Background()
	for range 2 {
		if _, _, err := client.Misc.GetVersion(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// The clock does not move: every retry is refused and the 429 comes
	// back, wrapped, with the server's Retry-After.
	_, resp, err := client.Misc.GetVersion(ctx)
	var apiErr *forgejo.APIError
	var exhausted *forgejo.RetriesExhaustedError
	if !errors.As(err, &exhausted) || !errors.As(err, &apiErr) || apiErr.StatusCode != 429 {
		t.Fatalf("err %v", err)
	}
	if d, ok := apiErr.RetryAfter(); !ok || d != time.Minute {
		t.Errorf("Retry-After %v %v", d, ok)
	}
	if resp.Attempts != 3 || resp.Header.Get("Ratelimit") != `"baseline";r=0;t=60` {
		t.Errorf("attempts %d, ratelimit %q", resp.Attempts, resp.Header.Get("Ratelimit"))
	}
	// Injected faults do not fire while the quota is spent; seeding costs
	// nothing.
	srv.Inject(Fault{Operation: "getVersion", Statuses: []int{503}})
	srv.AddRepo("alice", "demo")
	clock.Advance(time.Minute)
	if _, _, err := client.Misc.GetVersion(ctx); err != nil { // 503 then 200
		t.Errorf("after reset: %v", err)
	}
	if srv.PendingFaults() != 0 {
		t.Error("fault not used")
	}
}

func TestNoRateLimitHeadersByDefault(t *testing.T) {
	srv := NewServer(t)
	resp, _ := raw(t, srv, "GET", "/api/v1/version", "", nil)
	if resp.Header.Get("Ratelimit") != "" || resp.Header.Get("Ratelimit-Policy") != "" {
		t.Errorf("headers %v", resp.Header)
	}
}

func TestRequestLog(t *testing.T) {
	srv := NewServer(t)
	srv.AddRepo("alice", "demo")
	srv.AddIssues("alice", "demo", 2) // seeding is not logged
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests before any call", n)
	}
	client := srv.Client()
	ctx := context.Background()
	if _, _, err := client.Issues.Create(ctx, "alice", "demo", forgejo.CreateIssueRequest{Title: "new", Body: "text"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := client.Issues.List(ctx, "alice", "demo", &forgejo.IssueListOptions{State: "all", ListOptions: forgejo.ListOptions{Limit: 5}}); err != nil {
		t.Fatal(err)
	}
	log := srv.Requests()
	if len(log) != 2 {
		t.Fatalf("%d requests", len(log))
	}
	c := log[0]
	if c.Method != "POST" || c.Path != "/api/v1/repos/alice/demo/issues" || c.Operation != "issueCreateIssue" ||
		c.Status != 201 || string(c.Body) != `{"body":"text","title":"new"}` || c.Time.IsZero() {
		t.Errorf("create %+v (body %s)", c, c.Body)
	}
	l := log[1]
	if l.Method != "GET" || l.Query.Get("state") != "all" || l.Query.Get("page") != "1" || l.Query.Get("limit") != "5" ||
		l.RawQuery != "state=all&page=1&limit=5" || l.Status != 200 {
		t.Errorf("list %+v", l)
	}
	if srv.Count("issueCreateIssue") != 1 || srv.CountPath("POST", "/repos/alice/demo/issues") != 1 ||
		srv.CountPath("", "/api/v1/repos/alice/demo/issues") != 2 {
		t.Errorf("counts %d %d %d", srv.Count("issueCreateIssue"), srv.CountPath("POST", "/repos/alice/demo/issues"),
			srv.CountPath("", "/api/v1/repos/alice/demo/issues"))
	}
	if ops := srv.Operations(); len(ops) != 2 || ops[0] != "issueCreateIssue" || ops[1] != "issueListIssues" {
		t.Errorf("operations %v", ops)
	}
	// Copies: changing the result does not change the log.
	log[0].Body[0] = 'X'
	log[1].Query.Set("state", "changed")
	if again := srv.Requests(); again[0].Body[0] != '{' || again[1].Query.Get("state") != "all" {
		t.Error("Requests returned shared memory")
	}
	srv.ResetRequests()
	if len(srv.Requests()) != 0 || srv.Count("issueCreateIssue") != 0 {
		t.Error("ResetRequests kept entries")
	}
}

func TestConcurrentUse(t *testing.T) {
	srv := NewServer(t, WithMaxResponseItems(5))
	srv.AddRepo("alice", "demo")
	// Seven 503s are injected while the calls run, and any call may meet
	// them all: one attempt more than that lets every call through, so an
	// error here is a race in the server, not the faults adding up.
	retry := FastRetry
	retry.MaxAttempts = 8
	client := srv.Client(forgejo.WithRetryPolicy(retry))
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := client.Issues.Create(ctx, "alice", "demo", forgejo.CreateIssueRequest{Title: "concurrent"}); err != nil {
				t.Error(err)
			}
			if i%3 == 0 {
				srv.Inject(Fault{Operation: "getVersion", Statuses: []int{503}})
			}
			if _, _, err := client.Misc.GetVersion(ctx); err != nil {
				t.Error(err)
			}
			_ = srv.Requests()
		}()
	}
	wg.Wait()
	seen := map[int64]bool{}
	for is, err := range client.Issues.ListIter(ctx, "alice", "demo", nil) {
		if err != nil {
			t.Fatal(err)
		}
		seen[is.Number] = true
	}
	if len(seen) != 20 {
		t.Errorf("%d distinct issues, want 20", len(seen))
	}
}
