package forgejootel_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
	forgejootel "codeberg.org/forgego/forgejo/otel"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// setGlobalPropagator sets the global propagator for one test and restores
// the one before it afterwards.
func setGlobalPropagator(t *testing.T, p propagation.TextMapPropagator) {
	t.Helper()
	old := otel.GetTextMapPropagator()
	otel.SetTextMapPropagator(p)
	t.Cleanup(func() { otel.SetTextMapPropagator(old) })
}

// propHarness is a server that answers 503 to the first fails requests and
// records every request's traceparent, and a client whose hooks record
// spans in memory.
type propHarness struct {
	mu      sync.Mutex
	parents []string
	spans   *tracetest.SpanRecorder
	tp      *sdktrace.TracerProvider
	client  *forgejo.Client
}

func newPropHarness(t *testing.T, fails int, opts ...forgejootel.Option) *propHarness {
	t.Helper()
	h := &propHarness{spans: tracetest.NewSpanRecorder()}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.parents = append(h.parents, r.Header.Get("Traceparent"))
		n := len(h.parents)
		h.mu.Unlock()
		if n <= fails {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":1}`))
	}))
	t.Cleanup(srv.Close)
	h.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(h.spans))
	hooks, err := forgejootel.NewHooks(append([]forgejootel.Option{forgejootel.WithTracerProvider(h.tp)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	h.client, err = forgejo.NewClient(forgejo.WithBaseURL(srv.URL), forgejo.WithToken("test-token-0123"),
		forgejo.WithHooks(hooks), forgejo.WithClock(&fakeClock{t: time.Unix(1_700_000_000, 0)}),
		forgejo.WithRetryPolicy(forgejo.RetryPolicy{MaxAttempts: 4, BaseDelay: time.Second, MaxDelay: time.Second, Jitter: forgejo.JitterNone}))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *propHarness) sent() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.parents...)
}

// TestTraceparentOnEveryAttempt: with only the global propagator set (no
// option, no transport wrapping), every attempt of a retried call carries
// a traceparent naming the call's span: its trace ID, the call span as the
// parent, sampled.
func TestTraceparentOnEveryAttempt(t *testing.T) {
	setGlobalPropagator(t, propagation.TraceContext{})
	h := newPropHarness(t, 2)
	_, resp, err := h.client.Repos.Get(context.Background(), "o", "r")
	if err != nil || resp.Attempts != 3 {
		t.Fatalf("attempts %d, err %v", resp.Attempts, err)
	}
	ended := h.spans.Ended()
	if len(ended) != 1 {
		t.Fatalf("%d spans", len(ended))
	}
	sc := ended[0].SpanContext()
	want := "00-" + sc.TraceID().String() + "-" + sc.SpanID().String() + "-01"
	sent := h.sent()
	if len(sent) != 3 {
		t.Fatalf("%d requests", len(sent))
	}
	for i, got := range sent {
		if got != want {
			t.Errorf("attempt %d: traceparent %q, want %q", i+1, got, want)
		}
	}
}

// TestTraceparentJoinsTheCallersTrace: under a caller's span, the call's
// span and what the instance receives belong to the caller's trace.
func TestTraceparentJoinsTheCallersTrace(t *testing.T) {
	setGlobalPropagator(t, propagation.TraceContext{})
	h := newPropHarness(t, 1)
	ctx, parent := h.tp.Tracer("test").Start(context.Background(), "caller")
	if _, _, err := h.client.Repos.Get(ctx, "o", "r"); err != nil {
		t.Fatal(err)
	}
	parent.End()
	tid := parent.SpanContext().TraceID().String()
	for i, got := range h.sent() {
		if !strings.HasPrefix(got, "00-"+tid+"-") || strings.Contains(got, parent.SpanContext().SpanID().String()) {
			t.Errorf("attempt %d: traceparent %q, want trace %s under the call's span", i+1, got, tid)
		}
	}
}

// TestPropagatorOption: WithPropagator replaces the global propagator;
// with neither (the global no-op), nothing is sent.
func TestPropagatorOption(t *testing.T) {
	setGlobalPropagator(t, propagation.NewCompositeTextMapPropagator())
	h := newPropHarness(t, 0)
	if _, _, err := h.client.Repos.Get(context.Background(), "o", "r"); err != nil {
		t.Fatal(err)
	}
	if got := h.sent(); len(got) != 1 || got[0] != "" {
		t.Errorf("a no-op global propagator sent %q", got)
	}
	h = newPropHarness(t, 0, forgejootel.WithPropagator(propagation.TraceContext{}))
	if _, _, err := h.client.Repos.Get(context.Background(), "o", "r"); err != nil {
		t.Fatal(err)
	}
	if got := h.sent(); len(got) != 1 || !strings.HasPrefix(got[0], "00-") {
		t.Errorf("WithPropagator sent %q", got)
	}
}

// TestURLFull: url.full is opt-in, and carries the redacted URL: the
// values of sensitive query parameters masked.
func TestURLFull(t *testing.T) {
	for _, on := range []bool{false, true} {
		var opts []forgejootel.Option
		if on {
			opts = append(opts, forgejootel.WithURLFull())
		}
		h := newPropHarness(t, 0, opts...)
		_, err := h.client.Do(context.Background(), &forgejo.Request{Method: "GET", Path: "/repos/o/r",
			Query: url.Values{"password": {"hunter2-secret"}, "q": {"x"}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var full string
		for _, kv := range h.spans.Ended()[0].Attributes() {
			if kv.Key == "url.full" {
				full = kv.Value.AsString()
			}
		}
		switch {
		case !on && full != "":
			t.Errorf("url.full %q without WithURLFull", full)
		case on && (!strings.Contains(full, "/api/v1/repos/o/r?") || !strings.Contains(full, "q=x")):
			t.Errorf("url.full %q", full)
		case strings.Contains(full, "hunter2"):
			t.Errorf("url.full %q carries the password", full)
		}
	}
}
