package forgejo

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Tests of the InjectHeaders hook (hooks.go): what an observer adds to
// every attempt obeys the rules of per-call headers.

// hoObserver injects the headers inject returns; it records the ctx value
// its StartCall set and the attempts it saw.
type hoObserver struct {
	inject func(call CallContext, h http.Header)

	mu       sync.Mutex
	attempts []int
	ctxOK    []bool
}

type hoKey struct{}

func (o *hoObserver) OnRequest(context.Context, CallContext)           {}
func (o *hoObserver) OnResponse(context.Context, CallContext, int)     {}
func (o *hoObserver) OnError(context.Context, CallContext, error)      {}
func (o *hoObserver) EndCall(context.Context, CallContext, int, error) {}
func (o *hoObserver) StartCall(ctx context.Context, _ CallContext) context.Context {
	return context.WithValue(ctx, hoKey{}, "the call's ctx")
}

func (o *hoObserver) InjectHeaders(ctx context.Context, call CallContext, h http.Header) {
	o.mu.Lock()
	o.attempts = append(o.attempts, call.Attempt)
	o.ctxOK = append(o.ctxOK, ctx.Value(hoKey{}) == "the call's ctx")
	o.mu.Unlock()
	o.inject(call, h)
}

// TestInjectHeadersReservedHeaders: the hook adds headers, but never
// the credential, never one the client manages, never one already set,
// never an invalid name or a value that would split the header; and none of
// that fails the call.
func TestInjectHeadersReservedHeaders(t *testing.T) {
	const token = "tok-0123456789abcdef"
	cases := []struct {
		name       string
		set        func(h http.Header)
		opts       []RequestOption
		wire, want string // want "" means absent
		absent     string // another header that must not arrive
	}{
		{"traceparent", func(h http.Header) { h.Set("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01") }, nil,
			"Traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", ""},
		{"non-canonical name", func(h http.Header) { h["tracestate"] = []string{"k=v"} }, nil, "Tracestate", "k=v", ""},
		{"baggage", func(h http.Header) { h.Set("Baggage", "tenant=a") }, nil, "Baggage", "tenant=a", ""},
		{"Authorization", func(h http.Header) { h.Set("Authorization", "Bearer evil") }, nil, "Authorization", "token " + token, ""},
		{"authorization lower-case", func(h http.Header) { h["authorization"] = []string{"Bearer evil"} }, nil, "Authorization", "token " + token, ""},
		{"Proxy-Authorization", func(h http.Header) { h.Set("Proxy-Authorization", "Basic evil") }, nil, "Proxy-Authorization", "", ""},
		{"Cookie", func(h http.Header) { h.Set("Cookie", "session=evil") }, nil, "Cookie", "", ""},
		{"Cookie2", func(h http.Header) { h.Set("Cookie2", "session=evil") }, nil, "Cookie2", "", ""},
		{"Referer", func(h http.Header) { h.Set("Referer", "https://evil.example/") }, nil, "Referer", "", ""},
		{"X-Forgejo-OTP", func(h http.Header) { h.Set("X-Forgejo-OTP", "123456") }, nil, "X-Forgejo-Otp", "", ""},
		{"X-Gitea-OTP", func(h http.Header) { h.Set("X-Gitea-OTP", "123456") }, nil, "X-Gitea-Otp", "", ""},
		{"Content-Type", func(h http.Header) { h.Set("Content-Type", "text/evil") }, nil, "Content-Type", "application/json", ""},
		{"Content-Length", func(h http.Header) { h.Set("Content-Length", "9999") }, nil, "Content-Length", "2", ""},
		{"Transfer-Encoding", func(h http.Header) { h.Set("Transfer-Encoding", "chunked") }, nil, "Transfer-Encoding", "", ""},
		{"Connection", func(h http.Header) { h.Set("Connection", "close") }, nil, "Connection", "", ""},
		{"Host", func(h http.Header) { h.Set("Host", "evil.example") }, nil, "Host", "", ""},
		{"User-Agent kept", func(h http.Header) { h.Set("User-Agent", "evil/1") }, nil, "User-Agent", "forgego-test", ""},
		{"Accept kept", func(h http.Header) { h.Set("Accept", "text/evil") }, nil, "Accept", "application/json", ""},
		{"per-call header kept", func(h http.Header) { h.Set("X-Tenant", "evil") }, []RequestOption{Header("X-Tenant", "mine")}, "X-Tenant", "mine", ""},
		{"per-call traceparent kept", func(h http.Header) { h.Set("Traceparent", "00-observer") }, []RequestOption{Header("Traceparent", "00-caller")}, "Traceparent", "00-caller", ""},
		{"invalid name", func(h http.Header) { h["Bad Name"] = []string{"x"} }, nil, "Bad Name", "", ""},
		{"empty name", func(h http.Header) { h[""] = []string{"x"} }, nil, "", "", ""},
		{"CRLF in value", func(h http.Header) { h.Set("X-Trace", "a\r\nX-Evil: 1") }, nil, "X-Trace", "", "X-Evil"},
		{"NUL in value", func(h http.Header) { h.Set("X-Trace", "a\x00b") }, nil, "X-Trace", "", ""},
		{"one bad value of two", func(h http.Header) { h["X-Trace"] = []string{"a\nb", "good"} }, nil, "X-Trace", "good", ""},
		{"panic", func(h http.Header) { h.Set("X-Trace", "half"); panic("observer on fire") }, nil, "X-Trace", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got *http.Request
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got = r.Clone(context.Background())
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{}`))
			}))
			defer srv.Close()
			obs := &hoObserver{inject: func(_ CallContext, h http.Header) { tc.set(h) }}
			c, err := NewClient(WithBaseURL(srv.URL), WithToken(token), WithUserAgent("forgego-test"), withObserver(obs), WithRetryPolicy(RetryOff()))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Do(context.Background(), &Request{Method: "POST", Path: "/x", Body: []byte(`{}`)}, nil, tc.opts...); err != nil {
				t.Fatalf("the call failed: %v", err)
			}
			var wire string
			switch tc.wire {
			case "Host":
				if got.Host != strings.TrimPrefix(srv.URL, "http://") {
					t.Errorf("Host %q", got.Host)
				}
				return
			case "Content-Length":
				wire = strconv.FormatInt(got.ContentLength, 10)
			case "Transfer-Encoding":
				wire = strings.Join(got.TransferEncoding, ",")
			case "Connection":
				if got.Close {
					wire = "close"
				}
			default:
				wire = strings.Join(got.Header.Values(tc.wire), ",")
			}
			if wire != tc.want {
				t.Errorf("%s = %q, want %q", tc.wire, wire, tc.want)
			}
			if tc.absent != "" && got.Header.Get(tc.absent) != "" {
				t.Errorf("%s arrived", tc.absent)
			}
			for name, vals := range got.Header {
				for _, v := range vals {
					if strings.Contains(v, "evil") {
						t.Errorf("%s: %q arrived", name, v)
					}
				}
			}
		})
	}
}

// TestInjectHeadersEveryAttempt: the hook is asked on every attempt,
// retries included, with the attempt's number and the ctx its StartCall
// returned, and each attempt carries what it wrote for that attempt.
func TestInjectHeadersEveryAttempt(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("X-Attempt"))
		n := len(seen)
		mu.Unlock()
		if n < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	obs := &hoObserver{inject: func(call CallContext, h http.Header) { h.Set("X-Attempt", strconv.Itoa(call.Attempt)) }}
	c, err := NewClient(WithBaseURL(srv.URL), withObserver(obs),
		WithRetryPolicy(RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/x", Retry: RetryIdempotentOnly}, nil)
	if err != nil || resp.Attempts != 3 {
		t.Fatalf("err %v, attempts %d", err, resp.Attempts)
	}
	if fmt.Sprint(seen) != "[1 2 3]" || fmt.Sprint(obs.attempts) != "[1 2 3]" || fmt.Sprint(obs.ctxOK) != "[true true true]" {
		t.Errorf("wire %v, asked for attempts %v, with the call's ctx %v", seen, obs.attempts, obs.ctxOK)
	}
}

// TestInjectHeadersRedirects: what the hook adds goes to the base
// URL's origin only, like the credential and the per-call headers, alone or
// beside per-call headers; a same-origin redirect keeps it.
func TestInjectHeadersRedirects(t *testing.T) {
	const trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	targets := []struct {
		name     string
		location func(home, other string) string
		sameOrig bool
	}{
		{"same origin", func(home, _ string) string { return home + "/api/v1/moved" }, true},
		{"other port", func(_, other string) string { return other + "/api/v1/moved" }, false},
		{"other host name", func(_, other string) string {
			return strings.Replace(other, "127.0.0.1", "localhost", 1) + "/api/v1/moved"
		}, false},
		{"via home first", func(home, _ string) string { return home + "/api/v1/hop" }, false},
	}
	for _, st := range []int{301, 302, 303, 307, 308} {
		for _, tg := range targets {
			for _, perCall := range []bool{false, true} {
				name := fmt.Sprintf("%d %s per-call %v", st, tg.name, perCall)
				homeSeen, otherSeen := &pcSeen{}, &pcSeen{}
				other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					otherSeen.add(r.Header)
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write([]byte(`{}`))
				}))
				var homeURL string
				home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					homeSeen.add(r.Header)
					switch r.URL.Path {
					case "/api/v1/moved":
						w.Header().Set("Content-Type", "application/json")
						_, _ = w.Write([]byte(`{}`))
					case "/api/v1/hop":
						w.Header().Set("Location", other.URL+"/api/v1/moved")
						w.WriteHeader(st)
					default:
						w.Header().Set("Location", tg.location(homeURL, other.URL))
						w.WriteHeader(st)
					}
				}))
				homeURL = home.URL
				obs := &hoObserver{inject: func(_ CallContext, h http.Header) {
					h.Set("Traceparent", trace)
					h.Set("Baggage", "tenant=a")
				}}
				c, err := NewClient(WithBaseURL(home.URL), withObserver(obs), WithRetryPolicy(RetryOff()))
				if err != nil {
					t.Fatal(err)
				}
				var opts []RequestOption
				if perCall {
					opts = append(opts, Header("X-Api-Key", "key-4f1c9a7e2b"))
				}
				_, err = c.Do(context.Background(), &Request{Method: "GET", Path: "/repos/o/r", Retry: RetryIdempotentOnly}, nil, opts...)
				other.Close()
				home.Close()
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				hs := homeSeen.all()
				if len(hs) == 0 || hs[0].Get("Traceparent") != trace || hs[0].Get("Baggage") != "tenant=a" {
					t.Errorf("%s: the home origin did not receive the observer's headers", name)
				}
				if tg.sameOrig && (len(hs) < 2 || hs[1].Get("Traceparent") != trace) {
					t.Errorf("%s: a same-origin redirect dropped the observer's headers", name)
				}
				for _, h := range otherSeen.all() {
					for _, n := range []string{"Traceparent", "Baggage", "X-Api-Key"} {
						if v := h.Get(n); v != "" {
							t.Errorf("%s: the other origin received %s: %q", name, n, v)
						}
					}
				}
			}
		}
	}
}
