package webhook

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// DefaultQueueCapacity is the number of deliveries a [MemoryQueue] made
// with capacity 0 holds.
const DefaultQueueCapacity = 10000

// MemoryQueue is a [WorkQueue] and [DeadLetterStore] kept in memory, for
// single-process programs and tests: a receiver and its workers in one
// process, which a restart empties (it is durable against slow event
// functions and their failures, not against the process dying; share a
// store such as Redis for that).
//
// It is bounded: the deliveries it holds, dead letters included, never
// exceed its capacity, and Enqueue at the bound fails with [ErrQueueFull]
// (so the Handler answers 503 and Forgejo records the failure) rather than
// dropping anything. Leases expire on its clock ([WithQueueClock]). It is safe for
// concurrent use.
//
// It keeps the deliveries themselves, not an encoding of them, so every
// dead letter it lists is readable ([DeadLetter.Err] is always nil); a
// dead letter's [DeadLetter.ID] is a decimal number.
type MemoryQueue struct {
	mu       sync.Mutex
	capacity int
	clock    forgejo.Clock
	seq      uint64
	live     []*memEntry // oldest first
	dead     []DeadLetter
	wake     chan struct{} // closed and replaced when something changes
}

type memEntry struct {
	seq       uint64
	d         *StoredDelivery
	attempts  int
	gen       uint64 // the current lease's number; 0 before any
	leased    bool
	deadline  time.Time // of the lease
	notBefore time.Time // of a retry
	reclaim   bool      // the last lease expired
}

// MemoryQueueOption configures a [MemoryQueue].
type MemoryQueueOption func(*MemoryQueue)

// WithQueueClock sets the clock leases and retry times are measured on
// (tests pass a fake one); the default, and what a nil c keeps, is the
// system clock.
func WithQueueClock(c forgejo.Clock) MemoryQueueOption {
	return func(q *MemoryQueue) {
		if c != nil {
			q.clock = c
		}
	}
}

// NewMemoryQueue returns a MemoryQueue holding up to capacity deliveries,
// dead letters included ([DefaultQueueCapacity] if capacity <= 0).
func NewMemoryQueue(capacity int, opts ...MemoryQueueOption) *MemoryQueue {
	if capacity <= 0 {
		capacity = DefaultQueueCapacity
	}
	q := &MemoryQueue{capacity: capacity, clock: forgejo.SystemClock(), wake: make(chan struct{})}
	for _, o := range opts {
		o(q)
	}
	return q
}

// changed wakes every blocked Receive; q.mu is held.
func (q *MemoryQueue) changed() {
	close(q.wake)
	q.wake = make(chan struct{})
}

// Enqueue implements [Queue].
func (q *MemoryQueue) Enqueue(ctx context.Context, d *StoredDelivery) error {
	if d == nil {
		return fmt.Errorf("webhook: MemoryQueue.Enqueue of nil")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.live)+len(q.dead) >= q.capacity {
		return fmt.Errorf("%w: %d deliveries stored (%d dead letters), the bound is %d", ErrQueueFull, len(q.live), len(q.dead), q.capacity)
	}
	q.push(d, 0)
	return nil
}

func (q *MemoryQueue) push(d *StoredDelivery, attempts int) {
	q.seq++
	q.live = append(q.live, &memEntry{seq: q.seq, d: d, attempts: attempts})
	q.changed()
}

// Receive implements [WorkQueue].
func (q *MemoryQueue) Receive(ctx context.Context, consumer string, visibility time.Duration) (*Lease, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		q.mu.Lock()
		now := q.clock.Now()
		var next time.Time
		for _, e := range q.live {
			at := e.notBefore
			if e.leased {
				at = e.deadline
			}
			if !now.Before(at) {
				if e.leased {
					e.reclaim = true
				}
				e.attempts++
				e.gen++
				e.leased, e.deadline, e.notBefore = true, now.Add(visibility), time.Time{}
				l := &Lease{Delivery: e.d, Token: strconv.FormatUint(e.seq, 10) + "." + strconv.FormatUint(e.gen, 10),
					Consumer: consumer, Attempt: e.attempts, Reclaimed: e.reclaim, Deadline: e.deadline}
				e.reclaim = false
				q.mu.Unlock()
				return l, nil
			}
			if next.IsZero() || at.Before(next) {
				next = at
			}
		}
		wake := q.wake
		q.mu.Unlock()
		var timer <-chan time.Time
		stop := func() {}
		if !next.IsZero() {
			timer, stop = q.clock.Timer(next.Sub(now))
		}
		select {
		case <-wake:
		case <-timer:
		case <-ctx.Done():
		}
		stop()
	}
}

