package forgejo

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func clClient(t *testing.T, url string, opts ...ClientOption) *Client {
	t.Helper()
	c, err := NewClient(append([]ClientOption{WithBaseURL(url), WithRetryPolicy(RetryOff())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDefaults(t *testing.T) {
	c, err := NewClient()
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseURL() != "https://codeberg.org/api/v1" || c.PageSize() != 30 || c.RetryPolicy() != DefaultRetryPolicy() {
		t.Fatalf("defaults: %v %d %v", c.BaseURL(), c.PageSize(), c.RetryPolicy())
	}
	if c.maxResponseBytes != 16*1024*1024 || c.maxDownloadBytes != 50*1024*1024 || c.attemptTimeout != 30*time.Second {
		t.Fatalf("bounds: %d %d %v", c.maxResponseBytes, c.maxDownloadBytes, c.attemptTimeout)
	}
}

func TestHeadersSent(t *testing.T) {
	srv, seen := tsReplyServer(t, 200, "application/json", `{"version":"1"}`)
	c := clClient(t, srv.URL, WithToken("abcdefgh12345678"))
	if _, _, err := c.Misc.GetVersion(context.Background()); err != nil {
		t.Fatal(err)
	}
	h := seen()[0].header
	if h.Get("User-Agent") != "forgego/"+Version || h.Get("Authorization") != "token abcdefgh12345678" || h.Get("Accept") != "application/json" {
		t.Fatalf("headers = %v", h)
	}
	if seen()[0].path != "/api/v1/version" || seen()[0].method != "GET" {
		t.Fatalf("request = %+v", seen()[0])
	}

	c2 := clClient(t, srv.URL, WithUserAgent("  my-bot/2  "), WithBasicAuth("alice", "s3cret"))
	_, _, _ = c2.Misc.GetVersion(context.Background())
	h = seen()[1].header
	if h.Get("User-Agent") != "my-bot/2" || h.Get("Authorization") != "Basic YWxpY2U6czNjcmV0" {
		t.Fatalf("headers = %v", h)
	}
	c3 := clClient(t, srv.URL)
	_, _, _ = c3.Misc.GetVersion(context.Background())
	if _, ok := seen()[2].header["Authorization"]; ok {
		t.Fatal("an anonymous client must send no Authorization")
	}
}

func TestRequestShapes(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name                string
		status              int
		body                string
		call                func(c *Client) error
		method, path, query string
		wantBody, wantCType string
	}{
		{"get repo", 200, `{"id":1}`, func(c *Client) error { _, _, err := c.Repos.Get(ctx, "forgejo", "forgejo"); return err },
			"GET", "/api/v1/repos/forgejo/forgejo", "", "", ""},
		{"get issue", 200, `{"id":1}`, func(c *Client) error { _, _, err := c.Issues.Get(ctx, "o", "r", 2966); return err },
			"GET", "/api/v1/repos/o/r/issues/2966", "", "", ""},
		{"list issues: filters first, paging last", 200, `[]`, func(c *Client) error {
			_, _, err := c.Issues.List(ctx, "o", "r", &IssueListOptions{State: "all", Labels: []string{"bug", "ui"}, Type: "issues",
				Since: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ListOptions: ListOptions{Page: 2, Limit: 50}})
			return err
		}, "GET", "/api/v1/repos/o/r/issues", "state=all&labels=bug%2Cui&type=issues&since=2026-01-02T03%3A04%3A05Z&page=2&limit=50", "", ""},
		{"list issues with nil options", 200, `[]`, func(c *Client) error { _, _, err := c.Issues.List(ctx, "o", "r", nil); return err },
			"GET", "/api/v1/repos/o/r/issues", "page=1&limit=30", "", ""},
		{"list topics", 200, `{"topics":["a"]}`, func(c *Client) error { _, _, err := c.Repos.ListTopics(ctx, "o", "r", nil); return err },
			"GET", "/api/v1/repos/o/r/topics", "page=1&limit=30", "", ""},
		{"create issue sends only set fields", 201, `{"id":1}`, func(c *Client) error {
			_, _, err := c.Issues.Create(ctx, "o", "r", CreateIssueRequest{Title: "Crash", Labels: []int64{3}})
			return err
		}, "POST", "/api/v1/repos/o/r/issues", "", `{"labels":[3],"title":"Crash"}`, "application/json"},
		{"edit issue: nil is unset, a pointer to zero is sent", 201, `{"id":1}`, func(c *Client) error {
			_, _, err := c.Issues.Edit(ctx, "o", "r", 5, EditIssueRequest{State: Ptr(StateClosed), Body: Ptr(""), Assignees: []string{}})
			return err
		}, "PATCH", "/api/v1/repos/o/r/issues/5", "", `{"assignees":[],"body":"","state":"closed"}`, "application/json"},
		{"update topics sends the whole list", 204, "", func(c *Client) error {
			_, err := c.Repos.ReplaceTopics(ctx, "o", "r", []string{"go", "forgejo"})
			return err
		}, "PUT", "/api/v1/repos/o/r/topics", "", `{"topics":["go","forgejo"]}`, "application/json"},
		{"update topics with nil clears them", 204, "", func(c *Client) error {
			_, err := c.Repos.ReplaceTopics(ctx, "o", "r", nil)
			return err
		}, "PUT", "/api/v1/repos/o/r/topics", "", `{"topics":[]}`, "application/json"},
		{"read thread sends no body and no query", 205, `{"id":9}`, func(c *Client) error {
			_, err := c.Notifications.MarkThreadRead(ctx, 9)
			return err
		}, "PATCH", "/api/v1/notifications/threads/9", "", "", ""},
		{"settings", 200, `{}`, func(c *Client) error { _, _, err := c.Settings.GetAPI(ctx); return err },
			"GET", "/api/v1/settings/api", "", "", ""},
		{"current user", 200, `{}`, func(c *Client) error { _, _, err := c.Users.GetCurrent(ctx); return err },
			"GET", "/api/v1/user", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, seen := tsReplyServer(t, tc.status, jsonType(tc.body), tc.body)
			c := clClient(t, srv.URL)
			if err := tc.call(c); err != nil {
				t.Fatalf("err = %v", err)
			}
			s := seen()
			if len(s) != 1 {
				t.Fatalf("requests = %d", len(s))
			}
			got := s[0]
			if got.method != tc.method || got.path != tc.path || got.query != tc.query || got.body != tc.wantBody {
				t.Fatalf("got %s %s?%s body %q\nwant %s %s?%s body %q", got.method, got.path, got.query, got.body, tc.method, tc.path, tc.query, tc.wantBody)
			}
			if got.header.Get("Content-Type") != tc.wantCType {
				t.Fatalf("Content-Type = %q", got.header.Get("Content-Type"))
			}
		})
	}
}

// clTransport wraps a RoundTripper and records whether anyone closed it.
type clTransport struct {
	http.RoundTripper
	closed atomic.Bool
}

func (t *clTransport) CloseIdleConnections() { t.closed.Store(true) }

func TestCallerOwnedHTTPClient(t *testing.T) {
	srv, seen := tsReplyServer(t, 200, "application/json", `{"version":"9"}`)
	tr := &clTransport{RoundTripper: http.DefaultTransport}
	hc := &http.Client{Transport: tr}
	c := clClient(t, srv.URL, WithHTTPClient(hc))
	for range 3 {
		if _, _, err := c.Misc.GetVersion(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if len(seen()) != 3 || tr.closed.Load() {
		t.Fatalf("requests = %d, closed = %v: the library must use the caller's client and never close it", len(seen()), tr.closed.Load())
	}
}

func TestAttemptTimeoutIsRetryableTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	c, k := tsClient(t, srv.URL, WithAttemptTimeout(time.Millisecond))
	_, _, err := c.Misc.GetVersion(context.Background())
	var te *TransportError
	var re *RetriesExhaustedError
	if !errors.As(err, &te) || te.Kind != TransportTimeout || !errors.As(err, &re) || len(k.waits()) != 2 {
		t.Fatalf("err = %v waits = %v", err, k.waits())
	}
}

func TestConcurrentUse(t *testing.T) {
	srv := tsNewServer(t, tsStep{status: 200, body: `{"version":"1"}`})
	c, _ := tsClient(t, srv.URL)
	var wg sync.WaitGroup
	var failures atomic.Int32
	for range 16 {
		wg.Go(func() {
			for range 10 {
				if v, _, err := c.Misc.GetVersion(context.Background()); err != nil || v.Version != "1" {
					failures.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if failures.Load() != 0 || srv.hits.Load() != 160 {
		t.Fatalf("failures = %d hits = %d", failures.Load(), srv.hits.Load())
	}
}

func TestBodyBoundsAndErrorBodies(t *testing.T) {
	big := `{"message":"` + strings.Repeat("x", 200<<10) + `"}`
	srv := tsNewServer(t, tsStep{status: 500, body: big})
	c, _ := tsClient(t, srv.URL, WithRetryPolicy(RetryOff()), WithMaxResponseBytes(1024))
	_, _, err := c.Misc.GetVersion(context.Background())
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 500 {
		t.Fatalf("an oversized error body must not mask the status: %v", err)
	}
	if len(err.Error()) > 2*MaxFragment {
		t.Fatalf("Error() is %d bytes, want bounded", len(err.Error()))
	}
}

func TestManyErrorDetailsAreBounded(t *testing.T) {
	details := make([]string, 12)
	for i := range details {
		details[i] = `"` + strings.Repeat("d", 600) + `"`
	}
	srv := tsNewServer(t, tsStep{status: 422, body: `{"message":"m","errors":[` + strings.Join(details, ",") + `]}`})
	c, _ := tsClient(t, srv.URL, WithRetryPolicy(RetryOff()))
	_, _, err := c.Misc.GetVersion(context.Background())
	msg := err.Error()
	if !strings.Contains(msg, "and 4 more") || strings.Count(msg, strings.Repeat("d", 509)+"...") != 8 || strings.Contains(msg, strings.Repeat("d", 510)) {
		t.Fatalf("details not bounded: %d bytes", len(msg))
	}
}

// clFakeClock is a Clock whose Sleep only advances it.
type clFakeClock struct {
	mu     sync.Mutex
	t      time.Time
	sleeps []time.Duration
}

func (k *clFakeClock) Now() time.Time { k.mu.Lock(); defer k.mu.Unlock(); return k.t }

func (k *clFakeClock) Sleep(ctx context.Context, d time.Duration) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.sleeps = append(k.sleeps, d)
	k.t = k.t.Add(d)
	return ctx.Err()
}

// Timer moves the time on by d as Sleep does and fires at once.
func (k *clFakeClock) Timer(d time.Duration) (<-chan time.Time, func()) {
	_ = k.Sleep(context.Background(), d)
	c := make(chan time.Time, 1)
	c <- k.Now()
	return c, func() {}
}

func TestWithClock(t *testing.T) {
	srv := tsNewServer(t, tsStep{status: 503}, tsStep{status: 200, body: `{"version":"1"}`})
	k := &clFakeClock{t: time.Unix(1_800_000_000, 0)}
	c, err := NewClient(WithBaseURL(srv.URL), WithClock(k), WithRetryPolicy(RetryPolicy{MaxAttempts: 2, BaseDelay: time.Hour, MaxDelay: time.Hour, Jitter: JitterNone}))
	if err != nil {
		t.Fatal(err)
	}
	if _, resp, err := c.Misc.GetVersion(context.Background()); err != nil || resp.Attempts != 2 {
		t.Fatalf("err = %v", err)
	}
	if len(k.sleeps) != 1 || k.sleeps[0] != time.Hour {
		t.Fatalf("the hour-long backoff went through the fake clock: %v", k.sleeps)
	}
	if _, err := NewClient(WithClock(nil)); err == nil {
		t.Fatal("a nil clock must be rejected")
	}
}

func TestRedirectsThatWouldChangeTheMethodComeBackAsErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v1/repos/o/old":
			http.Redirect(w, r, "/api/v1/repos/o/new", http.StatusMovedPermanently)
		case "/api/v1/repos/o/new":
			if r.Method != http.MethodGet {
				t.Errorf("%s reached the new location", r.Method)
			}
			_, _ = io.WriteString(w, `{"full_name":"o/new"}`)
		}
	}))
	t.Cleanup(srv.Close)
	var callerRedirects atomic.Int32
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { callerRedirects.Add(1); return nil }}
	c := clClient(t, srv.URL, WithHTTPClient(hc))

	// A read follows the redirect: a renamed repository still reads.
	repo, _, err := c.Repos.Get(context.Background(), "o", "old")
	if err != nil || repo.FullName != "o/new" || callerRedirects.Load() != 1 {
		t.Fatalf("GET through a redirect: %+v, %v (caller's CheckRedirect ran %d times)", repo, err, callerRedirects.Load())
	}
	// A write must not turn into a GET of the new location and report success.
	_, resp, err := c.Repos.Edit(context.Background(), "o", "old", EditRepoRequest{Description: Ptr("x")})
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != "/api/v1/repos/o/new" {
		t.Fatalf("PATCH through a redirect: err = %v", err)
	}
	_, err = c.Repos.Delete(context.Background(), "o", "old")
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusMovedPermanently {
		t.Fatalf("DELETE through a redirect: err = %v", err)
	}
	if hc.CheckRedirect == nil || c.httpClient == hc {
		t.Fatal("the caller's *http.Client must be copied, not modified")
	}
}

// swapTransport records the requests it carries, answering each itself.
type swapTransport struct{ paths []string }

func (s *swapTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	s.paths = append(s.paths, r.URL.Path)
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{"id":7,"name":"r"}`)), Request: r}, nil
}

// TestDefaultTransportAtCallTime: a transport swapped into
// http.DefaultTransport after the package loaded, and even after the
// client was made, carries the client's requests (httpmock works so).
func TestDefaultTransportAtCallTime(t *testing.T) {
	c, err := NewClient(WithBaseURL("https://forgejo.invalid"), WithToken("tok-swap-0123456789"))
	if err != nil {
		t.Fatal(err)
	}
	saved := http.DefaultTransport
	swap := &swapTransport{}
	http.DefaultTransport = swap
	defer func() { http.DefaultTransport = saved }()
	repo, _, err := c.Repos.Get(context.Background(), "o", "r")
	if err != nil || repo.ID != 7 {
		t.Fatalf("Repos.Get through the swapped transport: %v, %+v", err, repo)
	}
	if len(swap.paths) != 1 || swap.paths[0] != "/api/v1/repos/o/r" {
		t.Fatalf("the swapped transport saw %q", swap.paths)
	}
}
