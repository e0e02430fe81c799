package forgejo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/textproto"
	"sync"
	"time"
)

// This file holds the observer model, in one file: Hooks, a struct of optional funcs
// (one per event), WithHooks, how several are chained (Client.chainHooks),
// the notify helpers the pipeline calls, how a hook's panic is recovered and
// reported (Client.hookPanicked), what the StartCall and EndCall hooks see of
// a call (Client.startCall), which headers InjectHeaders may add
// (Client.hookHeaders), and NewSlogHooks.

// Hooks are the functions a [Client] calls as it works, for logs, metrics
// and traces; pass them with [WithHooks]. Every field is optional: a nil
// one costs the call a nil check and nothing else. [NewSlogHooks] logs
// through log/slog; the forgejootel module records OpenTelemetry traces and
// metrics.
//
// For one attempt the order is Request, then InjectHeaders, then Response
// if any response arrived (whatever its status, including a 2xx that then
// fails to decode), then Error if the attempt failed. Retries repeat the
// sequence, each after Retry. When the call finally fails, Error runs once
// more with the error the caller receives and call.Final set: three failed
// attempts give four Error calls, a single 404 gives two. StartCall and
// EndCall enclose all of a call's events.
//
// Everything handed over is already redacted. Hooks run on the calling
// goroutine, so a slow hook slows every request; hand work to your own
// goroutine if it may block. Use call.Operation, not call.URL, as a metric
// label.
//
// A panicking hook never fails the call: the panic is recovered, the call
// goes on as if the hook had returned, and the first panic of each hook of
// a client is reported, to HookPanic if it is set and otherwise to
// slog.Default() at Error level.
type Hooks struct {
	// Request runs as each attempt starts.
	Request func(ctx context.Context, call CallContext)
	// Response runs when an attempt got a response, with its status code.
	Response func(ctx context.Context, call CallContext, status int)
	// Error runs when an attempt failed, and once more, with call.Final
	// set, with the error the caller receives.
	Error func(ctx context.Context, call CallContext, err error)
	// Retry runs before each backoff wait, with the failure that caused it
	// and how long the wait will be.
	Retry func(ctx context.Context, call CallContext, err error, wait time.Duration)
	// RateLimit runs for every rate-limit snapshot a response carries.
	RateLimit func(ctx context.Context, call CallContext, rl RateLimit)
	// RateLimitWait runs before every pacing wait.
	RateLimitWait func(ctx context.Context, call CallContext, wait time.Duration)
	// PacerFallback runs when a [Pacer] could not decide and the client
	// paced the request locally instead.
	PacerFallback func(ctx context.Context, call CallContext, err error)

	// StartCall and EndCall are for tracing: they see a call start and end,
	// and the ctx StartCall returns is the one the whole call runs with:
	// every later hook, every pacing and backoff wait, and every attempt's
	// *http.Request, so that a span StartCall puts in it is the parent of
	// whatever the transport records.
	//
	// StartCall runs once per call that is sent, before the first attempt
	// (and before any pacing wait); call carries Operation, Method, Route
	// and URL, with Attempt 0. A request that fails validation is never
	// sent and opens no call: the hooks see only its final Error, with
	// Attempt 0.
	//
	// The ctx StartCall returns must be derived from the one it was given
	// by adding values (context.WithValue, trace.ContextWithSpan): a ctx
	// whose cancellation differs (another Done channel) is ignored, as is
	// nil, so a hook can never detach a call from its caller's deadline.
	// After a panicking StartCall the call runs with the caller's ctx.
	StartCall func(ctx context.Context, call CallContext) context.Context
	// EndCall runs exactly once for every call that is sent (whether or not
	// StartCall is set), after the last other hook of the call, on success
	// and failure alike, also when a panic passes through the call. call
	// describes the whole call: Attempt is the attempt it ended on
	// (Response.Attempts; a call canceled while pacing before attempt n
	// ends on n), RequestID the last one the instance sent, Duration the
	// whole call on the client's clock (waits included), Final true.
	// status is the last response's status code, or 0 when the last
	// attempt got none; err is what the caller receives, nil on success (a
	// 404 answering a yes/no question and a 304 answering a conditional
	// call are successes).
	EndCall func(ctx context.Context, call CallContext, status int, err error)

	// InjectHeaders is for trace propagation: it may add headers to every
	// attempt's request (a W3C traceparent, say), retries included, without
	// wrapping the client's transport. It runs once per attempt, after
	// Request and just before the request is sent, with the attempt's ctx
	// (the one StartCall returned, so the call's span is in it) and the
	// attempt's CallContext. It writes into h, a header of its own that
	// starts empty (http.Header's Set, or an OpenTelemetry
	// propagation.HeaderCarrier over it); the pipeline then copies what it
	// wrote into the request under the rules of per-call headers
	// ([Header]):
	//
	//   - A name that is not a valid header name, the credential
	//     (Authorization, Proxy-Authorization, Cookie, Cookie2, the one-time
	//     password headers), Referer and what the client manages itself
	//     (Host, Content-Type, Content-Length, Transfer-Encoding,
	//     Connection) are dropped, as is a value with a control character.
	//   - A header the request already has (a per-call header, Accept,
	//     User-Agent) is kept: the hook only adds.
	//   - Like the credential, what it adds is sent only to the base URL's
	//     origin: a redirect to another origin is followed without it.
	//
	// After a panic in InjectHeaders, nothing it wrote is sent.
	InjectHeaders func(ctx context.Context, call CallContext, h http.Header)

	// HookPanic, when set, is told of the first panic of each hook of a
	// client instead of slog.Default(): hook is the field's name
	// ("Request", "EndCall", ...), value the panic's value rendered with
	// fmt and redacted like every text the client hands over. A panic in
	// HookPanic itself is dropped.
	HookPanic func(hook string, value any)
}

