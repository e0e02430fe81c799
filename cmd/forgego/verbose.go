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

// verboseObserver prints, for -v, every request, its answer, every retry
// with its reason and wait, and every pacing wait. It implements
// forgejo.Observer, forgejo.RetryObserver and forgejo.RateLimitObserver;
// everything it receives is already redacted.
type verboseObserver struct {
	mu sync.Mutex
	w  io.Writer
}

func (o *verboseObserver) printf(format string, args ...any) {
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

func (o *verboseObserver) OnRequest(_ context.Context, call forgejo.CallContext) {
	attempt := ""
	if call.Attempt > 1 {
		attempt = fmt.Sprintf(" (attempt %d)", call.Attempt)
	}
	o.printf("> %s %s%s\n", call.Method, shortURL(call.URL), attempt)
}

func (o *verboseObserver) OnResponse(_ context.Context, call forgejo.CallContext, status int) {
	o.printf("< %d %s in %.1fms\n", status, http.StatusText(status), float64(call.Duration.Microseconds())/1000)
}

func (o *verboseObserver) OnError(_ context.Context, call forgejo.CallContext, err error) {
	var te *forgejo.TransportError
	if !call.Final && errors.As(err, &te) {
		o.printf("! no response: %s\n", te.Kind)
	}
}

func (o *verboseObserver) OnRetry(_ context.Context, call forgejo.CallContext, err error, wait time.Duration) {
	o.printf("~ %s attempt %d failed (%s); retrying in %s\n", call.Operation, call.Attempt, reason(err), wait.Round(time.Millisecond))
}

// OnRateLimit is silent: the budget is shown only when it makes the client
// wait (OnRateLimitWait) or on request (forgego ratelimit).
func (o *verboseObserver) OnRateLimit(context.Context, forgejo.CallContext, forgejo.RateLimit) {}

// OnRateLimitWait shows a pacing wait (--pace).
func (o *verboseObserver) OnRateLimitWait(_ context.Context, call forgejo.CallContext, wait time.Duration) {
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
