package forgejo

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// This file is the one place that masks secrets in text the library
// renders. Any text that can carry bytes from the server (error messages,
// transport causes, header values, decode snippets, rendered URLs) passes
// through redactor.scrub in full before it is stored, and is cut to its
// bound only afterwards, so a secret placed to straddle a cut cannot leak
// its prefix.

// secretSet is every form of every secret a client must never render: its
// credential, and the tokens a TokenSource returned lately.
//
// A server may echo a secret whole, in some encoding, or in pieces (net/http
// quotes only the part of a status line up to a space; a body cut at a
// bound keeps a prefix), so scrubbing masks every run of runLen or more
// bytes of any form, and a form shorter than that wherever it appears
// whole.
//
// The set is bounded: a TokenSource that mints a token per call would
// otherwise grow it by a few hundred bytes a call for as long as the client
// lives. The credential stays for good; of a token source's tokens the
// set keeps the latest maxSourceTokens, and each call also masks every
// token it sent itself (its redactor's own set), so that no call's texts
// can show a token that call could have sent.
type secretSet struct {
	mu    sync.RWMutex
	grams map[string]int32 // every runLen-byte window of every form, with its count
	// filter has a bit set for the hash of every gram: most windows of a
	// text miss it, and skip the map lookup.
	filter [gramFilterWords]uint64
	short  []string            // forms shorter than runLen, longest first
	seen   map[string][]string // every secret, with its forms
	maxLen int
	// tokens are the evictable secrets (a token source's), oldest first.
	tokens []string
}

// maxSourceTokens is how many of a token source's tokens a client's set
// keeps besides the credential: a source that refreshes hourly keeps more
// than two days of them.
const maxSourceTokens = 64

// runLen is the shortest run of a secret that is masked wherever it
// appears; shorter secrets are masked when they appear whole.
const runLen = 8

// gramFilterWords sizes secretSet.filter: 4096 bits, for the few hundred
// grams of a client's secrets.
const gramFilterWords = 64

// gramBit locates a window's bit in secretSet.filter; it reads 8 bytes,
// runLen.
func gramBit(w string) (word int, bit uint64) {
	x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
	h := (x * 0x9E3779B97F4A7C15) >> (64 - 12) // 12 bits: 4096
	return int(h >> 6), 1 << (h & 63)
}

func newSecretSet(secrets ...string) *secretSet {
	s := &secretSet{seen: map[string][]string{}, grams: map[string]int32{}}
	for _, v := range secrets {
		s.add(v)
	}
	return s
}

// add records secret for good, in each form a server or net/http may echo
// it in: raw, JSON-escaped (with and without HTML escaping),
// percent-encoded (as this library, url.QueryEscape and url.PathEscape
// encode) and Go-quoted (net/http quotes what it cannot parse with %q).
// Any length is masked: a short basic-auth password is still a password.
func (s *secretSet) add(secret string) {
	if s == nil || secret == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.insert(secret)
}

// addToken records a token source's token; past maxSourceTokens the
// oldest goes (see secretSet).
func (s *secretSet) addToken(secret string) {
	if s == nil || secret == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.insert(secret) {
		return
	}
	s.tokens = append(s.tokens, secret)
	if len(s.tokens) > maxSourceTokens {
		s.remove(s.tokens[0])
		s.tokens = slices.Delete(s.tokens, 0, 1)
	}
}

// insert adds secret's forms; false when it was already in. s.mu is held.
func (s *secretSet) insert(secret string) bool {
	if _, dup := s.seen[secret]; dup {
		return false
	}
	forms := secretForms(secret)
	s.seen[secret] = forms
	for _, f := range forms {
		s.maxLen = max(s.maxLen, len(f))
		if len(f) < runLen {
			if !slices.Contains(s.short, f) {
				s.short = append(s.short, f)
			}
			continue
		}
		for i := 0; i+runLen <= len(f); i++ {
			g := f[i : i+runLen]
			s.grams[g]++
			w, bit := gramBit(g)
			s.filter[w] |= bit
		}
	}
	slices.SortStableFunc(s.short, func(a, b string) int { return len(b) - len(a) })
	return true
}

