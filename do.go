package forgejo

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"codeberg.org/forgego/forgejo/internal/secret"
)

// This file is Client.Do and its Request: a call to an endpoint the
// library does not cover, through the same pipeline as every operation.

// Request is a call to an endpoint the library does not cover, for
// [Client.Do]. It goes through the same pipeline as every operation: auth,
// retry, bounds, status mapping, redaction and hooks.
type Request struct {
	// Method is the HTTP method, such as "GET".
	Method string
	// Path is relative to the API root, such as "/repos/forgejo/forgejo/issues".
	// It is sent as given (already percent-encoded); it must not carry a
	// query, a fragment, control characters or "." / ".." segments.
	Path string
	// Query parameters, sent in name order.
	Query url.Values
	// Body, when non-nil, is sent as JSON; a []byte is sent as is with
	// Content-Type application/json.
	Body any
	// Retry is stated explicitly: whether this call may be repeated. The
	// zero value is Never.
	Retry RetryEligibility
	// Operation labels the call in errors and hook events; default
	// "Do".
	Operation string
}

// Format renders the request with the values of its sensitive query
// parameters (token, access_token, private_token, password, sudo) masked,
// as in every URL the library renders, under every verb.
func (r Request) Format(f fmt.State, verb rune) {
	secret.Format(f, verb, "forgejo.Request", r.masked())
}

// LogValue renders the request for log/slog as Format does.
func (r Request) LogValue() slog.Value { return slog.AnyValue(r.masked()) }

// MarshalJSON encodes the request as Format renders it: a Request is never
// sent as JSON (its Body is), so its JSON is for logs.
func (r Request) MarshalJSON() ([]byte, error) { return json.Marshal(r.masked()) }

type maskedRequest Request

func (r Request) masked() maskedRequest {
	m := maskedRequest(r)
	if lv, ok := r.Body.(slog.LogValuer); ok {
		m.Body = lv.LogValue().Resolve().Any() // a model that holds a secret, masked
	}
	if len(r.Query) > 0 {
		m.Query = make(url.Values, len(r.Query))
		for name, vals := range r.Query {
			if isSensitiveQuery(name) {
				masked := make([]string, len(vals))
				for i, v := range vals {
					masked[i] = secret.Masked(v)
				}
				vals = masked
			}
			m.Query[name] = vals
		}
	}
	return m
}

// Do sends req and decodes a 2xx JSON body into v (a pointer; nil to ignore
// the body; a *[]byte receives the raw body and a *string the text). opts
// add headers, query parameters, Sudo or a one-time password to this call,
// as for every operation.
func (c *Client) Do(ctx context.Context, req *Request, v any, opts ...RequestOption) (*Response, error) {
	if req == nil {
		return newResponse(nil), &ValidationError{Field: "request", Message: "must not be nil"}
	}
	opID := req.Operation
	if opID == "" {
		opID = "Do"
	}
	op := &Operation{ID: opID, Method: strings.ToUpper(strings.TrimSpace(req.Method)), Path: req.Path, Retry: req.Retry}
	r := &request{op: op}
	r.err = checkRawPath(op.Method, req.Path)
	if r.err == nil {
		r.path = "/" + strings.TrimLeft(req.Path, "/")
		for _, name := range slices.Sorted(maps.Keys(req.Query)) {
			for _, val := range req.Query[name] {
				r.query = append(r.query, queryParam{name, val})
			}
		}
		switch b := req.Body.(type) {
		case nil:
		case []byte:
			r.body, r.bodyType = b, "application/json"
		default:
			r.jsonBody(b)
		}
	}
	r.with(opts)
	switch v.(type) {
	case *string:
		r.result = resultText
	case *[]byte:
		r.result = resultBytes
	}
	return c.call(ctx, r, v)
}

func checkRawPath(method, p string) error {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions:
	default:
		return &ValidationError{Field: "method", Message: "must be GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS"}
	}
	if strings.TrimSpace(p) == "" {
		return &ValidationError{Field: "path", Message: "must not be blank"}
	}
	if hasControl(p) || strings.ContainsAny(p, "?# ") {
		return &ValidationError{Field: "path", Message: "must not contain a query, a fragment, spaces or control characters"}
	}
	if strings.Contains(p, "://") {
		return &ValidationError{Field: "path", Message: "must be relative to the API root"}
	}
	if err := checkEscapes("path", p); err != nil {
		return err // the caller's mistake: refused before sending, never retried
	}
	if err := checkDotSegments("path", p); err != nil {
		return err
	}
	return nil
}
