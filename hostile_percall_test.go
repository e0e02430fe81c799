package forgejo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// This file attacks per-call options (callopts.go) through the channels
// they reach: redirects to other origins (the redirect rule,
// withSafeRedirects), echoes of per-call secrets (the redactor), and caller
// labels reaching observers.

// pcSeen records the headers each request to a server carried.
type pcSeen struct {
	mu   sync.Mutex
	reqs []http.Header
}

func (s *pcSeen) add(h http.Header) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, h.Clone())
}

func (s *pcSeen) all() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.reqs...)
}

// TestHostileRedirectPerCallHeaders: a per-call header is sent to the base
// URL's origin only. Every kind of per-call header, every redirect status,
// every way of reaching another origin, and a chain that passes through the
// home origin first; a same-origin redirect keeps them.
func TestHostileRedirectPerCallHeaders(t *testing.T) {
	type header struct {
		name  string
		opt   RequestOption
		wire  string // the header name on the wire
		value string
	}
	modTime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	headers := []header{
		{"X-Api-Key", Header("X-Api-Key", "key-4f1c9a7e2b"), "X-Api-Key", "key-4f1c9a7e2b"},
		{"lower-case name", Header("private-token", "pt-83b1d0e6"), "Private-Token", "pt-83b1d0e6"},
		{"X-Custom-Auth", Header("X-Custom-Auth", "Bearer cst-11aa22bb"), "X-Custom-Auth", "Bearer cst-11aa22bb"},
		{"two values", Header("X-Tenant", "tenant-a"), "X-Tenant", "tenant-a"},
		{"If-None-Match", IfNoneMatch(`"etag-5d41402a"`), "If-None-Match", `"etag-5d41402a"`},
		{"If-Modified-Since", IfModifiedSince(modTime), "If-Modified-Since", modTime.Format(http.TimeFormat)},
		{"OTP", OTP("918273"), "X-Forgejo-Otp", "918273"},
		{"X-Gitea-OTP header", Header("X-Gitea-OTP", "564738"), "X-Gitea-Otp", "564738"},
		{"Accept", Header("Accept", "application/x-secret-accept"), "Accept", "application/x-secret-accept"},
		{"UseToken", UseToken("call-tok-77aa88bb99"), "Authorization", "token call-tok-77aa88bb99"},
		{"UseTokenSource", UseTokenSource(TokenSourceFunc(func(context.Context) (Token, error) {
			return Token{Value: "call-src-66cc55dd44", Type: "Bearer"}, nil
		})), "Authorization", "Bearer call-src-66cc55dd44"},
	}
	type target struct {
		name     string
		location func(home, other string) string
		sameOrig bool
		tls      bool
	}
	targets := []target{
		{"same origin", func(home, _ string) string { return home + "/api/v1/moved" }, true, false},
		{"other port", func(_, other string) string { return other + "/api/v1/moved" }, false, false},
		{"scheme-relative other port", func(_, other string) string { return strings.TrimPrefix(other, "http:") + "/api/v1/moved" }, false, false},
		{"other host name", func(_, other string) string {
			return strings.Replace(other, "127.0.0.1", "localhost", 1) + "/api/v1/moved"
		}, false, false},
		{"https to http", func(_, other string) string { return other + "/api/v1/moved" }, false, true},
		{"via home first", func(home, _ string) string { return home + "/api/v1/hop" }, false, false},
	}
	vectors, failing := 0, 0
	for _, st := range []int{301, 302, 303, 307, 308} {
		for _, tg := range targets {
			for _, method := range []string{"GET", "HEAD"} {
				for _, hd := range headers {
					vectors++
					name := fmt.Sprintf("%d %s %s %s", st, tg.name, method, hd.name)
					homeSeen, otherSeen := &pcSeen{}, &pcSeen{}
					other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						otherSeen.add(r.Header)
						w.Header().Set("Content-Type", "application/json")
						w.Write([]byte(`{}`))
					}))
					var homeURL string
					home := hsHTTPServer(t, tg.tls, func(w http.ResponseWriter, r *http.Request) {
						homeSeen.add(r.Header)
						switch r.URL.Path {
						case "/api/v1/moved":
							w.Header().Set("Content-Type", "application/json")
							w.Write([]byte(`{}`))
						case "/api/v1/hop":
							w.Header().Set("Location", other.URL+"/api/v1/moved")
							w.WriteHeader(st)
						default:
							w.Header().Set("Location", tg.location(homeURL, other.URL))
							w.WriteHeader(st)
						}
					})
					homeURL = home.URL
					opts := []ClientOption{WithBaseURL(home.URL), WithToken("tok-0123456789abcdef"), WithRetryPolicy(RetryOff())}
					if tg.tls {
						opts = append(opts, WithHTTPClient(home.Client()))
					}
					c, err := NewClient(opts...)
					if err != nil {
						t.Fatal(err)
					}
					_, err = c.Do(context.Background(), &Request{Method: method, Path: "/repos/o/r", Retry: RetryIdempotentOnly}, nil, hd.opt)
					other.Close()
					if err != nil {
						failing++
						t.Errorf("%s: err = %v, want the redirect followed", name, err)
						continue
					}
					bad := false
					for _, h := range otherSeen.all() {
						for wire, vals := range h {
							for _, v := range vals {
								if strings.Contains(v, hd.value) {
									bad = true
									t.Errorf("%s: the other origin received %s: %q", name, wire, v)
								}
							}
						}
					}
					hs := homeSeen.all()
					if len(hs) == 0 || hs[0].Get(hd.wire) != hd.value {
						bad = true
						t.Errorf("%s: the home origin did not receive %s", name, hd.wire)
					}
					if tg.sameOrig && (len(hs) != 2 || hs[1].Get(hd.wire) != hd.value) {
						bad = true
						t.Errorf("%s: a same-origin redirect dropped %s", name, hd.wire)
					}
					if bad {
						failing++
					}
				}
			}
		}
	}
	t.Logf("%d per-call header redirect vectors, %d failing", vectors, failing)
}

