package forgejo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// This file attacks what the client calls out to (token sources, pacers,
// observers, walk visitors) with panics: a panic is recovered into a typed
// error or reaches the caller, but only after every pacing slot and
// in-flight count the call held is released, so later calls never pay for
// it.

// pnClock is a fake clock that records every wait and advances by it.
type pnClock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

func (c *pnClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *pnClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	c.now = c.now.Add(d)
	return ctx.Err()
}

// Timer moves the time on by d as Sleep does and fires at once.
func (c *pnClock) Timer(d time.Duration) (<-chan time.Time, func()) {
	_ = c.Sleep(context.Background(), d)
	ch := make(chan time.Time, 1)
	ch <- c.Now()
	return ch, func() {}
}

func (c *pnClock) waited() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.waits...)
}

// pnServer answers every request 200 with a healthy rate-limit snapshot
// (5 of 10 left, reset in 600 s): a client that counts its panicked calls
// as still in flight believes the budget spent.
func pnServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("RateLimit-Policy", `"baseline";q=10;w=600`)
		w.Header().Set("RateLimit", `"baseline";r=5;t=600`)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("page") != "" || strings.HasSuffix(r.URL.Path, "/issues") {
			page := r.URL.Query().Get("page")
			if page == "" {
				page = "1"
			}
			w.Header().Set("Link", fmt.Sprintf(`<%s/api/v1/repos/o/r/issues?page=4>; rel="last"`, "http://"+r.Host))
			if page != "4" {
				var next int
				fmt.Sscan(page, &next)
				w.Header().Add("Link", fmt.Sprintf(`<%s/api/v1/repos/o/r/issues?page=%d>; rel="next"`, "http://"+r.Host, next+1))
			}
			fmt.Fprintf(w, `[{"id":%s1},{"id":%s2}]`, page, page)
			return
		}
		w.Write([]byte(`{"id":1}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// pnPanics are the panic values of the vectors: a string, an error, a
// runtime error, panic(nil), one that quotes the token, a Stringer.
func pnPanics(token string) []struct {
	name string
	do   func()
} {
	return []struct {
		name string
		do   func()
	}{
		{"string", func() { panic("source broke") }},
		{"error", func() { panic(errors.New("source error value")) }},
		{"runtime error", func() { pnWrite(nil) }},
		{"nil", func() { panic(nil) }},
		{"quotes the token", func() { panic("refresh failed for " + token) }},
		{"fmt.Stringer", func() { panic(pnStringer(token)) }},
	}
}

// pnWrite writes into m: a runtime error when m is nil.
func pnWrite(m map[string]int) { m["x"] = 1 }

type pnStringer string

func (s pnStringer) String() string { return "stringer " + string(s) }

// pnGet makes one call, reporting a panic that reached the caller as an
// error.
func pnGet(c *Client) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the panic reached the caller: %v", p)
		}
	}()
	_, err = c.Do(context.Background(), &Request{Method: "GET", Path: "/repos/o/r", Retry: RetryIdempotentOnly}, nil)
	return err
}

// pnNoWaits checks that calls made after the panics waited for nothing.
func pnNoWaits(t *testing.T, name string, c *Client, clock *pnClock) bool {
	t.Helper()
	before := len(clock.waited())
	for i := 0; i < 3; i++ {
		if _, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/repos/o/r", Retry: RetryIdempotentOnly}, nil); err != nil {
			t.Errorf("%s: a call after the panics failed: %v", name, err)
			return false
		}
	}
	if w := clock.waited()[before:]; len(w) > 0 {
		t.Errorf("%s: after the panics, later calls waited %v", name, w)
		return false
	}
	return true
}

func TestHostilePanics(t *testing.T) {
	srv := pnServer(t)
	const token = "pn-token-6b9c2e7f1a3d5e8f"
	vectors, failing := 0, 0
	newClient := func(extra ...ClientOption) (*Client, *pnClock) {
		clock := &pnClock{now: time.Unix(1_800_000_000, 0)}
		opts := append([]ClientOption{WithBaseURL(srv.URL), WithClock(clock), WithRateLimitPacing(Pacing{MaxWait: time.Minute}),
			WithRetryPolicy(RetryOff())}, extra...)
		c, err := NewClient(opts...)
		if err != nil {
			t.Fatal(err)
		}
		return c, clock
	}

	// A token source that panics: every call fails with an *AuthError
	// whose cause is a *PanicError without the token, and nothing leaks
	// into pacing.
	for _, pv := range pnPanics(token) {
		vectors++
		name := "token source: " + pv.name
		var mu sync.Mutex
		panicking := true
		src := TokenSourceFunc(func(context.Context) (Token, error) {
			mu.Lock()
			p := panicking
			mu.Unlock()
			if p {
				pv.do()
			}
			return Token{Value: token}, nil
		})
		c, clock := newClient(WithTokenSource(src))
		// One good call first, so that a snapshot is in.
		mu.Lock()
		panicking = false
		mu.Unlock()
		if _, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/repos/o/r", Retry: RetryIdempotentOnly}, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		mu.Lock()
		panicking = true
		mu.Unlock()
		ok := true
		for i := 0; i < 10; i++ {
			err := pnGet(c)
			var ae *AuthError
			var pe *PanicError
			if !errors.As(err, &ae) || !errors.As(err, &pe) || pe.Where != "token source" {
				t.Errorf("%s: err = %v, want an *AuthError with a *PanicError", name, err)
				ok = false
				break
			}
			if strings.Contains(err.Error(), token) || strings.Contains(pe.Value, token) || strings.Contains(string(pe.Stack), token) {
				t.Errorf("%s: the panic's text shows the token: %v", name, err)
				ok = false
				break
			}
		}
		mu.Lock()
		panicking = false
		mu.Unlock()
		if !pnNoWaits(t, name, c, clock) || !ok {
			failing++
		}
	}

	// A Pacer that panics: the client paces locally, tells the
	// PacerFallback hook with a *PanicError, and the call succeeds.
	for _, pv := range pnPanics(token) {
		vectors++
		name := "pacer: " + pv.name
		obs := &pnPacerObs{}
		c, clock := newClient(WithToken(token), WithPacer(pnPacer{pv.do}), withObserver(obs))
		ok := true
		for i := 0; i < 10; i++ {
			err := pnGet(c)
			if err != nil {
				t.Errorf("%s: err = %v, want the call paced locally", name, err)
				ok = false
				break
			}
		}
		var pe *PanicError
		if got := obs.last(); !errors.As(got, &pe) || strings.Contains(got.Error(), token) {
			t.Errorf("%s: the PacerFallback hook got %v, want a *PanicError without the token", name, got)
			ok = false
		}
		if len(clock.waited()) > 0 {
			t.Errorf("%s: calls waited %v", name, clock.waited())
			ok = false
		}
		if !ok {
			failing++
		}
	}

	// An observer that panics in every method: calls succeed and nothing
	// leaks.
	for _, pv := range pnPanics(token) {
		vectors++
		name := "observer: " + pv.name
		c, clock := newClient(WithToken(token), withObserver(pnObserver{pv.do}))
		ok := true
		for i := 0; i < 10; i++ {
			err := pnGet(c)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				ok = false
				break
			}
		}
		if !pnNoWaits(t, name, c, clock) || !ok {
			failing++
		}
	}

	// A walk whose loop body panics, sequential and with pages in flight:
	// the panic reaches the caller, every fetch it started has ended, and
	// later calls wait for nothing.
	for _, conc := range []int{1, 2, 4} {
		for _, pv := range pnPanics(token) {
			for _, atItem := range []int{0, 3} {
				vectors++
				name := fmt.Sprintf("walk concurrency %d: %s at item %d", conc, pv.name, atItem)
				c, clock := newClient(WithToken(token), WithWalkConcurrency(conc))
				var recovered any
				func() {
					defer func() { recovered = recover() }()
					i := 0
					for _, err := range All(context.Background(), ListOptions{Limit: 2}, func(ctx context.Context, o ListOptions) ([]Issue, *Response, error) {
						var out []Issue
						resp, err := c.Do(ctx, &Request{Method: "GET", Path: "/repos/o/r/issues", Query: map[string][]string{"page": {fmt.Sprint(o.Page)}}, Retry: RetryIdempotentOnly}, &out)
						return out, resp, err
					}) {
						if err != nil {
							t.Errorf("%s: %v", name, err)
							return
						}
						if i == atItem {
							pv.do()
						}
						i++
					}
				}()
				ok := recovered != nil
				if !ok {
					t.Errorf("%s: the loop body's panic did not reach the caller", name)
				}
				if left := pnWalkGoroutines(); left != "" {
					t.Errorf("%s: a walk's fetch is still running:\n%s", name, left)
					ok = false
				}
				if !pnNoWaits(t, name, c, clock) || !ok {
					failing++
				}
			}
		}
	}
	t.Logf("%d panic vectors, %d failing", vectors, failing)
}

// pnWalkGoroutines returns the stack of any goroutine still running a
// walk's fetch ahead ("" when none): the walk must have waited for them.
//
// The walk has waited for every fetch to finish (wg.Wait), but a finished
// goroutine may still be on its way out: look again a bounded number of
// times before reporting one.
func pnWalkGoroutines() string {
	left := ""
	for range 500 {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		left = ""
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "(*prefetch[...]).launch") && !strings.Contains(g, "runtime.goexit0") {
				left = g
			}
		}
		if left == "" {
			return ""
		}
		runtime.Gosched()
		time.Sleep(time.Millisecond) // lets it exit; a wait, not a timing assertion
	}
	return left
}

type pnPacer struct{ do func() }

func (p pnPacer) Reserve(context.Context, CallContext, time.Time) (time.Duration, error) {
	p.do()
	return 0, nil
}

func (p pnPacer) Observe(context.Context, CallContext, time.Time, int, *RateLimit, time.Duration) {
	p.do()
}

type pnPacerObs struct {
	mu  sync.Mutex
	err error
}

func (o *pnPacerObs) OnRequest(context.Context, CallContext)       {}
func (o *pnPacerObs) OnResponse(context.Context, CallContext, int) {}
func (o *pnPacerObs) OnError(context.Context, CallContext, error)  {}
func (o *pnPacerObs) OnPacerFallback(_ context.Context, _ CallContext, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.err = err
}

func (o *pnPacerObs) last() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// pnObserver panics in every method of every observer interface.
type pnObserver struct{ do func() }

func (o pnObserver) OnRequest(context.Context, CallContext)                     { o.do() }
func (o pnObserver) OnResponse(context.Context, CallContext, int)               { o.do() }
func (o pnObserver) OnError(context.Context, CallContext, error)                { o.do() }
func (o pnObserver) OnRetry(context.Context, CallContext, error, time.Duration) { o.do() }
func (o pnObserver) OnRateLimit(context.Context, CallContext, RateLimit)        { o.do() }
func (o pnObserver) OnRateLimitWait(context.Context, CallContext, time.Duration) {
	o.do()
}
func (o pnObserver) StartCall(ctx context.Context, _ CallContext) context.Context {
	o.do()
	return ctx
}
func (o pnObserver) EndCall(context.Context, CallContext, int, error) { o.do() }
