package forgejo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

// Hostile servers on 127.0.0.1: each test here attacks one
// promise — no credential leaves its origin or its string, no write
// repeats, no walk under-reports — with a table of vectors.

// hsRaw is a raw TCP server: it reads each request and writes whatever
// answer returns, byte for byte, so that it can say what net/http refuses
// to parse.
type hsRaw struct {
	ln     net.Listener
	hits   atomic.Int64
	mu     sync.Mutex
	answer func(n int64, req *http.Request) (resp string, keepOpen bool)
}

func hsRawServer(t testing.TB, answer func(n int64, req *http.Request) (string, bool)) *hsRaw {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &hsRaw{ln: ln, answer: answer}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(conn)
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return s
}

func (s *hsRaw) setAnswer(a func(n int64, req *http.Request) (string, bool)) {
	s.mu.Lock()
	s.answer = a
	s.mu.Unlock()
}

func (s *hsRaw) serve(conn net.Conn) {
	defer conn.Close()
	br := bufio.NewReader(conn)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		_, _ = io.Copy(io.Discard, req.Body)
		n := s.hits.Add(1)
		s.mu.Lock()
		a := s.answer
		s.mu.Unlock()
		resp, keep := a(n, req)
		if _, err := io.WriteString(conn, resp); err != nil || !keep {
			return
		}
	}
}

func (s *hsRaw) url() string { return "http://" + s.ln.Addr().String() }

// hsCapture records everything a caller can see of a call: the error in
// every fmt verb and every link of its chain, the typed fields, the
// response's request ID and rate-limit names, every observer event and
// every slog line.
type hsCapture struct {
	mu    sync.Mutex
	texts []string
	log   bytes.Buffer
}

func (c *hsCapture) add(s string) {
	c.mu.Lock()
	c.texts = append(c.texts, s)
	c.mu.Unlock()
}

func (c *hsCapture) OnRequest(_ context.Context, call CallContext) { c.add(fmt.Sprintf("%+v", call)) }
func (c *hsCapture) OnResponse(_ context.Context, call CallContext, status int) {
	c.add(fmt.Sprintf("%+v %d", call, status))
}
func (c *hsCapture) OnError(_ context.Context, call CallContext, err error) {
	c.add(fmt.Sprintf("%+v %v", call, err))
}
func (c *hsCapture) OnRetry(_ context.Context, call CallContext, err error, wait time.Duration) {
	c.add(fmt.Sprintf("%+v %v %s", call, err, wait))
}
func (c *hsCapture) OnRateLimit(_ context.Context, call CallContext, rl RateLimit) {
	c.add(fmt.Sprintf("%+v %+v", call, rl))
}
func (c *hsCapture) OnRateLimitWait(_ context.Context, call CallContext, wait time.Duration) {
	c.add(fmt.Sprintf("%+v %s", call, wait))
}

// observers returns the capture and a slog observer writing JSON into it.
func (c *hsCapture) observers() tObserver {
	return hsMulti{c, slogObserver(slog.New(slog.NewJSONHandler(&hsLockedWriter{c}, &slog.HandlerOptions{Level: slog.LevelDebug})))}
}

type hsLockedWriter struct{ c *hsCapture }

func (w *hsLockedWriter) Write(p []byte) (int, error) {
	w.c.mu.Lock()
	defer w.c.mu.Unlock()
	return w.c.log.Write(p)
}

// hsMulti fans events out to several observers.
type hsMulti []tObserver

func (m hsMulti) OnRequest(ctx context.Context, call CallContext) {
	for _, o := range m {
		o.OnRequest(ctx, call)
	}
}
func (m hsMulti) OnResponse(ctx context.Context, call CallContext, status int) {
	for _, o := range m {
		o.OnResponse(ctx, call, status)
	}
}
func (m hsMulti) OnError(ctx context.Context, call CallContext, err error) {
	for _, o := range m {
		o.OnError(ctx, call, err)
	}
}
func (m hsMulti) OnRetry(ctx context.Context, call CallContext, err error, wait time.Duration) {
	for _, o := range m {
		if r, ok := o.(tRetryObserver); ok {
			r.OnRetry(ctx, call, err, wait)
		}
	}
}
func (m hsMulti) OnRateLimit(ctx context.Context, call CallContext, rl RateLimit) {
	for _, o := range m {
		if r, ok := o.(tRateLimitObserver); ok {
			r.OnRateLimit(ctx, call, rl)
		}
	}
}
func (m hsMulti) OnRateLimitWait(ctx context.Context, call CallContext, wait time.Duration) {
	for _, o := range m {
		if r, ok := o.(tRateLimitObserver); ok {
			r.OnRateLimitWait(ctx, call, wait)
		}
	}
}

