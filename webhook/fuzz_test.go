package webhook

import (
	"net/http"
	"net/url"
	"testing"
)

// FuzzParse feeds arbitrary bodies, event types and content types, signed
// and not, to the parser: it must return an event or an *Error, never panic.
func FuzzParse(f *testing.F) {
	for _, file := range []string{"003-push-none.json", "006-push-none.form", "093-pull_request-opened.json", "136-package-created.json", "087-issue_comment-created.json"} {
		c := loadCapture(f, "testdata/"+file)
		f.Add(c.body, c.header.Get("X-Forgejo-Event-Type"), c.header.Get("Content-Type"), true)
	}
	f.Add([]byte(`{"action": 1}`), "issues", "application/json", true)
	f.Add([]byte(`payload=%7B%7D`), "hackathon", "application/x-www-form-urlencoded", true)
	f.Add([]byte(`{}`), "", "application/json; charset=utf-8", false)
	f.Add([]byte(`{"run": {"duration": "x"}}`), "action_run_failure", "application/json", true)

	signedParser, err := NewParser(WithSecret("fuzz"), WithMaxBodyBytes(1<<16))
	if err != nil {
		f.Fatal(err)
	}
	openParser, err := NewParser(AllowUnsigned())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte, eventType, contentType string, sign bool) {
		h := http.Header{}
		h.Set("Content-Type", contentType)
		h.Set("X-Forgejo-Event-Type", eventType)
		h.Set("X-Forgejo-Delivery", "fuzz")
		if sign {
			// Sign what the parser verifies: the body, or a form's payload
			// field, so that fuzzing reaches the decoding.
			signed := body
			if q, err := url.ParseQuery(string(body)); err == nil && len(q["payload"]) == 1 {
				signed = []byte(q["payload"][0])
			}
			h.Set("X-Forgejo-Signature", Sign("fuzz", signed))
		}
		for _, p := range []*Parser{signedParser, openParser} {
			ev, err := p.Parse(body, h)
			if err != nil {
				if _, ok := err.(*Error); !ok {
					t.Fatalf("error %T %v is not an *Error", err, err)
				}
				continue
			}
			if ev == nil || ev.EventType() == "" {
				t.Fatalf("nil event or empty type without error")
			}
			_ = ev.Payload()
			_, _ = Decode(ev.EventType(), ev.Payload())
		}
	})
}
