// Package durations is the one place where a duration that comes from
// outside the process becomes a time.Duration: the instance's Retry-After
// and rate-limit resets and windows (the root package), and the waits Redis
// replies with (the forgeredis module, which imports this package: Go lets
// any package under codeberg.org/forgego/forgejo/ import it, whatever its
// module).
//
// The rule: a number from outside saturates at the bounds of Duration and
// is then clamped to the caller's bound; arithmetic on it never wraps, so a
// huge wait stays a long wait and never becomes a short, zero or negative
// one. Every conversion of such a number to a Duration goes through [Of],
// [OfFloat] or [ParseUnits]; a wait so obtained is bounded with [Clamp].
package durations

import (
	"math"
	"time"
)

// The bounds of time.Duration.
const (
	Max = time.Duration(math.MaxInt64)
	Min = time.Duration(math.MinInt64)
)

// Of is n units as a Duration, n·unit, saturating at [Max] or [Min]
// instead of wrapping. A unit that is not positive yields 0.
func Of(n int64, unit time.Duration) time.Duration {
	switch {
	case unit <= 0:
		return 0
	case n > int64(Max/unit):
		return Max
	case n < int64(Min/unit):
		return Min
	}
	return time.Duration(n) * unit
}

// OfFloat is f units as a Duration, rounded up to the nanosecond (a wait
// is never shortened) and saturating at [Max] or [Min]; infinities
// saturate too. ok is false for NaN, which is no number at all, and for a
// unit that is not positive.
func OfFloat(f float64, unit time.Duration) (d time.Duration, ok bool) {
	if math.IsNaN(f) || unit <= 0 {
		return 0, false
	}
	x := math.Ceil(f * float64(unit))
	switch {
	case x >= 0x1p63: // float64(Max) rounds up to 2^63, itself out of range
		return Max, true
	case x < -0x1p63:
		return Min, true
	}
	return time.Duration(x), true
}

// ParseUnits reads a count of units written as ASCII digits only (the
// delay-seconds of RFC 9110, a reset's delta or epoch), saturating at
// math.MaxInt64 however many digits there are. ok is false for anything
// but digits.
func ParseUnits(s string) (n int64, ok bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n > (math.MaxInt64-d)/10 {
			n = math.MaxInt64 // keep checking that the rest is digits
			continue
		}
		n = n*10 + d
	}
	return n, true
}

// Clamp bounds d to [lo, hi] (lo <= hi).
func Clamp(d, lo, hi time.Duration) time.Duration {
	return min(max(d, lo), hi)
}
