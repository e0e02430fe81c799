package forgejo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"codeberg.org/forgego/forgejo/internal/secret"
)

// This file is the request pipeline every operation goes through: build the
// URL once, then for each attempt send, read the body within its bound, map
// the status, decode, and tell the observer; between attempts it asks the
// retry engine (retry.go). Operations only describe requests: no operation
// decides what a status means.

// Operation describes one API operation, as the operations table states it.
type Operation struct {
	// ID is the spec's operationId, used as CallContext.Operation.
	ID string
	// Method and Path are the HTTP method and the spec's path template
	// relative to the API root, such as "/repos/{owner}/{repo}".
	Method, Path string
	// Service and Name are the Go service and method, such as "Repos" and
	// "Get".
	Service, Name string
	// Retry is the operation's retry eligibility; RetryReason says why.
	Retry       RetryEligibility
	RetryReason string
	// Paging is how the operation pages.
	Paging PagingKind
	// Since is the first supported Forgejo release that serves the
	// operation, in any form ("11.0" when every supported release does);
	// Until is the last, "" while the newest release still serves it.
	// Earlier lists the releases that serve it under another operationId or
	// path. [WithVersionCheck] and [Client.Serves] judge by them.
	Since, Until string
	Earlier      []OperationForm

	wrapped bool // the listing may arrive wrapped (docs/HAZARDS.md §11)
}

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

// request is one call's inputs, built by an operation method.
type request struct {
	op       *Operation
	path     string // encoded, starting with "/"
	query    []queryParam
	body     []byte
	stream   *bodyStream // a body streamed from the caller's reader instead (uploads.go); sent once
	bodyType string      // Content-Type of body or stream
	result   resultKind
	extra    *callOptions // per-call options; nil when none
	err      error        // a validation failure while building: nothing is sent
	args     []pathArg    // the path's arguments, for re-targeting (version_check.go)
	argBuf   [3]pathArg   // args' storage for the usual few, saving an allocation
	root     bool         // path is below the instance root, not the API's (OpenAttachment)
}

// newRequest starts a request for op, expanding its path template with args.
func newRequest(op *Operation, args ...pathArg) *request {
	r := &request{op: op}
	r.args = append(r.argBuf[:0], args...)
	r.path, r.err = expandPath(op.Path, args...)
	return r
}

// addQuery appends a query parameter; empty values are not sent, since an
// unset filter and an empty one mean the same to Forgejo.
func (r *request) addQuery(name, value string) {
	if value != "" {
		r.query = append(r.query, queryParam{name, value})
	}
}

// addQueryTime appends a timestamp query parameter (RFC 3339) when set.
func (r *request) addQueryTime(name string, value time.Time) {
	if !value.IsZero() {
		r.query = append(r.query, queryParam{name, value.Format(time.RFC3339)})
	}
}

// addQueryList appends a comma-joined list when non-empty.
func (r *request) addQueryList(name string, values []string) {
	if len(values) > 0 {
		r.query = append(r.query, queryParam{name, strings.Join(values, ",")})
	}
}

// paging appends page and limit (or the operation's variant) last.
func (r *request) paging(c *Client, opts ListOptions) {
	if r.err != nil {
		return
	}
	r.query, r.err = c.appendPaging(r.query, r.op.Paging, opts)
}

// jsonBody sets a JSON request body, encoded once for every attempt.
func (r *request) jsonBody(v any) {
	if r.err != nil {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		r.err = &ValidationError{Field: "body", Message: "cannot be encoded as JSON: " + err.Error()}
		return
	}
	r.body, r.bodyType = data, "application/json"
}

// jsonDecoder is implemented by models that carry a reflection-free decoder;
// the pipeline prefers it to encoding/json. The generator may emit these
// later: decoding dominates a call's cost.
type jsonDecoder interface {
	decodeJSON(data []byte) error
}

// errResponseTooLarge marks a body past its configured bound.
var errResponseTooLarge = errors.New("response body exceeds the configured limit")

