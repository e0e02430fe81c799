package forgejo

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

type fakePacer struct {
	mu       sync.Mutex
	waits    []time.Duration // returned by Reserve in turn; then zero
	err      error
	statuses []int
	afters   []time.Duration
	snaps    int
}

func (p *fakePacer) Reserve(context.Context, CallContext, time.Time) (time.Duration, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return 0, p.err
	}
	if len(p.waits) == 0 {
		return 0, nil
	}
	w := p.waits[0]
	p.waits = p.waits[1:]
	return w, nil
}

func (p *fakePacer) Observe(_ context.Context, _ CallContext, _ time.Time, status int, rl *RateLimit, after time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.statuses = append(p.statuses, status)
	p.afters = append(p.afters, after)
	if rl != nil {
		p.snaps++
	}
}

type fallbackRecorder struct {
	rlRecorder
	mu        sync.Mutex
	fallbacks []string
}

func (f *fallbackRecorder) OnPacerFallback(_ context.Context, call CallContext, err error) {
	f.mu.Lock()
	f.fallbacks = append(f.fallbacks, call.Operation+": "+err.Error())
	f.mu.Unlock()
}

func TestPacerWaitsAndObserves(t *testing.T) {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		if n == 1 {
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Header().Set("RateLimit", `"b";r=5;t=9`)
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	p := &fakePacer{waits: []time.Duration{time.Second, 10 * time.Hour}}
	k := &rlClock{now: rlNow}
	c, err := NewClient(WithBaseURL(srv.URL), WithClock(k), WithPacer(p), WithRetryPolicy(RetryPolicy{MaxAttempts: 2, Jitter: JitterNone, RespectRetryAfter: true, MaxDelay: time.Minute}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/x", Retry: RetryIdempotentOnly}, nil); err != nil {
		t.Fatal(err)
	}
	// Attempt 1 waits the pacer's 1 s; the 429's Retry-After is the
	// backoff (3 s); attempt 2's absurd 10 h is bounded by MaxWait.
	if want := []time.Duration{time.Second, 3 * time.Second, DefaultPacingMaxWait}; !slices.Equal(k.sleeps, want) {
		t.Fatalf("sleeps = %v, want %v", k.sleeps, want)
	}
	if !slices.Equal(p.statuses, []int{429, 200}) || !slices.Equal(p.afters, []time.Duration{3 * time.Second, 0}) || p.snaps != 1 {
		t.Fatalf("observed statuses %v, retry-afters %v, %d snapshots", p.statuses, p.afters, p.snaps)
	}
}

func TestPacerFailureFallsBackToLocalPacing(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("RateLimit", `"b";r=0;t=4`)
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	p := &fakePacer{err: errors.New("store unreachable")}
	rec := &fallbackRecorder{}
	k := &rlClock{now: rlNow}
	c, err := NewClient(WithBaseURL(srv.URL), WithClock(k), WithPacer(p), withObserver(rec))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/x", Retry: RetryIdempotentOnly}, nil); err != nil {
			t.Fatalf("a failing pacer failed the call: %v", err)
		}
	}
	// The first response said r=0, t=4: the second request waits locally.
	if !slices.Equal(k.sleeps, []time.Duration{4 * time.Second}) {
		t.Fatalf("sleeps = %v, want the local 4 s wait", k.sleeps)
	}
	if len(rec.fallbacks) != 2 {
		t.Fatalf("fallbacks = %q, want one per request", rec.fallbacks)
	}
	if _, err := NewClient(WithPacer(nil)); err == nil {
		t.Fatal("WithPacer(nil) accepted")
	}
}
