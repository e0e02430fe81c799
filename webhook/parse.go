package webhook

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"

	"codeberg.org/forgego/forgejo/internal/secret"
)

// DefaultMaxBodyBytes is the body bound of a [Parser] made without
// [WithMaxBodyBytes]: 10 MiB, far above any payload Forgejo sends (a push
// payload lists at most a few commits' metadata; a form hook's body is the
// URL-encoded JSON, up to three times its size).
const DefaultMaxBodyBytes int64 = 10 << 20

// ParserOption configures a [Parser].
type ParserOption func(*Parser) error

// WithSecret adds secrets a delivery's signature may match: the secret
// configured on the hook in Forgejo. Give several to rotate a secret without
// losing deliveries: accept the old and the new one, change the hook, then
// drop the old one. An empty secret is a configuration error.
func WithSecret(secrets ...string) ParserOption {
	return func(p *Parser) error {
		for _, s := range secrets {
			if s == "" {
				return errors.New("webhook: WithSecret: empty secret (use AllowUnsigned for a hook without secret)")
			}
			p.secrets = append(p.secrets, secret.New(s))
		}
		return nil
	}
}

// AllowUnsigned accepts deliveries that carry no signature, which is what a
// hook configured without a secret sends. Without any [WithSecret] it
// accepts every delivery unchecked: anyone who can reach the endpoint can
// then forge events, so use it only behind another safeguard (a private
// network, or the hook's authorization header checked by your own
// middleware). With secrets, unsigned deliveries are accepted and signed
// ones must still match, which lets you add a secret to a running hook.
// [Delivery.Signed] tells the two apart.
func AllowUnsigned() ParserOption {
	return func(p *Parser) error {
		p.allowUnsigned = true
		return nil
	}
}

// WithMaxBodyBytes bounds the request body (the raw bytes, URL-encoded for
// a form hook); a larger one is rejected with ErrTooLarge before it is read
// past the bound. The default is [DefaultMaxBodyBytes]; n must be positive.
func WithMaxBodyBytes(n int64) ParserOption {
	return func(p *Parser) error {
		if n <= 0 {
			return fmt.Errorf("webhook: WithMaxBodyBytes(%d): the bound must be positive", n)
		}
		p.maxBody = n
		return nil
	}
}

// Parser verifies and parses deliveries. Make one with [NewParser]; it is
// safe for concurrent use.
//
// A Parser never shows its secrets: printed with any fmt verb, logged with
// log/slog or encoded as JSON, it renders each as "***".
type Parser struct {
	secrets       []secret.Text
	allowUnsigned bool
	maxBody       int64
}

// NewParser returns a Parser. It needs at least one [WithSecret], or an
// explicit [AllowUnsigned].
func NewParser(opts ...ParserOption) (*Parser, error) {
	p := &Parser{maxBody: DefaultMaxBodyBytes}
	for _, o := range opts {
		if err := o(p); err != nil {
			return nil, err
		}
	}
	if len(p.secrets) == 0 && !p.allowUnsigned {
		return nil, errors.New("webhook: NewParser: no secret; pass WithSecret, or AllowUnsigned for a hook configured without one")
	}
	return p, nil
}

// MaxBodyBytes is the parser's body bound.
func (p *Parser) MaxBodyBytes() int64 { return p.maxBody }

// ParseRequest reads r's body (once, at most the bound plus one byte),
// verifies it and parses it into its event type. It does not close the body;
// the http.Server does.
//
// It stops reading when r's context ends, with an [*Error] of kind
// ErrTimeout whose cause is the context's. It cannot interrupt a read the
// body itself is blocked in: that read goes on in the background until the
// body returns, which a server's deadline makes it do ([Handler] sets one,
// see [WithReadTimeout]; otherwise the http.Server's ReadTimeout).
//
// Errors are [*Error] values (see [Error.StatusCode]).
func (p *Parser) ParseRequest(r *http.Request) (Event, error) { return p.parseRequest(r, false) }