// WithHooks adds h to the client's hooks. Several WithHooks combine: each
// event runs the hooks given for it in the order of the options (EndCall in
// the reverse order, so that what StartCall opened closes inside out), a
// panic in one skipping none of the others. See [Hooks]; [NewSlogHooks]
// logs through log/slog.
func WithHooks(h Hooks) ClientOption {
	return func(c *config) error {
		c.hooks = append(c.hooks, h)
		return nil
	}
}

// hookPanics records which hooks of a client have panicked, so that each is
// reported once.
type hookPanics struct {
	mu   sync.Mutex
	seen map[string]bool
}

// hookPanicked reports, once per hook and client, a panic recovered from
// the hook named hook, to HookPanic or slog.Default(). The value is
// rendered with fmt, scrubbed of the client's secrets and bounded.
func (c *Client) hookPanicked(hook string, v any) {
	if p := c.hookPanics; p != nil {
		p.mu.Lock()
		seen := p.seen[hook]
		if !seen {
			if p.seen == nil {
				p.seen = make(map[string]bool)
			}
			p.seen[hook] = true
		}
		p.mu.Unlock()
		if seen {
			return
		}
	}
	text := bound(c.redactor(nil).scrub(fmt.Sprint(v)))
	if c.hooks.HookPanic != nil {
		defer func() { _ = recover() }()
		c.hooks.HookPanic(hook, text)
		return
	}
	slog.Default().LogAttrs(context.Background(), slog.LevelError,
		"forgejo: a hook panicked; the call went on without it",
		slog.String("hook", hook), slog.String("panic", text))
}

// recoverHook, deferred around a hook, recovers its panic and reports it.
func (c *Client) recoverHook(hook string) {
	if v := recover(); v != nil {
		c.hookPanicked(hook, v)
	}
}

