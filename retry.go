package forgejo

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"codeberg.org/forgego/forgejo/internal/durations"
)

// This file is the retry engine: the policy, the eligibility of operations,
// which failures are worth repeating, the delay between attempts and the
// reading of Retry-After. The loop that applies them is in retry_loop.go.
//
// A failed attempt is repeated only when three questions, asked in this
// order, all say yes: may this operation be repeated at all (its
// RetryEligibility)? Is this failure worth repeating (retryable)? Are there
// attempts left (RetryPolicy.MaxAttempts)?

// Jitter says how a computed backoff is randomised.
type Jitter int

const (
	// JitterFull waits a uniformly random duration in [0, computed delay]
	// (AWS's "full jitter"), so that clients which saw the same failure do not
	// all come back at the same instant. It is the zero value on purpose.
	JitterFull Jitter = iota
	// JitterNone waits exactly the computed delay; it exists for tests and
	// callers that schedule on their own.
	JitterNone
)

// String names the jitter: "full" or "none".
func (j Jitter) String() string {
	if j == JitterNone {
		return "none"
	}
	return "full"
}

// RetryPolicy says how many attempts a retryable call gets and how long to
// wait between them. It has no behaviour of its own.
//
// The delay before attempt n+1 is min(BaseDelay·2^(n−1), MaxDelay), then
// jittered. When RespectRetryAfter is set and the failed response carried a
// usable Retry-After, that value replaces the backoff, clamped to MaxDelay
// and not jittered.
//
// A client uses [DefaultRetryPolicy] unless [WithRetryPolicy] sets another;
// [RetryOff] is the policy of one attempt, for a client that never retries:
//
//	client, err := forgejo.NewClient(forgejo.WithRetryPolicy(forgejo.RetryOff()))
type RetryPolicy struct {
	// MaxAttempts counts every attempt, the first included; 1 means no retry.
	MaxAttempts int
	// BaseDelay is the delay before the second attempt.
	BaseDelay time.Duration
	// MaxDelay caps the computed delay (before jitter) and Retry-After.
	MaxDelay time.Duration
	// Jitter randomises the computed delay.
	Jitter Jitter
	// RespectRetryAfter lets the instance's Retry-After replace the backoff.
	RespectRetryAfter bool
}

// DefaultRetryPolicy() returns the policy of a client without
// [WithRetryPolicy]: 3 attempts, 250 ms then 500 ms before jitter, capped at
// 8 s, with full jitter, honouring Retry-After. [RetryOff] turns retries off.
// It is a function, not a variable, so that nothing (an init function in
// some dependency) can change the default of every client: each call
// returns a fresh value to adjust.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{
		MaxAttempts:       3,
		BaseDelay:         250 * time.Millisecond,
		MaxDelay:          8 * time.Second,
		Jitter:            JitterFull,
		RespectRetryAfter: true,
	}
}

// RetryOff() returns a policy of one attempt with no delay: useful in tests
// and for callers doing their own scheduling.
func RetryOff() RetryPolicy { return RetryPolicy{MaxAttempts: 1, Jitter: JitterNone} }

// String renders the policy's five fields.
func (p RetryPolicy) String() string {
	return "{attempts " + strconv.Itoa(p.MaxAttempts) + ", base " + p.BaseDelay.String() + ", max " + p.MaxDelay.String() +
		", jitter " + p.Jitter.String() + ", retry-after " + strconv.FormatBool(p.RespectRetryAfter) + "}"
}

func (p RetryPolicy) validate() error {
	switch {
	case p.MaxAttempts < 1:
		return &ValidationError{Field: "retryPolicy.MaxAttempts", Message: "must be at least 1"}
	case p.BaseDelay < 0:
		return &ValidationError{Field: "retryPolicy.BaseDelay", Message: "must not be negative"}
	case p.MaxDelay < 0:
		return &ValidationError{Field: "retryPolicy.MaxDelay", Message: "must not be negative"}
	case p.Jitter != JitterFull && p.Jitter != JitterNone:
		return &ValidationError{Field: "retryPolicy.Jitter", Message: "must be JitterFull or JitterNone"}
	}
	return nil
}

