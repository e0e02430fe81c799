package forgejo

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"
)

// This file is one attempt: build the http.Request (httprequest.go), send
// it, read the answer within its bound (bodyread.go), map the status
// (status.go), decode (decode.go), and record the answer for the caller,
// the rate-limit state and the hooks.

// pacedAttempt is attempt, ending what pace began (the attempt is no longer
// in flight, pacing.go) on every exit path, a panic's included: a slot
// left taken would make every later paced call wait.
func (c *Client) pacedAttempt(ctx context.Context, r *request, red redactor, sendURL string, call *CallContext, out any) (*Response, error) {
	defer c.paceDone()
	return c.attempt(ctx, r, red, sendURL, call, out)
}

// attempt sends the request once and reads its answer.
func (c *Client) attempt(ctx context.Context, r *request, red redactor, sendURL string, call *CallContext, out any) (*Response, error) {
	c.notifyRequest(ctx, *call)
	streaming := r.result == resultStream
	actx, cancel := ctx, context.CancelFunc(func() {})
	stopTimer := func() bool { return false }
	switch {
	case streaming:
		// A stream's body outlives the attempt: the attempt timeout bounds
		// the wait for the answer's headers, and the body's Close ends the
		// request.
		actx, cancel = context.WithCancel(ctx)
		if c.attemptTimeout > 0 {
			stopTimer = time.AfterFunc(c.attemptTimeout, cancel).Stop
		}
	case c.attemptTimeout > 0:
		actx, cancel = context.WithTimeout(ctx, c.attemptTimeout)
	}
	handedOff := false
	defer func() {
		if !handedOff {
			cancel()
		}
	}()

	hreq, err := c.newHTTPRequest(actx, r, red, sendURL, *call)
	if tse, ok := err.(errTokenSource); ok {
		return nil, &AuthError{Call: *call, Err: red.scrubError(tse.err)}
	}
	if err != nil {
		// The URL was validated at construction; this is unreachable short
		// of a bug, and must not echo the URL. Nothing was sent, and a
		// request that cannot be built never can be: not retryable.
		return nil, &ValidationError{Field: "request", Message: "could not be built"}
	}

	start := c.now()
	hresp, err := c.httpClient.Do(hreq)
	if err != nil {
		call.Duration = c.now().Sub(start)
		return nil, c.transportError(ctx, red, *call, err)
	}
	limit := c.maxResponseBytes
	if r.result == resultBytes || streaming {
		limit = c.maxDownloadBytes
	}
	success := hresp.StatusCode >= 200 && hresp.StatusCode < 300
	if streaming && success {
		stopTimer()
		return c.handOffStream(ctx, red, call, start, hresp, limit, cancel, out, &handedOff)
	}
	pad := 0
	if !success {
		// An error body is only parsed, never returned. Past the bound it
		// is cut, but first read a little further, so that a secret
		// straddling the cut is scrubbed whole.
		limit = min(limit, maxErrorBody)
		pad = red.pad()
	}
	// A JSON success body is only decoded, and decoding copies what it
	// keeps (encoding/json's contract for UnmarshalJSON too), so it is read
	// into a pooled buffer, handed back once decoded.
	pooled := success && (r.result == resultJSON || r.result == resultWithheld)
	data, held, rerr := readBody(hresp, limit, pad, !success, pooled)
	defer releaseBody(held)
	resp := c.recordAnswer(ctx, red, call, start, hresp)
	if rerr != nil {
		return resp, c.transportError(ctx, red, *call, rerr)
	}

	if !success {
		if r.result == resultBool && hresp.StatusCode == http.StatusNotFound {
			*(out.(*bool)) = false
			return resp, nil
		}
		if hresp.StatusCode == http.StatusNotModified && r.conditional() {
			resp.NotModified = true
			return resp, nil
		}
		return resp, c.statusError(r.op, red, *call, hresp, data)
	}
	if err := c.decode(r, data, out); err != nil {
		snip := red.snippet(data)
		if r.result == resultWithheld {
			snip = "*** (" + strconv.Itoa(len(data)) + " bytes withheld)"
		}
		if msg := err.Error(); red.scrub(msg) != msg {
			// The cause quotes the body, and the body carries a secret:
			// keep the message, drop the quote.
			err = errors.New(red.scrub(msg))
		}
		return resp, &DecodeError{Call: *call, Path: red.scrub(decodePath(err)), Snippet: snip, Err: err}
	}
	return resp, nil
}

// recordAnswer is what every answer that arrived goes through, streamed
// or read: the attempt's duration and scrubbed request ID, the Response
// with its paging headers, the rate-limit snapshot (to the client's limits,
// the Pacer and the RateLimit hook) and the Response hook.
func (c *Client) recordAnswer(ctx context.Context, red redactor, call *CallContext, start time.Time, hresp *http.Response) *Response {
	now := c.now()
	call.Duration = now.Sub(start)
	call.RequestID = red.scrub(hresp.Header.Get("X-Request-Id"))
	resp := newResponse(hresp)
	resp.requestID = call.RequestID
	resp.client = c // a walk reads its concurrency and pacing from the client that answered
	if rl, ok := parseRateLimit(hresp.Header, now); ok {
		red.scrubRateLimit(rl)
		resp.rateLimit = rl
		c.limits.observe(rl, rl.ReceivedAt)
		c.notifyRateLimit(ctx, *call, *rl)
	}
	c.observePacer(ctx, *call, hresp, resp.rateLimit)
	c.notifyResponse(ctx, *call, hresp.StatusCode)
	return resp
}
