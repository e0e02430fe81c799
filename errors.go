package forgejo

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// This file holds every error the package returns: the types, with their
// methods, and the sentinels for errors.Is, each listed in the package
// documentation (TestErrorsInOnePlace). The Error texts are bounded
// (MaxFragment) and name their call through CallContext.

// Bounds on what an error string may carry.
const (
	// MaxFragment is the most characters of any one fragment (message, URL,
	// detail, snippet) that an Error() string includes.
	MaxFragment = 512
	// MaxDetails is the most server error details an Error() string lists.
	MaxDetails = 8
)

// CallContext says which call an error or hook event belongs to. It is
// built once per attempt and is already redacted: it never holds a
// credential.
type CallContext struct {
	// Operation is the spec's operationId, such as "issueListIssues"; stable,
	// low-cardinality, and the right label for metrics.
	Operation string
	// Method is the HTTP method.
	Method string
	// Route is the operation's path template relative to the API root,
	// such as "/repos/{owner}/{repo}/issues": low-cardinality, safe as a
	// metric label or span name. For Client.Do it is the request's path.
	Route string
	// URL is the request URL with sensitive query values, and any echo of
	// the client's secrets, masked.
	URL string
	// RequestID is the response's X-Request-Id header, when the instance sent
	// one; quote it to the instance's administrators.
	RequestID string
	// Attempt is the 1-based attempt number.
	Attempt int
	// Duration is how long this attempt took (send and read), not the whole
	// retried call.
	Duration time.Duration
	// Final is true only on the Error hook event that reports the error
	// the caller receives.
	Final bool
}

// String renders the context as the prefix of error messages.
func (c CallContext) String() string {
	var b strings.Builder
	c.writeLabel(&b)
	if c.Attempt > 1 {
		b.WriteString(" attempt ")
		b.WriteString(strconv.Itoa(c.Attempt))
	}
	b.WriteString(" after ")
	b.WriteString(strconv.FormatInt(c.Duration.Milliseconds(), 10))
	b.WriteString("ms")
	return b.String()
}

// writeLabel writes what names the call, whichever attempt: the operation,
// the method, the URL and the request ID.
func (c CallContext) writeLabel(b *strings.Builder) {
	b.WriteString(c.Operation)
	b.WriteByte(' ')
	b.WriteString(c.Method)
	b.WriteByte(' ')
	b.WriteString(bound(c.URL))
	if c.RequestID != "" {
		b.WriteString(" [request-id ")
		b.WriteString(bound(c.RequestID))
		b.WriteByte(']')
	}
}

// callFailure is an error whose message is its call's context followed by
// what went wrong; failure is that second part alone, so that a
// [*RetriesExhaustedError] names the call once.
type callFailure interface {
	error
	failure() string
}

// APIError is a non-2xx answer from the instance. Forgejo's Message is often
// a Go symbol ("GetUserByName"); the human sentence, when there is one, is the
// first of Errors. Branch on StatusCode: 404 means missing or private to
// these credentials, 401 a missing or bad token, 403 a missing scope (then
// wrapped in a [*ScopeError] that names it) or permission, 400 and
// 422 both mean an invalid request (Gitea also answers a stale file sha with
// 422), 409 a conflict (a stale file sha on Forgejo, a name taken), 423 a
// locked or archived resource.
type APIError struct {
	Call       CallContext
	StatusCode int
	// Message is the body's "message", or the text of a text/plain body.
	Message string
	// URL is the body's "url" (Forgejo sends its swagger page).
	URL string
	// Errors are the body's "errors" strings, in order.
	Errors []string
	// Location is the Location header of a 3xx answer: where a renamed or
	// transferred repository now lives, say. Writes never follow
	// redirects; see [WithHTTPClient].
	Location string

	retryAfter    time.Duration
	hasRetryAfter bool
}