// backoff is the computed delay before attempt n+1, after n failed attempts,
// before jitter: min(BaseDelay·2^(n−1), MaxDelay), doubling only while below
// the cap so that it cannot overflow.
func (p RetryPolicy) backoff(n int) time.Duration {
	d := p.BaseDelay
	for i := 1; i < n && d < p.MaxDelay; i++ {
		if d > p.MaxDelay/2 {
			d = p.MaxDelay
			break
		}
		d *= 2
	}
	return min(d, p.MaxDelay)
}

// RetryEligibility is whether an operation may be repeated at all. Each
// operation states its own, in its doc comment with the reason; callers
// cannot change it, only the [RetryPolicy].
type RetryEligibility int

const (
	// RetryNever never repeats the call: it creates something, or applies a partial
	// update against whatever the resource has become. Forgejo has no
	// idempotency keys, so a repeat could file an issue twice. The zero
	// value, so that a forgotten eligibility is the safe one.
	RetryNever RetryEligibility = iota
	// RetryIdempotentOnly repeats the call only when its method is GET or HEAD.
	// Every read uses it.
	RetryIdempotentOnly
	// RetryAlways repeats the call whenever the failure is retryable: the
	// call names one resource and states its whole intended state, so N
	// attempts leave the instance exactly as one would (marking a thread
	// read, replacing a topic list, following a user).
	RetryAlways
)

// String names the eligibility as doc comments do.
func (e RetryEligibility) String() string {
	switch e {
	case RetryIdempotentOnly:
		return "RetryIdempotentOnly"
	case RetryAlways:
		return "RetryAlways"
	default:
		return "RetryNever"
	}
}

// allows answers the first question: may a call with this method be
// repeated at all?
func (e RetryEligibility) allows(method string) bool {
	switch e {
	case RetryAlways:
		return true
	case RetryIdempotentOnly:
		return method == http.MethodGet || method == http.MethodHead
	default:
		return false
	}
}

// retryable answers the second question: is this failure worth repeating?
// This is the one place that decides it.
func retryable(err error) bool {
	switch e := err.(type) {
	case *APIError:
		return retryableStatus(e.StatusCode)
	case *TransportError:
		if isUploadFailure(e.Err) {
			return false // the caller's content failed (uploads.go): a repeat fails alike
		}
		switch e.Kind {
		case TransportConnection, TransportTimeout, TransportUnknown:
			return true
		case TransportDNS:
			return e.temporary
		}
	}
	return false
}

