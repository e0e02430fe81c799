package webhook

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// fakeClock is a Clock whose time moves only with Advance.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at time.Time
	c  chan time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep waits until the time was advanced by d, or ctx is done.
func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	t, stop := c.Timer(d)
	defer stop()
	select {
	case <-t:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *fakeClock) Timer(d time.Duration) (<-chan time.Time, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), c: make(chan time.Time, 1)}
	if d <= 0 {
		t.c <- c.now
		return t.c, func() {}
	}
	c.timers = append(c.timers, t)
	return t.c, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for i, x := range c.timers {
			if x == t {
				c.timers = append(c.timers[:i], c.timers[i+1:]...)
				return
			}
		}
	}
}

// Advance moves the time on and fires the timers due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.timers[:0]
	for _, t := range c.timers {
		if !t.at.After(c.now) {
			t.c <- c.now
		} else {
			kept = append(kept, t)
		}
	}
	c.timers = kept
}

func (c *fakeClock) pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// eventually spins (no sleep) until cond holds, failing after a real-time
// bound.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		runtime.Gosched()
	}
}

// opsQueue reports every completed operation of the queue it wraps.
type opsQueue struct {
	WorkQueue
	ops chan string
}

func (q *opsQueue) Ack(ctx context.Context, l *Lease) error {
	err := q.WorkQueue.Ack(ctx, l)
	q.ops <- "ack " + l.Delivery.ID
	return err
}

func (q *opsQueue) Retry(ctx context.Context, l *Lease, after time.Duration) error {
	err := q.WorkQueue.Retry(ctx, l, after)
	q.ops <- fmt.Sprintf("retry %s %s", l.Delivery.ID, after)
	return err
}

func (q *opsQueue) DeadLetter(ctx context.Context, l *Lease, reason string) error {
	err := q.WorkQueue.DeadLetter(ctx, l, reason)
	q.ops <- "dead " + l.Delivery.ID
	return err
}

// failingQueue fails every Enqueue with err, counting the calls.
type failingQueue struct {
	err   error
	calls int
}

func (q *failingQueue) Enqueue(context.Context, *StoredDelivery) error {
	q.calls++
	return q.err
}

// countingQueue counts the deliveries stored.
type countingQueue struct {
	mu     sync.Mutex
	stored []*StoredDelivery
}

func (q *countingQueue) Enqueue(_ context.Context, d *StoredDelivery) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.stored = append(q.stored, d)
	return nil
}

// signedRequest is a POST of the delivery Forgejo sends for typ/payload.
func signedRequest(typ EventType, payload, id string, o BuildOptions) *http.Request {
	if o.Secret == "" {
		o.Secret = testSecret
	}
	o.DeliveryID = id
	out := Build(typ, []byte(payload), o)
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(string(out.Body)))
	req.Header = out.HTTPHeader()
	return req
}

const pushPayload = `{"ref":"refs/heads/main","before":"a","after":"b","commits":[],"repository":{"full_name":"alice/app"}}`

// TestDurableHandoff: with a queue the Handler answers 2xx only after the
// store said stored, 503 when it is full and 500 when it failed, and never
// calls a function itself.
func TestDurableHandoff(t *testing.T) {
	p := mustParser(t, WithSecret(testSecret))
	full := NewMemoryQueue(1)
	if err := full.Enqueue(context.Background(), &StoredDelivery{ID: "x"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		q      Queue
		status int
	}{
		{"stored", NewMemoryQueue(1), http.StatusAccepted},
		{"full", full, http.StatusServiceUnavailable},
		{"full, wrapped", &failingQueue{err: fmt.Errorf("redis: %w", ErrQueueFull)}, http.StatusServiceUnavailable},
		{"store down", &failingQueue{err: errors.New("dial tcp 127.0.0.1:6379: connection refused")}, http.StatusInternalServerError},
		{"store timed out", &failingQueue{err: context.DeadlineExceeded}, http.StatusInternalServerError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var reported []error
			h := must(NewHandler(p, nil, WithQueue(tc.q), WithErrorFunc(func(_ *http.Request, err error) { reported = append(reported, err) })))
			called := 0 // a Handler with a queue has no functions to call
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, signedRequest(EventPush, pushPayload, "7A1CF7D2-3E5B-4F35-9C83-1C1E2B6F5A10", BuildOptions{}))
			if rec.Code != tc.status || called != 0 {
				t.Errorf("%d (called %d), want %d", rec.Code, called, tc.status)
			}
			if (tc.status >= 500) != (len(reported) == 1) {
				t.Errorf("reported %v", reported)
			}
		})
	}
}

