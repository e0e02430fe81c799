package webhook

import (
	"bytes"
	"testing"
)

// shapeScanBodies are hostile top-level objects for topLevel: repeated
// keys, escaped keys, nulls, nesting that mentions the keys, strings that
// hold braces and quotes, whitespace everywhere, and bodies that are not
// objects or not JSON at all.
var shapeScanBodies = []string{
	`{}`, ` { } `, `[]`, `null`, `"x"`, `12`, `{`, `{"a":}`, `{"issue":1,}`, "\xff",
	`{"issue":null}`, `{"issue":{"x":1},"issue":null}`, `{"issue":null,"issue":{"x":1}}`,
	`{"\u0069ssue":{"n":1}}`, `{"iss\"ue":1}`, `{"a":"}\"{","issue":[1,{"b":"]"}]}`,
	`{"x":{"issue":1},"y":[{"ref":"r"}]}`, "{\n\t\"ref\" :\r \"refs/heads/main\" ,\n\"commits\":[ ]\n}",
	`{"action":"opened","review":{"type":"pull_request_review_approved"},"pull_request":{}}`,
	`{"a":true,"b":false,"c":null,"d":-1.5e+10,"issue":0}`, `{"a":"\\","issue":"\\\""}`,
	`{"a":"é😀","issue":{"t":"\ud83d\ude00"}}`, `{"ref":"a"} {"b":1}`, `{"ref":"a"}x`,
}

// TestTopLevelMatchesEncodingJSON: the scan gives exactly what decoding
// into a map[string]json.RawMessage gives, for the keys checkShape reads,
// on every real delivery and every hostile body.
func TestTopLevelMatchesEncodingJSON(t *testing.T) {
	bodies := append([]string(nil), shapeScanBodies...)
	for _, c := range loadCaptures(t) {
		bodies = append(bodies, string(c.payload))
	}
	for _, b := range bodies {
		checkTopLevel(t, []byte(b))
	}
	t.Logf("%d bodies", len(bodies))
}

func FuzzTopLevel(f *testing.F) {
	for _, b := range shapeScanBodies {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkTopLevel(t, b) })
}

func checkTopLevel(t *testing.T, b []byte) {
	t.Helper()
	got, gotOK := topLevel(b)
	want, wantOK := slowTopLevel(b)
	if gotOK != wantOK {
		t.Fatalf("%q: ok %v, encoding/json %v", b, gotOK, wantOK)
	}
	for k := range shapeKeys {
		g, gIn := got[k]
		w, wIn := want[k]
		if gIn != wIn || !bytes.Equal(g, w) {
			t.Fatalf("%q: key %q: scan %q (%v), encoding/json %q (%v)", b, k, g, gIn, w, wIn)
		}
	}
}
