package webhook_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	"codeberg.org/forgego/forgejo/webhook"
)

// A receiver with two event functions: pushes and pull requests. Other
// event types are answered 200 and dropped; deliveries that fail
// verification are answered 4xx without calling anything.
func ExampleHandler() {
	parser, err := webhook.NewParser(webhook.WithSecret("s3cret"))
	if err != nil {
		panic(err)
	}
	r := webhook.NewRouter()
	webhook.On(r, webhook.EventPush, func(ctx context.Context, e *webhook.PushEvent) error {
		fmt.Printf("push to %s of %s: %d commit(s)\n", e.Branch(), e.Repository.FullName, len(e.Commits))
		return nil
	})
	webhook.On(r, webhook.EventPullRequest, func(ctx context.Context, e *webhook.PullRequestEvent) error {
		fmt.Printf("pull request #%d %s\n", e.Number, e.Action)
		return nil
	})
	h, err := webhook.NewHandler(parser, r, webhook.WithGuard(webhook.NewMemoryGuard(0)))
	if err != nil {
		panic(err)
	}

	srv := httptest.NewServer(h) // in a program: http.Handle("POST /hook", h)
	defer srv.Close()

	// Play Forgejo: sign and send three deliveries.
	send := func(t webhook.EventType, payload, secret string) {
		out := webhook.Build(t, []byte(payload), webhook.BuildOptions{Secret: secret, DeliveryID: string(t) + "-1"})
		req, _ := out.NewRequest(context.Background(), srv.URL)
		resp, err := srv.Client().Do(req)
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		fmt.Println(t, "->", resp.StatusCode)
	}
	send(webhook.EventPush, `{"ref": "refs/heads/main", "commits": [{"id": "ac43"}], "repository": {"full_name": "alice/app"}}`, "s3cret")
	send(webhook.EventPullRequest, `{"action": "opened", "number": 3, "pull_request": {"number": 3}}`, "s3cret")
	send(webhook.EventPush, `{"ref": "refs/heads/main"}`, "guessed")
	// Output:
	// push to main of alice/app: 1 commit(s)
	// push -> 200
	// pull request #3 opened
	// pull_request -> 200
	// push -> 401
}

// A message taken from a queue: the body and headers a front end stored.
// Parse verifies the bytes as they were received and returns the typed
// event.
func ExampleParser_Parse() {
	type message struct {
		Header http.Header
		Body   []byte
	}
	out := webhook.Build(webhook.EventIssueLabel,
		[]byte(`{"action": "label_updated", "number": 1, "issue": {"number": 1, "labels": [{"name": "bug"}]}}`),
		webhook.BuildOptions{Secret: "s3cret", DeliveryID: "8d2c"})
	msg := message{Header: out.HTTPHeader(), Body: out.Body}

	parser, err := webhook.NewParser(webhook.WithSecret("old-secret", "s3cret")) // rotating
	if err != nil {
		panic(err)
	}
	ev, err := parser.Parse(msg.Body, msg.Header)
	if err != nil {
		panic(err)
	}
	switch e := ev.(type) {
	case *webhook.IssuesEvent:
		fmt.Println(e.DeliveryID(), e.EventType(), e.EventFamily(), e.Action, e.Issue.Labels[0].Name)
	}

	// One changed byte, and the message is refused.
	msg.Body[10] ^= 1
	_, err = parser.Parse(msg.Body, msg.Header)
	var werr *webhook.Error
	fmt.Println(errors.Is(err, webhook.ErrBadSignature), errors.As(err, &werr) && werr.StatusCode() == http.StatusUnauthorized)
	// Output:
	// 8d2c issue_label issues label_updated bug
	// true true
}

// Sign is the HMAC-SHA256 Forgejo puts in X-Forgejo-Signature.
func ExampleSign() {
	fmt.Println(webhook.Sign("s3cret", []byte(`{"ref":"refs/heads/main"}`)))
	// Output: 232a5e067b6a5aa567ed5a1d21a0dffaf6ef0eeecb6bd9bcf43b3d5ef3fc4f43
}

// Durable mode: the Handler verifies and stores each delivery, answers
// 202 once it is stored, and a Worker runs the functions afterwards, at
// least once, retrying failures and keeping what keeps failing as a dead
// letter. A MemoryQueue serves one process; a shared store (Redis) lets
// receivers and workers on several machines share the work.
func ExampleWorker() {
	parser, err := webhook.NewParser(webhook.WithSecret("s3cret"))
	if err != nil {
		panic(err)
	}
	q := webhook.NewMemoryQueue(1000)
	// The receivers store; the Router is the workers'.
	h, err := webhook.NewHandler(parser, nil, webhook.WithQueue(q))
	if err != nil {
		panic(err)
	}
	r := webhook.NewRouter()
	done := make(chan string, 1)
	webhook.On(r, webhook.EventIssues, func(ctx context.Context, e *webhook.IssuesEvent) error {
		if e.Action == webhook.IssueOpened {
			done <- fmt.Sprintf("issue #%d opened: %s", e.Number, e.Issue.Title)
		}
		return nil
	})

	srv := httptest.NewServer(h) // in a program: http.Handle("POST /hook", h)
	defer srv.Close()
	out := webhook.Build(webhook.EventIssues, []byte(`{"action": "opened", "number": 7, "issue": {"number": 7, "title": "It broke"}}`),
		webhook.BuildOptions{Secret: "s3cret", DeliveryID: "4d2f"})
	req, _ := out.NewRequest(context.Background(), srv.URL)
	resp, err := srv.Client().Do(req)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println("answered", resp.StatusCode, "with", q.Len(), "stored")

	ctx, stop := context.WithCancel(context.Background())
	w, err := webhook.NewWorker(q, r, webhook.WithConcurrency(4), webhook.WithWorkerGuard(webhook.NewMemoryGuard(0)))
	if err != nil {
		panic(err)
	}
	ran := make(chan error)
	go func() { ran <- w.Run(ctx) }()
	fmt.Println(<-done)
	stop() // on SIGTERM: stop receiving, let running functions finish
	fmt.Println("drained:", <-ran == nil)
	// Output:
	// answered 202 with 1 stored
	// issue #7 opened: It broke
	// drained: true
}
