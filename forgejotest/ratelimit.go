package forgejotest

import (
	"net/http"
	"strconv"
	"time"
)

// rateLimiter emulates Codeberg's edge: a fixed window of quota requests,
// windows counted from the server's start, every request (failed ones
// included) spending one. Guarded by Server.mu.
type rateLimiter struct {
	quota  int
	window time.Duration
	start  time.Time // start of the current window
	used   int
}

// take spends one request at now. It returns the headers to send, whether
// the request must be refused with 429, and the Retry-After seconds.
func (l *rateLimiter) take(now time.Time) (h http.Header, limited bool, retryAfter int) {
	if elapsed := now.Sub(l.start); elapsed >= l.window {
		l.start = l.start.Add(elapsed / l.window * l.window)
		l.used = 0
	}
	if now.Before(l.start) { // a clock that went backwards: stay in this window
		now = l.start
	}
	if l.used < l.quota {
		l.used++
	} else {
		limited = true
	}
	reset := ceilSeconds(l.start.Add(l.window).Sub(now))
	h = http.Header{}
	h["ratelimit-policy"] = []string{`"baseline";q=` + strconv.Itoa(l.quota) + ";w=" + strconv.Itoa(ceilSeconds(l.window))}
	h["ratelimit"] = []string{`"baseline";r=` + strconv.Itoa(l.quota-l.used) + ";t=" + strconv.Itoa(reset)}
	return h, limited, reset
}

// ceilSeconds rounds d up to whole seconds, at least 1.
func ceilSeconds(d time.Duration) int {
	s := int((d + time.Second - 1) / time.Second)
	return max(s, 1)
}