// RetryAfter returns the wait the instance asked for in Retry-After, if it
// sent a usable one. ok false on a 429 means "no usable hint", not "retrying
// at once is safe".
func (e *APIError) RetryAfter() (d time.Duration, ok bool) {
	if e == nil {
		return 0, false
	}
	return e.retryAfter, e.hasRetryAfter
}

// Error renders the call, the status, the server's message and details,
// and the Retry-After hint, each bounded.
func (e *APIError) Error() string { return e.Call.String() + " " + e.failure() }

// failure is the message without the call's context.
func (e *APIError) failure() string {
	var b strings.Builder
	b.WriteString("responded ")
	b.WriteString(strconv.Itoa(e.StatusCode))
	b.WriteString(": ")
	if e.Message != "" {
		b.WriteString(bound(e.Message))
	} else {
		b.WriteString("no message from the server")
	}
	if len(e.Errors) > 0 {
		b.WriteString(" (")
		for i, d := range e.Errors {
			if i == MaxDetails {
				fmt.Fprintf(&b, "; and %d more", len(e.Errors)-MaxDetails)
				break
			}
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(bound(d))
		}
		b.WriteByte(')')
	}
	if e.hasRetryAfter {
		b.WriteString("; retry after ")
		b.WriteString(e.retryAfter.String())
	}
	return b.String()
}

// Is makes errors.Is(err, ErrNotFound) and its siblings match an APIError
// of that status.
func (e *APIError) Is(target error) bool {
	if e == nil {
		return false
	}
	if match, ok := differenceMatch(target, e); ok {
		return match // ErrStaleFile, ErrNoSigningKey (server_differences.go)
	}
	s, ok := target.(statusSentinel)
	return ok && int(s) == e.StatusCode
}

// Status sentinels, for errors.Is: errors.Is(err, ErrNotFound) holds when
// err is, or wraps, an [*APIError] with status 404, including the last
// failure of a [*RetriesExhaustedError]. Use [StatusCode] for any other
// status.
var (
	// ErrBadRequest matches a 400: the request was invalid.
	ErrBadRequest error = statusSentinel(400)
	// ErrUnauthorized matches a 401: no credential, or a bad one.
	ErrUnauthorized error = statusSentinel(401)
	// ErrForbidden matches a 403: the credential lacks a scope or a
	// permission.
	ErrForbidden error = statusSentinel(403)
	// ErrNotFound matches a 404: missing, or private to these credentials.
	ErrNotFound error = statusSentinel(404)
	// ErrConflict matches a 409: a name taken, or (on Forgejo) a stale
	// file sha.
	ErrConflict error = statusSentinel(409)
	// ErrUnprocessable matches a 422: a validation failure (and, on Gitea,
	// a stale file sha).
	ErrUnprocessable error = statusSentinel(422)
	// ErrLocked matches a 423: a locked or archived resource.
	ErrLocked error = statusSentinel(423)
	// ErrRateLimited matches a 429: the rate limit is spent;
	// [APIError.RetryAfter] says for how long.
	ErrRateLimited error = statusSentinel(429)
)

// statusSentinel is the type of the status sentinels.
type statusSentinel int

func (s statusSentinel) Error() string {
	return "forgejo: status " + strconv.Itoa(int(s))
}

// StatusCode returns the HTTP status of the [*APIError] err is or wraps
// (through [*RetriesExhaustedError] too), and 0 when err carries none: a
// transport failure, a rejected argument, nil.
func StatusCode(err error) int {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.StatusCode
	}
	return 0
}

// ErrStaleFile matches, with errors.Is, the refusal of a file update or
// delete whose sha is no longer the file's: "the file changed under you".
// Forgejo answers 409 to the update and 400 to the delete, Gitea 422 to
// both, all with "sha does not match [given: ..., expected: ...]". It
// matches an [*APIError] of Repos.UpdateFile with 409, or with 422 and that
// message, and of Repos.DeleteFile with 409, or with 400 or 422 and that
// message. Read the file again and retry with its new sha.
var ErrStaleFile = errors.New("forgejo: the file's sha is stale (it changed since it was read)")

