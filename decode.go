package forgejo

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
)

// This file reads a success body into its result: the result kinds, the
// one decoding rule for JSON (decodeJSON), and the envelopes some listings
// wrap their items in. Status mapping is status.go; reading the body
// within its bound is bodyread.go.

// resultKind is how a success body is read.
type resultKind int

const (
	resultJSON     resultKind = iota // decode into the model
	resultNone                       // ignore the body (204, 205 mark-read)
	resultText                       // *string
	resultBytes                      // *[]byte, bounded by the download limit
	resultBool                       // *bool: 2xx yes, 404 no
	resultWithheld                   // JSON whose body carries a credential: never in a snippet
	resultStream                     // *io.ReadCloser: the body, unread, bounded by the download limit
)

// jsonDecoder is implemented by models that carry a reflection-free decoder;
// the pipeline prefers it to encoding/json. The generator may emit these
// later: decoding dominates a call's cost.
type jsonDecoder interface {
	decodeJSON(data []byte) error
}

// decode reads a success body into out according to the request's result
// kind.
func (c *Client) decode(r *request, data []byte, out any) error {
	if out == nil || r.result == resultNone {
		return nil
	}
	switch r.result {
	case resultText:
		*(out.(*string)) = string(data)
		return nil
	case resultBytes:
		*(out.(*[]byte)) = bytes.Clone(data)
		return nil
	case resultBool:
		*(out.(*bool)) = true
		return nil
	}
	if d, ok := out.(jsonDecoder); ok {
		return d.decodeJSON(data)
	}
	return decodeJSONWith(data, out, r.op.wrapped, r.result == resultWithheld)
}

// errNullObject is the cause of a DecodeError for a body of JSON null where
// an object was expected: a zero-valued model must never pass for an
// answer.
var errNullObject = errors.New("the body is null where an object was expected")

// decodeJSON is the one decoding rule for JSON results: a null body is an
// error when out is an object (a list may be null: Gitea renders an empty
// Go slice so), and a listing the operations table marks as wrapped may
// arrive in Gitea's {"<items>": [...], "total_count": n} envelope. Anything
// else that does not fit out is the decode error.
func decodeJSON(data []byte, out any, wrapped bool) error {
	return decodeJSONWith(data, out, wrapped, false)
}

// decodeJSONWith is decodeJSON; private marks a body that carries a
// credential, whose strings the decoder must not keep for reuse.
func decodeJSONWith(data []byte, out any, wrapped, private bool) error {
	if isJSONNull(data) {
		if t := reflect.TypeOf(out); t != nil && t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
			return errNullObject
		}
	}
	// The generated reflection-free decoders first (jsonscan.go);
	// encoding/json remains for other types and gives every error.
	if decodeFast(data, out, wrapped, private) {
		return nil
	}
	err := json.Unmarshal(data, out)
	if err != nil && wrapped {
		if items, ok := listEnvelope(data, err); ok {
			return json.Unmarshal(items, out)
		}
	}
	return err
}

// isJSONNull reports whether data is the JSON literal null.
func isJSONNull(data []byte) bool {
	return string(bytes.TrimSpace(data)) == "null"
}

// listEnvelope unwraps a listing that Gitea wraps while the spec declares
// a bare array ({"runners": [...], "total_count": n}, docs/HAZARDS.md §11).
// It applies only to the operations the table marks (Operation.wrapped, from the WrappedList quirk), and only
// when the body is an object whose members are exactly one array and,
// optionally, total_count: an error object such as
// {"message": "maintenance", "errors": []} stays a decode error, never an
// empty list. It runs only after a failed decode, so well-formed answers
// pay nothing.
func listEnvelope(data []byte, err error) (json.RawMessage, bool) {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field != "" || te.Value != "object" {
		return nil, false
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(data, &members) != nil {
		return nil, false
	}
	var list json.RawMessage
	for name, raw := range members {
		raw = bytes.TrimSpace(raw)
		switch {
		case name == "total_count":
			continue
		case len(raw) == 0 || raw[0] != '[' || list != nil:
			return nil, false // another member, or two lists: do not guess
		}
		list = raw
	}
	return list, list != nil
}

// decodePath renders where encoding/json failed as a JSON path.
func decodePath(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return "$." + te.Field
	}
	return "$"
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
