package forgejo

import (
	"encoding/base64"
	"strconv"
	"strings"
)

// This file is a minimal RFC 9651 (Structured Field Values) List parser,
// enough for the RateLimit fields (ratelimit.go), strict where the RFC is,
// so that malformed fields are ignored whole. Members must be Items whose bare value is a String or a
// Token (inner lists are refused); parameters may be Integers, Decimals,
// Strings, Tokens, Byte Sequences or Booleans; duplicate keys: last wins.

// sfKind is the type of a parameter's value.
type sfKind int

const (
	sfInteger sfKind = iota + 1
	sfDecimal
	sfString
	sfToken
	sfBytes
	sfBool
)

// sfValue is a parameter's value: integer for sfInteger and sfBool (1 for
// true), str for sfDecimal, sfString and sfToken, bytes for sfBytes.
type sfValue struct {
	kind    sfKind
	integer int64
	str     string
	bytes   []byte
}

// sfItem is one member of a List: its bare value and its parameters.
type sfItem struct {
	name   string
	params map[string]sfValue
}

// sfParser reads a field value from pos; ok turns false at the first
// syntax error.
type sfParser struct {
	s   string
	pos int
	ok  bool
}

// parseSFList parses a List field value; ok is false on any syntax error or
// an unsupported member.
func parseSFList(v string) ([]sfItem, bool) {
	p := &sfParser{s: strings.Trim(v, " \t"), ok: true}
	if p.s == "" {
		return nil, false
	}
	var items []sfItem
	for p.ok {
		it := p.item()
		if !p.ok {
			return nil, false
		}
		items = append(items, it)
		p.skipOWS()
		if p.pos == len(p.s) {
			return items, true
		}
		if p.s[p.pos] != ',' {
			return nil, false
		}
		p.pos++
		p.skipOWS()
		if p.pos == len(p.s) {
			return nil, false // trailing comma
		}
	}
	return nil, false
}

func (p *sfParser) skipOWS() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

func (p *sfParser) item() sfItem {
	it := sfItem{params: map[string]sfValue{}}
	v := p.bare()
	if !p.ok {
		return it
	}
	switch v.kind {
	case sfString, sfToken:
		it.name = v.str
	default:
		p.ok = false
		return it
	}
	for p.ok && p.pos < len(p.s) && p.s[p.pos] == ';' {
		p.pos++
		for p.pos < len(p.s) && p.s[p.pos] == ' ' {
			p.pos++
		}
		key := p.key()
		if !p.ok {
			return it
		}
		val := sfValue{kind: sfBool, integer: 1}
		if p.pos < len(p.s) && p.s[p.pos] == '=' {
			p.pos++
			val = p.bare()
		}
		it.params[key] = val
	}
	return it
}

func (p *sfParser) key() string {
	start := p.pos
	if p.pos >= len(p.s) || !(p.s[p.pos] >= 'a' && p.s[p.pos] <= 'z' || p.s[p.pos] == '*') {
		p.ok = false
		return ""
	}
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '*' {
			p.pos++
			continue
		}
		break
	}
	return p.s[start:p.pos]
}

func (p *sfParser) bare() sfValue {
	if p.pos >= len(p.s) {
		p.ok = false
		return sfValue{}
	}
	c := p.s[p.pos]
	switch {
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == '"':
		return p.string()
	case c == ':':
		return p.byteSeq()
	case c == '?':
		if p.pos+1 < len(p.s) && (p.s[p.pos+1] == '0' || p.s[p.pos+1] == '1') {
			v := sfValue{kind: sfBool, integer: int64(p.s[p.pos+1] - '0')}
			p.pos += 2
			return v
		}
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '*':
		start := p.pos
		p.pos++
		for p.pos < len(p.s) && isTokenChar(p.s[p.pos]) {
			p.pos++
		}
		return sfValue{kind: sfToken, str: p.s[start:p.pos]}
	}
	p.ok = false
	return sfValue{}
}

func isTokenChar(c byte) bool {
	if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~:/", c) >= 0
}

func (p *sfParser) number() sfValue {
	start := p.pos
	if p.s[p.pos] == '-' {
		p.pos++
	}
	digits, dot := 0, -1
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c >= '0' && c <= '9' {
			digits++
			p.pos++
			continue
		}
		if c == '.' && dot < 0 {
			dot = digits
			p.pos++
			continue
		}
		break
	}
	text := p.s[start:p.pos]
	if digits == 0 {
		p.ok = false
		return sfValue{}
	}
	if dot >= 0 {
		if dot > 12 || digits-dot > 3 || digits == dot {
			p.ok = false
		}
		return sfValue{kind: sfDecimal, str: text}
	}
	if digits > 15 {
		p.ok = false
		return sfValue{}
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		p.ok = false
	}
	return sfValue{kind: sfInteger, integer: n}
}

func (p *sfParser) string() sfValue {
	p.pos++ // opening quote
	var b strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		p.pos++
		switch {
		case c == '\\':
			if p.pos >= len(p.s) || (p.s[p.pos] != '"' && p.s[p.pos] != '\\') {
				p.ok = false
				return sfValue{}
			}
			b.WriteByte(p.s[p.pos])
			p.pos++
		case c == '"':
			return sfValue{kind: sfString, str: b.String()}
		case c < 0x20 || c > 0x7e:
			p.ok = false
			return sfValue{}
		default:
			b.WriteByte(c)
		}
	}
	p.ok = false // unterminated
	return sfValue{}
}

func (p *sfParser) byteSeq() sfValue {
	end := strings.IndexByte(p.s[p.pos+1:], ':')
	if end < 0 {
		p.ok = false
		return sfValue{}
	}
	raw := p.s[p.pos+1 : p.pos+1+end]
	p.pos += end + 2
	b, err := base64.StdEncoding.DecodeString(raw)
	if err != nil {
		// RFC 9651 lets parsers accept missing padding.
		if b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(raw, "=")); err != nil {
			p.ok = false
			return sfValue{}
		}
	}
	return sfValue{kind: sfBytes, bytes: b}
}