// TestStoredDelivery: what is stored is what the event needs, with the
// receiving side's credentials removed, and re-creates the same event.
func TestStoredDelivery(t *testing.T) {
	p := mustParser(t, WithSecret(testSecret))
	clock := newFakeClock()
	q := &countingQueue{}
	h := must(NewHandler(p, nil, WithQueue(q)))
	h.now = clock.Now
	for _, form := range []bool{false, true} {
		req := signedRequest(EventPush, pushPayload, "{7A1CF7D2-3E5B-4F35-9C83-1C1E2B6F5A10}", BuildOptions{Form: form, Authorization: "Bearer hook-credential"})
		req.Header.Set("Cookie", "session=browser")
		req.Header.Set("Proxy-Authorization", "Basic cHJveHk=")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusAccepted || rec.Body.String() != "stored\n" {
			t.Fatalf("form %v: %d %q", form, rec.Code, rec.Body.String())
		}
	}
	if len(q.stored) != 2 {
		t.Fatalf("%d stored", len(q.stored))
	}
	for i, d := range q.stored {
		if d.ID != "7a1cf7d2-3e5b-4f35-9c83-1c1e2b6f5a10" || d.EventType != EventPush || d.Family != "push" ||
			!d.Signed || !d.Received.Equal(clock.Now()) || string(d.Payload) != pushPayload {
			t.Errorf("%d: %+v", i, d)
		}
		for _, name := range []string{"Authorization", "Cookie", "Proxy-Authorization"} {
			if headerValue(d.Header, name) != "" {
				t.Errorf("%d: %s stored", i, name)
			}
		}
		if headerValue(d.Header, "X-Forgejo-Signature") == "" || headerValue(d.Header, "X-Forgejo-Delivery") == "" {
			t.Errorf("%d: signature or delivery header not stored: %v", i, d.Header)
		}
		ev, err := d.Event()
		if err != nil {
			t.Fatal(err)
		}
		pe := ev.(*PushEvent)
		if pe.DeliveryID() != d.ID || pe.Branch() != "main" || !pe.Signed() || pe.Repository.FullName != "alice/app" ||
			string(pe.RawBody()) != string(d.Body) || pe.ContentType() != []string{"json", "form"}[i] {
			t.Errorf("%d: re-created %+v", i, pe)
		}
	}
	// A delivery without an ID is stored under its payload's digest and
	// re-created without an ID.
	req := signedRequest(EventPush, pushPayload, "x", BuildOptions{})
	for _, k := range deliveryIDHeaders {
		setHeaderFold(req.Header, k)
	}
	h.ServeHTTP(httptest.NewRecorder(), req)
	d := q.stored[2]
	if d.ID != payloadKey([]byte(pushPayload)) {
		t.Errorf("no-ID delivery stored as %q", d.ID)
	}
	if ev, err := d.Event(); err != nil || ev.DeliveryID() != "" {
		t.Errorf("%v %v", ev, err)
	}
}

// TestDurableNothingUnverifiedStored: every rejected delivery keeps its
// answer and nothing of it reaches the store.
func TestDurableNothingUnverifiedStored(t *testing.T) {
	p := mustParser(t, WithSecret(testSecret), WithMaxBodyBytes(4096))
	q := &countingQueue{}
	h := must(NewHandler(p, nil, WithQueue(q)))
	good := func() *http.Request {
		return signedRequest(EventPush, pushPayload, "d1", BuildOptions{})
	}
	big := `{"ref":"refs/heads/main","x":"` + strings.Repeat("a", 5000) + `"}`
	for _, tc := range []struct {
		name   string
		req    func() *http.Request
		status int
	}{
		{"wrong secret", func() *http.Request {
			return signedRequest(EventPush, pushPayload, "d", BuildOptions{Secret: "guessed"})
		}, 401},
		{"no signature", func() *http.Request {
			r := good()
			for _, s := range signatureHeaders {
				r.Header.Del(s.name)
			}
			return r
		}, 401},
		{"flipped byte", func() *http.Request {
			out := Build(EventPush, []byte(pushPayload), BuildOptions{Secret: testSecret})
			b := []byte(string(out.Body))
			b[5] ^= 1
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(string(b)))
			r.Header = out.HTTPHeader()
			return r
		}, 401},
		{"over the bound", func() *http.Request { return signedRequest(EventPush, big, "d", BuildOptions{}) }, 413},
		{"content type", func() *http.Request { r := good(); r.Header.Set("Content-Type", "text/plain"); return r }, 415},
		{"two delivery IDs", func() *http.Request { r := good(); r.Header.Add("X-Forgejo-Delivery", "other"); return r }, 400},
		{"resent as another event type", func() *http.Request {
			r := good()
			for _, k := range eventTypeHeaders {
				setHeaderFold(r.Header, k, "issues")
			}
			return r
		}, 400},
		{"PUT", func() *http.Request { r := good(); r.Method = http.MethodPut; return r }, 405},
		{"GET without payload", func() *http.Request { return httptest.NewRequest(http.MethodGet, "/?x=1", nil) }, 400},
		{"GET, wrong secret", func() *http.Request { return getRequest(EventPush, pushPayload, "guessed", "") }, 401},
		{"GET, query over the bound", func() *http.Request { return getRequest(EventPush, big, testSecret, "") }, 413},
		{"unsigned JSON", func() *http.Request {
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(pushPayload))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("X-Forgejo-Event-Type", "push")
			return r
		}, 401},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, tc.req())
		if rec.Code != tc.status {
			t.Errorf("%s: %d, want %d", tc.name, rec.Code, tc.status)
		}
	}
	if len(q.stored) != 0 {
		t.Errorf("%d rejected deliveries stored: %+v", len(q.stored), q.stored[0])
	}
}

