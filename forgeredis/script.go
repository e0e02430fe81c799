package forgeredis

import (
	_ "embed"

	"github.com/redis/go-redis/v9"
)

// The shared state is one Redis hash per quota (the Pacer's key). Every
// field is an integer; times are milliseconds on Redis's own clock (TIME),
// so the processes' clocks never matter. An absent field means "unknown".
//
//	est    requests that may still be let through in the current window
//	reset  upper bound of the current window's end
//	q, w   the quota and its window (from RateLimit-Policy)
//	ahead  reservations already handed out in windows after the current one
//	infl   requests let through whose response has not been observed yet
//	late   requests let through in the last granule (1 s) before reset: the
//	       server may already count them in the next window
//	block  nobody goes before this (a 429's Retry-After)
//	sent   requests charged to the current window: let through in it, or
//	       carried into it (reservations, in flight, late)
//
// One script does both operations, so each is one atomic round trip.
//
// ARGV[1] is the mode, "r" (reserve) or "o" (observe); ARGV[2] the granule
// of the server's reset in ms. Observe adds: ARGV[3] status, ARGV[4] "1"
// when a snapshot came, ARGV[5] its remaining, ARGV[6] its reset in ms (""
// when it had none), ARGV[7] its quota (0: unknown), ARGV[8] its window in
// ms (0: unknown), ARGV[9] Retry-After in ms (0: none).
//
// Reserve returns how long to wait in ms, always for a slot it has counted:
// the client sends the request after that wait without asking again.
//
//go:embed lua/pacer.lua
var pacerLua string
var script = redis.NewScript(pacerLua)