// result adds what the call returned to the capture.
func (c *hsCapture) result(resp *Response, err error) {
	if err != nil {
		for e := err; e != nil; e = errors.Unwrap(e) {
			c.add(e.Error())
			c.add(fmt.Sprintf("%v|%+v|%s|%q", e, e, e, e))
		}
		var ae *APIError
		if errors.As(err, &ae) {
			c.add(fmt.Sprintf("%+v", *ae))
			c.add(strings.Join(append([]string{ae.Message, ae.URL, ae.Location}, ae.Errors...), "|"))
		}
		var de *DecodeError
		if errors.As(err, &de) {
			c.add(de.Snippet + "|" + de.Path)
		}
		var te *TransportError
		if errors.As(err, &te) {
			c.add(fmt.Sprintf("%+v", te.Call))
		}
	}
	c.add(resp.RequestID())
	if rl, ok := resp.RateLimit(); ok {
		c.add(fmt.Sprintf("%+v", rl))
		for _, l := range rl.Limits {
			c.add(l.Name + string(l.PartitionKey))
		}
	}
}

// leaks returns the first text holding a run of min(8, len) characters of
// secret, or "".
func (c *hsCapture) leaks(secret string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	all := append(append([]string(nil), c.texts...), c.log.String())
	for _, needle := range hsRuns(secret) {
		for _, text := range all {
			if strings.Contains(text, needle) {
				return fmt.Sprintf("run %q found in %q", needle, hsAround(text, needle))
			}
		}
	}
	return ""
}

// hsRuns is every run of runLen characters of secret (the whole secret
// when shorter).
func hsRuns(secret string) []string {
	rs := []rune(secret)
	if len(rs) <= runLen {
		return []string{secret}
	}
	var out []string
	for i := 0; i+runLen <= len(rs); i++ {
		out = append(out, string(rs[i:i+runLen]))
	}
	return out
}

func hsAround(text, needle string) string {
	i := strings.Index(text, needle)
	lo, hi := max(i-60, 0), min(i+len(needle)+60, len(text))
	return text[lo:hi]
}

// hsChannel is one way a hostile server can put a secret into an answer.
type hsChannel struct {
	name   string
	offset bool // the secret is placed at an offset into a body
	answer func(secret string, off int) string
}

func hsPad(n int) string { return strings.Repeat("x", max(n, 0)) }

