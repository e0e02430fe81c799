package forgejo

import (
	"context"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo/internal/durations"
)

// A huge wait from outside the process must become a
// bounded wait (MaxWait), never no wait, never a negative one, never a
// panic. The rule lives in internal/durations (saturating conversion) and
// its users: parseReset, parseIETFRateLimit and parseRateLimitDictionary
// clamp a reset to maxReset instead of dropping it, parseRetryAfter
// saturates, and reservePacer bounds a Pacer's wait.

// dhTransport answers every request with the next header set in turn (the
// last one repeats), body {}.
type dhTransport struct {
	mu      sync.Mutex
	headers []http.Header
	n       int
}

func (tr *dhTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	tr.mu.Lock()
	h := http.Header{}
	if len(tr.headers) > 0 {
		h = tr.headers[min(tr.n, len(tr.headers)-1)].Clone()
	}
	tr.n++
	tr.mu.Unlock()
	h.Set("Content-Type", "application/json")
	return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(strings.NewReader(`{}`)), Request: req}, nil
}

const dhMaxWait = 30 * time.Second

// dhLongest is the longest wait a count of seconds can say: whole seconds
// up to the bound of Duration.
const dhLongest = durations.Max / time.Second * time.Second

// dhWaits makes calls GETs through a paced client whose instance answers
// with headers in turn, and returns every wait the client slept.
func dhWaits(t *testing.T, calls int, headers []http.Header, opts ...ClientOption) []time.Duration {
	t.Helper()
	k := &rlClock{now: time.Unix(1_800_000_000, 0)}
	tr := &dhTransport{headers: headers}
	base := []ClientOption{WithBaseURL("https://forge.example"), WithClock(k), WithHTTPClient(&http.Client{Transport: tr}),
		WithRetryPolicy(RetryOff()), WithRateLimitPacing(Pacing{MaxWait: dhMaxWait})}
	c, err := NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	for range calls {
		if _, err := c.Do(context.Background(), &Request{Method: "GET", Path: "/x", Retry: RetryIdempotentOnly}, nil); err != nil {
			t.Fatalf("call failed: %v", err)
		}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]time.Duration(nil), k.sleeps...)
}

