package forgejo

import (
	"context"
	"errors"
)

// This file is what a ContextObserver (observer.go) sees of a call: its
// start, the ctx the call then runs with, and its end.

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
