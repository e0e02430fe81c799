package webhook

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// Handler is an http.Handler receiving Forgejo deliveries: it verifies and
// parses each with its [Parser], then calls the function registered for the
// event type and answers:
//
//   - 200 after the function returned nil;
//   - 500 when the function returned an error or panicked (the error goes to
//     the [WithErrorFunc] function, not to Forgejo);
//   - 200 without calling anything for an event type with no function and no
//     [Handler.HandleDefault], and, with a [WithGuard], for a delivery ID
//     already processed;
//   - 401, 413, 415, 405, 408 or 400 for a rejected delivery (see
//     [Error.StatusCode]), with nothing dispatched; 408 when the body did
//     not arrive within the read deadline ([WithReadTimeout]).
//
// With [WithQueue] it stores instead of calling: 202 once stored, 503 or
// 500 when the queue is full or failed; a [Worker] runs the functions.
//
// Forgejo records the status and the response body in the hook's delivery
// history and does not retry failed deliveries by itself (they can be
// replayed from the hook's settings page). It waits for the answer only
// DELIVER_TIMEOUT seconds (5 by default), so event functions that take long
// belong behind [WithQueue].
//
// Register functions before serving; registering while serving is safe but
// races with deliveries in flight.
type Handler struct {
	parser      *Parser
	guard       DeliveryGuard
	queue       Queue
	replayDedup bool
	now         func() time.Time
	onError     func(*http.Request, error)
	readTimeout time.Duration

	mu    sync.RWMutex
	funcs map[EventType]func(context.Context, Event) error
	def   func(context.Context, Event) error
}

// HandlerOption configures a [Handler].
type HandlerOption func(*Handler)

// WithGuard makes the Handler dispatch each delivery ID at most once; see
// [DeliveryGuard] (which also says what a delivery without an ID is keyed
// on). A duplicate is answered 200 with nothing dispatched.
func WithGuard(g DeliveryGuard) HandlerOption {
	return func(h *Handler) { h.guard = g }
}

// WithQueue makes the Handler store every verified delivery in q instead
// of calling its function, and answer only after the store said it is
// stored: 202 then, 503 when q is full ([ErrQueueFull]) and 500 when q
// failed otherwise, so that Forgejo records the failure rather than a
// success whose event is lost. A rejected delivery keeps its answer (401,
// 413, 415, 400, 405, 408) and is never stored. Deliveries of every event
// type are stored, whether a function is registered for it or not: the
// workers, maybe in another process, decide.
//
// The functions registered on the Handler are then run by a [Worker]
// (NewWorker(q, h)), with the Handler's guard ([WithGuard]), which no
// longer applies when receiving; [Worker] states the at-least-once
// contract.
func WithQueue(q Queue) HandlerOption {
	return func(h *Handler) { h.queue = q }
}

// WithReplayDedup keys the guard ([WithGuard]) on the SHA-256 of the
// payload (the bytes the signature covers) instead of the delivery ID, so
// that a replay from the hook's settings page in Forgejo's web UI, which
// sends the same payload under a new delivery ID, is a duplicate too. Off
// by default: a person replaying a delivery usually means it to run again.
// Two events never have the same payload (every payload names its
// repository, sender and objects at that moment, a push its commits), so
// nothing but a replay or a resend is taken for a duplicate.
func WithReplayDedup() HandlerOption {
	return func(h *Handler) { h.replayDedup = true }
}

// WithErrorFunc sets a function the Handler calls with every rejected
// delivery (an [*Error]), every error an event function returned (wrapped,
// with the delivery ID and event type), and every guard failure; for
// logging and metrics. It runs before the response is written.
func WithErrorFunc(fn func(r *http.Request, err error)) HandlerOption {
	return func(h *Handler) { h.onError = fn }
}

// DefaultReadTimeout is how long a [Handler] made without [WithReadTimeout]
// gives a sender to deliver the whole body: Forgejo's default
// DELIVER_TIMEOUT, after which Forgejo itself has given up on the
// delivery.
const DefaultReadTimeout = 5 * time.Second

