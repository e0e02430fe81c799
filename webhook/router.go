package webhook

import (
	"context"
	"fmt"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
)

// Router holds the event functions: one per event type, and a default
// one. It runs them for the two that dispatch events, a [Handler] (as each
// delivery arrives) and a [Worker] (for the deliveries of a queue), and
// for programs that parse deliveries themselves ([Router.Dispatch]):
//
//	r := webhook.NewRouter()
//	webhook.On(r, webhook.EventPush, func(ctx context.Context, e *webhook.PushEvent) error { ... })
//	h, err := webhook.NewHandler(parser, r)
//
// Register functions before serving; registering while serving is safe but
// races with deliveries in flight. The zero Router is ready to use and has
// no functions.
type Router struct {
	mu    sync.RWMutex
	funcs map[EventType]func(context.Context, Event) error
	def   func(context.Context, Event) error
}

// NewRouter returns a Router without functions.
func NewRouter() *Router { return &Router{} }

// HandleFunc registers fn for the event type t, replacing any function
// registered for it before. fn receives the event as its payload type (see
// the EventType constants); [On] does the type assertion for you.
func (r *Router) HandleFunc(t EventType, fn func(ctx context.Context, e Event) error) {
	if fn == nil {
		panic("webhook: HandleFunc with a nil function")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.funcs == nil {
		r.funcs = make(map[EventType]func(context.Context, Event) error)
	}
	r.funcs[t] = fn
}

// HandleDefault registers fn for every event type that has no function of
// its own, including types this package does not know ([*UnknownEvent]).
func (r *Router) HandleDefault(fn func(ctx context.Context, e Event) error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.def = fn
}

// On registers a typed function for the event type t on r:
//
//	webhook.On(r, webhook.EventPush, func(ctx context.Context, e *webhook.PushEvent) error { ... })
//
// E must be the payload type t parses into (or [Event] itself); On panics if
// it is not, so a mismatch shows at start-up, not at the first delivery.
// Register the same function for several types that share a payload type
// (issues and issue_label, say) with several calls.
func On[E Event](r *Router, t EventType, fn func(ctx context.Context, e E) error) {
	if fn == nil {
		panic("webhook: On with a nil function")
	}
	if _, ok := newEvent(t).(E); !ok {
		panic(fmt.Sprintf("webhook: On(%q): the payload type of %s is %T, not the function's %T", t, t, newEvent(t), *new(E)))
	}
	r.HandleFunc(t, func(ctx context.Context, e Event) error {
		return fn(ctx, e.(E))
	})
}

// Handles reports whether r has a function for the event type t: its own
// or the default one.
func (r *Router) Handles(t EventType) bool { return r.lookup(t) != nil }

// Dispatch runs the function r has for ev's event type (or the default
// one) and returns its error; a panic in it is recovered and returned as
// an error whose text holds the panic value and the stack. With no
// function for the type it runs nothing and returns nil ([Router.Handles]
// tells the two apart).
func (r *Router) Dispatch(ctx context.Context, ev Event) error {
	fn := r.lookup(ev.EventType())
	if fn == nil {
		return nil
	}
	return call(ctx, fn, ev)
}

// lookup returns the function registered for t, or the default one.
func (r *Router) lookup(t EventType) func(context.Context, Event) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if fn, ok := r.funcs[t]; ok {
		return fn
	}
	return r.def
}

// panicError is what a panicking event function is reported as.
type panicError struct {
	value any
	stack []byte
}

func (p panicError) Error() string { return fmt.Sprintf("panic: %v\n%s", p.value, p.stack) }

// call runs fn, turning a panic into an error so that the guard is released
// and Forgejo gets a 500 rather than a dropped connection.
func call(ctx context.Context, fn func(context.Context, Event) error, ev Event) (err error) {
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

// storedKey is what a guard records a stored delivery under: its ID (or
// its payload's digest when it has none), or, keyed on the payload (replay
// dedup), always the digest.
func storedKey(d *StoredDelivery, byPayload bool) string {
	if byPayload && !strings.HasPrefix(d.ID, "sha256:") {
		return payloadKey(d.Payload)
	}
	return d.ID
}

// eventKey is [storedKey] for a parsed event.
func eventKey(ev Event, byPayload bool) string {
	if byPayload {
		return payloadKey(ev.Payload())
	}
	return guardKey(ev)
}