// call runs a request through the retry loop and decodes the success body
// into out (a pointer; nil to ignore the body). The *Response is never nil
// (see Response).
func (c *Client) call(ctx context.Context, r *request, out any) (*Response, error) {
	resp, err := c.callOnce(ctx, r, out)
	if resp == nil {
		resp = newResponse(nil) // no answer arrived: still a usable Response
	}
	return resp, err
}

// callOnce is call without the guarantee of a non-nil Response.
func (c *Client) callOnce(ctx context.Context, r *request, out any) (resp *Response, err error) {
	c.admit(ctx, r) // version_check.go: may refuse (r.err) or re-target r.path
	red := c.redactor(r)
	// Every caller-supplied label (Client.Do's Operation, Method and Path)
	// reaches errors, observers, spans and metrics: scrubbed and bounded
	// here, once, like any text from the server.
	opID, method := bound(red.scrub(r.op.ID)), bound(red.scrub(r.op.Method))
	if r.err != nil {
		call := CallContext{Operation: opID, Method: method, Route: bound(red.scrub(r.op.Path)), URL: "(not sent)", Final: true}
		c.notifyError(ctx, call, r.err)
		return nil, r.err
	}
	query := r.query
	if r.extra != nil && len(r.extra.query) > 0 {
		query = append(slices.Clip(query), r.extra.query...)
	}
	base := c.baseURL
	if r.root {
		base = c.instanceRoot()
	}
	sendURL, redacted := buildURL(base, r.path, query)
	redacted = red.scrub(redacted)
	route := bound(red.scrub(r.op.Path)) // Client.Do's route is the caller's path
	// Hook for a ContextObserver (observer_context.go): the ctx it returns is
	// the one every attempt, wait and later observer event uses; it sees the
	// end of the call through the named results.
	ctx, end := c.startCall(ctx, CallContext{Operation: opID, Method: method, Route: route, URL: redacted})
	defer func() { end(resp, err) }()
	for n := 1; ; n++ {
		call := CallContext{Operation: opID, Method: method, Route: route, URL: redacted, Attempt: n}
		if perr := c.pace(ctx, call); perr != nil {
			final := &TransportError{Call: call, Kind: TransportCanceled, Err: perr}
			call.Final = true
			c.notifyError(ctx, call, final)
			return nil, final
		}
		resp, err := c.pacedAttempt(ctx, r, red, sendURL, &call, out)
		if err == nil {
			c.limits.recordOutcome(true, false)
			resp.Attempts = n
			return resp, nil
		}
		if resp == nil {
			resp = newResponse(nil) // no answer arrived: the attempt still counts
		}
		resp.Attempts = n
		c.notifyError(ctx, call, err)
		canRetry := retryable(err)
		c.limits.recordOutcome(false, canRetry)
		eligible := r.op.Retry.allows(r.op.Method) && canRetry
		if !eligible || n >= c.retry.MaxAttempts || !c.limits.allowRetry() {
			final := err
			if eligible && n > 1 {
				final = &RetriesExhaustedError{Call: call, Attempts: n, Last: err}
			}
			call.Final = true
			c.notifyError(ctx, call, final)
			return resp, final
		}
		wait := c.delay(n, err)
		c.notifyRetry(ctx, call, err, wait)
		if serr := c.sleep(ctx, wait); serr != nil {
			// The caller gave up during the backoff: report that, not the
			// failure we were about to retry.
			final := &TransportError{Call: call, Kind: TransportCanceled, Err: serr}
			call.Final = true
			c.notifyError(ctx, call, final)
			return resp, final
		}
	}
}

// pacedAttempt is attempt, ending what pace began (the attempt is no longer
// in flight, pacing.go) on every exit path, a panic's included: a slot
// left taken would make every later paced call wait.
func (c *Client) pacedAttempt(ctx context.Context, r *request, red redactor, sendURL string, call *CallContext, out any) (*Response, error) {
	defer c.paceDone()
	return c.attempt(ctx, r, red, sendURL, call, out)
}

