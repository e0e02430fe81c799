package forgejotest

import (
	"bytes"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"
)

// RecordedRequest is one request the server received, in arrival order.
type RecordedRequest struct {
	Method string
	// Path is the URL path as received, such as
	// "/api/v1/repos/alice/demo/issues".
	Path string
	// RawQuery and Query are the query string, raw and parsed.
	RawQuery string
	Query    url.Values
	// Body is the request body. Of an upload (an attachment or a release
	// asset, streamed and never held whole) or a body too large to be
	// answered, only the first MiB is kept.
	Body []byte
	// BodySize is the body's size in bytes as received: len(Body) unless
	// only its beginning was kept. For an upload refused before its end
	// (too large), what had been read then.
	BodySize int64
	// Operation is the operationId the request addressed, or "" when the
	// path matches no known operation. With [WithRelease] it names an
	// operation that release does not serve too (answered 404 or 405).
	Operation string
	// Status is the status answered; 0 when nothing was answered (a
	// connection reset, a client that gave up during a delay) or while the
	// request is still being answered.
	Status int
	// Fault says what an injected fault or the rate limiter did to the
	// request, or "" when nothing did.
	Fault string
	// Time is when it arrived, on the server's clock.
	Time time.Time
}

// Requests returns a copy of every request received so far.
func (s *Server) Requests() []RecordedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]RecordedRequest, len(s.log))
	for i, e := range s.log {
		r := *e
		r.Query = maps.Clone(r.Query)
		r.Body = bytes.Clone(r.Body)
		out[i] = r
	}
	return out
}

// Count is how many requests addressed the operation, whatever they were
// answered: Count("issueCreateIssue") == 1 asserts "filed exactly once".
func (s *Server) Count(operationID string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.log {
		if r.Operation == operationID {
			n++
		}
	}
	return n
}

// CountPath is how many requests had this method ("" for any) and path
// (relative to the API root, or with its /api/v1 prefix).
func (s *Server) CountPath(method, path string) int {
	if !strings.HasPrefix(path, "/api/v1") {
		path = "/api/v1/" + strings.TrimPrefix(path, "/")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.log {
		if (method == "" || strings.EqualFold(method, r.Method)) && r.Path == path {
			n++
		}
	}
	return n
}

// Operations is the sorted, de-duplicated list of operationIds received.
func (s *Server) Operations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ops []string
	for _, r := range s.log {
		if r.Operation != "" {
			ops = append(ops, r.Operation)
		}
	}
	slices.Sort(ops)
	return slices.Compact(ops)
}

// ResetRequests forgets the requests received so far.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	s.log = nil
	s.mu.Unlock()
}
