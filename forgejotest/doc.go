// Package forgejotest is a fake Forgejo for tests: an in-process HTTP server
// on 127.0.0.1 that keeps users, repositories, issues, pull requests,
// notifications and the rest in memory and answers the Forgejo REST API v1
// with the wire format of a real instance (the bodies captured from
// codeberg.org are its reference), hazards included.
//
// It fakes the areas programs use: repositories (create for a user or an
// organization, edit, delete, fork, list, search, topics, collaborators,
// branches and branch protections, tags, compare, single commits, commit
// statuses, topic search), files (contents of a
// file or a directory, raw files, create, update and delete with the sha
// guard, the git tree with its paging), releases and their attachments
// (streamed, up to a default Forgejo's 2048 MiB a file:
// [WithMaxAttachmentSize]), organizations
// (members, public members, teams with their members and repositories,
// organization labels), repository, organization and user hooks, issues
// (search across repositories, comments, labels, milestones, reactions,
// attachments, dependencies, tracked times and stopwatches, deadlines,
// subscriptions, pins, the timeline), pull requests (merge, reviews, review
// requests, files, diff and patch), notifications, watches, the wiki, deploy
// keys, tag protections, push mirrors, transfers, git data (references,
// annotated tags, blobs, notes, the commit log, archives), issue templates,
// and the instance's settings, templates and Markdown rendering (a small
// renderer of the common cases).
// [ImplementedOperations] lists them. [Server.Handle] answers any operation,
// implemented or not, with a handler of the test's own.
//
//	srv := forgejotest.NewServer(t)
//	srv.AddRepo("alice", "demo")
//	client := srv.Client() // a *forgejo.Client authenticated as srv.DefaultUser()
//	issue, _, err := client.Issues.Create(ctx, "alice", "demo", forgejo.CreateIssueRequest{Title: "hi"})
//	if srv.Count("issueCreateIssue") != 1 { ... }
//
// # Wire behaviour
//
// Listings send X-Total-Count and, where Forgejo does, a Link header with
// rel next, prev, first and last. The page size is clamped to
// max_response_items (50 unless [WithMaxResponseItems] says otherwise) while
// Link echoes the limit that was asked for. Listings for which Codeberg sends
// no Link (labels, milestones, issue comments, forks, stargazers, topics,
// pull request reviews and commits) send only X-Total-Count. Past the
// end a listing answers 200 []. On forks and stargazers a limit without a
// page returns the whole collection, as Codeberg does. Errors are Forgejo's
// {"message", "url", "errors"} JSON bodies; an unknown route is a text/plain
// "404 page not found"; an operation that needs a token answers 401
// {"message":"token is required"} without one.
//
// # Routing
//
// Requests are routed with the client's own operations table
// (forgejo.Operations()), with Forgejo's precedence of static segments over
// parameters: a {filepath} spans several segments, pulls/{index}.diff is
// the diff, /repos/issues/search is the issue search and not a repository.
// Every one of the table's operations reaches its handler or a 501 naming
// it; a path that is no operation at all is a plain 404.
//
// [WithRelease] makes it answer as a given Forgejo release (11.0, 13.0, 14.0,
// 15.0 or 16.0: [Releases]): a route that release lacks answers as its
// router does, 404 "404 page not found" or an empty 405 when the path is
// served for another method, and /version reports it; by default it serves
// the pinned spec (the newest development build).
//
// # Webhooks
//
// Hooks created through the API receive deliveries when the fake's state
// changes: issues opened, edited, closed and reopened, issue and pull
// request comments, label changes, pull requests opened and merged, pushes
// made through the contents API, releases published, updated and deleted,
// pull request reviews, repositories created (for organization and user
// hooks), and the hook test endpoint. Deliveries are signed with the hook's
// secret and carry Forgejo's exact headers and payloads (the captures in
// webhook/testdata are the reference); they go out in order on a background
// sender, so an API call never waits for or fails because of a receiver.
// [Server.Deliveries] records each attempt and its outcome;
// [Server.WaitDeliveries] waits until all queued ones have been sent.
// Only forgejo, gitea and gogs hooks are delivered to.
//
// # Actions
//
// Secrets (write-only), variables, runners and registration tokens per
// repository, user, organization and instance; workflow dispatch reads the
// workflow file from .forgejo/workflows (or .gitea/workflows) at the ref and
// makes a run with its jobs; a push to a branch starts the workflows that
// name push. The file is read as far as that needs (name, run-name, on:
// push with its branch filters, workflow_dispatch inputs, jobs with name,
// runs-on and needs); expressions and matrices are not evaluated. Runs move
// when a simulated [Runner] is attached ([Server.AttachRunner]): scripted
// steps, log lines, failures and artifacts, on the server's clock, with
// the action_run_* webhooks when a run ends; job logs answer Range and
// ?step=N as Forgejo 16 does. Without one, jobs wait, and
// [Server.RunActionJob] plays a runner by hand (tasks, logs, the automatic
// token); [Server.AddActionArtifact] gives a run an artifact.
//
// # Faults and rate limits
//
// [Server.Inject] queues a [Fault] for an operation (by operationId) or a
// method and path: a sequence of statuses with Retry-After in either form, a
// connection reset, a delay, a truncated or an oversized body.
// [WithRateLimit] emulates Codeberg's edge rate limiter: its
// ratelimit-policy and ratelimit headers on every response, failed requests
// consuming quota, and a real 429 with Retry-After once the quota is spent.
// [WithClock] makes time deterministic: give the server and the client one
// [FakeClock] and move it; [FakeClock.AutoAdvance] moves it whenever the
// client sleeps on it, so a polling client runs to its end at once.
//
// # Assertions
//
// [Server.Requests] returns every request received (method, path, query,
// body, operationId, the status answered and any fault applied), and
// [Server.Count] counts them by operationId.
//
// # Accounts and administration
//
// Accounts have SSH keys (checked, with Forgejo's minimum sizes and SHA256
// fingerprints), e-mail addresses, settings, OAuth2 applications, blocks,
// avatars and access tokens: a token created through the API (with Basic
// authentication, as Forgejo wants) authenticates, carries its scopes and
// stops working once deleted (see Token scopes, below).
// Site administrators create, edit, rename (the old name redirects), and
// delete users, create their organizations, repositories and keys, list
// e-mail addresses, manage system hooks (stored, not delivered to), cron
// tasks and quotas. An account an administrator creates must change its
// password before it may use the API, unless created with
// must_change_password false. Packages are seeded with [Server.AddPackage].
// GPG keys are read from their OpenPGP packets (key ids, addresses,
// subkeys, expiry) but no signature is verified: a key is added when one of
// its addresses is the account's, and a signature over the verification
// token is refused as a wrong one.
//
// # Token scopes
//
// Every route checks the scopes of an access token as Forgejo 15 does, from
// the requirement the client library records for its operation
// (forgejo.Operation.Scope, measured on Forgejo 15.0.3): a token lacking
// one is refused 403 "token does not have at least one of required
// scope(s): [read:user]" before the handler runs, even on routes anonymous
// callers may read, and where two checks are nested only the first that
// fails is named. [Server.AddToken] mints a token with given scopes, and
// [Server.AddRepositoryToken] a repository-restricted one; a token created
// through POST /users/{username}/tokens is held to its scopes too. The
// tokens of [Server.Token] and [Server.AddUser] carry every scope, and a
// password or no credential meets no scope check. A handler installed with
// [Server.Handle], and an operation the fake does not implement, check
// nothing. Operations newer than the measurement get their route group's
// scope (repository, admin or user).
//
// # Differences from a real Forgejo
//
// There is no git: each commit is a snapshot of the files of its branch,
// with synthetic commit ids, though blob and tree ids are git's own (so they
// match a real server's for the same content); pull requests merge without
// conflicts, and auto_init creates the default branch with one commit,
// "Initial commit", holding Forgejo's README and, when asked for, the
// .gitignore and LICENSE of the fake's own small templates (an unknown one
// is Forgejo's 500, with nothing created). A pull request's files, diff and line counts compare
// its head branch's files with its base branch's (not with their merge
// base), counting lines as git does; a pull request between branches that
// carry the same files changes one synthetic file. Permissions are simplified: the owner of a repository,
// owners of its organization and site administrators may do everything;
// teams and collaborators get what they were given; any signed-in user may
// file issues and comments, star, fork and open pull requests; the poster of
// an issue may edit it. Where Forgejo and Gitea differ the fake follows
// Forgejo: a stale file sha answers 409 on update and 400 on delete, a
// missing organization 404 "GetOrgByName", a removed reaction 200 (Gitea
// 1.27: 204), attachments carry their type, a fork into an organization
// that does not exist is 422 (Gitea 1.27: 404), compare sends its "files",
// a commenter is not notified of replies (Forgejo's participants are the
// poster and the reviewers), purging a user deletes the issues they opened
// elsewhere, deleting a missing e-mail address or blocking yourself is 204,
// anyone may list a user's packages, changing a missing file is 500 and
// one without a sha 422, archives are application/zip and application/gzip.
// Where both agree the fake does too: a team below admin without units is
// 500 "units permission should not be empty" (the message for site
// administrators only, as any 500 of a server in production mode), deleting
// a label that is not there is 204. The package's own tests run
// the same scenarios against the fake and a real server and say where they
// differ on purpose. Operations the fake does not implement answer 501 with a JSON
// message naming the operation, so a test never mistakes them for a missing
// route.
package forgejotest

// Layout of the source, for contributors (not in the package documentation,
// which is for users):
//
// The files are named after the library's services (ReposService,
// IssuesService, …). routes.go is the one route table, a function per
// service (reposRoutes, issuesRoutes, …), each row an operationId and its
// handler; the handlers are in h_<service>.go, large services split by
// sub-area with the service's prefix (h_repos_contents.go,
// h_repos_releases.go, h_issues_labels.go, h_users_keys.go, …). Find an
// operation's handler from its row in routes.go; a handler shared across
// services (hooks, attachments) lives with the first. router.go matches
// paths; the model is in state.go and state_<service>.go (areas with much
// state keep it next to their handlers: actionsState, accountsState).
// The contract suite (TestContract) is run by contract_test.go, its steps in
// contract_<service>_test.go.