// chainHooks combines the hooks of every WithHooks into one Hooks. With one
// (or none) it returns it as is; otherwise a field set more than once runs
// each, in order (EndCall in reverse), each shielded from the others'
// panics.
func (c *Client) chainHooks(list []Hooks) Hooks {
	switch len(list) {
	case 0:
		return Hooks{}
	case 1:
		return list[0]
	}
	var h Hooks
	for _, l := range list {
		h.Request = chain0(c, "Request", h.Request, l.Request)
		h.Response = chain1(c, "Response", h.Response, l.Response)
		h.Error = chain1(c, "Error", h.Error, l.Error)
		h.Retry = chain2(c, "Retry", h.Retry, l.Retry)
		h.RateLimit = chain1(c, "RateLimit", h.RateLimit, l.RateLimit)
		h.RateLimitWait = chain1(c, "RateLimitWait", h.RateLimitWait, l.RateLimitWait)
		h.PacerFallback = chain1(c, "PacerFallback", h.PacerFallback, l.PacerFallback)
		h.EndCall = chain2(c, "EndCall", l.EndCall, h.EndCall) // reverse order
		switch first, next := h.StartCall, l.StartCall; {
		case next == nil:
		case first == nil:
			h.StartCall = next
		default:
			h.StartCall = func(ctx context.Context, call CallContext) context.Context {
				ctx = keepCancellation(ctx, c.safeStartCall(first, ctx, call))
				return keepCancellation(ctx, c.safeStartCall(next, ctx, call))
			}
		}
		switch first, next := h.InjectHeaders, l.InjectHeaders; {
		case next == nil:
		case first == nil:
			h.InjectHeaders = next
		default:
			h.InjectHeaders = func(ctx context.Context, call CallContext, h http.Header) {
				for _, f := range [2]func(context.Context, CallContext, http.Header){first, next} {
					for name, values := range c.safeInjectHeaders(f, ctx, call) {
						h[name] = append(h[name], values...)
					}
				}
			}
		}
		switch first, next := h.HookPanic, l.HookPanic; {
		case next == nil:
		case first == nil:
			h.HookPanic = next
		default:
			h.HookPanic = func(hook string, value any) {
				func() {
					defer func() { _ = recover() }()
					first(hook, value)
				}()
				next(hook, value)
			}
		}
	}
	return h
}

// chain0, chain1 and chain2 return a hook running first and then next, a
// panic in first reported and not stopping next; either alone when the
// other is nil.
func chain0(c *Client, hook string, first, next func(context.Context, CallContext)) func(context.Context, CallContext) {
	if first == nil {
		return next
	}
	if next == nil {
		return first
	}
	return func(ctx context.Context, call CallContext) {
		func() {
			defer c.recoverHook(hook)
			first(ctx, call)
		}()
		next(ctx, call)
	}
}

func chain1[A any](c *Client, hook string, first, next func(context.Context, CallContext, A)) func(context.Context, CallContext, A) {
	if first == nil {
		return next
	}
	if next == nil {
		return first
	}
	return func(ctx context.Context, call CallContext, a A) {
		func() {
			defer c.recoverHook(hook)
			first(ctx, call, a)
		}()
		next(ctx, call, a)
	}
}

func chain2[A, B any](c *Client, hook string, first, next func(context.Context, CallContext, A, B)) func(context.Context, CallContext, A, B) {
	if first == nil {
		return next
	}
	if next == nil {
		return first
	}
	return func(ctx context.Context, call CallContext, a A, b B) {
		func() {
			defer c.recoverHook(hook)
			first(ctx, call, a, b)
		}()
		next(ctx, call, a, b)
	}
}

// The notify helpers run one hook each, shielding the call from its panic.

func (c *Client) notifyRequest(ctx context.Context, call CallContext) {
	if c.hooks.Request == nil {
		return
	}
	defer c.recoverHook("Request")
	c.hooks.Request(ctx, call)
}

func (c *Client) notifyResponse(ctx context.Context, call CallContext, status int) {
	if c.hooks.Response == nil {
		return
	}
	defer c.recoverHook("Response")
	c.hooks.Response(ctx, call, status)
}

func (c *Client) notifyError(ctx context.Context, call CallContext, err error) {
	if c.hooks.Error == nil {
		return
	}
	defer c.recoverHook("Error")
	c.hooks.Error(ctx, call, err)
}

func (c *Client) notifyRetry(ctx context.Context, call CallContext, err error, wait time.Duration) {
	if c.hooks.Retry == nil {
		return
	}
	defer c.recoverHook("Retry")
	c.hooks.Retry(ctx, call, err, wait)
}