// noReplayBody is the body of a request that must not be repeated but has
// none of its own (a GET, HEAD or OPTIONS sent through Client.Do with
// Never). net/http silently re-sends a bodiless GET, HEAD or OPTIONS once
// when a reused keep-alive connection dies before the answer; it never
// re-sends a request whose body it cannot rewind (Request.GetBody nil).
// This body is empty, so nothing extra goes on the wire: net/http probes it,
// finds EOF and sends no body and no Content-Length.
type noReplayBody struct{}

func (noReplayBody) Read([]byte) (int, error) { return 0, io.EOF }
func (noReplayBody) Close() error             { return nil }

// replayedByTransport reports whether net/http may re-send a bodiless
// request with this method on its own.
func replayedByTransport(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return true
	}
	return false
}

// newHTTPRequest builds one attempt's request: the method, the URL, the
// body, the headers the pipeline owns, the per-call headers, the
// credential, which nothing can override, and last what a HeaderObserver
// adds (observer_headers.go), which never replaces a header.
func (c *Client) newHTTPRequest(ctx context.Context, r *request, red redactor, sendURL string, call CallContext) (*http.Request, error) {
	var body io.Reader
	switch {
	case r.stream != nil:
		sb, err := r.stream.open()
		if err != nil {
			return nil, err
		}
		body = sb
	case r.body != nil:
		body = bytes.NewReader(r.body)
	}
	var perCall http.Header
	if r.extra != nil {
		perCall = r.extra.headers
	}
	observed := c.observerHeaders(ctx, call)
	if stripped := redirectStripped(perCall, observed); len(stripped) > 0 {
		// The redirect rule strips these off the base URL's origin
		// (withSafeRedirects).
		ctx = context.WithValue(ctx, perCallHeadersKey{}, stripped)
	}
	hreq, err := http.NewRequestWithContext(ctx, r.op.Method, sendURL, body)
	if err != nil {
		return nil, err
	}
	if r.stream != nil {
		// Its exact length, so nothing is buffered or chunked; and it
		// cannot rewind, so no layer below may repeat it.
		hreq.ContentLength, hreq.GetBody = r.stream.length, nil
	} else if r.body == nil && replayedByTransport(r.op.Method) && !r.op.Retry.allows(r.op.Method) {
		hreq.Body, hreq.GetBody = noReplayBody{}, nil
	} else if r.body != nil && !r.op.Retry.allows(r.op.Method) {
		hreq.GetBody = nil // a write is sent once; no layer below may repeat it
	}
	// The pipeline's own header names are written in canonical form
	// directly; per-call headers arrive canonical (callopts.go).
	h := hreq.Header
	if r.extra != nil {
		for name, values := range r.extra.headers {
			h[name] = slices.Clone(values)
		}
	}
	// One backing array for the pipeline's header values; each value is a
	// full slice of its own, so that an append never writes into another.
	vals := make([]string, 4)
	set := func(i int, name, value string) {
		vals[i] = value
		h[name] = vals[i : i+1 : i+1]
	}
	if r.bodyType != "" {
		set(0, "Content-Type", r.bodyType)
	}
	if v := h["Accept"]; len(v) == 0 || v[0] == "" {
		switch r.result {
		case resultJSON, resultBool, resultNone, resultWithheld:
			set(1, "Accept", "application/json")
		default:
			set(1, "Accept", "*/*")
		}
	}
	set(2, "User-Agent", c.userAgent)
	auth, err := c.authorization(ctx, r.extra, red.call)
	if err != nil {
		return nil, errTokenSource{err}
	}
	if auth != "" {
		set(3, "Authorization", auth)
	}
	for name, values := range observed {
		if _, taken := h[name]; !taken {
			h[name] = values
		}
	}
	return hreq, nil
}

// errTokenSource marks a token source's failure while building a request.
type errTokenSource struct{ err error }

func (e errTokenSource) Error() string { return e.err.Error() }

// conditional reports whether the call carries If-None-Match or
// If-Modified-Since, so that a 304 is its answer rather than an error.
func (r *request) conditional() bool {
	return r.extra != nil && (r.extra.headers.Get("If-None-Match") != "" || r.extra.headers.Get("If-Modified-Since") != "")
}

