package forgejo

import (
	"net/http"
	"strconv"
	"strings"
)

// Response is the HTTP metadata of a call. It is returned, non-nil, whenever
// a response arrived, on success and on an [*APIError] alike; its methods are
// safe on a nil *Response.
//
// The embedded *http.Response keeps the status and headers; its body has
// already been read and closed.
type Response struct {
	*http.Response

	// NextPage, PrevPage, FirstPage and LastPage are the page numbers the
	// Link header offers; 0 means not offered. They come from Link only,
	// never from counting items: instances clamp the page size silently, so a
	// short page does not mean the last one.
	NextPage, PrevPage, FirstPage, LastPage int

	// Attempts is how many attempts the call took (1 when not retried).
	Attempts int

	// NotModified is true when a conditional call ([IfNoneMatch],
	// [IfModifiedSince]) was answered 304 Not Modified: the call returned
	// no error and the zero result, and the copy the caller holds is
	// current.
	NotModified bool

	totalCount  int
	hasTotal    bool
	nextOffered bool // a rel="next" link was present, readable or not
	hasLink     bool // the response carried at least one Link element
	rateLimit   *RateLimit
	requestID   string // X-Request-Id, scrubbed
}

// newResponse reads the paging headers of r.
func newResponse(r *http.Response) *Response {
	resp := &Response{Response: r}
	if r == nil {
		return resp
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
