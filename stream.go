package forgejo

import (
	"context"
	"io"
	"net/http"
	"sync"
	"time"
)

// This file holds the streaming form of the operations that return file
// content (the Open… methods): the caller reads the body as it arrives,
// within the download bound, in flat memory. The request is retried like
// any read until an answer's headers arrive; once the caller holds the
// body, nothing is repeated behind its back: a stream that fails midway
// returns a *TransportError from Read.

// stream runs r and returns the success body as a reader bounded by the
// download limit. The caller must close it. This is the one place a stream
// call's result is decided: it never returns a nil reader with a nil
// error. A 304 to a conditional call ([IfNoneMatch], [IfModifiedSince])
// has no body to stream: it gives an empty reader (http.NoBody, which
// reads EOF and closes without error) with Response.NotModified true, so
// that the usual defer rc.Close() holds. A failure gives a nil reader and
// the error.
func (c *Client) stream(ctx context.Context, r *request) (io.ReadCloser, *Response, error) {
	r.result = resultStream
	var body io.ReadCloser
	resp, err := c.call(ctx, r, &body)
	if err != nil {
		return nil, resp, err
	}
	if body == nil {
		body = http.NoBody // a 304: nothing to read, still something to close
	}
	return body, resp, nil
}

// handOffStream finishes an attempt whose 2xx body is streamed: it
// records the answer like any other, refuses a declared length past the
// bound, and hands the body to the caller.
func (c *Client) handOffStream(ctx context.Context, red redactor, call *CallContext, start time.Time, hresp *http.Response,
	limit int64, cancel context.CancelFunc, out any, handedOff *bool) (*Response, error) {
	resp := c.recordAnswer(ctx, red, call, start, hresp)
	if hresp.ContentLength > limit {
		hresp.Body.Close()
		return resp, &TransportError{Call: *call, Kind: TransportResponseTooLarge, Err: errResponseTooLarge}
	}
	*handedOff = true
	*(out.(*io.ReadCloser)) = &boundedBody{body: hresp.Body, limit: limit, cancel: cancel, client: c, red: red, call: *call, ctx: ctx}
	return resp, nil
}

// boundedBody is a streamed success body: it fails, once the bound is
// passed, with the same response-too-large *TransportError a buffered call
// gets, and turns a failure midway into a scrubbed *TransportError.
type boundedBody struct {
	body   io.ReadCloser
	limit  int64
	read   int64
	cancel context.CancelFunc
	client *Client
	red    redactor
	call   CallContext
	ctx    context.Context

	mu  sync.Mutex
	err error // sticky
}

// Read reads the body, enforcing the download bound as it goes.
func (b *boundedBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return 0, b.err
	}
	if room := b.limit - b.read + 1; int64(len(p)) > room {
		p = p[:room] // read one byte past the bound at most, to notice it
	}
	n, err := b.body.Read(p)
	b.read += int64(n)
	if b.read > b.limit {
		n -= int(b.read - b.limit)
		b.err = &TransportError{Call: b.call, Kind: TransportResponseTooLarge, Err: errResponseTooLarge}
		return n, b.err
	}
	switch err {
	case nil, io.EOF:
		return n, err
	}
	b.err = b.client.transportError(b.ctx, b.red, b.call, err)
	return n, b.err
}

// Close releases the connection; reading afterwards fails.
func (b *boundedBody) Close() error {
	err := b.body.Close()
	b.cancel()
	return err
}
