package forgejo

import (
	"errors"
	"strings"
	"unicode/utf8"

	"codeberg.org/forgego/forgejo/internal/secret"
)

// This file is the one place that masks secrets in text the library
// renders. Any text that can carry bytes from the server (error messages,
// transport causes, header values, decode snippets, rendered URLs) passes
// through redactor.scrub in full before it is stored, and is cut to its
// bound only afterwards, so a secret placed to straddle a cut cannot leak
// its prefix. The masking itself is internal/secret's Set, which the
// command-line tool's output uses too.

// newSecretSet returns a set of secrets that masks, besides the forms
// secret.Set lists, the percent-encoding this library's URL builder
// writes (escapeTo).
func newSecretSet(secrets ...string) *secret.Set {
	return secret.NewSet([]func(string) string{percentEncoded}, secrets...)
}

// percentEncoded is s as escapeTo encodes it in a path or a query.
func percentEncoded(s string) string {
	var b strings.Builder
	escapeTo(&b, s)
	return b.String()
}

// redactor masks the client's secrets and one call's own in text bound for
// an error, an event or a log line.
type redactor struct {
	set  *secret.Set
	call *secret.Set // the call's own secrets; nil when it has none
}

// redactor returns the redactor for one call: the client's secrets, and
// the call's own: a one-time password, the tokens its attempts send (added
// as they are drawn, tokensource.go) and the value of every query
// parameter that buildURL masks in a rendered URL (a password passed with
// QueryParam or Client.Do), so that a value secret in one channel is secret
// in all.
func (c *Client) redactor(r *request) redactor {
	red := redactor{set: c.secretsFn()}
	if r == nil {
		return red
	}
	var own []string
	for _, q := range r.query {
		if isSensitiveQuery(q.name) && q.value != "" {
			own = append(own, q.value)
		}
	}
	if r.extra != nil {
		own = append(own, r.extra.secrets...)
		for _, q := range r.extra.query {
			if isSensitiveQuery(q.name) && q.value != "" {
				own = append(own, q.value)
			}
		}
	}
	if len(own) > 0 || c.tokenSource != nil || r.extra != nil && r.extra.tokenSource != nil {
		red.call = newSecretSet(own...)
	}
	return red
}

// pad is how many bytes past a bound must be scrubbed before cutting there:
// the longest form of any secret.
func (red redactor) pad() int {
	return max(red.set.Longest(), red.call.Longest())
}

// scrub masks every form of every secret in s, whole and in runs of secret.RunLen
// bytes or more (secret.RunLen). This is the one function that masks
// secrets in the library; callers
// bound the result afterwards.
func (red redactor) scrub(s string) string {
	if s == "" {
		return s
	}
	s = red.set.Scrub(s)
	if red.call != nil {
		s = red.call.Scrub(s)
	}
	return s
}

// scrubBytes is scrub for a byte slice; it returns b itself when nothing
// was masked.
func (red redactor) scrubBytes(b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	s := red.scrub(string(b))
	if len(s) == len(b) && s == string(b) {
		return b
	}
	return []byte(s)
}

// snippet returns at most MaxFragment characters from the start of body,
// scrubbed before it is cut, with invalid UTF-8 replaced.
func (red redactor) snippet(body []byte) string {
	maxBytes := MaxFragment*utf8.UTFMax + red.pad()
	if len(body) > maxBytes {
		body = body[:maxBytes]
	}
	return bound(red.scrub(strings.ToValidUTF8(string(body), "\uFFFD")))
}

// scrubbedError stands in for a cause whose text carried a secret: it
// renders the scrubbed text and still answers errors.Is for the cause's
// chain (context.Canceled, io.EOF, …), but hides the cause itself, whose
// own Error would print the secret.
type scrubbedError struct {
	text  string
	cause error
}

func (e *scrubbedError) Error() string { return e.text }

// Is reports whether the hidden cause's chain matches target.
func (e *scrubbedError) Is(target error) bool { return errors.Is(e.cause, target) }

// scrubError returns err unchanged when its text carries no secret, and a
// scrubbedError otherwise.
func (red redactor) scrubError(err error) error {
	if err == nil {
		return nil
	}
	if pe, ok := err.(*PanicError); ok {
		// Keep the type, for errors.As: scrub the text it carries.
		return &PanicError{Where: pe.Where, Value: red.scrub(pe.Value), Stack: pe.Stack}
	}
	text := err.Error()
	if s := red.scrub(text); s != text {
		return &scrubbedError{text: s, cause: err}
	}
	return err
}

// scrubRateLimit masks secrets in the server-chosen texts of a rate-limit
// snapshot: names and partition keys.
func (red redactor) scrubRateLimit(rl *RateLimit) {
	for i := range rl.Policies {
		rl.Policies[i].Name = red.scrub(rl.Policies[i].Name)
		rl.Policies[i].PartitionKey = red.scrubBytes(rl.Policies[i].PartitionKey)
	}
	for i := range rl.Limits {
		rl.Limits[i].Name = red.scrub(rl.Limits[i].Name)
		rl.Limits[i].PartitionKey = red.scrubBytes(rl.Limits[i].PartitionKey)
	}
}