func (c *Client) notifyRateLimit(ctx context.Context, call CallContext, rl RateLimit) {
	if c.hooks.RateLimit == nil {
		return
	}
	defer c.recoverHook("RateLimit")
	c.hooks.RateLimit(ctx, call, rl)
}

func (c *Client) notifyRateLimitWait(ctx context.Context, call CallContext, wait time.Duration) {
	if c.hooks.RateLimitWait == nil {
		return
	}
	defer c.recoverHook("RateLimitWait")
	c.hooks.RateLimitWait(ctx, call, wait)
}

func (c *Client) notifyPacerFallback(ctx context.Context, call CallContext, err error) {
	if c.hooks.PacerFallback == nil {
		return
	}
	defer c.recoverHook("PacerFallback")
	c.hooks.PacerFallback(ctx, call, err)
}

// startCall runs the StartCall hook at the start of a call. It returns the
// ctx the call runs with and the function the pipeline calls with the
// call's results when it returns, which runs the EndCall hook.
func (c *Client) startCall(ctx context.Context, call CallContext) (context.Context, func(*Response, error)) {
	if c.hooks.StartCall == nil && c.hooks.EndCall == nil {
		return ctx, endNothing
	}
	start := c.now()
	if c.hooks.StartCall != nil {
		ctx = keepCancellation(ctx, c.safeStartCall(c.hooks.StartCall, ctx, call))
	}
	if c.hooks.EndCall == nil {
		return ctx, endNothing
	}
	return ctx, func(resp *Response, err error) {
		end := call
		end.Final = true
		end.Duration = c.now().Sub(start)
		status := 0
		if resp != nil {
			end.Attempt, end.RequestID = resp.Attempts, resp.requestID
			status = resp.StatusCode
		} else if last, ok := callOf(err); ok {
			end.Attempt, end.RequestID = last.Attempt, last.RequestID
		}
		defer c.recoverHook("EndCall")
		c.hooks.EndCall(ctx, end, status, err)
	}
}

func endNothing(*Response, error) {}

// safeStartCall runs f, returning nil when it panics.
func (c *Client) safeStartCall(f func(context.Context, CallContext) context.Context, ctx context.Context, call CallContext) (nctx context.Context) {
	defer func() {
		if v := recover(); v != nil {
			nctx = nil
			c.hookPanicked("StartCall", v)
		}
	}()
	return f(ctx, call)
}

// keepCancellation returns nctx when it is derived from ctx by adding
// values (the same Done channel), and ctx otherwise.
func keepCancellation(ctx, nctx context.Context) context.Context {
	if nctx != nil && nctx.Done() == ctx.Done() {
		return nctx
	}
	return ctx
}

// callOf finds the CallContext of the attempt an error came from.
func callOf(err error) (CallContext, bool) {
	var re *RetriesExhaustedError
	var ae *APIError
	var te *TransportError
	var de *DecodeError
	switch {
	case errors.As(err, &re):
		call := re.Call
		call.Attempt = re.Attempts
		return call, true
	case errors.As(err, &ae):
		return ae.Call, true
	case errors.As(err, &te):
		return te.Call, true
	case errors.As(err, &de):
		return de.Call, true
	}
	return CallContext{}, false
}

