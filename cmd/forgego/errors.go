package main

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// describe renders a failure as one line that names the call once:
//
//	GET https://codeberg.org/api/v1/repos/a/b: 404 Not Found: The target couldn't be found.
//	GET http://127.0.0.1:1/api/v1/version: connection failed: dial tcp 127.0.0.1:1: connect: connection refused (gave up after 3 attempts)
//
// The library's own messages carry the operation, the attempt and its
// duration, and repeat the URL inside the transport's cause: right for
// logs, too much for a terminal.
func describe(err error) string {
	var pe *prefixedError
	if errors.As(err, &pe) {
		return pe.prefix + describe(pe.err)
	}
	suffix := ""
	var re *forgejo.RetriesExhaustedError
	if errors.As(err, &re) && re.Last != nil {
		suffix = fmt.Sprintf(" (gave up after %d attempts)", re.Attempts)
		err = re.Last
	}
	var (
		ae *forgejo.APIError
		te *forgejo.TransportError
		de *forgejo.DecodeError
	)
	switch {
	case errors.As(err, &ae):
		var b strings.Builder
		b.WriteString(callName(ae.Call))
		fmt.Fprintf(&b, ": %d %s", ae.StatusCode, http.StatusText(ae.StatusCode))
		if ae.Message != "" && !strings.EqualFold(ae.Message, http.StatusText(ae.StatusCode)) {
			b.WriteString(": " + ae.Message)
		}
		if len(ae.Errors) > 0 {
			b.WriteString(" (" + strings.Join(ae.Errors, "; ") + ")")
		}
		if d, ok := ae.RetryAfter(); ok {
			fmt.Fprintf(&b, "; retry after %s", d.Round(time.Second))
		}
		if ae.Location != "" {
			b.WriteString("; moved to " + ae.Location)
		}
		return oneLine(b.String() + suffix + hintFor(ae.StatusCode))
	case errors.As(err, &te):
		msg := callName(te.Call) + ": " + te.Kind.String()
		if cause := transportCause(te); cause != "" && cause != te.Kind.String() {
			msg += ": " + cause
		}
		return oneLine(msg + suffix)
	case errors.As(err, &de):
		return oneLine(fmt.Sprintf("%s: the answer does not fit the model at %s: %v", callName(de.Call), de.Path, de.Err) + suffix)
	}
	return oneLine(err.Error() + suffix)
}

// callName is "METHOD URL" (and the request ID, when the instance sent
// one): the call, named once.
func callName(c forgejo.CallContext) string {
	s := c.Method + " " + c.URL
	if c.RequestID != "" {
		s += " [request-id " + c.RequestID + "]"
	}
	return s
}

// transportCause is the cause of a transport failure without the URL the
// net/http error repeats ("Get \"URL\": dial tcp ...").
func transportCause(te *forgejo.TransportError) string {
	if te.Err == nil {
		return ""
	}
	var ue *url.Error
	if errors.As(te.Err, &ue) && ue.Err != nil {
		return ue.Err.Error()
	}
	s := te.Err.Error()
	if te.Call.URL != "" {
		if i := strings.Index(s, te.Call.URL+"\": "); i >= 0 {
			s = s[i+len(te.Call.URL)+3:]
		}
	}
	return s
}

// hintFor adds what to check after the answers people meet first.
func hintFor(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return " (log in with 'forgego auth login --with-token', or set FORGEJO_TOKEN)"
	}
	return ""
}

// prefixedError puts a few words before a failure's description and keeps
// the failure in the chain (for the exit status).
type prefixedError struct {
	prefix string
	err    error
}

func (e *prefixedError) Error() string { return e.prefix + e.err.Error() }
func (e *prefixedError) Unwrap() error { return e.err }