// parseRequest is ParseRequest; deadlined says the connection has a read
// deadline (the Handler set one), which ends a blocked read by itself: the
// body is then read in the caller's goroutine, without the one that lets
// ParseRequest return while a read is blocked.
func (p *Parser) parseRequest(r *http.Request, deadlined bool) (Event, error) {
	switch r.Method {
	case http.MethodPost:
	case http.MethodGet:
		return p.parseQuery(r)
	default:
		e := p.newError(ErrMethod, r.Header, "method "+r.Method+"; Forgejo delivers with POST, or GET with the payload in the query")
		return nil, e
	}
	if r.ContentLength > p.maxBody {
		return nil, p.newError(ErrTooLarge, r.Header, fmt.Sprintf("Content-Length %d over the bound of %d bytes", r.ContentLength, p.maxBody))
	}
	if r.Body == nil {
		return p.Parse(nil, r.Header)
	}
	var body []byte
	var err error
	if deadlined {
		body, err = readAll(r.Body, p.maxBody+1, r.ContentLength)
		if r.Context().Err() != nil {
			// Also when the read failed: the deadline that ended it was
			// moved to now because the context ended.
			err = context.Cause(r.Context())
		}
	} else {
		body, err = readBody(r.Context(), r.Body, p.maxBody+1, r.ContentLength)
	}
	if err != nil {
		e := p.newError(ErrMalformed, r.Header, "reading the body")
		if r.Context().Err() != nil || timedOut(err) {
			e.Kind, e.Detail = ErrTimeout, "the body did not arrive in time"
		}
		e.Err = err
		return nil, e
	}
	return p.Parse(body, r.Header)
}

// parseQuery parses a GET delivery: a hook configured in Forgejo's web UI
// with the GET method sends no body, no Content-Type, and the JSON payload
// in the query parameter payload (next to the hook URL's own parameters),
// signed like a POST's.
func (p *Parser) parseQuery(r *http.Request) (Event, error) {
	raw := ""
	if r.URL != nil {
		raw = r.URL.RawQuery
	}
	if int64(len(raw)) > p.maxBody {
		return nil, p.newError(ErrTooLarge, r.Header, fmt.Sprintf("query of %d bytes over the bound of %d bytes", len(raw), p.maxBody))
	}
	if r.ContentLength != 0 {
		return nil, p.newError(ErrMalformed, r.Header, "a GET delivery with a body; Forgejo sends the payload in the query")
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		e := p.newError(ErrMalformed, r.Header, "query does not parse")
		e.Err = err
		return nil, e
	}
	vs, ok := q["payload"]
	switch {
	case !ok:
		return nil, p.newError(ErrMalformed, r.Header, "a GET without a payload query parameter is not a delivery")
	case len(vs) != 1:
		return nil, p.newError(ErrMalformed, r.Header, "query has several payload parameters")
	}
	return p.verifyDecode(nil, []byte(vs[0]), "query", r.Header)
}