// TestMemoryQueue: bound, leases on the fake clock, lost leases, dead
// letters and requeue.
func TestMemoryQueue(t *testing.T) {
	ctx := context.Background()
	clock := newFakeClock()
	q := NewMemoryQueue(2, WithQueueClock(clock))
	d1, d2 := &StoredDelivery{ID: "d1"}, &StoredDelivery{ID: "d2"}
	for _, d := range []*StoredDelivery{d1, d2} {
		if err := q.Enqueue(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Enqueue(ctx, &StoredDelivery{ID: "d3"}); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("third Enqueue: %v", err)
	}
	a, err := q.Receive(ctx, "a", time.Minute)
	if err != nil || a.Delivery != d1 || a.Attempt != 1 || a.Reclaimed || a.Consumer != "a" || !a.Deadline.Equal(clock.Now().Add(time.Minute)) {
		t.Fatalf("%+v %v", a, err)
	}
	b, _ := q.Receive(ctx, "b", time.Minute)
	if b.Delivery != d2 {
		t.Fatalf("second lease %+v", b)
	}
	// Nothing is available: Receive blocks until ctx ends.
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		eventually(t, "Receive waiting", func() bool { return clock.pending() == 1 })
		cancel()
	}()
	if l, err := q.Receive(cctx, "c", time.Minute); !errors.Is(err, context.Canceled) {
		t.Fatalf("Receive on a busy queue: %+v %v", l, err)
	}
	// a's lease expires while c waits: c gets d1, reclaimed, attempt 2.
	got := make(chan *Lease)
	go func() {
		l, _ := q.Receive(ctx, "c", time.Minute)
		got <- l
	}()
	eventually(t, "Receive waiting", func() bool { return clock.pending() == 1 })
	clock.Advance(time.Minute - time.Nanosecond)
	clock.Advance(time.Nanosecond)
	c := <-got
	if c.Delivery != d1 || c.Attempt != 2 || !c.Reclaimed {
		t.Fatalf("reclaimed lease %+v", c)
	}
	// a's lease is lost: Retry and DeadLetter change nothing; c's is good.
	if err := q.Retry(ctx, a, 0); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("Retry of a lost lease: %v", err)
	}
	if err := q.DeadLetter(ctx, a, "x"); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("DeadLetter of a lost lease: %v", err)
	}
	if err := q.Retry(ctx, c, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	// b's lease expired too, at the same time: d2 is available at once.
	if l, _ := q.Receive(ctx, "c", time.Minute); l.Delivery != d2 || !l.Reclaimed {
		t.Fatalf("%+v", l)
	} else if err := q.DeadLetter(ctx, l, "gave up"); err != nil {
		t.Fatal(err)
	}
	// The dead letter still counts against the bound.
	if err := q.Enqueue(ctx, &StoredDelivery{ID: "d3"}); !errors.Is(err, ErrQueueFull) {
		t.Errorf("Enqueue with a dead letter and a live delivery at the bound of 2: %v", err)
	}
	// d1 comes back after its retry delay.
	clock.Advance(10 * time.Second)
	r, _ := q.Receive(ctx, "c", time.Minute)
	if r.Delivery != d1 || r.Attempt != 3 || r.Reclaimed {
		t.Fatalf("retried lease %+v", r)
	}
	if err := q.Ack(ctx, r); err != nil {
		t.Fatal(err)
	}
	if err := q.Ack(ctx, r); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("second Ack: %v", err)
	}
	dls, _ := q.DeadLetters(ctx, 0)
	if len(dls) != 1 || dls[0].Delivery != d2 || dls[0].Reason != "gave up" || dls[0].Attempts != 2 || !dls[0].At.Equal(clock.Now().Add(-10*time.Second)) {
		t.Fatalf("dead letters %+v", dls)
	}
	if err := q.Requeue(ctx, "nope"); !errors.Is(err, ErrNotDead) {
		t.Errorf("Requeue of no dead letter: %v", err)
	}
	if err := q.Requeue(ctx, "d2"); err != nil {
		t.Fatal(err)
	}
	if l, _ := q.Receive(ctx, "c", time.Minute); l.Delivery != d2 || l.Attempt != 1 || l.Reclaimed {
		t.Errorf("requeued lease %+v", l)
	}
	if dls, _ := q.DeadLetters(ctx, 0); len(dls) != 0 || q.Len() != 1 {
		t.Errorf("after Requeue: %d dead, %d live", len(dls), q.Len())
	}
}

