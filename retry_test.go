package forgejo

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

const rtIssueJSON = `{"id":1,"number":1,"title":"t"}`

// TestRetryEligibilityByStatus is the retry table: each eligibility against
// retryable and non-retryable statuses.
func TestRetryEligibilityByStatus(t *testing.T) {
	type call func(ctx context.Context, c *Client) (*Response, error)
	get := func(ctx context.Context, c *Client) (*Response, error) {
		_, resp, err := c.Repos.Get(ctx, "o", "r")
		return resp, err
	}
	create := func(ctx context.Context, c *Client) (*Response, error) {
		_, resp, err := c.Issues.Create(ctx, "o", "r", CreateIssueRequest{Title: "x"})
		return resp, err
	}
	edit := func(ctx context.Context, c *Client) (*Response, error) {
		_, resp, err := c.Issues.Edit(ctx, "o", "r", 1, EditIssueRequest{Title: Ptr("y")})
		return resp, err
	}
	putTopics := func(ctx context.Context, c *Client) (*Response, error) {
		return c.Repos.ReplaceTopics(ctx, "o", "r", []string{"a"})
	}
	readThread := func(ctx context.Context, c *Client) (*Response, error) {
		return c.Notifications.MarkThreadRead(ctx, 7)
	}
	doPost := func(e RetryEligibility) call {
		return func(ctx context.Context, c *Client) (*Response, error) {
			return c.Do(ctx, &Request{Method: "POST", Path: "/x", Retry: e}, nil)
		}
	}
	doGet := func(e RetryEligibility) call {
		return func(ctx context.Context, c *Client) (*Response, error) {
			return c.Do(ctx, &Request{Method: "GET", Path: "/x", Retry: e}, nil)
		}
	}

	ok := tsStep{status: 200, body: rtIssueJSON}
	noContent := tsStep{status: 204}
	fail := func(code int) tsStep { return tsStep{status: code, body: `{"message":"m"}`} }

	cases := []struct {
		name      string
		call      call
		steps     []tsStep
		wantHits  int
		wantErr   int // status of the *APIError found by errors.As; 0 = success
		exhausted bool
	}{
		// RetryIdempotentOnly GET: every retryable status is repeated.
		{"get 429 then ok", get, []tsStep{fail(429), ok}, 2, 0, false},
		{"get 500 then ok", get, []tsStep{fail(500), ok}, 2, 0, false},
		{"get 502 then ok", get, []tsStep{fail(502), ok}, 2, 0, false},
		{"get 503 then ok", get, []tsStep{fail(503), ok}, 2, 0, false},
		{"get 504 then ok", get, []tsStep{fail(504), ok}, 2, 0, false},
		{"get 503 x3 exhausts", get, []tsStep{fail(503)}, 3, 503, true},
		{"get 501 not retried", get, []tsStep{fail(501), ok}, 1, 501, false},
		{"get 505 not retried", get, []tsStep{fail(505), ok}, 1, 505, false},
		{"get 404 not retried", get, []tsStep{fail(404), ok}, 1, 404, false},
		{"get 400 not retried", get, []tsStep{fail(400), ok}, 1, 400, false},
		{"get 422 not retried", get, []tsStep{fail(422), ok}, 1, 422, false},
		{"get 409 not retried", get, []tsStep{fail(409), ok}, 1, 409, false},
		{"get 301 unusable, not retried", get, []tsStep{{status: 304}, ok}, 1, 304, false},
		{"get 503 then 404 is a bare 404", get, []tsStep{fail(503), fail(404)}, 2, 404, false},
		// Never: a create or a partial update is never repeated.
		{"create 503 not retried", create, []tsStep{fail(503), ok}, 1, 503, false},
		{"create 429 not retried", create, []tsStep{fail(429), ok}, 1, 429, false},
		{"edit 502 not retried", edit, []tsStep{fail(502), ok}, 1, 502, false},
		// RetryAlways: whole-state mutations are repeated.
		{"put topics 503 then 204", putTopics, []tsStep{fail(503), noContent}, 2, 0, false},
		{"put topics 429 x3 exhausts", putTopics, []tsStep{fail(429)}, 3, 429, true},
		{"put topics 404 not retried", putTopics, []tsStep{fail(404)}, 1, 404, false},
		{"read thread 500 then 205", readThread, []tsStep{fail(500), {status: 205, body: `{"id":7}`}}, 2, 0, false},
		{"read thread 501 not retried", readThread, []tsStep{fail(501)}, 1, 501, false},
		// Do states its eligibility explicitly; RetryIdempotentOnly never repeats a POST.
		{"do POST idempotent-only not retried", doPost(RetryIdempotentOnly), []tsStep{fail(503), noContent}, 1, 503, false},
		{"do POST never not retried", doPost(RetryNever), []tsStep{fail(503), noContent}, 1, 503, false},
		{"do POST always retried", doPost(RetryAlways), []tsStep{fail(503), noContent}, 2, 0, false},
		{"do GET idempotent-only retried", doGet(RetryIdempotentOnly), []tsStep{fail(503), noContent}, 2, 0, false},
		{"do GET zero eligibility is Never", doGet(RetryEligibility(0)), []tsStep{fail(503), noContent}, 1, 503, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := tsNewServer(t, tc.steps...)
			c, _ := tsClient(t, srv.URL)
			resp, err := tc.call(context.Background(), c)
			if got := int(srv.hits.Load()); got != tc.wantHits {
				t.Fatalf("requests = %d, want %d", got, tc.wantHits)
			}
			if tc.wantErr == 0 {
				if err != nil {
					t.Fatalf("err = %v, want success", err)
				}
				if resp.Attempts != tc.wantHits {
					t.Fatalf("Attempts = %d, want %d", resp.Attempts, tc.wantHits)
				}
				return
			}
			var ae *APIError
			if !errors.As(err, &ae) || ae.StatusCode != tc.wantErr {
				t.Fatalf("err = %v, want *APIError %d", err, tc.wantErr)
			}
			var re *RetriesExhaustedError
			if got := errors.As(err, &re); got != tc.exhausted {
				t.Fatalf("RetriesExhaustedError = %v, want %v (err %v)", got, tc.exhausted, err)
			}
			if tc.exhausted {
				if re.Attempts != tc.wantHits || re.Last != error(ae) || errors.Unwrap(re) != re.Last {
					t.Fatalf("exhausted = %+v, want Attempts %d and Last verbatim", re, tc.wantHits)
				}
			} else if err != error(ae) {
				t.Fatalf("a failure that was not exhausted must come back unwrapped, got %T", err)
			}
			if resp == nil || resp.StatusCode != tc.wantErr {
				t.Fatalf("the *Response of an APIError must carry the status, got %+v", resp)
			}
			if resp.Attempts != tc.wantHits {
				t.Fatalf("Attempts = %d, want %d", resp.Attempts, tc.wantHits)
			}
		})
	}
}