// ErrNoSigningKey is what Misc.GetSigningKey, Misc.GetSSHSigningKey and
// Repos.GetSigningKey return when the instance has no signing key: Forgejo
// answers 200 with an empty body, Gitea (and Forgejo for the SSH key)
// 404. errors.Is(err, ErrNoSigningKey) is true for both; the 404 also
// stays an [*APIError] (errors.Is(err, ErrNotFound) holds).
var ErrNoSigningKey = errors.New("forgejo: the instance has no signing key")

// ScopeError is the refusal of an access token that lacks a scope the
// operation requires: a 403 whose message is the server's scope refusal,
// "token does not have at least one of required scope(s): [read:user]"
// (Forgejo; Gitea words it "…scope(s), required=[read:user], token
// scope=…"). errors.Is(err, ErrTokenScope) holds for it, and errors.As finds
// both the *ScopeError and its [*APIError], so errors.Is(err, ErrForbidden)
// and [StatusCode] hold as for any 403. Every other 403 (a permission, a
// public-only token on a private organization) stays a plain *APIError.
//
// Required is what the server named, which is not always all that the
// operation needs: when two checks are nested, the refusal names only the
// first that fails. [Operation.Scope] states the whole requirement.
type ScopeError struct {
	// Required are the scopes the refusal names. The message says "at
	// least one of", but every scope listed is required.
	Required []TokenScope
	// API is the answer itself.
	API *APIError
}

// Error renders the answer as its [*APIError] does.
func (e *ScopeError) Error() string {
	if e == nil || e.API == nil {
		return "forgejo: token scope refused"
	}
	return e.API.Error()
}

// failure is the message without the call's context.
func (e *ScopeError) failure() string {
	if e == nil || e.API == nil {
		return "token scope refused"
	}
	return e.API.failure()
}

// Unwrap returns the answer, so that errors.As(err, &apiErr) finds it.
func (e *ScopeError) Unwrap() error {
	if e == nil || e.API == nil {
		return nil
	}
	return e.API
}

// Is makes errors.Is(err, ErrTokenScope) match every ScopeError.
func (e *ScopeError) Is(target error) bool { return target == ErrTokenScope }

// ErrTokenScope matches, with errors.Is, every [*ScopeError]: the access
// token lacks a scope the operation requires.
var ErrTokenScope = errors.New("forgejo: the token lacks a scope the operation requires")

// TransportKind classifies a [TransportError].
type TransportKind int

// Transport failure kinds. Connection failures, timeouts, temporary DNS
// failures and unclassified failures are retried on eligible calls; TLS
// failures, cancellation and oversized responses never are.
const (
	TransportUnknown          TransportKind = iota // unclassified
	TransportConnection                            // refused, reset, closed early
	TransportTimeout                               // an attempt ran past its timeout
	TransportTLS                                   // certificate or handshake failure
	TransportDNS                                   // name resolution failed
	TransportCanceled                              // the caller's ctx was canceled or expired
	TransportResponseTooLarge                      // the body passed its configured bound
)

// String describes the kind in words.
func (k TransportKind) String() string {
	switch k {
	case TransportConnection:
		return "connection failed"
	case TransportTimeout:
		return "timed out"
	case TransportTLS:
		return "TLS failure"
	case TransportDNS:
		return "name resolution failed"
	case TransportCanceled:
		return "canceled"
	case TransportResponseTooLarge:
		return "response body too large"
	default:
		return "unclassified transport failure"
	}
}

// TransportError means no usable response arrived: a status, even a 5xx, is
// never a TransportError. It unwraps to the cause, so
// errors.Is(err, context.Canceled) holds for a canceled call.
type TransportError struct {
	Call CallContext
	Kind TransportKind
	// Err is the cause. Any URL inside it has been replaced by the redacted
	// one.
	Err error
	// temporary marks a DNS failure that may heal (not "no such host").
	temporary bool
}

