package webhook

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// DefaultWorkerRetryPolicy returns how a [Worker] made without
// [WithRetryPolicy] retries an event function that failed: 5 attempts in
// all, waiting 1 s, 2 s, 4 s and 8 s (before full jitter) between them, at
// most 5 minutes; then the delivery is a dead letter. Like
// forgejo.DefaultRetryPolicy(), it is a function, so that nothing can change
// the default of every Worker: each call returns a fresh value to adjust.
func DefaultWorkerRetryPolicy() forgejo.RetryPolicy {
	return forgejo.RetryPolicy{
		MaxAttempts: 5,
		BaseDelay:   time.Second,
		MaxDelay:    5 * time.Minute,
		Jitter:      forgejo.JitterFull,
	}
}

// DefaultVisibilityTimeout is how long a [Worker] made without
// [WithVisibilityTimeout] holds a delivery before another worker may take
// it over.
const DefaultVisibilityTimeout = 2 * time.Minute

// DefaultDrainTimeout is how long a [Worker] made without
// [WithDrainTimeout] waits for running event functions when it stops.
const DefaultDrainTimeout = 30 * time.Second

// maxReason bounds a dead letter's reason.
const maxReason = 1024

// Worker runs the event functions of a [Router] for the deliveries of a
// [WorkQueue], at least once each:
//
//   - It leases a delivery ([WorkQueue.Receive]), re-creates its event from
//     the stored bytes ([StoredDelivery.Event]; the stored verification
//     result stands, unless [WithReverify]) and calls the function the
//     Router has for its event type ([On], [Router.HandleFunc],
//     [Router.HandleDefault]), a panic recovered as an error.
//   - nil: the delivery is acknowledged ([WorkQueue.Ack]). No function for
//     the event type: acknowledged without calling anything.
//   - An error or a panic: retried ([WorkQueue.Retry]) after the retry
//     policy's backoff ([WithRetryPolicy], forgejo.RetryPolicy.Backoff);
//     after the policy's MaxAttempts, a dead letter
//     ([WorkQueue.DeadLetter]) with the error as the reason, listable and
//     re-queueable ([DeadLetterStore]). A delivery whose stored bytes do
//     not decode is a dead letter at once.
//   - A worker that dies (or hangs, or loses the store) during a function
//     loses nothing: its lease expires after the visibility timeout
//     ([WithVisibilityTimeout]) and another worker's Receive takes the
//     delivery over. Leases count as attempts, so a delivery that kills
//     every worker that runs it ends as a dead letter too.
//
// With a guard ([WithWorkerGuard]), a delivery ID the
// guard has already seen (stored twice: two receivers behind a load
// balancer that retried, a front end that resent) is acknowledged without
// running; a failed function releases its ID for the retry. Forgejo's
// replay from the web UI sends the same payload under a new ID and runs
// again, as the person replaying means it to, unless the Worker was made
// with [WithWorkerReplayDedup]. Two exceptions favour at-least-once over
// at-most-once: a Reclaimed lease runs even when the guard holds its ID
// (the claim may be the dead worker's own), and a delivery whose Ack
// failed runs again after its lease expires. On a queue that is a
// [LeaseExtender] (MemoryQueue, forgeredis.Queue) the worker extends the
// lease of each running function every third of the visibility timeout,
// so a slow function keeps its delivery for as long as its worker lives
// (and a function that never returns keeps it until the worker stops). On
// any other queue, make the visibility timeout longer than the slowest
// function: a function still running when its lease expires runs a second
// time elsewhere.
//
// Run several workers (in one process or many) on one queue to share the
// work; each runs up to [WithConcurrency] functions at once.
type Worker struct {
	q           WorkQueue
	router      *Router
	guard       DeliveryGuard
	replayDedup bool
	concurrency int
	visibility  time.Duration
	drain       time.Duration
	policy      forgejo.RetryPolicy
	consumer    string
	clock       forgejo.Clock
	reverify    *Parser
	onError     func(*StoredDelivery, error)
	randN       func(int64) int64
	running     atomic.Int64
}

// WorkerOption configures a [Worker].
type WorkerOption func(*Worker)

// WithConcurrency sets how many event functions the worker runs at once
// (default 1, which keeps the deliveries of one worker in order); n < 1 is
// 1.
func WithConcurrency(n int) WorkerOption {
	return func(w *Worker) { w.concurrency = max(n, 1) }
}