// attempt sends the request once and reads its answer.
func (c *Client) attempt(ctx context.Context, r *request, red redactor, sendURL string, call *CallContext, out any) (*Response, error) {
	c.notifyRequest(ctx, *call)
	streaming := r.result == resultStream
	actx, cancel := ctx, context.CancelFunc(func() {})
	stopTimer := func() bool { return false }
	switch {
	case streaming:
		// A stream's body outlives the attempt: the attempt timeout bounds
		// the wait for the answer's headers, and the body's Close ends the
		// request.
		actx, cancel = context.WithCancel(ctx)
		if c.attemptTimeout > 0 {
			stopTimer = time.AfterFunc(c.attemptTimeout, cancel).Stop
		}
	case c.attemptTimeout > 0:
		actx, cancel = context.WithTimeout(ctx, c.attemptTimeout)
	}
	handedOff := false
	defer func() {
		if !handedOff {
			cancel()
		}
	}()

	hreq, err := c.newHTTPRequest(actx, r, red, sendURL, *call)
	if tse, ok := err.(errTokenSource); ok {
		return nil, &AuthError{Call: *call, Err: red.scrubError(tse.err)}
	}
	if err != nil {
		// The URL was validated at construction; this is unreachable short
		// of a bug, and must not echo the URL. Nothing was sent, and a
		// request that cannot be built never can be: not retryable.
		return nil, &ValidationError{Field: "request", Message: "could not be built"}
	}

	start := c.now()
	hresp, err := c.httpClient.Do(hreq)
	if err != nil {
		call.Duration = c.now().Sub(start)
		return nil, c.transportError(ctx, red, *call, err)
	}
	limit := c.maxResponseBytes
	if r.result == resultBytes || streaming {
		limit = c.maxDownloadBytes
	}
	success := hresp.StatusCode >= 200 && hresp.StatusCode < 300
	if streaming && success {
		stopTimer()
		return c.handOffStream(ctx, red, call, start, hresp, limit, cancel, out, &handedOff)
	}
	pad := 0
	if !success {
		// An error body is only parsed, never returned. Past the bound it
		// is cut, but first read a little further, so that a secret
		// straddling the cut is scrubbed whole.
		limit = min(limit, maxErrorBody)
		pad = red.pad()
	}
	// A JSON success body is only decoded, and decoding copies what it
	// keeps (encoding/json's contract for UnmarshalJSON too), so it is read
	// into a pooled buffer, handed back once decoded.
	pooled := success && (r.result == resultJSON || r.result == resultWithheld)
	data, held, rerr := readBody(hresp, limit, pad, !success, pooled)
	defer releaseBody(held)
	resp := c.recordAnswer(ctx, red, call, start, hresp)
	if rerr != nil {
		return resp, c.transportError(ctx, red, *call, rerr)
	}

	if !success {
		if r.result == resultBool && hresp.StatusCode == http.StatusNotFound {
			*(out.(*bool)) = false
			return resp, nil
		}
		if hresp.StatusCode == http.StatusNotModified && r.conditional() {
			resp.NotModified = true
			return resp, nil
		}
		return resp, c.statusError(red, *call, hresp, data)
	}
	if err := c.decode(r, data, out); err != nil {
		snip := red.snippet(data)
		if r.result == resultWithheld {
			snip = "*** (" + strconv.Itoa(len(data)) + " bytes withheld)"
		}
		if msg := err.Error(); red.scrub(msg) != msg {
			// The cause quotes the body, and the body carries a secret:
			// keep the message, drop the quote.
			err = errors.New(red.scrub(msg))
		}
		return resp, &DecodeError{Call: *call, Path: red.scrub(decodePath(err)), Snippet: snip, Err: err}
	}
	return resp, nil
}