// Error renders the call, the kind and the cause, bounded.
func (e *TransportError) Error() string { return e.Call.String() + " " + e.failure() }

// failure is the message without the call's context.
func (e *TransportError) failure() string {
	detail := "no detail"
	if e.Err != nil {
		detail = bound(e.Err.Error())
	}
	return "transport failure: " + e.Kind.String() + " (" + detail + ")"
}

// Unwrap returns the cause.
func (e *TransportError) Unwrap() error { return e.Err }

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

// DecodeError means a 2xx body did not fit the model: a different Forgejo
// version, a proxy that rewrote the body, or a field of an unexpected type.
// Retrying will not help.
type DecodeError struct {
	Call CallContext
	// Path is where decoding failed, such as "$.owner.id" ("$" when the body
	// is not JSON at all).
	Path string
	// Snippet is the start of the body, at most MaxFragment characters, or a
	// note that it was withheld because it carried a credential.
	Snippet string
	Err     error
}

// Error renders the call, the JSON path, the cause and the snippet.
func (e *DecodeError) Error() string { return e.Call.String() + " " + e.failure() }

// failure is the message without the call's context.
func (e *DecodeError) failure() string {
	cause := "invalid body"
	if e.Err != nil {
		cause = bound(e.Err.Error())
	}
	return "could not decode " + bound(e.Path) + ": " + cause + "; body was " + bound(e.Snippet)
}

// Unwrap returns the JSON error.
func (e *DecodeError) Unwrap() error { return e.Err }

// ValidationError means an argument or option was rejected before anything
// was sent. Field is stable (owner, repo, token, baseURL, page, limit…);
// Message never contains the rejected value.
type ValidationError struct {
	Field   string
	Message string
}

// Error renders "invalid <field>: <message>".
func (e *ValidationError) Error() string {
	return "invalid " + e.Field + ": " + bound(e.Message)
}

// RetriesExhaustedError means a call was attempted more than once and its
// retry budget ran out. Last is the final failure, verbatim. A failure that
// was not repeated is returned bare, never wrapped in this type.
type RetriesExhaustedError struct {
	Call     CallContext
	Attempts int
	Last     error
}

// Error names the call once, then the attempts made, how long the last
// took, and the last failure: "repoGet GET https://…/repos/a/b: gave up
// after 3 attempts (the last took 12ms): responded 503: …".
func (e *RetriesExhaustedError) Error() string {
	last := "unknown"
	if cf, ok := e.Last.(callFailure); ok {
		last = bound(cf.failure())
	} else if e.Last != nil {
		last = bound(e.Last.Error())
	}
	var b strings.Builder
	e.Call.writeLabel(&b)
	b.WriteString(": gave up after ")
	b.WriteString(strconv.Itoa(e.Attempts))
	b.WriteString(" attempts (the last took ")
	b.WriteString(strconv.FormatInt(e.Call.Duration.Milliseconds(), 10))
	b.WriteString("ms): ")
	b.WriteString(last)
	return b.String()
}

// Unwrap returns Last, so errors.As finds the final *APIError or
// *TransportError through this type.
func (e *RetriesExhaustedError) Unwrap() error { return e.Last }

// AuthError means the client's [TokenSource] could not supply a usable
// token, so nothing was sent. Err is the source's error, with any token
// masked.
type AuthError struct {
	Call CallContext
	Err  error
}

// Error renders the call and the cause.
func (e *AuthError) Error() string { return e.Call.String() + " " + e.failure() }

// failure is the message without the call's context.
func (e *AuthError) failure() string {
	cause := "no detail"
	if e.Err != nil {
		cause = bound(e.Err.Error())
	}
	return "could not get a token: " + cause
}

// Unwrap returns the cause.
func (e *AuthError) Unwrap() error { return e.Err }