func TestRetryBackoffSchedule(t *testing.T) {
	t.Run("default policy waits 250ms then 500ms before jitter", func(t *testing.T) {
		srv := tsNewServer(t, tsStep{status: 503})
		c, k := tsClient(t, srv.URL) // randN returns n-1: the top of [0, d]
		_, _, err := c.Repos.Get(context.Background(), "o", "r")
		var re *RetriesExhaustedError
		if !errors.As(err, &re) || re.Attempts != 3 {
			t.Fatalf("err = %v, want exhausted after 3", err)
		}
		want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond}
		if got := k.waits(); !slices.Equal(got, want) {
			t.Fatalf("waits = %v, want %v", got, want)
		}
		// Full jitter draws uniformly from [0, d] inclusive: randN gets d+1.
		if len(k.bounds) != 2 || k.bounds[0] != int64(250*time.Millisecond)+1 || k.bounds[1] != int64(500*time.Millisecond)+1 {
			t.Fatalf("jitter bounds = %v", k.bounds)
		}
	})
	t.Run("full jitter uses the random draw", func(t *testing.T) {
		srv := tsNewServer(t, tsStep{status: 503})
		c, k := tsClient(t, srv.URL)
		c.randN = func(n int64) int64 { return n / 4 }
		_, _, _ = c.Repos.Get(context.Background(), "o", "r")
		want := []time.Duration{time.Duration((int64(250*time.Millisecond) + 1) / 4), time.Duration((int64(500*time.Millisecond) + 1) / 4)}
		if got := k.waits(); !slices.Equal(got, want) {
			t.Fatalf("waits = %v, want %v", got, want)
		}
	})
	t.Run("no jitter: 1s 2s 2s 2s with a 2s cap", func(t *testing.T) {
		srv := tsNewServer(t, tsStep{status: 502})
		c, k := tsClient(t, srv.URL, WithRetryPolicy(RetryPolicy{MaxAttempts: 5, BaseDelay: time.Second, MaxDelay: 2 * time.Second, Jitter: JitterNone}))
		_, _, _ = c.Repos.Get(context.Background(), "o", "r")
		want := []time.Duration{time.Second, 2 * time.Second, 2 * time.Second, 2 * time.Second}
		if got := k.waits(); !slices.Equal(got, want) {
			t.Fatalf("waits = %v, want %v", got, want)
		}
		if len(k.bounds) != 0 {
			t.Fatal("JitterNone must not draw randomness")
		}
	})
	t.Run("RetryOff makes one attempt and never sleeps", func(t *testing.T) {
		srv := tsNewServer(t, tsStep{status: 503})
		c, k := tsClient(t, srv.URL, WithRetryPolicy(RetryOff()))
		_, _, err := c.Repos.Get(context.Background(), "o", "r")
		var ae *APIError
		if !errors.As(err, &ae) || err != error(ae) || srv.hits.Load() != 1 || len(k.waits()) != 0 {
			t.Fatalf("err = %v hits = %d waits = %v", err, srv.hits.Load(), k.waits())
		}
	})
}

