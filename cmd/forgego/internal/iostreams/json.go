package iostreams

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

// MaxJSONDepth is the deepest nesting of arrays and objects that WriteJSON
// writes. The API's documents nest a handful of levels; a body nested
// thousands of levels deep is an attack on whatever prints it (indented,
// 20 kB of brackets become hundreds of megabytes).
const MaxJSONDepth = 1000

// DepthError is a JSON document nested more deeply than [MaxJSONDepth]:
// nothing of it was written.
type DepthError struct {
	Max int
}

func (e *DepthError) Error() string {
	return fmt.Sprintf("the JSON nests more than %d levels deep; not printed", e.Max)
}

// CheckJSON reports whether data is one JSON document nested at most
// MaxJSONDepth levels: nil, a *DepthError, or a *json.SyntaxError.
func CheckJSON(data []byte) error {
	if d := depth(data); d > MaxJSONDepth {
		return &DepthError{Max: MaxJSONDepth}
	}
	var scratch struct{}
	if !json.Valid(data) {
		// Unmarshal into a struct says where; it reads no more than Valid.
		if err := json.Unmarshal(data, &scratch); err != nil {
			return err
		}
		return fmt.Errorf("not JSON")
	}
	return nil
}

// depth returns the deepest nesting of arrays and objects in data, strings
// skipped, whether or not data is valid JSON.
func depth(data []byte) int {
	d, deepest, inString := 0, 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			d++
			deepest = max(deepest, d)
		case ']', '}':
			d--
		}
	}
	return deepest
}

// WriteJSON writes the JSON document data to w, indented by two spaces,
// with every character of its strings that the display rule would replace
// escaped as \uXXXX (the data stays the same to a JSON parser), and a
// newline at the end. It checks data with CheckJSON first and writes
// nothing when that fails. It holds no more than a small buffer beyond
// data, however deep or wide the document.
func WriteJSON(w io.Writer, data []byte) error { return writeJSON(w, data, true) }

// WriteJSONLine is WriteJSON without the indentation: the document on one
// line (--jq's results).
func WriteJSONLine(w io.Writer, data []byte) error { return writeJSON(w, data, false) }

func writeJSON(w io.Writer, data []byte, indent bool) error {
	if err := CheckJSON(data); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 32<<10)
	level := 0
	newline := func() {
		if !indent {
			return
		}
		bw.WriteByte('\n')
		for range level {
			bw.WriteString("  ")
		}
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch c {
		case ' ', '\t', '\n', '\r':
		case '"':
			i = writeString(bw, data, i)
		case '[', '{':
			bw.WriteByte(c)
			// An empty array or object stays on its line.
			j := i + 1
			for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r') {
				j++
			}
			if j < len(data) && (data[j] == ']' || data[j] == '}') {
				bw.WriteByte(data[j])
				i = j
				continue
			}
			level++
			newline()
		case ']', '}':
			level--
			newline()
			bw.WriteByte(c)
		case ',':
			bw.WriteByte(',')
			newline()
		case ':':
			if indent {
				bw.WriteString(": ")
			} else {
				bw.WriteByte(':')
			}
		default:
			bw.WriteByte(c)
		}
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

// writeString writes the string that starts at data[start] (its opening
// quote) and returns the index of its closing quote. Escapes are copied as
// they are; a character the display rule replaces is escaped; a byte that
// is not UTF-8 becomes \ufffd.
func writeString(bw *bufio.Writer, data []byte, start int) int {
	bw.WriteByte('"')
	for i := start + 1; i < len(data); {
		c := data[i]
		switch {
		case c == '"':
			bw.WriteByte('"')
			return i
		case c == '\\':
			bw.Write(data[i : i+2])
			i += 2
			continue
		case c >= 0x20 && c < 0x7f:
			bw.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			bw.WriteString(`\ufffd`)
		case unsafeInJSON(r):
			writeEscape(bw, r)
		default:
			bw.Write(data[i : i+size])
		}
		i += size
	}
	return len(data)
}

// writeEscape writes r as \uXXXX, or as a surrogate pair beyond the BMP.
func writeEscape(bw *bufio.Writer, r rune) {
	const hex = "0123456789abcdef"
	one := func(u rune) {
		bw.WriteString(`\u`)
		bw.WriteByte(hex[u>>12&15])
		bw.WriteByte(hex[u>>8&15])
		bw.WriteByte(hex[u>>4&15])
		bw.WriteByte(hex[u&15])
	}
	if r > 0xffff {
		r -= 0x10000
		one(0xd800 + r>>10&0x3ff)
		one(0xdc00 + r&0x3ff)
		return
	}
	one(r)
}
