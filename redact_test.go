package forgejo

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// This file tests redaction: no credential in any output. Helpers are
// prefixed rd; options_test.go and urls_test.go use them too.

// rdHex returns 2*n random hex characters.
func rdHex(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// rdNeedles lists every form of the secrets that must never be printed: the
// secret itself and its hex encoding (what %x of a raw string would give).
func rdNeedles(secrets ...string) []string {
	var out []string
	for _, s := range secrets {
		out = append(out, s, hex.EncodeToString([]byte(s)))
	}
	return out
}

// rdNoSecret fails when text contains any needle.
func rdNoSecret(t *testing.T, where, text string, needles []string) {
	t.Helper()
	for _, n := range needles {
		if strings.Contains(text, n) {
			t.Errorf("%s leaks a secret (%.6s…): %q", where, n, text)
		}
	}
}

// rdVerbs renders v with every verb a user may reach for.
func rdVerbs(v any) map[string]string {
	out := map[string]string{}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
		out[verb] = fmt.Sprintf(verb, v)
	}
	return out
}

// rdErrStrings renders err through Error(), fmt and its whole unwrap chain.
func rdErrStrings(err error) []string {
	if err == nil {
		return nil
	}
	out := []string{fmt.Sprintf("%v", err), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err), fmt.Sprintf("%q", err)}
	for e := err; e != nil; e = errors.Unwrap(e) {
		out = append(out, e.Error())
	}
	return out
}

// rdNewClient builds a client whose backoff never really sleeps.
func rdNewClient(t *testing.T, opts ...ClientOption) *Client {
	t.Helper()
	c, err := NewClient(opts...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	c.sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	c.randN = func(int64) int64 { return 0 }
	return c
}

// rdRecorder is a recorder (Retry included) that renders every event it
// sees, then forwards it to next (when set).
type rdRecorder struct {
	mu    sync.Mutex
	lines []string
	urls  []string
	next  tObserver
}

func (r *rdRecorder) add(line, u string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, line)
	r.urls = append(r.urls, u)
}

func (r *rdRecorder) OnRequest(ctx context.Context, call CallContext) {
	r.add("request "+call.String()+" url="+call.URL+fmt.Sprintf(" %+v", call), call.URL)
	if r.next != nil {
		r.next.OnRequest(ctx, call)
	}
}

func (r *rdRecorder) OnResponse(ctx context.Context, call CallContext, status int) {
	r.add(fmt.Sprintf("response %d %s url=%s %#v", status, call.String(), call.URL, call), call.URL)
	if r.next != nil {
		r.next.OnResponse(ctx, call, status)
	}
}

func (r *rdRecorder) OnError(ctx context.Context, call CallContext, err error) {
	r.add("error "+call.String()+" url="+call.URL+" "+strings.Join(rdErrStrings(err), " | "), call.URL)
	if r.next != nil {
		r.next.OnError(ctx, call, err)
	}
}

func (r *rdRecorder) OnRetry(ctx context.Context, call CallContext, err error, wait time.Duration) {
	r.add("retry "+call.String()+" url="+call.URL+" wait="+wait.String()+" "+strings.Join(rdErrStrings(err), " | "), call.URL)
	if ro, ok := r.next.(tRetryObserver); ok {
		ro.OnRetry(ctx, call, err, wait)
	}
}

func (r *rdRecorder) snapshot() (lines, urls []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.lines...), append([]string(nil), r.urls...)
}

// rdServerLog records what an rd server received.
type rdServerLog struct {
	mu      sync.Mutex
	auths   []string
	queries []string
	count   int
}

func (l *rdServerLog) record(r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.count++
	l.auths = append(l.auths, r.Header.Get("Authorization"))
	l.queries = append(l.queries, r.URL.RawQuery)
}

func (l *rdServerLog) snapshot() (count int, auths, queries []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.count, append([]string(nil), l.auths...), append([]string(nil), l.queries...)
}

