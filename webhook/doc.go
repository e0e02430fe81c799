// Package webhook receives Forgejo webhook deliveries: it verifies their
// signature, parses them into typed events built on the API models of
// package forgejo, and dispatches them to per-event-type functions.
//
// It reads what Forgejo (and Gitea) send to hooks of type forgejo, gitea and
// gogs, with content type json or form, from repository, user, organization
// and system hooks.
//
// # Receiving
//
// A [Parser] holds the hook's secret (or several, while rotating one) and a
// body bound; a [Router] holds the event functions. A [Handler] serves HTTP
// with the two:
//
//	p, err := webhook.NewParser(webhook.WithSecret(os.Getenv("HOOK_SECRET")))
//	if err != nil { ... }
//	r := webhook.NewRouter()
//	webhook.On(r, webhook.EventPush, func(ctx context.Context, e *webhook.PushEvent) error {
//		log.Printf("%s pushed %d commits to %s", e.Sender.Login, len(e.Commits), e.Branch())
//		return nil
//	})
//	h, err := webhook.NewHandler(p, r, webhook.WithGuard(webhook.NewMemoryGuard(0)))
//	if err != nil { ... }
//	http.Handle("POST /forgejo-hook", h)
//
// The handler answers 2xx only once the event's function returned nil, and
// 4xx for anything it rejects (see [Error.StatusCode]), without calling
// anything. For a delivery that came another way (a queue, a serverless
// function), [Parser.Parse] takes the body and the headers. Hooks
// configured with the GET method (web UI only) send the payload in the
// query parameter payload; [Parser.ParseRequest] and the Handler read it.
//
// # Durable mode
//
// Forgejo never retries a delivery, and gives up on one not answered
// within DELIVER_TIMEOUT (5 s by default). For work that takes longer, or
// that must survive a restart, give the Handler a queue instead of a
// Router, and the Router to a [Worker]:
//
//	// in the receivers:
//	h, err := webhook.NewHandler(p, nil, webhook.WithQueue(q))
//	http.Handle("POST /forgejo-hook", h) // verify, store, answer 202
//	// and in the workers (the same process or others):
//	w, err := webhook.NewWorker(q, r, webhook.WithWorkerGuard(g))
//	err = w.Run(ctx)
//
// The Handler then stores each verified delivery ([Queue.Enqueue]) and
// answers 2xx only once it is stored (503 when the queue is full, 500 when
// it failed, so that Forgejo records the failure); a [Worker] runs the
// functions with at-least-once semantics: leases with a visibility
// timeout, retries with the backoff of a forgejo.RetryPolicy, dead
// letters ([DeadLetterStore]), the guard applied. [MemoryQueue] serves one
// process; [Queue], [WorkQueue] and [DeadLetterStore] are the contract for
// a shared store. The guide has the failure table.
//
// # Event types
//
// Dispatch is on X-Forgejo-Event-Type (falling back to X-Gitea-Event-Type
// and X-Gogs-Event-Type), the precise event, never on X-Forgejo-Event, which
// merges sub-events and is empty for package events; [EventType.Family]
// gives the latter. Each [EventType] constant names the payload type it
// parses into; a type this package does not know parses into an
// [*UnknownEvent] carrying the raw JSON. Every event embeds a [Delivery]
// with the delivery ID, the event type and the bytes received.
//
// # Signatures
//
// Forgejo signs the JSON payload with HMAC-SHA256 keyed with the hook's
// secret ([Sign]); for a form hook the signature covers the JSON in the
// payload field, not the form body. The parser compares in constant time
// against X-Forgejo-Signature, falling back to X-Gitea-Signature,
// X-Gogs-Signature and X-Hub-Signature-256. A hook configured without a
// secret is accepted only with [AllowUnsigned].
//
// # Serving
//
// A receiver reachable from the network must bound how long a sender may
// hold a connection. [Handler] gives the body [DefaultReadTimeout] (5 s,
// Forgejo's DELIVER_TIMEOUT; [WithReadTimeout] changes it) and answers
// 408 after it, and [Parser.ParseRequest] stops when the request's context
// ends; the rest is the http.Server's, so set all of these:
//
//	srv := &http.Server{
//		Handler:           mux,
//		ReadHeaderTimeout: 5 * time.Second,  // Forgejo sends its headers at once
//		ReadTimeout:       10 * time.Second, // the whole request, body included
//		WriteTimeout:      15 * time.Second, // longer than your event functions take
//		IdleTimeout:       time.Minute,      // keep-alive connections
//		MaxHeaderBytes:    64 << 10,         // a delivery's headers are about 1.5 KiB
//	}
//
// (http.Server's zero values mean no limit at all, and DefaultMaxHeaderBytes
// is 1 MiB.) forgego webhook listen sets them so.
//
// # What the signature does not cover
//
// Forgejo signs the payload, not the headers, so the parser also checks
// what the headers claim:
//
//   - The delivery ID is read in its canonical form ([CanonicalDeliveryID]:
//     a UUID in upper case, in braces or as a urn:uuid: URN is the
//     lower-case hyphenated UUID Forgejo sends; any other ID is kept as it
//     is, trimmed), so its forms are one delivery for a [DeliveryGuard]. A
//     request whose headers name two different delivery IDs or event types
//     (a repeated header, two values in one line, the X-Gitea-*, X-Gogs-*
//     or X-GitHub-* mirror disagreeing) is refused with ErrAmbiguous. With a
//     guard, a delivery without an ID is keyed on the SHA-256 of its
//     payload.
//   - A payload whose shape contradicts its event type is refused with
//     ErrEventMismatch: each type's payload carries a key that identifies
//     it (a push's ref, an issues event's issue, a pull request event's
//     pull_request, a comment's comment, a release's release, a wiki
//     event's page, a package event's package, an Actions run's run, ...)
//     and none of another type's; within the sub-events that share a
//     payload type the action tells them apart (issues: opened, edited,
//     closed, reopened; issue_assign: assigned, unassigned; issue_label:
//     label_updated, label_cleared; issue_milestone: milestoned,
//     demilestoned; the pull_request ones likewise, with
//     pull_request_sync's synchronized and pull_request_review_request's
//     review_requested and review_request_removed), and for reviews the
//     review's type. Every one of the 146 captured deliveries is refused
//     under every other event type.
//
// What cannot be told apart: a payload whose action no rule knows (a newer
// Forgejo's) is accepted under any sub-event of its family; a review
// without review.type under any of the three review types; an Actions run
// event whose action is not failure, recover or success under any of the
// three (their rules follow Forgejo's source, no delivery was captured);
// and under an event type this package does not know, any payload is an
// [*UnknownEvent]. A captured delivery resent unchanged under a new
// delivery ID is a new delivery to a guard (as Forgejo's own replay is):
// serve hooks over TLS.
//
// # Secrets
//
// No type of this package shows a secret when printed with fmt, logged
// with log/slog or encoded as JSON: a [Parser]'s secrets, [BuildOptions]'
// Secret and Authorization, and the Authorization header among a
// delivery's headers ([Delivery.Header], [Outgoing.Header]) render as
// "***". The values themselves are unchanged.
//
// # Sending
//
// [Build] produces the body and header lines Forgejo 15 sends for an event,
// for test servers and tools that play the part of Forgejo.
//
// The module's webhooks guide (linked from its README) has the event-type
// table and the quirks of Forgejo 15's deliveries.
package webhook
