package forgejootel_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
	forgejootel "codeberg.org/forgego/forgejo/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// fakeClock is the client's clock: Sleep advances it at once, and the test
// server advances it by attemptTime for every request it answers, so every
// duration is exact.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.advance(d)
	return nil
}

// Timer moves the time on by d as Sleep does and fires at once.
func (c *fakeClock) Timer(d time.Duration) (<-chan time.Time, func()) {
	_ = c.Sleep(context.Background(), d)
	ch := make(chan time.Time, 1)
	ch <- c.Now()
	return ch, func() {}
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

const attemptTime = 100 * time.Millisecond

// step is one scripted answer; hangUp closes the connection instead.
type step struct {
	status int
	header map[string]string
	body   string
	hangUp bool
}

type harness struct {
	t       *testing.T
	srv     *httptest.Server
	hits    atomic.Int32
	methods []string
	mu      sync.Mutex
	clock   *fakeClock
	spans   *tracetest.SpanRecorder
	tp      *sdktrace.TracerProvider
	reader  *sdkmetric.ManualReader
	client  *forgejo.Client
	port    string
}

// newHarness starts a server answering with steps in order (repeating the
// last), hooks on in-memory providers, and a client on both.
func newHarness(t *testing.T, steps []step, opts ...forgejo.ClientOption) *harness {
	t.Helper()
	h := &harness{t: t, clock: &fakeClock{t: time.Unix(1_700_000_000, 0)}}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(h.hits.Add(1))
		h.mu.Lock()
		h.methods = append(h.methods, r.Method)
		h.mu.Unlock()
		h.clock.advance(attemptTime)
		st := steps[min(n, len(steps))-1]
		if st.hangUp {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				_ = conn.Close()
			}
			return
		}
		for k, v := range st.header {
			w.Header().Set(k, v)
		}
		if st.body != "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(st.status)
		_, _ = w.Write([]byte(st.body))
	}))
	t.Cleanup(h.srv.Close)
	u, _ := url.Parse(h.srv.URL)
	h.port = u.Port()

	h.spans = tracetest.NewSpanRecorder()
	h.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(h.spans))
	h.reader = sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(h.reader))
	hooks, err := forgejootel.NewHooks(forgejootel.WithTracerProvider(h.tp), forgejootel.WithMeterProvider(mp))
	if err != nil {
		t.Fatal(err)
	}
	base := []forgejo.ClientOption{
		forgejo.WithBaseURL(h.srv.URL),
		forgejo.WithToken("test-token-0123"),
		forgejo.WithHooks(hooks),
		forgejo.WithClock(h.clock),
		forgejo.WithRetryPolicy(forgejo.RetryPolicy{MaxAttempts: 3, BaseDelay: 250 * time.Millisecond, MaxDelay: 8 * time.Second, Jitter: forgejo.JitterNone}),
	}
	h.client, err = forgejo.NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// server is the rendering of the server attributes.
func (h *harness) server() string {
	return "server.address=127.0.0.1 server.port=" + h.port
}

// renderValue renders an attribute value; floats to six significant
// digits, so that sums of durations compare exactly.
func renderValue(v attribute.Value) string {
	if v.Type() == attribute.FLOAT64 {
		return strconv.FormatFloat(v.AsFloat64(), 'g', 6, 64)
	}
	return v.String()
}