// remove drops an evicted token's forms. s.mu is held.
func (s *secretSet) remove(secret string) {
	forms := s.seen[secret]
	delete(s.seen, secret)
	for _, f := range forms {
		for i := 0; i+runLen <= len(f); i++ {
			g := f[i : i+runLen]
			if s.grams[g]--; s.grams[g] <= 0 {
				delete(s.grams, g)
			}
		}
	}
	// The short forms, the longest form and the filter are recomputed from
	// what remains (a few hundred entries).
	s.short, s.maxLen, s.filter = s.short[:0], 0, [gramFilterWords]uint64{}
	for g := range s.grams {
		w, bit := gramBit(g)
		s.filter[w] |= bit
	}
	for _, forms := range s.seen {
		for _, f := range forms {
			s.maxLen = max(s.maxLen, len(f))
			if len(f) < runLen && !slices.Contains(s.short, f) {
				s.short = append(s.short, f)
			}
		}
	}
	slices.SortStableFunc(s.short, func(a, b string) int { return len(b) - len(a) })
}

// secretForms lists the encodings of secret that the library masks.
func secretForms(secret string) []string {
	forms := []string{secret}
	if b, err := json.Marshal(secret); err == nil {
		forms = append(forms, string(b[1:len(b)-1]))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(secret) == nil {
		b := bytes.TrimSpace(buf.Bytes())
		forms = append(forms, string(b[1:len(b)-1]))
	}
	var esc strings.Builder
	escapeTo(&esc, secret)
	forms = append(forms, esc.String(), url.QueryEscape(secret), url.PathEscape(secret))
	q := strconv.Quote(secret)
	forms = append(forms, q[1:len(q)-1])
	q = strconv.QuoteToASCII(secret)
	forms = append(forms, q[1:len(q)-1])
	slices.Sort(forms)
	return slices.Compact(forms)
}

// longest returns the length of the longest form.
func (s *secretSet) longest() int {
	if s == nil {
		return 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.maxLen
}

// scrub masks text: every maximal stretch covered by runLen-byte runs of a
// secret form, widened to whole UTF-8 characters, becomes one mask; then
// the short forms are masked where they appear whole.
func (s *secretSet) scrub(text string) string {
	if s == nil {
		return text
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.grams) > 0 && len(text) >= runLen {
		var b strings.Builder
		last := 0 // text[:last] has been copied or masked
		for i := 0; i+runLen <= len(text); i++ {
			if w, bit := gramBit(text[i : i+runLen]); s.filter[w]&bit == 0 {
				continue
			}
			if _, hit := s.grams[text[i:i+runLen]]; !hit {
				continue
			}
			start, end := i, i+runLen
			for end < len(text) {
				if _, more := s.grams[text[end+1-runLen:end+1]]; !more {
					break
				}
				end++
			}
			for start > last && !utf8.RuneStart(text[start]) {
				start--
			}
			for end < len(text) && !utf8.RuneStart(text[end]) {
				end++
			}
			if start > last || last == 0 {
				b.WriteString(text[last:start])
				b.WriteString(redactedMask)
			}
			last = end
			i = end - 1
		}
		if last > 0 {
			b.WriteString(text[last:])
			text = b.String()
		}
	}
	return scrubWhole(text, s.short)
}

// scrubWhole masks each of forms wherever it appears whole.
func scrubWhole(text string, forms []string) string {
	for _, f := range forms {
		if f != "" && strings.Contains(text, f) {
			text = strings.ReplaceAll(text, f, redactedMask)
		}
	}
	return text
}

// redactor masks the client's secrets and one call's own in text bound for
// an error, an event or a log line.
type redactor struct {
	set  *secretSet
	call *secretSet // the call's own secrets; nil when it has none
}

// redactor returns the redactor for one call: the client's secrets, and
// the call's own: a one-time password, the tokens its attempts send (added
// as they are drawn, tokensource.go) and the value of every query
// parameter that buildURL masks in a rendered URL (a password passed with
// WithQuery or Client.Do), so that a value secret in one channel is secret
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
	return max(red.set.longest(), red.call.longest())
}

// scrub masks every form of every secret in s, whole and in runs of runLen
// bytes or more. This is the one function that masks secrets; callers
// bound the result afterwards.
func (red redactor) scrub(s string) string {
	if s == "" {
		return s
	}
	s = red.set.scrub(s)
	if red.call != nil {
		s = red.call.scrub(s)
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
