package forgejo

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// pageLinks are the page numbers a Link header offers; 0 means not offered.
type pageLinks struct {
	next, prev, first, last int
	// nextOffered is true when a rel="next" link was present, even if its
	// page number could not be read: a walk must not mistake that for the
	// end.
	nextOffered bool
	// any is true when at least one readable link element was present.
	any bool
}

// parseLinks reads the page numbers of rel="next", "prev" (or "previous"),
// "first" and "last" from Link header values (RFC 8288), the relation given
// by rel or by its RFC 8187 extended form, rel* (UTF-8, an optional language
// tag, percent-encoding: see relParam). Several header lines are joined, as
// proxies may split one header. It never fails: an unreadable element is
// skipped, and for each relation the first readable occurrence wins; but an
// unreadable element that offers next, with no readable next beside it,
// still sets nextOffered (with no page), so that a walk reports truncation
// instead of completion. This is the one place Link is parsed.
func parseLinks(values []string) pageLinks {
	var pl pageLinks
	var seen [4]bool // next, prev, first, last
	badNext := false // an unreadable element offered next
	for _, v := range values {
		for len(v) > 0 {
			var elem string
			elem, v = cutElement(v)
			target, params, ok := splitTarget(elem)
			rels, relOK, unreadableNext := relParam(params)
			badNext = badNext || (ok && unreadableNext)
			if !ok || !relOK {
				// An element that cannot be read but names "next" (an
				// empty or unbracketed target, an unterminated '<')
				// still offers a next page: a walk must fail loudly
				// rather than report completion.
				badNext = badNext || mentionsNext(elem)
				continue
			}
			page := pageOf(target)
			pl.any = true
			for _, rel := range strings.Fields(rels) {
				idx := -1
				switch strings.ToLower(rel) {
				case "next":
					idx = 0
				case "prev", "previous":
					idx = 1
				case "first":
					idx = 2
				case "last":
					idx = 3
				}
				if idx < 0 && isNextBadlyQuoted(rel) {
					badNext = true // offered, but not readably: rel='next'
					continue
				}
				if idx < 0 || seen[idx] {
					continue
				}
				seen[idx] = true
				switch idx {
				case 0:
					pl.next = page
					pl.nextOffered = true
				case 1:
					pl.prev = page
				case 2:
					pl.first = page
				case 3:
					pl.last = page
				}
			}
		}
	}
	if badNext && !seen[0] {
		pl.nextOffered = true // a readable next wins; otherwise the walk must not end here
	}
	return pl
}

// mentionsNext reports whether an unreadable link element has a rel
// parameter, in any quoting, whose value has the word next, or a rel*
// that mentions next. Erring towards
// yes only turns a silent end into a loud one.
func mentionsNext(elem string) bool {
	if i := strings.LastIndexByte(elem, '>'); i >= 0 {
		elem = elem[i+1:]
	}
	for _, p := range strings.Split(elem, ";") {
		name, value, found := strings.Cut(p, "=")
		if !found {
			continue
		}
		switch paramName(name) {
		case "rel*":
			if extMentionsNext(value) {
				return true
			}
			continue
		case "rel":
		default:
			continue
		}
		for _, rel := range strings.Fields(value) {
			if strings.EqualFold(strings.Trim(rel, `'"`), "next") {
				return true
			}
		}
	}
	return false
}

// isNextBadlyQuoted reports whether a rel token is "next" in quotes RFC 8288
// does not allow ('next', or a stray double quote).
func isNextBadlyQuoted(rel string) bool {
	return rel != strings.Trim(rel, `'"`) && strings.EqualFold(strings.Trim(rel, `'"`), "next")
}

