package iostreams

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// violation names the first thing in out that the display rule promises
// never to write, or "".
func violation(out string) string {
	prevASCII := false
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRuneInString(out[i:])
		if r == utf8.RuneError && size == 1 {
			return fmt.Sprintf("invalid UTF-8 at %d", i)
		}
		if r == '\r' && !strings.HasPrefix(out[i+1:], "\n") {
			return fmt.Sprintf("a lone CR at %d", i)
		}
		switch c := classify(r); {
		case r == '\r':
		case c == replace:
			return fmt.Sprintf("%U at %d", r, i)
		case c == afterASCII && prevASCII:
			return fmt.Sprintf("%U after an ASCII character at %d", r, i)
		}
		prevASCII = r < 0x80
		i += size
	}
	return ""
}

func TestSanitize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, ünïcode, 日本語, emoji 👍🏽", "plain text, ünïcode, 日本語, emoji 👍🏽"},
		{"tab\tand\nnewline", "tab\tand\nnewline"},
		{"crlf\r\nline", "crlf\r\nline"},
		{"x\x1b[2Jy", "x^[[2Jy"},
		{"x\x1b]52;c;Zm9v\x07y", "x^[]52;c;Zm9v^Gy"},
		{"a\bb\x7f\x00", "a^Hb^?^@"},
		{"innocent\rowned", "innocent^Mowned"},
		{"end\r", "end^M"},
		{"x\u009b2J", "x<U+009B>2J"},
		{"x\u202eevil", "x<U+202E>evil"},
		{"x\u2028y", "x<U+2028>y"},
		{"ab\u200bcd", "ab<U+200B>cd"},
		{"ab\u200dcd", "ab<U+200D>cd"},                                         // a joiner between ASCII letters hides a cut
		{"👩\u200d💻", "👩\u200d💻"},                                               // between emoji it joins them
		{"क्\u200dष", "क्\u200dष"},                                             // and in Devanagari it is text
		{"\xff\x9bx", "\ufffd\ufffdx"},                                         // not UTF-8
		{"x\U000e0041y", "x<U+E0041>y"},                                        // a tag character after ASCII
		{"🏴\U000e0067\U000e0062\U000e007f", "🏴\U000e0067\U000e0062\U000e007f"}, // a subdivision flag
	} {
		if got := Sanitize(tc.in); got != tc.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if v := violation(Sanitize(tc.in)); v != "" {
			t.Errorf("Sanitize(%q): %s", tc.in, v)
		}
	}
}

// TestSanitizerAcrossCuts: the stream gives what the whole string gives,
// wherever the writes cut it (inside a character, between CR and LF).
func TestSanitizerAcrossCuts(t *testing.T) {
	in := "a\r\nb\rc\u009bd日本\xffe\u200b\U0001F600\r"
	want := Sanitize(in)
	for cut1 := 0; cut1 <= len(in); cut1++ {
		for cut2 := cut1; cut2 <= len(in); cut2++ {
			var s Sanitizer
			out := s.Append(nil, []byte(in[:cut1]))
			out = s.Append(out, []byte(in[cut1:cut2]))
			out = s.Append(out, []byte(in[cut2:]))
			out = s.Flush(out)
			if string(out) != want {
				t.Fatalf("cuts %d,%d: %q, want %q", cut1, cut2, out, want)
			}
		}
	}
}

const token = "f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3"

// TestWriterMasksAcrossWrites: a token written in pieces, or cut by an
// escape, a backspace or a zero-width character, is never shown whole.
func TestWriterMasksAcrossWrites(t *testing.T) {
	m := NewMasker()
	m.Add(token)
	m.Add("short") // a webhook secret can be short
	for _, text := range []string{
		"title " + token + " end\n",
		"title " + token[:12] + "\x1b[0m" + token[12:] + "\n",
		"title " + token[:12] + "Z\b" + token[12:] + "\n",
		"title " + token[:12] + "\u200b" + token[12:] + "\n",
		"title " + token[:12] + "\u200d" + token[12:] + "\n",
		"secret: short, and no newline at the end",
		strings.Repeat("x", maxLine+7) + token + strings.Repeat("y", 100),
		strings.Repeat("x", maxLine-3) + "short" + strings.Repeat("y", maxLine),
	} {
		for cut := 0; cut <= len(text); cut += max(1, len(text)/97) {
			var out bytes.Buffer
			w := NewWriter(&out, m)
			w.Write([]byte(text[:cut]))
			w.Write([]byte(text[cut:]))
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			got := out.String()
			if strings.Contains(got, token) || strings.Contains(got, "short") {
				t.Fatalf("cut %d of %.60q: a secret is shown: %.200q", cut, text, got)
			}
			if v := violation(got); v != "" {
				t.Fatalf("cut %d of %.60q: %s", cut, text, v)
			}
		}
	}
}