// TestMemoryQueueDeadLetterIDs: every dead letter has an ID of its own,
// also when one delivery ID is dead twice, none is unreadable, and
// Requeue takes the ID as well as the delivery ID.
func TestMemoryQueueDeadLetterIDs(t *testing.T) {
	ctx := context.Background()
	q := NewMemoryQueue(10, WithQueueClock(newFakeClock()))
	for _, id := range []string{"d1", "twice", "twice", "d2"} {
		if err := q.Enqueue(ctx, &StoredDelivery{ID: id}); err != nil {
			t.Fatal(err)
		}
		l, _ := q.Receive(ctx, "c", time.Minute)
		if err := q.DeadLetter(ctx, l, "gave up"); err != nil {
			t.Fatal(err)
		}
	}
	dls, err := q.DeadLetters(ctx, 0)
	if err != nil || len(dls) != 4 {
		t.Fatalf("DeadLetters: %d %v", len(dls), err)
	}
	seen := map[string]bool{}
	for _, dl := range dls {
		if dl.ID == "" || seen[dl.ID] || dl.Err != nil || dl.Delivery == nil {
			t.Errorf("dead letter %+v", dl)
		}
		seen[dl.ID] = true
	}
	// The second of the two with one delivery ID, by its own ID.
	if err := q.Requeue(ctx, dls[2].ID); err != nil {
		t.Fatal(err)
	}
	if err := q.Requeue(ctx, dls[2].ID); !errors.Is(err, ErrNotDead) {
		t.Errorf("second Requeue by ID: %v", err)
	}
	if err := q.Requeue(ctx, "twice"); err != nil {
		t.Fatal(err)
	}
	if err := q.Requeue(ctx, "twice"); !errors.Is(err, ErrNotDead) {
		t.Errorf("third Requeue of the delivery ID: %v", err)
	}
	left, _ := q.DeadLetters(ctx, 0)
	if len(left) != 2 || left[0].ID != dls[0].ID || left[1].ID != dls[3].ID || q.Len() != 2 {
		t.Errorf("left %+v, %d live", left, q.Len())
	}
}

// workerRig is a queue on a fake clock, a Handler storing in it, the
// workers' Router and guard, and the queue operations as they complete.
type workerRig struct {
	clock *fakeClock
	mq    *MemoryQueue
	q     *opsQueue
	h     *Handler
	p     *Parser
	rt    *Router
	guard DeliveryGuard
}

func newWorkerRig(t *testing.T) *workerRig {
	t.Helper()
	r := &workerRig{clock: newFakeClock(), rt: NewRouter(), guard: NewMemoryGuard(0)}
	r.mq = NewMemoryQueue(100, WithQueueClock(r.clock))
	r.q = &opsQueue{WorkQueue: r.mq, ops: make(chan string, 100)}
	r.p = mustParser(t, WithSecret(testSecret))
	r.h = must(NewHandler(r.p, nil, WithQueue(r.q)))
	return r
}

// receive serves one delivery to the rig's Handler.
func (r *workerRig) receive(t *testing.T, typ EventType, payload, id string) {
	t.Helper()
	rec := httptest.NewRecorder()
	r.h.ServeHTTP(rec, signedRequest(typ, payload, id, BuildOptions{}))
	if rec.Code != http.StatusAccepted {
		t.Fatalf("%s: %d %s", id, rec.Code, rec.Body.String())
	}
}

func (r *workerRig) worker(opts ...WorkerOption) *Worker {
	return must(NewWorker(r.q, r.rt, append([]WorkerOption{WithWorkerClock(r.clock), WithWorkerGuard(r.guard),
		WithRetryPolicy(forgejo.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Second, MaxDelay: 10 * time.Second, Jitter: forgejo.JitterNone})}, opts...)...))
}

// run starts w; stop cancels it and returns Run's error.
func run(w *Worker) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	return func() error {
		cancel()
		return <-done
	}
}