const rdRepoJSON = `{"id":73144,"name":"fine","full_name":"o/fine","owner":{"id":70422,"login":"o"},"default_branch":"forgejo"}`

// rdEchoServer answers by repository name, echoing echo (the credential the
// client sent) back into its error bodies as a careless instance might:
// unavailable → 503, missing → 404 with details, garbled → 200 that does not
// decode, fine → 200.
func rdEchoServer(t *testing.T, echo string) (*httptest.Server, *rdServerLog) {
	t.Helper()
	log := &rdServerLog{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.record(r)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "rd-req-1")
		switch r.URL.Path {
		case "/api/v1/repos/o/unavailable":
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, `{"message":"bad token %s","url":"https://codeberg.org/api/swagger"}`, echo)
		case "/api/v1/repos/o/missing":
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"message":"GetRepositoryByName","url":"https://codeberg.org/api/swagger","errors":["bad token %s"]}`, echo)
		case "/api/v1/repos/o/garbled":
			fmt.Fprintf(w, `{"id":"%s","full_name":"o/garbled"}`, echo)
		case "/api/v1/repos/o/fine":
			io.WriteString(w, rdRepoJSON)
		default:
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"message":"not found"}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, log
}

// rdClosedURL returns the URL of a server that is no longer listening.
func rdClosedURL() string {
	srv := httptest.NewServer(http.NotFoundHandler())
	u := srv.URL
	srv.Close()
	return u
}

// rdSecretSearch runs every kind of call outcome through a client built with
// auth, and searches every output for the needles.
func rdSecretSearch(t *testing.T, auth ClientOption, echo, wantAuth string, needles []string) {
	t.Helper()
	ctx := context.Background()
	qtok := rdHex(t, 20) // a credential the caller puts in a query parameter
	needles = append(needles, rdNeedles(qtok)...)

	srv, slog1 := rdEchoServer(t, echo)
	var logBuf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logBuf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	rec := &rdRecorder{next: slogObserver(logger)}
	c := rdNewClient(t, auth, WithBaseURL(srv.URL), withObserver(rec))
	dead := rdNewClient(t, auth, WithBaseURL(rdClosedURL()), withObserver(rec))

	var outputs []string
	add := func(label string, s ...string) {
		for _, x := range s {
			outputs = append(outputs, label+": "+x)
		}
	}

	// The client itself, through fmt, slog and encoding/json.
	for verb, s := range rdVerbs(c) {
		add("fmt "+verb+" *Client", s)
	}
	for verb, s := range rdVerbs(*c) {
		add("fmt "+verb+" Client", s)
	}
	add("fmt Sprint", fmt.Sprint(c), fmt.Sprint(*c), fmt.Sprintln(c, *c))
	add("fmt nested", fmt.Sprintf("%+v", struct{ C *Client }{c}), fmt.Sprintf("%+v", []Client{*c}),
		fmt.Sprintf("%#v", map[string]Client{"c": *c}), fmt.Sprintf("%+v", struct{ C Client }{*c}))
	logger.Info("client built", "client", c, slog.Any("client_value", *c))
	var textBuf bytes.Buffer
	slog.New(slog.NewTextHandler(&textBuf, nil)).Info("client built", "client", c, slog.Any("client_value", *c))
	add("slog text", textBuf.String())
	if data, err := json.Marshal(c); err == nil {
		add("json", string(data))
	}
	if !strings.Contains(fmt.Sprint(c), "***") {
		t.Errorf("the client's fmt output does not say it is authenticated: %s", fmt.Sprint(c))
	}

	// Every outcome.
	var errs []error
	var resps []*Response

	// 503, 503, 503 through Do with a credential in the query: retries exhausted.
	resp, err := c.Do(ctx, &Request{Method: "GET", Path: "/repos/o/unavailable",
		Query: url.Values{"access_token": {qtok}, "state": {"open"}}, Retry: RetryIdempotentOnly}, nil)
	var rex *RetriesExhaustedError
	var ae *APIError
	if !errors.As(err, &rex) || rex.Attempts != 3 || !errors.As(err, &ae) || ae.StatusCode != 503 {
		t.Fatalf("503×3: want *RetriesExhaustedError of 3 attempts over a 503, got %T %v", err, err)
	}
	if ae.Message != "bad token ***" {
		t.Errorf("503 message = %q, want the echoed credential scrubbed to %q", ae.Message, "bad token ***")
	}
	if !strings.Contains(ae.Call.URL, "access_token=***") || !strings.Contains(ae.Call.URL, "state=open") {
		t.Errorf("503 CallContext.URL = %q, want access_token masked and state kept", ae.Call.URL)
	}
	errs, resps = append(errs, err), append(resps, resp)

	// 404 with the credential echoed in the details.
	_, resp, err = c.Repos.Get(ctx, "o", "missing")
	if !errors.As(err, &ae) || ae.StatusCode != 404 || len(ae.Errors) != 1 || ae.Errors[0] != "bad token ***" {
		t.Fatalf("404: want *APIError 404 with details [bad token ***], got %T %v", err, err)
	}
	errs, resps = append(errs, err), append(resps, resp)

	// 200 whose body (echoing the credential) does not decode.
	_, resp, err = c.Repos.Get(ctx, "o", "garbled")
	var de *DecodeError
	if !errors.As(err, &de) || de.Path != "$.id" || !strings.Contains(de.Snippet, "***") {
		t.Fatalf("decode: want *DecodeError at $.id with a scrubbed snippet, got %T %v", err, err)
	}
	errs, resps = append(errs, err), append(resps, resp)

	// Transport failure, retried then exhausted.
	_, resp, err = dead.Repos.Get(ctx, "o", "gone")
	var te *TransportError
	if !errors.As(err, &rex) || !errors.As(err, &te) || te.Kind != TransportConnection {
		t.Fatalf("transport: want *RetriesExhaustedError over a connection failure, got %T %v", err, err)
	}
	errs, resps = append(errs, err), append(resps, resp)

	// Validation failures: a forged path segment, and Do with a bad path and
	// a credential in the query.
	_, _, err = c.Repos.Get(ctx, "o", "a/b")
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Field != "repo" {
		t.Fatalf("validation: want *ValidationError on repo, got %T %v", err, err)
	}
	errs = append(errs, err)
	_, err = c.Do(ctx, &Request{Method: "GET", Path: "/repos/../admin", Query: url.Values{"token": {qtok}}}, nil)
	if !errors.As(err, &ve) || ve.Field != "path" {
		t.Fatalf("Do validation: want *ValidationError on path, got %T %v", err, err)
	}
	errs = append(errs, err)

	// Success.
	repo, resp, err := c.Repos.Get(ctx, "o", "fine")
	if err != nil || repo.FullName != "o/fine" {
		t.Fatalf("fine: got %v, %v", repo, err)
	}
	resps = append(resps, resp)

	for i, e := range errs {
		add(fmt.Sprintf("error %d", i), rdErrStrings(e)...)
	}
	for i, r := range resps {
		if r == nil {
			continue
		}
		for verb, s := range rdVerbs(r) {
			add(fmt.Sprintf("response %d %s", i, verb), s)
		}
		for verb, s := range rdVerbs(*r) {
			add(fmt.Sprintf("response value %d %s", i, verb), s)
		}
	}
	lines, urls := rec.snapshot()
	add("observer", lines...)
	add("slog json", logBuf.String())

	// The outputs are not vacuous.
	if len(lines) < 20 {
		t.Errorf("observer saw only %d events", len(lines))
	}
	for _, want := range []string{`"msg":"forgejo call failed"`, `"msg":"forgejo retrying"`, `"msg":"forgejo response"`, "access_token=***"} {
		if !strings.Contains(logBuf.String(), want) {
			t.Errorf("slog output lacks %s", want)
		}
	}
	sawMasked := false
	for _, u := range urls {
		sawMasked = sawMasked || strings.Contains(u, "access_token=***")
	}
	if !sawMasked {
		t.Errorf("no observer event carried the masked query URL: %q", urls)
	}

	// The credential was really sent, and the query credential too.
	n, auths, queries := slog1.snapshot()
	if n != 3+1+1+1 {
		t.Errorf("server saw %d requests, want 6 (3 + 404 + garbled + fine)", n)
	}
	for i, a := range auths {
		if a != wantAuth {
			t.Errorf("request %d Authorization = %q, want %q", i, a, wantAuth)
		}
	}
	if len(queries) == 0 || queries[0] != "access_token="+qtok+"&state=open" {
		t.Errorf("server query = %q, want the real access_token value", queries)
	}

	for _, o := range outputs {
		rdNoSecret(t, "output", o, needles)
	}
}

func TestRedactSecretsToken(t *testing.T) {
	tok := rdHex(t, 20)
	if len(tok) != 40 {
		t.Fatalf("token length %d", len(tok))
	}
	rdSecretSearch(t, WithToken(tok), tok, "token "+tok, rdNeedles(tok))
}

func TestRedactSecretsBasicAuth(t *testing.T) {
	user, pass := "rd-user", "pw-"+rdHex(t, 12)
	b64 := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	rdSecretSearch(t, WithBasicAuth(user, pass), pass, "Basic "+b64, rdNeedles(pass, b64))
}

// An instance (or a proxy in front of it) that echoes the whole Authorization
// header back must not make the credential appear in error strings, for
// basic auth as for tokens: the base64 form is as good as the password.
func TestRedactEchoedAuthorizationHeader(t *testing.T) {
	tok := rdHex(t, 20)
	user, pass := "rd-user", "pw-"+rdHex(t, 12)
	b64 := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	cases := []struct {
		name    string
		auth    ClientOption
		needles []string
	}{
		{"token", WithToken(tok), rdNeedles(tok)},
		{"basic", WithBasicAuth(user, pass), rdNeedles(pass, b64)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnauthorized)
				msg, _ := json.Marshal("invalid credentials: Authorization: " + r.Header.Get("Authorization"))
				fmt.Fprintf(w, `{"message":%s,"errors":[%s]}`, msg, msg)
			}))
			defer srv.Close()
			rec := &rdRecorder{}
			c := rdNewClient(t, tc.auth, WithBaseURL(srv.URL), withObserver(rec))
			_, _, err := c.Users.GetCurrent(context.Background())
			var ae *APIError
			if !errors.As(err, &ae) || ae.StatusCode != 401 || !strings.Contains(ae.Message, "***") {
				t.Fatalf("want a 401 *APIError with the echo scrubbed, got %T %v", err, err)
			}
			lines, _ := rec.snapshot()
			for _, s := range append(rdErrStrings(err), append(lines, ae.Message, strings.Join(ae.Errors, ";"))...) {
				rdNoSecret(t, "error output", s, tc.needles)
			}
		})
	}
}

// A credential echoed into a field that fails to decode must not reach the
// error string through the decoder's own message: time.Time's parse error
// quotes the value it could not parse.
func TestRedactDecodeCauseDoesNotEchoCredential(t *testing.T) {
	tok := rdHex(t, 20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":1,"full_name":"o/r","created_at":"%s"}`, strings.TrimPrefix(r.Header.Get("Authorization"), "token "))
	}))
	defer srv.Close()
	rec := &rdRecorder{}
	c := rdNewClient(t, WithToken(tok), WithBaseURL(srv.URL), withObserver(rec))
	_, _, err := c.Repos.Get(context.Background(), "o", "r")
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("want *DecodeError, got %T %v", err, err)
	}
	if strings.Contains(de.Snippet, tok) {
		t.Errorf("snippet leaks the token: %q", de.Snippet)
	}
	lines, _ := rec.snapshot()
	for _, s := range append(rdErrStrings(err), lines...) {
		rdNoSecret(t, "decode error output", s, rdNeedles(tok))
	}
}

