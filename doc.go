// Package forgejo is a client for the Forgejo REST API v1, the API that
// Codeberg.org and every self-hosted Forgejo (and, largely, Gitea) serve.
//
// Build one [Client] per instance and share it: it is safe for concurrent use
// and does no network I/O until a call is made.
//
//	client, err := forgejo.NewClient(forgejo.WithToken(os.Getenv("FORGEJO_TOKEN")))
//	if err != nil { ... }
//	repo, _, err := client.Repos.Get(ctx, "forgejo", "forgejo")
//
// Every call takes a [context.Context] first and returns the decoded value, a
// [*Response] carrying the HTTP metadata (paging, total count, attempts), and
// an error.
//
// # Errors
//
// Errors are values to inspect with [errors.As]: [*APIError] (the instance
// answered with a non-2xx status), [*TransportError] (no usable response),
// [*DecodeError] (a 2xx body did not fit the model), [*ValidationError] (an
// argument was rejected before anything was sent), [*RetriesExhaustedError]
// (the retry budget ran out) and [*WalkTruncatedError] (a page walk reached
// [MaxPages]). No error string, log line or observer event carries a
// credential.
//
// # Retries
//
// Each operation states its own [RetryEligibility] in its doc comment; the
// client's [RetryPolicy] says how many attempts and how long to wait between
// them. A call that could create something twice is never repeated. See
// docs/retries.md.
//
// # Pagination
//
// Listings send page and limit together, always. The next page comes from the
// Link header only, never from counting items, because instances clamp the
// page size silently. [WalkPages], [All] and [Collect] walk any listing; each
// generated listing also has an Iter variant returning an [iter.Seq2].
//
// # Files
//
// The request pipeline is pipeline.go; the retry engine is retry.go; errors are
// errors.go; the paginator is pagination.go with Link parsing in link.go;
// redaction and path safety are redact.go; telemetry is observer.go.
package forgejo