func TestWriteControlAndOrder(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out, NewMasker())
	w.Write([]byte("partial"))
	w.WriteControl("\r\x1b[K", "fetched 3 of 9 \x1b[2J")
	w.Write([]byte("\n"))
	w.Flush()
	if got, want := out.String(), "partial\r\x1b[Kfetched 3 of 9 ^[[2J\n"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestWriteJSON: the data is kept, nothing unsafe is written, and the
// layout is MarshalIndent's.
func TestWriteJSON(t *testing.T) {
	doc := map[string]any{
		"title":  "x\x1b[2J\u009b2J\u202e\x7f\u200d\U000e0041 \"quoted\" \\ ü",
		"empty":  []any{},
		"obj":    map[string]any{},
		"nested": []any{1, 2.5, true, nil, map[string]any{"a": "b"}},
	}
	data, _ := json.Marshal(doc)
	var out bytes.Buffer
	if err := WriteJSON(&out, data); err != nil {
		t.Fatal(err)
	}
	if v := violation(out.String()); v != "" {
		t.Fatalf("%s in %s", v, out.String())
	}
	want, _ := json.MarshalIndent(doc, "", "  ")
	var a, b any
	_ = json.Unmarshal(out.Bytes(), &a)
	_ = json.Unmarshal(want, &b)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("the data changed:\n%s\nwant\n%s", out.String(), want)
	}
	plain, _ := json.MarshalIndent(map[string]any{"a": []any{1, "x"}, "b": []any{}}, "", "  ")
	out.Reset()
	_ = WriteJSON(&out, []byte(`{"a":[1,"x"],"b":[ ]}`))
	if out.String() != string(plain)+"\n" {
		t.Errorf("layout:\n%s\nwant\n%s", out.String(), plain)
	}
	// Invalid UTF-8 inside a string is U+FFFD, escaped.
	out.Reset()
	_ = WriteJSON(&out, []byte("[\"a\xffb\xc2\x9b\"]"))
	if !strings.Contains(out.String(), `a\ufffdb\u009b`) {
		t.Errorf("got %q", out.String())
	}
}

func TestWriteJSONRefusesDeepAndBroken(t *testing.T) {
	for _, n := range []int{MaxJSONDepth + 1, 10001, 100000} {
		var out bytes.Buffer
		err := WriteJSON(&out, []byte(strings.Repeat("[", n)+strings.Repeat("]", n)))
		var de *DepthError
		if !errors.As(err, &de) || out.Len() != 0 {
			t.Errorf("depth %d: %v, wrote %d bytes", n, err, out.Len())
		}
	}
	var out bytes.Buffer
	if err := WriteJSON(&out, []byte(strings.Repeat("[", MaxJSONDepth)+strings.Repeat("]", MaxJSONDepth))); err != nil {
		t.Errorf("depth %d: %v", MaxJSONDepth, err)
	}
	for _, bad := range []string{`{"a":`, `[1,]`, `"\x1b` + "\"", ``} {
		out.Reset()
		if err := WriteJSON(&out, []byte(bad)); err == nil || out.Len() != 0 {
			t.Errorf("%q: %v, wrote %q", bad, err, out.String())
		}
	}
}

// FuzzDisplay: whatever the text, the secret and the cuts, a Writer writes
// no character the display rule replaces and never shows the secret.
func FuzzDisplay(f *testing.F) {
	f.Add("title \x1b]0;x\x07 "+token[:9]+"\x1b[m"+token[9:]+"\n", token, 5, 17)
	f.Add("a\r\nb\rc\u009bd\xff\u200b", "secret-value", 1, 2)
	f.Add("ab\u200dcd"+"secr\u200bet", "secret", 3, 9)
	f.Fuzz(func(t *testing.T, text, sec string, c1, c2 int) {
		if len(sec) < minSecret || strings.ContainsAny(sec, "*\n") || !utf8.ValidString(sec) || Sanitize(sec) != sec {
			return // a secret is what the terminal would show: printable text
		}
		m := NewMasker()
		m.Add(sec)
		var out bytes.Buffer
		w := NewWriter(&out, m)
		c1 = min(max(c1, 0), len(text))
		c2 = min(max(c2, c1), len(text))
		w.Write([]byte(text[:c1]))
		w.Write([]byte(text[c1:c2]))
		w.Write([]byte(text[c2:]))
		w.Flush()
		got := out.String()
		if v := violation(got); v != "" {
			t.Fatalf("%s in %q", v, got)
		}
		if strings.Contains(got, sec) {
			t.Fatalf("the secret %q is shown: %q", sec, got)
		}
	})
}
