package webhook

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// allEventTypes are the event types with a payload type, sorted.
func allEventTypes() []EventType {
	var ts []EventType
	for t := range shapes {
		ts = append(ts, t)
	}
	slices.Sort(ts)
	return ts
}

// sameDecode fails t unless decode (the fast path, when it takes the
// payload) gives what the reference path (encoding/json) gives.
func sameDecode(t *testing.T, what string, typ EventType, payload []byte) {
	t.Helper()
	d := Delivery{typ: typ, contentType: "json", body: payload, payload: payload}
	got, gotErr := decode(d)
	want, wantErr := decodeFrom(d, false)
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("%s as %s: fast path err %v, reference err %v", what, typ, gotErr, wantErr)
	}
	if gotErr != nil {
		var g, w *Error
		if !errors.As(gotErr, &g) || !errors.As(wantErr, &w) || g.Kind != w.Kind || g.Detail != w.Detail || fmt.Sprint(g.Err) != fmt.Sprint(w.Err) {
			t.Fatalf("%s as %s: fast path error %v, reference %v", what, typ, gotErr, wantErr)
		}
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s as %s: the fast path decoded another event than encoding/json", what, typ)
	}
}

// TestFastDecodeDifferential decodes every captured delivery under every
// event type, and adversarial variants of them, both ways.
func TestFastDecodeDifferential(t *testing.T) {
	caps := loadCaptures(t)
	if len(caps) < 100 {
		t.Fatalf("%d captures", len(caps))
	}
	fast := 0
	for _, c := range caps {
		own := EventType(c.header.Get("X-Forgejo-Event-Type"))
		for _, typ := range allEventTypes() {
			sameDecode(t, c.name, typ, c.payload)
		}
		// The captures' own type takes the fast path: the speed is real.
		ev := newEvent(own)
		if _, ok := ev.(*UnknownEvent); ok {
			continue
		}
		if _, ok := fastDecode(ev, own, c.payload); !ok {
			t.Errorf("%s: the fast path gave up on a real delivery of its own type", c.name)
		} else {
			fast++
		}
	}
	t.Logf("%d captures under %d event types; %d took the fast path under their own type", len(caps), len(allEventTypes()), fast)
}

// TestFastDecodeAdversarial holds the corners where encoding/json's
// answer is easy to miss: repeated keys, keys that match only
// case-insensitively or through escapes, nulls, wrong types, broken JSON
// inside a member nobody reads, trailing bytes.
func TestFastDecodeAdversarial(t *testing.T) {
	push := string(loadCapture(t, "testdata/003-push-none.json").payload)
	issue := string(loadCapture(t, "testdata/055-issues-opened.json").payload)
	vectors := []string{
		`{}`, `{"ref":"x"}`, `{"ref":null}`, `{"ref":1}`, `{"ref":"a","ref":"b"}`, `{"Ref":"x"}`, `{"REF":"x","ref":"y"}`,
		`{"\u0072ef":"x"}`, `{"r\u00e9f":"x"}`, `{"ref":"x","commits":null}`, `{"ref":"x","commits":[null]}`, `{"ref":"x","commits":{}}`,
		`{"ref":"x","repository":null}`, `{"ref":"x","repository":{"id":"1"}}`, `{"ref":"x","repository":{"id":1},"repository":{"name":"n"}}`,
		`{"ref":"x","unknown":[1,2,}`, `{"ref":"x","unknown":tru}`, `{"ref":"x"} `, `{"ref":"x"}x`, `{"ref":"x",}`, `{"ref":"x"`,
		`{"issue":{"id":1},"action":"closed"}`, `{"issue":{"id":1},"action":"assigned"}`, `{"issue":{"id":1},"action":5}`, `{"issue":{"id":1},"action":null}`,
		`{"issue":{"id":1},"action":"opened","action":"assigned"}`, `{"issue":{"id":1},"changes":{"title":{"from":"a"}}}`, `{"issue":{"id":1},"changes":"x"}`,
		`{"pull_request":{"id":1},"review":{"type":"pull_request_review_rejected"}}`, `{"pull_request":{"id":1},"review":{"type":1}}`, `{"pull_request":{"id":1},"review":{"Type":"pull_request_review_comment"}}`,
		`{"forkee":{"id":1},"forkee":null}`, `{"ref":"x","forkee":null}`, `{"ref":"x","number":1.5}`, `{"ref":"x","total_commits":9223372036854775808}`,
		`{"ref":"\ud800"}`, "{\"ref\":\"\xff\"}", `{"is_pull":"true","issue":{"id":1},"comment":{"id":1}}`, `{"run":{"duration":"x"}}`, `{"run":{"id":1},"last_run":null}`,
		`{"release":{"id":1,"assets":[{"id":1}]},"action":"published"}`, `{"package":{"id":1},"action":"created"}`, `{"page":"p","comment":"c","action":"created"}`,
		strings.Repeat(`{"a":`, 10001) + strings.Repeat(`}`, 10001),
		`{"ref":"x","deep":` + strings.Repeat(`[`, 10001) + strings.Repeat(`]`, 10001) + `}`,
		push, issue, strings.Replace(push, `"ref"`, `"ref":"dup","ref"`, 1), strings.Replace(issue, `"issue"`, `"Issue"`, 1),
		strings.Replace(issue, `"action":"opened"`, `"action":"label_updated"`, 1), strings.Replace(push, `"commits"`, `"commits":null,"x"`, 1),
	}
	for i, v := range vectors {
		for _, typ := range allEventTypes() {
			sameDecode(t, fmt.Sprintf("vector %d", i), typ, []byte(v))
		}
	}
}

// FuzzFastDecode holds the fast path to encoding/json's answer on any
// payload and event type.
func FuzzFastDecode(f *testing.F) {
	for _, file := range []string{"003-push-none.json", "093-pull_request-opened.json", "136-package-created.json", "087-issue_comment-created.json", "055-issues-opened.json"} {
		c := loadCapture(f, "testdata/"+file)
		f.Add(c.payload, uint8(0))
	}
	f.Add([]byte(`{"ref":"a","Ref":"b"}`), uint8(3))
	types := allEventTypes()
	f.Fuzz(func(t *testing.T, payload []byte, which uint8) {
		sameDecode(t, "fuzz", types[int(which)%len(types)], payload)
	})
}
