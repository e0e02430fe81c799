package webhook

import (
	"context"
	"errors"
	"testing"
	"time"
)

// extendingQueue is the rig's queue with the MemoryQueue's Extend, so that
// the Worker finds a LeaseExtender; extends counts the calls.
type extendingQueue struct {
	*opsQueue
	mq      *MemoryQueue
	extends chan time.Time
}

func (q *extendingQueue) Extend(ctx context.Context, l *Lease, visibility time.Duration) error {
	err := q.mq.Extend(ctx, l, visibility)
	q.extends <- l.Deadline
	return err
}

// probeCtx makes a Receive look once: its first Err is nil, every later one
// Canceled, and Done is closed.
type probeCtx struct {
	context.Context
	looked bool
}

func (c *probeCtx) Done() <-chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}

func (c *probeCtx) Err() error {
	if !c.looked {
		c.looked = true
		return nil
	}
	return context.Canceled
}

// TestWorkerHeartbeat: a function that runs for ten visibility timeouts
// keeps its delivery (the lease is extended every third of the timeout)
// and runs once (30 extensions, one a second); without a LeaseExtender another consumer takes the
// delivery over after one timeout.
func TestWorkerHeartbeat(t *testing.T) {
	for _, extend := range []bool{true, false} {
		r := newWorkerRig(t)
		release, started := make(chan struct{}), make(chan struct{}, 1)
		On(r.rt, EventPush, func(ctx context.Context, e *PushEvent) error {
			started <- struct{}{}
			<-release
			return nil
		})
		r.receive(t, EventPush, pushPayload, "d1")
		var q WorkQueue = r.q
		eq := &extendingQueue{opsQueue: r.q, mq: r.mq, extends: make(chan time.Time, 100)}
		if extend {
			q = eq
		}
		w := must(NewWorker(q, r.rt, WithWorkerClock(r.clock), WithVisibilityTimeout(3*time.Second), WithConsumerName("a")))
		stop := run(w)
		<-started
		for range 30 {
			eventually(t, "the heartbeat's timer", func() bool { return !extend || r.clock.pending() >= 1 })
			r.clock.Advance(time.Second)
			if extend {
				if d := <-eq.extends; !d.After(r.clock.Now()) {
					t.Fatalf("extended to %v, now %v", d, r.clock.Now())
				}
			}
		}
		// Another consumer looks once for work after ten timeouts.
		l, err := r.mq.Receive(&probeCtx{Context: context.Background()}, "b", time.Minute)
		switch {
		case extend && !errors.Is(err, context.Canceled):
			t.Fatalf("with a heartbeat, another consumer received %v, %v", l, err)
		case !extend && (err != nil || !l.Reclaimed):
			t.Fatalf("without a heartbeat, another consumer received %+v, %v; want the reclaimed delivery", l, err)
		}
		close(release)
		if extend {
			if op := <-r.q.ops; op != "ack d1" {
				t.Fatalf("op %s", op)
			}
			if r.mq.Len() != 0 {
				t.Errorf("%d left after the ack", r.mq.Len())
			}
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
	}
}
