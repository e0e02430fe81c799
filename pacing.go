package forgejo

import (
	"context"
	"sync"
	"time"
)

// This file keeps the client-wide rate-limit state: the latest snapshot,
// optional pacing (waiting for the budget to reset instead of spending a
// request that will be refused), and the optional retry budget. Both are off
// by default; with them off the client behaves exactly as without this file.

// Pacing configures [WithRateLimitPacing].
type Pacing struct {
	// MaxWait bounds one wait for the budget to reset; 0 means
	// DefaultPacingMaxWait. The caller's ctx bounds it too.
	MaxWait time.Duration
	// Spread spreads the remaining budget evenly over the time left until
	// the reset, rather than spending it as fast as calls come and then
	// waiting. It smooths bursts at some cost in wall time.
	Spread bool
}

// DefaultPacingMaxWait bounds a pacing wait when Pacing.MaxWait is zero.
const DefaultPacingMaxWait = 2 * time.Minute

// WithRateLimitPacing makes every goroutine using the client wait, when the
// last response said the request budget is spent, until the budget resets
// (bounded by p.MaxWait and ctx), instead of spending a request the
// instance will refuse with 429. It relies on the RateLimit headers: on an
// instance that sends none it never waits, and the retry engine still
// handles a 429 exactly as without pacing.
func WithRateLimitPacing(p Pacing) ClientOption {
	return func(c *config) error {
		if p.MaxWait < 0 {
			return &ValidationError{Field: "pacing.MaxWait", Message: "must not be negative"}
		}
		if p.MaxWait == 0 {
			p.MaxWait = DefaultPacingMaxWait
		}
		c.pacing = &p
		return nil
	}
}

// limits is the client's shared rate-limit state.
type limits struct {
	mu     sync.Mutex
	last   RateLimit
	has    bool
	pacing *Pacing

	// The estimate the pacing gate works from, for the summary limit.
	est      int64     // remaining, minus requests let through since the last snapshot
	resetHi  time.Time // earliest time by which the reset is known to have happened
	hasReset bool
	nextSlot time.Time // Spread: when the next request may go

	// inflight counts the paced requests let through and not yet answered
	// (a concurrent walk's pages): a snapshot's remaining budget does not
	// know of the ones sent after it.
	inflight int
	overlap  bool // requests have overlapped since the client was last idle
}

func newLimits(p *Pacing) *limits {
	return &limits{pacing: p}
}

// RateLimit returns the most recent rate-limit snapshot any response gave
// this client; ok is false when none said anything.
func (c *Client) RateLimit() (rl RateLimit, ok bool) {
	c.limits.mu.Lock()
	defer c.limits.mu.Unlock()
	return c.limits.last, c.limits.has
}

// observe records a snapshot received at now.
func (l *limits) observe(rl *RateLimit, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last, l.has = *rl, true
	est := rl.Remaining - int64(max(l.inflight-1, 0)) // less the others in flight
	if l.overlap && l.hasReset && now.Before(l.resetHi) {
		// Concurrent answers arrive out of order: within a window, an
		// older snapshot must not raise the estimate again.
		est = min(est, l.est)
	}
	l.est = est
	if !rl.HasReset {
		l.hasReset = false
		return
	}
	// Codeberg and forgejotest send t in whole seconds, rounded up, so
	// now+t is an upper bound on the reset. Several responses in one window
	// each give one; the smallest is the tightest. A bound already in the
	// past means a new window has begun.
	hi := now.Add(rl.Reset)
	// Every fresh snapshot bounds the Spread schedule: the next slot is at
	// most one interval of this snapshot away, so a schedule pushed far
	// ahead by a hostile reset is pulled back by the first healthy answer.
	if rl.Remaining > 0 {
		if limit := now.Add(rl.Reset / time.Duration(rl.Remaining)); l.nextSlot.After(limit) {
			l.nextSlot = limit
		}
	}
	if !l.hasReset || !l.resetHi.After(now) || hi.Before(l.resetHi) {
		l.resetHi = hi
	}
	l.hasReset = true
}

// reserve decides how long a request about to be sent at now must wait.
func (l *limits) reserve(now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.has || !l.hasReset {
		return 0
	}
	if !now.Before(l.resetHi) {
		return 0 // the window has reset; the next response tells the new budget
	}
	if l.est <= 0 {
		wait := l.resetHi.Sub(now)
		if wait > l.pacing.MaxWait {
			// The snapshot asks for more than one MaxWait. Grant one, and
			// treat its end as the reset, so that the same snapshot never
			// costs a second wait; the next response tells the truth.
			wait = l.pacing.MaxWait
			l.resetHi = now.Add(wait)
		}
		return wait
	}
	l.est--
	if !l.pacing.Spread {
		return 0
	}
	interval := min(l.resetHi.Sub(now)/time.Duration(l.est+1), l.pacing.MaxWait)
	at := now
	if l.nextSlot.After(at) {
		at = l.nextSlot
	}
	if limit := now.Add(l.pacing.MaxWait); at.After(limit) {
		at = limit
	}
	l.nextSlot = at.Add(interval)
	return at.Sub(now)
}

// pace waits, when pacing is on, until the request budget allows another
// request. It returns ctx's error if the caller gives up meanwhile.
func (c *Client) pace(ctx context.Context, call CallContext) error {
	if c.limits.pacing == nil {
		return nil
	}
	var wait time.Duration
	if c.pacer != nil {
		wait = c.reservePacer(ctx, call, c.now())
	} else {
		wait = c.limits.reserve(c.now())
	}
	if wait > 0 {
		c.notifyRateLimitWait(ctx, call, wait)
		if err := c.sleep(ctx, wait); err != nil {
			return err
		}
	}
	if c.pacer == nil {
		c.limits.mu.Lock()
		c.limits.inflight++
		c.limits.overlap = c.limits.overlap || c.limits.inflight > 1
		c.limits.mu.Unlock()
	}
	return nil
}

// paceDone ends what pace began: the attempt is answered (or failed).
func (c *Client) paceDone() {
	if c.limits.pacing == nil || c.pacer != nil {
		return
	}
	c.limits.mu.Lock()
	c.limits.inflight = max(c.limits.inflight-1, 0)
	c.limits.overlap = c.limits.overlap && c.limits.inflight > 0
	c.limits.mu.Unlock()
}

// walkPermits is how many requests a walk may have in flight, at most n:
// fewer when pacing is on and the estimated budget is smaller, down to 0
// (the walk then fetches only the page it waits for, which waits in pace
// like any call).
func (l *limits) walkPermits(n int, now time.Time) int {
	if l.pacing == nil {
		return n
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.has || !l.hasReset || !now.Before(l.resetHi) {
		return n
	}
	return int(min(max(l.est, 0), int64(n)))
}