func TestBackoffFormula(t *testing.T) {
	cases := []struct {
		p    RetryPolicy
		n    int
		want time.Duration
	}{
		{DefaultRetryPolicy(), 1, 250 * time.Millisecond},
		{DefaultRetryPolicy(), 2, 500 * time.Millisecond},
		{DefaultRetryPolicy(), 3, time.Second},
		{DefaultRetryPolicy(), 6, 8 * time.Second},
		{DefaultRetryPolicy(), 1000, 8 * time.Second},
		{RetryPolicy{MaxAttempts: 9, BaseDelay: 3 * time.Second, MaxDelay: time.Second}, 1, time.Second},
		{RetryPolicy{MaxAttempts: 9, BaseDelay: 1 << 61, MaxDelay: 1<<63 - 1}, 200, 1<<63 - 1},
		{RetryPolicy{MaxAttempts: 9, BaseDelay: 1, MaxDelay: 1<<63 - 1}, 64, 1<<63 - 1},
		{RetryOff(), 1, 0},
	}
	for _, tc := range cases {
		if got := tc.p.backoff(tc.n); got != tc.want || got < 0 {
			t.Errorf("backoff(%v, %d) = %v, want %v", tc.p, tc.n, got, tc.want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	date := "Sun, 29 Nov 2026 12:00:00 GMT"
	cases := []struct {
		name    string
		header  map[string]string
		respect bool
		want    time.Duration // the first wait
		hint    bool          // APIError.RetryAfter ok
	}{
		{"delta seconds replaces backoff, not jittered", map[string]string{"Retry-After": "2"}, true, 2 * time.Second, true},
		{"delta seconds clamped to MaxDelay", map[string]string{"Retry-After": "30"}, true, 8 * time.Second, true},
		{"huge delta clamped", map[string]string{"Retry-After": "99999999999999999999999"}, true, 8 * time.Second, true},
		{"zero means no wait", map[string]string{"Retry-After": "0"}, true, 0, true},
		{"padded value trimmed", map[string]string{"Retry-After": "  3 "}, true, 3 * time.Second, true},
		{"blank means no hint", map[string]string{"Retry-After": " \t "}, true, 250 * time.Millisecond, false},
		{"negative means no hint", map[string]string{"Retry-After": "-1"}, true, 250 * time.Millisecond, false},
		{"plus sign means no hint", map[string]string{"Retry-After": "+5"}, true, 250 * time.Millisecond, false},
		{"decimal means no hint", map[string]string{"Retry-After": "1.5"}, true, 250 * time.Millisecond, false},
		{"garbage means no hint", map[string]string{"Retry-After": "soon"}, true, 250 * time.Millisecond, false},
		{"date with Date: difference of server clocks", map[string]string{"Retry-After": "Sun, 29 Nov 2026 12:00:05 GMT", "Date": date}, true, 5 * time.Second, true},
		{"date form clamped", map[string]string{"Retry-After": "Sun, 29 Nov 2026 13:00:00 GMT", "Date": date}, true, 8 * time.Second, true},
		{"date in the past means no wait", map[string]string{"Retry-After": "Sun, 29 Nov 2026 11:00:00 GMT", "Date": date}, true, 0, true},
		{"RFC 850 date honoured", map[string]string{"Retry-After": "Sunday, 29-Nov-26 12:00:04 GMT", "Date": date}, true, 4 * time.Second, true},
		{"date without Date is absent", map[string]string{"Retry-After": "Sun, 29 Nov 2026 12:00:05 GMT", "Date": ""}, true, 250 * time.Millisecond, false},
		{"date with garbage Date is absent", map[string]string{"Retry-After": "Sun, 29 Nov 2026 12:00:05 GMT", "Date": "yesterday"}, true, 250 * time.Millisecond, false},
		{"asctime date honoured", map[string]string{"Retry-After": "Sun Nov 29 12:00:03 2026", "Date": date}, true, 3 * time.Second, true},
		{"RFC 850 date in another zone is refused", map[string]string{"Retry-After": "Sunday, 29-Nov-26 12:00:04 PST", "Date": date}, true, 250 * time.Millisecond, false},
		{"numeric zone is refused", map[string]string{"Retry-After": "Sun, 29 Nov 2026 12:00:04 +0000", "Date": date}, true, 250 * time.Millisecond, false},
		{"ISO 8601 is refused", map[string]string{"Retry-After": "2026-11-29T12:00:04Z", "Date": date}, true, 250 * time.Millisecond, false},
		{"duration string is refused", map[string]string{"Retry-After": "1m0s"}, true, 250 * time.Millisecond, false},
		{"leading zeros accepted", map[string]string{"Retry-After": "0003"}, true, 3 * time.Second, true},
		{"ignored when RespectRetryAfter is off", map[string]string{"Retry-After": "2"}, false, 250 * time.Millisecond, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := tsNewServer(t, tsStep{status: 429, header: tc.header}, tsStep{status: 200, body: rtIssueJSON})
			p := DefaultRetryPolicy()
			p.RespectRetryAfter = tc.respect
			c, k := tsClient(t, srv.URL, WithRetryPolicy(p))
			c.randN = func(n int64) int64 { return n - 1 }
			if _, _, err := c.Repos.Get(context.Background(), "o", "r"); err != nil {
				t.Fatalf("err = %v", err)
			}
			if got := k.waits(); len(got) != 1 || got[0] != tc.want {
				t.Fatalf("waits = %v, want [%v]", got, tc.want)
			}
			// The hint is exposed on the error whatever the policy.
			srv2 := tsNewServer(t, tsStep{status: 429, header: tc.header})
			c2, _ := tsClient(t, srv2.URL, WithRetryPolicy(RetryOff()))
			_, _, err := c2.Repos.Get(context.Background(), "o", "r")
			var ae *APIError
			if !errors.As(err, &ae) {
				t.Fatalf("err = %v", err)
			}
			if _, ok := ae.RetryAfter(); ok != tc.hint {
				t.Fatalf("RetryAfter ok = %v, want %v", ok, tc.hint)
			}
		})
	}
}

func TestRetryAfterSeveralLines(t *testing.T) {
	h := http.Header{"Retry-After": {"120", "60"}}
	if _, ok := parseRetryAfter(h); ok {
		t.Fatal("two different Retry-After values must be no hint")
	}
	h = http.Header{"Retry-After": {"120", " 120 "}}
	if d, ok := parseRetryAfter(h); !ok || d != 120*time.Second {
		t.Fatalf("repeated identical values: %v %v", d, ok)
	}
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"", "0", "120", "-1", "1.5", "+5", "Sun, 29 Nov 2026 12:00:05 GMT", "99999999999999999999999", " 7 ", "\x00"} {
		f.Add(s, "Sun, 29 Nov 2026 12:00:00 GMT")
	}
	f.Fuzz(func(t *testing.T, ra, date string) {
		h := http.Header{}
		h["Retry-After"] = []string{ra}
		h["Date"] = []string{date}
		d, ok := parseRetryAfter(h)
		if d < 0 {
			t.Fatalf("negative wait %v for %q", d, ra)
		}
		if !ok && d != 0 {
			t.Fatalf("no hint but wait %v", d)
		}
		if ok && isDigits(ra) {
			return
		}
		if v := trimASCII(ra); v == "" && ok {
			t.Fatalf("blank %q gave a hint", ra)
		}
	})
}

func trimASCII(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

func TestCancellationDuringBackoff(t *testing.T) {
	srv := tsNewServer(t, tsStep{status: 503})
	c, err := NewClient(WithBaseURL(srv.URL), WithRetryPolicy(RetryPolicy{MaxAttempts: 5, BaseDelay: time.Hour, MaxDelay: time.Hour, Jitter: JitterNone}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	// The real sleep is in use: cancelling as the wait begins must end it at
	// once rather than after an hour.
	c.hooks = hooksFor(rtCancelOnRetry{cancel})
	_, _, err = c.Repos.Get(ctx, "o", "r")
	var te *TransportError
	if !errors.As(err, &te) || te.Kind != TransportCanceled || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want a canceled TransportError", err)
	}
	if srv.hits.Load() != 1 {
		t.Fatalf("requests = %d, want 1", srv.hits.Load())
	}
}

type rtCancelOnRetry struct{ cancel context.CancelFunc }

func (rtCancelOnRetry) OnRequest(context.Context, CallContext) {}

func (rtCancelOnRetry) OnResponse(context.Context, CallContext, int) {}

func (rtCancelOnRetry) OnError(context.Context, CallContext, error) {}

func (o rtCancelOnRetry) OnRetry(context.Context, CallContext, error, time.Duration) { o.cancel() }

func TestCanceledContextIsNotRetried(t *testing.T) {
	srv := tsNewServer(t, tsStep{status: 200, body: rtIssueJSON})
	c, k := tsClient(t, srv.URL)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := c.Repos.Get(ctx, "o", "r")
	var te *TransportError
	if !errors.As(err, &te) || te.Kind != TransportCanceled || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if len(k.waits()) != 0 {
		t.Fatalf("a canceled call must not back off: %v", k.waits())
	}
}

func TestSleepContextEndsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sleepContext(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if err := sleepContext(context.Background(), 0); err != nil {
		t.Fatalf("a zero wait must not fail: %v", err)
	}
}

func TestTransportFailuresRetried(t *testing.T) {
	// A listener that accepts and closes at once: the connection heals on a
	// later attempt in real life, so a GET is repeated.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var accepted atomic.Int32
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			_ = conn.Close()
		}
	}()
	t.Cleanup(func() { _ = ln.Close() })
	url := "http://" + ln.Addr().String()

	c, k := tsClient(t, url)
	_, _, err = c.Repos.Get(context.Background(), "o", "r")
	var re *RetriesExhaustedError
	var te *TransportError
	if !errors.As(err, &re) || re.Attempts != 3 || !errors.As(err, &te) || te.Kind != TransportConnection {
		t.Fatalf("err = %v, want exhausted connection failures", err)
	}
	if len(k.waits()) != 2 {
		t.Fatalf("waits = %v", k.waits())
	}

	// The same failure on a create is never repeated.
	before := accepted.Load()
	c2, _ := tsClient(t, url)
	_, _, err = c2.Issues.Create(context.Background(), "o", "r", CreateIssueRequest{Title: "x"})
	if !errors.As(err, &te) || errors.As(err, &re) {
		t.Fatalf("err = %v, want a bare TransportError", err)
	}
	if got := accepted.Load() - before; got != 1 {
		t.Fatalf("create attempts = %d, want 1", got)
	}
}

func TestConnectionRefusedIsRetryable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens: connection refused
	c, k := tsClient(t, "http://"+addr)
	_, _, err = c.Misc.GetVersion(context.Background())
	var te *TransportError
	if !errors.As(err, &te) || te.Kind != TransportConnection || len(k.waits()) != 2 {
		t.Fatalf("err = %v waits = %v", err, k.waits())
	}
}

