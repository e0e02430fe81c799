package forgejo

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"codeberg.org/forgego/forgejo/internal/durations"
)

// This file reads what a response says about the rate-limit budget. It is
// lenient and never fails a call: a malformed field is ignored as a whole,
// and a missing field means "unknown", never zero. A reset or window is a
// duration from outside the process: it is converted by internal/durations
// (saturating, never wrapping), and a reset past maxReset is clamped to it,
// never dropped: a huge reset is a long wait (which pacing bounds by
// MaxWait), not an unknown one that lets a spent budget be spent again. Correctness never depends
// on these headers: a self-hosted Forgejo usually sends none, and the retry
// engine handles a 429 the same way with or without them.

// RateLimitPolicy is one quota policy from RateLimit-Policy, such as
// Codeberg's "baseline";q=2000;w=600.
type RateLimitPolicy struct {
	// Name identifies the policy; RateLimitStatus.Name refers to it.
	Name string
	// Quota is how many units the policy allows per window (q).
	Quota int64
	// Window is the policy's window (w); 0 when not sent.
	Window time.Duration
	// Unit is the quota unit (qu): "requests" unless the server says
	// otherwise ("content-bytes", "concurrent-requests").
	Unit string
	// PartitionKey (pk) is the partition the quota is allocated to, if any.
	PartitionKey []byte
}

// RateLimitStatus is the live state of one limit, from RateLimit (or from
// the older RateLimit-* and X-RateLimit-* fields).
type RateLimitStatus struct {
	// Name is the policy the status belongs to; empty for the older fields.
	Name string
	// Remaining is how many units are left (r).
	Remaining int64
	// Reset is how long until more quota becomes available (t), measured
	// from the response; meaningful only when HasReset.
	Reset    time.Duration
	HasReset bool
	// PartitionKey (pk), if any.
	PartitionKey []byte
	// Unit is the quota unit of the matching policy ("requests" when no
	// policy says otherwise).
	Unit string
}

// RateLimit is what one response said about the rate-limit budget.
type RateLimit struct {
	// Policies are the quota policies announced (RateLimit-Policy), possibly
	// none.
	Policies []RateLimitPolicy
	// Limits are the live limits, at least one.
	Limits []RateLimitStatus
	// Remaining, Reset and HasReset summarise the request limit closest to
	// exhaustion: the lowest Remaining among the limits counted in requests.
	Remaining int64
	Reset     time.Duration
	HasReset  bool
	// Quota is that limit's quota (from its policy, or X-RateLimit-Limit);
	// meaningful only when HasQuota.
	Quota    int64
	HasQuota bool
	// Used is X-RateLimit-Used, the units spent in the current window, when
	// the instance sends it.
	Used    int64
	HasUsed bool
	// Source names the header family read: "RateLimit",
	// "RateLimit (dictionary)", "RateLimit-Remaining" or
	// "X-RateLimit-Remaining".
	Source string
	// ReceivedAt is the local time the response arrived; ResetAt() adds
	// Reset to it.
	ReceivedAt time.Time
}

// ResetAt is the local time at which more quota is expected; ok is false
// when the response did not say.
func (rl RateLimit) ResetAt() (t time.Time, ok bool) {
	if !rl.HasReset {
		return time.Time{}, false
	}
	return rl.ReceivedAt.Add(rl.Reset), true
}

// RateLimit returns what this response said about the rate-limit budget; ok
// is false when it said nothing readable (the usual case on a self-hosted
// instance).
func (r *Response) RateLimit() (rl RateLimit, ok bool) {
	if r == nil || r.rateLimit == nil {
		return RateLimit{}, false
	}
	return *r.rateLimit, true
}

// parseRateLimit reads the rate-limit fields of a response header, in order
// of preference: the draft-IETF RateLimit and RateLimit-Policy lists
// (drafts -08 to -10, what Codeberg sends), the draft-07 RateLimit
// dictionary, the separate RateLimit-Limit/-Remaining/-Reset fields, and the
// X-RateLimit-* family. now is the local receive time. A response served
// from a cache (Age > 0) is ignored.
func parseRateLimit(h http.Header, now time.Time) (*RateLimit, bool) {
	if !hasRateLimitField(h) {
		return nil, false // the usual answer of a self-hosted instance: one pass, no lookups
	}
	if age := strings.TrimSpace(h.Get("Age")); age != "" && age != "0" {
		return nil, false
	}
	if rl, ok := parseIETFRateLimit(h); ok {
		rl.ReceivedAt = now
		return rl, true
	}
	if rl, ok := parseRateLimitDictionary(h); ok {
		rl.ReceivedAt = now
		return rl, true
	}
	if rl, ok := parseRateLimitFields(h, "RateLimit-", "RateLimit-Remaining", now); ok {
		rl.ReceivedAt = now
		return rl, true
	}
	if rl, ok := parseRateLimitFields(h, "X-RateLimit-", "X-RateLimit-Remaining", now); ok {
		rl.ReceivedAt = now
		return rl, true
	}
	return nil, false
}

