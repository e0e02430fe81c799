package secret

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

const value = "s3cr3t-V4lue-never-shown"

type holder struct {
	name string
	key  Text
	keys []Text
}

type Exported struct {
	Name string
	Key  Text
}

type token struct{ Value, Type string }

type Token token

func (t Token) masked() token {
	m := token(t)
	m.Value = Masked(m.Value)
	return m
}

func (t Token) Format(f fmt.State, verb rune) { Format(f, verb, "secret.Token", t.masked()) }
func (t Token) LogValue() slog.Value          { return slog.AnyValue(t.masked()) }
func (t Token) MarshalJSON() ([]byte, error)  { return json.Marshal(t.masked()) }

// TestTextNeverRenders renders a Text held every way a program holds one
// (unexported, exported, in a slice, behind a pointer) under every verb,
// slog handler and JSON.
func TestTextNeverRenders(t *testing.T) {
	s := New(value)
	values := []any{
		s, &s, holder{"n", s, []Text{s}}, &holder{"n", s, []Text{s}},
		Exported{"n", s}, []Text{s}, map[string]Text{"k": s}, Token{value, "Bearer"}, &Token{value, "Bearer"},
	}
	verbs := []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%10.3s", "%T"}
	for i, v := range values {
		for _, verb := range verbs {
			if out := fmt.Sprintf(verb, v); strings.Contains(out, value) || strings.Contains(out, fmt.Sprintf("%x", value)[:16]) {
				t.Errorf("value %d under %s renders the secret: %s", i, verb, out)
			}
		}
		var buf bytes.Buffer
		slog.New(slog.NewTextHandler(&buf, nil)).Info("m", "v", v)
		slog.New(slog.NewJSONHandler(&buf, nil)).Info("m", "v", v)
		if b, err := json.Marshal(v); err == nil {
			buf.Write(b)
		}
		if strings.Contains(buf.String(), value) {
			t.Errorf("value %d renders the secret in slog or JSON: %s", i, buf.String())
		}
	}
	if s.Reveal() != value || New("").Reveal() != "" || !New("").IsZero() || s.IsZero() {
		t.Error("Reveal or IsZero is wrong")
	}
	if got := fmt.Sprintf("%#v", Token{value, "Bearer"}); got != `secret.Token{Value:"***", Type:"Bearer"}` {
		t.Errorf("%%#v = %s", got)
	}
	if got := fmt.Sprint(New("")); got != "" {
		t.Errorf("an empty secret renders %q", got)
	}
}