// TestWorkerSurvivesDeath: a worker whose function never returns stops
// without acknowledging; after the visibility timeout another worker
// takes the delivery over and runs it, although the guard holds its ID.
func TestWorkerSurvivesDeath(t *testing.T) {
	r := newWorkerRig(t)
	started, never := make(chan string, 1), make(chan struct{})
	defer close(never)
	var mu sync.Mutex
	var ran []string
	dead := true
	On(r.rt, EventPush, func(ctx context.Context, e *PushEvent) error {
		mu.Lock()
		hang := dead
		mu.Unlock()
		if hang {
			started <- e.DeliveryID()
			<-never // blocks for ever, ignoring ctx: a hung or killed worker
		}
		mu.Lock()
		defer mu.Unlock()
		ran = append(ran, e.DeliveryID())
		return nil
	})
	r.receive(t, EventPush, pushPayload, "d1")

	stopA := run(r.worker(WithVisibilityTimeout(time.Minute), WithDrainTimeout(0), WithConsumerName("a")))
	if id := <-started; id != "d1" {
		t.Fatal(id)
	}
	if err := stopA(); err == nil || !strings.Contains(err.Error(), "1 event function(s) still running") {
		t.Fatalf("worker a stopped with %v", err)
	}
	mu.Lock()
	dead = false
	mu.Unlock()

	stopB := run(r.worker(WithVisibilityTimeout(time.Minute), WithConsumerName("b")))
	eventually(t, "worker b waiting", func() bool { return r.clock.pending() == 1 })
	r.clock.Advance(59 * time.Second)
	select {
	case op := <-r.q.ops:
		t.Fatalf("before the visibility timeout: %s", op)
	default:
	}
	r.clock.Advance(time.Second)
	if op := <-r.q.ops; op != "ack d1" {
		t.Fatalf("op %s", op)
	}
	if err := stopB(); err != nil {
		t.Fatal(err)
	}
	if len(ran) != 1 || ran[0] != "d1" || r.mq.Len() != 0 {
		t.Errorf("ran %v, %d left", ran, r.mq.Len())
	}
}

// TestWorkerRetriesThenDeadLetters: a failing function is retried after
// the policy's backoff (1 s, 2 s), then the delivery is a dead letter;
// Requeue runs it again.
func TestWorkerRetriesThenDeadLetters(t *testing.T) {
	r := newWorkerRig(t)
	var mu sync.Mutex
	var calls []time.Time
	fail := true
	On(r.rt, EventPush, func(ctx context.Context, e *PushEvent) error {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, r.clock.Now())
		if fail {
			if len(calls) == 2 {
				panic("boom")
			}
			return errors.New("CI is down")
		}
		return nil
	})
	var reported []error
	var rmu sync.Mutex
	w := r.worker(WithWorkerErrorFunc(func(_ *StoredDelivery, err error) { rmu.Lock(); reported = append(reported, err); rmu.Unlock() }))
	r.receive(t, EventPush, pushPayload, "d1")
	t0 := r.clock.Now()
	stop := run(w)
	for i, want := range []string{"retry d1 1s", "retry d1 2s", "dead d1"} {
		if op := <-r.q.ops; op != want {
			t.Fatalf("op %d: %s, want %s", i, op, want)
		}
		if i < 2 {
			eventually(t, "the retry timer", func() bool { return r.clock.pending() == 1 })
			r.clock.Advance(time.Second << i)
		}
	}
	dls, _ := r.mq.DeadLetters(context.Background(), 0)
	if len(dls) != 1 || dls[0].Attempts != 3 || !strings.Contains(dls[0].Reason, "failed 3 times; last: push function failed: CI is down") {
		t.Fatalf("dead letters %+v", dls)
	}
	mu.Lock()
	if len(calls) != 3 || !calls[1].Equal(t0.Add(time.Second)) || !calls[2].Equal(t0.Add(3*time.Second)) {
		t.Errorf("calls at %v", calls)
	}
	fail = false
	mu.Unlock()
	rmu.Lock()
	if len(reported) != 4 || !strings.Contains(reported[1].Error(), "panic: boom") {
		t.Errorf("reported %v", reported)
	}
	rmu.Unlock()

	// An operator requeues it: it runs (the guard was released).
	if err := r.mq.Requeue(context.Background(), "d1"); err != nil {
		t.Fatal(err)
	}
	if op := <-r.q.ops; op != "ack d1" {
		t.Fatalf("after Requeue: %s", op)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 4 || r.mq.Len() != 0 {
		t.Errorf("%d calls, %d left", len(calls), r.mq.Len())
	}
}