// render renders attributes as "key=value" sorted by key.
func render(kvs []attribute.KeyValue) string {
	parts := make([]string, 0, len(kvs))
	for _, kv := range kvs {
		parts = append(parts, string(kv.Key)+"="+renderValue(kv.Value))
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

// spanView is what a test checks of a span.
type spanView struct {
	Name   string
	Kind   trace.SpanKind
	Attrs  string
	Events []string
	Status string
}

func view(s sdktrace.ReadOnlySpan) spanView {
	v := spanView{Name: s.Name(), Kind: s.SpanKind(), Attrs: render(s.Attributes())}
	for _, e := range s.Events() {
		v.Events = append(v.Events, e.Name+" "+render(e.Attributes))
	}
	v.Status = s.Status().Code.String()
	if s.Status().Description != "" {
		v.Status += " " + s.Status().Description
	}
	return v
}

// sortTokens sorts the space-separated "key=value" tokens of s, keeping a
// leading word without "=" (an event name) first, so that expectations can
// be written in any order.
func sortTokens(s string) string {
	toks := strings.Fields(s)
	head := 0
	if len(toks) > 0 && !strings.Contains(toks[0], "=") {
		head = 1
	}
	slices.Sort(toks[head:])
	return strings.Join(toks, " ")
}

// sortMetric sorts the attributes inside the braces of a rendered point.
func sortMetric(s string) string {
	open, end := strings.IndexByte(s, '{'), strings.IndexByte(s, '}')
	if open < 0 || end < open {
		return s
	}
	return s[:open+1] + sortTokens(s[open+1:end]) + s[end:]
}

func (h *harness) checkSpans(want ...spanView) {
	h.t.Helper()
	for i := range want {
		want[i].Attrs = sortTokens(want[i].Attrs)
		events := make([]string, len(want[i].Events))
		for j, e := range want[i].Events {
			events[j] = sortTokens(e)
		}
		want[i].Events = events
	}
	ended := h.spans.Ended()
	if len(ended) != len(want) {
		h.t.Fatalf("%d spans, want %d", len(ended), len(want))
	}
	for i, s := range ended {
		got := view(s)
		if got.Name != want[i].Name || got.Kind != want[i].Kind || got.Attrs != want[i].Attrs ||
			got.Status != want[i].Status || !slices.Equal(got.Events, want[i].Events) {
			h.t.Errorf("span %d:\n got %s\nwant %s", i, dump(got), dump(want[i]))
		}
	}
}

func dump(v spanView) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

func (h *harness) collect() metricdata.ResourceMetrics {
	h.t.Helper()
	var rm metricdata.ResourceMetrics
	if err := h.reader.Collect(context.Background(), &rm); err != nil {
		h.t.Fatal(err)
	}
	return rm
}

// points renders every metric's data points as "name{attrs} value", sorted.
func points(rm metricdata.ResourceMetrics) []string {
	var out []string
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					out = append(out, fmt.Sprintf("%s{%s} count=%d sum=%s", m.Name, render(p.Attributes.ToSlice()), p.Count,
						strconv.FormatFloat(p.Sum, 'g', 6, 64)))
				}
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					out = append(out, fmt.Sprintf("%s{%s} %d", m.Name, render(p.Attributes.ToSlice()), p.Value))
				}
			case metricdata.Gauge[int64]:
				for _, p := range d.DataPoints {
					out = append(out, fmt.Sprintf("%s{%s} %d", m.Name, render(p.Attributes.ToSlice()), p.Value))
				}
			default:
				out = append(out, fmt.Sprintf("%s: unexpected %T", m.Name, m.Data))
			}
		}
	}
	slices.Sort(out)
	return out
}