func hsHTTP(status, headers, body string) string {
	return "HTTP/1.1 " + status + "\r\n" + headers + "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}

var hsChannels = []hsChannel{
	{name: "status line", answer: func(s string, _ int) string { return "HTTP/1.1 2" + s + " OK\r\nContent-Length: 0\r\n\r\n" }},
	{name: "status reason", answer: func(s string, _ int) string { return hsHTTP("503 "+s, "", "") }},
	{name: "header line without colon", answer: func(s string, _ int) string {
		return "HTTP/1.1 200 OK\r\n" + s + "\r\nContent-Length: 0\r\n\r\n"
	}},
	{name: "bad Content-Length", answer: func(s string, _ int) string {
		return "HTTP/1.1 200 OK\r\nContent-Length: 1" + s + "\r\n\r\n"
	}},
	{name: "bad Transfer-Encoding", answer: func(s string, _ int) string {
		return "HTTP/1.1 200 OK\r\nTransfer-Encoding: " + s + "\r\n\r\n"
	}},
	{name: "unparseable Location", answer: func(s string, _ int) string {
		return hsHTTP("302 Found", "Location: http://127.0.0.1:1/%zz"+s+"\r\n", "")
	}},
	{name: "Location on a 3xx not followed", answer: func(s string, _ int) string {
		return hsHTTP("300 Multiple Choices", "Location: /elsewhere?t="+s+"\r\n", "")
	}},
	{name: "non-HTTP answer", answer: func(s string, _ int) string { return s + " is not HTTP\r\n\r\n" }},
	{name: "X-Request-Id on an error", answer: func(s string, _ int) string {
		return hsHTTP("500 Internal Server Error", "X-Request-Id: "+s+"\r\n", "")
	}},
	{name: "X-Request-Id on success", answer: func(s string, _ int) string {
		return hsHTTP("200 OK", "X-Request-Id: "+s+"\r\nContent-Type: application/json\r\n", `{}`)
	}},
	{name: "rate-limit policy name", answer: func(s string, _ int) string {
		return hsHTTP("200 OK", "RateLimit: \""+strings.ReplaceAll(s, `"`, "")+"\";r=5;t=1\r\n", `{}`)
	}},
	{name: "JSON error message", offset: true, answer: func(s string, off int) string {
		return hsHTTP("500 Internal Server Error", "Content-Type: application/json\r\n", `{"message":"`+hsPad(off)+hsJSON(s)+`"}`)
	}},
	{name: "JSON error details", offset: true, answer: func(s string, off int) string {
		return hsHTTP("422 Unprocessable Entity", "Content-Type: application/json\r\n", `{"errors":["`+hsPad(off)+hsJSON(s)+`"],"url":"`+hsJSON(s)+`"}`)
	}},
	{name: "text/plain error", offset: true, answer: func(s string, off int) string {
		return hsHTTP("404 Not Found", "Content-Type: text/plain\r\n", hsPad(off)+s+" tail")
	}},
	{name: "decode snippet", offset: true, answer: func(s string, off int) string {
		return hsHTTP("200 OK", "Content-Type: application/json\r\n", `<`+hsPad(off)+s+" tail")
	}},
	{name: "decode snippet, JSON-escaped", offset: true, answer: func(s string, off int) string {
		return hsHTTP("200 OK", "Content-Type: application/json\r\n", `{"id":"`+hsPad(off)+hsJSON(s)+`"}`)
	}},
	{name: "decode cause with a map key", answer: func(s string, _ int) string {
		return hsHTTP("200 OK", "Content-Type: application/json\r\n", `{"`+hsJSON(s)+`":1}`)
	}},
}

func hsJSON(s string) string {
	b, _ := jsonMarshalNoHTML(s)
	return string(b[1 : len(b)-1])
}

// hsOffsets straddle every cut the library makes: MaxFragment, the snippet's
// byte bound and the 64 KiB error-body bound.
func hsOffsets(secretLen int) []int {
	var out []int
	for _, cut := range []int{0, MaxFragment - 3, MaxFragment, MaxFragment * utf8.UTFMax, maxErrorBody} {
		for _, d := range []int{-secretLen, -secretLen / 2, -3, -1, 0, 1} {
			if cut+d >= 0 {
				out = append(out, cut+d)
			}
		}
	}
	return out
}

// hsEchoCall runs one GET (retried once, so that RetriesExhaustedError and
// retry events are in play) against a server that answers with answer, and
// returns what a caller could see.
func hsEchoCall(t testing.TB, srv *hsRaw, auth ClientOption, answer string) *hsCapture {
	t.Helper()
	srv.setAnswer(func(int64, *http.Request) (string, bool) { return answer, false })
	capt := &hsCapture{}
	c, err := NewClient(WithBaseURL(srv.url()), auth, withObserver(capt.observers()),
		WithRetryPolicy(RetryPolicy{MaxAttempts: 2, Jitter: JitterNone}), WithClock(hsNoClock{}))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		ID int64 `json:"id"`
	}
	resp, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/repos/o/r", Retry: RetryIdempotentOnly}, &v)
	capt.result(resp, err)
	return capt
}

// hsNoClock never sleeps.
type hsNoClock struct{}

func (hsNoClock) Now() time.Time                                   { return time.Unix(1_800_000_000, 0) }
func (hsNoClock) Sleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }
func (hsNoClock) Timer(time.Duration) (<-chan time.Time, func()) {
	c := make(chan time.Time, 1)
	c <- time.Unix(1_800_000_000, 0)
	return c, func() {}
}

// hsSecrets are the credentials the echo tests use: a hex token, a token
// with every character net/http or JSON would escape, and a short basic-auth
// password.
func hsSecrets() []struct {
	name   string
	secret string
	auth   ClientOption
} {
	return []struct {
		name   string
		secret string
		auth   ClientOption
	}{
		{"hex token", "3f9a2c77d1e04b6a8f5e2d1c0b9a8f7e6d5c4b3a", WithToken("3f9a2c77d1e04b6a8f5e2d1c0b9a8f7e6d5c4b3a")},
		{"token with escapes", `tok"en\wi<th>&é–😀 sp;ace`, WithToken(`tok"en\wi<th>&é–😀 sp;ace`)},
		{"short password", "hunter2", WithBasicAuth("alice", "hunter2")},
	}
}

