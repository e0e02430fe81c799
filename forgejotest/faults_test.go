package forgejotest

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// recorder keeps retry waits (its OnRetry is a Retry hook).
type recorder struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (r *recorder) OnRetry(_ context.Context, _ forgejo.CallContext, _ error, wait time.Duration) {
	r.mu.Lock()
	r.waits = append(r.waits, wait)
	r.mu.Unlock()
}

func TestFaultStatusSequence(t *testing.T) {
	srv := NewServer(t)
	srv.AddRepo("alice", "demo")
	srv.AddIssues("alice", "demo", 3)
	srv.Inject(Fault{Operation: "issueListIssues", Statuses: []int{503, 503}, RetryAfter: "1"})
	if srv.PendingFaults() != 2 {
		t.Fatalf("pending %d", srv.PendingFaults())
	}
	rec := &recorder{}
	// Retry-After 1s, clamped by the policy's MaxDelay to 20ms.
	client := srv.Client(forgejo.WithHooks(forgejo.Hooks{Retry: rec.OnRetry}), forgejo.WithRetryPolicy(forgejo.RetryPolicy{
		MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond, Jitter: forgejo.JitterNone, RespectRetryAfter: true,
	}))
	issues, resp, err := client.Issues.List(context.Background(), "alice", "demo", nil)
	if err != nil || len(issues) != 3 || resp.Attempts != 3 {
		t.Fatalf("list: %v, %d issues, %d attempts", err, len(issues), resp.Attempts)
	}
	if len(rec.waits) != 2 || rec.waits[0] != 20*time.Millisecond {
		t.Errorf("waits %v: Retry-After was not honoured", rec.waits)
	}
	log := srv.Requests()
	if len(log) != 3 {
		t.Fatalf("%d requests", len(log))
	}
	for i, want := range []struct {
		status int
		fault  string
	}{{503, "status 503"}, {503, "status 503"}, {200, ""}} {
		if log[i].Status != want.status || log[i].Fault != want.fault || log[i].Operation != "issueListIssues" {
			t.Errorf("request %d: %+v", i, log[i])
		}
	}
	if srv.PendingFaults() != 0 || srv.Count("issueListIssues") != 3 {
		t.Errorf("pending %d, count %d", srv.PendingFaults(), srv.Count("issueListIssues"))
	}

	// A create is never retried: one 503 reaches the caller and the issue
	// was filed zero times.
	srv.Inject(Fault{Method: "POST", Path: "/repos/{owner}/{repo}/issues", Statuses: []int{503}})
	_, _, err = srv.Client().Issues.Create(context.Background(), "alice", "demo", forgejo.CreateIssueRequest{Title: "x"})
	var apiErr *forgejo.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || apiErr.Message != "Service Unavailable" {
		t.Errorf("create under 503: %v", err)
	}
	if srv.Count("issueCreateIssue") != 1 {
		t.Errorf("create sent %d times", srv.Count("issueCreateIssue"))
	}
}

