// Package forgejootel turns the hook events of a [forgejo.Client]
// ([forgejo.Hooks]) into OpenTelemetry traces and metrics.
//
//	hooks, err := forgejootel.NewHooks()
//	...
//	client, err := forgejo.NewClient(forgejo.WithToken(token), forgejo.WithHooks(hooks))
//
// # Traces
//
// Every call that is sent gets one span of kind Client, named
// "{METHOD} {url.template}" as the HTTP client semantic conventions ask
// ("GET /repos/{owner}/{repo}/issues"). It covers the whole call, retries,
// backoff and pacing waits included, and it is in the ctx every attempt's
// *http.Request carries (through the StartCall hook): a transport
// instrumented with OpenTelemetry records its spans, one per attempt, as
// children of the call's span, so the two make one tree.
//
// Attributes set when the call starts: http.request.method, url.template,
// server.address, server.port, forgejo.operation (the operationId), and
// url.full (redacted) only with [WithURLFull]. Set
// when it ends: http.response.status_code (the last response's, when one
// arrived), forgejo.attempts, http.request.resend_count (attempts − 1, when
// the call was retried), forgejo.retry.wait and forgejo.ratelimit.wait (the
// total seconds spent in backoff and in pacing, when any),
// forgejo.ratelimit.remaining (the last budget a response announced, when
// one did), and on failure error.type, forgejo.retries_exhausted (when the
// retries ran out) and the span status Error, whose description is the
// error.type value.
//
// Each attempt is an event "forgejo.attempt" on the call's span, with
// forgejo.attempt (1-based), http.request.resend_count (from the second
// attempt), http.response.status_code (when a response arrived),
// forgejo.attempt.duration (seconds, on the client's clock), error.type
// (when the attempt failed) and forgejo.request_id (the instance's
// X-Request-Id, when it sent one). Each backoff is an event "forgejo.retry"
// (forgejo.attempt, error.type, forgejo.retry.wait) and each pacing wait an
// event "forgejo.ratelimit.wait" (forgejo.attempt, forgejo.ratelimit.wait).
//
// A request that fails validation is never sent; it still gets a span,
// ended at once, with error.type "validation" and no server attributes.
//
// # Propagation
//
// Every attempt, retries included, carries the call's span context in its
// headers, written by the globally configured propagator
// (otel.GetTextMapPropagator, read on each attempt; [WithPropagator]
// replaces it): with propagation.TraceContext, a traceparent whose trace ID
// is the call span's and whose parent is the call span, so the instance's
// own spans (or a proxy's) join the trace. No transport wrapping is needed:
// the hooks set InjectHeaders ([forgejo.Hooks]), and the client adds what it
// writes under the rules of per-call headers: never the credential or a
// header the client manages, never one the call already sets (a traceparent
// passed with [forgejo.Header] wins), and only to the base URL's origin,
// so a redirect to object storage is followed without them. Note that the
// global propagator is a no-op until the application sets one.
//
// # With otelhttp as well
//
// Wrapping the client's transport with otelhttp.NewTransport as well
// ([forgejo.WithHTTPClient]) is supported but doubles up: each attempt then
// gets a second client span, otelhttp's, a child of the call's span (two
// nested spans of kind Client: the call, then each HTTP request), and
// otelhttp, which runs after the client, overwrites the traceparent with its
// own span's, so the instance's spans hang under the attempt's span. Both
// record http.client.request.duration, one measurement per attempt each,
// under two instrumentation scopes (this one, [ScopeName], and otelhttp's),
// so a query that does not filter by scope counts every request twice; and
// otelhttp's span and metrics carry url.full or the raw path unless told
// otherwise. Use one or the other for requests; these hooks alone give
// the call span, the per-attempt events and both duration metrics.
//
// # Metrics
//
//   - http.client.request.duration (histogram, s): one measurement per
//     attempt, as the semantic conventions define it; its count is the
//     number of HTTP requests sent.
//   - forgejo.client.call.duration (histogram, s): one measurement per call,
//     retries and waits included; its count is the number of calls.
//   - forgejo.client.retries (counter, {retry}): backoffs, by error.type.
//   - forgejo.client.pacing.wait (histogram, s): pacing waits.
//   - forgejo.client.ratelimit.remaining (gauge, {request}): the budget the
//     last response announced, by server.address and server.port only.
//
// The first four carry http.request.method, server.address, server.port and
// forgejo.operation; the two durations add http.response.status_code and
// error.type where they apply. url.template is left off metrics (it is
// opt-in in the conventions): forgejo.operation is the low-cardinality
// label, and for [forgejo.Client.Do] the route is the literal path.
//
// # What is never recorded
//
// No attribute, event or status holds the token, a query value, the URL
// (url.full is left off unless [WithURLFull] asks for it, since it carries
// path arguments and query values; even then, sensitive query values are
// masked) or an error message; error.type is a status code or one of a
// fixed set of words: "validation", "decode", "connection", "timeout",
// "tls", "dns", "canceled", "response_too_large", "transport", "_OTHER".
// Everything the client hands the hooks is redacted already.
//
// Time: span timestamps come from the tracer; durations recorded as
// attributes and metrics come from the client's clock ([forgejo.WithClock]).
package forgejootel

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"codeberg.org/forgego/forgejo"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "codeberg.org/forgego/forgejo/otel"

