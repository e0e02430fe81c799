package forgejo

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// This file holds the test servers and the fake clock the package's tests
// share: tsStart (any handler), tsReplyServer (one fixed answer, every
// request recorded), tsNewServer (scripted answers in order) with tsClient
// (a client whose backoff sleeps are recorded, never slept), and
// tsClosingServer (every connection closed unanswered). A test with a
// server of its own shape keeps it in its file.

// tsStep is one scripted answer of tsServer.
type tsStep struct {
	status int
	header map[string]string
	body   string
}

// tsServer answers with steps in order, repeating the last one, and counts
// requests.
type tsServer struct {
	*httptest.Server
	mu      sync.Mutex
	steps   []tsStep
	hits    atomic.Int32
	methods []string
}

// tsNewServer is a tsServer answering with steps.
func tsNewServer(t *testing.T, steps ...tsStep) *tsServer {
	t.Helper()
	s := &tsServer{steps: steps}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(s.hits.Add(1))
		s.mu.Lock()
		s.methods = append(s.methods, r.Method)
		step := s.steps[min(n, len(s.steps))-1]
		s.mu.Unlock()
		for k, v := range step.header {
			if v == "" {
				w.Header()[k] = nil // suppress a header net/http would add (Date)
				continue
			}
			w.Header().Set(k, v)
		}
		if step.body != "" && w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(step.status)
		_, _ = w.Write([]byte(step.body))
	}))
	t.Cleanup(s.Close)
	return s
}

// tsClock records the backoff waits the engine asks for, without sleeping.
type tsClock struct {
	mu     sync.Mutex
	sleeps []time.Duration
	bounds []int64 // arguments randN received
}

func (k *tsClock) sleep(ctx context.Context, d time.Duration) error {
	k.mu.Lock()
	k.sleeps = append(k.sleeps, d)
	k.mu.Unlock()
	return ctx.Err()
}

func (k *tsClock) waits() []time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]time.Duration(nil), k.sleeps...)
}

// tsClient builds a client on srv whose sleeps are recorded and whose full
// jitter always draws the top of its range, so waits are deterministic.
func tsClient(t *testing.T, url string, opts ...ClientOption) (*Client, *tsClock) {
	t.Helper()
	c, err := NewClient(append([]ClientOption{WithBaseURL(url)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	k := &tsClock{}
	c.sleep = k.sleep
	c.randN = func(n int64) int64 {
		k.mu.Lock()
		k.bounds = append(k.bounds, n)
		k.mu.Unlock()
		return n - 1
	}
	return c, k
}

// tsClosingServer accepts every request and closes its connection without an
// answer: every attempt fails in transport.
func tsClosingServer(t *testing.T) *httptest.Server {
	t.Helper()
	return tsStart(t, func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("hijack: %v", err)
			return
		}
		_ = conn.Close()
	})
}

// tsSeen is what a test server received of one request: the path as sent
// (still percent-encoded) and the query.
type tsSeen struct {
	method, path, query, ctype, body string
	header                           http.Header
}

// tsStart is a test server running h, closed when the test ends.
func tsStart(t testing.TB, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// tsReplyServer answers every request with status, ctype (no Content-Type
// when empty) and body, and records every request.
func tsReplyServer(t testing.TB, status int, ctype, body string) (*httptest.Server, func() []tsSeen) {
	t.Helper()
	var mu sync.Mutex
	var seen []tsSeen
	srv := tsStart(t, func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		path, query, _ := strings.Cut(r.RequestURI, "?")
		mu.Lock()
		seen = append(seen, tsSeen{r.Method, path, query, r.Header.Get("Content-Type"), string(data), r.Header.Clone()})
		mu.Unlock()
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	})
	return srv, func() []tsSeen {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}
}

// jsonType is the Content-Type of a JSON reply: none for an empty body.
func jsonType(body string) string {
	if body == "" {
		return ""
	}
	return "application/json"
}
