package forgejo

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is the scanner behind the generated decoders (decoders_gen.go):
// a single pass over the body that validates it as JSON and stores values
// straight into the models, without reflect and without encoding/json.
//
// Its contract is encoding/json's, to the value: for every body and every
// model, it succeeds exactly when json.Unmarshal succeeds, and then leaves
// the same value (FuzzDecodeDifferential and the equivalence tests check
// it). That covers the corners: object keys matched exactly first, then
// case-insensitively (the first field in declaration order wins); unknown
// keys skipped; null leaving scalars and structs unchanged and setting
// pointers, slices, maps and interfaces to nil; a repeated key decoding
// again into what the first one left (merging into pointers and maps,
// reusing slice elements within capacity); [] as an empty, non-nil slice;
// integers through the int64 range only; strings unescaped with invalid
// UTF-8 and lone surrogates turned into U+FFFD; times through
// time.Time.UnmarshalJSON on the raw token; 10 000 levels of nesting at
// most.
//
// It reports failure only as a bool: on failure decodeJSON (decode.go)
// runs encoding/json on the same body, so that the error, its JSON path
// and its type are exactly what they have always been, and anything this
// file would reject wrongly still decodes. Failures are rare (a body that
// does not fit its model), so the error path may be slow.

// jdMaxDepth is encoding/json's nesting limit.
const jdMaxDepth = 10000

// jdec is the state of one decode.
type jdec struct {
	data    []byte
	pos     int
	depth   int
	bad     bool
	key     []byte // the current object key, unescaped
	scratch []byte // backing store for unescaped keys and strings

	// intern keeps recent short strings, so that a value repeated within a
	// body or across bodies (a login, a repository's URLs, a label colour,
	// a state) is allocated once. It outlives a decode, as jdec is pooled
	// (encoding/json keeps such a cache in its pooled decoders too), so it
	// pins at most jdInternSize strings of jdInternMax bytes; a decode of a
	// body that carries a credential clears it (private).
	intern  [jdInternSize]string
	private bool
}

// Interning applies to strings of 2 to jdInternMax bytes.
const (
	jdInternSize = 256
	jdInternMax  = 256
)

// jdHash is a hash of b's length and its first and last eight bytes: its
// cost does not grow with the string. Collisions only cost a miss.
func jdHash(b []byte) uint32 {
	var lo, hi uint64
	if n := len(b); n >= 8 {
		lo, hi = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	} else {
		for i, c := range b {
			lo |= uint64(c) << (8 * i)
		}
	}
	h := (lo*0x9E3779B97F4A7C15 ^ hi*0xC2B2AE3D27D4EB4F ^ uint64(len(b))) * 0x165667B19E3779F9
	return uint32(h >> 32)
}

// string returns b as a string, shared with an equal one seen recently
// when short.
func (d *jdec) string(b []byte) string {
	if len(b) > jdInternMax || len(b) < 2 {
		return string(b) // the runtime interns single bytes itself
	}
	slot := &d.intern[jdHash(b)%jdInternSize]
	if *slot == string(b) {
		return *slot
	}
	s := string(b)
	*slot = s
	return s
}

var jdPool = sync.Pool{New: func() any { return new(jdec) }}

func newJDec(data []byte, private bool) *jdec {
	d := jdPool.Get().(*jdec)
	d.data, d.pos, d.depth, d.bad, d.key, d.private = data, 0, 0, false, nil, private
	return d
}

// end reports whether the decode succeeded and consumed the whole body,
// and returns the state to the pool.
func (d *jdec) end() bool {
	d.ws()
	ok := !d.bad && d.pos == len(d.data)
	d.data, d.key = nil, nil
	if d.private {
		clear(d.intern[:])
		d.private = false
	}
	if cap(d.scratch) > 64<<10 {
		d.scratch = nil
	}
	jdPool.Put(d)
	return ok
}

// fail marks the decode as failed and moves to the end, so that every
// later step stops at once.
func (d *jdec) fail() {
	d.bad = true
	d.pos = len(d.data)
}