// TestHostileCredentialEchoes puts each credential into every channel, at
// every offset around every bound, and looks for any run of it in
// everything the caller can see.
func TestHostileCredentialEchoes(t *testing.T) {
	srv := hsRawServer(t, nil)
	vectors, failed := 0, 0
	for _, sec := range hsSecrets() {
		for _, ch := range hsChannels {
			offsets := []int{0}
			if ch.offset {
				offsets = hsOffsets(len(sec.secret))
			}
			for _, off := range offsets {
				vectors++
				capt := hsEchoCall(t, srv, sec.auth, ch.answer(sec.secret, off))
				if leak := capt.leaks(sec.secret); leak != "" {
					failed++
					t.Errorf("%s via %s at offset %d: %s", sec.name, ch.name, off, leak)
				}
			}
		}
	}
	t.Logf("%d vectors, %d leaked", vectors, failed)
}

// The caller's own URL: the client's token put into an ordinary query
// parameter of Client.Do is masked in CallContext.URL and everywhere else.
func TestHostileCallerQueryCarriesToken(t *testing.T) {
	for _, sec := range hsSecrets() {
		srv := hsRawServer(t, func(int64, *http.Request) (string, bool) {
			return hsHTTP("500 Internal Server Error", "", ""), false
		})
		capt := &hsCapture{}
		c, err := NewClient(WithBaseURL(srv.url()), sec.auth, withObserver(capt.observers()), WithRetryPolicy(RetryOff()))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/x", Query: map[string][]string{"q": {sec.secret}, "note": {"a" + sec.secret + "b"}}, Retry: RetryIdempotentOnly}, nil)
		capt.result(resp, err)
		if leak := capt.leaks(sec.secret); leak != "" {
			t.Errorf("%s: %s", sec.name, leak)
		}
	}
}

// A one-time password is masked like the credential.
func TestHostileOTPEchoIsMasked(t *testing.T) {
	const otp = "492817"
	srv := hsRawServer(t, func(_ int64, r *http.Request) (string, bool) {
		return hsHTTP("401 Unauthorized", "X-Request-Id: "+r.Header.Get("X-Forgejo-OTP")+"\r\nContent-Type: text/plain\r\n", "bad otp "+r.Header.Get("X-Forgejo-OTP")), false
	})
	capt := &hsCapture{}
	c, err := NewClient(WithBaseURL(srv.url()), WithBasicAuth("alice", "correct horse"), withObserver(capt.observers()), WithRetryPolicy(RetryOff()))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/version", Retry: RetryIdempotentOnly}, nil, OTP(otp))
	capt.result(resp, err)
	if leak := capt.leaks(otp); leak != "" {
		t.Error(leak)
	}
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 401 {
		t.Fatalf("err = %v, want a 401 *APIError", err)
	}
}

// FuzzCredentialEcho echoes a random credential through a random channel
// at a random offset: no run of eight of its characters may reach an
// error string, an observer event or a log line.
func FuzzCredentialEcho(f *testing.F) {
	for i := range hsChannels {
		f.Add("3f9a2c77d1e04b6a8f5e2d1c0b9a8f7e", uint8(i), uint16(0))
		f.Add(`tok"en\wi<th>&é`, uint8(i), uint16(MaxFragment-5))
	}
	f.Add("hunter2", uint8(0), uint16(3))
	srv := hsRawServer(f, nil)
	f.Fuzz(func(t *testing.T, secret string, channel uint8, offset uint16) {
		secret = strings.TrimSpace(secret)
		if len(secret) < runLen || len(secret) > 256 || !utf8.ValidString(secret) || hasControl(secret) {
			return
		}
		ch := hsChannels[int(channel)%len(hsChannels)]
		off := 0
		if ch.offset {
			off = int(offset) % (maxErrorBody + 64)
		}
		capt := hsEchoCall(t, srv, WithToken(secret), ch.answer(secret, off))
		leak := capt.leaks(secret)
		if leak == "" {
			return
		}
		// A low-entropy credential ("00000000") can match the library's own
		// text (a reset of 1000000000 ns, a timestamp). It leaked only if
		// the same call, with the server echoing a stand-in instead, does
		// not show that run.
		standIn := strings.Repeat("~", len(secret))
		baseline := hsEchoCall(t, srv, WithToken(secret), ch.answer(standIn, off))
		if baseline.leaks(secret) == "" {
			t.Fatalf("%s at offset %d: %s", ch.name, off, leak)
		}
	})
}

func jsonMarshalNoHTML(s string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(s)
	return bytes.TrimSpace(buf.Bytes()), err
}

// hsAuthSeen records the credential headers and Referer of each request a
// server received.
type hsAuthSeen struct {
	mu    sync.Mutex
	auths []string
}

func (s *hsAuthSeen) handler(status int, header map[string]string, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.auths = append(s.auths, r.Method+" "+r.Header.Get("Authorization")+"|"+r.Header.Get("X-Forgejo-OTP")+"|"+r.Header.Get("Referer"))
		s.mu.Unlock()
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

func (s *hsAuthSeen) snapshot() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.auths...)
}