// pcObserver is hsCapture's observers plus StartCall and EndCall, so that the
// start and end of a call are captured too.
type pcObserver struct {
	hsMulti
	capt *hsCapture
}

func (o pcObserver) StartCall(ctx context.Context, call CallContext) context.Context {
	o.capt.add(fmt.Sprintf("start %+v", call))
	return ctx
}

func (o pcObserver) EndCall(_ context.Context, call CallContext, status int, err error) {
	o.capt.add(fmt.Sprintf("end %+v %d %v", call, status, err))
}

// pcEchoCall is hsEchoCall for any request and per-call options.
func pcEchoCall(t testing.TB, srv *hsRaw, auth ClientOption, answer string, req *Request, opts ...RequestOption) *hsCapture {
	t.Helper()
	srv.setAnswer(func(int64, *http.Request) (string, bool) { return answer, false })
	capt := &hsCapture{}
	obs := pcObserver{hsMulti: capt.observers().(hsMulti), capt: capt}
	c, err := NewClient(WithBaseURL(srv.url()), auth, withObserver(obs),
		WithRetryPolicy(RetryPolicy{MaxAttempts: 2, Jitter: JitterNone}), WithClock(hsNoClock{}))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		ID int64 `json:"id"`
	}
	resp, err := c.Do(context.Background(), req, &v, opts...)
	capt.result(resp, err)
	return capt
}

// pcSecretWays are the ways a call carries a value the library masks in a
// rendered URL, or as a one-time password.
func pcSecretWays(secret string) []struct {
	name string
	req  *Request
	opts []RequestOption
} {
	get := func() *Request { return &Request{Method: "GET", Path: "/repos/o/r", Retry: RetryIdempotentOnly} }
	withQuery := func(name string) *Request {
		r := get()
		r.Query = map[string][]string{name: {secret}}
		return r
	}
	return []struct {
		name string
		req  *Request
		opts []RequestOption
	}{
		{"QueryParam password", get(), []RequestOption{QueryParam("password", secret)}},
		{"QueryParam PassWord", get(), []RequestOption{QueryParam("PassWord", secret)}},
		{"QueryParam private_token", get(), []RequestOption{QueryParam("private_token", secret)}},
		{"Request.Query password", withQuery("password"), nil},
		{"Request.Query token", withQuery("token"), nil},
		{"Request.Query access_token", withQuery("access_token"), nil},
		{"Request.Query Private_Token", withQuery("Private_Token"), nil},
		{"OTP", get(), []RequestOption{OTP(secret)}},
		{"X-Gitea-OTP header", get(), []RequestOption{Header("X-Gitea-OTP", secret)}},
		{"UseToken", get(), []RequestOption{UseToken(secret)}},
		{"UseTokenSource", get(), []RequestOption{UseTokenSource(TokenSourceFunc(func(context.Context) (Token, error) {
			return Token{Value: secret}, nil
		}))}},
		{"UseTokenSource failing", get(), []RequestOption{UseTokenSource(TokenSourceFunc(func(context.Context) (Token, error) {
			return Token{Value: secret}, errors.New("vault refused " + secret)
		}))}},
	}
}

