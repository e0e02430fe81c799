package forgejo

import (
	"strconv"
	"strings"

	"codeberg.org/forgego/forgejo/internal/secret"
)

// This file builds every URL the client sends: path parameters expanded,
// percent-encoded and checked for safety (checkDotSegments, checkEscapes),
// and the query appended, with the values of sensitive query names masked
// in the rendering that errors and hooks see (buildURL). The masking of
// the client's secrets in any text is the redactor's (redact.go).

// redactedMask replaces every secret the library renders: the same mask
// as every type that holds one renders (internal/secret).
const redactedMask = secret.Mask

// sensitiveQuery is the set of query parameter names whose values are
// masked wherever a URL is rendered (compared case-insensitively). The
// library never sends a credential in the query; this guards parameters a
// caller adds through Client.Do.
var sensitiveQuery = [...]string{"token", "access_token", "private_token", "password", "sudo"}

func isSensitiveQuery(name string) bool {
	for _, s := range sensitiveQuery {
		if strings.EqualFold(name, s) {
			return true
		}
	}
	return false
}

// pathArg is one path parameter: its name in the template (for errors), its
// value, and whether it may span several segments (branch names, file
// paths).
type pathArg struct {
	name  string
	value string
	multi bool
	// slash lets a single segment carry "/", sent encoded as %2F (tag
	// names, branch-protection rule names, refs, template names).
	slash bool
}

// seg is a single-segment path parameter: owner, repo, username, org…
func seg(name, value string) pathArg { return pathArg{name: name, value: value} }

// segSlash is a single-segment path parameter whose value may contain
// slashes, sent inside the one segment as %2F: a release tag "v1/rc", a
// branch-protection rule "release/*", a ref "feature/x" in a route that
// takes it as one segment.
func segSlash(name, value string) pathArg { return pathArg{name: name, value: value, slash: true} }

// segs is a multi-segment path parameter, sent as several segments: a
// branch name like "renovate/x" or a file path like "docs/a.md".
func segs(name, value string) pathArg { return pathArg{name: name, value: value, multi: true} }

// num is an integer path parameter (an index or id).
func num(name string, value int64) pathArg {
	return pathArg{name: name, value: strconv.FormatInt(value, 10)}
}

// expandPath fills a spec path template ("/repos/{owner}/{repo}") with args
// in order, validating and percent-encoding each. It rejects values that
// could forge another path before any request is sent.
func expandPath(tmpl string, args ...pathArg) (string, error) {
	var b strings.Builder
	b.Grow(len(tmpl) + 32)
	next := 0
	for i := 0; i < len(tmpl); {
		c := tmpl[i]
		if c != '{' {
			b.WriteByte(c)
			i++
			continue
		}
		end := strings.IndexByte(tmpl[i:], '}')
		if end < 0 || next >= len(args) || args[next].name != tmpl[i+1:i+end] {
			return "", &ValidationError{Field: "path", Message: "template " + tmpl + " does not match its arguments"}
		}
		a := args[next]
		next++
		i += end + 1
		if err := writeParam(&b, a); err != nil {
			return "", err
		}
	}
	if next != len(args) {
		return "", &ValidationError{Field: "path", Message: "template " + tmpl + " does not match its arguments"}
	}
	return b.String(), nil
}

func writeParam(b *strings.Builder, a pathArg) error {
	v := strings.TrimSpace(a.value)
	if v == "" {
		return &ValidationError{Field: a.name, Message: "must not be blank"}
	}
	if hasControl(v) {
		return &ValidationError{Field: a.name, Message: "must not contain a control character"}
	}
	if !a.multi && !a.slash && strings.Contains(v, "/") {
		return &ValidationError{Field: a.name, Message: "must not contain a slash"}
	}
	if err := checkDotSegments(a.name, v); err != nil {
		return err
	}
	if !a.multi {
		escapeTo(b, v)
		return nil
	}
	if strings.HasPrefix(v, "/") || strings.HasSuffix(v, "/") {
		return &ValidationError{Field: a.name, Message: "must not start or end with a slash"}
	}
	for i, part := range strings.Split(v, "/") {
		if part == "" {
			return &ValidationError{Field: a.name, Message: "must not contain an empty segment"}
		}
		if i > 0 {
			b.WriteByte('/')
		}
		escapeTo(b, part)
	}
	return nil
}

