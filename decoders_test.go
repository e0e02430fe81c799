package forgejo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The generated decoders (decoders_gen.go, jsonscan.go) must agree with
// encoding/json on every body and every type: the same success or failure,
// and on success the same value. These tests and FuzzDecodeDifferential
// prove it over the Codeberg captures, the generated samples, a table of
// corner cases and a fuzz corpus.

// jdFast decodes data into out with the generated decoders alone (no
// fallback) and reports whether they covered the type and succeeded.
func jdFast(data []byte, out any) (handled, ok bool) {
	d := newJDec(data, false)
	handled = jdTop(d, out)
	ok = d.end()
	return handled, handled && ok
}

// jdDiff compares the two paths for one body and one type.
func jdDiff(t testing.TB, what string, data []byte, mk func() any) {
	t.Helper()
	ref, got := mk(), mk()
	refErr := json.Unmarshal(data, ref)
	handled, ok := jdFast(data, got)
	if !handled {
		t.Fatalf("%s: %T is not covered by the generated decoders", what, got)
	}
	if (refErr == nil) != ok {
		t.Fatalf("%s into %T: encoding/json err=%v, generated ok=%v; body %.300q", what, got, refErr, ok, data)
	}
	if ok && !reflect.DeepEqual(ref, got) {
		t.Fatalf("%s into %T: values differ\nencoding/json: %s\ngenerated:     %s\nbody %.300q", what, got, jdDump(ref), jdDump(got), data)
	}
}

func jdDump(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%+v", v)
	}
	return string(b)
}

// refDecodeJSON is the pipeline's decoding rule as it was before the
// generated decoders: the reference for decodeJSON.
func refDecodeJSON(data []byte, out any, wrapped bool) error {
	if isJSONNull(data) {
		if t := reflect.TypeOf(out); t != nil && t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
			return errNullObject
		}
	}
	err := json.Unmarshal(data, out)
	if err != nil && wrapped {
		if items, ok := listEnvelope(data, err); ok {
			return json.Unmarshal(items, out)
		}
	}
	return err
}

// jdPipelineDiff compares decodeJSON with refDecodeJSON: the same error
// text (so the same DecodeError path) and the same value.
func jdPipelineDiff(t testing.TB, what string, data []byte, mk func() any, wrapped bool) {
	t.Helper()
	ref, got := mk(), mk()
	refErr := refDecodeJSON(data, ref, wrapped)
	err := decodeJSON(data, got, wrapped)
	if fmt.Sprint(refErr) != fmt.Sprint(err) || decodePath(refErr) != decodePath(err) {
		t.Fatalf("%s into %T (wrapped %v): err %v, want %v", what, got, wrapped, err, refErr)
	}
	if err == nil && !reflect.DeepEqual(ref, got) {
		t.Fatalf("%s into %T (wrapped %v): values differ\nwant %s\ngot  %s", what, got, wrapped, jdDump(ref), jdDump(got))
	}
}

func jdCaptures(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	err := filepath.WalkDir("testdata/codeberg", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = data
		return err
	})
	if err != nil || len(out) == 0 {
		t.Fatalf("captures: %v (%d)", err, len(out))
	}
	return out
}

// Every capture decodes the same through both paths into every type.
func TestDecodeEquivalenceCaptures(t *testing.T) {
	caps := jdCaptures(t)
	for _, name := range sortedMapKeys(caps) {
		for _, typ := range jdTestTypes {
			jdDiff(t, name, caps[name], typ.new)
		}
	}
}

// Every generated sample decodes the same, alone and as a listing, and
// through the pipeline's rule.
func TestDecodeEquivalenceSamples(t *testing.T) {
	if len(jdTestSamples) < 100 {
		t.Fatalf("only %d samples", len(jdTestSamples))
	}
	byName := map[string]func() any{}
	for _, typ := range jdTestTypes {
		byName[typ.name] = typ.new
	}
	for _, name := range sortedMapKeys(jdTestSamples) {
		body := []byte(jdTestSamples[name])
		list := []byte("[" + jdTestSamples[name] + ",null," + jdTestSamples[name] + "]")
		jdDiff(t, name, body, byName[name])
		jdDiff(t, name+" listing", list, byName["[]*"+name])
		jdPipelineDiff(t, name, body, byName[name], false)
		jdPipelineDiff(t, name+" listing", list, byName["[]*"+name], true)
		// Upper-cased keys match case-insensitively.
		jdDiff(t, name+" upper", bytes.ToUpper(body), byName[name])
	}
}