func TestNonRetryableTransportFailures(t *testing.T) {
	t.Run("TLS certificate failure", func(t *testing.T) {
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
		srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
		srv.StartTLS()
		defer srv.Close()
		c, k := tsClient(t, srv.URL) // default transport: the test CA is not trusted
		_, _, err := c.Misc.GetVersion(context.Background())
		var te *TransportError
		if !errors.As(err, &te) || te.Kind != TransportTLS || len(k.waits()) != 0 {
			t.Fatalf("err = %v waits = %v", err, k.waits())
		}
	})
	t.Run("response too large", func(t *testing.T) {
		srv := tsNewServer(t, tsStep{status: 200, body: `{"version":"` + string(make([]byte, 0)) + "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" + `"}`})
		c, k := tsClient(t, srv.URL, WithMaxResponseBytes(20))
		_, _, err := c.Misc.GetVersion(context.Background())
		var te *TransportError
		if !errors.As(err, &te) || te.Kind != TransportResponseTooLarge || srv.hits.Load() != 1 || len(k.waits()) != 0 {
			t.Fatalf("err = %v hits = %d", err, srv.hits.Load())
		}
	})
	t.Run("decode failure", func(t *testing.T) {
		srv := tsNewServer(t, tsStep{status: 200, body: `{"version": 12}`})
		c, _ := tsClient(t, srv.URL)
		_, _, err := c.Misc.GetVersion(context.Background())
		var de *DecodeError
		if !errors.As(err, &de) || de.Path != "$.version" || srv.hits.Load() != 1 {
			t.Fatalf("err = %v hits = %d", err, srv.hits.Load())
		}
	})
	t.Run("validation failure sends nothing", func(t *testing.T) {
		srv := tsNewServer(t, tsStep{status: 200, body: rtIssueJSON})
		c, _ := tsClient(t, srv.URL)
		_, _, err := c.Issues.Create(context.Background(), "o", "r", CreateIssueRequest{Title: "  "})
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Field != "title" || srv.hits.Load() != 0 {
			t.Fatalf("err = %v hits = %d", err, srv.hits.Load())
		}
	})
}

