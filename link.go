package forgejo

import (
	"strconv"
	"strings"
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
// "first" and "last" from Link header values (RFC 8288). Several header
// lines are joined, as proxies may split one header. It never fails: an
// unreadable element is skipped, and for each relation the first readable
// occurrence wins; but an unreadable element that offers next, with no
// readable next beside it, still sets nextOffered (with no page), so that a
// walk reports truncation instead of completion. This is the one place Link
// is parsed.
func parseLinks(values []string) pageLinks {
	var pl pageLinks
	var seen [4]bool // next, prev, first, last
	badNext := false // an unreadable element offered next
	for _, v := range values {
		for len(v) > 0 {
			var elem string
			elem, v = cutElement(v)
			target, params, ok := splitTarget(elem)
			rels, relOK := relParam(params)
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
// parameter, in any quoting, whose value has the word next. Erring towards
// yes only turns a silent end into a loud one.
func mentionsNext(elem string) bool {
	if i := strings.LastIndexByte(elem, '>'); i >= 0 {
		elem = elem[i+1:]
	}
	for _, p := range strings.Split(elem, ";") {
		name, value, found := strings.Cut(p, "=")
		if !found || !strings.EqualFold(strings.TrimSpace(name), "rel") {
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

// relParam finds the rel parameter among ";"-separated params, unquoting it.
func relParam(params string) (string, bool) {
	for len(params) > 0 {
		var p string
		p, params, _ = cutParam(params)
		name, value, found := strings.Cut(p, "=")
		if !found || !strings.EqualFold(strings.TrimSpace(name), "rel") {
			continue
		}
		value = strings.TrimSpace(value)
		if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
			value = value[1 : len(value)-1]
		}
		return value, true
	}
	return "", false
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