// WithVisibilityTimeout sets the lease a worker takes on each delivery
// (default [DefaultVisibilityTimeout]): how long after a worker died
// another one takes its deliveries over, and, on a queue that is not a
// [LeaseExtender], how long a function may run before it may be run twice.
// Give every worker of a queue the same one.
func WithVisibilityTimeout(d time.Duration) WorkerOption {
	return func(w *Worker) {
		if d > 0 {
			w.visibility = d
		}
	}
}

// WithDrainTimeout bounds how long Run waits, once its context ended, for
// the functions still running (default [DefaultDrainTimeout]); after it,
// their contexts are cancelled and Run returns. Their deliveries, not
// acknowledged, run again after their leases expire.
func WithDrainTimeout(d time.Duration) WorkerOption {
	return func(w *Worker) {
		if d >= 0 {
			w.drain = d
		}
	}
}

// WithRetryPolicy sets how a failed function is retried: MaxAttempts is
// the number of attempts in all (1: the first failure is a dead letter),
// and the wait before attempt n+1 is p.Backoff(n) (BaseDelay doubling up
// to MaxDelay, jittered by Jitter). RespectRetryAfter plays no part. The
// default is [DefaultWorkerRetryPolicy]. NewWorker returns the error of a
// policy that does not validate.
func WithRetryPolicy(p forgejo.RetryPolicy) WorkerOption {
	return func(w *Worker) { w.policy = p }
}

// WithWorkerGuard makes the worker run each delivery ID at most once
// (successfully); see [Worker] for what it catches and the two exceptions,
// and [DeliveryGuard] for what a delivery without an ID is keyed on. Give
// every worker of a queue the same guard (one shared store, such as
// forgeredis.Guard, for workers in several processes).
func WithWorkerGuard(g DeliveryGuard) WorkerOption {
	return func(w *Worker) { w.guard = g }
}

// WithWorkerReplayDedup keys the worker's guard ([WithWorkerGuard]) on the
// SHA-256 of the payload instead of the delivery ID, so that Forgejo's
// replay of a delivery (the same payload under a new delivery ID) is a
// duplicate too; as [WithReplayDedup] does for a [Handler].
func WithWorkerReplayDedup() WorkerOption {
	return func(w *Worker) { w.replayDedup = true }
}

// WithConsumerName names the worker to the queue (a Redis consumer
// group's consumer name). The default is the host name, the process ID
// and a random suffix, unique per Worker.
func WithConsumerName(name string) WorkerOption {
	return func(w *Worker) {
		if name != "" {
			w.consumer = name
		}
	}
}

// WithWorkerClock sets the clock of the shutdown bound and of the pause
// after a failed Receive (tests pass a fake one).
// A nil c keeps the system clock.
func WithWorkerClock(c forgejo.Clock) WorkerOption {
	return func(w *Worker) {
		if c != nil {
			w.clock = c
		}
	}
}

// WithReverify makes the worker verify every stored delivery again with p
// (its signature headers are stored) before running it, for a store that
// is not inside the trust boundary: anyone who can write to the store can
// otherwise inject events. A delivery that fails is a dead letter. A
// delivery stored unsigned passes only when p allows unsigned ones
// ([AllowUnsigned]).
func WithReverify(p *Parser) WorkerOption {
	return func(w *Worker) { w.reverify = p }
}

// WithWorkerErrorFunc sets a function the worker calls with every failure:
// a function's error or panic (each attempt), a guard or queue error, a
// dead letter. d is nil for a failed Receive. For logging and metrics.
func WithWorkerErrorFunc(fn func(d *StoredDelivery, err error)) WorkerOption {
	return func(w *Worker) { w.onError = fn }
}