// TestHostileResetBecomesBoundedWait: a response says the budget is spent
// (remaining 0) and resets in a huge or absurd time. The next request must
// wait exactly one MaxWait (the reset clamped to a day, then bounded by
// MaxWait), never go at once; the same snapshot never costs a second wait.
// A reset that is malformed, or in the past, is no reset: those vectors
// must cost no wait (and never a negative one, nor a panic).
func TestHostileResetBecomesBoundedWait(t *testing.T) {
	const date = "Sun, 29 Nov 2026 12:00:00 GMT"
	cases := []struct {
		name string
		kv   []string
		wait bool // true: one MaxWait; false: no wait
	}{
		// The IETF RateLimit list (what Codeberg sends).
		{"IETF t 15 digits", []string{"RateLimit", `"b";r=0;t=999999999999999`}, true},
		{"IETF t a day and a second", []string{"RateLimit", `"b";r=0;t=86401`}, true},
		{"IETF t at the Duration's seconds bound", []string{"RateLimit", `"b";r=0;t=9223372036`}, true},
		{"IETF t past the Duration's seconds bound", []string{"RateLimit", `"b";r=0;t=9223372037`}, true},
		{"IETF t huge, with a policy", []string{"RateLimit", `"b";r=0;t=999999999999999`, "RateLimit-Policy", `"b";q=100;w=999999999999999`}, true},
		{"IETF t 16 digits is no Structured Field integer", []string{"RateLimit", `"b";r=0;t=9999999999999999`}, false},
		{"IETF t negative refused", []string{"RateLimit", `"b";r=0;t=-1`}, false},
		// The draft-07 dictionary.
		{"dictionary reset 12 digits", []string{"RateLimit", `limit=10, remaining=0, reset=999999999999`}, true},
		{"dictionary reset 16 digits", []string{"RateLimit", `limit=10, remaining=0, reset=9999999999999999`}, true},
		{"dictionary reset past int64", []string{"RateLimit", `remaining=0, reset=99999999999999999999999`}, true},
		// X-RateLimit-Reset: deltas, epochs, dates.
		{"X delta over a day", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "90000"}, true},
		{"X epoch seconds in year 9999", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "253402300799", "Date", date}, true},
		{"X epoch milliseconds in year 9999", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "253402300799999", "Date", date}, true},
		{"X epoch at int64 max", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "9223372036854775807", "Date", date}, true},
		{"X epoch past int64", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "99999999999999999999", "Date", date}, true},
		{"X epoch in year 9999, Date far past", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "253402300799", "Date", "Mon, 01 Jan 1001 00:00:00 GMT"}, true},
		{"X epoch, no Date", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "253402300799"}, true},
		{"X huge decimal delta", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "99999999999999999999.5"}, true},
		{"X decimal past float64", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", strings.Repeat("9", 400) + ".5"}, true},
		{"X decimal delta past a day", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "86400.001"}, true},
		{"X HTTP-date in year 9999", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "Fri, 31 Dec 9999 23:59:59 GMT", "Date", date}, true},
		{"X RFC 3339 in year 9999", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "9999-12-31T23:59:59Z", "Date", date}, true},
		{"RateLimit- epoch in year 9999", []string{"RateLimit-Remaining", "0", "RateLimit-Reset", "253402300799", "Date", date}, true},
		{"X negative delta is no reset", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "-5"}, false},
		{"X hugely negative delta is no reset", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "-99999999999999999999"}, false},
		{"X HTTP-date far past is no reset", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "Mon, 01 Jan 1001 00:00:00 GMT", "Date", date}, false},
		{"X exponent form is malformed", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "1e300"}, false},
		{"X Inf is malformed", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "Inf"}, false},
		{"X NaN is malformed", []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "NaN"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := rlHeader(tc.kv...)
			rl, ok := parseRateLimit(h, rlNow)
			if ok && rl.HasReset && (rl.Reset < 0 || rl.Reset > maxReset) {
				t.Errorf("parsed reset %v, want within [0, %v]", rl.Reset, maxReset)
			}
			if tc.wait && (!ok || !rl.HasReset || rl.Reset <= 0) {
				t.Errorf("parseRateLimit = %+v, %v; want a positive reset (clamped to %v)", rl, ok, maxReset)
			}
			// The hostile answer, then answers that say nothing.
			waits := dhWaits(t, 4, []http.Header{h, {}})
			var total time.Duration
			for _, w := range waits {
				if w < 0 {
					t.Errorf("negative wait %v", w)
				}
				total += w
			}
			switch {
			case tc.wait && (len(waits) != 1 || waits[0] != dhMaxWait):
				t.Errorf("waits %v, want exactly one MaxWait (%v): the budget is spent", waits, dhMaxWait)
			case !tc.wait && total != 0:
				t.Errorf("waits %v, want none: the reset is unknown or past", waits)
			}
		})
	}
}

// TestHostileRetryAfterBounded: a huge Retry-After is a long wait, clamped
// to MaxDelay, never a short one; a past date is no wait; a malformed one no
// hint. The value a Pacer is told is never negative.
func TestHostileRetryAfterBounded(t *testing.T) {
	const date = "Sun, 29 Nov 2026 12:00:00 GMT"
	const maxDelay = 8 * time.Second
	cases := []struct {
		name     string
		kv       []string
		ok       bool
		atLeast  time.Duration // the parsed wait is at least this
		delay    time.Duration // Client.delay with RespectRetryAfter, JitterNone, BaseDelay 1 s
		hasDelay bool          // false: the backoff (1 s) applies
	}{
		{"1e20 seconds in digits", []string{"Retry-After", "100000000000000000000"}, true, dhLongest, maxDelay, true},
		{"int64 max seconds", []string{"Retry-After", "9223372036854775807"}, true, dhLongest, maxDelay, true},
		{"just past the Duration's seconds bound", []string{"Retry-After", "9223372037"}, true, dhLongest, maxDelay, true},
		{"at the Duration's seconds bound", []string{"Retry-After", "9223372036"}, true, 9223372036 * time.Second, maxDelay, true},
		{"a thousand digits", []string{"Retry-After", strings.Repeat("9", 1000)}, true, dhLongest, maxDelay, true},
		{"leading zeros", []string{"Retry-After", "0000000000000000000000000003"}, true, 3 * time.Second, 3 * time.Second, true},
		{"HTTP-date in year 9999", []string{"Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT", "Date", date}, true, 24 * time.Hour, maxDelay, true},
		{"HTTP-date in year 9999, Date far past", []string{"Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT", "Date", "Mon, 01 Jan 1001 00:00:00 GMT"}, true, dhLongest, maxDelay, true},
		{"HTTP-date far past", []string{"Retry-After", "Mon, 01 Jan 1001 00:00:00 GMT", "Date", date}, true, 0, 0, true},
		{"exponent form is no hint", []string{"Retry-After", "1e20"}, false, 0, time.Second, false},
		{"negative is no hint", []string{"Retry-After", "-9223372036854775808"}, false, 0, time.Second, false},
	}
	c, err := NewClient(WithBaseURL("https://forge.example"), WithRetryPolicy(RetryPolicy{
		MaxAttempts: 3, BaseDelay: time.Second, MaxDelay: maxDelay, Jitter: JitterNone, RespectRetryAfter: true}))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, ok := parseRetryAfter(rlHeader(tc.kv...))
			if ok != tc.ok || d < 0 || d < tc.atLeast {
				t.Errorf("parseRetryAfter = %v, %v; want %v and at least %v", d, ok, tc.ok, tc.atLeast)
			}
			ae := &APIError{StatusCode: 429, retryAfter: d, hasRetryAfter: ok}
			if got := c.delay(1, ae); got != tc.delay {
				t.Errorf("delay = %v, want %v", got, tc.delay)
			}
		})
	}
}