// retryableStatus is the retryable status set: exactly 429, 500, 502, 503
// and 504. 500 is in because Forgejo answers some transient database and git
// failures with it; 501 and 505 describe what the instance can do, and
// repeating only spends rate-limit budget.
func retryableStatus(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// delay is the wait before attempt n+1 after failure err of attempt n.
func (c *Client) delay(n int, err error) time.Duration {
	p := c.retry
	if p.RespectRetryAfter {
		var ae *APIError
		if errors.As(err, &ae) && ae.hasRetryAfter {
			return min(ae.retryAfter, p.MaxDelay)
		}
	}
	return p.Backoff(n, c.randN)
}

// Backoff is the delay before attempt n+1 after n failed attempts, as the
// client computes it without a Retry-After: min(BaseDelay·2^(n−1),
// MaxDelay), then, with JitterFull, a uniformly random duration in [0, that
// delay]. randN draws uniformly from [0, k) (nil: math/rand/v2's Int64N).
// It is for schedulers outside the client that follow the same policy, such
// as package webhook's Worker retrying an event function.
func (p RetryPolicy) Backoff(n int, randN func(k int64) int64) time.Duration {
	d := p.backoff(n)
	if p.Jitter == JitterFull && d > 0 {
		if randN == nil {
			randN = rand.Int64N
		}
		d = time.Duration(randN(int64(min(d, durations.Max-1)) + 1)) // [0, d]; d+1 must not wrap
	}
	return d
}

// Validate reports a policy the client would refuse (fewer than one
// attempt, a negative delay, an unknown Jitter) as a *ValidationError.
func (p RetryPolicy) Validate() error { return p.validate() }

// parseRetryAfter reads Retry-After leniently: it never fails. Delta-seconds
// (digits only) is honoured. The HTTP-date form is honoured only when the
// same response carries a parseable Date header, as the difference between
// the two server timestamps, so no local clock is involved; a date at or
// before Date means no wait. Blank, negative, decimal or garbage values, and
// a date without a usable Date, mean no hint. Both forms saturate
// (internal/durations, time.Time.Sub): a huge value is the longest wait,
// which delay clamps to MaxDelay; it never wraps into a short one.
func parseRetryAfter(h http.Header) (time.Duration, bool) {
	v, ok := singleValue(h.Values("Retry-After"))
	if !ok {
		return 0, false
	}
	if secs, ok := durations.ParseUnits(v); ok {
		return durations.Of(secs, time.Second), true
	}
	at, ok := parseHTTPDate(v)
	if !ok {
		return 0, false
	}
	date, ok := parseHTTPDate(strings.TrimSpace(h.Get("Date")))
	if !ok {
		return 0, false
	}
	return max(at.Sub(date), 0), true
}

// singleValue returns a header's one trimmed value. A blank value, or
// several lines with different values, is no value: a singleton field that
// disagrees with itself cannot be trusted.
func singleValue(values []string) (string, bool) {
	v := ""
	for i, raw := range values {
		raw = strings.TrimSpace(raw)
		if i > 0 && raw != v {
			return "", false
		}
		v = raw
	}
	return v, v != ""
}

// parseHTTPDate accepts the three HTTP-date forms of RFC 9110. net/http's
// ParseTime reads any zone abbreviation in the RFC 850 form through the
// local zone, so a zone other than GMT is refused here.
func parseHTTPDate(v string) (time.Time, bool) {
	t, err := http.ParseTime(v)
	if err != nil {
		return time.Time{}, false
	}
	if strings.Contains(v, ",") && !strings.HasSuffix(v, " GMT") {
		return time.Time{}, false
	}
	return t, true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// headersTooLarge reports net/http's refusal of a response whose headers
// pass its limit (Transport.MaxResponseHeaderBytes, or HTTP/2's header list
// size). It is a response over its bound, like a body over its bound: the
// same answer would come again, so it is not retried. net/http reports it
// with unexported errors; their text is the only handle.
func headersTooLarge(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "server response headers exceeded") || strings.Contains(msg, "response header list larger than")
}

// classifyTransport turns a send or read failure into a TransportError kind.
// callerCtx is the caller's context: its cancellation or expiry is never
// retried, whereas the per-attempt timeout is.
func classifyTransport(callerCtx context.Context, err error) (kind TransportKind, temporary bool) {
	if callerCtx.Err() != nil {
		return TransportCanceled, false
	}
	if isUploadFailure(err) {
		return TransportUnknown, false // not the connection's fault, whatever the read error says
	}
	if errors.Is(err, errResponseTooLarge) || headersTooLarge(err) {
		return TransportResponseTooLarge, false
	}
	var (
		certErr     *tls.CertificateVerificationError
		unknownAuth x509.UnknownAuthorityError
		hostErr     x509.HostnameError
		invalidErr  x509.CertificateInvalidError
		recordErr   tls.RecordHeaderError
		alertErr    tls.AlertError
	)
	if errors.As(err, &certErr) || errors.As(err, &unknownAuth) || errors.As(err, &hostErr) ||
		errors.As(err, &invalidErr) || errors.As(err, &recordErr) || errors.As(err, &alertErr) {
		return TransportTLS, false
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return TransportDNS, !dnsErr.IsNotFound
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		// Only the per-attempt timeout can end an attempt while the
		// caller's ctx is live.
		return TransportTimeout, false
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return TransportTimeout, false
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return TransportConnection, false
	}
	// net/http reports a connection the server closed before answering with
	// unexported errors; their text is the only handle.
	if msg := err.Error(); strings.Contains(msg, "server closed idle connection") || strings.Contains(msg, "transport connection broken") {
		return TransportConnection, false
	}
	return TransportUnknown, false
}