// The body's "url" field of an error is kept on the *APIError; an echoed
// credential there must be scrubbed like the message, or printing the error
// with %#v or encoding it as JSON leaks it.
func TestRedactAPIErrorURLFieldIsScrubbed(t *testing.T) {
	tok := rdHex(t, 20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, `{"message":"forbidden","url":"https://forge.example/api/swagger?token=%s"}`,
			strings.TrimPrefix(r.Header.Get("Authorization"), "token "))
	}))
	defer srv.Close()
	c := rdNewClient(t, WithToken(tok), WithBaseURL(srv.URL))
	_, _, err := c.Repos.Get(context.Background(), "o", "r")
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 403 {
		t.Fatalf("want a 403 *APIError, got %T %v", err, err)
	}
	data, _ := json.Marshal(ae)
	for _, s := range []string{ae.URL, fmt.Sprintf("%#v", ae), fmt.Sprintf("%#v", *ae), string(data)} {
		rdNoSecret(t, "APIError", s, rdNeedles(tok))
	}
}

// Callers keep the client in their own structs, usually in an unexported
// field. fmt cannot call Client.Format there: it prints the fields raw (a
// *Client is dereferenced by %s and %q, which are not pointer verbs). So the
// credential must not be stored as reflect-visible text in the Client.
func TestRedactClientInCallerStruct(t *testing.T) {
	tok := rdHex(t, 20)
	c := rdNewClient(t, WithToken(tok))
	type rdApp struct {
		name  string
		forge *Client
	}
	type rdHolder struct{ forge Client }
	for label, v := range map[string]any{
		"struct with an unexported *Client":            rdApp{name: "bot", forge: c},
		"pointer to struct with an unexported *Client": &rdApp{name: "bot", forge: c},
		"struct with an unexported Client":             rdHolder{forge: *c},
	} {
		for verb, s := range rdVerbs(v) {
			rdNoSecret(t, "fmt "+verb+" of a "+label, s, rdNeedles(tok))
		}
	}
}