// TestHostileRedirects: every 3xx, to the same origin, to another port of
// the same host, from https to http, and by a scheme-relative Location;
// reads follow (carrying the credential only within the origin), writes
// never follow and are sent exactly once.
func TestHostileRedirects(t *testing.T) {
	const tok = "7c1d9e0f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d"
	statuses := []int{301, 302, 303, 307, 308}
	type target struct {
		name     string
		location func(home, other string) string
		sameOrig bool
		tls      bool // the client's base URL is https, the target plain http
	}
	targets := []target{
		{"same origin", func(home, _ string) string { return home + "/api/v1/moved" }, true, false},
		{"other port, same host", func(_, other string) string { return other + "/api/v1/moved" }, false, false},
		{"scheme-relative, other port", func(_, other string) string { return strings.TrimPrefix(other, "http:") + "/api/v1/moved" }, false, false},
		{"https to http", func(_, other string) string { return other + "/api/v1/moved" }, false, true},
	}
	methods := []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
	vectors := 0
	for _, st := range statuses {
		for _, tg := range targets {
			for _, m := range methods {
				vectors++
				name := fmt.Sprintf("%d %s %s", st, tg.name, m)
				otherSeen, homeSeen := &hsAuthSeen{}, &hsAuthSeen{}
				other := hsHTTPServer(t, false, otherSeen.handler(200, map[string]string{"Content-Type": "application/json"}, `{}`))
				var home *httptest.Server
				var homeURL string
				homeHandler := func(w http.ResponseWriter, r *http.Request) {
					if r.URL.Path == "/api/v1/moved" {
						homeSeen.handler(200, map[string]string{"Content-Type": "application/json"}, `{}`)(w, r)
						return
					}
					homeSeen.handler(st, map[string]string{"Location": tg.location(homeURL, other.URL)}, "")(w, r)
				}
				home = hsHTTPServer(t, tg.tls, homeHandler)
				homeURL = home.URL
				opts := []ClientOption{WithBaseURL(home.URL), WithToken(tok), WithRetryPolicy(RetryOff())}
				if tg.tls {
					opts = append(opts, WithHTTPClient(home.Client()))
				}
				c, err := NewClient(opts...)
				if err != nil {
					t.Fatal(err)
				}
				retry := RetryNever
				if m == "GET" || m == "HEAD" {
					retry = RetryIdempotentOnly
				}
				var body any
				if m == "POST" || m == "PUT" || m == "PATCH" {
					body = map[string]string{"title": "x"}
				}
				_, err = c.Do(context.Background(), &Request{Method: m, Path: "/repos/o/r", Body: body, Retry: retry}, nil, OTP("123456"))
				hs, ot := homeSeen.snapshot(), otherSeen.snapshot()
				for _, line := range ot {
					if strings.Contains(line, tok) || strings.Contains(line, "123456") || strings.Contains(line, homeURL) {
						t.Errorf("%s: the other origin received a credential or Referer: %q", name, line)
					}
				}
				if m != "GET" && m != "HEAD" {
					var ae *APIError
					if !errors.As(err, &ae) || ae.StatusCode != st || ae.Location == "" {
						t.Errorf("%s: err = %v, want a %d *APIError with Location", name, err, st)
					}
					if len(hs)+len(ot) != 1 {
						t.Errorf("%s: the write reached the servers %d times (%q, %q), want once", name, len(hs)+len(ot), hs, ot)
					}
					continue
				}
				// A read follows, with the credential only inside the origin.
				if err != nil {
					t.Errorf("%s: err = %v, want the redirect followed", name, err)
					continue
				}
				if tg.sameOrig && (len(hs) != 2 || !strings.Contains(hs[1], tok)) {
					t.Errorf("%s: same-origin redirect: home saw %q, want the credential twice", name, hs)
				}
				if !tg.sameOrig && len(ot) != 1 {
					t.Errorf("%s: other origin saw %q, want one request", name, ot)
				}
			}
		}
	}
	t.Logf("%d redirect vectors", vectors)
}

// hsHTTPServer starts an HTTP (or HTTPS) server on 127.0.0.1.
func hsHTTPServer(t *testing.T, useTLS bool, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	var s *httptest.Server
	if useTLS {
		s = httptest.NewTLSServer(h)
	} else {
		s = httptest.NewServer(h)
	}
	t.Cleanup(s.Close)
	return s
}

