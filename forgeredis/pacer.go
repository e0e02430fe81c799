package forgeredis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"sync"
	"time"

	"codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/internal/durations"
	"github.com/redis/go-redis/v9"
)

// DefaultPacerPrefix is put before the name given to [NewPacer] to make the key
// of the shared state.
const DefaultPacerPrefix = "forgego:quota:"

// DefaultPacerTimeout bounds every Redis call of a Pacer unless [WithPacerTimeout]
// says otherwise.
const DefaultPacerTimeout = 200 * time.Millisecond

// DefaultPacerCooldown is how long a Pacer leaves Redis alone after a failure
// unless [WithPacerCooldown] says otherwise.
const DefaultPacerCooldown = time.Second

// resetGranule is the precision of the reset the instances send: Codeberg
// and Forgejo send whole seconds, rounded up.
const resetGranule = time.Second

// bounds on what a snapshot may make the script store
const (
	maxCount    = 1 << 40
	maxDuration = 24 * time.Hour
)

// ErrUnavailable is wrapped by every error a [Pacer] returns when Redis did
// not answer in time or answered with an error.
var ErrUnavailable = errors.New("forgeredis: shared pacing store unavailable")

// Pacer paces the requests of every client that uses it, in any number of
// processes, against one quota kept in Redis. It implements
// [forgejo.Pacer]; install it with [forgejo.WithPacer] together with
// [forgejo.WithRateLimitPacing]. It is safe for concurrent use. Its errors
// never contain the Redis password (of a [*redis.Client], a
// [*redis.ClusterClient] or a [*redis.Ring]: the client types
// [redis.NewUniversalClient] returns).
type Pacer struct {
	rdb      redis.UniversalClient
	key      string
	timeout  time.Duration
	cooldown time.Duration
	password func() string // a func, so that no rendering of the value shows it

	mu        sync.Mutex
	downUntil time.Time // no Redis call before this (after a failure)
	lastErr   error
}

// PacerOption configures a [Pacer].
type PacerOption func(*Pacer) error

// WithPacerPrefix replaces [DefaultPacerPrefix]: the key of the shared state is
// prefix + name. Never put the token in it (see [NewPacer]).
func WithPacerPrefix(prefix string) PacerOption {
	return func(p *Pacer) error {
		p.key = prefix
		return nil
	}
}

// WithPacerTimeout bounds every Redis call (default [DefaultPacerTimeout]). When
// Redis has not answered by then, Reserve returns an error and the client
// paces that request locally.
func WithPacerTimeout(d time.Duration) PacerOption {
	return func(p *Pacer) error {
		if d <= 0 {
			return fmt.Errorf("forgeredis: timeout %v must be positive", d)
		}
		p.timeout = d
		return nil
	}
}

// WithPacerCooldown sets how long the Pacer leaves Redis alone after a failed
// call (default [DefaultPacerCooldown]): meanwhile Reserve fails at once, so a
// Redis that hangs costs one timeout per cooldown, not one per request.
// Zero retries Redis on every request.
func WithPacerCooldown(d time.Duration) PacerOption {
	return func(p *Pacer) error {
		if d < 0 {
			return fmt.Errorf("forgeredis: cooldown %v must not be negative", d)
		}
		p.cooldown = d
		return nil
	}
}

// NewPacer returns a Pacer that keeps its state in rdb under the key
// [DefaultPacerPrefix] + name.
//
// Every process that shares a quota must use the same name, and processes
// with different quotas different names: Codeberg counts per token (or per
// address for anonymous requests), so name the token's role and instance,
// such as "codeberg.org/ci-bot". Never derive the name from the token
// itself: keys are visible to anyone who can list Redis's keys (and appear
// in its logs and monitoring). NewPacer refuses a name holding a run of 40
// hexadecimal digits, the shape of a Forgejo token.
func NewPacer(rdb redis.UniversalClient, name string, opts ...PacerOption) (*Pacer, error) {
	if rdb == nil {
		return nil, errors.New("forgeredis: nil Redis client")
	}
	if name == "" {
		return nil, errors.New("forgeredis: empty name")
	}
	if looksLikeToken(name) {
		return nil, errors.New("forgeredis: the name looks like an access token; name the quota instead (see NewPacer)")
	}
	p := &Pacer{rdb: rdb, key: DefaultPacerPrefix, timeout: DefaultPacerTimeout, cooldown: DefaultPacerCooldown, password: passwordOf(rdb)}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(p); err != nil {
			return nil, err
		}
	}
	p.key += name
	return p, nil
}

// Key is the Redis key holding the shared state.
func (p *Pacer) Key() string { return p.key }

// Reserve implements [forgejo.Pacer]: it takes one request from the shared
// budget, atomically, and returns how long the request must wait for the
// slot it was given (zero while the current window has budget left; the
// time until a later window's start once it is spent, or until a 429's
// Retry-After ends). The clock is Redis's, so now is not used. Its error
// wraps [ErrUnavailable] when Redis is down, slow or refusing, or replies
// with something that is no number: the client then paces the request on
// its own. A reply out of range is the longest wait (see replyWait).
func (p *Pacer) Reserve(ctx context.Context, _ forgejo.CallContext, _ time.Time) (time.Duration, error) {
	v, err := p.run(ctx, "r", resetGranule.Milliseconds())
	if err != nil {
		return 0, err
	}
	d, err := replyWait(v)
	if err != nil {
		return 0, p.failed(err)
	}
	return d, nil
}

