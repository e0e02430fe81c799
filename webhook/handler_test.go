package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// post sends a capture to url with its header lines (Go's client adds Host,
// User-Agent, Content-Length and Accept-Encoding itself, as Forgejo's did).
func post(t *testing.T, client *http.Client, url string, c capture, body []byte) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range c.lines {
		switch l.Name {
		case "Host", "User-Agent", "Content-Length", "Accept-Encoding":
		default:
			req.Header[l.Name] = append(req.Header[l.Name], l.Value)
		}
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// registerAll registers a typed function for every known event type,
// recording what was dispatched.
func registerAll(rt *Router, got *sync.Map) {
	rec := func(e Event) error {
		got.Store(e.DeliveryID(), e)
		return nil
	}
	for _, typ := range EventTypes() {
		switch newEvent(typ).(type) {
		case *PushEvent:
			On(rt, typ, func(_ context.Context, e *PushEvent) error { return rec(e) })
		case *CreateEvent:
			On(rt, typ, func(_ context.Context, e *CreateEvent) error { return rec(e) })
		case *DeleteEvent:
			On(rt, typ, func(_ context.Context, e *DeleteEvent) error { return rec(e) })
		case *ForkEvent:
			On(rt, typ, func(_ context.Context, e *ForkEvent) error { return rec(e) })
		case *IssuesEvent:
			On(rt, typ, func(_ context.Context, e *IssuesEvent) error { return rec(e) })
		case *IssueCommentEvent:
			On(rt, typ, func(_ context.Context, e *IssueCommentEvent) error { return rec(e) })
		case *PullRequestEvent:
			On(rt, typ, func(_ context.Context, e *PullRequestEvent) error { return rec(e) })
		case *PullRequestReviewEvent:
			On(rt, typ, func(_ context.Context, e *PullRequestReviewEvent) error { return rec(e) })
		case *ReleaseEvent:
			On(rt, typ, func(_ context.Context, e *ReleaseEvent) error { return rec(e) })
		case *RepositoryEvent:
			On(rt, typ, func(_ context.Context, e *RepositoryEvent) error { return rec(e) })
		case *WikiEvent:
			On(rt, typ, func(_ context.Context, e *WikiEvent) error { return rec(e) })
		case *PackageEvent:
			On(rt, typ, func(_ context.Context, e *PackageEvent) error { return rec(e) })
		case *ActionRunEvent:
			On(rt, typ, func(_ context.Context, e *ActionRunEvent) error { return rec(e) })
		default:
			panic(fmt.Sprintf("no payload type for %s", typ))
		}
	}
}

// TestHandlerServesEveryCapture posts every capture over HTTP (127.0.0.1)
// to a Handler with a typed function per event type.
func TestHandlerServesEveryCapture(t *testing.T) {
	var got sync.Map
	rt := NewRouter()
	h := must(NewHandler(mustParser(t, WithSecret(testSecret)), rt))
	registerAll(rt, &got)
	srv := httptest.NewServer(h)
	defer srv.Close()
	cs := loadCaptures(t)
	for _, c := range cs {
		status, body := post(t, srv.Client(), srv.URL+"/hook", c, c.body)
		if status != http.StatusOK || body != "ok\n" {
			t.Errorf("%s: %d %q", c.name, status, body)
			continue
		}
		v, ok := got.Load(c.header.Get("X-Forgejo-Delivery"))
		if !ok {
			t.Errorf("%s: not dispatched", c.name)
			continue
		}
		ev := v.(Event)
		if fmt.Sprintf("%T", ev) != fmt.Sprintf("%T", newEvent(EventType(c.header.Get("X-Forgejo-Event-Type")))) || !bytes.Equal(ev.RawBody(), c.body) {
			t.Errorf("%s: dispatched %T", c.name, ev)
		}
	}
}

func TestHandlerTwoFunctions(t *testing.T) {
	var pushes, issues atomic.Int32
	rt := NewRouter()
	h := must(NewHandler(mustParser(t, WithSecret(testSecret)), rt))
	On(rt, EventPush, func(_ context.Context, e *PushEvent) error {
		pushes.Add(1)
		return nil
	})
	On(rt, EventIssues, func(_ context.Context, e *IssuesEvent) error {
		issues.Add(1)
		return nil
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	for file, want := range map[string]string{
		"003-push-none.json":                             "ok\n",
		"055-issues-opened.json":                         "ok\n",
		"081-issue_label-label_updated.json":             "ignored: no function for event type issue_label\n",
		"136-package-created.json":                       "ignored: no function for event type package\n",
		"124-release-published.json":                     "ignored: no function for event type release\n",
		"006-push-none.form":                             "ok\n",
		"087-issue_comment-created.json":                 "ignored: no function for event type issue_comment\n",
		"111-pull_request_review_approved-reviewed.json": "ignored: no function for event type pull_request_review_approved\n",
	} {
		c := loadCapture(t, "testdata/"+file)
		status, body := post(t, srv.Client(), srv.URL, c, c.body)
		if status != 200 || body != want {
			t.Errorf("%s: %d %q, want 200 %q", file, status, body, want)
		}
	}
	if pushes.Load() != 2 || issues.Load() != 1 {
		t.Errorf("pushes %d issues %d", pushes.Load(), issues.Load())
	}

	// HandleDefault takes the rest, unknown types included.
	var other atomic.Int32
	rt.HandleDefault(func(_ context.Context, e Event) error {
		other.Add(1)
		return nil
	})
	c := loadCapture(t, "testdata/136-package-created.json")
	if status, _ := post(t, srv.Client(), srv.URL, c, c.body); status != 200 || other.Load() != 1 {
		t.Errorf("default: %d, %d calls", status, other.Load())
	}
}

func TestHandlerRejects(t *testing.T) {
	var calls atomic.Int32
	var reported []error
	var mu sync.Mutex
	p := mustParser(t, WithSecret(testSecret), WithMaxBodyBytes(4000))
	rt := NewRouter()
	h := must(NewHandler(p, rt, WithErrorFunc(func(_ *http.Request, err error) {
		mu.Lock()
		reported = append(reported, err)
		mu.Unlock()
	})))
	rt.HandleDefault(func(context.Context, Event) error {
		calls.Add(1)
		return nil
	})
	srv := httptest.NewServer(h)
	defer srv.Close()

	small := loadCapture(t, "testdata/136-package-created.json") // 2629 bytes
	large := loadCapture(t, "testdata/003-push-none.json")       // 6518 bytes

	wrongSecret := small
	wrongSecret.lines = append([]HeaderField(nil), small.lines...)
	for i, l := range wrongSecret.lines {
		if l.Name == "X-Forgejo-Signature" {
			wrongSecret.lines[i].Value = Sign("wrong", small.body)
		}
	}
	noSig := small
	noSig.lines = nil
	for _, l := range small.lines {
		if !strings.Contains(l.Name, "Signature") {
			noSig.lines = append(noSig.lines, l)
		}
	}
	textPlain := small
	textPlain.lines = nil
	for _, l := range small.lines {
		if l.Name == "Content-Type" {
			l.Value = "text/plain"
		}
		textPlain.lines = append(textPlain.lines, l)
	}
	flipped := bytes.Clone(small.body)
	flipped[100] ^= 1

	for _, tc := range []struct {
		name   string
		c      capture
		body   []byte
		status int
		kind   error
	}{
		{"wrong secret", wrongSecret, small.body, 401, ErrBadSignature},
		{"flipped byte", small, flipped, 401, ErrBadSignature},
		{"truncated", small, small.body[:len(small.body)-10], 401, ErrBadSignature},
		{"missing signature", noSig, small.body, 401, ErrMissingSignature},
		{"over the bound", large, large.body, 413, ErrTooLarge},
		{"content type", textPlain, small.body, 415, ErrContentType},
	} {
		status, body := post(t, srv.Client(), srv.URL, tc.c, tc.body)
		if status != tc.status || body != tc.kind.Error()+"\n" {
			t.Errorf("%s: %d %q, want %d %q", tc.name, status, body, tc.status, tc.kind.Error())
		}
	}
	// A GET without a payload parameter is not a delivery: 400. Another
	// method is refused with Allow: GET, POST.
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 || resp.Header.Get("Allow") != "" {
		t.Errorf("GET: %d Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
	put, _ := http.NewRequest(http.MethodPut, srv.URL, nil)
	resp, err = srv.Client().Do(put)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, POST" {
		t.Errorf("PUT: %d Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
	// A body over the bound without Content-Length (chunked) is cut at the
	// bound and refused too.
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/", io.MultiReader(bytes.NewReader(large.body)))
	req.ContentLength = -1
	req.Header = large.header.Clone()
	h.ServeHTTP(rec, req)
	if rec.Code != 413 {
		t.Errorf("chunked over the bound: %d", rec.Code)
	}
	// Malformed: signed, but not JSON.
	out := Build(EventPush, []byte("nope"), BuildOptions{Secret: testSecret})
	rec = httptest.NewRecorder()
	req = httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(out.Body))
	req.Header = out.HTTPHeader()
	h.ServeHTTP(rec, req)
	if rec.Code != 400 {
		t.Errorf("malformed: %d", rec.Code)
	}

	if calls.Load() != 0 {
		t.Errorf("%d dispatches of rejected deliveries", calls.Load())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reported) != 10 {
		t.Errorf("%d errors reported, want 10", len(reported))
	}
	for _, err := range reported {
		var we *Error
		if !errors.As(err, &we) {
			t.Errorf("reported %v: not an *Error", err)
		}
		if strings.Contains(err.Error(), testSecret) {
			t.Errorf("reported error contains the secret")
		}
	}
}

func serve(h http.Handler, c capture) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(c.body))
	req.Header = c.header.Clone()
	h.ServeHTTP(rec, req)
	return rec
}

func TestHandlerFunctionErrorsAndGuard(t *testing.T) {
	c := loadCapture(t, "testdata/093-pull_request-opened.json")
	var reported []error
	guard := NewMemoryGuard(0)
	rt := NewRouter()
	h := must(NewHandler(mustParser(t, WithSecret(testSecret)), rt, WithGuard(guard), WithErrorFunc(func(_ *http.Request, err error) {
		reported = append(reported, err)
	})))
	var calls int
	failWith := errors.New("database down")
	var mode string
	On(rt, EventPullRequest, func(ctx context.Context, e *PullRequestEvent) error {
		calls++
		switch mode {
		case "fail":
			return failWith
		case "panic":
			panic("bug")
		}
		return nil
	})

	mode = "fail"
	if rec := serve(h, c); rec.Code != 500 || rec.Body.String() != "event function failed\n" {
		t.Errorf("failing function: %d %q", rec.Code, rec.Body.String())
	}
	if len(reported) != 1 || !errors.Is(reported[0], failWith) || !strings.Contains(reported[0].Error(), c.header.Get("X-Forgejo-Delivery")) {
		t.Errorf("reported %v", reported)
	}
	if guard.Len() != 0 {
		t.Errorf("failed delivery still claimed")
	}

	mode = "panic"
	if rec := serve(h, c); rec.Code != 500 {
		t.Errorf("panicking function: %d", rec.Code)
	}
	if guard.Len() != 0 || len(reported) != 2 || !strings.Contains(reported[1].Error(), "panic: bug") {
		t.Errorf("after panic: guard %d, reported %v", guard.Len(), reported)
	}

	mode = ""
	if rec := serve(h, c); rec.Code != 200 || rec.Body.String() != "ok\n" {
		t.Errorf("succeeding function: %d", rec.Code)
	}
	// The same delivery again: answered 200, not dispatched.
	if rec := serve(h, c); rec.Code != 200 || rec.Body.String() != "duplicate delivery, ignored\n" {
		t.Errorf("duplicate: %d %q", rec.Code, rec.Body.String())
	}
	if calls != 3 {
		t.Errorf("%d calls, want 3", calls)
	}
	// A different delivery of the same event (Forgejo's replay gets a new
	// ID) is processed.
	// (in every delivery header: one that disagrees with its mirrors is
	// refused, see TestDeliveryGuardKey).
	c2 := c
	c2.header = withID(c.header, "another-id")
	if rec := serve(h, c2); rec.Code != 200 || calls != 4 {
		t.Errorf("new delivery ID: %d, %d calls", rec.Code, calls)
	}
}

type failingGuard struct{}

func (failingGuard) Claim(context.Context, string) (bool, error) {
	return false, errors.New("store down")
}
func (failingGuard) Release(context.Context, string) error { return nil }

func TestHandlerGuardFailure(t *testing.T) {
	c := loadCapture(t, "testdata/003-push-none.json")
	rt := NewRouter()
	h := must(NewHandler(mustParser(t, WithSecret(testSecret)), rt, WithGuard(failingGuard{})))
	called := false
	On(rt, EventPush, func(context.Context, *PushEvent) error { called = true; return nil })
	if rec := serve(h, c); rec.Code != 500 || called {
		t.Errorf("guard failure: %d, called %v", rec.Code, called)
	}
}

func TestOnTypeMismatchPanics(t *testing.T) {
	rt := NewRouter()
	defer func() {
		if v := recover(); v == nil || !strings.Contains(fmt.Sprint(v), "*webhook.IssuesEvent") {
			t.Errorf("recovered %v", v)
		}
	}()
	On(rt, EventIssueLabel, func(context.Context, *PullRequestEvent) error { return nil })
}

func TestOnAcceptsEventInterface(t *testing.T) {
	rt := NewRouter()
	h := must(NewHandler(mustParser(t, WithSecret(testSecret)), rt))
	var got EventType
	On(rt, "anything_new", func(_ context.Context, e Event) error { got = e.EventType(); return nil })
	On(rt, EventFork, func(_ context.Context, e Event) error { got = e.EventType(); return nil })
	out := Build("anything_new", []byte(`{}`), BuildOptions{Secret: testSecret})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(out.Body))
	req.Header = out.HTTPHeader()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 || got != "anything_new" {
		t.Errorf("%d %q", rec.Code, got)
	}
}

// must returns v, and panics on err: for constructors in tests.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
