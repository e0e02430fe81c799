// Package forgejo is a client for the Forgejo REST API v1, the API that
// Codeberg.org and every self-hosted Forgejo (and, largely, Gitea) serve.
//
// Build one [Client] per instance and share it: it is safe for concurrent use
// and does no network I/O until a call is made.
//
//	var opts []forgejo.ClientOption // Codeberg unless WithBaseURL says otherwise
//	if tok := os.Getenv("FORGEJO_TOKEN"); tok != "" {
//		opts = append(opts, forgejo.WithToken(tok)) // a blank token is refused
//	}
//	client, err := forgejo.NewClient(opts...)
//	if err != nil {
//		return err // a *forgejo.ValidationError: a bad option
//	}
//	repo, _, err := client.Repos.Get(ctx, "forgejo", "forgejo")
//
// Without a token the client reads public data, as Codeberg allows
// anonymous reads (at a lower rate); the package example runs this against a
// test server.
//
// Every call takes a [context.Context] first and returns the decoded value, a
// [*Response] carrying the HTTP metadata (paging, total count, attempts), and
// an error.
//
// # Services and names
//
// The operations are grouped into services on [Client]: Repos, PullRequests,
// Issues, Actions, Orgs, Users, Admin, Notifications, Packages, Settings,
// ActivityPub and Misc. A method is a verb, then the noun when it is not the
// service's own resource: client.Issues.Get, client.Issues.ListComments,
// client.Repos.ListBranches, client.PullRequests.Merge. Every collection is
// List… (with a ListIter variant when it pages), one item is Get…, a partial
// update is Edit…, a yes-or-no check is Is…. A noun that exists at several
// scopes names its scope: client.Actions.ListRepoSecrets,
// client.Actions.ListOrgSecrets. Where go-github has the same operation the
// method has go-github's service and name: a repository's labels are
// client.Issues.ListLabels, an issue's client.Issues.ListLabelsByIssue and
// client.Issues.AddLabelsToIssue.
//
// Each method's doc comment ends with the HTTP method, the route and the
// operationId of Forgejo's API reference, so a route or an operationId found
// there leads to the method; [Operations] lists them all.
//
// The arguments are, in order: the path parameters, a pointer to the query
// parameters when the operation has any (nil sends none), the request body,
// and per-call options ([RequestOption]: [Sudo], [OTP], [Header],
// [QueryParam], [IfNoneMatch], [IfModifiedSince]):
//
//	issues, _, err := client.Issues.List(ctx, "forgejo", "forgejo",
//		&forgejo.IssueListOptions{State: forgejo.StateOpen},
//		forgejo.Sudo("alice"))
//
// Operations that return file content (raw files, archives, diffs, Actions
// logs and artifacts) return it whole, bounded by [WithMaxDownloadBytes], and
// also have an Open… form returning an [io.ReadCloser]:
// client.Repos.GetRawFile reads the file, client.Repos.OpenRawFile streams it.
//
// # Errors
//
// Errors are values to inspect with [errors.As] and [errors.Is]. No error
// string, log line or hook event carries a credential. The types:
//
//   - [*APIError]: the instance answered with a non-2xx status.
//   - [*ScopeError]: a 403 refusing a token that lacks a scope; it names the scopes and wraps its [*APIError].
//   - [*TransportError]: no usable response arrived; its [TransportKind] says why.
//   - [*DecodeError]: a 2xx body did not fit the model.
//   - [*ValidationError]: an argument or option was rejected before anything was sent.
//   - [*RetriesExhaustedError]: the call was repeated and its last attempt failed too.
//   - [*AuthError]: the [TokenSource] supplied no usable token; nothing was sent.
//   - [*UploadError]: a streamed [Upload]'s content did not hold its declared size.
//   - [*UnsupportedOperationError]: the server's release does not serve the operation (refused before sending, or the router's 404).
//   - [*PanicError]: a [TokenSource] or a [Pacer] panicked, recovered.
//   - [*WalkTruncatedError]: a page walk stopped with pages still offered.
//   - [*RunQueuedError]: a workflow run stayed waiting for a runner past its limit or its context.
//   - [*RunNotFoundError]: a dispatched workflow's run could not be found where the server did not name it.
//   - [*JobRerunError]: a job whose log was followed was run again; the log written is the followed attempt's.
//
// The sentinels, for [errors.Is]:
//
//   - [ErrBadRequest]: an [*APIError] with status 400.
//   - [ErrUnauthorized]: status 401.
//   - [ErrForbidden]: status 403.
//   - [ErrNotFound]: status 404.
//   - [ErrConflict]: status 409.
//   - [ErrUnprocessable]: status 422.
//   - [ErrLocked]: status 423.
//   - [ErrRateLimited]: status 429.
//   - [ErrStaleFile]: a file update or delete refused because the file changed since it was read.
//   - [ErrNoSigningKey]: the instance has no signing key.
//   - [ErrTokenScope]: matches every [*ScopeError].
//   - [ErrUnsupportedOperation]: matches every [*UnsupportedOperationError].
//   - [ErrUploadTooShort]: an [*UploadError]'s content ended before its declared size.
//   - [ErrUploadTooLong]: an [*UploadError]'s content held more than its declared size.
//   - [ErrRunQueued]: matches every [*RunQueuedError].
//   - [ErrRunNotFound]: matches every [*RunNotFoundError].
//   - [ErrJobRerun]: matches every [*JobRerunError].
//
// [StatusCode] returns the status of the [*APIError] an error is or wraps.
//
// A token that lacks a scope is refused with a [*ScopeError] naming the
// scopes the server asked for; every scope it lists is required, although
// the message says "at least one of", and where two checks are nested it
// names only the first that fails. [Operation.Scope] (and each method's doc)
// states what an operation requires, as measured on Forgejo 15.0.3. A token
// is checked even on routes anonymous callers may read, so a narrow token can
// lose reads an anonymous call has.
//
// # Retries
//
// Each operation states its own [RetryEligibility] in its doc comment: reads
// may be repeated, a call that could create something twice is never
// repeated, and a write that states a whole end state (adding a label,
// setting a secret) may be. The client's [RetryPolicy] says how many attempts
// and how long to wait between them; Retry-After is honoured and clamped.
//
// # Pagination
//
// Listings send page and limit together, always. The next page comes from the
// Link header only, never from counting items, because instances clamp the
// page size silently. [WalkPages], [All] and [Collect] walk any listing; each
// generated listing also has an Iter variant returning an [iter.Seq2].
//
// # Actions
//
// Beside the Actions operations, [ActionsService] has the tasks a bot or a
// CI integration performs: [ActionsService.RunWorkflow] dispatches a
// workflow and returns the run it started, [ActionsService.WaitRun] (and
// [ActionsService.WaitJob]) waits for it to end without hanging on a queue
// no runner serves ([*RunQueuedError]), [ActionsService.FollowJobLog] streams
// a job's log as it grows, and [ActionsService.FindRunArtifact] with
// [ActionsService.DownloadArtifactTo] fetches what it built. Jobs, logs and
// artifacts are Forgejo 16.0's: on Forgejo 15 these fail at once with an
// [*UnsupportedOperationError] naming 16.0.
//
// # Enumerations
//
// Fields the spec enumerates have named string types with constants
// ([StateType] and [StateOpen], [MergeStyle] and [MergeStyleSquash],
// [HookType], [AccessMode] for team and collaborator permissions, ...). The types are open: a value a newer
// instance sends decodes unchanged, so compare with the constants and keep a
// default case.
//
// # Observing calls
//
// [Hooks] is one struct of optional funcs, set with [WithHooks]: Request,
// Response and Error for every attempt, Retry before each backoff,
// RateLimit, RateLimitWait and PacerFallback for pacing, StartCall and
// EndCall around a whole call (tracing), InjectHeaders for trace
// propagation. A nil field costs nothing; several WithHooks combine.
// Everything a hook is handed is redacted already, and a panicking hook
// never fails a call: it is recovered and reported once, to
// Hooks.HookPanic or slog.Default(). [NewSlogHooks] logs through
// log/slog; the forgejootel module records OpenTelemetry traces and
// metrics.
//
// More on retries, errors, pagination and observability:
// https://codeberg.org/forgego/forgejo/src/branch/main/docs
package forgejo
