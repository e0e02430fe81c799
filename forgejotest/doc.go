// Package forgejotest is a fake Forgejo for tests: an in-process HTTP server
// on 127.0.0.1 that keeps users, repositories, issues, pull requests,
// notifications and the rest in memory and answers the Forgejo REST API v1
// with the wire format of a real instance (the bodies captured from
// codeberg.org are its reference), hazards included.
//
//	srv := forgejotest.NewServer(t)
//	srv.AddRepo("alice", "demo")
//	client := srv.Client() // a *forgejo.Client authenticated as srv.DefaultUser()
//	issue, _, err := client.Issues.Create(ctx, "alice", "demo", forgejo.CreateIssueOption{Title: "hi"})
//	if srv.Count("issueCreateIssue") != 1 { ... }
//
// # Wire behaviour
//
// Listings send X-Total-Count and, where Forgejo does, a Link header with
// rel next, prev, first and last. The page size is clamped to
// max_response_items (50 unless [WithMaxResponseItems] says otherwise) while
// Link echoes the limit that was asked for. Listings for which Codeberg sends
// no Link (labels, milestones, issue comments, forks, stargazers, topics,
// pull request reviews, commits and files) send only X-Total-Count. Past the
// end a listing answers 200 []. On forks and stargazers a limit without a
// page returns the whole collection, as Codeberg does. Errors are Forgejo's
// {"message", "url", "errors"} JSON bodies; an unknown route is a text/plain
// "404 page not found"; an operation that needs a token answers 401
// {"message":"token is required"} without one.
//
// # Faults and rate limits
//
// [Server.Inject] queues a [Fault] for an operation (by operationId) or a
// method and path: a sequence of statuses with Retry-After in either form, a
// connection reset, a delay, a truncated or an oversized body.
// [WithRateLimit] emulates Codeberg's edge rate limiter: its
// ratelimit-policy and ratelimit headers on every response, failed requests
// consuming quota, and a real 429 with Retry-After once the quota is spent.
// [WithClock] makes time deterministic.
//
// # Assertions
//
// [Server.Requests] returns every request received (method, path, query,
// body, operationId, the status answered and any fault applied), and
// [Server.Count] counts them by operationId.
//
// # Differences from a real Forgejo
//
// There is no git: branches are names pointing at synthetic commit ids, pull
// requests merge without conflicts, and auto_init creates the default branch
// with one commit. Permissions are simplified: the owner of a repository and
// site administrators may do everything; any signed-in user may file issues
// and comments, star, fork and open pull requests; the poster of an issue may
// edit it. Operations the fake does not implement answer 501 with a JSON
// message naming the operation, so a test never mistakes them for a missing
// route.
package forgejotest
