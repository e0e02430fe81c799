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
type FakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
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
func (c *FakeClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
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