// TestHostileTransportReplay: net/http re-sends a bodiless GET, HEAD or
// OPTIONS once when a reused keep-alive connection dies after the request
// was written. A call that must not be repeated (Client.Do with Never)
// reaches the server once; a read may be replayed, which is harmless.
func TestHostileTransportReplay(t *testing.T) {
	for _, tc := range []struct {
		method string
		retry  RetryEligibility
		want   int64 // requests the server reads for the second call
	}{
		{"GET", RetryNever, 1},
		{"HEAD", RetryNever, 1},
		{"OPTIONS", RetryNever, 1},
		{"OPTIONS", RetryIdempotentOnly, 1}, // RetryIdempotentOnly never repeats OPTIONS
		{"GET", RetryIdempotentOnly, 2},     // net/http's own replay of a read
	} {
		srv := hsRawServer(t, func(n int64, r *http.Request) (string, bool) {
			if n == 1 {
				body := `{}`
				if r.Method == "HEAD" {
					return "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", true
				}
				return hsHTTP("200 OK", "Content-Type: application/json\r\n", body), true // keep the connection for reuse
			}
			return "", false // read the request, then hang up without answering
		})
		c, err := NewClient(WithBaseURL(srv.url()), WithRetryPolicy(RetryOff()), WithHTTPClient(&http.Client{Transport: &http.Transport{}}))
		if err != nil {
			t.Fatal(err)
		}
		req := &Request{Method: tc.method, Path: "/x", Retry: tc.retry}
		if _, err := c.Do(context.Background(), req, nil); err != nil {
			t.Fatalf("%s %v: warm-up call: %v", tc.method, tc.retry, err)
		}
		_, err = c.Do(context.Background(), req, nil)
		got := srv.hits.Load() - 1
		if got != tc.want {
			t.Errorf("%s with %v: the server read the second call %d times, want %d (err %v)", tc.method, tc.retry, got, tc.want, err)
		}
		if tc.want == 1 && tc.retry == RetryNever {
			var te *TransportError
			if !errors.As(err, &te) {
				t.Errorf("%s with Never: err = %v, want a *TransportError", tc.method, err)
			}
		}
	}
}

