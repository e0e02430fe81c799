package webhook

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// rejectCases are a JSON and a form delivery of each hook type.
var rejectCases = []string{
	"003-push-none.json",          // repo / forgejo / json
	"004-push-none.json",          // repo / gitea / json
	"005-push-none.json",          // repo / gogs / json
	"006-push-none.form",          // repo / forgejo / form
	"011-push-none.json",          // user hook
	"012-push-none.json",          // system hook
	"144-repository-created.json", // org hook
	"136-package-created.json",    // empty X-Forgejo-Event
	"058-issues-opened.form",      // form, another event
	"111-pull_request_review_approved-reviewed.json",
}

func wantKind(t *testing.T, err error, kind error, status int) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %v", kind)
	}
	if !errors.Is(err, kind) {
		t.Fatalf("error %v is not %v", err, kind)
	}
	var we *Error
	if !errors.As(err, &we) || we.Kind != kind {
		t.Fatalf("error %v: not an *Error of kind %v", err, kind)
	}
	if we.StatusCode() != status {
		t.Errorf("status %d, want %d", we.StatusCode(), status)
	}
	msg := err.Error()
	if strings.Contains(msg, testSecret) || strings.Contains(msg, "wrong-secret") {
		t.Errorf("error string contains a secret: %s", msg)
	}
}

func cloneHeader(h http.Header) http.Header { return h.Clone() }

func TestRejections(t *testing.T) {
	for _, file := range rejectCases {
		c := loadCapture(t, "testdata/"+file)
		t.Run(c.name, func(t *testing.T) {
			good := mustParser(t, WithSecret(testSecret))
			sig := c.header.Get("X-Forgejo-Signature")

			t.Run("wrong secret", func(t *testing.T) {
				_, err := mustParser(t, WithSecret("wrong-secret")).Parse(c.body, c.header)
				wantKind(t, err, ErrBadSignature, 401)
				if strings.Contains(err.Error(), sig) {
					t.Errorf("error string contains the signature")
				}
				var we *Error
				errors.As(err, &we)
				if we.DeliveryID != c.header.Get("X-Forgejo-Delivery") || we.EventType != EventType(c.header.Get("X-Forgejo-Event-Type")) {
					t.Errorf("error names delivery %q type %q", we.DeliveryID, we.EventType)
				}
			})
			t.Run("flipped byte", func(t *testing.T) {
				for _, at := range []int{0, len(c.body) / 2, len(c.body) - 1} {
					b := bytes.Clone(c.body)
					b[at] ^= 0x01
					_, err := good.Parse(b, c.header)
					if err == nil {
						t.Fatalf("byte %d flipped: accepted", at)
					}
					// A flip may break the form encoding before the signature
					// is checked; either way it is rejected, never dispatched.
					if !errors.Is(err, ErrBadSignature) && !errors.Is(err, ErrMalformed) {
						t.Fatalf("byte %d flipped: %v", at, err)
					}
				}
				b := bytes.Clone(c.body)
				b[len(b)/2] ^= 0x01
				wantKind(t, func() error { _, err := good.Parse(b, c.header); return err }(), ErrBadSignature, 401)
			})
			t.Run("truncated body", func(t *testing.T) {
				for _, n := range []int{0, 1, len(c.body) / 2, len(c.body) - 1} {
					_, err := good.Parse(c.body[:n], c.header)
					if !errors.Is(err, ErrBadSignature) && !errors.Is(err, ErrMalformed) {
						t.Fatalf("truncated to %d: %v", n, err)
					}
				}
				// A JSON body cut anywhere, or a form body cut between two
				// escapes, no longer matches its signature. (A form body cut
				// inside an escape is ErrMalformed, checked above.)
				cut := len(c.body) - 1
				if c.form {
					cut = len(c.body) - 3
				}
				_, err := good.Parse(c.body[:cut], c.header)
				wantKind(t, err, ErrBadSignature, 401)
			})
			t.Run("missing signature", func(t *testing.T) {
				h := cloneHeader(c.header)
				for _, sh := range signatureHeaders {
					h.Del(sh.name)
				}
				_, err := good.Parse(c.body, h)
				wantKind(t, err, ErrMissingSignature, 401)
				// As a hook without secret sends them: present, empty.
				for _, sh := range signatureHeaders {
					h.Set(sh.name, sh.prefix)
				}
				_, err = good.Parse(c.body, h)
				wantKind(t, err, ErrMissingSignature, 401)
			})
			t.Run("over the bound", func(t *testing.T) {
				small := mustParser(t, WithSecret(testSecret), WithMaxBodyBytes(int64(len(c.body)-1)))
				_, err := small.Parse(c.body, c.header)
				wantKind(t, err, ErrTooLarge, 413)
				exact := mustParser(t, WithSecret(testSecret), WithMaxBodyBytes(int64(len(c.body))))
				if _, err := exact.Parse(c.body, c.header); err != nil {
					t.Errorf("body of exactly the bound: %v", err)
				}
			})
			t.Run("wrong content type", func(t *testing.T) {
				for _, ct := range []string{"text/plain", "", "multipart/form-data; boundary=x", "application/json; charset=\"", "application/xml"} {
					h := cloneHeader(c.header)
					h.Set("Content-Type", ct)
					_, err := good.Parse(c.body, h)
					wantKind(t, err, ErrContentType, 415)
				}
				// The other valid type is not the right one either: a JSON body
				// announced as a form has no payload field.
				h := cloneHeader(c.header)
				if c.form {
					h.Set("Content-Type", "application/json")
				} else {
					h.Set("Content-Type", "application/x-www-form-urlencoded")
				}
				if _, err := good.Parse(c.body, h); err == nil {
					t.Errorf("accepted with the other content type")
				}
			})
		})
	}
}

