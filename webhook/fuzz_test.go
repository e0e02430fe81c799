package webhook

import (
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
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

// FuzzSecretEcho is the webhook sibling of the core's FuzzCredentialEcho:
// for arbitrary bodies and headers, a Parser holding a known secret (and a
// delivery carrying a hook's authorization header) never puts the secret,
// nor the authorization value, in any of their forms (as is, hex, JSON- or
// Go-escaped) into an error message, an event's rendering, or the Parser's
// or Handler's rendering. Inputs that contain them are skipped (an echo of
// the input is not a leak), and a match that the same input also shows
// with stand-in secrets is the library's own text, not a leak.
func FuzzSecretEcho(f *testing.F) {
	for _, file := range []string{"003-push-none.json", "006-push-none.form", "093-pull_request-opened.json", "087-issue_comment-created.json"} {
		c := loadCapture(f, "testdata/"+file)
		f.Add(testSecret, "Bearer hook-auth-value", c.body, c.header.Get("X-Forgejo-Event-Type"), c.header.Get("Content-Type"), "X-Forgejo-Delivery", c.header.Get("X-Forgejo-Delivery"), true)
	}
	f.Add("s3cr3t<&>\"q\"", "token abc<def>", []byte(`{"ref":"x"}`), "push", "application/json", "X-Gitea-Delivery", "other", true)
	f.Add("hunter2-hunter2", "Basic dXNlcjpwYXNz", []byte(`payload=%7B%7D`), "issues", "application/x-www-form-urlencoded", "X-Hub-Signature-256", "sha256=00", false)
	f.Fuzz(func(t *testing.T, secret, auth string, body []byte, eventType, contentType, name, value string, sign bool) {
		usable := func(s string) bool {
			return len(s) >= 8 && len(s) <= 128 && utf8.ValidString(s) && !strings.ContainsFunc(s, unicode.IsControl) && strings.TrimSpace(s) == s
		}
		if !usable(secret) || !usable(auth) || secret == auth {
			return
		}
		inputs := string(body) + "\x00" + eventType + "\x00" + contentType + "\x00" + name + "\x00" + value
		for _, s := range []string{secret, auth} {
			for _, form := range echoForms(s) {
				if strings.Contains(inputs, form) {
					return
				}
			}
		}
		render := func(secret, auth string) string {
			h := http.Header{}
			h.Set("Content-Type", contentType)
			h.Set("X-Forgejo-Event-Type", eventType)
			h.Set("Authorization", auth)
			if http.CanonicalHeaderKey(name) != "Authorization" {
				h.Add(name, value)
			}
			if sign {
				signed := body
				if q, err := url.ParseQuery(string(body)); err == nil && len(q["payload"]) == 1 {
					signed = []byte(q["payload"][0])
				}
				h.Set("X-Forgejo-Signature", Sign(secret, signed))
			}
			p, err := NewParser(WithSecret("another-secret-value", secret), WithMaxBodyBytes(1<<16))
			if err != nil {
				return ""
			}
			var out strings.Builder
			rt := NewRouter()
			values := []any{p, must(NewHandler(p, rt))}
			ev, err := p.Parse(body, h)
			if err != nil {
				out.WriteString(err.Error())
				values = append(values, err)
			} else {
				values = append(values, ev)
			}
			for _, v := range values {
				for _, r := range renderings(v) {
					out.WriteString(r)
					out.WriteByte('\n')
				}
			}
			return out.String()
		}
		got := render(secret, auth)
		for _, s := range []string{secret, auth} {
			leak := ""
			for _, form := range echoForms(s) {
				if strings.Contains(got, form) {
					leak = form
					break
				}
			}
			if leak == "" {
				continue
			}
			baseline := render(strings.Repeat("~", len(secret)), strings.Repeat("^", len(auth)))
			if !strings.Contains(baseline, leak) {
				t.Fatalf("%q shows in the rendering as %q:\n%s", s, leak, got)
			}
		}
	})
}

// echoForms are the forms of s FuzzSecretEcho looks for.
func echoForms(s string) []string {
	j, _ := json.Marshal(s)
	return []string{s, hex.EncodeToString([]byte(s)), strings.ToUpper(hex.EncodeToString([]byte(s))),
		strings.Trim(string(j), `"`), strings.Trim(strconv.Quote(s), `"`)}
}
