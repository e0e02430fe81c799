package forgejo

import (
	"net/http"
	"strconv"
	"strings"
)

// Response is the HTTP metadata of a call. Every call returns a non-nil
// *Response, whatever happened: after a rejected argument, a network
// failure or a cancellation its StatusCode is 0 and its Header is empty,
// and every field and method can be read without a nil check. (Its methods
// are also safe on a nil *Response.)
type Response struct {
	// StatusCode is the HTTP status of the last attempt's answer; 0 when no
	// answer arrived.
	StatusCode int
	// Header is the last answer's header as the server sent it (not
	// scrubbed: it is the caller's own data); empty, never nil, when no
	// answer arrived. Prefer RequestID and RateLimit, which are.
	Header http.Header
	// ContentLength is the last answer's Content-Length; -1 when unknown.
	ContentLength int64

	// NextPage, PrevPage, FirstPage and LastPage are the page numbers the
	// Link header offers; 0 means not offered. They come from Link only,
	// never from counting items: instances clamp the page size silently, so a
	// short page does not mean the last one.
	NextPage, PrevPage, FirstPage, LastPage int

	// Attempts is how many attempts the call took (1 when not retried).
	Attempts int

	// NotModified is true when a conditional call ([IfNoneMatch],
	// [IfModifiedSince]) was answered 304 Not Modified: the call returned
	// no error and the zero result (nil, "", false; an Open… method an
	// empty reader, still to be closed), and the copy the caller holds is
	// current.
	NotModified bool

	totalCount  int
	hasTotal    bool
	client      *Client // the client that made the call: what a walk may prefetch with (pagination.go)
	nextOffered bool    // a rel="next" link was present, readable or not
	hasLink     bool    // the response carried at least one Link element
	rateLimit   *RateLimit
	requestID   string // X-Request-Id, scrubbed
}

// noResult reports whether a call has no result to return: it failed, or
// a conditional call was answered 304 Not Modified. Every operation then
// returns its zero result, whatever it had allocated to decode into; this
// is the one test of it, in every generated method (internal/gen,
// emitMethod) and every hand-written one.
func noResult(resp *Response, err error) bool {
	return err != nil || resp != nil && resp.NotModified
}

// newResponse reads the status and the paging headers of r; a nil r gives
// the empty Response of a call that got no answer.
func newResponse(r *http.Response) *Response {
	if r == nil {
		return &Response{Header: http.Header{}, ContentLength: -1}
	}
	resp := &Response{}
	resp.StatusCode, resp.ContentLength = r.StatusCode, r.ContentLength
	if r.Header != nil {
		resp.Header = r.Header
	} else {
		resp.Header = http.Header{}
	}
	if values := r.Header.Values("Link"); len(values) > 0 {
		pl := parseLinks(values)
		resp.NextPage, resp.PrevPage, resp.FirstPage, resp.LastPage = pl.next, pl.prev, pl.first, pl.last
		resp.nextOffered, resp.hasLink = pl.nextOffered, pl.any
	}
	resp.totalCount, resp.hasTotal = parseTotalCount(r.Header)
	return resp
}

// TotalCount returns the X-Total-Count header: the size of the whole
// collection, when the instance sent a readable one. ok false means unknown,
// which is normal and different from zero.
func (r *Response) TotalCount() (n int, ok bool) {
	if r == nil {
		return 0, false
	}
	return r.totalCount, r.hasTotal
}

// RequestID returns the X-Request-Id header, when sent, with any echo of
// the client's secrets masked.
func (r *Response) RequestID() string {
	if r == nil {
		return ""
	}
	return r.requestID
}

// parseTotalCount reads X-Total-Count: trimmed, an integer ≥ 0, else
// unknown.
func parseTotalCount(h http.Header) (int, bool) {
	v := strings.TrimSpace(h.Get("X-Total-Count"))
	if v == "" {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}