func TestVerifyFallbacksAndRotation(t *testing.T) {
	c := loadCapture(t, "testdata/003-push-none.json")
	only := func(name, value string) http.Header {
		h := cloneHeader(c.header)
		for _, sh := range signatureHeaders {
			h.Del(sh.name)
		}
		if name != "" {
			h.Set(name, value)
		}
		return h
	}
	sig := Sign(testSecret, c.payload)
	if sig != c.header.Get("X-Forgejo-Signature") {
		t.Fatalf("Sign = %s, capture says %s", sig, c.header.Get("X-Forgejo-Signature"))
	}
	for _, h := range []http.Header{
		only("X-Forgejo-Signature", sig),
		only("X-Gitea-Signature", sig),
		only("X-Gogs-Signature", sig),
		only("X-Hub-Signature-256", "sha256="+sig),
		only("X-Forgejo-Signature", strings.ToUpper(sig)),
	} {
		if err := Verify(c.payload, h, testSecret); err != nil {
			t.Errorf("%v: %v", h, err)
		}
	}
	wantKind(t, Verify(c.payload, only("X-Hub-Signature-256", sig), testSecret), ErrBadSignature, 401)
	wantKind(t, Verify(c.payload, only("X-Forgejo-Signature", "zz"+sig[2:]), testSecret), ErrBadSignature, 401)
	wantKind(t, Verify(c.payload, only("X-Forgejo-Signature", sig[:10]), testSecret), ErrBadSignature, 401)
	// The SHA-1 header alone is not accepted.
	wantKind(t, Verify(c.payload, only("X-Hub-Signature", c.header.Get("X-Hub-Signature")), testSecret), ErrMissingSignature, 401)
	// The first present header decides: a wrong X-Forgejo-Signature is not
	// rescued by a right X-Gitea-Signature.
	h := only("X-Forgejo-Signature", Sign("other", c.payload))
	h.Set("X-Gitea-Signature", sig)
	wantKind(t, Verify(c.payload, h, testSecret), ErrBadSignature, 401)
	wantKind(t, Verify(c.payload, c.header), ErrBadSignature, 401)

	// Rotation: any configured secret may match.
	p := mustParser(t, WithSecret("new-secret", testSecret))
	if _, err := p.Parse(c.body, c.header); err != nil {
		t.Errorf("rotation: %v", err)
	}
	p = mustParser(t, WithSecret("new-secret"), WithSecret("newer-secret"))
	_, err := p.Parse(c.body, c.header)
	wantKind(t, err, ErrBadSignature, 401)
}

