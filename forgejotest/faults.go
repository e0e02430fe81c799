package forgejotest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Fault is a failure to inject into the answers of matching requests. Name
// the requests by Operation (an operationId such as "issueListIssues") or by
// Path (relative to the API root, or with the /api/v1 prefix; a template
// such as "/repos/{owner}/{repo}/issues" works too) with an optional Method.
//
// A fault covers len(Statuses) matching requests, or Times of them (default
// 1) when Statuses is empty; then it is used up. Faults are consumed in the
// order they were injected; a request takes a step of the first fault that
// matches it and is not used up. Every request a fault touched shows it in
// [RecordedRequest.Fault].
type Fault struct {
	Operation string
	Method    string
	Path      string

	// Statuses are answered in order, one per matching request, instead of
	// the real answer; 0 means "answer for real" for that request. With the
	// injected statuses go RetryAfter, Header and Body.
	Statuses []int
	// RetryAfter is sent verbatim as Retry-After with each injected status:
	// delta seconds ("1") or an HTTP-date.
	RetryAfter string
	// RetryAfterDate, when positive, sends Retry-After as an HTTP-date this
	// far after the response's Date header (both from the server's clock).
	RetryAfterDate time.Duration
	// Header adds headers to injected statuses.
	Header http.Header
	// Body replaces the injected statuses' body (default: Forgejo's JSON
	// error body with the status text as message).
	Body string

	// Reset closes the connection without answering (the client sees a
	// reset or an EOF). It cannot be combined with Statuses. Note that
	// net/http itself resends a GET once, on a new connection, when a
	// reused keep-alive connection drops before any answer: to make a reset
	// reach the client library on such a connection, use Times: 2.
	Reset bool
	// Delay waits before answering; if the client gives up first (its ctx
	// ends), nothing is answered.
	Delay time.Duration
	// TruncateBody sends a Content-Length larger than the body, then only
	// half of the body, and closes the connection.
	TruncateBody bool
	// OversizeBody pads the body with spaces (still valid JSON) to this many
	// bytes, to trip a client's response size bound.
	OversizeBody int64
	// Times is how many requests a fault without Statuses covers (default 1).
	Times int
}

type pendingFault struct {
	f     Fault
	tmpl  *template
	used  int
	total int
}

type faultStep struct {
	f      Fault
	status int // injected status, 0 to answer for real
	n      int // 1-based step within the fault
}

// Inject queues a fault. An invalid fault (no target, an unknown operation,
// Reset with Statuses, a status outside 100–599) fails the test, or panics
// for a server from [Start].
func (s *Server) Inject(f Fault) {
	if s.tb != nil {
		s.tb.Helper()
	}
	pf, err := s.checkFault(f)
	if err != nil {
		s.fatalf("Inject: %v", err)
	}
	s.mu.Lock()
	s.faults = append(s.faults, pf)
	s.mu.Unlock()
}

func (s *Server) checkFault(f Fault) (*pendingFault, error) {
	pf := &pendingFault{f: f, total: max(f.Times, 1)}
	if len(f.Statuses) > 0 {
		pf.total = len(f.Statuses)
	}
	switch {
	case f.Operation == "" && f.Path == "":
		return nil, fmt.Errorf("a fault needs an Operation or a Path")
	case f.Reset && len(f.Statuses) > 0:
		return nil, fmt.Errorf("a fault cannot both reset the connection and answer statuses")
	case f.Delay < 0 || f.Times < 0 || f.OversizeBody < 0:
		return nil, fmt.Errorf("negative Delay, Times or OversizeBody")
	}
	for _, st := range f.Statuses {
		if st != 0 && (st < 100 || st > 599) {
			return nil, fmt.Errorf("status %d is not an HTTP status", st)
		}
	}
	if f.Operation != "" {
		if _, _, ok := s.opByID(f.Operation); !ok {
			return nil, fmt.Errorf("unknown operation %q", f.Operation)
		}
	}
	if f.Path != "" {
		p := strings.TrimPrefix(f.Path, "/api/v1")
		if i := strings.IndexByte(p, '?'); i >= 0 {
			p = p[:i]
		}
		t := compileTemplate(p)
		pf.tmpl = &t
	}
	return pf, nil
}

// takeFault returns the step of the first pending fault that matches, and
// consumes it. Called with s.mu held.
func (s *Server) takeFault(method, apiPath, op string) *faultStep {
	var parts []string
	for i, pf := range s.faults {
		f := pf.f
		if f.Method != "" && !strings.EqualFold(f.Method, method) {
			continue
		}
		if f.Operation != "" && f.Operation != op {
			continue
		}
		if pf.tmpl != nil {
			if parts == nil {
				var ok bool
				if parts, ok = pathParts(apiPath); !ok {
					return nil
				}
			}
			if _, ok := pf.tmpl.match(parts); !ok {
				continue
			}
		}
		step := &faultStep{f: f, n: pf.used + 1}
		if len(f.Statuses) > 0 {
			step.status = f.Statuses[pf.used]
		}
		pf.used++
		if pf.used >= pf.total {
			s.faults = append(s.faults[:i], s.faults[i+1:]...)
		}
		return step
	}
	return nil
}

// PendingFaults is how many injected requests' worth of faults have not been
// used yet: assert it is 0 to know every fault was exercised.
func (s *Server) PendingFaults() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, pf := range s.faults {
		n += pf.total - pf.used
	}
	return n
}

// describe is the log's account of what the fault did.
func (st *faultStep) describe() string {
	if st == nil {
		return ""
	}
	var parts []string
	if st.f.Delay > 0 {
		parts = append(parts, "delay "+st.f.Delay.String())
	}
	if st.f.Reset {
		parts = append(parts, "connection reset")
	}
	if st.status != 0 {
		parts = append(parts, "status "+strconv.Itoa(st.status))
	}
	if st.f.TruncateBody {
		parts = append(parts, "truncated body")
	}
	if st.f.OversizeBody > 0 {
		parts = append(parts, "oversized body")
	}
	if len(parts) == 0 {
		return "passed through"
	}
	return strings.Join(parts, ", ")
}

// injected builds the answer of an injected status.
func (st *faultStep) injected(s *Server, now time.Time) *response {
	h := http.Header{}
	for k, vs := range st.f.Header {
		h[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
	switch {
	case st.f.RetryAfterDate > 0:
		h.Set("Retry-After", now.Add(st.f.RetryAfterDate).UTC().Format(http.TimeFormat))
	case st.f.RetryAfter != "":
		h.Set("Retry-After", st.f.RetryAfter)
	}
	body := []byte(st.f.Body)
	if st.f.Body == "" && st.status != http.StatusNoContent && st.status != http.StatusNotModified {
		body, _ = json.Marshal(errorBody{Message: http.StatusText(st.status), URL: s.URL + "/api/swagger"})
		if h.Get("Content-Type") == "" {
			h.Set("Content-Type", jsonType)
		}
	}
	return &response{status: st.status, header: h, body: body}
}
