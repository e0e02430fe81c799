package forgejo

import (
	"context"
	"log/slog"
	"net/http"
	"time"
)

// This file holds the observer hooks: Observer and its optional extensions
// (RetryObserver, RateLimitObserver, PacerObserver, ContextObserver,
// HeaderObserver), how a client finds them, the notify helpers the
// pipeline calls, and NewSlogObserver. What a ContextObserver sees of a
// call is built in observer_context.go; which headers a HeaderObserver may
// add, in observer_headers.go.

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

// RateLimitObserver is an optional extension of [Observer]: an observer
// that also implements it is told of every rate-limit snapshot a response
// carries, and of every pacing wait.
type RateLimitObserver interface {
	OnRateLimit(ctx context.Context, call CallContext, rl RateLimit)
	OnRateLimitWait(ctx context.Context, call CallContext, wait time.Duration)
}

// PacerObserver is an optional extension of [Observer]: an observer that
// also implements it is told when a [Pacer] could not decide and the
// client paced the request locally instead.
type PacerObserver interface {
	OnPacerFallback(ctx context.Context, call CallContext, err error)
}

// ContextObserver is an optional extension of [Observer] for tracing: an
// observer that also implements it is told when a call starts and when it
// ends, and the ctx StartCall returns is the one the whole call runs with:
// every later observer event, every pacing and backoff wait, and every
// attempt's *http.Request, so that a span StartCall puts in it is the parent
// of whatever the transport records.
//
// StartCall runs once per call that is sent, before the first attempt (and
// before any pacing wait); call carries Operation, Method, Route and URL,
// with Attempt 0. A request that fails validation is never sent and opens
// no call: the observer sees only its final OnError, with Attempt 0.
//
// The ctx StartCall returns must be derived from the one it was given by
// adding values (context.WithValue, trace.ContextWithSpan): a ctx whose
// cancellation differs (another Done channel) is ignored, as is nil, so an
// observer can never detach a call from its caller's deadline.
//
// EndCall runs exactly once for every StartCall, after the last observer
// event of the call, on success and failure alike. call describes the
// whole call: Attempt is the attempt it ended on (Response.Attempts; a call
// canceled while pacing before attempt n ends on n), RequestID the last one
// the instance sent, Duration the whole call on the client's clock (waits
// included), Final true. status is the last response's status
// code, or 0 when the last attempt got none; err is what the caller
// receives, nil on success (a 404 answering a yes/no question and a 304
// answering a conditional call are successes).
//
// A panic in either method is recovered and dropped, as for every observer
// callback; after a panicking StartCall the call runs with the caller's ctx
// and EndCall still runs.
type ContextObserver interface {
	StartCall(ctx context.Context, call CallContext) context.Context
	EndCall(ctx context.Context, call CallContext, status int, err error)
}

// HeaderObserver is an optional extension of [Observer] for trace
// propagation: an observer that also implements it may add headers to
// every attempt's request (a W3C traceparent, say), retries included,
// without wrapping the client's transport.
//
// InjectHeaders runs once per attempt, after OnRequest and just before the
// request is sent, with the attempt's ctx (the one a [ContextObserver]'s
// StartCall returned, so the call's span is in it) and the attempt's
// CallContext. It writes into h, a header of its own that starts empty
// (http.Header's Set, or an OpenTelemetry propagation.HeaderCarrier over
// it); the pipeline then copies what it wrote into the request under the
// rules of per-call headers ([Header]):
//
//   - A name that is not a valid header name, the credential
//     (Authorization, Proxy-Authorization, Cookie, Cookie2, the one-time
//     password headers), Referer and what the client manages itself (Host,
//     Content-Type, Content-Length, Transfer-Encoding, Connection) are
//     dropped, as is a value with a control character.
//   - A header the request already has (a per-call header, Accept,
//     User-Agent) is kept: the observer only adds.
//   - Like the credential, what it adds is sent only to the base URL's
//     origin: a redirect to another origin is followed without it.
//
// A panic in InjectHeaders is recovered and dropped with everything it
// wrote; the attempt is sent without its headers.
type HeaderObserver interface {
	InjectHeaders(ctx context.Context, call CallContext, h http.Header)
}

// discoverObservers finds, once, which optional extensions the client's
// Observer implements that are told of events outside a call's own
// lifecycle (retries, rate limits, the Pacer's fallback). ContextObserver
// and HeaderObserver are asked for at each call.
func (c *Client) discoverObservers() {
	if ro, ok := c.observer.(RetryObserver); ok {
		c.retryObserver = ro
	}
	if ro, ok := c.observer.(RateLimitObserver); ok {
		c.rateLimitObserver = ro
	}
	if po, ok := c.observer.(PacerObserver); ok {
		c.pacerObserver = po
	}
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

func (c *Client) notifyRateLimit(ctx context.Context, call CallContext, rl RateLimit) {
	if c.rateLimitObserver == nil {
		return
	}
	defer func() { _ = recover() }()
	c.rateLimitObserver.OnRateLimit(ctx, call, rl)
}

func (c *Client) notifyRateLimitWait(ctx context.Context, call CallContext, wait time.Duration) {
	if c.rateLimitObserver == nil {
		return
	}
	defer func() { _ = recover() }()
	c.rateLimitObserver.OnRateLimitWait(ctx, call, wait)
}

func (c *Client) notifyPacerFallback(ctx context.Context, call CallContext, err error) {
	if c.pacerObserver == nil {
		return
	}
	defer func() { _ = recover() }()
	c.pacerObserver.OnPacerFallback(ctx, call, err)
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

func (o slogObserver) OnRateLimitWait(ctx context.Context, call CallContext, wait time.Duration) {
	o.l.LogAttrs(ctx, slog.LevelInfo, "forgejo waiting for the rate limit to reset",
		slog.String("op", call.Operation), slog.Duration("wait", wait))
}

func (o slogObserver) OnPacerFallback(ctx context.Context, call CallContext, err error) {
	o.l.LogAttrs(ctx, slog.LevelWarn, "forgejo pacer failed; pacing locally",
		slog.String("op", call.Operation), slog.String("error", err.Error()))
}