// jdCorners are bodies for the corners of encoding/json's behaviour, each
// tried against every type.
var jdCorners = []string{
	`{}`, `[]`, `null`, ` null `, `{"id":1}`, `{"id":null}`, `{"id":1,"id":null}`, `{"id":-0}`,
	`{"id":9223372036854775807}`, `{"id":9223372036854775808}`, `{"id":-9223372036854775808}`, `{"id":-9223372036854775809}`,
	`{"id":1.0}`, `{"id":1e2}`, `{"id":"1"}`, `{"id":01}`, `{"id":-}`, `{"id":1.}`, `{"id":.5}`, `{"id":true}`,
	`{"ID":7}`, `{"Id":7,"id":8}`, `{"id":8,"Id":7}`, `{"\u0069d":5}`, `{"i\u0064":5,"ID":6}`,
	`{"login":"a\u00e9\ud83d\ude00b"}`, `{"login":"\ud800"}`, `{"login":"\ud800\u0041"}`, `{"login":"\udc00\ud800"}`,
	"{\"login\":\"\xff\xfe\"}", "{\"login\":\"a\xe2\x82\"}", "{\"login\":\"\xed\xa0\x80\"}", "{\"lo\xffgin\":\"x\"}",
	`{"login":"\x"}`, `{"login":"\u12"}`, "{\"login\":\"a\tb\"}", `{"login":"\/\b\f\n\r\t\"\\"}`, `{"login":'x'}`,
	`{"owner":{"id":1},"owner":{"login":"x"}}`, `{"owner":{"id":1},"owner":null}`, `{"owner":"x"}`,
	`{"labels":[{"id":1},{"id":2}],"labels":[{"name":"x"}]}`, `{"labels":[]}`, `{"labels":null}`, `{"labels":[null]}`,
	`{"labels":[{"id":1}],"labels":[],"labels":[{"name":"y"}]}`, `{"assignees":[{"id":1}],"assignees":[null,{"id":2}]}`,
	`{"created_at":"2026-01-02T03:04:05Z"}`, `{"created_at":"2026-01-02T03:04:05.123456789+02:00"}`, `{"created_at":null}`,
	`{"created_at":"2026-01-02 03:04:05Z"}`, `{"created_at":"\u0032026-01-02T03:04:05Z"}`, `{"created_at":17}`,
	`{"created_at":"0001-01-01T00:00:00Z"}`, `{"created_at":"2026-13-02T03:04:05Z"}`, `{"created_at":{}}`,
	`{"size":1e400}`, `{"stars_count":1e400}`, `{"percent":1e400}`, `{"percent":-0}`, `{"percent":1.5e-3}`, `{"percent":123456789012345678}`,
	`{"id":1,}`, `{"id":1 "x":2}`, `{"id" 1}`, `{"id":1}x`, `{"id":1}{}`, `{"id":1}  `, `  {"id":1}`, `{"id":1`, `{"id":"`,
	`[{"id":1}]`, `[{"id":1},]`, `[,]`, `[null]`, `[1]`, `["x"]`, `"x"`, `1`, `true`, `{"x":[1,{"y":[null,true,false,"z",-1.5e+3]}]}`,
	`{"x":nul}`, `{"x":tru}`, `{"x":falsey}`, `{"units_map":{"a":"b","a":"c"}}`, `{"units_map":{"a":"b"},"units_map":{"c":"d"}}`,
	`{"units_map":null}`, `{"units_map":{"a":null}}`, `{"units_map":[]}`, `{"permissions":{"admin":true},"permissions":{"push":true}}`,
	`{"reason":{"a":[1,"x",null]}}`, `{"reason":1e400}`, `{"topics":["a",null,"b"]}`, `{"ok":true,"data":[{"id":1}]}`,
	`{"runners":[{"id":1}],"total_count":1}`, `{"runners":[{"id":1}],"total_count":1,"runners":[{"id":2}]}`,
	`{"runners":[{"id":1}],"jobs":[]}`, `{"message":"maintenance","errors":[]}`, `{"runners":5}`, `{"runners":5,"runners":[{"id":3}]}`,
	`{"artifacts":[{"id":1}],"total_count":"many"}`, `{"a":[],"a":1}`, `{"TOTAL_COUNT":1,"a":[]}`,
	`{"type":"file","name":"x"}`, `[{"type":"dir"}]`, `{"content":"aGk="}`, `{"labels":[1,"bug"]}`, `{"labels":[1.5]}`,
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001), strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	`{"x":` + strings.Repeat(`{"x":`, 10000) + `1` + strings.Repeat("}", 10001),
	`{"` + "\u212a" + `":1}`, `{"name":"x","NAME":"y","nAmE":"z"}`, `{"` + "\u017f" + `tate":"open"}`,
}

func TestDecodeEquivalenceCorners(t *testing.T) {
	for _, body := range jdCorners {
		for _, typ := range jdTestTypes {
			jdDiff(t, "corner", []byte(body), typ.new)
		}
	}
}

