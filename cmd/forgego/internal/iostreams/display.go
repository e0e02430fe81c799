// Package iostreams is how forgego writes to a person's terminal, or to a
// pipe: the one rule by which text that came from a server is shown and
// never obeyed, and the masking of secrets in what is actually shown.
//
// # The display rule
//
// Every byte the program writes to standard output or standard error goes
// through a [Writer], whatever the output mode (tables, views, errors, -v,
// --jq and --template results, diffs, api's bodies) and whether the stream
// is a terminal or a pipe. A Writer replaces:
//
//   - the C0 control characters, but tab and newline, with caret notation
//     (ESC is ^[, BEL ^G, backspace ^H, NUL ^@); a carriage return is kept
//     only right before a newline (a CR-LF line end), and is ^M elsewhere;
//   - DEL with ^?;
//   - the C1 control characters (U+0080 to U+009F, which some terminals
//     obey as ESC sequences) with <U+009B>-style names;
//   - the characters that reorder or hide text (the bidirectional
//     embeddings, overrides and isolates, the line and paragraph
//     separators, the zero-width space, the word joiner and the byte-order
//     mark) with their <U+XXXX> names; and the other invisible characters
//     (zero-width joiners, direction marks, variation selectors, the soft
//     hyphen) likewise where they follow an ASCII character, where nothing
//     legitimate puts them and where they would hide a cut in a token;
//   - every byte that is not valid UTF-8 with U+FFFD.
//
// After that, every secret the program knows (its token, the credential it
// gives git, a webhook secret, a Redis password) is masked as *** in what
// remains, which is exactly what the terminal shows: a token cut in two by
// an escape sequence, a backspace or a zero-width character is shown with
// the cut made visible, and so is never on the screen whole. Masking works
// across writes: a Writer masks a line at a time.
//
// # JSON
//
// --json output, api's JSON bodies and --jq's JSON results go through
// [WriteJSON] first, which keeps the data exactly (a JSON parser reads the
// same strings the server sent) but escapes, inside strings, every
// character the display rule would replace, as \u009b and the like; so the
// Writer finds nothing to replace in it. WriteJSON also refuses a document
// nested more deeply than [MaxJSONDepth] and indents as it writes, so that
// a small hostile body cannot take much memory.
//
// The program's own control sequences (the progress line's carriage return
// and line erase) are written with [Writer.WriteControl]; nothing a server
// sends can reach that method.
package iostreams

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// class is what the display rule does with a character.
type class uint8

const (
	keep       class = iota // shown as it is
	replace                 // always shown by name
	afterASCII              // shown by name where it follows an ASCII character
)

// classify is the display rule for one character; the carriage return is
// decided by the Sanitizer, which sees what follows it.
func classify(r rune) class {
	switch {
	case r == '\t' || r == '\n':
		return keep
	case r < 0x20 || r == 0x7f:
		return replace
	case r < 0x80:
		return keep
	case r <= 0x9f: // C1
		return replace
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, // bidi embeddings, overrides, isolates
		r == 0x2028, r == 0x2029, // line and paragraph separators
		r == 0x200b, r >= 0x2060 && r <= 0x2064, r == 0xfeff: // zero-width space, word joiner, invisible operators, BOM
		return replace
	case r == 0x00ad, r == 0x034f, r == 0x061c, r == 0x115f, r == 0x1160, r == 0x17b4, r == 0x17b5,
		r >= 0x180b && r <= 0x180f, r >= 0x200c && r <= 0x200f, r >= 0x206a && r <= 0x206f,
		r == 0x3164, r >= 0xfe00 && r <= 0xfe0f, r == 0xffa0, r >= 0x1bca0 && r <= 0x1bca3,
		r >= 0x1d173 && r <= 0x1d17a, r >= 0xe0000 && r <= 0xe0fff:
		return afterASCII
	}
	return keep
}

// name is how the display rule shows a replaced character.
func name(b []byte, r rune) []byte {
	switch {
	case r < 0x20:
		return append(b, '^', byte(r)+0x40)
	case r == 0x7f:
		return append(b, '^', '?')
	case r == utf8.RuneError:
		return utf8.AppendRune(b, utf8.RuneError)
	}
	b = append(b, "<U+"...)
	h := strings.ToUpper(strconv.FormatInt(int64(r), 16))
	for i := len(h); i < 4; i++ {
		b = append(b, '0')
	}
	b = append(b, h...)
	return append(b, '>')
}

// Sanitizer applies the display rule to a stream cut anywhere: it holds
// back an incomplete UTF-8 sequence and a carriage return until it sees
// what follows. The zero value is ready.
type Sanitizer struct {
	held       []byte // at most utf8.UTFMax bytes, carried to the next Append
	scratch    []byte
	afterASCII bool // the last character shown was ASCII
}

// Append appends to dst what p shows as, and returns it.
func (s *Sanitizer) Append(dst, p []byte) []byte {
	if len(s.held) > 0 {
		s.scratch = append(append(s.scratch[:0], s.held...), p...)
		s.held = s.held[:0]
		p = s.scratch
	}
	return s.run(dst, p, true)
}

// cr shows a carriage return: kept before a newline, ^M elsewhere.
func (s *Sanitizer) cr(dst []byte, beforeLF bool) []byte {
	if beforeLF {
		return append(dst, '\r')
	}
	s.afterASCII = true
	return append(dst, '^', 'M')
}

// run shows p; an incomplete sequence or a carriage return at its end is
// held when more may come.
func (s *Sanitizer) run(dst, p []byte, more bool) []byte {
	for i := 0; i < len(p); {
		c := p[i]
		if c >= 0x20 && c < 0x7f {
			start := i
			for i < len(p) && p[i] >= 0x20 && p[i] < 0x7f {
				i++
			}
			dst = append(dst, p[start:i]...)
			s.afterASCII = true
			continue
		}
		if c == '\r' {
			if i+1 == len(p) && more {
				s.held = append(s.held, '\r')
				return dst
			}
			dst = s.cr(dst, i+1 < len(p) && p[i+1] == '\n')
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size <= 1 {
			if more && !utf8.FullRune(p[i:]) {
				s.held = append(s.held, p[i:]...)
				return dst
			}
			dst = name(dst, utf8.RuneError)
			s.afterASCII = false
			i++
			continue
		}
		switch classify(r) {
		case replace:
			dst = name(dst, r)
			s.afterASCII = true // a name is ASCII
		case afterASCII:
			if s.afterASCII {
				dst = name(dst, r)
			} else {
				dst = append(dst, p[i:i+size]...)
			}
		default:
			dst = append(dst, p[i:i+size]...)
			s.afterASCII = r < 0x80
		}
		i += size
	}
	return dst
}

// Flush appends what is held (an incomplete sequence shows as U+FFFD, a
// carriage return as ^M).
func (s *Sanitizer) Flush(dst []byte) []byte {
	if len(s.held) == 0 {
		return dst
	}
	h := s.held
	s.held = nil
	return s.run(dst, h, false)
}

// Sanitize returns what text shows as under the display rule.
func Sanitize(text string) string {
	var s Sanitizer
	out := s.Append(nil, []byte(text))
	return string(s.Flush(out))
}

// unsafeInJSON reports whether a character of a JSON string must be
// written as a \u escape for the display rule to leave it alone. The
// afterASCII characters are escaped wherever they are: a JSON string's
// neighbours are not what a terminal shows next to it.
func unsafeInJSON(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || classify(r) != keep
}
