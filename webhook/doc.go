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
// body bound. A [Handler] serves HTTP with it:
//
//	p, err := webhook.NewParser(webhook.WithSecret(os.Getenv("HOOK_SECRET")))
//	if err != nil { ... }
//	h := webhook.NewHandler(p, webhook.WithGuard(webhook.NewMemoryGuard(0)))
//	webhook.On(h, webhook.EventPush, func(ctx context.Context, e *webhook.PushEvent) error {
//		log.Printf("%s pushed %d commits to %s", e.Sender.Login, len(e.Commits), e.Branch())
//		return nil
//	})
//	http.Handle("POST /forgejo-hook", h)
//
// The handler answers 2xx only once the event's function returned nil, and
// 4xx for anything it rejects (see [Error.StatusCode]), without calling
// anything. For a delivery that came another way (a queue, a serverless
// function), [Parser.Parse] takes the body and the headers.
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
// # Sending
//
// [Build] produces the body and header lines Forgejo 15 sends for an event,
// for test servers and tools that play the part of Forgejo.
//
// The guide docs/webhooks.md in the module has the event-type table and the
// quirks of Forgejo 15's deliveries.
package webhook