// hasRateLimitField reports whether h has any field of the RateLimit or
// X-RateLimit families.
func hasRateLimitField(h http.Header) bool {
	for k := range h {
		if len(k) >= 9 && (strings.EqualFold(k[:9], "ratelimit") || len(k) >= 11 && strings.EqualFold(k[:11], "x-ratelimit")) {
			return true
		}
	}
	return false
}

// parseIETFRateLimit reads RateLimit and RateLimit-Policy as Structured-Field
// lists of named items (drafts -08 to -10; names may be strings or tokens).
func parseIETFRateLimit(h http.Header) (*RateLimit, bool) {
	limitLines := h.Values("RateLimit")
	if len(limitLines) == 0 {
		return nil, false
	}
	items, ok := parseSFList(strings.Join(limitLines, ", "))
	if !ok || len(items) == 0 {
		return nil, false
	}
	rl := &RateLimit{Source: "RateLimit"}
	for _, it := range items {
		st := RateLimitStatus{Name: it.name, Unit: "requests"}
		r, ok := it.params["r"]
		if !ok || r.kind != sfInteger || r.integer < 0 {
			return nil, false
		}
		st.Remaining = r.integer
		if t, ok := it.params["t"]; ok {
			if t.kind != sfInteger || t.integer < 0 {
				return nil, false
			}
			// Past a day the reset is clamped to a day, as for the other
			// header families: one hostile t must not stall the client for
			// months (pacing bounds each wait by MaxWait), nor be dropped,
			// which would let the spent budget be spent at once.
			st.Reset, st.HasReset = min(durations.Of(t.integer, time.Second), maxReset), true
		}
		if pk, ok := it.params["pk"]; ok {
			if pk.kind != sfBytes {
				return nil, false
			}
			st.PartitionKey = pk.bytes
		}
		rl.Limits = append(rl.Limits, st)
	}
	if policyLines := h.Values("RateLimit-Policy"); len(policyLines) > 0 {
		rl.Policies = parsePolicies(strings.Join(policyLines, ", "))
	}
	for i := range rl.Limits {
		for _, p := range rl.Policies {
			if p.Name == rl.Limits[i].Name {
				rl.Limits[i].Unit = p.Unit
			}
		}
	}
	rl.summarise()
	return rl, true
}

// parsePolicies reads RateLimit-Policy; a malformed field yields none.
func parsePolicies(v string) []RateLimitPolicy {
	items, ok := parseSFList(v)
	if !ok {
		return nil
	}
	var out []RateLimitPolicy
	for _, it := range items {
		p := RateLimitPolicy{Name: it.name, Unit: "requests"}
		q, ok := it.params["q"]
		if !ok || q.kind != sfInteger || q.integer < 0 {
			return nil
		}
		p.Quota = q.integer
		if w, ok := it.params["w"]; ok {
			if w.kind != sfInteger || w.integer <= 0 {
				return nil
			}
			p.Window = durations.Of(w.integer, time.Second)
		}
		if qu, ok := it.params["qu"]; ok {
			if qu.kind != sfString {
				return nil
			}
			p.Unit = qu.str
			if p.Unit == "request" {
				p.Unit = "requests" // the IANA registry's spelling
			}
		}
		if pk, ok := it.params["pk"]; ok {
			if pk.kind != sfBytes {
				return nil
			}
			p.PartitionKey = pk.bytes
		}
		out = append(out, p)
	}
	return out
}

// summarise picks the request limit closest to exhaustion.
func (rl *RateLimit) summarise() {
	best := -1
	for i, st := range rl.Limits {
		if st.Unit != "requests" {
			continue
		}
		if best < 0 || st.Remaining < rl.Limits[best].Remaining {
			best = i
		}
	}
	if best < 0 {
		return
	}
	st := rl.Limits[best]
	rl.Remaining, rl.Reset, rl.HasReset = st.Remaining, st.Reset, st.HasReset
	for _, p := range rl.Policies {
		if p.Name == st.Name {
			rl.Quota, rl.HasQuota = p.Quota, true
		}
	}
}