func TestRedactNilClientLogValue(t *testing.T) {
	var c *Client
	if got := c.LogValue().String(); got != "forgejo.Client(nil)" {
		t.Errorf("nil client LogValue = %q", got)
	}
}

// A redirect to another host must not carry the token there.
func TestRedactRedirectToOtherHostDropsAuthorization(t *testing.T) {
	tok := rdHex(t, 20)
	var mu sync.Mutex
	var elsewhereAuth []string
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		elsewhereAuth = append(elsewhereAuth, r.Header.Get("Authorization"), r.Host)
		mu.Unlock()
		io.WriteString(w, rdRepoJSON)
	}))
	defer elsewhere.Close()
	var originAuth string
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		originAuth = r.Header.Get("Authorization")
		mu.Unlock()
		http.Redirect(w, r, "http://elsewhere.example/api/v1/repos/o/fine", http.StatusFound)
	}))
	defer origin.Close()
	// Resolve elsewhere.example to the second server without touching DNS.
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		if strings.HasPrefix(addr, "elsewhere.example") {
			addr = elsewhere.Listener.Addr().String()
		}
		return d.DialContext(ctx, network, addr)
	}}
	defer tr.CloseIdleConnections()
	c := rdNewClient(t, WithToken(tok), WithBaseURL(origin.URL), WithHTTPClient(&http.Client{Transport: tr}))
	repo, _, err := c.Repos.Get(context.Background(), "o", "fine")
	if err != nil || repo.FullName != "o/fine" {
		t.Fatalf("got %v, %v", repo, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if originAuth != "token "+tok {
		t.Errorf("origin Authorization = %q, want the token", originAuth)
	}
	if len(elsewhereAuth) != 2 || elsewhereAuth[0] != "" || elsewhereAuth[1] != "elsewhere.example" {
		t.Errorf("the other host saw %q, want no Authorization", elsewhereAuth)
	}
}