// Attribute keys of our own, beside the semantic conventions'.
const (
	OperationKey          = attribute.Key("forgejo.operation")
	AttemptsKey           = attribute.Key("forgejo.attempts")
	AttemptKey            = attribute.Key("forgejo.attempt")
	AttemptDurationKey    = attribute.Key("forgejo.attempt.duration")
	RequestIDKey          = attribute.Key("forgejo.request_id")
	RetryWaitKey          = attribute.Key("forgejo.retry.wait")
	RetriesExhaustedKey   = attribute.Key("forgejo.retries_exhausted")
	RateLimitWaitKey      = attribute.Key("forgejo.ratelimit.wait")
	RateLimitRemainingKey = attribute.Key("forgejo.ratelimit.remaining")
)

// Event names on the call's span.
const (
	AttemptEvent       = "forgejo.attempt"
	RetryEvent         = "forgejo.retry"
	RateLimitWaitEvent = "forgejo.ratelimit.wait"
)

// Option configures [NewHooks].
type Option func(*config)

type config struct {
	tp      trace.TracerProvider
	mp      metric.MeterProvider
	prop    propagation.TextMapPropagator // nil: the global one, read per attempt
	urlFull bool
}

// WithTracerProvider sets where spans go; the default is the global
// provider (otel.GetTracerProvider), and nil keeps it.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) {
		if tp != nil {
			c.tp = tp
		}
	}
}

// WithMeterProvider sets where metrics go; the default is the global
// provider (otel.GetMeterProvider), and nil keeps it.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) {
		if mp != nil {
			c.mp = mp
		}
	}
}

// WithPropagator sets how the call's span context travels to the
// instance; the default is the global propagator
// (otel.GetTextMapPropagator), read on every attempt, so one configured
// after NewHooks still applies; nil keeps it. Pass
// propagation.NewCompositeTextMapPropagator() (none) to send nothing.
func WithPropagator(p propagation.TextMapPropagator) Option {
	return func(c *config) {
		if p != nil {
			c.prop = p
		}
	}
}

// WithURLFull adds url.full to every call's span: the URL as the client
// renders it everywhere (CallContext.URL), with the values of sensitive
// query parameters and any echo of the client's secrets masked. It is off
// by default, as the semantic conventions allow: the URL still carries the
// path arguments (owner, repository, file paths) and the other query
// values, which a trace backend may not be the place for.
func WithURLFull() Option {
	return func(c *config) { c.urlFull = true }
}

// observer records traces and metrics from a client's hooks (NewHooks).
// One may serve any number of clients and goroutines.
type observer struct {
	tracer  trace.Tracer
	prop    propagation.TextMapPropagator // nil: otel.GetTextMapPropagator()
	urlFull bool

	requestDuration metric.Float64Histogram
	callDuration    metric.Float64Histogram
	retries         metric.Int64Counter
	pacingWait      metric.Float64Histogram
	remaining       metric.Int64Gauge
}