// cutElement returns the first link-value of s (up to a comma outside <…>
// and outside quotes) and the rest.
func cutElement(s string) (elem, rest string) {
	inAngle, inQuote := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inQuote:
			if c == '\\' {
				i++
			} else if c == '"' {
				inQuote = false
			}
		case c == '<':
			inAngle = true
		case c == '>':
			inAngle = false
		case c == '"' && !inAngle:
			inQuote = true
		case c == ',' && !inAngle:
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

// splitTarget returns the URI between the first '<' and the next '>', and
// the parameters after it.
func splitTarget(elem string) (target, params string, ok bool) {
	open := strings.IndexByte(elem, '<')
	if open < 0 {
		return "", "", false
	}
	closing := strings.IndexByte(elem[open+1:], '>')
	if closing < 0 {
		return "", "", false
	}
	target = strings.TrimSpace(elem[open+1 : open+1+closing])
	if target == "" {
		return "", "", false
	}
	return target, elem[open+1+closing+1:], true
}

// relParam finds the relation types among ";"-separated params: the first
// rel, unquoted, or the first rel* (the RFC 8187 extended form, RFC 8288 §3),
// which replaces rel as RFC 8288 Appendix B.2 says. A rel* that cannot be
// decoded is dropped (rel, if any, stands), but when it mentions next, or
// when a readable rel* drops the next a rel beside it offers, unreadableNext
// is set: the element offers a next page that cannot be trusted, and a walk
// must fail rather than end.
func relParam(params string) (rels string, ok, unreadableNext bool) {
	var plain, ext string
	var havePlain, haveExt bool
	for len(params) > 0 {
		var p string
		p, params, _ = cutParam(params)
		name, value, found := strings.Cut(p, "=")
		if !found {
			continue
		}
		value = unquote(strings.TrimSpace(value))
		switch paramName(name) {
		case "rel":
			if !havePlain {
				plain, havePlain = value, true
			}
		case "rel*":
			if !haveExt {
				ext, haveExt = value, true
			}
		}
	}
	if haveExt {
		if dec, decOK := decodeExtValue(ext); decOK {
			return dec, true, havePlain && hasNext(plain) && !hasNext(dec)
		}
		unreadableNext = extMentionsNext(ext)
	}
	return plain, havePlain, unreadableNext
}

// paramName is a link-param's name, lower-cased, without the whitespace a
// sloppy server leaves around it or before its '*'.
func paramName(name string) string {
	return strings.ToLower(strings.Join(strings.Fields(name), ""))
}

// unquote strips one pair of surrounding double quotes.
func unquote(v string) string {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		return v[1 : len(v)-1]
	}
	return v
}

// hasNext reports whether a relation list has the type next.
func hasNext(rels string) bool {
	for _, rel := range strings.Fields(rels) {
		if strings.EqualFold(rel, "next") {
			return true
		}
	}
	return false
}

// decodeExtValue decodes an RFC 8187 ext-value: charset "'" [ language ]
// "'" value-chars, where the charset is UTF-8 or ISO-8859-1 (the two a
// recipient must support; case-insensitive), the language a tag of
// letters, digits and '-', and value-chars attr-chars and %XX escapes.
// Anything else is not a value it can read.
func decodeExtValue(v string) (string, bool) {
	charset, rest, ok1 := strings.Cut(v, "'")
	lang, chars, ok2 := strings.Cut(rest, "'")
	if !ok1 || !ok2 {
		return "", false
	}
	for i := 0; i < len(lang); i++ {
		if c := lang[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return "", false
		}
	}
	latin1 := strings.EqualFold(charset, "ISO-8859-1")
	if !latin1 && !strings.EqualFold(charset, "UTF-8") {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(chars); i++ {
		c := chars[i]
		switch {
		case c == '%':
			if i+2 >= len(chars) || !isHex(chars[i+1]) || !isHex(chars[i+2]) {
				return "", false
			}
			c = unhex(chars[i+1])<<4 | unhex(chars[i+2])
			i += 2
		case !attrChar(c):
			return "", false
		}
		if latin1 {
			b.WriteRune(rune(c))
		} else {
			b.WriteByte(c)
		}
	}
	out := b.String()
	if !utf8.ValidString(out) {
		return "", false
	}
	return out, true
}

// attrChar is RFC 8187's attr-char: ALPHA, DIGIT and !#$&+-.^_`|~.
func attrChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0
}

// extMentionsNext reports whether an extended value that cannot be
// decoded has next in it, percent-decoded leniently and in any case.
// Erring towards yes only turns a silent end into a loud one.
func extMentionsNext(v string) bool {
	return strings.Contains(strings.ToLower(lenientUnescape(v)), "next")
}

// cutParam cuts at the first ';' outside quotes.
func cutParam(s string) (param, rest string, found bool) {
	inQuote := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inQuote && c == '\\':
			i++
		case c == '"':
			inQuote = !inQuote
		case c == ';' && !inQuote:
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// pageOf reads the first "page" query parameter (name case-insensitive) of a
// link target; 0 unless it is an integer ≥ 1. The value is not
// percent-decoded: page numbers are digits.
func pageOf(target string) int {
	if h := strings.IndexByte(target, '#'); h >= 0 {
		target = target[:h] // a '?' inside the fragment is not a query
	}
	q := strings.IndexByte(target, '?')
	if q < 0 {
		return 0
	}
	query := target[q+1:]
	for len(query) > 0 {
		var pair string
		pair, query, _ = strings.Cut(query, "&")
		name, value, _ := strings.Cut(pair, "=")
		if !strings.EqualFold(strings.TrimSpace(name), "page") {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || n < 1 {
			return 0
		}
		return n
	}
	return 0
}
