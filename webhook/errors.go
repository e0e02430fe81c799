package webhook

import (
	"errors"
	"net/http"
	"strings"
)

// The classes of rejected deliveries. Every error that [Parser.Parse],
// [Parser.ParseRequest] and [Verify] return is an [*Error] whose Kind is one
// of these, so both errors.Is(err, webhook.ErrBadSignature) and errors.As(err,
// &webhookErr) work. None of them ever carries a secret or a computed
// signature.
var (
	// ErrMissingSignature: a secret is configured but the delivery carries no
	// signature header, or only empty ones (a hook configured without a
	// secret sends them empty).
	ErrMissingSignature = errors.New("webhook: missing signature")

	// ErrBadSignature: the signature matches none of the configured secrets,
	// or is not a hex-encoded SHA-256 HMAC at all. A wrong secret, a body
	// changed on the way and a truncated body all end here.
	ErrBadSignature = errors.New("webhook: signature mismatch")

	// ErrTooLarge: the body is larger than the parser's bound (see
	// [WithMaxBodyBytes]).
	ErrTooLarge = errors.New("webhook: body too large")

	// ErrContentType: the Content-Type is neither application/json nor
	// application/x-www-form-urlencoded, the two a Forgejo hook can be
	// configured with, or is missing.
	ErrContentType = errors.New("webhook: unsupported content type")

	// ErrMalformed: the body could not be read, is not the JSON (or the form
	// with a payload field) its Content-Type announces, does not fit the
	// event's payload type, or the delivery names no event type.
	ErrMalformed = errors.New("webhook: malformed delivery")

	// ErrMethod: the request is neither a POST nor a GET, the methods
	// Forgejo delivers with (GET, with the payload in the query, for hooks
	// configured so in the web UI). A GET without a payload parameter is
	// ErrMalformed.
	ErrMethod = errors.New("webhook: method not allowed")

	// ErrAmbiguous: the headers name two different delivery IDs or two
	// different event types (a header repeated with another value, two
	// values joined in one line, or X-Gitea-*, X-Gogs-* or X-GitHub-*
	// disagreeing with X-Forgejo-*). Forgejo sends every one of them once
	// and with the same value; forms of one UUID (case, braces, urn:uuid:)
	// are the same ID, see [CanonicalDeliveryID]. Checked after the
	// signature, so a forged request is refused as such.
	ErrAmbiguous = errors.New("webhook: ambiguous delivery headers")

	// ErrEventMismatch: the payload's shape contradicts its event type: it
	// lacks the key that identifies the type (a push's ref, an issues
	// event's issue, a release's release, ...), carries one that belongs to
	// another type, or its action or review type is another sub-event's.
	// The signature covers the payload, not the headers, so this is what a
	// captured delivery resent under another X-Forgejo-Event-Type looks
	// like. The package documentation says which event types share a shape
	// and cannot be told apart.
	ErrEventMismatch = errors.New("webhook: payload does not match its event type")

	// ErrTimeout: the body did not arrive in time: the request's context
	// ended while [Parser.ParseRequest] was reading it, or the [Handler]'s
	// read deadline passed (see [WithReadTimeout]). Err is the cause: the
	// context's (context.Canceled, context.DeadlineExceeded or the cause
	// given to its cancel function), or the read's (os.ErrDeadlineExceeded).
	// A sender that drips its body to hold the receiver's resources ends
	// here.
	ErrTimeout = errors.New("webhook: body not received in time")
)

// Error describes a rejected delivery.
//
// Kind is one of the sentinel errors of this package (ErrBadSignature, ...);
// Err, when not nil, is the underlying cause (a JSON syntax error, a read
// error). Error strings name the delivery and event type when the headers
// gave them, and never contain a secret or a signature value.
type Error struct {
	// Kind is the class of the failure: ErrMissingSignature, ErrBadSignature,
	// ErrTooLarge, ErrContentType, ErrMalformed, ErrMethod, ErrAmbiguous,
	// ErrEventMismatch or ErrTimeout.
	Kind error
	// DeliveryID is the X-Forgejo-Delivery header (or its Gitea, Gogs or
	// GitHub mirror) in its canonical form ([CanonicalDeliveryID]), empty
	// when the delivery had none.
	DeliveryID string
	// EventType is the event type the headers named, empty when none.
	EventType EventType
	// Detail says what exactly was wrong, for logs.
	Detail string
	// Err is the underlying cause, if any.
	Err error
}

// Error implements the error interface.
func (e *Error) Error() string {
	var b strings.Builder
	kind := "webhook: error"
	if e.Kind != nil {
		kind = e.Kind.Error()
	}
	b.WriteString(kind)
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.EventType != "" || e.DeliveryID != "" {
		b.WriteString(" (")
		if e.EventType != "" {
			b.WriteString("event ")
			b.WriteString(clean(string(e.EventType)))
		}
		if e.DeliveryID != "" {
			if e.EventType != "" {
				b.WriteString(", ")
			}
			b.WriteString("delivery ")
			b.WriteString(clean(e.DeliveryID))
		}
		b.WriteString(")")
	}
	return b.String()
}

// clean makes a header value safe to log: at most 80 bytes, control
// characters replaced. Headers are not covered by the signature.
func clean(s string) string { return cleanN(s, 80) }

// cleanN is clean with a bound of n bytes.
func cleanN(s string, n int) string {
	if len(s) > n {
		s = s[:n] + "..."
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

// Unwrap returns the Kind and the cause, so that errors.Is matches both.
func (e *Error) Unwrap() []error {
	var errs []error
	if e.Kind != nil {
		errs = append(errs, e.Kind)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

// StatusCode is the HTTP status a receiver answers this failure with, as
// [Handler] does: 401 for a missing or wrong signature, 413 for a body over
// the bound, 415 for an unsupported content type, 405 for a method other
// than POST and GET, 408 for a body that did not arrive in time and 400 for
// anything malformed, ambiguous or mismatched.
func (e *Error) StatusCode() int {
	switch e.Kind {
	case ErrMissingSignature, ErrBadSignature:
		return http.StatusUnauthorized
	case ErrTooLarge:
		return http.StatusRequestEntityTooLarge
	case ErrContentType:
		return http.StatusUnsupportedMediaType
	case ErrMethod:
		return http.StatusMethodNotAllowed
	case ErrTimeout:
		return http.StatusRequestTimeout
	default:
		return http.StatusBadRequest
	}
}
