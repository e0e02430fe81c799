// Package forgeredis is forgego on Redis: a Forgejo rate-limit quota
// shared among any number of processes ([Pacer]), and the shared store of
// webhook deliveries for receivers and workers in many processes ([Queue],
// a webhook.WorkQueue and webhook.DeadLetterStore on Redis Streams, and
// [Guard], a webhook.DeliveryGuard). It needs Redis 6.2 or later
// (XAUTOCLAIM); CI runs Debian 12's 7.0.15.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
//	q, err := forgeredis.NewQueue(rdb, "hooks")
//	guard, err := forgeredis.NewGuard(rdb, "hooks")
//	// receivers: verify, store, answer 202
//	h, err := webhook.NewHandler(parser, nil, webhook.WithQueue(q))
//	http.Handle("POST /hook", h)
//	// workers: run the functions of a webhook.Router, each delivery ID once
//	w, err := webhook.NewWorker(q, router, webhook.WithWorkerGuard(guard))
//	err = w.Run(ctx)
//
// # The quota
//
// Codeberg's budget (2000 requests per 10 minutes) is counted per token or
// per address, not per process: workers that share a token and each pace
// against their own view of the budget together run into 429s. A [Pacer]
// installed in every worker's client makes them pace against one shared
// view instead:
//
//	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
//	pacer, err := forgeredis.NewPacer(rdb, "codeberg.org/ci-bot")
//	...
//	client, err := forgejo.NewClient(
//		forgejo.WithBaseURL("https://codeberg.org"),
//		forgejo.WithToken(token),
//		forgejo.WithPacer(pacer),
//		forgejo.WithRateLimitPacing(forgejo.Pacing{MaxWait: 11 * time.Minute}),
//	)
//
// # How it works
//
// The state of one quota is a Redis hash: an estimate of the requests left
// in the current window, an upper bound of the window's end, the quota and
// window from RateLimit-Policy, the reservations handed out for later
// windows, the requests in flight, and an optional block until a 429's
// Retry-After. One Lua script updates it atomically, in one round trip,
// with Redis's own clock (TIME), so the processes' clocks do not matter.
//
// Before each request, Reserve takes one request from the estimate while it
// lasts; once it is spent, it hands out slots in the following windows, in
// order, a quota per window, and returns the wait until that slot's window
// opens. After each response, Observe merges what the instance said: a
// snapshot of a fresh window sets the estimate; within a window the earlier
// reset wins, and a remaining lower than the estimate (someone outside the
// fleet spends the same quota) lowers it to that remaining less the
// requests in flight. A 429 with Retry-After makes every process wait until
// then.
//
// # When Redis is down
//
// Every Redis call is bounded by a short timeout ([WithPacerTimeout], 200 ms by
// default), whatever the Redis client's own settings. When Redis does not
// answer in time, or answers with an error, Reserve returns an error
// wrapping [ErrUnavailable]: the client paces that request with its own
// local pacing (which has followed every response all along), reports it
// to the PacerFallback hook ([forgejo.Hooks]), and never fails the
// call for it. For a cooldown after a failure ([WithPacerCooldown], 1 s) Reserve
// fails at once without asking Redis, so a hanging Redis costs one timeout
// per cooldown rather than one per request.
//
// # Keys
//
// The key is [DefaultPacerPrefix] (or [WithPacerPrefix]'s) followed by the
// name given to [NewPacer]. Use one name per quota, the same in every process
// that shares it: per token and instance. Never put the token in the name:
// key names are seen by anyone who can list keys and show up in Redis's
// logs and monitoring tools. NewPacer refuses a name that holds something shaped
// like a Forgejo token.
//
// # Limits
//
// The model assumes the instance's windows are fixed (each starts when the
// previous one ends), as Codeberg's and forgejotest's are; its resets are
// whole seconds rounded up, so requests sent in the last second before a
// reset are charged to the next window too. The client's Pacing.MaxWait
// must cover a window (Codeberg: 10 minutes): a wait cut short by it sends
// the request before its slot. Pacing.Spread has no effect with a Pacer.
// The pacer follows the request limit closest to exhaustion that the
// responses report.
package forgeredis