// find returns the entry of l's token and whether l is its current lease;
// q.mu is held.
func (q *MemoryQueue) find(l *Lease) (int, bool) {
	if l == nil {
		return -1, false
	}
	s, g, _ := strings.Cut(l.Token, ".")
	seq, err1 := strconv.ParseUint(s, 10, 64)
	gen, err2 := strconv.ParseUint(g, 10, 64)
	if err1 != nil || err2 != nil {
		return -1, false
	}
	for i, e := range q.live {
		if e.seq == seq {
			return i, e.leased && e.gen == gen && q.clock.Now().Before(e.deadline)
		}
	}
	return -1, false
}

func lostErr(l *Lease, what string) error {
	id := ""
	if l != nil && l.Delivery != nil {
		id = l.Delivery.ID
	}
	return fmt.Errorf("%w: %s of delivery %s", ErrLeaseLost, what, clean(id))
}

// Ack implements [WorkQueue].
func (q *MemoryQueue) Ack(_ context.Context, l *Lease) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	i, _ := q.find(l)
	if i < 0 {
		return lostErr(l, "Ack")
	}
	q.live = append(q.live[:i], q.live[i+1:]...)
	q.changed()
	return nil
}

// Retry implements [WorkQueue].
func (q *MemoryQueue) Retry(_ context.Context, l *Lease, after time.Duration) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	i, current := q.find(l)
	if !current {
		return lostErr(l, "Retry")
	}
	e := q.live[i]
	e.leased, e.notBefore = false, q.clock.Now().Add(max(after, 0))
	q.changed()
	return nil
}

// Extend implements [LeaseExtender].
func (q *MemoryQueue) Extend(_ context.Context, l *Lease, visibility time.Duration) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	i, current := q.find(l)
	if !current {
		return lostErr(l, "Extend")
	}
	e := q.live[i]
	e.deadline = q.clock.Now().Add(visibility)
	l.Deadline = e.deadline
	q.changed()
	return nil
}

// DeadLetter implements [WorkQueue].
func (q *MemoryQueue) DeadLetter(_ context.Context, l *Lease, reason string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	i, current := q.find(l)
	if !current {
		return lostErr(l, "DeadLetter")
	}
	e := q.live[i]
	q.live = append(q.live[:i], q.live[i+1:]...)
	q.dead = append(q.dead, DeadLetter{ID: strconv.FormatUint(e.seq, 10), Delivery: e.d, Reason: reason,
		Attempts: e.attempts, At: q.clock.Now()})
	q.changed()
	return nil
}

// DeadLetters implements [DeadLetterStore].
func (q *MemoryQueue) DeadLetters(_ context.Context, limit int) ([]DeadLetter, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := len(q.dead)
	if limit > 0 && limit < n {
		n = limit
	}
	return append([]DeadLetter(nil), q.dead[:n]...), nil
}

// Requeue implements [DeadLetterStore]: id is a delivery ID (of a
// delivery that is a dead letter twice, the older) or a [DeadLetter.ID].
// The dead letter already counts against the capacity, so a requeue never
// fails for want of room.
func (q *MemoryQueue) Requeue(_ context.Context, id string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	i := slices.IndexFunc(q.dead, func(dl DeadLetter) bool { return dl.Delivery.ID == id })
	if i < 0 {
		i = slices.IndexFunc(q.dead, func(dl DeadLetter) bool { return dl.ID == id })
	}
	if i < 0 {
		return fmt.Errorf("%w: %s", ErrNotDead, clean(id))
	}
	d := q.dead[i].Delivery
	q.dead = slices.Delete(q.dead, i, i+1)
	q.push(d, 0)
	return nil
}

// Len is the number of deliveries stored and not dead: ready, waiting for
// a retry, or leased.
func (q *MemoryQueue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.live)
}