// checkDotSegments is the path-safety rule for any text that becomes part
// of a request path: no "." or ".." component, however the text is split
// and decoded on the way. A proxy or server may percent-decode the path
// (%2F becoming "/", %2E becoming "."), even more than once, and treat "\"
// as a separator before cleaning it; any of those readings must leave the
// request on its operation's route. So the value is split on "/" and "\"
// as given and after each of up to three percent-decodings (the
// non-standard %uXXXX included: lenientUnescape), and every component is
// checked. Text sent as an already encoded path must also pass
// checkEscapes.
func checkDotSegments(field, v string) error {
	for range 4 {
		for rest := v; rest != ""; {
			part := rest
			if i := strings.IndexAny(rest, `/\`); i >= 0 {
				part, rest = rest[:i], rest[i+1:]
			} else {
				rest = ""
			}
			if p := strings.TrimSpace(part); p == "." || p == ".." {
				return &ValidationError{Field: field, Message: "must not contain a '.' or '..' segment, even percent-encoded"}
			}
		}
		dec := lenientUnescape(v)
		if dec == v {
			return nil
		}
		v = dec
	}
	return nil
}

// checkEscapes is the rule for text that is sent as an already encoded
// path (Client.Do): every '%' starts an escape of two hex digits (RFC 3986
// pct-encoded). Anything else (a trailing '%', "%2", "%zz", "%%", IIS's
// "%u002e") is refused as the caller's mistake before anything is sent: a
// URL parser rejects it, and a forgiving server might decode it into a
// dot segment.
func checkEscapes(field, p string) error {
	for i := 0; i < len(p); i++ {
		if p[i] != '%' {
			continue
		}
		if i+2 >= len(p) || !isHex(p[i+1]) || !isHex(p[i+2]) {
			return &ValidationError{Field: field, Message: "must not contain a malformed percent-escape ('%' not followed by two hex digits)"}
		}
		i += 2
	}
	return nil
}

// lenientUnescape decodes every valid %XX sequence of s, and the
// non-standard %uXXXX some servers (IIS) decode, and keeps the rest, as a
// forgiving server would.
func lenientUnescape(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		if s[i] == '%' && i+5 < len(s) && (s[i+1] == 'u' || s[i+1] == 'U') && isHex(s[i+2]) && isHex(s[i+3]) && isHex(s[i+4]) && isHex(s[i+5]) {
			r := rune(unhex(s[i+2]))<<12 | rune(unhex(s[i+3]))<<8 | rune(unhex(s[i+4]))<<4 | rune(unhex(s[i+5]))
			b.WriteRune(r)
			i += 5
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// escapeTo percent-encodes s per RFC 3986 over its UTF-8 bytes: only
// A–Z a–z 0–9 - . _ ~ stay literal, everything else becomes %XX. Used for
// path segments and query names and values alike.
func escapeTo(b *strings.Builder, s string) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if unreserved(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
}

func unreserved(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// queryParam is one query parameter; a request's query is an ordered list
// because order is part of what tests and logs show, and keys may repeat.
type queryParam struct {
	name, value string
}

// buildURL renders the URL to send and its redacted twin (identical unless
// a sensitive query parameter is present). path is already encoded.
func buildURL(base, path string, query []queryParam) (send, redacted string) {
	var b strings.Builder
	b.Grow(len(base) + len(path) + 16*len(query))
	b.WriteString(base)
	b.WriteString(path)
	prefix := b.Len()
	sensitive := false
	for i, q := range query {
		if i == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		escapeTo(&b, q.name)
		b.WriteByte('=')
		escapeTo(&b, q.value)
		if isSensitiveQuery(q.name) {
			sensitive = true
		}
	}
	send = b.String()
	if !sensitive {
		return send, send
	}
	var r strings.Builder
	r.WriteString(send[:prefix])
	for i, q := range query {
		if i == 0 {
			r.WriteByte('?')
		} else {
			r.WriteByte('&')
		}
		escapeTo(&r, q.name)
		r.WriteByte('=')
		if isSensitiveQuery(q.name) {
			r.WriteString(redactedMask)
		} else {
			escapeTo(&r, q.value)
		}
	}
	return send, r.String()
}