// readBody reads at most n bytes of body, giving up when ctx ends (with the
// context's cause). size is the announced length (Content-Length), or -1.
func readBody(ctx context.Context, body io.Reader, n, size int64) ([]byte, error) {
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	if ctx.Done() == nil {
		return readAll(body, n, size)
	}
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := readAll(body, n, size)
		done <- result{b, err}
	}()
	select {
	case res := <-done:
		return res.b, res.err
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// readAll is io.ReadAll of at most n bytes, into one buffer of the
// announced size when there is one (io.ReadAll grows from 512 bytes,
// copying a 10 kB body five times); a body longer than announced still
// reads whole.
func readAll(r io.Reader, n, size int64) ([]byte, error) {
	if size <= 0 || size >= n {
		return io.ReadAll(io.LimitReader(r, n))
	}
	r = io.LimitReader(r, n)
	b := make([]byte, 0, size+1) // room for the read that meets EOF
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		m, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// timedOut reports whether a body read failed because time ran out: the
// request's context ended, or a read deadline passed.
func timedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// Parse verifies a delivery given as its body and headers (from a queue, a
// serverless function's event, a log of deliveries) and parses it into its
// event type. Header names are matched case-insensitively. body is kept by
// the returned event (see [Delivery.RawBody]); do not modify it afterwards.
//
// Errors are [*Error] values (see [Error.StatusCode]).
func (p *Parser) Parse(body []byte, header http.Header) (Event, error) {
	if int64(len(body)) > p.maxBody {
		return nil, p.newError(ErrTooLarge, header, fmt.Sprintf("body over the bound of %d bytes", p.maxBody))
	}
	// The content type says where the signed JSON is.
	ct := headerValue(header, "Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	switch {
	case ct == "":
		return nil, p.newError(ErrContentType, header, "no Content-Type")
	case err != nil:
		return nil, p.newError(ErrContentType, header, fmt.Sprintf("Content-Type %q does not parse", ct))
	case mt == "application/json":
		return p.verifyDecode(body, body, "json", header)
	case mt == "application/x-www-form-urlencoded":
		form, err := url.ParseQuery(string(body))
		if err != nil {
			e := p.newError(ErrMalformed, header, "form body does not parse")
			e.Err = err
			return nil, e
		}
		vs, ok := form["payload"]
		if !ok || len(vs) != 1 {
			return nil, p.newError(ErrMalformed, header, "form body has no single payload field")
		}
		return p.verifyDecode(body, []byte(vs[0]), "form", header)
	default:
		return nil, p.newError(ErrContentType, header, fmt.Sprintf("Content-Type %q is neither application/json nor application/x-www-form-urlencoded", mt))
	}
}

// verifyDecode verifies payload against the signature headers, then checks
// the headers and decodes: the common part of every kind of delivery.
func (p *Parser) verifyDecode(body, payload []byte, contentType string, header http.Header) (Event, error) {
	id, typ, conflict := deliveryHeaders(header)
	d := Delivery{
		id:          id,
		family:      headerValue(header, "X-Forgejo-Event"),
		body:        body,
		payload:     payload,
		contentType: contentType,
		header:      func() http.Header { return header },
	}
	if d.family == "" {
		d.family = headerValue(header, "X-Gitea-Event")
	}

	// Verify before looking at the payload any further.
	if sig, _, _ := signature(header); p.allowUnsigned && (sig == "" || len(p.secrets) == 0) {
		// Accepted unchecked: unsigned, or signed but with no secret to
		// check against (AllowUnsigned alone).
		d.signed = false
	} else {
		if err := verify(d.payload, header, p.secrets); err != nil {
			e := err.(*Error)
			e.DeliveryID = d.id
			e.EventType = typ
			return nil, e
		}
		d.signed = true
	}
	// Only then the headers: a forged request is refused as unsigned
	// whatever its headers say.
	if conflict != nil {
		return nil, conflict
	}

	d.typ = typ
	if d.typ == "" {
		return nil, p.newError(ErrMalformed, header, "no X-Forgejo-Event-Type, X-Gitea-Event-Type, X-Gogs-Event-Type or X-GitHub-Event-Type")
	}
	if canon, ok := legacyEventTypes[d.typ]; ok {
		d.typ = canon
	}
	ev, err := decode(d)
	if err != nil {
		return nil, err
	}
	return ev, nil
}

// Decode parses a JSON payload into the payload type of t, without any
// verification: for payloads already verified, or stored after verification.
// The returned event has only its event type and payload set (no delivery
// ID, no headers) and reports Signed false. Errors are [*Error] values of
// kind ErrMalformed, or ErrEventMismatch for a payload whose shape
// contradicts t.
func Decode(t EventType, payload []byte) (Event, error) {
	if canon, ok := legacyEventTypes[t]; ok {
		t = canon
	}
	return decode(Delivery{typ: t, contentType: "json", body: payload, payload: payload})
}

// decode unmarshals d.payload into the payload type of d.typ.
func decode(d Delivery) (Event, error) { return decodeFrom(d, true) }

// decodeFrom is decode, through the fast path when fast is set (tests
// compare it with the reference path).
func decodeFrom(d Delivery, fast bool) (Event, error) {
	ev := newEvent(d.typ)
	*ev.delivery() = d
	malformed := func(detail string, err error) error {
		return &Error{Kind: ErrMalformed, DeliveryID: d.id, EventType: d.typ, Detail: detail, Err: err}
	}
	trimmed := bytes.TrimLeft(d.payload, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, malformed("payload is not a JSON object", nil)
	}
	if u, ok := ev.(*UnknownEvent); ok {
		if !json.Valid(d.payload) {
			return nil, malformed("payload is not valid JSON", nil)
		}
		u.decodeLenient()
		return u, nil
	}
	if !fast {
		return decodeReference(d)
	}
	if why, ok := fastDecode(ev, d.typ, d.payload); ok {
		if why != "" {
			return nil, &Error{Kind: ErrEventMismatch, DeliveryID: d.id, EventType: d.typ, Detail: why}
		}
		return ev, nil
	}
	return decodeReference(d)
}

// decodeReference is decode with encoding/json, for whatever the fast path
// gives up on (and leaves partly written): the reference the fast path
// matches.
func decodeReference(d Delivery) (Event, error) {
	ev := newEvent(d.typ)
	*ev.delivery() = d
	if why := checkShape(d.typ, d.payload); why != "" {
		return nil, &Error{Kind: ErrEventMismatch, DeliveryID: d.id, EventType: d.typ, Detail: why}
	}
	if err := json.Unmarshal(d.payload, ev); err != nil {
		return nil, &Error{Kind: ErrMalformed, DeliveryID: d.id, EventType: d.typ, Detail: "payload does not decode", Err: err}
	}
	return ev, nil
}

func (p *Parser) newError(kind error, h http.Header, detail string) *Error {
	id, typ, _ := deliveryHeaders(h)
	return &Error{Kind: kind, DeliveryID: id, EventType: typ, Detail: detail}
}

// deliveryIDHeaders carry the delivery ID, read in this order; Forgejo sends
// all four with the same value. Spelled in canonical form (X-Github-, not
// Forgejo's X-GitHub-), as [headerValuesOf] looks them up.
var deliveryIDHeaders = []string{"X-Forgejo-Delivery", "X-Gitea-Delivery", "X-Gogs-Delivery", "X-Github-Delivery"}

// eventTypeHeaders carry the event type, read in this order. They
// deliberately do not include X-Forgejo-Event, the family name, which would
// confuse sub-events (see [EventType.Family]). Canonical, as
// deliveryIDHeaders.
var eventTypeHeaders = []string{"X-Forgejo-Event-Type", "X-Gitea-Event-Type", "X-Gogs-Event-Type", "X-Github-Event-Type"}

// deliveryHeaders reads the delivery ID (canonical, see
// [CanonicalDeliveryID]) and the event type from the first of their headers
// that has a value. conflict is not nil when the headers name two different
// delivery IDs or event types: a header repeated with another value, two
// values in one line, or the Gitea, Gogs or GitHub mirror disagreeing with
// X-Forgejo-*. Forgejo never sends such a request; a receiver that picked
// one of the values would dispatch (or deduplicate) on a name that another
// reader of the same request, a proxy, a log, a second receiver, does not.
func deliveryHeaders(h http.Header) (id string, typ EventType, conflict *Error) {
	var detail []string
	canonical := canonicalASCIIKeys(h) // once for both lookups
	id, ids := firstOfAll(h, canonical, deliveryIDHeaders, CanonicalDeliveryID)
	if ids != "" {
		detail = append(detail, "delivery IDs "+ids)
	}
	t, types := firstOfAll(h, canonical, eventTypeHeaders, strings.TrimSpace)
	if types != "" {
		detail = append(detail, "event types "+types)
	}
	typ = EventType(t)
	if len(detail) > 0 {
		conflict = &Error{Kind: ErrAmbiguous, DeliveryID: id, EventType: typ,
			Detail: "the headers name different " + strings.Join(detail, " and ")}
	}
	return id, typ, conflict
}

// firstOfAll returns the first non-empty value, normalized by norm, of the
// headers names (each value split at commas, as HTTP allows repeated lines
// to be joined), and, when another value differs from it, the two values
// quoted and cleaned for an error message.
func firstOfAll(h http.Header, canonical bool, names []string, norm func(string) string) (first, differ string) {
	lastRaw, lastNorm := "", ""
	for _, lines := range headerValuesOf(h, canonical, names) {
		for _, line := range lines {
			for rest, more := line, true; more; {
				var v string
				v, rest, more = strings.Cut(rest, ",")
				if v != lastRaw || lastRaw == "" {
					// Forgejo sends one value under four names: normalized once.
					lastRaw, lastNorm = v, norm(v)
				}
				v = lastNorm
				switch {
				case v == "":
				case first == "":
					first = v
				case v != first && differ == "":
					differ = fmt.Sprintf("%q and %q", clean(first), clean(v))
				}
			}
		}
	}
	return first, differ
}

// CanonicalDeliveryID returns the canonical form of a delivery ID, the one
// [Event.DeliveryID] reports and a [DeliveryGuard] is given: a UUID in any
// of its textual forms (upper or lower case, with or without hyphens, in
// braces, as a urn:uuid: URN) becomes the lower-case hyphenated form
// Forgejo sends; any other ID is returned with surrounding white space
// removed and otherwise as it is.
func CanonicalDeliveryID(id string) string {
	id = strings.TrimSpace(id)
	s := id
	if len(s) > 9 && strings.EqualFold(s[:9], "urn:uuid:") {
		s = s[9:]
	} else if len(s) > 2 && s[0] == '{' && s[len(s)-1] == '}' {
		s = s[1 : len(s)-1]
	}
	if canonicalUUID(s) && len(s) == len(id) {
		return id // Forgejo's own form: nothing to change
	}
	var hexDigits []byte
	switch len(s) {
	case 36:
		for i := 0; i < len(s); i++ {
			if i == 8 || i == 13 || i == 18 || i == 23 {
				if s[i] != '-' {
					return id
				}
				continue
			}
			hexDigits = append(hexDigits, s[i])
		}
	case 32:
		hexDigits = []byte(s)
	default:
		return id
	}
	var b [16]byte
	if n, err := hex.Decode(b[:], hexDigits); err != nil || n != 16 {
		return id
	}
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	hex.Encode(out[9:13], b[4:6])
	hex.Encode(out[14:18], b[6:8])
	hex.Encode(out[19:23], b[8:10])
	hex.Encode(out[24:36], b[10:16])
	out[8], out[13], out[18], out[23] = '-', '-', '-', '-'
	return string(out[:])
}

// canonicalUUID reports whether s is a UUID in the lower-case hyphenated
// form CanonicalDeliveryID returns.
func canonicalUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := range len(s) {
		c := s[i]
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case ('0' <= c && c <= '9') || ('a' <= c && c <= 'f'):
		default:
			return false
		}
	}
	return true
}