// NewHooks returns the [forgejo.Hooks] that record traces and metrics to
// the given providers (the global ones by default); pass them to
// [forgejo.WithHooks]. They may serve any number of clients and
// goroutines. It fails only when an instrument cannot be created.
func NewHooks(opts ...Option) (forgejo.Hooks, error) {
	cfg := config{tp: otel.GetTracerProvider(), mp: otel.GetMeterProvider()}
	for _, o := range opts {
		o(&cfg)
	}
	o := &observer{tracer: cfg.tp.Tracer(ScopeName), prop: cfg.prop, urlFull: cfg.urlFull}
	m := cfg.mp.Meter(ScopeName)
	var errs [5]error
	o.requestDuration, errs[0] = m.Float64Histogram("http.client.request.duration",
		metric.WithDescription("Duration of HTTP client requests."),
		metric.WithUnit("s"),
		metric.WithExplicitBucketBoundaries(0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10))
	o.callDuration, errs[1] = m.Float64Histogram("forgejo.client.call.duration",
		metric.WithDescription("Duration of Forgejo API calls, retries and waits included."),
		metric.WithUnit("s"),
		metric.WithExplicitBucketBoundaries(0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60, 120, 300))
	o.retries, errs[2] = m.Int64Counter("forgejo.client.retries",
		metric.WithDescription("Retries of Forgejo API calls, counted before each backoff."),
		metric.WithUnit("{retry}"))
	o.pacingWait, errs[3] = m.Float64Histogram("forgejo.client.pacing.wait",
		metric.WithDescription("Waits for the rate-limit budget to reset before a request."),
		metric.WithUnit("s"),
		metric.WithExplicitBucketBoundaries(0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300))
	o.remaining, errs[4] = m.Int64Gauge("forgejo.client.ratelimit.remaining",
		metric.WithDescription("Requests left in the rate-limit window, as the last response said."),
		metric.WithUnit("{request}"))
	if err := errors.Join(errs[:]...); err != nil {
		return forgejo.Hooks{}, err
	}
	return forgejo.Hooks{
		Request:       o.onRequest,
		Response:      o.onResponse,
		Error:         o.onError,
		Retry:         o.onRetry,
		RateLimit:     o.onRateLimit,
		RateLimitWait: o.onRateLimitWait,
		StartCall:     o.startCall,
		EndCall:       o.endCall,
		InjectHeaders: o.injectHeaders,
	}, nil
}

// callState is one call's running record. The client runs every callback
// of a call on the calling goroutine, one at a time, so it needs no lock.
type callState struct {
	span trace.Span
	// attrs are the call's metric attributes: method, server, operation.
	attrs []attribute.KeyValue

	attempts   int
	pending    bool          // an attempt is under way and not yet recorded
	status     int           // the current attempt's status, 0 for none
	duration   time.Duration // the current attempt's duration
	requestID  string
	retryWait  time.Duration
	pacingWait time.Duration
	remaining  int64
	hasBudget  bool
}

type stateKey struct{}

// state returns the call's record, or nil for an event outside a call (a
// validation failure, Attempt 0).
func state(ctx context.Context, call forgejo.CallContext) *callState {
	if call.Attempt == 0 {
		return nil
	}
	st, _ := ctx.Value(stateKey{}).(*callState)
	return st
}