// NewWorker returns a Worker running r's functions for the deliveries of
// q. It returns an error for a nil q or r, for a retry policy
// ([WithRetryPolicy]) that does not validate, and for
// [WithWorkerReplayDedup] without [WithWorkerGuard].
func NewWorker(q WorkQueue, r *Router, opts ...WorkerOption) (*Worker, error) {
	if q == nil || r == nil {
		return nil, errors.New("webhook: NewWorker with a nil queue or Router")
	}
	w := &Worker{q: q, router: r, concurrency: 1, visibility: DefaultVisibilityTimeout, drain: DefaultDrainTimeout,
		policy: DefaultWorkerRetryPolicy(), clock: forgejo.SystemClock()}
	for _, o := range opts {
		o(w)
	}
	if err := w.policy.Validate(); err != nil {
		return nil, fmt.Errorf("webhook: NewWorker: %w", err)
	}
	if w.replayDedup && w.guard == nil {
		return nil, errors.New("webhook: NewWorker with WithWorkerReplayDedup and no WithWorkerGuard: there is no guard to key")
	}
	if w.consumer == "" {
		host, _ := os.Hostname()
		var b [4]byte
		_, _ = rand.Read(b[:])
		w.consumer = host + "-" + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(b[:])
	}
	return w, nil
}

// Consumer is the name the worker gives the queue.
func (w *Worker) Consumer() string { return w.consumer }

// Run leases and runs deliveries until ctx ends, then stops receiving and
// waits for the functions still running, up to the drain bound
// ([WithDrainTimeout]). Functions get a context that is not cancelled when
// ctx ends, only when the drain bound passes. Run returns nil once every
// function returned, or an error saying how many were still running. A
// failing store does not stop it: Receive is tried again after the retry
// policy's backoff.
func (w *Worker) Run(ctx context.Context) error {
	sem := make(chan struct{}, w.concurrency)
	var wg sync.WaitGroup
	fnCtx, cancelFns := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelFns()
	failures := 0
receive:
	for {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			break receive
		}
		l, err := w.q.Receive(ctx, w.consumer, w.visibility)
		if err != nil {
			<-sem
			if ctx.Err() != nil {
				break receive
			}
			failures++
			w.report(nil, fmt.Errorf("webhook: worker %s: receiving: %w", clean(w.consumer), err))
			c, stop := w.clock.Timer(w.policy.Backoff(failures, w.randN))
			select {
			case <-c:
				stop()
			case <-ctx.Done():
				stop()
				break receive
			}
			continue
		}
		failures = 0
		wg.Add(1)
		w.running.Add(1)
		go func() {
			defer func() {
				w.running.Add(-1)
				<-sem
				wg.Done()
			}()
			w.process(fnCtx, l)
		}()
	}

	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	c, stop := w.clock.Timer(w.drain)
	defer stop()
	select {
	case <-done:
		return nil
	case <-c:
		cancelFns()
		return fmt.Errorf("webhook: worker %s stopped with %d event function(s) still running after %s; their deliveries are not acknowledged and run again once their leases expire",
			clean(w.consumer), w.running.Load(), w.drain)
	}
}

// process runs one leased delivery to its end: Ack, Retry or DeadLetter.
func (w *Worker) process(ctx context.Context, l *Lease) {
	d := l.Delivery
	bound := w.policy.MaxAttempts
	if l.Attempt > bound {
		w.release(ctx, d)
		w.deadLetter(ctx, l, fmt.Sprintf("attempts exhausted: leased %d times, the bound is %d; the last lease expired unacknowledged (a worker died or hung running it)", l.Attempt, bound))
		return
	}
	ev, err := w.event(d)
	if err != nil {
		w.deadLetter(ctx, l, "not runnable: "+err.Error())
		return
	}
	fn := w.router.lookup(ev.EventType())
	if fn == nil {
		w.ack(ctx, l)
		return
	}
	if g := w.guard; g != nil {
		first, err := g.Claim(ctx, storedKey(d, w.replayDedup))
		if err != nil {
			w.fail(ctx, l, fmt.Errorf("delivery guard: claiming: %w", err))
			return
		}
		if !first && !l.Reclaimed {
			w.ack(ctx, l) // a duplicate: run, or running, under another lease
			return
		}
	}
	stopHeartbeat := w.heartbeat(ctx, l)
	err = call(ctx, fn, ev)
	stopHeartbeat()
	if err != nil {
		err = fmt.Errorf("%s function failed: %w", ev.EventType(), err)
		if !w.release(ctx, d) {
			// The guard still holds the ID: a retry would be taken for a
			// duplicate and acknowledged without running. The lease is
			// left to expire instead; it comes back Reclaimed, which runs
			// whatever the guard holds.
			w.report(d, fmt.Errorf("webhook: delivery %s, attempt %d of %d: %w; not retried before its lease expires, since the guard could not release it", clean(d.ID), l.Attempt, w.policy.MaxAttempts, err))
			return
		}
		w.fail(ctx, l, err)
		return
	}
	w.ack(ctx, l)
}