// replyWait reads the wait Redis replied with, in milliseconds: a duration
// from outside the process, converted by internal/durations so that it
// saturates and never wraps, then clamped to maxDuration (the client bounds
// it by its MaxWait). The script only ever returns a whole number in
// [0, maxDuration]; anything above is a huge wait. So is anything below
// zero: Redis turns a Lua number beyond int64 (a huge or infinite time in
// the shared state) into int64 min, so a negative reply is a huge wait that
// wrapped, and the safe reading of a wait the script cannot give is the
// longest one, never none. A RESP3 double or big number, or a numeric
// string, is read the same way; a reply that is no number at all (NaN
// included) is an error.
func replyWait(v any) (time.Duration, error) {
	switch v := v.(type) {
	case int64:
		return millisWait(v), nil
	case float64:
		return floatMillisWait(v)
	case *big.Int:
		if v.IsInt64() {
			return millisWait(v.Int64()), nil
		}
		return maxDuration, nil
	case string:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return millisWait(n), nil
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) { // out of range is ±Inf
			return 0, fmt.Errorf("forgeredis: Redis replied %q, not a wait", v)
		}
		return floatMillisWait(f)
	}
	return 0, fmt.Errorf("forgeredis: Redis replied a %T, not a wait", v)
}

func millisWait(ms int64) time.Duration {
	if ms < 0 {
		return maxDuration
	}
	return min(durations.Of(ms, time.Millisecond), maxDuration)
}

func floatMillisWait(ms float64) (time.Duration, error) {
	if math.IsNaN(ms) {
		return 0, errors.New("forgeredis: Redis replied NaN, not a wait")
	}
	if ms < 0 {
		return maxDuration, nil
	}
	d, _ := durations.OfFloat(ms, time.Millisecond)
	return min(d, maxDuration), nil
}

// Observe implements [forgejo.Pacer]: it merges what a response said into
// the shared state. A snapshot of a fresh window replaces the estimate;
// within a window the tighter of the estimate and the server's remaining
// (less the requests still on their way) wins, and so does the earlier
// reset. A 429 spends the budget and, with a Retry-After, holds every
// process back until then. Failures are not reported here: they make the
// next Reserve fail, which the client reports.
func (p *Pacer) Observe(ctx context.Context, _ forgejo.CallContext, _ time.Time, status int, rl *forgejo.RateLimit, retryAfter time.Duration) {
	args := []any{"o", resetGranule.Milliseconds(), status, "0", 0, "", 0, 0, clampDuration(retryAfter).Milliseconds()}
	if rl != nil {
		args[3] = "1"
		args[4] = min(max(rl.Remaining, 0), maxCount)
		if rl.HasReset {
			// Round up: the reset is an upper bound and must stay one.
			args[5] = strconv.FormatInt(ceilMillis(clampDuration(rl.Reset)), 10)
		}
		if rl.HasQuota && rl.Quota > 0 {
			args[6] = min(rl.Quota, maxCount)
			args[7] = ceilMillis(clampDuration(windowOf(rl)))
		}
	}
	_, _ = p.run(ctx, args...)
}

// run runs the script once, bounded by the timeout whatever the Redis
// client's own settings: the call goes on in its goroutine until the Redis
// client gives up, but the caller does not wait for it.
func (p *Pacer) run(ctx context.Context, args ...any) (any, error) {
	if err := p.available(); err != nil {
		return 0, err
	}
	type result struct {
		v   any
		err error
	}
	done := make(chan result, 1)
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.timeout)
	go func() {
		defer cancel()
		v, err := script.Run(cctx, p.rdb, []string{p.key}, args...).Result()
		done <- result{v, err}
	}()
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	select {
	case r := <-done:
		if r.err != nil {
			return 0, p.failed(r.err)
		}
		p.succeeded()
		return r.v, nil
	case <-timer.C:
		return 0, p.failed(fmt.Errorf("no answer within %v", p.timeout))
	case <-ctx.Done():
		// The caller gave up; Redis is not to blame. Let a later call probe.
		p.abandoned()
		return 0, ctx.Err()
	}
}

// available fails at once while a cooldown runs. Past it, one caller
// probes Redis while the others keep failing fast until it answers.
func (p *Pacer) available() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lastErr == nil {
		return nil
	}
	now := time.Now()
	if now.Before(p.downUntil) {
		return fmt.Errorf("%w (cooling down for %v): %w", ErrUnavailable, p.downUntil.Sub(now).Round(time.Millisecond), p.lastErr)
	}
	p.downUntil = now.Add(p.timeout + p.cooldown)
	return nil
}

func (p *Pacer) failed(err error) error {
	err = scrub(err, p.password())
	p.mu.Lock()
	p.lastErr = err
	p.downUntil = time.Now().Add(p.cooldown)
	p.mu.Unlock()
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
}

func (p *Pacer) abandoned() {
	p.mu.Lock()
	if p.lastErr != nil {
		p.downUntil = time.Time{}
	}
	p.mu.Unlock()
}

func (p *Pacer) succeeded() {
	p.mu.Lock()
	p.lastErr = nil
	p.downUntil = time.Time{}
	p.mu.Unlock()
}

// windowOf is the window of the policy behind the snapshot's summary (the
// request policy with its quota), 0 when no policy says.
func windowOf(rl *forgejo.RateLimit) time.Duration {
	var w time.Duration
	for _, pol := range rl.Policies {
		if pol.Quota != rl.Quota || pol.Window <= 0 || (pol.Unit != "" && pol.Unit != "requests") {
			continue
		}
		if w == 0 || pol.Window < w {
			w = pol.Window
		}
	}
	return w
}

func clampDuration(d time.Duration) time.Duration { return min(max(d, 0), maxDuration) }

func ceilMillis(d time.Duration) int64 {
	return int64((d + time.Millisecond - 1) / time.Millisecond)
}

// looksLikeToken reports a run of 40 or more hexadecimal digits.
func looksLikeToken(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' {
			if run++; run >= 40 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

var _ forgejo.Pacer = (*Pacer)(nil)