// TestWorkerDeadLettersAtOnce: what can never run is a dead letter without
// retries: bytes that do not decode, a delivery that fails re-verification,
// one leased more often than the bound allows.
func TestWorkerDeadLettersAtOnce(t *testing.T) {
	ctx := context.Background()
	good := Build(EventPush, []byte(pushPayload), BuildOptions{Secret: testSecret, DeliveryID: "x"}).HTTPHeader()
	forged := Build(EventPush, []byte(pushPayload), BuildOptions{Secret: "other", DeliveryID: "x"}).HTTPHeader()
	for _, tc := range []struct {
		name   string
		d      *StoredDelivery
		opts   []WorkerOption
		reason string
	}{
		{"not JSON", &StoredDelivery{ID: "a", EventType: EventPush, Payload: []byte("nope"), Signed: true}, nil, "not runnable: webhook: malformed delivery"},
		{"shape of another type", &StoredDelivery{ID: "b", EventType: EventIssues, Payload: []byte(pushPayload), Signed: true}, nil, "payload does not match its event type"},
		{"forged into the store", &StoredDelivery{ID: "c", EventType: EventPush, Payload: []byte(pushPayload), Header: forged, Signed: true},
			[]WorkerOption{WithReverify(mustParser(t, WithSecret(testSecret)))}, "verifying again: webhook: signature mismatch"},
		{"stored unsigned", &StoredDelivery{ID: "d", EventType: EventPush, Payload: []byte(pushPayload), Header: good},
			[]WorkerOption{WithReverify(mustParser(t, WithSecret(testSecret)))}, "stored unsigned"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newWorkerRig(t)
			called := 0
			r.rt.HandleDefault(func(context.Context, Event) error { called++; return nil })
			if err := r.mq.Enqueue(ctx, tc.d); err != nil {
				t.Fatal(err)
			}
			stop := run(r.worker(tc.opts...))
			if op := <-r.q.ops; op != "dead "+tc.d.ID {
				t.Fatalf("op %s", op)
			}
			_ = stop()
			dls, _ := r.mq.DeadLetters(ctx, 0)
			if called != 0 || len(dls) != 1 || !strings.Contains(dls[0].Reason, tc.reason) {
				t.Errorf("called %d, dead letters %+v", called, dls)
			}
		})
	}
	// Reverification passes for what the receiver stored.
	r := newWorkerRig(t)
	ran := make(chan string, 1)
	On(r.rt, EventPush, func(_ context.Context, e *PushEvent) error { ran <- e.DeliveryID(); return nil })
	r.receive(t, EventPush, pushPayload, "ok")
	stop := run(r.worker(WithReverify(r.p)))
	if id := <-ran; id != "ok" {
		t.Fatal(id)
	}
	<-r.q.ops
	_ = stop()

	// A delivery leased more than MaxAttempts times (every worker died) is
	// a dead letter before it runs again, and its guard claim is released.
	r = newWorkerRig(t)
	r.rt.HandleDefault(func(context.Context, Event) error { t.Error("ran"); return nil })
	r.receive(t, EventPush, pushPayload, "poison")
	for range 3 {
		if _, err := r.mq.Receive(ctx, "dies", time.Second); err != nil {
			t.Fatal(err)
		}
		r.clock.Advance(time.Second)
	}
	_, _ = r.guard.Claim(ctx, "poison")
	stop = run(r.worker())
	if op := <-r.q.ops; op != "dead poison" {
		t.Fatal(op)
	}
	_ = stop()
	if dls, _ := r.mq.DeadLetters(ctx, 0); len(dls) != 1 || !strings.Contains(dls[0].Reason, "attempts exhausted: leased 4 times") {
		t.Errorf("%+v", dls)
	}
	if first, _ := r.guard.Claim(ctx, "poison"); !first {
		t.Error("the guard still holds the dead letter's ID")
	}
}

// TestWorkerShutdownDrains: once ctx ends the worker receives nothing more
// and waits for the running function; past the drain bound it cancels the
// functions' contexts and returns.
func TestWorkerShutdownDrains(t *testing.T) {
	r := newWorkerRig(t)
	started, release := make(chan struct{}, 1), make(chan struct{})
	cancelled := make(chan error, 1)
	On(r.rt, EventPush, func(ctx context.Context, e *PushEvent) error {
		started <- struct{}{}
		select {
		case <-release:
			return nil
		case <-ctx.Done():
			cancelled <- ctx.Err()
			return ctx.Err()
		}
	})
	r.receive(t, EventPush, pushPayload, "d1")
	w := r.worker(WithDrainTimeout(time.Minute))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	<-started
	cancel()
	eventually(t, "the drain timer", func() bool { return r.clock.pending() == 1 })
	r.receive(t, EventPush, pushPayload, "d2") // stored while draining: not taken
	select {
	case err := <-done:
		t.Fatalf("Run returned %v with a function running", err)
	default:
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("Run after the drain: %v", err)
	}
	if op := <-r.q.ops; op != "ack d1" || r.mq.Len() != 1 {
		t.Fatalf("%s, %d left", op, r.mq.Len())
	}

	// The bound: the function's context is cancelled and Run returns.
	started2 := make(chan struct{}, 1)
	On(r.rt, EventPush, func(ctx context.Context, e *PushEvent) error {
		started2 <- struct{}{}
		<-ctx.Done()
		cancelled <- ctx.Err()
		return ctx.Err()
	})
	ctx, cancel = context.WithCancel(context.Background())
	go func() { done <- w.Run(ctx) }()
	<-started2
	cancel()
	eventually(t, "the drain timer", func() bool { return r.clock.pending() == 1 })
	r.clock.Advance(time.Minute)
	if err := <-done; err == nil || !strings.Contains(err.Error(), "still running after 1m0s") {
		t.Fatalf("Run past the bound: %v", err)
	}
	if err := <-cancelled; !errors.Is(err, context.Canceled) {
		t.Errorf("the function's context: %v", err)
	}
	// It returned an error: the delivery is retried, not lost.
	if op := <-r.q.ops; op != "retry d2 1s" {
		t.Errorf("op %s", op)
	}
}