// The pipeline's rule (null objects, envelopes only when wrapped, the
// fallback's errors) holds through the generated decoders.
func TestDecodeJSONPipelineEquivalence(t *testing.T) {
	caps := jdCaptures(t)
	var bodies [][]byte
	for _, name := range sortedMapKeys(caps) {
		bodies = append(bodies, caps[name])
	}
	for _, c := range jdCorners {
		bodies = append(bodies, []byte(c))
	}
	for _, body := range bodies {
		for _, typ := range jdTestTypes {
			for _, wrapped := range []bool{false, true} {
				jdPipelineDiff(t, "body", body, typ.new, wrapped)
			}
		}
		for _, mk := range []func() any{
			func() any { return new(Contents) },
			func() any { return new(okDataEnvelope[*Repository]) },
			func() any { return new(okDataEnvelope[*User]) },
			func() any { return new(topicsEnvelope[string]) },
			func() any { return new(topicsEnvelope[*TopicResponse]) },
			func() any { return new([]string) },
			func() any { return new(map[string]int64) },
			func() any { return new(map[string]string) },
			func() any { return new(any) },
		} {
			jdDiff(t, "hand-written result", body, mk)
			jdPipelineDiff(t, "hand-written result", body, mk, false)
		}
	}
}

// A value the caller filled in before (Client.Do) is decoded into as
// encoding/json decodes into it.
func TestDecodeIntoPrefilled(t *testing.T) {
	body := []byte(`[{"id":5,"labels":[{"name":"n"}]},null,{"title":"t"}]`)
	mk := func() any {
		s := make([]*Issue, 2, 5)
		s[0] = &Issue{ID: 1, Title: "old", Labels: []*Label{{ID: 9}, {ID: 10}}}
		s = append(s, &Issue{Body: "hidden"})
		s = s[:2]
		return &s
	}
	jdDiff(t, "prefilled", body, mk)
}

func sortedMapKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// FuzzDecodeDifferential decodes each input into one of the covered types
// (chosen by typ) through the generated decoders and through encoding/json,
// and fails on any difference: success against failure, or two values. It
// also checks the pipeline's rule, wrapped envelopes included.
func FuzzDecodeDifferential(f *testing.F) {
	caps := jdCaptures(f)
	for i, name := range sortedMapKeys(caps) {
		f.Add(caps[name], uint16(i*37), false)
	}
	for i, c := range jdCorners {
		if len(c) < 4096 {
			f.Add([]byte(c), uint16(i*53), i%2 == 0)
		}
	}
	names := sortedMapKeys(jdTestSamples)
	index := map[string]int{}
	for i, typ := range jdTestTypes {
		index[typ.name] = i
	}
	for i, name := range names {
		if i%7 == 0 {
			f.Add([]byte(jdTestSamples[name]), uint16(index[name]), false)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, typ uint16, wrapped bool) {
		mk := jdTestTypes[int(typ)%len(jdTestTypes)].new
		jdDiff(t, "fuzz", data, mk)
		jdPipelineDiff(t, "fuzz", data, mk, wrapped)
	})
}

// A body that carries a credential leaves none of its strings in the
// decoder's cache of recent strings; other bodies' strings stay, for reuse.
func TestDecodePrivateKeepsNoStrings(t *testing.T) {
	const sha1 = "9f1b3c5d7e9f1b3c5d7e9f1b3c5d7e9f1b3c5d7e"
	body := []byte(`{"id":7,"name":"ci-token","sha1":"` + sha1 + `","token_last_eight":"1b3c5d7e"}`)
	holds := func(d *jdec, s string) bool {
		for _, v := range d.intern {
			if v == s {
				return true
			}
		}
		return false
	}
	for _, private := range []bool{false, true} {
		d := newJDec(body, private)
		var tok AccessToken
		if !jdTop(d, &tok) || tok.SHA1 != sha1 {
			t.Fatalf("private=%v: decoded %+v", private, tok)
		}
		if !holds(d, sha1) {
			t.Fatal("the cache did not see the string: the check below proves nothing")
		}
		if !d.end() {
			t.Fatal("decode failed")
		}
		if got := holds(d, sha1) || holds(d, "ci-token"); got == private {
			t.Errorf("private=%v: strings kept after the decode = %v", private, got)
		}
	}
}

// The learned field order (jdOrder) is only a guess: bodies whose keys
// come in another order, with unknown keys between, with spaces, with
// escapes or with names that extend a guessed one decode as encoding/json
// decodes them, one after another, whatever the order learned before.
func TestDecodeLearnedOrderIsOnlyAGuess(t *testing.T) {
	bodies := []string{
		`{"id":1,"login":"a","full_name":"A","email":"a@x"}`,
		`{"id":2,"login":"b","full_name":"B","email":"b@x"}`, // the order learned
		`{"email":"c@x","full_name":"C","login":"c","id":3}`, // reversed
		`{"id":4,"extra":{"id":9},"login":"d","email":"d@x"}`,
		`{"id" : 5 , "login":"e"}`,
		`{"\u0069d":6,"log\u0069n":"f"}`,
		`{"idx":7,"id":8,"login_name":"g","login":"h"}`,
		`{"ID":10,"Login":"i"}`,
		`{"id":11,"id":12,"login":"j"}`,
		`{"id":1,"login":"a","full_name":"A","email":"a@x"}`,
	}
	for round := range 2 {
		for i, body := range bodies {
			jdDiff(t, fmt.Sprintf("round %d, body %d", round, i), []byte(body), func() any { return new(User) })
		}
	}
}
