package forgejo

import (
	"context"
	"log/slog"
	"time"
)

// Observer sees every attempt of every call, for logs, metrics and traces.
//
// For one attempt the order is OnRequest, then OnResponse if any response
// arrived (whatever its status, including a 2xx that then fails to decode),
// then OnError if the attempt failed. Retries repeat the sequence. When the
// call finally fails, OnError fires once more with the error the caller
// receives and call.Final set: three failed attempts give four OnError
// calls, a single 404 gives two.
//
// Everything handed over is already redacted. A panicking observer never
// fails the call: the panic is recovered and dropped. Callbacks run on the
// calling goroutine, so a slow observer slows every request; hand work to
// your own goroutine if it may block. Use call.Operation, not call.URL, as a
// metric label.
type Observer interface {
	OnRequest(ctx context.Context, call CallContext)
	OnResponse(ctx context.Context, call CallContext, status int)
	OnError(ctx context.Context, call CallContext, err error)
}

// RetryObserver is an optional extension of [Observer]: an observer that
// also implements it is told before each backoff wait, with the failure that
// caused it and how long the wait will be.
type RetryObserver interface {
	OnRetry(ctx context.Context, call CallContext, err error, wait time.Duration)
}

// The notify helpers shield the call from a panicking observer.

func (c *Client) notifyRequest(ctx context.Context, call CallContext) {
	if c.observer == nil {
		return
	}
	defer func() { _ = recover() }()
	c.observer.OnRequest(ctx, call)
}

func (c *Client) notifyResponse(ctx context.Context, call CallContext, status int) {
	if c.observer == nil {
		return
	}
	defer func() { _ = recover() }()
	c.observer.OnResponse(ctx, call, status)
}

func (c *Client) notifyError(ctx context.Context, call CallContext, err error) {
	if c.observer == nil {
		return
	}
	defer func() { _ = recover() }()
	c.observer.OnError(ctx, call, err)
}

func (c *Client) notifyRetry(ctx context.Context, call CallContext, err error, wait time.Duration) {
	if c.retryObserver == nil {
		return
	}
	defer func() { _ = recover() }()
	c.retryObserver.OnRetry(ctx, call, err, wait)
}

// NewSlogObserver returns an [Observer] (also a [RetryObserver], a
// [RateLimitObserver] and a [PacerObserver]) that logs through l: requests,
// responses, failed attempts and rate-limit snapshots at Debug; retry
// waits, pacing waits and final failures at Info; a shared pacer's failure
// at Warn. Attributes: op, method, url (redacted), attempt,
// status, duration, request_id, error, wait, remaining, reset.
func NewSlogObserver(l *slog.Logger) Observer {
	if l == nil {
		l = slog.Default()
	}
	return slogObserver{l}
}

type slogObserver struct{ l *slog.Logger }

func (o slogObserver) OnRequest(ctx context.Context, call CallContext) {
	o.l.LogAttrs(ctx, slog.LevelDebug, "forgejo request",
		slog.String("op", call.Operation), slog.String("method", call.Method),
		slog.String("url", call.URL), slog.Int("attempt", call.Attempt))
}

func (o slogObserver) OnResponse(ctx context.Context, call CallContext, status int) {
	o.l.LogAttrs(ctx, slog.LevelDebug, "forgejo response",
		slog.String("op", call.Operation), slog.Int("status", status),
		slog.Int("attempt", call.Attempt), slog.Duration("duration", call.Duration),
		slog.String("request_id", call.RequestID))
}

func (o slogObserver) OnError(ctx context.Context, call CallContext, err error) {
	level, msg := slog.LevelDebug, "forgejo attempt failed"
	if call.Final {
		level, msg = slog.LevelInfo, "forgejo call failed"
	}
	o.l.LogAttrs(ctx, level, msg,
		slog.String("op", call.Operation), slog.String("method", call.Method),
		slog.String("url", call.URL), slog.Int("attempt", call.Attempt),
		slog.String("error", err.Error()))
}

func (o slogObserver) OnRetry(ctx context.Context, call CallContext, err error, wait time.Duration) {
	o.l.LogAttrs(ctx, slog.LevelInfo, "forgejo retrying",
		slog.String("op", call.Operation), slog.Int("attempt", call.Attempt),
		slog.Duration("wait", wait), slog.String("error", err.Error()))
}

func (o slogObserver) OnRateLimit(ctx context.Context, call CallContext, rl RateLimit) {
	o.l.LogAttrs(ctx, slog.LevelDebug, "forgejo rate limit",
		slog.String("op", call.Operation), slog.Int64("remaining", rl.Remaining),
		slog.Duration("reset", rl.Reset), slog.String("source", rl.Source))
}

func (o slogObserver) OnPacerFallback(ctx context.Context, call CallContext, err error) {
	o.l.LogAttrs(ctx, slog.LevelWarn, "forgejo pacer failed; pacing locally",
		slog.String("op", call.Operation), slog.String("error", err.Error()))
}

func (o slogObserver) OnRateLimitWait(ctx context.Context, call CallContext, wait time.Duration) {
	o.l.LogAttrs(ctx, slog.LevelInfo, "forgejo waiting for the rate limit to reset",
		slog.String("op", call.Operation), slog.Duration("wait", wait))
}