func TestParserConfig(t *testing.T) {
	if _, err := NewParser(); err == nil {
		t.Error("NewParser without secret accepted")
	}
	if _, err := NewParser(WithSecret("")); err == nil {
		t.Error("empty secret accepted")
	}
	if _, err := NewParser(WithSecret("s"), WithMaxBodyBytes(0)); err == nil {
		t.Error("zero bound accepted")
	}
	p := mustParser(t, WithSecret("s"))
	if p.MaxBodyBytes() != DefaultMaxBodyBytes {
		t.Errorf("default bound %d", p.MaxBodyBytes())
	}
}

func TestAllowUnsigned(t *testing.T) {
	c := loadCapture(t, "testdata/055-issues-opened.json")
	unsigned := cloneHeader(c.header)
	for _, sh := range signatureHeaders {
		unsigned.Set(sh.name, sh.prefix) // what a hook without secret sends
	}
	unsigned.Set("X-Hub-Signature", "sha1=")

	p := mustParser(t, AllowUnsigned())
	ev, err := p.Parse(c.body, unsigned)
	if err != nil {
		t.Fatal(err)
	}
	if ev.delivery().Signed() {
		t.Error("unsigned delivery reported signed")
	}
	// Without secrets a signature cannot be checked: accepted, not signed.
	ev, err = p.Parse(c.body, c.header)
	if err != nil {
		t.Fatal(err)
	}
	if ev.delivery().Signed() {
		t.Error("unchecked signature reported signed")
	}

	// With a secret as well: unsigned accepted, signed ones still checked.
	p = mustParser(t, WithSecret(testSecret), AllowUnsigned())
	if ev, err := p.Parse(c.body, unsigned); err != nil || ev.delivery().Signed() {
		t.Errorf("unsigned with AllowUnsigned and a secret: %v", err)
	}
	if ev, err := p.Parse(c.body, c.header); err != nil || !ev.delivery().Signed() {
		t.Errorf("signed with AllowUnsigned and a secret: %v", err)
	}
	bad := cloneHeader(c.header)
	bad.Set("X-Forgejo-Signature", Sign("other", c.body))
	_, err = p.Parse(c.body, bad)
	wantKind(t, err, ErrBadSignature, 401)

	// And without AllowUnsigned, the unsigned delivery is refused.
	_, err = mustParser(t, WithSecret(testSecret)).Parse(c.body, unsigned)
	wantKind(t, err, ErrMissingSignature, 401)
}

func signed(t *testing.T, typ EventType, payload string, form bool) ([]byte, http.Header) {
	t.Helper()
	out := Build(typ, []byte(payload), BuildOptions{Secret: testSecret, Form: form, DeliveryID: "d-1"})
	return out.Body, out.HTTPHeader()
}