// heartbeat extends l every third of the visibility timeout while its
// function runs, when the queue is a [LeaseExtender]; the returned function
// stops it and returns once it stopped (so l is not changed after).
func (w *Worker) heartbeat(ctx context.Context, l *Lease) (stop func()) {
	ext, ok := w.q.(LeaseExtender)
	if !ok {
		return func() {}
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, stopTimer := w.clock.Timer(w.visibility / 3)
			select {
			case <-c:
			case <-quit:
				stopTimer()
				return
			case <-ctx.Done():
				// Run gave up on the function (the drain bound): its
				// lease is left to expire, as Run's error says.
				stopTimer()
				return
			}
			err := ext.Extend(ctx, l, w.visibility)
			if errors.Is(err, ErrLeaseLost) {
				w.report(l.Delivery, fmt.Errorf("webhook: delivery %s: its lease expired while its function ran, and another worker may run it too: %w", clean(l.Delivery.ID), err))
				return
			}
			if err != nil {
				// The store may come back before the lease ends.
				w.report(l.Delivery, fmt.Errorf("webhook: delivery %s: extending its lease: %w", clean(l.Delivery.ID), err))
			}
		}
	}()
	return func() {
		close(quit)
		<-done
	}
}

// event re-creates the delivery's event, verifying it again with
// WithReverify.
func (w *Worker) event(d *StoredDelivery) (Event, error) {
	if p := w.reverify; p != nil {
		switch {
		case d.Signed:
			if err := verify(d.Payload, d.Header, p.secrets); err != nil {
				return nil, fmt.Errorf("verifying again: %w", err)
			}
		case !p.allowUnsigned:
			return nil, errors.New("verifying again: stored unsigned, and the parser does not allow unsigned deliveries")
		}
	}
	return d.Event()
}

// fail retries l after the backoff, or dead-letters it after the last
// attempt.
func (w *Worker) fail(ctx context.Context, l *Lease, err error) {
	w.report(l.Delivery, fmt.Errorf("webhook: delivery %s, attempt %d of %d: %w", clean(l.Delivery.ID), l.Attempt, w.policy.MaxAttempts, err))
	if l.Attempt >= w.policy.MaxAttempts {
		w.deadLetter(ctx, l, fmt.Sprintf("failed %d times; last: %v", l.Attempt, err))
		return
	}
	if rerr := w.q.Retry(w.opCtx(ctx), l, w.policy.Backoff(l.Attempt, w.randN)); rerr != nil {
		w.report(l.Delivery, fmt.Errorf("webhook: retrying delivery %s: %w", clean(l.Delivery.ID), rerr))
	}
}

func (w *Worker) deadLetter(ctx context.Context, l *Lease, reason string) {
	if len(reason) > maxReason {
		reason = reason[:maxReason]
	}
	w.report(l.Delivery, fmt.Errorf("webhook: delivery %s is a dead letter: %s", clean(l.Delivery.ID), reason))
	if err := w.q.DeadLetter(w.opCtx(ctx), l, reason); err != nil {
		w.report(l.Delivery, fmt.Errorf("webhook: dead-lettering delivery %s: %w", clean(l.Delivery.ID), err))
	}
}

func (w *Worker) ack(ctx context.Context, l *Lease) {
	if err := w.q.Ack(w.opCtx(ctx), l); err != nil {
		w.report(l.Delivery, fmt.Errorf("webhook: acknowledging delivery %s (it will run again): %w", clean(l.Delivery.ID), err))
	}
}

// release forgets d's key in the guard, so that its next attempt (or its
// requeue) runs; false when the guard failed to.
func (w *Worker) release(ctx context.Context, d *StoredDelivery) bool {
	if g := w.guard; g != nil {
		if err := g.Release(w.opCtx(ctx), storedKey(d, w.replayDedup)); err != nil {
			w.report(d, fmt.Errorf("webhook: delivery guard: releasing delivery %s: %w", clean(d.ID), err))
			return false
		}
	}
	return true
}

// opCtx is the context of queue and guard operations: not cancelled at
// the drain bound, so that a function that returned still gets its
// delivery completed.
func (w *Worker) opCtx(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

func (w *Worker) report(d *StoredDelivery, err error) {
	if w.onError != nil {
		w.onError(d, err)
	}
}