func TestFaultRetryAfterForms(t *testing.T) {
	at := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	srv := NewServer(t, WithClock(NewFakeClock(at)))
	srv.Inject(Fault{Operation: "getVersion", Statuses: []int{429}, RetryAfter: "7"})
	srv.Inject(Fault{Operation: "getVersion", Statuses: []int{503}, RetryAfterDate: 3 * time.Second,
		Header: http.Header{"X-Extra": {"yes"}}, Body: "upstream down"})
	resp, body := raw(t, srv, "GET", "/api/v1/version", "", nil)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "7" {
		t.Errorf("delta form: %d %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if !strings.Contains(string(body), `"message":"Too Many Requests"`) {
		t.Errorf("default body %s", body)
	}
	resp, body = raw(t, srv, "GET", "/api/v1/version", "", nil)
	if resp.StatusCode != 503 || resp.Header.Get("Date") != "Sat, 01 Aug 2026 12:00:00 GMT" ||
		resp.Header.Get("Retry-After") != "Sat, 01 Aug 2026 12:00:03 GMT" || resp.Header.Get("X-Extra") != "yes" || string(body) != "upstream down" {
		t.Errorf("date form: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	// The client reads the date form against Date: a 3s wait.
	srv.Inject(Fault{Operation: "getVersion", Statuses: []int{503}, RetryAfterDate: 3 * time.Second})
	_, _, err := srv.Client(forgejo.WithRetryPolicy(forgejo.RetryOff())).Misc.GetVersion(context.Background())
	var apiErr *forgejo.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err %v", err)
	}
	if d, ok := apiErr.RetryAfter(); !ok || d != 3*time.Second {
		t.Errorf("client read Retry-After %v %v", d, ok)
	}
	resp, _ = raw(t, srv, "GET", "/api/v1/version", "", nil)
	if resp.StatusCode != 200 {
		t.Errorf("after the faults: %d", resp.StatusCode)
	}
}

func TestFaultReset(t *testing.T) {
	srv := NewServer(t)
	srv.AddRepo("alice", "demo")
	srv.Inject(Fault{Operation: "repoGet", Reset: true})
	_, _, err := srv.Client(forgejo.WithRetryPolicy(forgejo.RetryOff())).Repos.Get(context.Background(), "alice", "demo")
	var te *forgejo.TransportError
	if !errors.As(err, &te) || te.Kind != forgejo.TransportConnection {
		t.Fatalf("reset: %v", err)
	}
	log := srv.Requests()
	if log[0].Status != 0 || log[0].Fault != "connection reset" {
		t.Errorf("log %+v", log[0])
	}
	// A read survives a reset by retrying.
	srv.Inject(Fault{Operation: "repoGet", Reset: true})
	repo, resp, err := srv.Client().Repos.Get(context.Background(), "alice", "demo")
	if err != nil || repo.Name != "demo" || resp.Attempts != 2 {
		t.Errorf("retried reset: %v %v", err, resp)
	}
	// On a reused keep-alive connection net/http resends a GET once by
	// itself; Times: 2 gets a reset through to the library.
	client := srv.Client()
	if _, _, err := client.Repos.Get(context.Background(), "alice", "demo"); err != nil {
		t.Fatal(err)
	}
	srv.ResetRequests()
	srv.Inject(Fault{Operation: "repoGet", Reset: true, Times: 2})
	_, resp, err = client.Repos.Get(context.Background(), "alice", "demo")
	if err != nil || resp.Attempts < 2 || srv.Count("repoGet") != 3 {
		t.Errorf("reset on a reused connection: %v, %d attempts, %d requests", err, resp.Attempts, srv.Count("repoGet"))
	}
}

func TestFaultDelayHonoursContext(t *testing.T) {
	srv := NewServer(t)
	srv.Inject(Fault{Operation: "getVersion", Delay: time.Minute})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err := srv.Client(forgejo.WithRetryPolicy(forgejo.RetryOff())).Misc.GetVersion(ctx)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("took %v", el)
	}
	// The server stops waiting when the client leaves.
	deadline := time.Now().Add(5 * time.Second)
	for {
		log := srv.Requests()
		if len(log) == 1 && strings.HasPrefix(log[0].Fault, "delay 1m0s (client gave up)") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("log %+v", log)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// A short delay is answered for real afterwards.
	srv.Inject(Fault{Operation: "getVersion", Delay: 20 * time.Millisecond})
	start = time.Now()
	v, _, err := srv.Client().Misc.GetVersion(context.Background())
	if err != nil || v.Version != DefaultVersion || time.Since(start) < 20*time.Millisecond {
		t.Errorf("delayed: %v %v after %v", v, err, time.Since(start))
	}
}

func TestFaultTruncatedAndOversized(t *testing.T) {
	srv := NewServer(t)
	srv.AddRepo("alice", "demo")
	srv.Inject(Fault{Operation: "repoGet", TruncateBody: true})
	_, _, err := srv.Client(forgejo.WithRetryPolicy(forgejo.RetryOff())).Repos.Get(context.Background(), "alice", "demo")
	var te *forgejo.TransportError
	if !errors.As(err, &te) || te.Kind != forgejo.TransportConnection {
		t.Errorf("truncated: %v", err)
	}
	if log := srv.Requests(); log[0].Fault != "truncated body" || log[0].Status != 200 {
		t.Errorf("log %+v", log[0])
	}

	srv.Inject(Fault{Operation: "repoGet", OversizeBody: 1 << 20})
	_, _, err = srv.Client(forgejo.WithMaxResponseBytes(64<<10)).Repos.Get(context.Background(), "alice", "demo")
	if !errors.As(err, &te) || te.Kind != forgejo.TransportResponseTooLarge {
		t.Errorf("oversized: %v", err)
	}
	// Padded with spaces, the oversized body is still valid JSON.
	srv.Inject(Fault{Operation: "repoGet", OversizeBody: 100 << 10})
	resp, body := raw(t, srv, "GET", "/api/v1/repos/alice/demo", "", nil)
	if resp.StatusCode != 200 || len(body) != 100<<10 {
		t.Errorf("oversized raw: %d, %d bytes", resp.StatusCode, len(body))
	}
	decodeJSON[map[string]any](t, body)
}

func TestFaultMatching(t *testing.T) {
	srv := NewServer(t)
	srv.AddRepo("alice", "demo")
	srv.AddRepo("alice", "other")
	// By concrete path: only that repository; by method: only GET.
	srv.Inject(Fault{Method: "GET", Path: "/api/v1/repos/alice/other", Statuses: []int{500}})
	if resp, _ := raw(t, srv, "GET", "/api/v1/repos/alice/demo", "", nil); resp.StatusCode != 200 {
		t.Errorf("demo hit by other's fault: %d", resp.StatusCode)
	}
	if resp, _ := raw(t, srv, "DELETE", "/api/v1/repos/alice/other", "", nil); resp.StatusCode != 401 {
		t.Errorf("DELETE hit by GET fault: %d", resp.StatusCode)
	}
	if resp, _ := raw(t, srv, "GET", "/api/v1/repos/alice/other", "", nil); resp.StatusCode != 500 {
		t.Errorf("other: %d", resp.StatusCode)
	}
	// A 0 in the sequence answers for real; faults queue in order.
	srv.Inject(Fault{Operation: "getVersion", Statuses: []int{502, 0}})
	srv.Inject(Fault{Operation: "getVersion", Statuses: []int{504}})
	var got []int
	for range 4 {
		resp, _ := raw(t, srv, "GET", "/api/v1/version", "", nil)
		got = append(got, resp.StatusCode)
	}
	if want := []int{502, 200, 504, 200}; !equalInts(toInt64(got), toInt64(want)) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	// Operations the fake does not implement can still be named.
	var unimplemented string
	impl := ImplementedOperations()
	for _, k := range libraryOps() {
		if !contains(impl, k.id) {
			unimplemented = k.id
			break
		}
	}
	if unimplemented != "" {
		if _, err := srv.checkFault(Fault{Operation: unimplemented, Statuses: []int{503}}); err != nil {
			t.Errorf("%s: %v", unimplemented, err)
		}
	}
}

func toInt64(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

func TestInvalidFaults(t *testing.T) {
	srv := NewServer(t)
	for _, f := range []Fault{
		{},
		{Operation: "noSuchOperation"},
		{Operation: "getVersion", Reset: true, Statuses: []int{503}},
		{Operation: "getVersion", Statuses: []int{42}},
		{Path: "/version", Delay: -time.Second},
	} {
		if _, err := srv.checkFault(f); err == nil {
			t.Errorf("%+v accepted", f)
		}
	}
	// From Start there is no test to fail: Inject panics.
	s2, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "unknown operation") {
			t.Errorf("recovered %v", r)
		}
	}()
	s2.Inject(Fault{Operation: "noSuchOperation"})
}