// parseRateLimitDictionary reads the draft-07 form:
// RateLimit: limit=100, remaining=50, reset=5.
func parseRateLimitDictionary(h http.Header) (*RateLimit, bool) {
	lines := h.Values("RateLimit")
	if len(lines) == 0 {
		return nil, false
	}
	vals := map[string]int64{}
	for _, member := range strings.Split(strings.Join(lines, ","), ",") {
		key, val, found := strings.Cut(strings.TrimSpace(member), "=")
		if !found {
			return nil, false
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		n, ok := parseNonNegative(val)
		if !ok && key == "reset" {
			n, ok = durations.ParseUnits(val) // any number of digits: a huge reset is a long one
		}
		if !ok {
			return nil, false
		}
		vals[key] = n
	}
	remaining, ok := vals["remaining"]
	if !ok {
		return nil, false
	}
	st := RateLimitStatus{Remaining: remaining, Unit: "requests"}
	if reset, ok := vals["reset"]; ok {
		st.Reset, st.HasReset = min(durations.Of(reset, time.Second), maxReset), true
	}
	rl := &RateLimit{Source: "RateLimit (dictionary)", Limits: []RateLimitStatus{st}}
	rl.summarise()
	if limit, ok := vals["limit"]; ok {
		rl.Quota, rl.HasQuota = limit, true
	}
	return rl, true
}

// parseRateLimitFields reads the separate Limit/Remaining/Reset/Used fields
// of a family ("RateLimit-" or "X-RateLimit-"). Remaining is required (or,
// when it is absent, Limit and Used, from which it follows); a malformed
// Remaining drops the family; a malformed Limit, Reset or Used is left
// unknown.
func parseRateLimitFields(h http.Header, prefix, source string, now time.Time) (*RateLimit, bool) {
	limit, hasLimit := parseNonNegative(firstListMember(h.Get(prefix + "Limit")))
	used, hasUsed := parseNonNegative(strings.TrimSpace(h.Get(prefix + "Used")))
	remaining, ok := parseNonNegative(firstListMember(h.Get(prefix + "Remaining")))
	if !ok && h.Get(prefix+"Remaining") == "" && hasLimit && hasUsed && used <= limit {
		remaining, ok = limit-used, true // GitHub-style: Limit and Used without Remaining
	}
	if !ok {
		return nil, false
	}
	st := RateLimitStatus{Remaining: remaining, Unit: "requests"}
	if d, ok := parseReset(strings.TrimSpace(h.Get(prefix+"Reset")), h, now); ok {
		st.Reset, st.HasReset = d, true
	}
	rl := &RateLimit{Source: source, Limits: []RateLimitStatus{st}}
	rl.summarise()
	rl.Quota, rl.HasQuota = limit, hasLimit
	rl.Used, rl.HasUsed = used, hasUsed
	return rl, true
}

// firstListMember returns the integer part of the first member of a
// RateLimit-Limit list such as "10, 10;w=1, 50;w=60".
func firstListMember(v string) string {
	v, _, _ = strings.Cut(v, ",")
	v, _, _ = strings.Cut(v, ";")
	return strings.TrimSpace(v)
}

// Bounds used to tell reset forms apart, and to discard absurd values.
const (
	epochSecondsFloor = 1_000_000_000     // 2001-09-09: smaller integers are delta seconds
	epochMillisFloor  = 1_000_000_000_000 // larger integers are epoch milliseconds
	maxReset          = 24 * time.Hour
)

// parseReset reads a reset value: delta seconds, epoch seconds, epoch
// milliseconds, an HTTP-date or an RFC 3339 time, told apart by shape and
// size. Absolute times are converted against the response's Date when it
// parses (server clock against server clock), else against now. Every
// conversion saturates (internal/durations, time.Time.Sub): digits past
// int64 are a huge value, not a malformed one. A negative result (a reset
// already past) is discarded; a reset over a day is clamped to a day.
func parseReset(v string, h http.Header, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	ref := now
	if date, ok := parseHTTPDate(strings.TrimSpace(h.Get("Date"))); ok {
		ref = date
	}
	var d time.Duration
	switch {
	case isDigits(v):
		n, _ := durations.ParseUnits(v)
		switch {
		case n >= epochMillisFloor:
			d = time.UnixMilli(n).Sub(ref)
		case n >= epochSecondsFloor:
			d = time.Unix(n, 0).Sub(ref)
		default:
			d = durations.Of(n, time.Second)
		}
	case strings.ContainsAny(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"):
		t, ok := parseHTTPDate(v)
		if !ok {
			var err error
			if t, err = time.Parse(time.RFC3339, v); err != nil {
				return 0, false
			}
		}
		d = t.Sub(ref)
	default:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) { // out of range is ±Inf: saturated below
			return 0, false
		}
		var ok bool
		if d, ok = durations.OfFloat(f, time.Second); !ok {
			return 0, false
		}
	}
	if d < 0 {
		return 0, false
	}
	return min(d, maxReset), true
}

func parseNonNegative(v string) (int64, bool) {
	if !isDigits(v) || len(v) > 15 {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}
