package forgejotest

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/webhook"
)

// TestSlowReceiverLosesEvents: the fake gives up on a delivery after its
// delivery timeout and never retries it, as Forgejo does. A receiver that
// does its work before answering loses the event (the work is cancelled
// with the request, and nothing sends it again); the durable mode answers
// once the delivery is stored and does the same work afterwards.
func TestSlowReceiverLosesEvents(t *testing.T) {
	const secret = "s3cret"
	for _, durable := range []bool{false, true} {
		name := map[bool]string{false: "synchronous", true: "durable"}[durable]
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			srv := NewServer(t, WithDeliveryTimeout(300*time.Millisecond))
			me := srv.DefaultUser()
			srv.AddRepo(me, "app")
			p, err := webhook.NewParser(webhook.WithSecret(secret))
			if err != nil {
				t.Fatal(err)
			}
			r := webhook.NewRouter()
			q := webhook.NewMemoryQueue(10)
			var h *webhook.Handler
			if durable {
				h, err = webhook.NewHandler(p, nil, webhook.WithQueue(q))
			} else {
				h, err = webhook.NewHandler(p, r)
			}
			if err != nil {
				t.Fatal(err)
			}
			// The work takes longer than Forgejo waits: it finishes only
			// once the test saw the delivery's outcome recorded.
			recorded, done := make(chan struct{}), make(chan string, 1)
			webhook.On(r, webhook.EventIssues, func(ctx context.Context, e *webhook.IssuesEvent) error {
				select {
				case <-recorded:
					done <- e.Issue.Title
					return nil
				case <-ctx.Done():
					return ctx.Err() // Forgejo hung up: the work is abandoned
				}
			})
			bot := httptest.NewServer(h)
			defer bot.Close()
			if _, _, err := srv.Client().Repos.CreateHook(ctx, me, "app", forgejo.CreateHookRequest{
				Type: forgejo.HookTypeForgejo, Active: true, Events: []string{"issues"},
				Config: forgejo.HookConfig{"url": bot.URL, "content_type": "json", "secret": secret},
			}); err != nil {
				t.Fatal(err)
			}
			var stop func()
			if durable {
				w, err := webhook.NewWorker(q, r)
				if err != nil {
					t.Fatal(err)
				}
				wctx, cancel := context.WithCancel(ctx)
				ran := make(chan error, 1)
				go func() { ran <- w.Run(wctx) }()
				stop = func() {
					cancel()
					if err := <-ran; err != nil {
						t.Error(err)
					}
				}
			}
			if _, _, err := srv.Client().Issues.Create(ctx, me, "app", forgejo.CreateIssueRequest{Title: "slow work"}); err != nil {
				t.Fatal(err)
			}
			wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			defer cancel()
			if err := srv.WaitDeliveries(wctx); err != nil {
				t.Fatal(err)
			}
			ds := srv.Deliveries()
			close(recorded)
			if len(ds) != 1 {
				t.Fatalf("%d deliveries", len(ds))
			}
			d := ds[0]
			if !durable {
				if d.Err == "" || !strings.Contains(d.Err, "Timeout") || d.Status != 0 {
					t.Errorf("the slow receiver's delivery: status %d, err %q", d.Status, d.Err)
				}
				select {
				case title := <-done:
					t.Errorf("the work was done (%q) although the delivery failed", title)
				default:
				}
				// Nothing is retried: the event is gone.
				if err := srv.WaitDeliveries(wctx); err != nil || len(srv.Deliveries()) != 1 {
					t.Errorf("retried: %d deliveries", len(srv.Deliveries()))
				}
				return
			}
			if d.Err != "" || d.Status != 202 {
				t.Errorf("the durable receiver's delivery: status %d, err %q", d.Status, d.Err)
			}
			if title := <-done; title != "slow work" {
				t.Errorf("work done for %q", title)
			}
			stop()
			if q.Len() != 0 {
				t.Errorf("%d left in the queue", q.Len())
			}
		})
	}
}

// TestDeliveryTimeoutDefault: the fake waits as long as Forgejo's default
// DELIVER_TIMEOUT.
func TestDeliveryTimeoutDefault(t *testing.T) {
	srv := NewServer(t)
	if got := srv.dq.client.Timeout; got != 5*time.Second || DefaultDeliveryTimeout != 5*time.Second {
		t.Errorf("delivery timeout %s", got)
	}
	srv = NewServer(t, WithDeliveryTimeout(time.Second))
	if got := srv.dq.client.Timeout; got != time.Second {
		t.Errorf("WithDeliveryTimeout(1s): %s", got)
	}
}

// TestGETHookDelivery: a hook whose http_method is GET gets the payload in
// the query, as Forgejo sends it, and webhook's parser reads it.
func TestGETHookDelivery(t *testing.T) {
	ctx := context.Background()
	srv := NewServer(t)
	me := srv.DefaultUser()
	srv.AddRepo(me, "app")
	p, _ := webhook.NewParser(webhook.WithSecret("s"))
	r := webhook.NewRouter()
	h, err := webhook.NewHandler(p, r)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan *webhook.IssuesEvent, 1)
	webhook.On(r, webhook.EventIssues, func(_ context.Context, e *webhook.IssuesEvent) error { got <- e; return nil })
	bot := httptest.NewServer(h)
	defer bot.Close()
	if _, _, err := srv.Client().Repos.CreateHook(ctx, me, "app", forgejo.CreateHookRequest{
		Type: forgejo.HookTypeForgejo, Active: true, Events: []string{"issues"},
		Config: forgejo.HookConfig{"url": bot.URL + "/hook?env=prod", "content_type": "json", "secret": "s", "http_method": "GET"},
	}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := srv.Client().Issues.Create(ctx, me, "app", forgejo.CreateIssueRequest{Title: "via GET"}); err != nil {
		t.Fatal(err)
	}
	if err := srv.WaitDeliveries(ctx); err != nil {
		t.Fatal(err)
	}
	if d := srv.Deliveries()[0]; d.Err != "" {
		t.Fatalf("%+v", d)
	}
	e := <-got
	if e.ContentType() != "query" || e.Action != webhook.IssueOpened || e.Issue.Title != "via GET" || len(e.RawBody()) != 0 {
		t.Errorf("%+v", e)
	}
}
