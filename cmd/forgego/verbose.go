package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// verboseHooks print to w, for -v, every request, its answer, every retry
// with its reason and wait, and every pacing wait; everything they receive
// is already redacted. The rate-limit budget is shown only when it makes
// the client wait, or on request (forgego ratelimit).
func verboseHooks(w io.Writer) forgejo.Hooks {
	o := &verbose{w: w}
	return forgejo.Hooks{
		Request:       o.request,
		Response:      o.response,
		Error:         o.fail,
		Retry:         o.retry,
		RateLimitWait: o.rateLimitWait,
	}
}

// verbose is the writer the verbose hooks share.
type verbose struct {
	mu sync.Mutex
	w  io.Writer
}

func (o *verbose) printf(format string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	fmt.Fprintf(o.w, format, args...)
}

// shortURL drops the scheme and host: the path and query say enough.
func shortURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	s := u.EscapedPath()
	if u.RawQuery != "" {
		s += "?" + u.RawQuery
	}
	return s
}

func (o *verbose) request(_ context.Context, call forgejo.CallContext) {
	attempt := ""
	if call.Attempt > 1 {
		attempt = fmt.Sprintf(" (attempt %d)", call.Attempt)
	}
	o.printf("> %s %s%s\n", call.Method, shortURL(call.URL), attempt)
}

func (o *verbose) response(_ context.Context, call forgejo.CallContext, status int) {
	o.printf("< %d %s in %.1fms\n", status, http.StatusText(status), float64(call.Duration.Microseconds())/1000)
}

func (o *verbose) fail(_ context.Context, call forgejo.CallContext, err error) {
	var te *forgejo.TransportError
	if !call.Final && errors.As(err, &te) {
		o.printf("! no response: %s\n", te.Kind)
	}
}

func (o *verbose) retry(_ context.Context, call forgejo.CallContext, err error, wait time.Duration) {
	o.printf("~ %s attempt %d failed (%s); retrying in %s\n", call.Operation, call.Attempt, reason(err), wait.Round(time.Millisecond))
}

// rateLimitWait shows a pacing wait (--pace).
func (o *verbose) rateLimitWait(_ context.Context, call forgejo.CallContext, wait time.Duration) {
	o.printf("~ %s: the rate-limit budget is spent; waiting %s for the reset\n", call.Operation, wait.Round(time.Millisecond))
}

// reason says briefly why an attempt failed.
func reason(err error) string {
	var ae *forgejo.APIError
	if errors.As(err, &ae) {
		s := fmt.Sprintf("%d %s", ae.StatusCode, http.StatusText(ae.StatusCode))
		if d, ok := ae.RetryAfter(); ok {
			s += fmt.Sprintf(", Retry-After %s", d)
		}
		return s
	}
	var te *forgejo.TransportError
	if errors.As(err, &te) {
		return te.Kind.String()
	}
	return err.Error()
}
