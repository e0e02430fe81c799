package forgejo

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// This file is the request: one call's inputs as an operation method builds
// them (the path with its arguments, the query, the body, the result kind,
// the per-call options), and the builders the generated operations use,
// each checking its argument before anything is sent. The attempt's
// *http.Request is built from it in httprequest.go.

// request is one call's inputs, built by an operation method.
type request struct {
	op       *Operation
	path     string // encoded, starting with "/"
	query    []queryParam
	body     []byte
	stream   *bodyStream // a body streamed from the caller's reader instead (uploads.go); sent once
	bodyType string      // Content-Type of body or stream
	result   resultKind
	extra    *callOptions // per-call options; nil when none
	err      error        // a validation failure while building: nothing is sent
	args     []pathArg    // the path's arguments, for re-targeting (version_check.go)
	argBuf   [3]pathArg   // args' storage for the usual few, saving an allocation
	root     bool         // path is below the instance root, not the API's (OpenAttachment)
}

// newRequest starts a request for op, expanding its path template with args.
func newRequest(op *Operation, args ...pathArg) *request {
	r := &request{op: op}
	r.args = append(r.argBuf[:0], args...)
	r.path, r.err = expandPath(op.Path, args...)
	return r
}

// addQuery appends a query parameter; empty values are not sent, since an
// unset filter and an empty one mean the same to Forgejo.
func (r *request) addQuery(name, value string) {
	if value != "" {
		r.query = append(r.query, queryParam{name, value})
	}
}

// addQueryTime appends a timestamp query parameter (RFC 3339) when set.
func (r *request) addQueryTime(name string, value time.Time) {
	if !value.IsZero() {
		r.query = append(r.query, queryParam{name, value.Format(time.RFC3339)})
	}
}

// addQueryList appends a comma-joined list when non-empty.
func (r *request) addQueryList(name string, values []string) {
	if len(values) > 0 {
		r.query = append(r.query, queryParam{name, strings.Join(values, ",")})
	}
}

// addQueryInt appends an integer query parameter when non-zero: for every
// integer filter of the API, zero means "no filter".
func (r *request) addQueryInt(name string, value int64) {
	if value != 0 {
		r.query = append(r.query, queryParam{name, strconv.FormatInt(value, 10)})
	}
}

// addQueryBool appends a boolean query parameter when set, so that false
// can be sent where the instance defaults to true.
func (r *request) addQueryBool(name string, value *bool) {
	if value != nil {
		r.query = append(r.query, queryParam{name, strconv.FormatBool(*value)})
	}
}

// addQueryDate appends a date query parameter (YYYY-MM-DD, in the value's
// own location) when set.
func (r *request) addQueryDate(name string, value time.Time) {
	if !value.IsZero() {
		r.query = append(r.query, queryParam{name, value.Format(time.DateOnly)})
	}
}

// addQueryMulti appends one name=value pair per value (collectionFormat
// multi): Forgejo reads these parameters as repeated keys.
func (r *request) addQueryMulti(name string, values []string) {
	for _, v := range values {
		r.query = append(r.query, queryParam{name, v})
	}
}

// addQueryInts is addQueryMulti for integer values.
func (r *request) addQueryInts(name string, values []int64) {
	for _, v := range values {
		r.query = append(r.query, queryParam{name, strconv.FormatInt(v, 10)})
	}
}

// requireText rejects a blank required argument before anything is sent.
func (r *request) requireText(field, value string) {
	if r.err == nil && isBlank(value) {
		r.err = &ValidationError{Field: field, Message: "must not be blank"}
	}
}

// requireList rejects an empty required list before anything is sent.
func (r *request) requireList(field string, n int) {
	if r.err == nil && n == 0 {
		r.err = &ValidationError{Field: field, Message: "must not be empty"}
	}
}

// textBody sets a text/plain request body, sent verbatim.
func (r *request) textBody(s string) {
	if r.err != nil {
		return
	}
	r.body, r.bodyType = []byte(s), "text/plain; charset=utf-8"
}

// enumStrings converts a list of a named string type (an enumeration's
// values) to the strings sent.
func enumStrings[S ~string](values []S) []string {
	if values == nil {
		return nil
	}
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

// paging appends page and limit (or the operation's variant) last.
func (r *request) paging(c *Client, opts ListOptions) {
	if r.err != nil {
		return
	}
	r.query, r.err = c.appendPaging(r.query, r.op.Paging, opts)
}

// jsonBody sets a JSON request body, encoded once for every attempt.
func (r *request) jsonBody(v any) {
	if r.err != nil {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		r.err = &ValidationError{Field: "body", Message: "cannot be encoded as JSON: " + err.Error()}
		return
	}
	r.body, r.bodyType = data, "application/json"
}

// conditional reports whether the call carries If-None-Match or
// If-Modified-Since, so that a 304 is its answer rather than an error.
func (r *request) conditional() bool {
	return r.extra != nil && (r.extra.headers.Get("If-None-Match") != "" || r.extra.headers.Get("If-Modified-Since") != "")
}
