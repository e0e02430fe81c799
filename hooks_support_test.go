package forgejo

import (
	"context"
	"log/slog"
	"net/http"
	"time"
)

// The tests' recorders are written as types with one method per event, the
// shape observers had before Hooks; withObserver registers one, through
// hooksFor, which sets the field of every method the value has.

type tObserver interface {
	OnRequest(ctx context.Context, call CallContext)
	OnResponse(ctx context.Context, call CallContext, status int)
	OnError(ctx context.Context, call CallContext, err error)
}

type tRetryObserver interface {
	OnRetry(ctx context.Context, call CallContext, err error, wait time.Duration)
}

type tRateLimitObserver interface {
	OnRateLimit(ctx context.Context, call CallContext, rl RateLimit)
	OnRateLimitWait(ctx context.Context, call CallContext, wait time.Duration)
}

type tPacerObserver interface {
	OnPacerFallback(ctx context.Context, call CallContext, err error)
}

type tContextObserver interface {
	StartCall(ctx context.Context, call CallContext) context.Context
	EndCall(ctx context.Context, call CallContext, status int, err error)
}

type tHeaderObserver interface {
	InjectHeaders(ctx context.Context, call CallContext, h http.Header)
}

// hooksFor returns the Hooks of o: o itself when it is a Hooks, a
// hooksObserver's, or one field per method o has.
func hooksFor(o any) Hooks {
	switch o := o.(type) {
	case nil:
		return Hooks{}
	case Hooks:
		return o
	case hooksObserver:
		return o.h
	}
	var h Hooks
	if ob, ok := o.(tObserver); ok {
		h.Request, h.Response, h.Error = ob.OnRequest, ob.OnResponse, ob.OnError
	}
	if ob, ok := o.(tRetryObserver); ok {
		h.Retry = ob.OnRetry
	}
	if ob, ok := o.(tRateLimitObserver); ok {
		h.RateLimit, h.RateLimitWait = ob.OnRateLimit, ob.OnRateLimitWait
	}
	if ob, ok := o.(tPacerObserver); ok {
		h.PacerFallback = ob.OnPacerFallback
	}
	if ob, ok := o.(tContextObserver); ok {
		h.StartCall, h.EndCall = ob.StartCall, ob.EndCall
	}
	if ob, ok := o.(tHeaderObserver); ok {
		h.InjectHeaders = ob.InjectHeaders
	}
	return h
}

// withObserver registers o's methods as hooks.
func withObserver(o any) ClientOption { return WithHooks(hooksFor(o)) }

// hooksObserver is a Hooks seen as a recorder with methods, so that a
// recorder can forward to it (NewSlogHooks behind a test's capture).
type hooksObserver struct{ h Hooks }

func (o hooksObserver) OnRequest(ctx context.Context, call CallContext) {
	if o.h.Request != nil {
		o.h.Request(ctx, call)
	}
}

func (o hooksObserver) OnResponse(ctx context.Context, call CallContext, status int) {
	if o.h.Response != nil {
		o.h.Response(ctx, call, status)
	}
}

func (o hooksObserver) OnError(ctx context.Context, call CallContext, err error) {
	if o.h.Error != nil {
		o.h.Error(ctx, call, err)
	}
}

func (o hooksObserver) OnRetry(ctx context.Context, call CallContext, err error, wait time.Duration) {
	if o.h.Retry != nil {
		o.h.Retry(ctx, call, err, wait)
	}
}

func (o hooksObserver) OnRateLimit(ctx context.Context, call CallContext, rl RateLimit) {
	if o.h.RateLimit != nil {
		o.h.RateLimit(ctx, call, rl)
	}
}

func (o hooksObserver) OnRateLimitWait(ctx context.Context, call CallContext, wait time.Duration) {
	if o.h.RateLimitWait != nil {
		o.h.RateLimitWait(ctx, call, wait)
	}
}

func (o hooksObserver) OnPacerFallback(ctx context.Context, call CallContext, err error) {
	if o.h.PacerFallback != nil {
		o.h.PacerFallback(ctx, call, err)
	}
}

// slogObserver is NewSlogHooks as a recorder with methods.
func slogObserver(l *slog.Logger) tObserver { return hooksObserver{NewSlogHooks(l)} }
