package webhook

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Handler is an http.Handler receiving Forgejo deliveries: it verifies and
// parses each with its [Parser], then either runs the function its
// [Router] has for the event type, or, made with [WithQueue], stores the
// delivery for a [Worker]. Running the function, it answers:
//
//   - 200 after the function returned nil;
//   - 500 when the function returned an error or panicked (the error goes to
//     the [WithErrorFunc] function, not to Forgejo);
//   - 200 without calling anything for an event type with no function and no
//     [Router.HandleDefault], and, with a [WithGuard], for a delivery ID
//     already processed;
//   - 401, 413, 415, 405, 408 or 400 for a rejected delivery (see
//     [Error.StatusCode]), with nothing dispatched; 408 when the body did
//     not arrive within the read deadline ([WithReadTimeout]).
//
// With [WithQueue] it stores instead: 202 once stored, 503 or 500 when the
// queue is full or failed; a [Worker] runs the functions.
//
// Forgejo records the status and the response body in the hook's delivery
// history and does not retry failed deliveries by itself (they can be
// replayed from the hook's settings page). It waits for the answer only
// DELIVER_TIMEOUT seconds (5 by default), so event functions that take long
// belong behind [WithQueue].
type Handler struct {
	parser      *Parser
	guard       DeliveryGuard
	queue       Queue
	replayDedup bool
	now         func() time.Time
	onError     func(*http.Request, error)
	readTimeout time.Duration

	router *Router
}

// HandlerOption configures a [Handler].
type HandlerOption func(*Handler)

// WithGuard makes the Handler run each delivery ID at most once as it
// receives it; see [DeliveryGuard] (which also says what a delivery without
// an ID is keyed on). A duplicate is answered 200 with nothing dispatched.
// It is for a Handler that runs the functions itself: with [WithQueue] the
// functions run in a [Worker], whose guard is [WithWorkerGuard], and
// NewHandler refuses the two together.
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
// The Handler then has no [Router]: the functions are registered on the
// Router given to a [Worker] (NewWorker(q, router)), which runs them with
// its own guard ([WithWorkerGuard]); [Worker] states the at-least-once
// contract. NewHandler refuses WithQueue together with a Router or a
// [WithGuard].
func WithQueue(q Queue) HandlerOption {
	return func(h *Handler) { h.queue = q }
}

// WithReplayDedup keys the Handler's guard ([WithGuard]) on the SHA-256 of the
// payload (the bytes the signature covers) instead of the delivery ID, so
// that a replay from the hook's settings page in Forgejo's web UI, which
// sends the same payload under a new delivery ID, is a duplicate too. Off
// by default: a person replaying a delivery usually means it to run again.
// Two events never have the same payload (every payload names its
// repository, sender and objects at that moment, a push its commits), so
// nothing but a replay or a resend is taken for a duplicate. A [Worker]'s
// guard has its own: [WithWorkerReplayDedup].
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

// NewHandler returns a Handler verifying and parsing with p and running the
// functions of r. With [WithQueue] it stores the deliveries instead, and r
// must be nil (the functions run in a [Worker]). It returns an error for a
// nil p, for a nil r without a queue, for a queue together with r, with
// [WithGuard] or with [WithReplayDedup], and for WithReplayDedup without
// WithGuard.
func NewHandler(p *Parser, r *Router, opts ...HandlerOption) (*Handler, error) {
	if p == nil {
		return nil, errors.New("webhook: NewHandler with a nil Parser")
	}
	h := &Handler{parser: p, router: r, readTimeout: DefaultReadTimeout, now: time.Now}
	for _, o := range opts {
		o(h)
	}
	switch {
	case h.queue == nil && r == nil:
		return nil, errors.New("webhook: NewHandler with a nil Router and no queue: nothing would run the functions")
	case h.queue != nil && r != nil:
		return nil, errors.New("webhook: NewHandler with both a Router and WithQueue: a Handler with a queue runs no functions; give the Router to NewWorker")
	case h.queue != nil && (h.guard != nil || h.replayDedup):
		return nil, errors.New("webhook: NewHandler with WithGuard or WithReplayDedup and WithQueue: queued deliveries are deduplicated where they run; give NewWorker WithWorkerGuard (and WithWorkerReplayDedup)")
	case h.replayDedup && h.guard == nil:
		return nil, errors.New("webhook: NewHandler with WithReplayDedup and no WithGuard: there is no guard to key")
	}
	return h, nil
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

	fn := h.router.lookup(ev.EventType())
	if fn == nil {
		reply(w, http.StatusOK, "ignored: no function for event type "+string(ev.EventType()))
		return
	}

	id := eventKey(ev, h.replayDedup)
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

	if err := call(ctx, fn, ev); err != nil {
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