func TestClassifyTransport(t *testing.T) {
	live := context.Background()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name      string
		ctx       context.Context
		err       error
		kind      TransportKind
		retryable bool
	}{
		{"per-attempt timeout", live, context.DeadlineExceeded, TransportTimeout, true},
		{"caller deadline", done, context.DeadlineExceeded, TransportCanceled, false},
		{"caller cancel", done, context.Canceled, TransportCanceled, false},
		{"no such host", live, &net.DNSError{Err: "no such host", Name: "x", IsNotFound: true}, TransportDNS, false},
		{"temporary DNS", live, &net.DNSError{Err: "server misbehaving", Name: "x", IsTemporary: true}, TransportDNS, true},
		{"too large", live, errResponseTooLarge, TransportResponseTooLarge, false},
		{"reset", live, &net.OpError{Op: "read", Err: errors.New("connection reset by peer")}, TransportConnection, true},
		{"unknown", live, errors.New("something else"), TransportUnknown, true},
	}
	for _, tc := range cases {
		kind, temp := classifyTransport(tc.ctx, tc.err)
		if kind != tc.kind {
			t.Errorf("%s: kind = %v, want %v", tc.name, kind, tc.kind)
		}
		if got := retryable(&TransportError{Kind: kind, temporary: temp}); got != tc.retryable {
			t.Errorf("%s: retryable = %v, want %v", tc.name, got, tc.retryable)
		}
	}
}

