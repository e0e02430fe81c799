package secret

import (
	"bytes"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// This file is the one place that masks secrets in text: the library's
// redactor (errors, events, log lines) and the command-line tool's output
// both scrub through a Set.

// Set is every form of every secret that must never be rendered: a
// client's credential and the tokens its TokenSource returned lately, or a
// command-line tool's token. It is safe for concurrent use.
//
// A server may echo a secret whole, in some encoding, or in pieces (net/http
// quotes only the part of a status line up to a space; a body cut at a
// bound keeps a prefix), so scrubbing masks every run of RunLen or more
// bytes of any form, and a form shorter than that wherever it appears
// whole.
//
// The set is bounded: a token source that mints a token per call would
// otherwise grow it by a few hundred bytes a call for as long as the client
// lives. The credential stays for good; of a token source's tokens the
// set keeps the latest MaxSourceTokens, and each call also masks every
// token it sent itself (its redactor's own set), so that no call's texts
// can show a token that call could have sent.
type Set struct {
	mu    sync.RWMutex
	grams map[string]int32 // every RunLen-byte window of every form, with its count
	// filter has a bit set for the hash of every gram: most windows of a
	// text miss it, and skip the map lookup.
	filter [gramFilterWords]uint64
	short  []string            // forms shorter than RunLen, longest first
	seen   map[string][]string // every secret, with its forms
	maxLen int
	// tokens are the evictable secrets (a token source's), oldest first.
	tokens []string
	// encoders add forms (NewSet).
	encoders []func(string) string
}

// MaxSourceTokens is how many of a token source's tokens a client's set
// keeps besides the credential: a source that refreshes hourly keeps more
// than two days of them.
const MaxSourceTokens = 64

// RunLen is the shortest run of a secret that is masked wherever it
// appears; shorter secrets are masked when they appear whole.
const RunLen = 8

// gramFilterWords sizes Set.filter: 4096 bits, for the few hundred
// grams of a client's secrets.
const gramFilterWords = 64

// gramBit locates a window's bit in Set.filter; it reads 8 bytes,
// RunLen.
func gramBit(w string) (word int, bit uint64) {
	x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
	h := (x * 0x9E3779B97F4A7C15) >> (64 - 12) // 12 bits: 4096
	return int(h >> 6), 1 << (h & 63)
}

// NewSet returns a set holding secrets. Each encoder adds a form of every
// secret besides the ones [Set.Add] lists (the percent-encoding of a
// client's own URL builder, say).
func NewSet(encoders []func(string) string, secrets ...string) *Set {
	s := &Set{seen: map[string][]string{}, grams: map[string]int32{}, encoders: encoders}
	for _, v := range secrets {
		s.Add(v)
	}
	return s
}

// Add records secret for good, in each form a server or net/http may echo
// it in: raw, JSON-escaped (with and without HTML escaping),
// percent-encoded (as this library, url.QueryEscape and url.PathEscape
// encode) and Go-quoted (net/http quotes what it cannot parse with %q).
// Any length is masked: a short basic-auth password is still a password.
func (s *Set) Add(secret string) {
	if s == nil || secret == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.insert(secret)
}

// AddToken records a token source's token; past MaxSourceTokens the
// oldest goes (see Set).
func (s *Set) AddToken(secret string) {
	if s == nil || secret == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.insert(secret) {
		return
	}
	s.tokens = append(s.tokens, secret)
	if len(s.tokens) > MaxSourceTokens {
		s.remove(s.tokens[0])
		s.tokens = slices.Delete(s.tokens, 0, 1)
	}
}

// insert adds secret's forms; false when it was already in. s.mu is held.
func (s *Set) insert(secret string) bool {
	if _, dup := s.seen[secret]; dup {
		return false
	}
	forms := s.Forms(secret)
	s.seen[secret] = forms
	for _, f := range forms {
		s.maxLen = max(s.maxLen, len(f))
		if len(f) < RunLen {
			if !slices.Contains(s.short, f) {
				s.short = append(s.short, f)
			}
			continue
		}
		for i := 0; i+RunLen <= len(f); i++ {
			g := f[i : i+RunLen]
			s.grams[g]++
			w, bit := gramBit(g)
			s.filter[w] |= bit
		}
	}
	slices.SortStableFunc(s.short, func(a, b string) int { return len(b) - len(a) })
	return true
}

// remove drops an evicted token's forms. s.mu is held.
func (s *Set) remove(secret string) {
	forms := s.seen[secret]
	delete(s.seen, secret)
	for _, f := range forms {
		for i := 0; i+RunLen <= len(f); i++ {
			g := f[i : i+RunLen]
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
			if len(f) < RunLen && !slices.Contains(s.short, f) {
				s.short = append(s.short, f)
			}
		}
	}
	slices.SortStableFunc(s.short, func(a, b string) int { return len(b) - len(a) })
}

// Forms lists the encodings of secret that s masks.
func (s *Set) Forms(secret string) []string {
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
	for _, enc := range s.encoders {
		forms = append(forms, enc(secret))
	}
	forms = append(forms, url.QueryEscape(secret), url.PathEscape(secret))
	q := strconv.Quote(secret)
	forms = append(forms, q[1:len(q)-1])
	q = strconv.QuoteToASCII(secret)
	forms = append(forms, q[1:len(q)-1])
	slices.Sort(forms)
	return slices.Compact(forms)
}

// Longest returns the length of the longest form.
func (s *Set) Longest() int {
	if s == nil {
		return 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.maxLen
}

// Scrub masks text: every maximal stretch covered by RunLen-byte runs of a
// secret form, widened to whole UTF-8 characters, becomes one mask; then
// the short forms are masked where they appear whole.
func (s *Set) Scrub(text string) string {
	if s == nil {
		return text
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.grams) > 0 && len(text) >= RunLen {
		var b strings.Builder
		last := 0 // text[:last] has been copied or masked
		for i := 0; i+RunLen <= len(text); i++ {
			if w, bit := gramBit(text[i : i+RunLen]); s.filter[w]&bit == 0 {
				continue
			}
			if _, hit := s.grams[text[i:i+RunLen]]; !hit {
				continue
			}
			start, end := i, i+RunLen
			for end < len(text) {
				if _, more := s.grams[text[end+1-RunLen:end+1]]; !more {
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
				b.WriteString(Mask)
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
			text = strings.ReplaceAll(text, f, Mask)
		}
	}
	return text
}

// Size reports what s holds: its secrets, its grams, and about how many
// bytes its keys and forms take.
func (s *Set) Size() (secrets, grams, bytes int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for g := range s.grams {
		bytes += len(g) + 4
	}
	for _, forms := range s.seen {
		for _, f := range forms {
			bytes += len(f)
		}
	}
	return len(s.seen), len(s.grams), bytes
}

// SafeCut returns the largest cut at or before at where text can be split
// into two pieces written one after the other without a secret crossing
// from one to the other in pieces that both escape masking: it moves the
// cut back past any end of text[:at] that begins a form of a secret. A
// stream that masks what it holds a piece at a time cuts there.
func (s *Set) SafeCut(text string, at int) int {
	if s == nil {
		return at
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for moved := true; moved && at > 0; {
		moved = false
		for _, forms := range s.seen {
			for _, f := range forms {
				for k := min(len(f)-1, at); k > 0; k-- {
					if text[at-k:at] == f[:k] {
						at -= k
						moved = true
						break
					}
				}
			}
		}
	}
	return at
}
