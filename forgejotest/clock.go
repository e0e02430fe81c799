package forgejotest

import (
	"context"
	"sync"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// FakeClock is a [forgejo.Clock] whose time moves only when the test moves
// it ([FakeClock.Advance], [FakeClock.Set]): for the server ([WithClock]),
// a client ([forgejo.WithClock]) and the webhook package's Worker and
// MemoryQueue. Sleep and Timer wait until the time was moved past their
// end (Sleep also until its context is done); a wait of d <= 0 ends at
// once. It is safe for concurrent use.
//
// A client given the same clock sleeps on it between polls and retries;
// [FakeClock.BlockUntil] waits until it does, [FakeClock.AdvanceToNext]
// wakes it, and [FakeClock.AutoAdvance] does both in the background, so
// that a call such as WaitRun lives through simulated minutes at once.
type FakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer

	changed   chan struct{}  // closed and replaced when the pending timers change
	observers map[int]func() // told after the time moved (the fake's runners)
	nextObs   int
}

type fakeTimer struct {
	at time.Time
	c  chan time.Time
}

// NewFakeClock returns a FakeClock reading start.
func NewFakeClock(start time.Time) *FakeClock { return &FakeClock{now: start} }

// Now implements [forgejo.Clock].
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Timer implements [forgejo.Clock].
func (c *FakeClock) Timer(d time.Duration) (<-chan time.Time, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), c: make(chan time.Time, 1)}
	if d <= 0 {
		t.c <- c.now
		return t.c, func() {}
	}
	c.timers = append(c.timers, t)
	c.signal()
	return t.c, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for i, x := range c.timers {
			if x == t {
				c.timers = append(c.timers[:i], c.timers[i+1:]...)
				c.signal()
				return
			}
		}
	}
}

// Sleep implements [forgejo.Clock].
func (c *FakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	t, stop := c.Timer(d)
	defer stop()
	select {
	case <-t:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Advance moves the time on by d and fires the timers due.
func (c *FakeClock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// Set moves the time to t (which may be earlier) and fires the timers due.
// A [Server] given this clock ([WithClock]) with a runner attached
// ([Server.AttachRunner]) brings its runs up to t before Set returns.
func (c *FakeClock) Set(t time.Time) {
	c.set(t)
	c.mu.Lock()
	obs := make([]func(), 0, len(c.observers))
	for i := range c.nextObs {
		if f := c.observers[i]; f != nil {
			obs = append(obs, f)
		}
	}
	c.mu.Unlock()
	for _, f := range obs {
		f()
	}
}

func (c *FakeClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.signal()
	c.now = t
	kept := c.timers[:0]
	for _, x := range c.timers {
		if x.at.After(t) {
			kept = append(kept, x)
			continue
		}
		x.c <- t
	}
	c.timers = kept
}

var _ forgejo.Clock = (*FakeClock)(nil)

// Driving a client that waits on the same clock. A client given this clock
// ([forgejo.WithClock]) sleeps on it between polls (WaitRun, FollowJobLog,
// retries): it blocks until the test moves the time. Two ways to make
// progress without real sleeps:
//
//   - step by step: [FakeClock.BlockUntil] waits until the client is
//     asleep, then [FakeClock.AdvanceToNext] (or Advance) wakes it;
//   - hands off: [FakeClock.AutoAdvance] does that in the background for as
//     long as its context lasts, so a call such as WaitRun runs to its end
//     in simulated time.
//
// With one goroutine waiting on the clock, what it observes follows from
// the times alone. With several (a WaitRun and a FollowJobLog side by
// side), AutoAdvance may move the time while one of them is between two
// sleeps, so which moment its next request sees can vary from run to run;
// for an exact sequence, step with BlockUntil(ctx, n), n the number of
// waiting goroutines, and AdvanceToNext.

// Pending reports how many timers are waiting: goroutines asleep in
// [FakeClock.Sleep] and [FakeClock.Timer]s neither fired nor stopped.
func (c *FakeClock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// BlockUntil waits until at least n timers are pending ([FakeClock.Pending]),
// such as a polling client asleep between two requests, or until ctx ends
// (its error).
func (c *FakeClock) BlockUntil(ctx context.Context, n int) error {
	for {
		c.mu.Lock()
		if len(c.timers) >= n {
			c.mu.Unlock()
			return nil
		}
		ch := c.changedCh()
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// AdvanceToNext moves the time to the end of the earliest pending timer,
// firing it (and any other due then), and reports how far the time moved;
// ok is false, and the time unchanged, when no timer is pending.
func (c *FakeClock) AdvanceToNext() (d time.Duration, ok bool) {
	c.mu.Lock()
	if len(c.timers) == 0 {
		c.mu.Unlock()
		return 0, false
	}
	next := c.timers[0].at
	for _, t := range c.timers[1:] {
		if t.at.Before(next) {
			next = t.at
		}
	}
	d = next.Sub(c.now)
	c.mu.Unlock()
	c.Set(next)
	return d, true
}

// AutoAdvance moves the time on by itself in the background whenever a
// timer is pending, until ctx ends or stop is called (stop waits until the
// background goroutine is gone). With step <= 0 it jumps to the end of the
// earliest pending timer; with step > 0 it moves by step at a time (a
// sleeper due later sees the moments in between, as a server's runners
// do). Use it for a client that waits on this clock ([forgejo.WithClock])
// while nothing else moves the time: a WaitRun of a scripted run then
// returns at once, having lived through the simulated minutes.
func (c *FakeClock) AutoAdvance(ctx context.Context, step time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if err := c.BlockUntil(ctx, 1); err != nil {
				return
			}
			if step <= 0 {
				c.AdvanceToNext()
			} else {
				c.Advance(step)
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// changedCh is the channel closed at the next change of the pending
// timers; c.mu is held.
func (c *FakeClock) changedCh() chan struct{} {
	if c.changed == nil {
		c.changed = make(chan struct{})
	}
	return c.changed
}

// signal wakes BlockUntil's waiters; c.mu is held.
func (c *FakeClock) signal() {
	if c.changed != nil {
		close(c.changed)
		c.changed = nil
	}
}

// observe calls f after every Set (and Advance) from now on, outside the
// clock's lock; cancel stops that.
func (c *FakeClock) observe(f func()) (cancel func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.observers == nil {
		c.observers = map[int]func(){}
	}
	id := c.nextObs
	c.nextObs++
	c.observers[id] = f
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.observers, id)
	}
}