// WithReadTimeout sets how long the Handler gives a sender, from the start
// of ServeHTTP, to deliver the whole body; one that has not by then (a
// stalled or dripping sender, holding a connection and a goroutine) is
// answered 408 with an [*Error] of kind ErrTimeout. The default is
// [DefaultReadTimeout]; raise it with the [webhook] DELIVER_TIMEOUT of
// your Forgejo. d <= 0 sets no deadline of the Handler's own, leaving the
// http.Server's ReadTimeout.
//
// The deadline is a read deadline on the connection, set with
// http.ResponseController and lifted once the body is read, so it does not
// limit the event function. The request's context ending while the body
// is read (a shutdown, a middleware's timeout) moves it to now, so the
// answer is 408 at once. Where the ResponseWriter cannot set one (a
// recorder in tests, some middleware), the Handler reads as
// [Parser.ParseRequest] does.
func WithReadTimeout(d time.Duration) HandlerOption {
	return func(h *Handler) { h.readTimeout = d }
}

// NewHandler returns a Handler verifying and parsing with p.
func NewHandler(p *Parser, opts ...HandlerOption) *Handler {
	if p == nil {
		panic("webhook: NewHandler with a nil Parser")
	}
	h := &Handler{parser: p, funcs: make(map[EventType]func(context.Context, Event) error), readTimeout: DefaultReadTimeout, now: time.Now}
	for _, o := range opts {
		o(h)
	}
	return h
}

// HandleFunc registers fn for the event type t, replacing any function
// registered for it before. fn receives the event as its payload type (see
// the EventType constants); [On] does the type assertion for you.
func (h *Handler) HandleFunc(t EventType, fn func(ctx context.Context, e Event) error) {
	if fn == nil {
		panic("webhook: HandleFunc with a nil function")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.funcs[t] = fn
}

// HandleDefault registers fn for every event type that has no function of
// its own, including types this package does not know ([*UnknownEvent]).
func (h *Handler) HandleDefault(fn func(ctx context.Context, e Event) error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.def = fn
}

// On registers a typed function for the event type t on h:
//
//	webhook.On(h, webhook.EventPush, func(ctx context.Context, e *webhook.PushEvent) error { ... })
//
// E must be the payload type t parses into (or [Event] itself); On panics if
// it is not, so a mismatch shows at start-up, not at the first delivery.
// Register the same function for several types that share a payload type
// (issues and issue_label, say) with several calls.
func On[E Event](h *Handler, t EventType, fn func(ctx context.Context, e E) error) {
	if fn == nil {
		panic("webhook: On with a nil function")
	}
	if _, ok := newEvent(t).(E); !ok {
		panic(fmt.Sprintf("webhook: On(%q): the payload type of %s is %T, not the function's %T", t, t, newEvent(t), *new(E)))
	}
	h.HandleFunc(t, func(ctx context.Context, e Event) error {
		return fn(ctx, e.(E))
	})
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ev, err := h.parse(w, r)
	if err != nil {
		h.report(r, err)
		status := http.StatusBadRequest
		var we *Error
		if errors.As(err, &we) {
			status = we.StatusCode()
			if we.Kind == ErrMethod {
				w.Header().Set("Allow", "GET, POST")
			}
		}
		reply(w, status, rejectText(err))
		return
	}

	if h.queue != nil {
		h.store(w, r, ev)
		return
	}

	fn := h.lookup(ev.EventType())
	if fn == nil {
		reply(w, http.StatusOK, "ignored: no function for event type "+string(ev.EventType()))
		return
	}

	id := h.eventKey(ev)
	ctx := r.Context()
	if h.guard != nil {
		first, err := h.guard.Claim(ctx, id)
		if err != nil {
			h.report(r, fmt.Errorf("webhook: delivery guard: claiming delivery %s: %w", id, err))
			reply(w, http.StatusInternalServerError, "delivery guard failed")
			return
		}
		if !first {
			reply(w, http.StatusOK, "duplicate delivery, ignored")
			return
		}
	}

	if err := h.call(ctx, fn, ev); err != nil {
		if h.guard != nil {
			if rerr := h.guard.Release(context.WithoutCancel(ctx), id); rerr != nil {
				h.report(r, fmt.Errorf("webhook: delivery guard: releasing delivery %s: %w", id, rerr))
			}
		}
		h.report(r, fmt.Errorf("webhook: %s function failed for delivery %s: %w", ev.EventType(), id, err))
		reply(w, http.StatusInternalServerError, "event function failed")
		return
	}
	reply(w, http.StatusOK, "ok")
}

// store is ServeHTTP with a queue: the delivery is answered 2xx only once
// it is stored.
func (h *Handler) store(w http.ResponseWriter, r *http.Request, ev Event) {
	d := NewStoredDelivery(ev, h.now())
	if err := h.queue.Enqueue(r.Context(), d); err != nil {
		h.report(r, fmt.Errorf("webhook: storing %s delivery %s: %w", ev.EventType(), clean(d.ID), err))
		if errors.Is(err, ErrQueueFull) {
			reply(w, http.StatusServiceUnavailable, "not stored: queue full")
			return
		}
		reply(w, http.StatusInternalServerError, "not stored: queue failed")
		return
	}
	reply(w, http.StatusAccepted, "stored")
}

// lookup returns the function registered for t, or the default one.
func (h *Handler) lookup(t EventType) func(context.Context, Event) error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if fn, ok := h.funcs[t]; ok {
		return fn
	}
	return h.def
}

