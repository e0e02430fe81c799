// Package secret is the one mechanism by which forgego's types that hold a
// credential or a webhook secret render without it: under every fmt verb,
// in log/slog records and in encoding/json.
//
// Two forms cover every type:
//
//   - A secret held in an unexported field is stored as a [Text]. Text
//     renders as [Mask] wherever it is reached through a method, and when
//     fmt prints an enclosing struct by reflection (it cannot call methods
//     on unexported fields) it finds only a pointer, which it prints as an
//     address. So a struct that keeps its secrets in Text fields needs no
//     rendering methods of its own.
//   - A type with an exported secret field (forgejo.Token.Value,
//     webhook.BuildOptions.Secret, the generated models that carry a
//     password or a token) implements fmt.Formatter, slog.LogValuer and,
//     unless it is a wire model the library itself encodes, json.Marshaler,
//     each by rendering a copy whose secret fields are [Masked], through
//     [Format].
//
// Text that is not a secret but may carry one (an error message, a
// server's answer, a command's output) is masked by a [Set], which knows
// every form of every secret it holds and masks any run of [RunLen] bytes
// of one of them: the library's redactor and the command-line tool's
// output both use it.
//
// TestSecretsNeverRender (in the root package) enumerates every exported
// type of the module's packages that holds a secret and renders each under
// every verb, slog handler and json.Marshal.
package secret

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
)

// Mask is what a secret that is set renders as.
const Mask = "***"

// Text is a secret string. Its zero value is the empty secret. It renders
// as [Mask] (or "" when empty) under every fmt verb, slog and JSON; only
// [Text.Reveal] returns the value.
type Text struct{ p *string }

// New returns s as a Text.
func New(s string) Text {
	if s == "" {
		return Text{}
	}
	return Text{p: &s}
}

// Reveal returns the secret itself, for the code that must send or compare
// it.
func (t Text) Reveal() string {
	if t.p == nil {
		return ""
	}
	return *t.p
}

// IsZero reports whether the secret is empty.
func (t Text) IsZero() bool { return t.p == nil || *t.p == "" }

// String renders the mask.
func (t Text) String() string { return Masked(t.Reveal()) }

// GoString renders the mask, quoted, for %#v.
func (t Text) GoString() string { return `"` + t.String() + `"` }

// Format renders the mask under every verb.
func (t Text) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		fmt.Fprint(f, t.GoString())
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), t.String())
}

// LogValue renders the mask for log/slog.
func (t Text) LogValue() slog.Value { return slog.StringValue(t.String()) }

// MarshalJSON renders the mask as a JSON string.
func (t Text) MarshalJSON() ([]byte, error) { return json.Marshal(t.String()) }

// MarshalText renders the mask, for encoders that prefer text.
func (t Text) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// Masked returns [Mask] for a non-empty s and "" for an empty one, so that
// a rendering still tells whether a secret was set.
func Masked(s string) string {
	if s == "" {
		return ""
	}
	return Mask
}

// MaskedPtr is [Masked] for an optional field.
func MaskedPtr(s *string) *string {
	if s == nil {
		return nil
	}
	m := Masked(*s)
	return &m
}

// MaskedMap returns a copy of m with the values of the named keys masked
// (keys compared case-insensitively); nil stays nil.
func MaskedMap(m map[string]string, keys ...string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		for _, s := range keys {
			if strings.EqualFold(k, s) {
				v = Masked(v)
				break
			}
		}
		out[k] = v
	}
	return out
}

// Format writes masked (a copy of a value whose secret fields are masked,
// of a type without rendering methods of its own) as the directive f and
// verb describe. Under %#v the copy's type name is replaced by name, the
// name of the type it stands in for (such as "forgejo.Token").
func Format(f fmt.State, verb rune, name string, masked any) {
	if verb == 'v' && f.Flag('#') {
		s := fmt.Sprintf("%#v", masked)
		t := reflect.TypeOf(masked)
		prefix := t.String()
		if t.Kind() == reflect.Pointer {
			prefix = "&" + t.Elem().String()
			name = "&" + name
		}
		if strings.HasPrefix(s, prefix) {
			s = name + s[len(prefix):]
		}
		fmt.Fprint(f, s)
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), masked)
}