// ws skips JSON whitespace.
func (d *jdec) ws() {
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c > ' ' || (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			return
		}
		d.pos++
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (d *jdec) peek() byte {
	d.ws()
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

// lit consumes the literal s (null, true, false) or fails.
func (d *jdec) lit(s string) {
	if len(d.data)-d.pos >= len(s) && string(d.data[d.pos:d.pos+len(s)]) == s {
		d.pos += len(s)
		return
	}
	d.fail()
}

// null consumes a null and reports whether there was one.
func (d *jdec) null() bool {
	if d.peek() == 'n' {
		d.lit("null")
		return true
	}
	return false
}

// ---- objects and arrays

// obj starts an object: true after '{'; false for null (consumed) and, as a
// failure, for anything else.
func (d *jdec) obj() bool {
	switch d.peek() {
	case '{':
		d.pos++
		d.depth++
		if d.depth > jdMaxDepth {
			d.fail()
			return false
		}
		return true
	case 'n':
		d.lit("null")
	default:
		d.fail()
	}
	return false
}

// key1 reads the first key of an object started by obj; false when the
// object is empty (or broken).
func (d *jdec) key1() bool {
	if d.peek() == '}' {
		d.pos++
		d.depth--
		return false
	}
	return d.readKey()
}

// keyN reads the next key; false at the end of the object (or on failure).
func (d *jdec) keyN() bool {
	switch d.peek() {
	case ',':
		d.pos++
		d.ws()
		return d.readKey()
	case '}':
		d.pos++
		d.depth--
		return false
	}
	d.fail()
	return false
}

// jdOrder is a model's learned field order. Forgejo writes a model's
// fields in one order, so the key after a given field is almost always the
// same one: next[p] holds 1 + the index of the field that followed field p
// last time (next[len(keys)] is the start of an object), 0 when nothing is
// known. A key that is exactly the guessed name then costs one comparison
// instead of a scan and a switch. Decodes share it through atomics; a wrong
// guess only costs the usual path.
type jdOrder struct {
	next []atomic.Uint32
	keys []string // each field's key as it appears on the wire: "name":
}

// newJDOrder is the order of a model whose fields' keys, in the generated
// decoder's field order, are keys (each "name": as on the wire).
func newJDOrder(keys ...string) *jdOrder {
	return &jdOrder{next: make([]atomic.Uint32, len(keys)+1), keys: keys}
}

// field reads an object's next key (the first one, after obj, when first
// is set), as key1 and keyN do, trying first the field that o says follows
// prev (-1 at the start). It returns false at the end of the object (or on
// failure), and the guessed field's index when the key is exactly its
// name, else -1 with the key in d.key.
func (d *jdec) field(first bool, o *jdOrder, prev int) (bool, int) {
	switch c := d.peek(); {
	case c == '}':
		d.pos++
		d.depth--
		return false, -1
	case first:
	case c == ',':
		d.pos++
		d.ws()
	default:
		d.fail()
		return false, -1
	}
	slot := prev
	if slot < 0 {
		slot = len(o.keys)
	}
	if g := int(o.next[slot].Load()) - 1; g >= 0 {
		k, p := o.keys[g], d.pos
		if end := p + len(k); end <= len(d.data) && string(d.data[p:end]) == k {
			d.key = d.data[p+1 : end-2]
			d.pos = end
			return true, g
		}
	}
	return d.readKey(), -1
}

// learn records that field i (≥ 0) followed prev.
func (o *jdOrder) learn(prev, i int) {
	if prev < 0 {
		prev = len(o.keys)
	}
	if o.next[prev].Load() != uint32(i+1) {
		o.next[prev].Store(uint32(i + 1))
	}
}

func (d *jdec) readKey() bool {
	data := d.data
	if d.pos >= len(data) || data[d.pos] != '"' {
		d.fail()
		return false
	}
	// Keys are short and plain: a byte loop finds the closing quote
	// sooner than scanString's words; anything else takes scanString.
	for j := d.pos + 1; j < len(data); j++ {
		c := data[j]
		if c == '"' {
			if j+1 < len(data) && data[j+1] == ':' {
				d.key = data[d.pos+1 : j]
				d.pos = j + 2
				return true
			}
			break
		}
		if c == '\\' || c < ' ' || c >= utf8.RuneSelf {
			break
		}
	}
	start, end, esc := d.scanString()
	if d.bad {
		return false
	}
	if esc == 0 || (esc == escHigh && utf8.Valid(d.data[start:end])) {
		d.key = d.data[start:end]
	} else {
		d.scratch = unquoteInto(d.scratch[:0], d.data[start:end])
		d.key = d.scratch
	}
	if d.peek() != ':' {
		d.fail()
		return false
	}
	d.pos++
	return true
}

// arr starts an array, as obj starts an object.
func (d *jdec) arr() bool {
	switch d.peek() {
	case '[':
		d.pos++
		d.depth++
		if d.depth > jdMaxDepth {
			d.fail()
			return false
		}
		return true
	case 'n':
		d.lit("null")
	default:
		d.fail()
	}
	return false
}

// elem1 reports whether an array started by arr has a first element.
func (d *jdec) elem1() bool {
	if d.peek() == ']' {
		d.pos++
		d.depth--
		return false
	}
	return !d.bad
}

// elemN reports whether the array has another element.
func (d *jdec) elemN() bool {
	switch d.peek() {
	case ',':
		d.pos++
		return true
	case ']':
		d.pos++
		d.depth--
		return false
	}
	d.fail()
	return false
}

// fold finds the field a key matches case-insensitively, as encoding/json
// does once no field has the exact name: the first in declaration order.
// lower says that every name is lower-case ASCII, so that a lower-case
// ASCII key that matched none exactly matches none at all.
func (d *jdec) fold(names []string, lower bool) int {
	if lower {
		plain := true
		for _, c := range d.key {
			if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
				plain = false
				break
			}
		}
		if plain {
			return -1
		}
	}
	for i, n := range names {
		if equalFold(d.key, n) {
			return i
		}
	}
	return -1
}

// equalFold is bytes.EqualFold for a key and a field name, without
// converting the name.
func equalFold(b []byte, s string) bool {
	if len(b) != len(s) {
		// Folding may change the length of non-ASCII text.
		for _, c := range b {
			if c >= utf8.RuneSelf {
				return bytes.EqualFold(b, []byte(s))
			}
		}
		return false
	}
	for i := range len(b) {
		x, y := b[i], s[i]
		if x >= utf8.RuneSelf || y >= utf8.RuneSelf {
			return bytes.EqualFold(b, []byte(s))
		}
		if x == y {
			continue
		}
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// ---- skipping

// skip validates and skips one value of any kind.
func (d *jdec) skip() {
	switch c := d.peek(); {
	case c == '{':
		if !d.obj() {
			return
		}
		for more := d.key1(); more; more = d.keyN() {
			d.skip()
		}
	case c == '[':
		if !d.arr() {
			return
		}
		for more := d.elem1(); more; more = d.elemN() {
			d.skip()
		}
	case c == '"':
		d.scanString()
	case c == '-' || ('0' <= c && c <= '9'):
		d.scanNumber()
	case c == 't':
		d.lit("true")
	case c == 'f':
		d.lit("false")
	case c == 'n':
		d.lit("null")
	default:
		d.fail()
	}
}

// raw skips one value and returns its bytes.
func (d *jdec) raw() []byte {
	d.ws()
	start := d.pos
	d.skip()
	if d.bad {
		return nil
	}
	return d.data[start:d.pos]
}

// ---- strings

// escape kinds found by scanString.
const (
	escHigh  = 1 // bytes >= 0x80: valid UTF-8 or not
	escSlash = 2 // backslash escapes
)

const (
	swarOnes  = 0x0101010101010101
	swarHighs = 0x8080808080808080
)

// scanString consumes the string at d.pos (its opening quote) and returns
// the span between the quotes and what it holds (escHigh, escSlash). It
// fails on a control character, a bad escape or a missing closing quote.
func (d *jdec) scanString() (start, end int, esc int) {
	data := d.data
	i := d.pos + 1
	start = i
	var high uint64
	for {
		// Eight bytes at a time while none needs a look: no quote, no
		// backslash, no control character (bytes above 0x7f are only
		// noted). The tests for a zero byte and for a byte below 0x20 are
		// exact as booleans, high bytes included.
		for i+8 <= len(data) {
			x := binary.LittleEndian.Uint64(data[i:])
			q := x ^ (swarOnes * '"')
			b := x ^ (swarOnes * '\\')
			if m := ((q-swarOnes)&^q | (b-swarOnes)&^b | (x-swarOnes*0x20)&^x) & swarHighs; m != 0 {
				// The lowest flagged byte is exact (a borrow only ever
				// flags bytes above a true hit): skip straight to it,
				// noting the high bits of the bytes before it.
				n := bits.TrailingZeros64(m) / 8
				high |= x & (1<<(8*n) - 1)
				i += n
				break
			}
			high |= x
			i += 8
		}
		if i >= len(data) {
			d.fail()
			return 0, 0, 0
		}
		c := data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			if high&swarHighs != 0 {
				esc |= escHigh
			}
			return start, i, esc
		case c == '\\':
			esc |= escSlash
			if i+1 >= len(data) {
				d.fail()
				return 0, 0, 0
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(data) || hex4(data[i+2:i+6]) < 0 {
					d.fail()
					return 0, 0, 0
				}
				i += 6
			default:
				d.fail()
				return 0, 0, 0
			}
		case c < ' ':
			d.fail()
			return 0, 0, 0
		case c >= utf8.RuneSelf:
			esc |= escHigh
			i++
		default:
			i++
		}
	}
}

// hex4 reads four hex digits, or returns -1.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// unquoteInto appends the unescaped content of a string already validated
// by scanString, as encoding/json unescapes it: invalid UTF-8 and lone
// surrogates become U+FFFD.
func unquoteInto(out, s []byte) []byte {
	out = slices.Grow(out, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' && c < utf8.RuneSelf {
			// A run of plain ASCII, copied at once.
			j := i + 1
			for j < len(s) && s[j] != '\\' && s[j] < utf8.RuneSelf {
				j++
			}
			out = append(out, s[i:j]...)
			i = j
			continue
		}
		if c >= utf8.RuneSelf {
			// Valid UTF-8 is copied as is, up to the next escape or ASCII.
			j := i
			for j < len(s) && s[j] >= utf8.RuneSelf {
				r, n := utf8.DecodeRune(s[j:])
				if r == utf8.RuneError && n == 1 {
					break
				}
				j += n
			}
			if j > i {
				out = append(out, s[i:j]...)
				i = j
				continue
			}
		}
		switch {
		case c == '\\':
			switch s[i+1] {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := hex4(s[i+2:])
				i += 6
				if utf16.IsSurrogate(r) {
					if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
						if dec := utf16.DecodeRune(r, hex4(s[i+2:])); dec != utf8.RuneError {
							i += 6
							out = utf8.AppendRune(out, dec)
							continue
						}
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
				continue
			default: // " \ /
				out = append(out, s[i+1])
			}
			i += 2
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, n := utf8.DecodeRune(s[i:])
			out = utf8.AppendRune(out, r)
			i += n
		}
	}
	return out
}

// str decodes a string; null leaves *p as it is.
func (d *jdec) str(p *string) {
	switch d.peek() {
	case '"':
		start, end, esc := d.scanString()
		if d.bad {
			return
		}
		if esc == 0 || (esc == escHigh && utf8.Valid(d.data[start:end])) {
			*p = d.string(d.data[start:end])
			return
		}
		d.scratch = unquoteInto(d.scratch[:0], d.data[start:end])
		*p = d.string(d.scratch)
	case 'n':
		d.lit("null")
	default:
		d.fail()
	}
}

// ---- numbers

// scanNumber consumes a number as JSON's grammar has it and returns its
// span and whether it is an integer (no fraction, no exponent).
func (d *jdec) scanNumber() (num []byte, integer bool) {
	data, i := d.data, d.pos
	start := i
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && '1' <= data[i] && data[i] <= '9':
		for i < len(data) && '0' <= data[i] && data[i] <= '9' {
			i++
		}
	default:
		d.fail()
		return nil, false
	}
	integer = true
	if i < len(data) && data[i] == '.' {
		integer = false
		i++
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			d.fail()
			return nil, false
		}
		for i < len(data) && '0' <= data[i] && data[i] <= '9' {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		integer = false
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || data[i] < '0' || data[i] > '9' {
			d.fail()
			return nil, false
		}
		for i < len(data) && '0' <= data[i] && data[i] <= '9' {
			i++
		}
	}
	d.pos = i
	return data[start:i], integer
}

// int64 decodes an integer in the int64 range (what strconv.ParseInt
// accepts); null leaves *p as it is.
func (d *jdec) int64(p *int64) {
	c := d.peek()
	if c == 'n' {
		d.lit("null")
		return
	}
	if c != '-' && (c < '0' || c > '9') {
		d.fail()
		return
	}
	num, integer := d.scanNumber()
	if d.bad {
		return
	}
	if !integer {
		d.fail()
		return
	}
	neg := num[0] == '-'
	if neg {
		num = num[1:]
	}
	var u uint64
	limit := uint64(math.MaxInt64)
	if neg {
		limit++
	}
	for _, c := range num {
		dg := uint64(c - '0')
		if u > (limit-dg)/10 {
			d.fail()
			return
		}
		u = u*10 + dg
	}
	if neg {
		*p = int64(-u) // -1<<63 wraps to itself
	} else {
		*p = int64(u)
	}
}

// The generator emits float64 for number properties; none of the pinned
// spec's response models has one today.
var _ = (*jdec).float64

// float64 decodes a number as strconv.ParseFloat reads it; out of range
// fails. null leaves *p as it is.
func (d *jdec) float64(p *float64) {
	c := d.peek()
	if c == 'n' {
		d.lit("null")
		return
	}
	if c != '-' && (c < '0' || c > '9') {
		d.fail()
		return
	}
	if f, ok := d.number(); ok {
		*p = f
	}
}

// number reads a number token as a float64.
func (d *jdec) number() (float64, bool) {
	num, integer := d.scanNumber()
	if d.bad {
		return 0, false
	}
	neg := num[0] == '-'
	digits := num
	if neg {
		digits = num[1:]
	}
	if integer && len(digits) <= 15 {
		// Up to 15 digits is exact in a float64.
		var u uint64
		for _, c := range digits {
			u = u*10 + uint64(c-'0')
		}
		f := float64(u)
		if neg {
			f = -f
		}
		return f, true
	}
	f, err := strconv.ParseFloat(string(num), 64)
	if err != nil {
		d.fail()
		return 0, false
	}
	return f, true
}

// bool decodes true or false; null leaves *p as it is.
func (d *jdec) bool(p *bool) {
	switch d.peek() {
	case 't':
		d.lit("true")
		*p = true
	case 'f':
		d.lit("false")
		*p = false
	case 'n':
		d.lit("null")
	default:
		d.fail()
	}
}

// time hands the raw token to time.Time.UnmarshalJSON, as encoding/json
// does (null included, which it ignores).
func (d *jdec) time(p *time.Time) {
	d.unmarshaler(p)
}

// unmarshaler hands the raw value to a type's own UnmarshalJSON.
func (d *jdec) unmarshaler(u interface{ UnmarshalJSON([]byte) error }) {
	raw := d.raw()
	if d.bad {
		return
	}
	if err := u.UnmarshalJSON(raw); err != nil {
		d.fail()
	}
}

// any decodes any value as encoding/json does into an empty interface:
// map[string]any, []any, string, float64, bool or nil.
func (d *jdec) any(p *any) {
	switch c := d.peek(); {
	case c == '{':
		if !d.obj() {
			return
		}
		m := map[string]any{}
		for more := d.key1(); more; more = d.keyN() {
			k := string(d.key)
			var v any
			d.any(&v)
			m[k] = v
		}
		*p = m
	case c == '[':
		if !d.arr() {
			return
		}
		s := []any{}
		for more := d.elem1(); more; more = d.elemN() {
			var v any
			d.any(&v)
			s = append(s, v)
		}
		*p = s
	case c == '"':
		var s string
		d.str(&s)
		*p = s
	case c == '-' || ('0' <= c && c <= '9'):
		if f, ok := d.number(); ok {
			*p = f
		}
	case c == 't', c == 'f':
		var b bool
		d.bool(&b)
		*p = b
	case c == 'n':
		d.lit("null")
		*p = nil
	default:
		d.fail()
	}
}

// ---- containers, for the generated code

// jdPtr decodes into a pointer: null sets it to nil; anything else goes
// into the pointed-to value, allocated when nil (and merged into when not).
func jdPtr[T any](d *jdec, p **T, f func(*jdec, *T)) {
	if d.null() {
		*p = nil
		return
	}
	if *p == nil {
		*p = new(T)
	}
	f(d, *p)
}

// jdSlice decodes an array into a slice, reusing its elements within
// capacity as encoding/json does; [] gives an empty, non-nil slice and
// null a nil one.
func jdSlice[E any](d *jdec, p *[]E, f func(*jdec, *E)) {
	if d.null() {
		*p = nil
		return
	}
	if !d.arr() {
		return
	}
	s := *p
	i := 0
	for more := d.elem1(); more; more = d.elemN() {
		if i < cap(s) {
			s = s[:i+1]
		} else {
			var zero E
			s = append(s, zero)
		}
		f(d, &s[i])
		i++
	}
	if i == 0 {
		s = []E{}
	}
	*p = s[:i]
}

// jdSlicePtr is jdSlice for slices of pointers to structs, the shape of
// every listing.
func jdSlicePtr[T any](d *jdec, p *[]*T, f func(*jdec, *T)) {
	if d.null() {
		*p = nil
		return
	}
	if !d.arr() {
		return
	}
	s := *p
	i := 0
	for more := d.elem1(); more; more = d.elemN() {
		if i < cap(s) {
			s = s[:i+1]
		} else {
			s = append(s, nil)
		}
		if d.null() {
			s[i] = nil
		} else {
			if s[i] == nil {
				s[i] = new(T)
			}
			f(d, s[i])
		}
		i++
	}
	if i == 0 {
		s = []*T{}
	}
	*p = s[:i]
}

// jdMap decodes an object into a map, merging into one that exists; each
// value is decoded into a fresh zero value.
func jdMap[E any](d *jdec, p *map[string]E, f func(*jdec, *E)) {
	if d.null() {
		*p = nil
		return
	}
	if !d.obj() {
		return
	}
	m := *p
	if m == nil {
		m = map[string]E{}
		*p = m
	}
	for more := d.key1(); more; more = d.keyN() {
		k := string(d.key)
		var v E
		f(d, &v)
		m[k] = v
	}
}

// ---- the entry point

// decodeFast decodes data into out with the generated decoders and
// reports whether it did; false means out is of a type they do not cover,
// or data does not fit it (and out may be partly written): the caller
// then runs encoding/json, which gives the error. wrapped admits Gitea's
// listing envelope (listEnvelope) for a slice; private keeps none of the
// body's strings for later decodes (a body that carries a credential).
func decodeFast(data []byte, out any, wrapped, private bool) bool {
	d := newJDec(data, private)
	handled := jdTop(d, out)
	if ok := d.end(); !handled || ok || !wrapped {
		return handled && ok
	}
	// A listing that failed as an array may be Gitea's envelope. Nothing
	// was written: a slice fails on the opening brace.
	d = newJDec(data, private)
	if d.peek() != '{' {
		d.end()
		return false
	}
	items, found := d.envelope()
	if !d.end() || !found {
		return false
	}
	d = newJDec(items, private)
	jdTop(d, out)
	return d.end()
}

// jdTop decodes the hand-written result types, then the generated ones.
func jdTop(d *jdec, out any) bool {
	switch p := out.(type) {
	case *Contents:
		jdContents(d, p)
	case *okDataEnvelope[*Repository]:
		jdOkData(d, p, jdRepository)
	case *okDataEnvelope[*User]:
		jdOkData(d, p, jdUser)
	case *okDataEnvelope[*Team]:
		jdOkData(d, p, jdTeam)
	case *topicsEnvelope[*TopicResponse]:
		jdTopics(d, p, func(d *jdec, p **TopicResponse) { jdPtr(d, p, jdTopicResponse) })
	case *topicsEnvelope[string]:
		jdTopics(d, p, (*jdec).str)
	case *any:
		if *p != nil {
			return false // encoding/json would decode into what it holds
		}
		d.any(p)
	case *[]string:
		jdSlice(d, p, (*jdec).str)
	case *map[string]string:
		jdMap(d, p, (*jdec).str)
	case *map[string]int64:
		jdMap(d, p, (*jdec).int64)
	default:
		return jdGenerated(d, out)
	}
	return true
}

// envelope reads the body as listEnvelope does: an object whose members
// are, once a repeated name keeps only its last value, exactly one array
// and optionally total_count. It returns the array.
func (d *jdec) envelope() ([]byte, bool) {
	type member struct {
		name string
		raw  []byte
	}
	var members []member
	if !d.obj() {
		return nil, false
	}
	for more := d.key1(); more; more = d.keyN() {
		name := string(d.key)
		raw := d.raw()
		found := false
		for i := range members {
			if members[i].name == name {
				members[i].raw, found = raw, true
			}
		}
		if !found {
			members = append(members, member{name, raw})
		}
	}
	if d.bad {
		return nil, false
	}
	var list []byte
	for _, m := range members {
		switch {
		case m.name == "total_count":
			continue
		case m.raw[0] != '[' || list != nil:
			return nil, false
		}
		list = m.raw
	}
	return list, list != nil
}

// jdContents decodes the contents union as Contents.UnmarshalJSON does.
func jdContents(d *jdec, c *Contents) {
	switch d.peek() {
	case '[':
		dir := []*ContentsResponse{}
		jdSlicePtr(d, &dir, jdContentsResponse)
		c.File, c.Dir = nil, dir
	case '{':
		file := new(ContentsResponse)
		jdContentsResponse(d, file)
		c.File, c.Dir = file, nil
	case 'n':
		d.lit("null")
		c.File, c.Dir = nil, nil
	default:
		d.fail()
	}
}

// jdOkData decodes the {"ok": true, "data": [...]} envelope.
func jdOkData[T any](d *jdec, v *okDataEnvelope[*T], f func(*jdec, *T)) {
	if !d.obj() {
		return
	}
	for more := d.key1(); more; more = d.keyN() {
		i := -1
		switch string(d.key) {
		case "ok":
			i = 0
		case "data":
			i = 1
		}
		if i < 0 {
			i = d.fold(jkOkData, true)
		}
		switch i {
		case 0:
			d.bool(&v.OK)
		case 1:
			jdSlicePtr(d, &v.Data, f)
		default:
			d.skip()
		}
	}
}

var jkOkData = []string{"ok", "data"}

// jdTopics decodes the {"topics": [...]} envelope.
func jdTopics[T any](d *jdec, v *topicsEnvelope[T], f func(*jdec, *T)) {
	if !d.obj() {
		return
	}
	for more := d.key1(); more; more = d.keyN() {
		i := -1
		if string(d.key) == "topics" {
			i = 0
		} else {
			i = d.fold(jkTopics, true)
		}
		if i == 0 {
			jdSlice(d, &v.Topics, f)
		} else {
			d.skip()
		}
	}
}

var jkTopics = []string{"topics"}