// UploadError is a streamed [Upload] whose Content failed while the request
// was being sent: it ended before its declared size, held more, or its
// Read failed. The request was cut off before its body was complete, so
// the instance received no whole file. It reaches the caller as the cause
// of a *TransportError (errors.As finds it), which is never retried.
type UploadError struct {
	// Field is the form field of the file, such as "attachment".
	Field string
	// Size is the declared length; Read is how much of Content had been
	// read when the failure was found.
	Size, Read int64
	// Err is ErrUploadTooShort, ErrUploadTooLong, or Content's read error.
	Err error
}

// The causes of an [UploadError] whose Content did not hold its size.
var (
	ErrUploadTooShort = errors.New("content ended before its declared size")
	ErrUploadTooLong  = errors.New("content is longer than its declared size")
)

// Error renders the field, the sizes and the cause.
func (e *UploadError) Error() string {
	cause := "no detail"
	if e.Err != nil {
		cause = bound(e.Err.Error())
	}
	return "upload " + e.Field + ": " + cause + " (declared " + strconv.FormatInt(e.Size, 10) +
		" bytes, read " + strconv.FormatInt(e.Read, 10) + ")"
}

// Unwrap returns the cause.
func (e *UploadError) Unwrap() error { return e.Err }

// UnsupportedOperationError is the error of a call to an operation the
// server's Forgejo release does not serve. A client built with
// [WithVersionCheck] refuses such a call before sending; so do the Actions
// helpers ([ActionsService.FollowJobLog], [ActionsService.WaitJob],
// [ActionsService.DownloadArtifactTo]…) whenever the client already knows
// the server's release. A call that was sent, to an operation that some
// supported release lacks, and that the server's router refused (404
// text/plain "404 page not found", its answer for a route it does not
// have, as Forgejo 15 answers the routes 16.0 added; or an empty 405 with
// Allow, for a path it serves for another method only) is this error too,
// whatever the options: then API is that answer, which errors.As(err,
// &apiErr) and [StatusCode] read (and errors.Is(err, ErrNotFound) for the
// 404).
type UnsupportedOperationError struct {
	// Operation is the operationId; Method the Go method, such as
	// "Actions.GetCurrentRun".
	Operation, Method string
	// Since is the first release that serves the operation; Until the last,
	// "" while the newest release still serves it.
	Since, Until string
	// ServerVersion is what the server's /version reported, such as
	// "15.0.3+gitea-1.22.0"; empty when the client did not know it.
	ServerVersion string
	// API is the router's refusal (404 or 405) when the call was sent;
	// nil when it was refused before sending.
	API *APIError
}

// Error says which operation was refused, the releases that serve it and the
// server's version.
func (e *UnsupportedOperationError) Error() string {
	var b strings.Builder
	b.WriteString("forgejo: ")
	b.WriteString(e.Operation)
	if e.Method != "" {
		b.WriteString(" (" + e.Method + ")")
	}
	if e.Until != "" {
		b.WriteString(" is served by Forgejo " + e.Since + " to " + e.Until)
	} else {
		b.WriteString(" is served by Forgejo " + e.Since + " and later")
	}
	switch {
	case e.API != nil:
		b.WriteString("; the server has no such route (")
		b.WriteString(e.API.Call.Method + " " + bound(e.API.Call.URL) + " answered " + strconv.Itoa(e.API.StatusCode))
		if e.ServerVersion != "" {
			b.WriteString("; it runs " + bound(e.ServerVersion))
		}
		b.WriteString(")")
	default:
		b.WriteString("; the server runs " + bound(e.ServerVersion) + ", so it was not sent")
	}
	return b.String()
}

// Is makes errors.Is(err, ErrUnsupportedOperation) match.
func (e *UnsupportedOperationError) Is(target error) bool { return target == ErrUnsupportedOperation }

// Unwrap returns the router's refusal when the call was sent, so that
// errors.Is(err, ErrNotFound) and [StatusCode] read it; nil otherwise.
func (e *UnsupportedOperationError) Unwrap() error {
	if e == nil || e.API == nil {
		return nil
	}
	return e.API
}