// TestHostilePerCallSecretEchoes: a value that a call's URL masks (a
// password query parameter, from QueryParam or Client.Do) or that a call
// sends as its one-time password is masked in every channel a hostile
// server can echo it through, at every offset around every bound.
func TestHostilePerCallSecretEchoes(t *testing.T) {
	srv := hsRawServer(t, nil)
	vectors, failed := 0, 0
	for _, sec := range hsSecrets() {
		if strings.TrimSpace(sec.secret) != sec.secret {
			continue
		}
		for _, way := range pcSecretWays(sec.secret) {
			for _, ch := range hsChannels {
				offsets := []int{0}
				if ch.offset {
					offsets = hsOffsets(len(sec.secret))
				}
				for _, off := range offsets {
					vectors++
					capt := pcEchoCall(t, srv, WithToken("unrelated-client-token-0a1b2c3d"), ch.answer(sec.secret, off), way.req, way.opts...)
					if leak := capt.leaks(sec.secret); leak != "" {
						failed++
						if failed <= 20 {
							t.Errorf("%s via %s, %s at offset %d: %s", sec.name, way.name, ch.name, off, leak)
						}
					}
				}
			}
		}
	}
	t.Logf("%d per-call secret echo vectors, %d failing", vectors, failed)
}

// TestHostileCallerLabels: a caller label (Client.Do's Operation, Method,
// Path) that carries the client's credential or the call's own secret
// reaches no error, observer event, call start or end, or log line
// unmasked, on success, on a status error, on a transport failure and on
// a request refused before sending.
func TestHostileCallerLabels(t *testing.T) {
	srv := hsRawServer(t, nil)
	answers := map[string]string{
		"success":        hsHTTP("200 OK", "Content-Type: application/json\r\n", `{"id":1}`),
		"status error":   hsHTTP("500 Internal Server Error", "Content-Type: application/json\r\n", `{"message":"boom"}`),
		"transport":      "garbage\r\n\r\n",
		"decode failure": hsHTTP("200 OK", "Content-Type: application/json\r\n", `<html>`),
	}
	vectors, failed := 0, 0
	for _, sec := range hsSecrets() {
		labels := []struct {
			name string
			req  func() *Request
			opts []RequestOption
		}{
			{"Operation is the secret", func() *Request {
				return &Request{Method: "GET", Path: "/repos/o/r", Retry: RetryIdempotentOnly, Operation: sec.secret}
			}, nil},
			{"Operation quotes the secret", func() *Request {
				return &Request{Method: "GET", Path: "/repos/o/r", Retry: RetryIdempotentOnly, Operation: "sync(" + sec.secret + ")"}
			}, nil},
			{"Operation quotes it JSON-escaped", func() *Request {
				return &Request{Method: "GET", Path: "/repos/o/r", Retry: RetryIdempotentOnly, Operation: "op " + hsJSON(sec.secret)}
			}, nil},
			{"Method is the secret (refused)", func() *Request {
				return &Request{Method: sec.secret, Path: "/repos/o/r", Operation: "x"}
			}, nil},
			{"Path quotes the secret (refused)", func() *Request {
				return &Request{Method: "GET", Path: "/repos/o/r?" + sec.secret, Operation: "x"}
			}, nil},
			{"Path segment is the secret", func() *Request {
				return &Request{Method: "GET", Path: "/repos/o/" + escapePathForTest(sec.secret), Retry: RetryIdempotentOnly}
			}, nil},
			{"Operation quotes a per-call password", func() *Request {
				return &Request{Method: "GET", Path: "/repos/o/r", Retry: RetryIdempotentOnly, Operation: "login " + sec.secret}
			}, []RequestOption{QueryParam("password", sec.secret)}},
		}
		for _, lb := range labels {
			for an, answer := range answers {
				vectors++
				auth := sec.auth
				if lb.opts != nil {
					auth = WithToken("unrelated-client-token-0a1b2c3d")
				}
				capt := pcEchoCall(t, srv, auth, answer, lb.req(), lb.opts...)
				if leak := capt.leaks(sec.secret); leak != "" {
					failed++
					t.Errorf("%s, %s, %s: %s", sec.name, lb.name, an, leak)
				}
			}
		}
	}
	t.Logf("%d caller-label vectors, %d failing", vectors, failed)
}