func (h *harness) checkMetrics(want ...string) {
	h.t.Helper()
	got := points(h.collect())
	for i := range want {
		want[i] = sortMetric(want[i])
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		h.t.Errorf("metrics:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

func TestSuccess(t *testing.T) {
	h := newHarness(t, []step{{status: 200, body: `[]`, header: map[string]string{"X-Request-Id": "rid-1"}}})
	if _, _, err := h.client.Issues.List(context.Background(), "o", "r", nil); err != nil {
		t.Fatal(err)
	}
	base := "forgejo.operation=issueListIssues http.request.method=GET " + h.server()
	h.checkSpans(spanView{
		Name:  "GET /repos/{owner}/{repo}/issues",
		Kind:  trace.SpanKindClient,
		Attrs: "forgejo.attempts=1 " + base + " http.response.status_code=200 url.template=/repos/{owner}/{repo}/issues",
		Events: []string{
			"forgejo.attempt forgejo.attempt=1 forgejo.attempt.duration=0.1 forgejo.request_id=rid-1 http.response.status_code=200",
		},
		Status: "Unset",
	})
	base = "forgejo.operation=issueListIssues http.request.method=GET http.response.status_code=200 " + h.server()
	h.checkMetrics(
		"forgejo.client.call.duration{"+base+"} count=1 sum=0.1",
		"http.client.request.duration{"+base+"} count=1 sum=0.1",
	)
}

func TestRetriedTwiceThenSuccess(t *testing.T) {
	h := newHarness(t, []step{{status: 503}, {status: 503}, {status: 200, body: `{"id":1}`}})
	_, resp, err := h.client.Repos.Get(context.Background(), "o", "r")
	if err != nil || resp.Attempts != 3 {
		t.Fatal(resp, err)
	}
	base := "forgejo.operation=repoGet http.request.method=GET " + h.server()
	h.checkSpans(spanView{
		Name: "GET /repos/{owner}/{repo}",
		Kind: trace.SpanKindClient,
		Attrs: "forgejo.attempts=3 " + base + " forgejo.retry.wait=0.75 http.request.resend_count=2" +
			" http.response.status_code=200 url.template=/repos/{owner}/{repo}",
		Events: []string{
			"forgejo.attempt error.type=503 forgejo.attempt=1 forgejo.attempt.duration=0.1 http.response.status_code=503",
			"forgejo.retry error.type=503 forgejo.attempt=1 forgejo.retry.wait=0.25",
			"forgejo.attempt error.type=503 forgejo.attempt=2 forgejo.attempt.duration=0.1 http.request.resend_count=1 http.response.status_code=503",
			"forgejo.retry error.type=503 forgejo.attempt=2 forgejo.retry.wait=0.5",
			"forgejo.attempt forgejo.attempt=3 forgejo.attempt.duration=0.1 http.request.resend_count=2 http.response.status_code=200",
		},
		Status: "Unset",
	})
	h.checkMetrics(
		"forgejo.client.call.duration{"+base+" http.response.status_code=200} count=1 sum=1.05",
		"forgejo.client.retries{error.type=503 "+base+"} 2",
		"http.client.request.duration{error.type=503 "+base+" http.response.status_code=503} count=2 sum=0.2",
		"http.client.request.duration{"+base+" http.response.status_code=200} count=1 sum=0.1",
	)
}

func TestRetriesExhausted(t *testing.T) {
	h := newHarness(t, []step{{status: 503}})
	_, _, err := h.client.Repos.Get(context.Background(), "o", "r")
	var re *forgejo.RetriesExhaustedError
	if !errors.As(err, &re) {
		t.Fatal(err)
	}
	base := "forgejo.operation=repoGet http.request.method=GET " + h.server()
	h.checkSpans(spanView{
		Name: "GET /repos/{owner}/{repo}",
		Kind: trace.SpanKindClient,
		Attrs: "error.type=503 forgejo.attempts=3 " + base + " forgejo.retries_exhausted=true forgejo.retry.wait=0.75" +
			" http.request.resend_count=2 http.response.status_code=503 url.template=/repos/{owner}/{repo}",
		Events: []string{
			"forgejo.attempt error.type=503 forgejo.attempt=1 forgejo.attempt.duration=0.1 http.response.status_code=503",
			"forgejo.retry error.type=503 forgejo.attempt=1 forgejo.retry.wait=0.25",
			"forgejo.attempt error.type=503 forgejo.attempt=2 forgejo.attempt.duration=0.1 http.request.resend_count=1 http.response.status_code=503",
			"forgejo.retry error.type=503 forgejo.attempt=2 forgejo.retry.wait=0.5",
			"forgejo.attempt error.type=503 forgejo.attempt=3 forgejo.attempt.duration=0.1 http.request.resend_count=2 http.response.status_code=503",
		},
		Status: "Error 503",
	})
	h.checkMetrics(
		"forgejo.client.call.duration{error.type=503 "+base+" http.response.status_code=503} count=1 sum=1.05",
		"forgejo.client.retries{error.type=503 "+base+"} 2",
		"http.client.request.duration{error.type=503 "+base+" http.response.status_code=503} count=3 sum=0.3",
	)
}

func TestNeverWriteThatFails(t *testing.T) {
	h := newHarness(t, []step{{hangUp: true}})
	_, err := h.client.Do(context.Background(), &forgejo.Request{Method: "POST", Path: "/repos/o/r/issues", Body: map[string]string{"title": "t"}, Retry: forgejo.RetryNever}, nil)
	var te *forgejo.TransportError
	if !errors.As(err, &te) || te.Kind != forgejo.TransportConnection {
		t.Fatalf("err = %v", err)
	}
	if got := h.hits.Load(); got != 1 {
		t.Fatalf("the server saw %d requests; a Never write is sent once", got)
	}
	base := "forgejo.operation=Do http.request.method=POST " + h.server()
	h.checkSpans(spanView{
		Name:  "POST /repos/o/r/issues",
		Kind:  trace.SpanKindClient,
		Attrs: "error.type=connection forgejo.attempts=1 " + base + " url.template=/repos/o/r/issues",
		Events: []string{
			"forgejo.attempt error.type=connection forgejo.attempt=1 forgejo.attempt.duration=0.1",
		},
		Status: "Error connection",
	})
	h.checkMetrics(
		"forgejo.client.call.duration{error.type=connection "+base+"} count=1 sum=0.1",
		"http.client.request.duration{error.type=connection "+base+"} count=1 sum=0.1",
	)
}

func TestPacedWait(t *testing.T) {
	h := newHarness(t, []step{{status: 200, body: `{"id":1}`, header: map[string]string{"RateLimit": `"b";r=0;t=2`}}},
		forgejo.WithRateLimitPacing(forgejo.Pacing{}))
	for range 2 {
		if _, _, err := h.client.Repos.Get(context.Background(), "o", "r"); err != nil {
			t.Fatal(err)
		}
	}
	base := "forgejo.operation=repoGet http.request.method=GET " + h.server()
	first := spanView{
		Name:   "GET /repos/{owner}/{repo}",
		Kind:   trace.SpanKindClient,
		Attrs:  "forgejo.attempts=1 " + base + " forgejo.ratelimit.remaining=0 http.response.status_code=200 url.template=/repos/{owner}/{repo}",
		Events: []string{"forgejo.attempt forgejo.attempt=1 forgejo.attempt.duration=0.1 http.response.status_code=200"},
		Status: "Unset",
	}
	second := first
	second.Attrs = "forgejo.attempts=1 " + base + " forgejo.ratelimit.remaining=0 forgejo.ratelimit.wait=2 http.response.status_code=200 url.template=/repos/{owner}/{repo}"
	second.Events = []string{
		"forgejo.ratelimit.wait forgejo.attempt=1 forgejo.ratelimit.wait=2",
		"forgejo.attempt forgejo.attempt=1 forgejo.attempt.duration=0.1 http.response.status_code=200",
	}
	h.checkSpans(first, second)
	h.checkMetrics(
		"forgejo.client.call.duration{"+base+" http.response.status_code=200} count=2 sum=2.2",
		"forgejo.client.pacing.wait{"+base+"} count=1 sum=2",
		"forgejo.client.ratelimit.remaining{"+h.server()+"} 0",
		"http.client.request.duration{"+base+" http.response.status_code=200} count=2 sum=0.2",
	)
}

func TestValidationFailure(t *testing.T) {
	h := newHarness(t, []step{{status: 200}})
	if _, _, err := h.client.Repos.Get(context.Background(), "o/x", "r"); err == nil {
		t.Fatal("want a validation error")
	}
	if h.hits.Load() != 0 {
		t.Fatal("sent")
	}
	h.checkSpans(spanView{
		Name:   "GET /repos/{owner}/{repo}",
		Kind:   trace.SpanKindClient,
		Attrs:  "error.type=validation forgejo.attempts=0 forgejo.operation=repoGet http.request.method=GET url.template=/repos/{owner}/{repo}",
		Status: "Error validation",
	})
	h.checkMetrics("forgejo.client.call.duration{error.type=validation forgejo.operation=repoGet http.request.method=GET} count=1 sum=0")
}

func TestAnswersThatAreNotErrors(t *testing.T) {
	// A 404 answering a yes/no question is a success: no error.type.
	h := newHarness(t, []step{{status: 404}})
	ok, _, err := h.client.Users.IsStarred(context.Background(), "o", "r")
	if err != nil || ok {
		t.Fatal(ok, err)
	}
	s := view(h.spans.Ended()[0])
	if strings.Contains(s.Attrs, "error.type") || s.Status != "Unset" || !strings.Contains(s.Attrs, "http.response.status_code=404") {
		t.Fatalf("span = %s", dump(s))
	}
}

// tracingTransport is the smallest OpenTelemetry-instrumented transport: a
// client span per request, started from the request's ctx.
type tracingTransport struct {
	tracer trace.Tracer
}

func (t tracingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, span := t.tracer.Start(req.Context(), "transport "+req.Method, trace.WithSpanKind(trace.SpanKindClient))
	defer span.End()
	resp, err := http.DefaultTransport.RoundTrip(req.WithContext(ctx))
	if err != nil {
		span.SetStatus(codes.Error, "transport")
	}
	return resp, err
}

func TestCallSpanIsTheTransportsParent(t *testing.T) {
	var h *harness
	tr := &lazyTransport{}
	h = newHarness(t, []step{{status: 503}, {status: 200, body: `{"id":1}`}}, forgejo.WithHTTPClient(&http.Client{Transport: tr}))
	tr.rt = tracingTransport{tracer: h.tp.Tracer("test-transport")}

	ctx, caller := h.tp.Tracer("test").Start(context.Background(), "caller")
	if _, _, err := h.client.Repos.Get(ctx, "o", "r"); err != nil {
		t.Fatal(err)
	}
	caller.End()

	ended := h.spans.Ended()
	var names []string
	byName := map[string][]sdktrace.ReadOnlySpan{}
	for _, s := range ended {
		names = append(names, s.Name())
		byName[s.Name()] = append(byName[s.Name()], s)
	}
	if want := []string{"transport GET", "transport GET", "GET /repos/{owner}/{repo}", "caller"}; !slices.Equal(names, want) {
		t.Fatalf("spans %v, want %v", names, want)
	}
	call := byName["GET /repos/{owner}/{repo}"][0]
	if call.Parent().SpanID() != caller.SpanContext().SpanID() {
		t.Fatal("the call's span is not a child of the caller's")
	}
	for _, s := range byName["transport GET"] {
		if s.Parent().SpanID() != call.SpanContext().SpanID() || s.SpanContext().TraceID() != caller.SpanContext().TraceID() {
			t.Fatalf("transport span %v has parent %v, want the call span %v", s.SpanContext().SpanID(), s.Parent().SpanID(), call.SpanContext().SpanID())
		}
	}
}

// lazyTransport lets the test build the tracing transport after the
// harness made the tracer provider.
type lazyTransport struct{ rt http.RoundTripper }

func (l *lazyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return l.rt.RoundTrip(req)
}

func randomHex(t *testing.T) string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// TestNoSecretInAnyExport echoes the token everywhere a server can, puts it
// and a query value in the query string, and then searches every string
// exported for either.
func TestNoSecretInAnyExport(t *testing.T) {
	token, queryValue, password := randomHex(t), randomHex(t), randomHex(t)
	clock := &fakeClock{t: time.Unix(1_700_000_000, 0)}
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := hits.Add(1)
		w.Header().Set("X-Request-Id", "rid-"+token)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("RateLimit", `"b";r=5;t=2`)
		w.Header().Set("Location", "/x?token="+token)
		switch {
		case n%2 == 1:
			w.WriteHeader(503)
			fmt.Fprintf(w, `{"message":"bad token %s","errors":["%s"],"url":"http://x/?t=%s"}`, token, token, token)
		case strings.Contains(r.URL.Path, "/issues"):
			w.WriteHeader(404)
			fmt.Fprintf(w, `{"message":"no issue for %s"}`, token)
		default:
			w.WriteHeader(200)
			fmt.Fprintf(w, `{"id":1,"name":"%s","description":"%s"}`, token, token)
		}
	}))
	defer srv.Close()
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	hooks, err := forgejootel.NewHooks(forgejootel.WithTracerProvider(tp), forgejootel.WithMeterProvider(mp))
	if err != nil {
		t.Fatal(err)
	}
	tr := tracingTransport{tracer: tp.Tracer("t")}
	c, err := forgejo.NewClient(forgejo.WithBaseURL(srv.URL), forgejo.WithToken(token), forgejo.WithHooks(hooks),
		forgejo.WithClock(clock), forgejo.WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, _, _ = c.Repos.Get(ctx, "o", "r")                                                    // 503, then 200 echoing the token
	_, _, _ = c.Repos.Get(ctx, "o", "r")                                                    // 503, then 200
	_, _, _ = c.Issues.Get(ctx, "o", "r", 1)                                                // 503, then 404 echoing it
	_, _, _ = c.Repos.Get(ctx, "o/"+token, "r")                                             // refused before sending
	_, _ = c.Do(ctx, &forgejo.Request{Method: "GET", Path: "/repos/o/r", Query: url.Values{ // the token and a value in the query
		"q": {queryValue}, "t": {token}}, Retry: forgejo.RetryIdempotentOnly}, nil)
	_, _ = c.Do(ctx, &forgejo.Request{Method: "GET", Path: "/repos/o/r/issues/1", Query: url.Values{"q": {queryValue}}, Retry: forgejo.RetryIdempotentOnly}, nil,
		forgejo.QueryParam("access_token", token))
	// Caller labels carrying the token, or the call's own password, reach
	// span names and attributes and metric attributes only masked.
	_, _ = c.Do(ctx, &forgejo.Request{Method: "GET", Path: "/repos/o/r", Operation: "sync-" + token, Retry: forgejo.RetryIdempotentOnly}, nil)
	_, _ = c.Do(ctx, &forgejo.Request{Method: "GET", Path: "/repos/o/r", Operation: "login " + password, Retry: forgejo.RetryIdempotentOnly}, nil,
		forgejo.QueryParam("password", password))
	_, _ = c.Do(ctx, &forgejo.Request{Method: token, Path: "/repos/o/r", Operation: token}, nil)
	if hits.Load() < 8 {
		t.Fatalf("only %d requests", hits.Load())
	}

	var haystack []string
	add := func(kvs []attribute.KeyValue) {
		for _, kv := range kvs {
			haystack = append(haystack, string(kv.Key), kv.Value.String())
		}
	}
	for _, s := range spans.Ended() {
		haystack = append(haystack, s.Name(), s.Status().Description)
		add(s.Attributes())
		for _, e := range s.Events() {
			haystack = append(haystack, e.Name)
			add(e.Attributes)
		}
		for _, l := range s.Links() {
			add(l.Attributes)
		}
	}
	stubs, err := json.Marshal(tracetest.SpanStubsFromReadOnlySpans(spans.Ended()))
	if err != nil {
		t.Fatal(err)
	}
	haystack = append(haystack, string(stubs))
	rm := metricdata.ResourceMetrics{}
	if err := reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	haystack = append(haystack, points(rm)...)
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			haystack = append(haystack, m.Name, m.Description, m.Unit)
		}
	}
	if len(spans.Ended()) < 10 || len(points(rm)) < 5 {
		t.Fatalf("too little exported to search: %d spans, %d points", len(spans.Ended()), len(points(rm)))
	}
	all := strings.Join(haystack, "\n")
	if !strings.Contains(all, "forgejo.request_id") {
		t.Fatal("the request ID, echoing the token, should be exported (masked)")
	}
	for name, secret := range map[string]string{"token": token, "query value": queryValue, "password": password} {
		if i := strings.Index(all, secret); i >= 0 {
			t.Errorf("the %s appears in the export: %q", name, all[max(0, i-200):min(len(all), i+100)])
		}
	}
}