func TestRetryableStatusSetIsExact(t *testing.T) {
	for code := 100; code < 600; code++ {
		want := code == 429 || code == 500 || code == 502 || code == 503 || code == 504
		if got := retryable(&APIError{StatusCode: code}); got != want {
			t.Errorf("status %d retryable = %v", code, got)
		}
	}
	for _, err := range []error{&DecodeError{}, &ValidationError{}, &RetriesExhaustedError{}, &WalkTruncatedError{}, errors.New("x")} {
		if retryable(err) {
			t.Errorf("%T must never be retried", err)
		}
	}
}

func TestEligibilityAllows(t *testing.T) {
	for _, m := range []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"} {
		safe := m == "GET" || m == "HEAD"
		if RetryNever.allows(m) || RetryIdempotentOnly.allows(m) != safe || !RetryAlways.allows(m) {
			t.Errorf("eligibility wrong for %s", m)
		}
	}
}

func TestRetryPolicyValidation(t *testing.T) {
	bad := []RetryPolicy{{MaxAttempts: 0}, {MaxAttempts: 2, BaseDelay: -1}, {MaxAttempts: 2, MaxDelay: -1}, {MaxAttempts: 2, Jitter: 7}}
	for _, p := range bad {
		_, err := NewClient(WithRetryPolicy(p))
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("policy %v accepted", p)
		}
	}
	if DefaultRetryPolicy() != (RetryPolicy{3, 250 * time.Millisecond, 8 * time.Second, JitterFull, true}) {
		t.Errorf("DefaultRetryPolicy = %v", DefaultRetryPolicy())
	}
	if RetryOff() != (RetryPolicy{MaxAttempts: 1, Jitter: JitterNone}) {
		t.Errorf("RetryOff = %v", RetryOff())
	}
}