func TestMalformed(t *testing.T) {
	p := mustParser(t, WithSecret(testSecret))
	for name, tc := range map[string]struct {
		typ     EventType
		payload string
	}{
		"not JSON":          {EventPush, "not json"},
		"truncated JSON":    {EventPush, `{"ref": "refs/heads/main"`},
		"array":             {EventPush, `[1,2]`},
		"null":              {EventPush, `null`},
		"empty":             {EventPush, ``},
		"wrong field type":  {EventPush, `{"ref": 42}`},
		"wrong nested type": {EventIssues, `{"issue": {"number": "one"}}`},
		"trailing data":     {EventRelease, `{"action": "published"} {}`},
		"unknown, not JSON": {"hackathon_created", `{"a":`},
	} {
		t.Run(name, func(t *testing.T) {
			body, h := signed(t, tc.typ, tc.payload, false)
			_, err := p.Parse(body, h)
			wantKind(t, err, ErrMalformed, 400)
		})
	}

	t.Run("form without payload", func(t *testing.T) {
		body := []byte("other=1")
		h := Build(EventPush, body, BuildOptions{Secret: testSecret}).HTTPHeader()
		h.Set("Content-Type", "application/x-www-form-urlencoded")
		_, err := p.Parse(body, h)
		wantKind(t, err, ErrMalformed, 400)
	})
	t.Run("form that does not parse", func(t *testing.T) {
		body := []byte("payload=%zz")
		h := Build(EventPush, body, BuildOptions{Secret: testSecret}).HTTPHeader()
		h.Set("Content-Type", "application/x-www-form-urlencoded")
		_, err := p.Parse(body, h)
		wantKind(t, err, ErrMalformed, 400)
	})
	t.Run("no event type header", func(t *testing.T) {
		body, h := signed(t, EventPush, `{"ref": "x"}`, false)
		for k := range h {
			if strings.HasSuffix(strings.ToLower(k), "-event-type") {
				delete(h, k)
			}
		}
		_, err := p.Parse(body, h)
		wantKind(t, err, ErrMalformed, 400)
	})
}

func TestUnknownEventType(t *testing.T) {
	p := mustParser(t, WithSecret(testSecret))
	body, h := signed(t, "hackathon_created", `{"action": "created", "hackathon": {"id": 7}, "repository": {"id": 3, "full_name": "o/r"}, "sender": "not a user"}`, false)
	ev, err := p.Parse(body, h)
	if err != nil {
		t.Fatal(err)
	}
	u, ok := ev.(*UnknownEvent)
	if !ok {
		t.Fatalf("%T, want *UnknownEvent", ev)
	}
	if u.EventType() != "hackathon_created" || u.Action != "created" || u.Repository == nil || u.Repository.FullName != "o/r" || u.Sender != nil {
		t.Errorf("unknown event: %+v", u)
	}
	var v struct {
		Hackathon struct{ ID int } `json:"hackathon"`
	}
	if err := u.Decode(&v); err != nil || v.Hackathon.ID != 7 {
		t.Errorf("Decode: %v %+v", err, v)
	}
	if EventType("hackathon_created").Known() || EventType("hackathon_created").Family() != "" {
		t.Error("unknown type reported known")
	}
	// A form delivery of an unknown type too.
	body, h = signed(t, "schedule", `{"action": "schedule"}`, true)
	if ev, err := p.Parse(body, h); err != nil || ev.(*UnknownEvent).Action != "schedule" {
		t.Errorf("form unknown: %v", err)
	}
}

// actionRunPayload follows Forgejo's ActionPayload (action, run,
// prior_status, last_run) with runs in the API's ActionRun shape; no real
// delivery of these events was captured.
const actionRunPayload = `{
  "action": "failed",
  "run": {
    "id": 42,
    "title": "CI",
    "status": "failure",
    "event": "push",
    "trigger_event": "push",
    "commit_sha": "ac430d2e6c1107ffadde50d85a29419c0accd44b",
    "prettyref": "main",
    "index_in_repo": 7,
    "workflow_id": "ci.yml",
    "html_url": "http://127.0.0.1:28517/forgego-admin/hooks-demo/actions/runs/7",
    "is_fork_pull_request": false,
    "need_approval": false,
    "approved_by": 0,
    "duration": 12000000000,
    "created": "2026-12-01T09:30:00Z",
    "started": "2026-12-01T09:30:01Z",
    "stopped": "2026-12-01T09:30:13Z",
    "updated": "2026-12-01T09:30:13Z",
    "repository": {"id": 1, "full_name": "forgego-admin/hooks-demo", "name": "hooks-demo"},
    "trigger_user": {"id": 1, "login": "forgego-admin"}
  },
  "prior_status": "running",
  "last_run": {"id": 41, "status": "success", "index_in_repo": 6}
}`

