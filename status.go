package forgejo

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"
)

// This file is the one place a status becomes an error (statusError),
// and the lenient reading of the instance's error bodies.

// statusError maps a non-2xx response to an *APIError, wrapped in a
// *ScopeError when it is a token scope refusal. This is the one place
// a status becomes an error: 2xx is success, everything else is an APIError
// carrying the parsed body, Retry-After and, for a 3xx, Location. (Only a
// GET or HEAD follows redirects, within the base URL's origin for its
// credential; a 3xx that arrives is one that was not followed.) Every text
// is scrubbed whole and bounded afterwards. The router's 404 (or 405) to
// an operation some release lacks is an *UnsupportedOperationError
// (releaseMissing, version_check.go).
func (c *Client) statusError(op *Operation, red redactor, call CallContext, resp *http.Response, body []byte) error {
	msg, u, details := parseErrorBody(red.scrubBytes(body), resp.Header.Get("Content-Type"))
	e := &APIError{Call: call, StatusCode: resp.StatusCode, Message: bound(red.scrub(msg)), URL: bound(red.scrub(u))}
	for _, d := range details {
		e.Errors = append(e.Errors, bound(red.scrub(d)))
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		e.Location = bound(red.scrub(resp.Header.Get("Location")))
	}
	e.retryAfter, e.hasRetryAfter = parseRetryAfter(resp.Header)
	if resp.StatusCode == http.StatusForbidden {
		if required := parseScopeRefusal(e.Message); required != nil {
			return &ScopeError{Required: required, API: e}
		}
	}
	if ue := c.releaseMissing(op, e, resp.Header, len(bytes.TrimSpace(body))); ue != nil {
		return ue
	}
	return e
}

// scopeRefusal begins the message of a token scope refusal, on Forgejo and
// Gitea alike.
const scopeRefusal = "token does not have at least one of required scope(s)"

// parseScopeRefusal returns the scopes a 403's message names when it is a
// token scope refusal, and nil otherwise. It reads Forgejo's form,
//
//	token does not have at least one of required scope(s): [read:user read:organization]
//
// and Gitea's,
//
//	token does not have at least one of required scope(s), required=[read:user], token scope=write:misc
//
// and nothing else: every name in the brackets must read level:category.
func parseScopeRefusal(msg string) []TokenScope {
	rest, ok := strings.CutPrefix(msg, scopeRefusal)
	if !ok {
		return nil
	}
	var list string
	if r, ok := strings.CutPrefix(rest, ": ["); ok {
		if list, ok = strings.CutSuffix(r, "]"); !ok {
			return nil
		}
	} else if r, ok := strings.CutPrefix(rest, ", required=["); ok {
		var tail string
		if list, tail, ok = strings.Cut(r, "]"); !ok || (tail != "" && !strings.HasPrefix(tail, ", token scope=")) {
			return nil
		}
	} else {
		return nil
	}
	var out []TokenScope
	for _, name := range strings.Fields(list) {
		if !scopeName(name) {
			return nil
		}
		out = append(out, TokenScope(name))
	}
	return out
}

// scopeName reports whether s reads as a scope: read: or write: and a
// lowercase category.
func scopeName(s string) bool {
	level, cat, ok := strings.Cut(s, ":")
	if !ok || (level != "read" && level != "write") || cat == "" {
		return false
	}
	for _, r := range cat {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// errorBody is what the instance's error responses carry; every field is
// read leniently.
type errorBody struct {
	Message json.RawMessage `json:"message"`
	URL     json.RawMessage `json:"url"`
	Errors  json.RawMessage `json:"errors"`
}

// parseErrorBody reads an error body. It is total: a blank, non-JSON,
// truncated or oddly shaped body yields empty fields, never an error, so an
// unreadable body can never mask the status. A text/plain body becomes the
// message.
func parseErrorBody(body []byte, contentType string) (message, url string, details []string) {
	trimmed := strings.TrimSpace(string(body))
	if trimmed == "" {
		return "", "", nil
	}
	var eb errorBody
	if trimmed[0] == '{' && json.Unmarshal(body, &eb) == nil {
		message = jsonString(eb.Message)
		url = jsonString(eb.URL)
		var raw []json.RawMessage
		if json.Unmarshal(eb.Errors, &raw) == nil {
			for _, r := range raw {
				if s := jsonString(r); s != "" {
					details = append(details, s)
				}
			}
		}
		return message, url, details
	}
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(contentType)), "text/plain") && utf8.ValidString(trimmed) {
		return bound(trimmed), "", nil
	}
	return "", "", nil
}

// jsonString returns a JSON string's trimmed value, or "" for any other kind.
func jsonString(raw json.RawMessage) string {
	if len(raw) == 0 || raw[0] != '"' {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return strings.TrimSpace(s)
}
