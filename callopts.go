package forgejo

import (
	"net/http"
	"net/textproto"
	"strings"
	"time"
)

// This file holds per-call options: what one call may add to its request
// without changing the operation's positional arguments. Every operation
// method takes them as its trailing variadic argument.

// RequestOption changes one call: an extra header, an extra query parameter,
// acting as another user, a one-time password, a conditional request. Build
// them with [Sudo], [OTP], [Header], [QueryParam], [IfNoneMatch] and
// [IfModifiedSince], [UseToken] and [UseTokenSource]. Only the
// last two replace the client's credential, for their call alone.
type RequestOption func(*callOptions)

// callOptions is what RequestOptions write; request.with copies it into the
// request.
type callOptions struct {
	headers http.Header
	query   []queryParam
	// secrets are values that must be masked like the credential: the
	// one-time password, the call's own token.
	secrets []string
	// auth replaces the client's credential for this call: a whole
	// Authorization value, or a source drawn from on every attempt.
	auth        string
	tokenSource TokenSource
	err         error
	// knownRelease refuses the call before sending when the client already
	// knows the server's release lacks the operation, even without
	// WithVersionCheck (version_check.go).
	knownRelease bool
}

// reservedHeaders are the headers a RequestOption may not set: the credential
// and what the pipeline owns.
var reservedHeaders = map[string]bool{
	"Authorization":       true,
	"Proxy-Authorization": true,
	"Cookie":              true,
	"Host":                true,
	"Content-Length":      true,
	"Content-Type":        true,
	"Transfer-Encoding":   true,
	"Connection":          true,
}

// Sudo makes an admin token act as user for this call (the sudo query
// parameter Forgejo reads). The instance refuses it for non-admin tokens.
func Sudo(user string) RequestOption {
	return func(o *callOptions) {
		user = strings.TrimSpace(user)
		if user == "" || hasControl(user) {
			o.fail("sudo", "must be a user name without control characters")
			return
		}
		o.query = append(o.query, queryParam{"sudo", user})
	}
}

// OTP sends a time-based one-time password (X-Forgejo-OTP), which an
// account with two-factor authentication needs for basic-auth calls and
// for creating tokens. It is masked like the credential in every output.
func OTP(code string) RequestOption {
	return func(o *callOptions) {
		code = strings.TrimSpace(code)
		if code == "" || hasControl(code) {
			o.fail("otp", "must not be blank or contain control characters")
			return
		}
		o.set("X-Forgejo-OTP", code)
		o.secrets = append(o.secrets, code)
	}
}

// UseToken authenticates this call with an access token of its own
// (sent as "Authorization: token <token>") instead of the client's
// credential, so that one client serves several identities. It is treated
// exactly like the client's token: sent only to the base URL's origin,
// masked in every error, event and log line of the call. Calls without it
// keep the client's credential.
func UseToken(token string) RequestOption {
	return func(o *callOptions) {
		token = strings.TrimSpace(token)
		if token == "" || hasControl(token) {
			o.fail("callToken", "must not be blank or contain control characters")
			return
		}
		o.auth, o.tokenSource = "token "+token, nil
		o.secrets = append(o.secrets, token)
	}
}

// UseTokenSource authenticates every attempt of this call with the
// token ts returns at that moment, as [WithTokenSource] does for a whole
// client, instead of the client's credential. Every token it returns is
// masked in the call's texts; a failing or panicking source fails the call
// with an [*AuthError].
func UseTokenSource(ts TokenSource) RequestOption {
	return func(o *callOptions) {
		if ts == nil {
			o.fail("callTokenSource", "must not be nil")
			return
		}
		o.auth, o.tokenSource = "", ts
	}
}

// Header adds a request header to this call. Authorization, Cookie and
// the headers the client manages itself (Host, Content-Type,
// Content-Length, Transfer-Encoding, Connection) cannot be set this way.
// Like the credential, a per-call header is sent only to the base URL's
// origin: a redirect to another origin is followed without it.
func Header(name, value string) RequestOption {
	return func(o *callOptions) {
		canon := textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(name))
		if canon == "" || !validHeaderName(canon) {
			o.fail("header", "must be a valid header name")
			return
		}
		if reservedHeaders[canon] {
			o.fail("header", canon+" cannot be set per call")
			return
		}
		if hasControl(value) {
			o.fail("header", "value must not contain a control character")
			return
		}
		if o.headers == nil {
			o.headers = http.Header{}
		}
		o.headers.Add(canon, value)
		if canon == "X-Forgejo-Otp" || canon == "X-Gitea-Otp" {
			o.secrets = append(o.secrets, strings.TrimSpace(value)) // a one-time password, however it is set
		}
	}
}

// QueryParam adds a query parameter to this call, for filters an instance
// honours but the spec omits (created_by, assigned_by and mentioned_by on
// issue search, say). It is sent after the operation's own parameters.
func QueryParam(name, value string) RequestOption {
	return func(o *callOptions) {
		if strings.TrimSpace(name) == "" || hasControl(name) || hasControl(value) {
			o.fail("query", "name must not be blank and neither may contain control characters")
			return
		}
		switch strings.ToLower(name) {
		case "page", "limit", "per_page", "token", "access_token":
			o.fail("query", name+" cannot be set per call")
			return
		}
		o.query = append(o.query, queryParam{name, value})
	}
}

// IfNoneMatch makes the call conditional on the resource's ETag: when it
// still matches, the instance answers 304 Not Modified: the call returns a
// nil error, the zero result (a nil pointer, slice or map, "", false) and
// a *Response whose NotModified reports true. An Open… method returns an
// empty reader there, never a nil one: close it as usual. Forgejo sends
// ETags on raw files, blobs, LFS objects and attachments.
func IfNoneMatch(etag string) RequestOption {
	return func(o *callOptions) {
		if strings.TrimSpace(etag) == "" || hasControl(etag) {
			o.fail("ifNoneMatch", "must not be blank or contain control characters")
			return
		}
		o.set("If-None-Match", etag)
	}
}

// IfModifiedSince makes the call conditional on the resource's
// modification time; a 304 Not Modified is reported as for [IfNoneMatch].
func IfModifiedSince(t time.Time) RequestOption {
	return func(o *callOptions) {
		if t.IsZero() {
			o.fail("ifModifiedSince", "must not be the zero time")
			return
		}
		o.set("If-Modified-Since", t.UTC().Format(http.TimeFormat))
	}
}

func (o *callOptions) set(name, value string) {
	if o.headers == nil {
		o.headers = http.Header{}
	}
	o.headers.Set(name, value)
}

func (o *callOptions) fail(field, msg string) {
	if o.err == nil {
		o.err = &ValidationError{Field: field, Message: msg}
	}
}

// with applies per-call options to the request. A rejected option makes the
// call fail before anything is sent.
func (r *request) with(opts []RequestOption) {
	if len(opts) == 0 || r.err != nil {
		return
	}
	var o callOptions
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if o.err != nil {
		r.err = o.err
		return
	}
	r.extra = &o
}

// validHeaderName reports whether s is an RFC 9110 token.
func validHeaderName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			continue
		}
		if strings.IndexByte("!#$%&'*+-.^_`|~", c) < 0 {
			return false
		}
	}
	return s != ""
}