func escapePathForTest(s string) string {
	var b strings.Builder
	escapeTo(&b, s)
	return b.String()
}

// FuzzCallSecretEcho is FuzzCredentialEcho's sibling for a call's own
// secrets and labels: the fuzzed secret travels as a masked query value, a
// one-time password, or inside Client.Do's Operation label (then also as
// the client's token), and the server echoes it through one channel.
func FuzzCallSecretEcho(f *testing.F) {
	for i := range hsChannels {
		f.Add("3f9a2c77d1e04b6a8f5e2d1c0b9a8f7e", uint8(i), uint16(0), uint8(i))
	}
	f.Add(`pass"w\or<d>&é`, uint8(11), uint16(MaxFragment-5), uint8(0))
	f.Add("hunter22", uint8(3), uint16(0), uint8(9))
	srv := hsRawServer(f, nil)
	f.Fuzz(func(t *testing.T, secret string, channel uint8, offset uint16, via uint8) {
		secret = strings.TrimSpace(secret)
		if len(secret) < runLen || len(secret) > 256 || !utf8.ValidString(secret) || hasControl(secret) {
			return
		}
		ch := hsChannels[int(channel)%len(hsChannels)]
		off := 0
		if ch.offset {
			off = int(offset) % (maxErrorBody + 64)
		}
		ways := pcSecretWays(secret)
		auth := WithToken("unrelated-client-token-0a1b2c3d")
		req := &Request{Method: "GET", Path: "/repos/o/r", Retry: RetryIdempotentOnly, Operation: "label " + secret}
		var opts []RequestOption
		if k := int(via) % (len(ways) + 1); k < len(ways) {
			req, opts = ways[k].req, ways[k].opts
		} else {
			auth = WithToken(secret)
		}
		run := func(answer string) string {
			r := *req
			return pcEchoCall(t, srv, auth, answer, &r, opts...).leaks(secret)
		}
		leak := run(ch.answer(secret, off))
		if leak == "" {
			return
		}
		// As in FuzzCredentialEcho: a low-entropy secret may match the
		// library's own text; it leaked only if a stand-in echo is clean.
		if run(ch.answer(strings.Repeat("~", len(secret)), off)) == "" {
			t.Fatalf("%s at offset %d (via %d): %s", ch.name, off, via, leak)
		}
	})
}

// TestCallTokenOverridesForOneCall: UseToken and UseTokenSource
// replace the client's credential for their call only, on every attempt.
func TestCallTokenOverridesForOneCall(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	fails := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		first := false
		if r.URL.Query().Get("fail") != "" {
			fails++
			first = fails%2 == 1 // every such call's first attempt fails
		}
		mu.Unlock()
		if first {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	c, err := NewClient(WithBaseURL(srv.URL), WithToken("client-token-1234"), WithClock(hsNoClock{}),
		WithRetryPolicy(RetryPolicy{MaxAttempts: 2, Jitter: JitterNone}))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	src := TokenSourceFunc(func(context.Context) (Token, error) {
		n++
		return Token{Value: fmt.Sprintf("src-%d", n), Type: "Bearer"}, nil
	})
	get := func(q string, opts ...RequestOption) {
		t.Helper()
		r := &Request{Method: "GET", Path: "/user", Retry: RetryIdempotentOnly}
		if q != "" {
			r.Query = map[string][]string{"fail": {"1"}}
		}
		if _, err := c.Do(context.Background(), r, nil, opts...); err != nil {
			t.Fatal(err)
		}
	}
	get("")
	get("", UseToken("alice-token"))
	get("")
	get("fail", UseToken("bob-token"))
	get("fail", UseTokenSource(src))
	get("")
	want := []string{"token client-token-1234", "token alice-token", "token client-token-1234",
		"token bob-token", "token bob-token", "Bearer src-1", "Bearer src-2", "token client-token-1234"}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Errorf("Authorization sent:\n got %q\nwant %q", seen, want)
	}
	for _, opt := range []RequestOption{UseToken(" "), UseToken("a\nb"), UseTokenSource(nil)} {
		_, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/user"}, nil, opt)
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("a bad per-call credential: err = %v, want a *ValidationError", err)
		}
	}
}