// TestHostilePacerWait: a Pacer's wait is bounded by MaxWait; a negative
// one is outside the contract (zero means "send now"), the mark of a wait
// that wrapped: the client paces that request locally and tells the
// PacerFallback hook, as when the Pacer fails.
func TestHostilePacerWait(t *testing.T) {
	const local = 10 * time.Second // what the local snapshot asks for
	cases := []struct {
		name     string
		wait     time.Duration
		want     time.Duration
		fallback bool
	}{
		{"int64 max", durations.Max, dhMaxWait, false},
		{"a day", 24 * time.Hour, dhMaxWait, false},
		{"MaxWait and a nanosecond", dhMaxWait + 1, dhMaxWait, false},
		{"a second", time.Second, time.Second, false},
		{"zero", 0, 0, false},
		{"minus a nanosecond", -1, local, true},
		{"minus an hour", -time.Hour, local, true},
		{"int64 min", durations.Min, local, true},
		{"a wrapped millisecond count", dhWrapped(math.MaxInt64), local, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The first answer says the budget is spent for 10 s; the
			// Pacer lets the first request go, then answers tc.wait.
			p := &fakePacer{waits: []time.Duration{0, tc.wait}}
			rec := &fallbackRecorder{}
			waits := dhWaits(t, 2, []http.Header{rlHeader("RateLimit", `"b";r=0;t=10`), {}}, WithPacer(p), withObserver(rec))
			var got time.Duration
			if len(waits) > 0 {
				got = waits[0]
			}
			if len(waits) > 1 || got != tc.want {
				t.Errorf("waits %v, want one of %v", waits, tc.want)
			}
			rec.mu.Lock()
			fallbacks := len(rec.fallbacks)
			rec.mu.Unlock()
			if (fallbacks == 1) != tc.fallback || fallbacks > 1 {
				t.Errorf("%d fallbacks reported, want fallback %v", fallbacks, tc.fallback)
			}
		})
	}
}

// dhWrapped is what a Pacer computing ms·time.Millisecond without care
// returns for ms (negative for math.MaxInt64).
func dhWrapped(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }

// TestDelayArithmeticNeverWraps: the jittered backoff draws from
// [0, delay]; at the bound of Duration, delay+1 wrapped and the draw
// panicked.
func TestDelayArithmeticNeverWraps(t *testing.T) {
	for _, p := range []RetryPolicy{
		{MaxAttempts: 3, BaseDelay: durations.Max, MaxDelay: durations.Max, Jitter: JitterFull},
		{MaxAttempts: 3, BaseDelay: time.Second, MaxDelay: durations.Max, Jitter: JitterFull},
		{MaxAttempts: 3, BaseDelay: durations.Max, MaxDelay: durations.Max, Jitter: JitterFull, RespectRetryAfter: true},
	} {
		c, err := NewClient(WithBaseURL("https://forge.example"), WithRetryPolicy(p))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 2, 64, 1000} {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("policy %v, attempt %d: delay panicked: %v", p, n, r)
					}
				}()
				ae := &APIError{StatusCode: 503, retryAfter: durations.Max, hasRetryAfter: true}
				if d := c.delay(n, ae); d < 0 {
					t.Errorf("policy %v, attempt %d: delay %v", p, n, d)
				}
			}()
		}
	}
}
