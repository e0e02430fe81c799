package forgejo

import (
	"context"
	"slices"
)

// This file is the loop every operation goes through: build the URL once,
// then for each attempt pace, send and read the answer (attempt.go), and
// between attempts ask the retry policy (retry.go) and the retry budget
// (retry_budget.go) whether and when to try again. Operations only describe
// requests: no operation decides what a status means.

// call runs a request through the retry loop and decodes the success body
// into out (a pointer; nil to ignore the body). The *Response is never nil
// (see Response).
func (c *Client) call(ctx context.Context, r *request, out any) (*Response, error) {
	resp, err := c.send(ctx, r, out)
	if resp == nil {
		resp = newResponse(nil) // no answer arrived: still a usable Response
	}
	return resp, err
}

// send labels the call, builds its URL once, and runs its attempts
// (roundTrips) between the StartCall and EndCall hooks. Its
// *Response is nil when the call was refused before sending or canceled
// while waiting for its pacing slot.
func (c *Client) send(ctx context.Context, r *request, out any) (*Response, error) {
	c.admit(ctx, r) // version_check.go: may refuse (r.err) or re-target r.path
	red := c.redactor(r)
	// Every caller-supplied label (Client.Do's Operation, Method and Path)
	// reaches errors, hooks, spans and metrics: scrubbed and bounded
	// here, once, like any text from the server.
	opID, method := bound(red.scrub(r.op.ID)), bound(red.scrub(r.op.Method))
	route := bound(red.scrub(r.op.Path)) // Client.Do's route is the caller's path
	if r.err != nil {
		call := CallContext{Operation: opID, Method: method, Route: route, URL: "(not sent)", Final: true}
		c.notifyError(ctx, call, r.err)
		return nil, r.err
	}
	query := r.query
	if r.extra != nil && len(r.extra.query) > 0 {
		query = append(slices.Clip(query), r.extra.query...)
	}
	base := c.baseURL
	if r.root {
		base = c.instanceRoot()
	}
	sendURL, redacted := buildURL(base, r.path, query)
	call := CallContext{Operation: opID, Method: method, Route: route, URL: red.scrub(redacted)}
	// The StartCall and EndCall hooks (hooks.go): the ctx StartCall returns
	// is the one every attempt, wait and later hook uses; EndCall sees the
	// end of the call, also when a panic passes through.
	ctx, end := c.startCall(ctx, call)
	var resp *Response
	var err error
	defer func() { end(resp, err) }()
	resp, err = c.roundTrips(ctx, r, red, sendURL, call, out)
	return resp, err
}

// roundTrips is the retry loop: it paces and makes attempts until one
// succeeds, or its failure may not or need not be repeated (the
// operation's eligibility, the retry policy's MaxAttempts, the retry
// budget), or the caller gives up while waiting. A failure that was
// repeated and still failed is a *RetriesExhaustedError. base is the
// call's context; each attempt's is base with its number.
func (c *Client) roundTrips(ctx context.Context, r *request, red redactor, sendURL string, base CallContext, out any) (*Response, error) {
	for n := 1; ; n++ {
		call := base
		call.Attempt = n
		if perr := c.pace(ctx, call); perr != nil {
			final := &TransportError{Call: call, Kind: TransportCanceled, Err: perr}
			call.Final = true
			c.notifyError(ctx, call, final)
			return nil, final
		}
		resp, err := c.pacedAttempt(ctx, r, red, sendURL, &call, out)
		if resp == nil {
			resp = newResponse(nil) // no answer arrived: the attempt still counts
		}
		resp.Attempts = n
		if err == nil {
			c.budget.recordOutcome(true, false)
			return resp, nil
		}
		c.notifyError(ctx, call, err)
		canRetry := retryable(err)
		c.budget.recordOutcome(false, canRetry)
		eligible := r.op.Retry.allows(r.op.Method) && canRetry
		if !eligible || n >= c.retry.MaxAttempts || !c.budget.allowRetry() {
			final := err
			if eligible && n > 1 {
				final = &RetriesExhaustedError{Call: call, Attempts: n, Last: err}
			}
			call.Final = true
			c.notifyError(ctx, call, final)
			return resp, final
		}
		wait := c.delay(n, err)
		c.notifyRetry(ctx, call, err, wait)
		if serr := c.sleep(ctx, wait); serr != nil {
			// The caller gave up during the backoff: report that, not the
			// failure we were about to retry.
			final := &TransportError{Call: call, Kind: TransportCanceled, Err: serr}
			call.Final = true
			c.notifyError(ctx, call, final)
			return resp, final
		}
	}
}
