package webhook

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// TestConstructorsReturnErrors: a Handler or a Worker that could not work
// as configured is an error at construction, never a panic and never a
// Handler that silently ignores an option.
func TestConstructorsReturnErrors(t *testing.T) {
	p := mustParser(t, WithSecret("s"))
	q := NewMemoryQueue(1)
	g := NewMemoryGuard(0)
	for _, tc := range []struct {
		name string
		p    *Parser
		r    *Router
		opts []HandlerOption
		want string
	}{
		{"nil parser", nil, NewRouter(), nil, "nil Parser"},
		{"no router, no queue", p, nil, nil, "nil Router"},
		{"router and queue", p, NewRouter(), []HandlerOption{WithQueue(q)}, "give the Router to NewWorker"},
		{"guard and queue", p, nil, []HandlerOption{WithQueue(q), WithGuard(g)}, "WithWorkerGuard"},
		{"replay dedup and queue", p, nil, []HandlerOption{WithQueue(q), WithReplayDedup()}, "WithWorkerReplayDedup"},
		{"replay dedup without a guard", p, NewRouter(), []HandlerOption{WithReplayDedup()}, "no WithGuard"},
	} {
		if h, err := NewHandler(tc.p, tc.r, tc.opts...); h != nil || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, %v", tc.name, h, err)
		}
	}
	if _, err := NewHandler(p, nil, WithQueue(q)); err != nil {
		t.Error(err)
	}
	if _, err := NewHandler(p, NewRouter(), WithGuard(g)); err != nil {
		t.Error(err)
	}

	bad := forgejo.RetryPolicy{MaxAttempts: 3, BaseDelay: -time.Second}
	if w, err := NewWorker(q, NewRouter(), WithRetryPolicy(bad)); w != nil || err == nil || !strings.HasPrefix(err.Error(), "webhook: NewWorker: ") {
		t.Errorf("invalid retry policy: %v, %v", w, err)
	}
	if w, err := NewWorker(nil, NewRouter()); w != nil || err == nil {
		t.Errorf("nil queue: %v, %v", w, err)
	}
	if w, err := NewWorker(q, nil); w != nil || err == nil {
		t.Errorf("nil router: %v, %v", w, err)
	}
	if w, err := NewWorker(q, NewRouter(), WithWorkerReplayDedup()); w != nil || err == nil || !strings.Contains(err.Error(), "no WithWorkerGuard") {
		t.Errorf("replay dedup without a guard: %v, %v", w, err)
	}
}

// TestRouterDispatch: Dispatch runs the type's function, else the default
// one, else nothing; a panic is an error.
func TestRouterDispatch(t *testing.T) {
	var r Router // the zero Router is ready
	ev := renderDelivery(t, EventPush, pushPayload)
	if r.Handles(EventPush) || r.Dispatch(context.Background(), ev) != nil {
		t.Fatal("an empty Router ran something")
	}
	var got []string
	r.HandleDefault(func(context.Context, Event) error { got = append(got, "default"); return nil })
	if err := r.Dispatch(context.Background(), ev); err != nil || len(got) != 1 {
		t.Fatal(err, got)
	}
	boom := errors.New("boom")
	On(&r, EventPush, func(context.Context, *PushEvent) error { got = append(got, "push"); return boom })
	if err := r.Dispatch(context.Background(), ev); !errors.Is(err, boom) || got[1] != "push" {
		t.Fatal(err, got)
	}
	On(&r, EventPush, func(context.Context, *PushEvent) error { panic("oops") })
	if err := r.Dispatch(context.Background(), ev); err == nil || !strings.Contains(err.Error(), "panic: oops") {
		t.Fatal(err)
	}
}

// TestDefaultWorkerRetryPolicyIsFresh: changing the returned policy
// changes no other Worker's default.
func TestDefaultWorkerRetryPolicyIsFresh(t *testing.T) {
	p := DefaultWorkerRetryPolicy()
	p.MaxAttempts = 1
	if DefaultWorkerRetryPolicy().MaxAttempts != 5 {
		t.Error("the default changed")
	}
}
