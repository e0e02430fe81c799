package forgejo

import (
	"bytes"
	"strconv"
	"time"
)

// This file holds the request-building helpers the generated operations use
// beyond those of pipeline.go: the other query parameter kinds, argument
// checks made before anything is sent, text bodies, and the response
// envelopes some listings wrap their items in.

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

// okDataEnvelope is the {"ok": true, "data": [...]} wrapper of the search
// listings (/repos/search, /users/search, team search).
type okDataEnvelope[T any] struct {
	OK   bool `json:"ok"`
	Data []T  `json:"data"`
}

// topicsEnvelope is the {"topics": [...]} wrapper of the topic listings.
type topicsEnvelope[T any] struct {
	Topics []T `json:"topics"`
}

// maybeEmpty decodes into v unless the body is empty, which some
// operations answer with 204 instead of an object; empty reports which
// happened.
type maybeEmpty struct {
	v     any
	empty bool
}

func (m *maybeEmpty) decodeJSON(data []byte) error {
	if len(bytes.TrimSpace(data)) == 0 {
		m.empty = true
		return nil
	}
	return decodeJSON(data, m.v, false)
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