// recordAnswer is what every answer that arrived goes through, streamed
// or read: the attempt's duration and scrubbed request ID, the Response
// with its paging headers, the rate-limit snapshot (to the client's limits,
// the Pacer and the observer) and the observer's OnResponse.
func (c *Client) recordAnswer(ctx context.Context, red redactor, call *CallContext, start time.Time, hresp *http.Response) *Response {
	now := c.now()
	call.Duration = now.Sub(start)
	call.RequestID = red.scrub(hresp.Header.Get("X-Request-Id"))
	resp := newResponse(hresp)
	resp.requestID = call.RequestID
	resp.client = c // a walk reads its concurrency and pacing from here (issue 13)
	if rl, ok := parseRateLimit(hresp.Header, now); ok {
		red.scrubRateLimit(rl)
		resp.rateLimit = rl
		c.limits.observe(rl, rl.ReceivedAt)
		c.notifyRateLimit(ctx, *call, *rl)
	}
	c.observePacer(ctx, *call, hresp, resp.rateLimit)
	c.notifyResponse(ctx, *call, hresp.StatusCode)
	return resp
}

// maxErrorBody bounds how much of an error body is read for its message;
// the rest is discarded, so an oversized error body never masks the status.
const maxErrorBody = 64 << 10

// readBody reads at most limit bytes. Past the bound it fails, unless
// truncate is set (error bodies), where it keeps the prefix plus pad more
// bytes, so that the caller can scrub across the cut before cutting. The
// body is always closed. With pooled set, data lives in a pooled buffer
// that the caller hands back with releaseBody once nothing refers to it
// (held is nil otherwise).
func readBody(resp *http.Response, limit int64, pad int, truncate, pooled bool) (data []byte, held *[]byte, err error) {
	defer resp.Body.Close()
	if resp.ContentLength > limit && !truncate {
		return nil, nil, errResponseTooLarge
	}
	keep := limit
	if truncate {
		keep += int64(pad)
	}
	body := io.LimitReader(resp.Body, keep+1)
	switch {
	case pooled:
		held = bodyBuffers.Get().(*[]byte)
		data, err = readInto((*held)[:0], body, resp.ContentLength)
		*held = data
	case resp.ContentLength < 0:
		// Unknown length: pooled chunks and one exact allocation, not a
		// buffer doubled up to twice the body (bodyread.go, issue 13).
		data, err = readUnsized(body)
	default:
		buf := bytes.NewBuffer(make([]byte, 0, min(resp.ContentLength, keep)+1))
		_, err = buf.ReadFrom(body)
		data = buf.Bytes()
	}
	if int64(len(data)) > limit {
		if !truncate {
			releaseBody(held)
			return nil, nil, errResponseTooLarge
		}
		data = data[:min(int64(len(data)), keep)]
		err = nil
	}
	if err != nil && !truncate {
		releaseBody(held)
		return nil, nil, err
	}
	return data, held, nil
}

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
	// The generated reflection-free decoders first (jsonscan.go, issue 13);
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

// transportError classifies a send or read failure. The cause's URL, which
// net/http puts in *url.Error, is replaced with the redacted one, and a
// cause whose text quotes a secret (net/http quotes malformed status lines,
// header lines and Location values verbatim) is replaced by its scrubbed
// text.
func (c *Client) transportError(ctx context.Context, red redactor, call CallContext, err error) *TransportError {
	kind, temporary := classifyTransport(ctx, err)
	var ue *url.Error
	if errors.As(err, &ue) {
		err = &url.Error{Op: ue.Op, URL: call.URL, Err: ue.Err}
	}
	return &TransportError{Call: call, Kind: kind, Err: red.scrubError(err), temporary: temporary}
}

// Request is a call to an endpoint the library does not cover, for
// [Client.Do]. It goes through the same pipeline as every operation: auth,
// retry, bounds, status mapping, redaction and observers.
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
	// Operation labels the call in errors and observer events; default
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
func (c *Client) Do(ctx context.Context, req *Request, v any, opts ...CallOption) (*Response, error) {
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
		return err // the caller's mistake: refused before sending, never retried (issue 19 §9)
	}
	if err := checkDotSegments("path", p); err != nil {
		return err
	}
	return nil
}