// ErrUnsupportedOperation matches every [*UnsupportedOperationError] with
// errors.Is.
var ErrUnsupportedOperation = errors.New("forgejo: the server's release does not serve this operation")

// RunQueuedError means a workflow run (or one of its jobs) stayed
// "waiting": no runner picked it up. [ActionsService.WaitRun] and
// [ActionsService.WaitJob] return it when their QueueLimit passes with the
// run still waiting, and when the caller's context ends while it is still
// waiting; then Err is the context's error, so that errors.Is(err,
// context.DeadlineExceeded) (or context.Canceled) holds as well as
// errors.Is(err, ErrRunQueued).
type RunQueuedError struct {
	// Run is the run as last read.
	Run *ActionRun
	// Job is the job as last read, for [ActionsService.WaitJob]; nil for
	// WaitRun.
	Job *ActionRunJob
	// Waited is how long the wait observed the run waiting, measured on
	// the client's clock from the first poll that found it so.
	Waited time.Duration
	// Err is the context's error when the context ended the wait; nil when
	// the QueueLimit did.
	Err error
}

// Error says which run waited, for how long, and why the wait stopped.
func (e *RunQueuedError) Error() string {
	var b strings.Builder
	b.WriteString("forgejo: ")
	switch {
	case e.Job != nil:
		b.WriteString("job " + strconv.FormatInt(e.Job.ID, 10))
		if e.Job.Name != "" {
			b.WriteString(" (" + bound(e.Job.Name) + ")")
		}
	case e.Run != nil:
		b.WriteString("run " + strconv.FormatInt(e.Run.ID, 10))
	default:
		b.WriteString("run")
	}
	b.WriteString(" is still waiting for a runner after " + e.Waited.String())
	if e.Err != nil {
		b.WriteString(" (" + bound(e.Err.Error()) + ")")
	}
	return b.String()
}

// Is makes errors.Is(err, ErrRunQueued) match.
func (e *RunQueuedError) Is(target error) bool { return target == ErrRunQueued }

// Unwrap returns the context's error, when the context ended the wait.
func (e *RunQueuedError) Unwrap() error { return e.Err }

// ErrRunQueued matches every [*RunQueuedError] with errors.Is: a run that no
// runner picked up.
var ErrRunQueued = errors.New("forgejo: the run is still waiting for a runner")

// RunNotFoundError means [ActionsService.RunWorkflow] dispatched a
// workflow, the server did not say which run it started (Gitea, and
// Forgejo before 11.0, answer 204 with no body), and no listed run matched
// within the bounded number of lookups. The dispatch itself succeeded: a
// run may well exist, and a later listing may show it.
type RunNotFoundError struct {
	// Owner, Repo and Workflow name the dispatch; Ref is its ref.
	Owner, Repo, Workflow, Ref string
	// Attempts is how many listings were read.
	Attempts int
}

// Error names the dispatch and how many listings were read.
func (e *RunNotFoundError) Error() string {
	return "forgejo: dispatched " + bound(e.Workflow) + " on " + bound(e.Ref) + " in " + bound(e.Owner) + "/" + bound(e.Repo) +
		" but found no run it started after " + strconv.Itoa(e.Attempts) + " listings"
}

// Is makes errors.Is(err, ErrRunNotFound) match.
func (e *RunNotFoundError) Is(target error) bool { return target == ErrRunNotFound }

// ErrRunNotFound matches every [*RunNotFoundError] with errors.Is.
var ErrRunNotFound = errors.New("forgejo: the dispatched run was not found")

