package forgejo

import (
	"context"
	"errors"
)

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

// startCall gives a ContextObserver the start of a call. It returns the ctx
// the call runs with and the function the pipeline calls with the call's
// results when it returns.
func (c *Client) startCall(ctx context.Context, call CallContext) (context.Context, func(*Response, error)) {
	co, ok := c.observer.(ContextObserver)
	if !ok {
		return ctx, endNothing
	}
	start := c.now()
	if nctx := safeStartCall(co, ctx, call); nctx != nil && nctx.Done() == ctx.Done() {
		ctx = nctx
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
		defer func() { _ = recover() }()
		co.EndCall(ctx, end, status, err)
	}
}

func endNothing(*Response, error) {}

func safeStartCall(co ContextObserver, ctx context.Context, call CallContext) (nctx context.Context) {
	defer func() {
		if recover() != nil {
			nctx = nil
		}
	}()
	return co.StartCall(ctx, call)
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
