package forgejo

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Tests of Hooks as a set (hooks.go): several WithHooks chain, each hook
// shielded from the others' panics, and a panic is reported once per hook.

type hcKey string

// TestHooksChain: every WithHooks runs, in order (EndCall in reverse), the
// ctx of one StartCall reaches the next, both InjectHeaders' headers are
// sent, and a panic in one stops none of the others.
func TestHooksChain(t *testing.T) {
	srv := tsNewServer(t, tsStep{status: 200, body: `{"version":"1"}`})
	var got []string
	var seen http.Header
	rec := func(s string) { got = append(got, s) }
	hooks := func(name string) Hooks {
		return Hooks{
			Request: func(context.Context, CallContext) { rec(name + ".Request"); panic(name) },
			StartCall: func(ctx context.Context, _ CallContext) context.Context {
				rec(name + ".StartCall:" + fmtAny(ctx.Value(hcKey("a"))))
				return context.WithValue(ctx, hcKey(name), name)
			},
			EndCall: func(ctx context.Context, _ CallContext, status int, err error) {
				rec(name + ".EndCall:" + fmtAny(ctx.Value(hcKey("a"))) + fmtAny(ctx.Value(hcKey("b"))))
			},
			InjectHeaders: func(_ context.Context, _ CallContext, h http.Header) { h.Set("X-"+name, "1") },
			HookPanic:     func(hook string, value any) { rec(name + ".HookPanic:" + hook + ":" + fmtAny(value)) },
		}
	}
	c, _ := tsClient(t, srv.URL, WithHooks(hooks("a")), WithHooks(hooks("b")),
		WithHTTPClient(&http.Client{Transport: hcTransport(func(r *http.Request) { seen = r.Header.Clone() })}))
	if _, _, err := c.Misc.GetVersion(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"a.StartCall:<nil>", "b.StartCall:a",
		"a.Request", "a.HookPanic:Request:a", "b.HookPanic:Request:a", "b.Request",
		"b.EndCall:ab", "a.EndCall:ab",
	}
	if !slices.Equal(got, want) {
		t.Errorf("events\n got %q\nwant %q", got, want)
	}
	if seen.Get("X-A") != "1" || seen.Get("X-B") != "1" {
		t.Errorf("headers sent: %v", seen)
	}
}

func fmtAny(v any) string {
	if v == nil {
		return "<nil>"
	}
	return v.(string)
}

type hcTransport func(*http.Request)

func (f hcTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	f(r)
	return http.DefaultTransport.RoundTrip(r)
}

// TestHookPanicReported: a hook's panic is reported once per hook and
// client, to slog.Default() without HookPanic, redacted, and the call
// succeeds.
func TestHookPanicReported(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef01234567"
	srv := tsNewServer(t, tsStep{status: 200, body: `{"version":"1"}`})
	var buf bytes.Buffer
	var mu sync.Mutex
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&hcLocked{&mu, &buf}, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	boom := func() { panic("leaked " + token) }
	c, _ := tsClient(t, srv.URL, WithToken(token), WithHooks(Hooks{
		Request:  func(context.Context, CallContext) { boom() },
		Response: func(context.Context, CallContext, int) { boom() },
	}))
	for range 3 {
		if _, _, err := c.Misc.GetVersion(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	out := buf.String()
	mu.Unlock()
	if strings.Contains(out, token) {
		t.Errorf("the report carries the token: %s", out)
	}
	if n := strings.Count(out, "hook=Request"); n != 1 {
		t.Errorf("Request reported %d times, want 1:\n%s", n, out)
	}
	if n := strings.Count(out, "hook=Response"); n != 1 {
		t.Errorf("Response reported %d times, want 1:\n%s", n, out)
	}
	if !strings.Contains(out, "level=ERROR") || !strings.Contains(out, "leaked") {
		t.Errorf("report: %s", out)
	}
}

type hcLocked struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l *hcLocked) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