// PanicError is a panic in code the client calls out to (a [TokenSource],
// a [Pacer]), recovered so that the call fails like any other, after the
// client has released everything the call held (its pacing slot, its
// in-flight count). A token source's panic arrives as the Err of an
// [*AuthError]; a Pacer's makes the client pace that request locally, as
// for a Pacer's error. A panic in the caller's own code (a walk's loop
// body, a visit function) is not recovered: it reaches the caller after
// the walk has stopped every fetch it started.
type PanicError struct {
	// Where names what panicked: "token source" or "pacer".
	Where string
	// Value is the panic's value rendered as text, bounded, with the
	// client's secrets masked. The value itself is not kept: it may hold a
	// token.
	Value string
	// Stack is the panicking goroutine's stack. It holds function names,
	// files and lines, never the values of variables.
	Stack []byte
}

// Error renders where the panic happened and its value.
func (e *PanicError) Error() string { return e.Where + " panicked: " + e.Value }

// recoverPanic turns the recovered value p of a panic in where into a
// *PanicError; nil when there was none. Use it directly in a deferred
// function: recover only works there.
func recoverPanic(where string, p any) *PanicError {
	if p == nil {
		return nil
	}
	return &PanicError{Where: where, Value: bound(fmt.Sprint(p)), Stack: debug.Stack()}
}

// WalkTruncatedError means a page walk stopped while the instance still
// offered a next page: it reached [MaxPages], the instance offered a next
// page that does not move forward or cannot be read, or a page was
// answered 304 Not Modified (a conditional option on a walk). Nothing collected is presented as
// complete; walk again from ResumeFrom to continue.
type WalkTruncatedError struct {
	PagesVisited int
	ResumeFrom   ListOptions
	// Reason says why the walk stopped.
	Reason string
}

// Error renders how far the walk got, why it stopped, and where to resume.
func (e *WalkTruncatedError) Error() string {
	return "page walk stopped after " + strconv.Itoa(e.PagesVisited) + " pages with more pages still offered (" +
		e.Reason + "); resume at page " + strconv.Itoa(e.ResumeFrom.Page) + " with limit " + strconv.Itoa(e.ResumeFrom.Limit)
}

// bound cuts s to at most MaxFragment characters, the "..." marking a cut
// included, never inside a UTF-8 sequence.
func bound(s string) string {
	if len(s) <= MaxFragment { // fast path: bytes ≥ runes
		return s
	}
	if utf8.RuneCountInString(s) <= MaxFragment {
		return s
	}
	n := 0
	for i := range s {
		if n == MaxFragment-3 {
			return s[:i] + "..."
		}
		n++
	}
	return s
}

// JobRerunError means the job whose log [ActionsService.FollowJobLog]
// followed was run again while it followed: a new attempt started, with a
// log of its own. The log written is the followed attempt's, complete;
// following the job again follows the new attempt from its first byte.
type JobRerunError struct {
	// Job is the job as last read: its Attempt is the new attempt, and its
	// Status the new attempt's.
	Job *ActionRunJob
	// Attempt is the attempt whose log was followed.
	Attempt int64
}

// Error names the job and both attempts.
func (e *JobRerunError) Error() string {
	var b strings.Builder
	b.WriteString("forgejo: job")
	if e.Job != nil {
		b.WriteString(" " + strconv.FormatInt(e.Job.ID, 10))
		if e.Job.Name != "" {
			b.WriteString(" (" + bound(e.Job.Name) + ")")
		}
	}
	b.WriteString(" was run again")
	if e.Job != nil && e.Job.Attempt > 0 {
		b.WriteString(" (attempt " + strconv.FormatInt(e.Job.Attempt, 10) + ")")
	}
	b.WriteString(" while the log of attempt " + strconv.FormatInt(e.Attempt, 10) + " was followed; that log is complete")
	return b.String()
}

// Is makes errors.Is(err, ErrJobRerun) match.
func (e *JobRerunError) Is(target error) bool { return target == ErrJobRerun }

// ErrJobRerun matches every [*JobRerunError] with errors.Is: a followed job
// that was run again.
var ErrJobRerun = errors.New("forgejo: the job was run again")
