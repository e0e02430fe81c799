package forgejo

import (
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"
)

// This file is the one place a status becomes an error (statusError),
// and the lenient reading of the instance's error bodies.

// statusError maps a non-2xx response to an *APIError. This is the one place
// a status becomes an error: 2xx is success, everything else is an APIError
// carrying the parsed body, Retry-After and, for a 3xx, Location. (Only a
// GET or HEAD follows redirects, within the base URL's origin for its
// credential; a 3xx that arrives is one that was not followed.) Every text
// is scrubbed whole and bounded afterwards.
func (c *Client) statusError(red redactor, call CallContext, resp *http.Response, body []byte) *APIError {
	msg, u, details := parseErrorBody(red.scrubBytes(body), resp.Header.Get("Content-Type"))
	e := &APIError{Call: call, StatusCode: resp.StatusCode, Message: bound(red.scrub(msg)), URL: bound(red.scrub(u))}
	for _, d := range details {
		e.Errors = append(e.Errors, bound(red.scrub(d)))
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		e.Location = bound(red.scrub(resp.Header.Get("Location")))
	}
	e.retryAfter, e.hasRetryAfter = parseRetryAfter(resp.Header)
	return e
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
