package forgejo

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"codeberg.org/forgego/forgejo/internal/durations"
)

// This file lets pacing be shared beyond one client: a Pacer decides when
// each request may go, from what every response said. The built-in pacing
// (WithRateLimitPacing) is local to one client; a Pacer backed by a shared
// store (the forgeredis module) keeps a fleet of processes under one quota.

// Pacer decides when each request may be sent. Install one with
// [WithPacer]; it replaces the built-in pacing, which remains the fallback.
//
// Implementations must be safe for concurrent use. Neither method may
// block for long: the client does the waiting itself, bounded by the
// pacing MaxWait and the caller's ctx.
type Pacer interface {
	// Reserve is called before every attempt, at the client's time now.
	// It returns how long the request must wait before it is sent (zero:
	// send now), which the client bounds by the pacing MaxWait. An error
	// means the pacer cannot decide, its store being unreachable say: the
	// client then paces this request locally, tells the PacerFallback hook ([Hooks]), and
	// never fails the call for it. A negative wait is treated as such an
	// error (the mark of a huge wait that wrapped, not "send now"), and so
	// is a panic (a [*PanicError]).
	Reserve(ctx context.Context, call CallContext, now time.Time) (time.Duration, error)
	// Observe is called after every response that arrived, with its
	// status, its rate-limit snapshot (nil when it carried none) and the
	// Retry-After wait it asked for (zero when none).
	Observe(ctx context.Context, call CallContext, now time.Time, status int, rl *RateLimit, retryAfter time.Duration)
}

// WithPacer paces every request with p instead of the client's own pacing,
// falling back to the client's own when p fails (see [Pacer]). Combine it
// with [WithRateLimitPacing] to set the MaxWait of every wait and the local
// fallback's behaviour; alone, it uses the defaults.
func WithPacer(p Pacer) ClientOption {
	return func(c *config) error {
		if p == nil {
			return &ValidationError{Field: "pacer", Message: "must not be nil"}
		}
		c.pacer = p
		return nil
	}
}

// reservePacer asks the installed Pacer, falling back to local pacing.
func (c *Client) reservePacer(ctx context.Context, call CallContext, now time.Time) time.Duration {
	wait, err := c.reserveSafely(ctx, call, now)
	if err == nil && wait < 0 {
		err = fmt.Errorf("forgejo: Pacer.Reserve returned a negative wait (%v), the mark of one that wrapped", wait)
	}
	if err != nil {
		c.notifyPacerFallback(ctx, call, c.redactor(nil).scrubError(err))
		return c.limits.reserve(now)
	}
	return durations.Clamp(wait, 0, c.limits.pacing.MaxWait)
}

// reserveSafely is Pacer.Reserve with a panic turned into a *PanicError,
// which falls back to local pacing like any error of the Pacer's.
func (c *Client) reserveSafely(ctx context.Context, call CallContext, now time.Time) (wait time.Duration, err error) {
	defer func() {
		if pe := recoverPanic("pacer", recover()); pe != nil {
			wait, err = 0, pe
		}
	}()
	return c.pacer.Reserve(ctx, call, now)
}

// observePacer tells the installed Pacer what a response said. Retry-After
// is parsed only when there is a Pacer to tell.
func (c *Client) observePacer(ctx context.Context, call CallContext, hresp *http.Response, rl *RateLimit) {
	if c.pacer == nil {
		return
	}
	retryAfter, _ := parseRetryAfter(hresp.Header)
	defer func() { _ = recover() }() // a panicking pacer never fails the call
	c.pacer.Observe(ctx, call, c.now(), hresp.StatusCode, rl, retryAfter)
}