// hookHeaders asks the InjectHeaders hook, if there is one, for the
// attempt's headers, and returns those it may add: canonical names, none
// reserved, no credential, none with a control character. It returns nil
// when there are none.
func (c *Client) hookHeaders(ctx context.Context, call CallContext) http.Header {
	if c.hooks.InjectHeaders == nil {
		return nil
	}
	h := c.safeInjectHeaders(c.hooks.InjectHeaders, ctx, call)
	if len(h) == 0 {
		return nil
	}
	out := make(http.Header, len(h))
	for name, values := range h {
		canon := textproto.CanonicalMIMEHeaderKey(name)
		if !validHeaderName(canon) || reservedHeaders[canon] || credentialHeader(canon) {
			continue
		}
		var keep []string
		for _, v := range values {
			if !hasControl(v) {
				keep = append(keep, v)
			}
		}
		if len(keep) > 0 {
			out[canon] = append(out[canon], keep...)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// safeInjectHeaders runs f on an empty header and returns what it wrote,
// nothing when it panics.
func (c *Client) safeInjectHeaders(f func(context.Context, CallContext, http.Header), ctx context.Context, call CallContext) (h http.Header) {
	h = http.Header{}
	defer func() {
		if v := recover(); v != nil {
			h = nil // nothing a panicking hook wrote is sent
			c.hookPanicked("InjectHeaders", v)
		}
	}()
	f(ctx, call, h)
	return h
}

// credentialHeader reports whether a canonical name is one the redirect
// rule strips as a credential (credentialHeaders, client.go).
func credentialHeader(canon string) bool { return credentialHeaderSet[canon] }

var credentialHeaderSet = func() map[string]bool {
	set := make(map[string]bool, len(credentialHeaders))
	for _, name := range credentialHeaders {
		set[textproto.CanonicalMIMEHeaderKey(name)] = true
	}
	return set
}()

// redirectStripped returns the names the redirect rule must remove off the
// base URL's origin: the per-call headers and the hooks'.
func redirectStripped(perCall, hooked http.Header) http.Header {
	switch {
	case len(hooked) == 0:
		return perCall
	case len(perCall) == 0:
		return hooked
	}
	names := make(http.Header, len(perCall)+len(hooked))
	for name := range perCall {
		names[name] = nil
	}
	for name := range hooked {
		names[name] = nil
	}
	return names
}

// NewSlogHooks returns [Hooks] that log through l (slog.Default() when l
// is nil): requests, responses, failed attempts and rate-limit snapshots at
// Debug; retry waits, pacing waits and final failures at Info; a shared
// pacer's failure at Warn. Attributes: op, method, url (redacted), attempt,
// status, duration, request_id, error, wait, remaining, reset, source.
func NewSlogHooks(l *slog.Logger) Hooks {
	if l == nil {
		l = slog.Default()
	}
	return Hooks{
		Request: func(ctx context.Context, call CallContext) {
			l.LogAttrs(ctx, slog.LevelDebug, "forgejo request",
				slog.String("op", call.Operation), slog.String("method", call.Method),
				slog.String("url", call.URL), slog.Int("attempt", call.Attempt))
		},
		Response: func(ctx context.Context, call CallContext, status int) {
			l.LogAttrs(ctx, slog.LevelDebug, "forgejo response",
				slog.String("op", call.Operation), slog.Int("status", status),
				slog.Int("attempt", call.Attempt), slog.Duration("duration", call.Duration),
				slog.String("request_id", call.RequestID))
		},
		Error: func(ctx context.Context, call CallContext, err error) {
			level, msg := slog.LevelDebug, "forgejo attempt failed"
			if call.Final {
				level, msg = slog.LevelInfo, "forgejo call failed"
			}
			l.LogAttrs(ctx, level, msg,
				slog.String("op", call.Operation), slog.String("method", call.Method),
				slog.String("url", call.URL), slog.Int("attempt", call.Attempt),
				slog.String("error", err.Error()))
		},
		Retry: func(ctx context.Context, call CallContext, err error, wait time.Duration) {
			l.LogAttrs(ctx, slog.LevelInfo, "forgejo retrying",
				slog.String("op", call.Operation), slog.Int("attempt", call.Attempt),
				slog.Duration("wait", wait), slog.String("error", err.Error()))
		},
		RateLimit: func(ctx context.Context, call CallContext, rl RateLimit) {
			l.LogAttrs(ctx, slog.LevelDebug, "forgejo rate limit",
				slog.String("op", call.Operation), slog.Int64("remaining", rl.Remaining),
				slog.Duration("reset", rl.Reset), slog.String("source", rl.Source))
		},
		RateLimitWait: func(ctx context.Context, call CallContext, wait time.Duration) {
			l.LogAttrs(ctx, slog.LevelInfo, "forgejo waiting for the rate limit to reset",
				slog.String("op", call.Operation), slog.Duration("wait", wait))
		},
		PacerFallback: func(ctx context.Context, call CallContext, err error) {
			l.LogAttrs(ctx, slog.LevelWarn, "forgejo pacer failed; pacing locally",
				slog.String("op", call.Operation), slog.String("error", err.Error()))
		},
	}
}