// TestHostileOversizedHeadersNotRetried: headers past net/http's limit are
// a response over its bound, not a connection failure: one attempt.
func TestHostileOversizedHeadersNotRetried(t *testing.T) {
	srv := hsRawServer(t, func(int64, *http.Request) (string, bool) {
		return hsHTTP("200 OK", "X-Filler: "+strings.Repeat("y", 8<<10)+"\r\n", `{}`), false
	})
	c, err := NewClient(WithBaseURL(srv.url()), WithClock(hsNoClock{}),
		WithHTTPClient(&http.Client{Transport: &http.Transport{MaxResponseHeaderBytes: 4 << 10}}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Do(context.Background(), &Request{Method: "GET", Path: "/x", Retry: RetryIdempotentOnly}, nil)
	var te *TransportError
	if !errors.As(err, &te) || te.Kind != TransportResponseTooLarge {
		t.Fatalf("err = %v, want a response-too-large *TransportError", err)
	}
	if n := srv.hits.Load(); n != 1 {
		t.Fatalf("%d attempts, want 1", n)
	}
}

// TestHostileUnreadableNextTruncatesWalk: a next link that is offered but
// cannot be read fails the walk; it never reports a short result as
// complete.
func TestHostileUnreadableNextTruncatesWalk(t *testing.T) {
	for _, link := range []string{
		`<>; rel="next"`,
		`https://h/x?page=2; rel="next"`,
		`<https://h/x?page=2; rel="next"`,
		`<https://h/x?page=2>; rel='next'`,
		`<https://h/x?page=2>; rel="next`,
		`<https://h/x>; rel="next"`,
		`<https://h/x?page=zz>; rel="next"`,
		`<https://h/x?page=1>; rel="next"`,
	} {
		srv := hsRawServer(t, func(int64, *http.Request) (string, bool) {
			return hsHTTP("200 OK", "Content-Type: application/json\r\nLink: "+link+"\r\n", `[{"id":1},{"id":2}]`), false
		})
		c, err := NewClient(WithBaseURL(srv.url()), WithRetryPolicy(RetryOff()))
		if err != nil {
			t.Fatal(err)
		}
		fetch := func(ctx context.Context, o ListOptions) ([]*User, *Response, error) {
			var out []*User
			r := &request{op: &Operation{ID: "walk", Method: "GET", Retry: RetryIdempotentOnly, Paging: PagingPageLimit}, path: "/users"}
			r.paging(c, o)
			resp, err := c.call(ctx, r, &out)
			return out, resp, err
		}
		items, err := Collect(context.Background(), ListOptions{}, fetch)
		var wt *WalkTruncatedError
		if !errors.As(err, &wt) {
			t.Errorf("Link %s: %d items, err %v; want a *WalkTruncatedError", link, len(items), err)
		}
	}
}

// hsRecorder is a transport that answers 200 {} and records each path as
// sent.
type hsRecorder struct {
	mu    sync.Mutex
	paths []string
}

func (h *hsRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	h.mu.Lock()
	h.paths = append(h.paths, r.URL.EscapedPath())
	h.mu.Unlock()
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{}`)), Request: r}, nil
}

func (h *hsRecorder) take() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.paths
	h.paths = nil
	return p
}

// hsHostilePathValues are values a caller might pass, on purpose or by
// accident, that a path-cleaning or decoding server could route elsewhere.
var hsHostilePathValues = []string{
	".", "..", "../admin", "a/../../admin", "../../../../../admin/users/bob", "./x", "x/.", "x/..",
	"%2e%2e", "%2E%2E", ".%2e", "%2e.", "%2e%2e%2fadmin", "..%2f..%2fadmin", "%2e%2e/%2e%2e/admin",
	`..\admin`, `a\..\..\admin`, `%5c..%5c..`, "..%5cadmin", "%252e%252e", "%252e%252e%252fadmin",
	"%25252e%25252e", "a/%2e%2e/b", "....//admin", "/../admin", "../", "..;/admin", " .. ", "x/ ../admin",
	"%2F..%2F..%2Fadmin", "tags/../../../admin",
}

// hsRouteOf turns a path template into a pattern in which every parameter
// may be anything, even several segments: what must still match after a
// proxy decoded and cleaned the path.
func hsRouteOf(tmpl string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^/api/v1")
	for len(tmpl) > 0 {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(regexp.QuoteMeta(tmpl))
			break
		}
		b.WriteString(regexp.QuoteMeta(tmpl[:i]))
		j := strings.IndexByte(tmpl[i:], '}')
		b.WriteString(".+")
		tmpl = tmpl[i+j+1:]
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// hsCleaned is what a hostile proxy routes: the path percent-decoded up to
// three times, backslashes read as slashes, then cleaned.
func hsCleaned(escaped string) (cleaned string, dotted bool) {
	v := escaped
	for range 3 {
		v = lenientUnescape(v)
	}
	v = strings.ReplaceAll(v, `\`, "/")
	for _, part := range strings.Split(v, "/") {
		if p := strings.TrimSpace(part); p == "." || p == ".." {
			dotted = true
		}
	}
	return path.Clean(v), dotted
}

// TestHostilePathParameters calls every operation with every hostile value
// in each of its string arguments, and checks that no request leaves its
// operation's route, however a server decodes and cleans the path.
func TestHostilePathParameters(t *testing.T) {
	rec := &hsRecorder{}
	c, err := NewClient(WithBaseURL("https://forge.example"), WithToken("t0ken-for-path-tests"), WithRetryPolicy(RetryOff()),
		WithHTTPClient(&http.Client{Transport: rec}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	vectors, sent, refused := 0, 0, 0
	for _, op := range Operations() {
		svc := reflect.ValueOf(c).Elem().FieldByName(op.Service)
		if !svc.IsValid() {
			t.Errorf("%s: no service %s", op.ID, op.Service)
			continue
		}
		m := svc.MethodByName(op.Name)
		if !m.IsValid() {
			t.Errorf("%s: no method %s.%s", op.ID, op.Service, op.Name)
			continue
		}
		route := hsRouteOf(op.Path)
		mt := m.Type()
		fixed := mt.NumIn()
		if mt.IsVariadic() {
			fixed--
		}
		for target := 1; target < fixed; target++ {
			if mt.In(target).Kind() != reflect.String {
				continue
			}
			for _, hostile := range hsHostilePathValues {
				vectors++
				args := make([]reflect.Value, fixed)
				args[0] = reflect.ValueOf(ctx)
				for i := 1; i < fixed; i++ {
					args[i] = hsArg(mt.In(i), i == target, hostile)
				}
				func() {
					defer func() {
						if p := recover(); p != nil {
							t.Errorf("%s.%s panicked with %q in argument %d: %v", op.Service, op.Name, hostile, target, p)
						}
					}()
					m.Call(args)
				}()
				for _, p := range rec.take() {
					sent++
					cleaned, dotted := hsCleaned(p)
					if dotted || !route.MatchString(cleaned) {
						t.Errorf("%s.%s(%q in argument %d) sent %s: a cleaning server routes %s, off %s", op.Service, op.Name, hostile, target, p, cleaned, op.Path)
					}
				}
			}
		}
	}
	refused = vectors - sent
	t.Logf("%d vectors over %d operations: %d sent (all on their route), %d refused before sending", vectors, len(Operations()), sent, refused)
}

// hsArg is a valid argument of type typ, or hostile for the argument under
// attack.
func hsArg(typ reflect.Type, attack bool, hostile string) reflect.Value {
	v := reflect.New(typ).Elem()
	switch typ.Kind() {
	case reflect.String:
		s := "o"
		if typ == reflect.TypeOf(ArchiveFormat("")) {
			s = string(ArchiveZip)
		}
		if attack {
			s = hostile
		}
		v.SetString(s)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(1)
	}
	return v
}

// Client.Do refuses encoded dot segments and encoded slashes that form one.
func TestHostileDoPath(t *testing.T) {
	rec := &hsRecorder{}
	c, err := NewClient(WithBaseURL("https://forge.example"), WithRetryPolicy(RetryOff()), WithHTTPClient(&http.Client{Transport: rec}))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range hsHostilePathValues {
		for _, p := range []string{"/repos/" + v, "/repos/" + url.PathEscape(v), "/repos/o/r/releases/tags/" + url.PathEscape(v)} {
			_, err := c.Do(context.Background(), &Request{Method: "DELETE", Path: p}, nil)
			for _, sent := range rec.take() {
				if cleaned, dotted := hsCleaned(sent); dotted || !strings.HasPrefix(cleaned, "/api/v1/repos/") {
					t.Errorf("Do(%q) sent %s, routed as %s (err %v)", p, sent, cleaned, err)
				}
			}
		}
	}
}

// TestHostileRateLimitHeaders: no single hostile rate-limit header may
// cost more than one MaxWait, with or without Spread, and a healthy
// snapshot clears what a hostile one set.
func TestHostileRateLimitHeaders(t *testing.T) {
	const maxWait = 30 * time.Second
	for _, tc := range []struct {
		name    string
		hostile string // the first response's header
		spread  bool
	}{
		{"IETF huge t", `"b";r=0;t=999999999999999`, false},
		{"IETF huge t, Spread", `"b";r=0;t=999999999999999`, true},
		{"IETF a day and a second", `"b";r=0;t=86401`, false},
		{"IETF just under a day", `"b";r=0;t=86399`, false},
		{"IETF just under a day, Spread", `"b";r=1;t=86399`, true},
		{"dictionary huge reset", `limit=10, remaining=0, reset=999999999999`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if n.Add(1) == 1 {
					w.Header().Set("RateLimit", tc.hostile)
				}
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{}`)
			}))
			defer srv.Close()
			k := &rlClock{now: time.Unix(1_800_000_000, 0)}
			c, err := NewClient(WithBaseURL(srv.URL), WithClock(k), WithRateLimitPacing(Pacing{MaxWait: maxWait, Spread: tc.spread}))
			if err != nil {
				t.Fatal(err)
			}
			for range 20 {
				if _, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/x", Retry: RetryIdempotentOnly}, nil); err != nil {
					t.Fatal(err)
				}
			}
			var total time.Duration
			for _, d := range k.sleeps {
				total += d
			}
			if total > maxWait {
				t.Fatalf("one hostile header cost %s of waiting over 20 calls (%v), want at most one MaxWait (%s)", total, k.sleeps, maxWait)
			}
		})
	}
	// Spread: a hostile schedule is pulled back by the next healthy answer.
	t.Run("Spread schedule replaced by a healthy snapshot", func(t *testing.T) {
		var n atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) == 1 {
				w.Header().Set("RateLimit", `"b";r=1;t=86000`)
			} else {
				w.Header().Set("RateLimit", `"b";r=100;t=10`)
			}
			io.WriteString(w, `{}`)
		}))
		defer srv.Close()
		k := &rlClock{now: time.Unix(1_800_000_000, 0)}
		c, _ := NewClient(WithBaseURL(srv.URL), WithClock(k), WithRateLimitPacing(Pacing{MaxWait: maxWait, Spread: true}))
		for range 10 {
			_, _ = c.Do(context.Background(), &Request{Method: "GET", Path: "/x", Retry: RetryIdempotentOnly}, nil)
		}
		for i, d := range k.sleeps[min(2, len(k.sleeps)):] {
			if d > time.Second {
				t.Fatalf("wait %d after healthy snapshots is %s (%v), want the healthy spacing (0.1 s)", i+2, d, k.sleeps)
			}
		}
	})
}