// TestWorkerGuard: a delivery stored twice (two receivers behind a load
// balancer that retried) runs once; Forgejo's replay (same payload, new ID)
// runs again unless WithWorkerReplayDedup.
func TestWorkerGuard(t *testing.T) {
	const issue = `{"action":"opened","number":1,"issue":{"number":1}}`
	for _, tc := range []struct {
		name string
		opts []WorkerOption
		ids  []string
		runs int
	}{
		{"stored twice", nil, []string{"d1", "d1"}, 1},
		{"stored twice, other forms of one UUID", nil, []string{"7a1cf7d2-3e5b-4f35-9c83-1c1e2b6f5a10", "{7A1CF7D2-3E5B-4F35-9C83-1C1E2B6F5A10}", "urn:uuid:7a1cf7d2-3e5b-4f35-9c83-1c1e2b6f5a10"}, 1},
		{"replayed from the web UI", nil, []string{"d1", "d2"}, 2},
		{"replayed, WithWorkerReplayDedup", []WorkerOption{WithWorkerReplayDedup()}, []string{"d1", "d2", "d1"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newWorkerRig(t)
			var mu sync.Mutex
			runs := 0
			On(r.rt, EventIssues, func(context.Context, *IssuesEvent) error { mu.Lock(); runs++; mu.Unlock(); return nil })
			for _, id := range tc.ids {
				r.receive(t, EventIssues, issue, id)
			}
			stop := run(r.worker(append([]WorkerOption{WithConcurrency(2)}, tc.opts...)...))
			for range tc.ids {
				if op := <-r.q.ops; !strings.HasPrefix(op, "ack ") {
					t.Fatal(op)
				}
			}
			_ = stop()
			if runs != tc.runs || r.mq.Len() != 0 {
				t.Errorf("%d runs, want %d; %d left", runs, tc.runs, r.mq.Len())
			}
		})
	}
	// The synchronous Handler dedupes a replay with WithReplayDedup too.
	rt := NewRouter()
	h := must(NewHandler(mustParser(t, WithSecret(testSecret)), rt, WithGuard(NewMemoryGuard(0)), WithReplayDedup()))
	runs := 0
	On(rt, EventIssues, func(context.Context, *IssuesEvent) error { runs++; return nil })
	for _, id := range []string{"d1", "d2"} {
		h.ServeHTTP(httptest.NewRecorder(), signedRequest(EventIssues, issue, id, BuildOptions{}))
	}
	if runs != 1 {
		t.Errorf("synchronous, WithReplayDedup: %d runs", runs)
	}
}

// flakyReleaseGuard is a MemoryGuard whose first Release fails.
type flakyReleaseGuard struct {
	*MemoryGuard
	failed atomic.Bool
}

func (g *flakyReleaseGuard) Release(ctx context.Context, id string) error {
	if g.failed.CompareAndSwap(false, true) {
		return errors.New("guard store unavailable")
	}
	return g.MemoryGuard.Release(ctx, id)
}