func TestActionRunEvents(t *testing.T) {
	p := mustParser(t, WithSecret(testSecret))
	for _, typ := range []EventType{
		EventActionRunFailure, EventActionRunRecover, EventActionRunSuccess,
		"action_run_hook_event_failure", "action_run_success_after_failure", "action_run_hook_event_success",
	} {
		body, h := signed(t, typ, actionRunPayload, false)
		ev, err := p.Parse(body, h)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		e, ok := ev.(*ActionRunEvent)
		if !ok {
			t.Fatalf("%s: %T", typ, ev)
		}
		if !strings.HasPrefix(string(e.EventType()), "action_run_") || !e.EventType().Known() {
			t.Errorf("%s: event type %q", typ, e.EventType())
		}
		if e.Action != "failed" || e.PriorStatus != "running" || e.Run == nil || e.Run.ID != 42 || e.Run.Status != "failure" ||
			e.Run.WorkflowID != "ci.yml" || e.Run.Repository.FullName != "forgego-admin/hooks-demo" || e.Run.TriggerUser.Login != "forgego-admin" ||
			e.Run.Duration.Seconds() != 12 || e.Run.Started.IsZero() || e.LastRun == nil || e.LastRun.ID != 41 {
			t.Errorf("%s: %+v run %+v", typ, e, e.Run)
		}
	}
	if EventType("action_run_hook_event_failure").Known() {
		t.Error("legacy spelling should be mapped on parse, not be a type of its own")
	}
}

func TestDecodeWithoutVerification(t *testing.T) {
	c := loadCapture(t, "testdata/124-release-published.json")
	ev, err := Decode(EventRelease, c.payload)
	if err != nil {
		t.Fatal(err)
	}
	if r := ev.(*ReleaseEvent); r.Release.TagName == "" || r.Signed() || r.DeliveryID() != "" {
		t.Errorf("Decode: %+v", r)
	}
	_, err = Decode(EventRelease, []byte("{"))
	wantKind(t, err, ErrMalformed, 400)
}

func TestHeaderNamesCaseInsensitive(t *testing.T) {
	c := loadCapture(t, "testdata/006-push-none.form")
	lower := http.Header{}
	for _, l := range c.lines {
		lower[strings.ToLower(l.Name)] = []string{l.Value}
	}
	ev, err := mustParser(t, WithSecret(testSecret)).Parse(c.body, lower)
	if err != nil {
		t.Fatal(err)
	}
	if ev.DeliveryID() == "" || ev.EventType() != EventPush {
		t.Errorf("lower-case headers: %q %q", ev.DeliveryID(), ev.EventType())
	}
}

func TestErrorString(t *testing.T) {
	e := &Error{Kind: ErrBadSignature, DeliveryID: "abc", EventType: EventPush, Detail: "X-Forgejo-Signature matches no configured secret"}
	want := "webhook: signature mismatch: X-Forgejo-Signature matches no configured secret (event push, delivery abc)"
	if e.Error() != want {
		t.Errorf("got  %s\nwant %s", e.Error(), want)
	}
	// Headers are not signed: what they bring into an error string is
	// cleaned and capped.
	e = &Error{Kind: ErrMalformed, DeliveryID: "x\nFAKE LOG LINE", EventType: EventType(strings.Repeat("a", 200))}
	if s := e.Error(); strings.Contains(s, "\n") || len(s) > 200 {
		t.Errorf("unclean: %q", s)
	}
	cause := errors.New("boom")
	e = &Error{Kind: ErrMalformed, Err: cause}
	if !errors.Is(e, cause) || !errors.Is(e, ErrMalformed) || e.Error() != "webhook: malformed delivery: boom" {
		t.Errorf("%v", e)
	}
}
