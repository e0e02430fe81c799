package forgejo

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"slices"
)

// This file builds one attempt's *http.Request from a request: the body,
// the headers the pipeline owns, the per-call headers, the credential and
// what the InjectHeaders hook adds.

// noReplayBody is the body of a request that must not be repeated but has
// none of its own (a GET, HEAD or OPTIONS sent through Client.Do with
// Never). net/http silently re-sends a bodiless GET, HEAD or OPTIONS once
// when a reused keep-alive connection dies before the answer; it never
// re-sends a request whose body it cannot rewind (Request.GetBody nil).
// This body is empty, so nothing extra goes on the wire: net/http probes it,
// finds EOF and sends no body and no Content-Length.
type noReplayBody struct{}

func (noReplayBody) Read([]byte) (int, error) { return 0, io.EOF }

func (noReplayBody) Close() error { return nil }

// replayedByTransport reports whether net/http may re-send a bodiless
// request with this method on its own.
func replayedByTransport(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return true
	}
	return false
}

// newHTTPRequest builds one attempt's request: the method, the URL, the
// body, the headers the pipeline owns, the per-call headers, the
// credential, which nothing can override, and last what the InjectHeaders
// hook adds (hooks.go), which never replaces a header.
func (c *Client) newHTTPRequest(ctx context.Context, r *request, red redactor, sendURL string, call CallContext) (*http.Request, error) {
	var body io.Reader
	switch {
	case r.stream != nil:
		sb, err := r.stream.open()
		if err != nil {
			return nil, err
		}
		body = sb
	case r.body != nil:
		body = bytes.NewReader(r.body)
	}
	var perCall http.Header
	if r.extra != nil {
		perCall = r.extra.headers
	}
	observed := c.hookHeaders(ctx, call)
	if stripped := redirectStripped(perCall, observed); len(stripped) > 0 {
		// The redirect rule strips these off the base URL's origin
		// (withSafeRedirects).
		ctx = context.WithValue(ctx, perCallHeadersKey{}, stripped)
	}
	hreq, err := http.NewRequestWithContext(ctx, r.op.Method, sendURL, body)
	if err != nil {
		return nil, err
	}
	if r.stream != nil {
		// Its exact length, so nothing is buffered or chunked; and it
		// cannot rewind, so no layer below may repeat it.
		hreq.ContentLength, hreq.GetBody = r.stream.length, nil
	} else if r.body == nil && replayedByTransport(r.op.Method) && !r.op.Retry.allows(r.op.Method) {
		hreq.Body, hreq.GetBody = noReplayBody{}, nil
	} else if r.body != nil && !r.op.Retry.allows(r.op.Method) {
		hreq.GetBody = nil // a write is sent once; no layer below may repeat it
	}
	// The pipeline's own header names are written in canonical form
	// directly; per-call headers arrive canonical (callopts.go).
	h := hreq.Header
	if r.extra != nil {
		for name, values := range r.extra.headers {
			h[name] = slices.Clone(values)
		}
	}
	// One backing array for the pipeline's header values; each value is a
	// full slice of its own, so that an append never writes into another.
	vals := make([]string, 4)
	set := func(i int, name, value string) {
		vals[i] = value
		h[name] = vals[i : i+1 : i+1]
	}
	if r.bodyType != "" {
		set(0, "Content-Type", r.bodyType)
	}
	if v := h["Accept"]; len(v) == 0 || v[0] == "" {
		switch r.result {
		case resultJSON, resultBool, resultNone, resultWithheld:
			set(1, "Accept", "application/json")
		default:
			set(1, "Accept", "*/*")
		}
	}
	set(2, "User-Agent", c.userAgent)
	auth, err := c.authorization(ctx, r.extra, red.call)
	if err != nil {
		return nil, errTokenSource{err}
	}
	if auth != "" {
		set(3, "Authorization", auth)
	}
	for name, values := range observed {
		if _, taken := h[name]; !taken {
			h[name] = values
		}
	}
	return hreq, nil
}

// errTokenSource marks a token source's failure while building a request.
type errTokenSource struct{ err error }

func (e errTokenSource) Error() string { return e.err.Error() }