// TestWorkerGuardReleaseFails: a function failed and the guard could not
// release its ID. A retry would be acknowledged as a duplicate, unrun; the
// lease is left to expire instead, and the reclaimed lease runs.
func TestWorkerGuardReleaseFails(t *testing.T) {
	r := newWorkerRig(t)
	r.guard = &flakyReleaseGuard{MemoryGuard: NewMemoryGuard(0)}
	var runs atomic.Int32
	On(r.rt, EventPush, func(context.Context, *PushEvent) error {
		if runs.Add(1) == 1 {
			return errors.New("boom")
		}
		return nil
	})
	r.receive(t, EventPush, pushPayload, "d1")
	stop := run(r.worker(WithVisibilityTimeout(time.Minute)))
	eventually(t, "the first run", func() bool { return runs.Load() == 1 && r.clock.pending() == 1 })
	select {
	case op := <-r.q.ops:
		t.Fatalf("after the failed release: %s", op)
	default:
	}
	r.clock.Advance(time.Minute)
	if op := <-r.q.ops; op != "ack d1" {
		t.Fatalf("op %s", op)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if runs.Load() != 2 || r.mq.Len() != 0 {
		t.Errorf("%d runs, %d left", runs.Load(), r.mq.Len())
	}
}

// TestWorkerConcurrency: WithConcurrency(n) runs n functions at once, and
// no more; a type without function is acknowledged without running.
func TestWorkerConcurrency(t *testing.T) {
	r := newWorkerRig(t)
	in, release := make(chan string, 10), make(chan struct{})
	On(r.rt, EventPush, func(_ context.Context, e *PushEvent) error {
		in <- e.DeliveryID()
		<-release
		return nil
	})
	for i := range 4 {
		r.receive(t, EventPush, pushPayload, fmt.Sprint("p", i))
	}
	r.receive(t, EventRelease, `{"action":"published","release":{"id":1}}`, "no-function")
	stop := run(r.worker(WithConcurrency(3)))
	got := map[string]bool{<-in: true, <-in: true, <-in: true}
	select {
	case id := <-in:
		t.Fatalf("a fourth function (%s) ran while three did", id)
	default:
	}
	close(release)
	got[<-in] = true
	acks := 0
	for range 5 {
		if op := <-r.q.ops; strings.HasPrefix(op, "ack ") {
			acks++
		}
	}
	_ = stop()
	if len(got) != 4 || acks != 5 || r.mq.Len() != 0 {
		t.Errorf("ran %v, %d acks, %d left", got, acks, r.mq.Len())
	}
}

// TestCapturesThroughQueue: every real delivery goes through the store and
// comes out as the event the parser makes of it.
func TestCapturesThroughQueue(t *testing.T) {
	cs := loadCaptures(t)
	p := mustParser(t, WithSecret(testSecret))
	q := &countingQueue{}
	h := must(NewHandler(p, nil, WithQueue(q)))
	n := 0
	for _, c := range cs {
		direct, err := p.Parse(c.body, c.header)
		if err != nil {
			continue // captures signed with another secret are covered elsewhere
		}
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(string(c.body)))
		req.Header = c.header.Clone()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusAccepted {
			t.Errorf("%s: %d", c.name, rec.Code)
			continue
		}
		d := q.stored[len(q.stored)-1]
		ev, err := d.Event()
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if fmt.Sprintf("%T", ev) != fmt.Sprintf("%T", direct) || ev.DeliveryID() != direct.DeliveryID() ||
			string(ev.Payload()) != string(direct.Payload()) || ev.EventType() != direct.EventType() ||
			ev.delivery().ContentType() != direct.delivery().ContentType() || ev.delivery().Signed() != direct.delivery().Signed() {
			t.Errorf("%s: %T %s, want %T %s", c.name, ev, ev.EventType(), direct, direct.EventType())
		}
		n++
	}
	if n < 100 {
		t.Errorf("only %d captures went through", n)
	}
	t.Logf("%d of %d captures stored and re-created", n, len(cs))
}

// TestStoredHeader: the receiving side's credentials are never stored,
// whatever the spelling of their names; everything else is.
func TestStoredHeader(t *testing.T) {
	h := http.Header{
		"Authorization":        {"Bearer hook"},
		"authorization":        {"Bearer lower"},
		"AUTHORIZATION":        {"Bearer upper"},
		"Proxy-Authorization":  {"Basic x"},
		"cookie":               {"s=1"},
		"Cookie":               {"s=2"},
		"X-Forgejo-Signature":  {"abc"},
		"X-Authorization-Hint": {"kept"},
	}
	got := StoredHeader(h)
	if len(got) != 2 || got.Get("X-Forgejo-Signature") != "abc" || got.Get("X-Authorization-Hint") != "kept" {
		t.Errorf("%v", got)
	}
	got["X-Forgejo-Signature"][0] = "changed"
	if h["X-Forgejo-Signature"][0] != "abc" {
		t.Error("StoredHeader shares its values with the request")
	}
	// Parse keeps what the request had; the stored copy does not.
	out := Build(EventPush, []byte(pushPayload), BuildOptions{Secret: testSecret, Authorization: "Bearer hook"})
	hdr := out.HTTPHeader()
	hdr["authorization"] = []string{"Bearer again"}
	ev, err := mustParser(t, WithSecret(testSecret)).Parse(out.Body, hdr)
	if err != nil {
		t.Fatal(err)
	}
	d := NewStoredDelivery(ev, time.Time{})
	for k := range d.Header {
		if strings.EqualFold(k, "Authorization") {
			t.Errorf("stored %s", k)
		}
	}
	if ev.(*PushEvent).Header().Get("Authorization") != "Bearer hook" {
		t.Error("the event lost its header")
	}
}