// key is what the guard records a delivery under: its ID (or its payload's
// digest when it has none), or with [WithReplayDedup] always the digest.
func (h *Handler) key(d *StoredDelivery) string {
	if h.replayDedup && !strings.HasPrefix(d.ID, "sha256:") {
		return payloadKey(d.Payload)
	}
	return d.ID
}

// eventKey is [Handler.key] for a parsed event.
func (h *Handler) eventKey(ev Event) string {
	if h.replayDedup {
		return payloadKey(ev.Payload())
	}
	return guardKey(ev)
}

// parse reads and parses the delivery under the read deadline.
func (h *Handler) parse(w http.ResponseWriter, r *http.Request) (Event, error) {
	if h.readTimeout <= 0 {
		return h.parser.ParseRequest(r)
	}
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(h.readTimeout)) != nil {
		// http.ErrNotSupported: no deadline to set, nor to lift.
		return h.parser.ParseRequest(r)
	}
	// The body is read in this goroutine, so the request's context ending
	// (a shutdown, a middleware's timeout) must end a blocked read itself:
	// the deadline moves to now. No goroutine until the context ends.
	stop := context.AfterFunc(r.Context(), func() { _ = rc.SetReadDeadline(time.Now()) })
	ev, err := h.parser.parseRequest(r, true)
	if !stop() || errors.Is(err, ErrTimeout) {
		// Timed out, or the context ended: the connection is not reused.
		_ = rc.SetReadDeadline(time.Now())
	} else {
		// Lift it: a deadline passing while the event function runs
		// would make the server cancel the request's context.
		_ = rc.SetReadDeadline(time.Time{})
	}
	return ev, err
}

// panicError is what a panicking event function is reported as.
type panicError struct {
	value any
	stack []byte
}

func (p panicError) Error() string { return fmt.Sprintf("panic: %v\n%s", p.value, p.stack) }

// call runs fn, turning a panic into an error so that the guard is released
// and Forgejo gets a 500 rather than a dropped connection.
func (h *Handler) call(ctx context.Context, fn func(context.Context, Event) error, ev Event) (err error) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			err = panicError{v, debug.Stack()}
		}
	}()
	return fn(ctx, ev)
}

func (h *Handler) report(r *http.Request, err error) {
	if h.onError != nil {
		h.onError(r, err)
	}
}

// rejectText is the response body for a rejected delivery: the class only.
func rejectText(err error) string {
	var we *Error
	if errors.As(err, &we) && we.Kind != nil {
		return we.Kind.Error()
	}
	return "webhook: rejected"
}

func reply(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(text + "\n"))
}