// server reads server.address and server.port from the redacted URL; it
// uses nothing else of it.
func server(rawURL string) []attribute.KeyValue {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" {
		return nil
	}
	port := u.Port()
	if port == "" {
		switch u.Scheme {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	out := []attribute.KeyValue{semconv.ServerAddress(u.Hostname())}
	if n, err := strconv.Atoi(port); err == nil {
		out = append(out, semconv.ServerPort(n))
	}
	return out
}

func (o *observer) begin(ctx context.Context, call forgejo.CallContext) (context.Context, *callState) {
	st := &callState{}
	st.attrs = append(st.attrs, semconv.HTTPRequestMethodKey.String(call.Method))
	st.attrs = append(st.attrs, server(call.URL)...)
	st.attrs = append(st.attrs, OperationKey.String(call.Operation))
	spanAttrs := make([]attribute.KeyValue, 0, len(st.attrs)+2)
	spanAttrs = append(spanAttrs, st.attrs[0], semconv.URLTemplate(call.Route))
	spanAttrs = append(spanAttrs, st.attrs[1:]...)
	if o.urlFull && call.Attempt == 0 && call.URL != "(not sent)" {
		spanAttrs = append(spanAttrs, semconv.URLFull(call.URL))
	}
	ctx, st.span = o.tracer.Start(ctx, call.Method+" "+call.Route,
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(spanAttrs...))
	return context.WithValue(ctx, stateKey{}, st), st
}

// startCall opens the call's span; the ctx it returns carries the span to
// the transport.
func (o *observer) startCall(ctx context.Context, call forgejo.CallContext) context.Context {
	ctx, _ = o.begin(ctx, call)
	return ctx
}

// injectHeaders writes the call's span context into the attempt's
// headers with the propagator (W3C traceparent and tracestate with
// propagation.TraceContext), so that the instance, or a proxy in front of
// it, continues the trace. The client calls it on every attempt, retries
// included, and keeps only headers it may send (see
// the InjectHeaders field of [forgejo.Hooks]).
func (o *observer) injectHeaders(ctx context.Context, _ forgejo.CallContext, h http.Header) {
	p := o.prop
	if p == nil {
		p = otel.GetTextMapPropagator()
	}
	p.Inject(ctx, propagation.HeaderCarrier(h))
}

// onRequest notes the start of an attempt.
func (o *observer) onRequest(ctx context.Context, call forgejo.CallContext) {
	st := state(ctx, call)
	if st == nil {
		return
	}
	st.attempts++
	st.pending, st.status, st.duration = true, 0, 0
}

// onResponse notes the attempt's status.
func (o *observer) onResponse(ctx context.Context, call forgejo.CallContext, status int) {
	st := state(ctx, call)
	if st == nil {
		return
	}
	st.status, st.duration = status, call.Duration
	if call.RequestID != "" {
		st.requestID = call.RequestID
	}
}

// onError records a failed attempt, or notes the call's final error.
func (o *observer) onError(ctx context.Context, call forgejo.CallContext, err error) {
	st := state(ctx, call)
	if st == nil {
		if call.Final {
			// Never sent (a validation failure): a span of its own, ended
			// at once.
			ctx, _ = o.begin(ctx, call)
			o.endCall(ctx, call, 0, err)
		}
		return
	}
	if call.Final {
		return // EndCall, which follows, gets err
	}
	st.duration = call.Duration
	o.recordAttempt(ctx, st, call.Attempt, err)
}

// recordAttempt adds the attempt's event and measurement.
func (o *observer) recordAttempt(ctx context.Context, st *callState, attempt int, err error) {
	st.pending = false
	ev := make([]attribute.KeyValue, 0, 6)
	ev = append(ev, AttemptKey.Int(attempt))
	if attempt > 1 {
		ev = append(ev, semconv.HTTPRequestResendCount(attempt-1))
	}
	m := make([]attribute.KeyValue, 0, len(st.attrs)+2)
	m = append(m, st.attrs...)
	if st.status > 0 {
		ev = append(ev, semconv.HTTPResponseStatusCode(st.status))
		m = append(m, semconv.HTTPResponseStatusCode(st.status))
	}
	ev = append(ev, AttemptDurationKey.Float64(st.duration.Seconds()))
	if err != nil {
		et := semconv.ErrorTypeKey.String(errorType(err))
		ev = append(ev, et)
		m = append(m, et)
	}
	if st.requestID != "" {
		ev = append(ev, RequestIDKey.String(st.requestID))
		st.requestID = ""
	}
	st.span.AddEvent(AttemptEvent, trace.WithAttributes(ev...))
	o.requestDuration.Record(ctx, st.duration.Seconds(), metric.WithAttributes(m...))
}

// onRetry records a backoff.
func (o *observer) onRetry(ctx context.Context, call forgejo.CallContext, err error, wait time.Duration) {
	st := state(ctx, call)
	if st == nil {
		return
	}
	st.retryWait += wait
	et := semconv.ErrorTypeKey.String(errorType(err))
	st.span.AddEvent(RetryEvent, trace.WithAttributes(AttemptKey.Int(call.Attempt), et, RetryWaitKey.Float64(wait.Seconds())))
	m := make([]attribute.KeyValue, 0, len(st.attrs)+1)
	m = append(append(m, st.attrs...), et)
	o.retries.Add(ctx, 1, metric.WithAttributes(m...))
}

// onRateLimit records the announced budget.
func (o *observer) onRateLimit(ctx context.Context, call forgejo.CallContext, rl forgejo.RateLimit) {
	if st := state(ctx, call); st != nil {
		st.remaining, st.hasBudget = rl.Remaining, true
	}
	o.remaining.Record(ctx, rl.Remaining, metric.WithAttributes(server(call.URL)...))
}

// onRateLimitWait records a pacing wait.
func (o *observer) onRateLimitWait(ctx context.Context, call forgejo.CallContext, wait time.Duration) {
	st := state(ctx, call)
	if st == nil {
		return
	}
	st.pacingWait += wait
	st.span.AddEvent(RateLimitWaitEvent, trace.WithAttributes(AttemptKey.Int(call.Attempt), RateLimitWaitKey.Float64(wait.Seconds())))
	o.pacingWait.Record(ctx, wait.Seconds(), metric.WithAttributes(st.attrs...))
}

// endCall closes the call's span and records the call's measurement.
func (o *observer) endCall(ctx context.Context, call forgejo.CallContext, status int, err error) {
	st, _ := ctx.Value(stateKey{}).(*callState)
	if st == nil {
		return
	}
	if st.pending {
		o.recordAttempt(ctx, st, st.attempts, err) // the successful last attempt
	}
	end := make([]attribute.KeyValue, 0, 9)
	m := make([]attribute.KeyValue, 0, len(st.attrs)+2)
	m = append(m, st.attrs...)
	if status > 0 {
		end = append(end, semconv.HTTPResponseStatusCode(status))
		m = append(m, semconv.HTTPResponseStatusCode(status))
	}
	end = append(end, AttemptsKey.Int(st.attempts))
	if st.attempts > 1 {
		end = append(end, semconv.HTTPRequestResendCount(st.attempts-1))
	}
	if st.retryWait > 0 {
		end = append(end, RetryWaitKey.Float64(st.retryWait.Seconds()))
	}
	if st.pacingWait > 0 {
		end = append(end, RateLimitWaitKey.Float64(st.pacingWait.Seconds()))
	}
	if st.hasBudget {
		end = append(end, RateLimitRemainingKey.Int64(st.remaining))
	}
	if err != nil {
		et := errorType(err)
		end = append(end, semconv.ErrorTypeKey.String(et))
		m = append(m, semconv.ErrorTypeKey.String(et))
		var re *forgejo.RetriesExhaustedError
		if errors.As(err, &re) {
			end = append(end, RetriesExhaustedKey.Bool(true))
		}
		st.span.SetStatus(codes.Error, et)
	}
	st.span.SetAttributes(end...)
	st.span.End()
	o.callDuration.Record(ctx, call.Duration.Seconds(), metric.WithAttributes(m...))
}

// errorType maps an error to a low-cardinality error.type: the status code
// of an API error, else a fixed word. It never uses the error's text.
func errorType(err error) string {
	var ae *forgejo.APIError
	var te *forgejo.TransportError
	var de *forgejo.DecodeError
	var ve *forgejo.ValidationError
	switch {
	case errors.As(err, &ae):
		return strconv.Itoa(ae.StatusCode)
	case errors.As(err, &te):
		switch te.Kind {
		case forgejo.TransportConnection:
			return "connection"
		case forgejo.TransportTimeout:
			return "timeout"
		case forgejo.TransportTLS:
			return "tls"
		case forgejo.TransportDNS:
			return "dns"
		case forgejo.TransportCanceled:
			return "canceled"
		case forgejo.TransportResponseTooLarge:
			return "response_too_large"
		}
		return "transport"
	case errors.As(err, &de):
		return "decode"
	case errors.As(err, &ve):
		return "validation"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	}
	return semconv.ErrorTypeOther.Value.AsString()
}
