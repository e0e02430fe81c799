package forgejo

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

var rlNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func rlHeader(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

// TestRateLimitVectors are rate-limit header vectors: the IETF draft's
// RateLimit and RateLimit-Policy fields, the X-RateLimit-* family, and our
// own.
func TestRateLimitVectors(t *testing.T) {
	type want struct {
		ok        bool
		source    string
		remaining int64
		reset     time.Duration
		hasReset  bool
		quota     int64
		hasQuota  bool
		policies  int
		limits    int
	}
	cases := []struct {
		name string
		h    http.Header
		want want
	}{
		{"RL01+RL02 Codeberg", rlHeader("Ratelimit-Policy", `"baseline";q=2000;w=600`, "Ratelimit", `"baseline";r=1996;t=600`),
			want{true, "RateLimit", 1996, 600 * time.Second, true, 2000, true, 1, 1}},
		{"RL02 without policy", rlHeader("RateLimit", `"baseline";r=1996;t=600`),
			want{true, "RateLimit", 1996, 600 * time.Second, true, 0, false, 0, 1}},
		{"RL03 two policies", rlHeader("RateLimit-Policy", `"burst";q=100;w=60,"daily";q=1000;w=86400`, "RateLimit", `"daily";r=5;t=10`),
			want{true, "RateLimit", 5, 10 * time.Second, true, 1000, true, 2, 1}},
		{"RL04 OWS after comma", rlHeader("RateLimit-Policy", `"burst";q=100;w=60, "daily";q=1000;w=86400`, "RateLimit", `"burst";r=1`),
			want{true, "RateLimit", 1, 0, false, 100, true, 2, 1}},
		{"RL05 policy lines joined", rlHeader("RateLimit-Policy", `"permin";q=50;w=60`, "RateLimit-Policy", `"perhr";q=1000;w=3600`, "RateLimit", `"perhr";r=7`),
			want{true, "RateLimit", 7, 0, false, 1000, true, 2, 1}},
		{"RL06 content-bytes is not a request budget", rlHeader("RateLimit-Policy", `"peruser";q=65535;qu="content-bytes";w=10;pk=:sdfjLJUOUH==:`, "RateLimit", `"peruser";r=3`),
			want{true, "RateLimit", 0, 0, false, 0, false, 1, 1}},
		{"RL07 partition key", rlHeader("RateLimit", `"default";r=999;pk=:dHJpYWwxMjEzMjM=:`),
			want{true, "RateLimit", 999, 0, false, 0, false, 0, 1}},
		{"RL08 token name", rlHeader("RateLimit", `default;r=50;t=30`), want{true, "RateLimit", 50, 30 * time.Second, true, 0, false, 0, 1}},
		{"RL09 space after semicolon", rlHeader("RateLimit", `"default"; r=50; t=30`), want{true, "RateLimit", 50, 30 * time.Second, true, 0, false, 0, 1}},
		{"RL10 outer spaces", rlHeader("RateLimit", `  "default";r=1  `), want{true, "RateLimit", 1, 0, false, 0, false, 0, 1}},
		{"RL11 lowest remaining wins", rlHeader("RateLimit", `"a";r=10;t=5,"b";r=0;t=40`), want{true, "RateLimit", 0, 40 * time.Second, true, 0, false, 0, 2}},
		{"RL12 unknown param ignored", rlHeader("RateLimit", `"default";r=50;t=30;acme-burst=5`), want{true, "RateLimit", 50, 30 * time.Second, true, 0, false, 0, 1}},
		{"RL13 last duplicate wins", rlHeader("RateLimit", `"default";r=50;t=30;r=10`), want{true, "RateLimit", 10, 30 * time.Second, true, 0, false, 0, 1}},
		{"RL14 leading zeros", rlHeader("RateLimit", `"default";r=007`), want{true, "RateLimit", 7, 0, false, 0, false, 0, 1}},
		{"RL15 fifteen digits", rlHeader("RateLimit", `"default";r=123456789012345`), want{true, "RateLimit", 123456789012345, 0, false, 0, false, 0, 1}},
		{"RL16 sixteen digits ignored", rlHeader("RateLimit", `"default";r=1234567890123456`), want{}},
		{"RL17 r missing ignored", rlHeader("RateLimit", `"default";t=1`), want{}},
		{"RL18 negative ignored", rlHeader("RateLimit", `"default";r=-1;t=30`), want{}},
		{"RL19 decimal ignored", rlHeader("RateLimit", `"default";r=1.5`), want{}},
		{"RL20 string ignored", rlHeader("RateLimit", `"default";r="50"`), want{}},
		{"RL21 boolean ignored", rlHeader("RateLimit", `"default";r`), want{}},
		{"RL21b explicit boolean ignored", rlHeader("RateLimit", `"default";r=?1`), want{}},
		{"RL22 uppercase key ignored", rlHeader("RateLimit", `"default";R=50`), want{}},
		{"RL23 space before semicolon ignored", rlHeader("RateLimit", `"default" ;r=50`), want{}},
		{"RL24 spaces around = ignored", rlHeader("RateLimit", `"default";r = 50`), want{}},
		{"RL25 trailing comma ignored", rlHeader("RateLimit", `"default";r=50,`), want{}},
		{"RL26 empty member ignored", rlHeader("RateLimit", `"d",,"e"`), want{}},
		{"RL27 empty param key ignored", rlHeader("RateLimit", `"d";r=1;;t=2`), want{}},
		{"RL28 non-ASCII string ignored", rlHeader("RateLimit", `"défaut";r=1`), want{}},
		{"RL29 date value ignored", rlHeader("RateLimit", `"default";r=1;t=@1700000000`), want{}},
		{"RL30 pk not bytes ignored", rlHeader("RateLimit", `"default";r=50;pk=abc`), want{}},
		{"RL31 inner list ignored", rlHeader("RateLimit", `("a" "b");r=1`), want{}},
		{"RL32 policy without q dropped, limit kept", rlHeader("RateLimit-Policy", `"x";w=60`, "RateLimit", `"x";r=4`), want{true, "RateLimit", 4, 0, false, 0, false, 0, 1}},
		{"RL33 w zero drops policies", rlHeader("RateLimit-Policy", `"x";q=100;w=0`, "RateLimit", `"x";r=4`), want{true, "RateLimit", 4, 0, false, 0, false, 0, 1}},
		{"RL34 qu token drops policies", rlHeader("RateLimit-Policy", `"x";q=100;qu=bytes`, "RateLimit", `"x";r=4`), want{true, "RateLimit", 4, 0, false, 0, false, 0, 1}},
		{"RL35 registry spelling request", rlHeader("RateLimit-Policy", `"x";q=100;w=60;qu="request"`, "RateLimit", `"x";r=4`), want{true, "RateLimit", 4, 0, false, 100, true, 1, 1}},
		{"RL36 absent", rlHeader(), want{}},
		{"RL36b empty", rlHeader("RateLimit", ``), want{}},
		{"RL37 draft-07 dictionary", rlHeader("RateLimit", `limit=100, remaining=50, reset=5`),
			want{true, "RateLimit (dictionary)", 50, 5 * time.Second, true, 100, true, 0, 1}},
		{"RL38 separate fields", rlHeader("RateLimit-Limit", "100", "RateLimit-Remaining", "0", "RateLimit-Reset", "50"),
			want{true, "RateLimit-Remaining", 0, 50 * time.Second, true, 100, true, 0, 1}},
		{"RL39 limit as a list", rlHeader("RateLimit-Limit", "10, 10;w=1, 50;w=60", "RateLimit-Remaining", "3"),
			want{true, "RateLimit-Remaining", 3, 0, false, 10, true, 0, 1}},
		{"RL40 GitLab epoch reset against Date", rlHeader("RateLimit-Remaining", "0", "RateLimit-Reset", "1580393717", "Date", "Thu, 30 Jan 2020 14:14:16 GMT"),
			want{true, "RateLimit-Remaining", 0, 61 * time.Second, true, 0, false, 0, 1}},
		{"RL41 GitHub epoch reset against Date", rlHeader("X-Ratelimit-Remaining", "0", "X-Ratelimit-Reset", "1372700873", "Date", "Mon, 01 Jul 2013 17:27:06 GMT", "X-Ratelimit-Limit", "60"),
			want{true, "X-RateLimit-Remaining", 0, 1247 * time.Second, true, 60, true, 0, 1}},
		{"RL42 X delta reset", rlHeader("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "60"),
			want{true, "X-RateLimit-Remaining", 0, 60 * time.Second, true, 0, false, 0, 1}},
		{"RL43 X epoch milliseconds", rlHeader("X-RateLimit-Remaining", "9", "X-RateLimit-Reset", "1595320702000", "Date", "Tue, 21 Jul 2020 08:38:00 GMT"),
			want{true, "X-RateLimit-Remaining", 9, 22 * time.Second, true, 0, false, 0, 1}},
		{"RL44 X HTTP-date reset", rlHeader("X-RateLimit-Remaining", "9", "X-RateLimit-Reset", "Wed, 21 Oct 2015 07:28:00 GMT", "Date", "Wed, 21 Oct 2015 07:27:00 GMT"),
			want{true, "X-RateLimit-Remaining", 9, time.Minute, true, 0, false, 0, 1}},
		{"RL45 X RFC 3339 reset", rlHeader("X-RateLimit-Remaining", "9", "X-RateLimit-Reset", "2015-10-21T07:28:00Z", "Date", "Wed, 21 Oct 2015 07:27:30 GMT"),
			want{true, "X-RateLimit-Remaining", 9, 30 * time.Second, true, 0, false, 0, 1}},
		{"RL46 X garbage remaining ignored", rlHeader("X-RateLimit-Remaining", "abc", "X-RateLimit-Reset", "60"), want{}},
		{"RL47 X negative reset left unknown", rlHeader("X-RateLimit-Remaining", "4", "X-RateLimit-Reset", "-5"),
			want{true, "X-RateLimit-Remaining", 4, 0, false, 0, false, 0, 1}},
		{"RL48 cached response ignored", rlHeader("RateLimit", `"baseline";r=0;t=600`, "Age", "30"), want{}},
		{"RL50 IETF wins over X", rlHeader("RateLimit", `"baseline";r=7;t=1`, "X-RateLimit-Remaining", "0"),
			want{true, "RateLimit", 7, time.Second, true, 0, false, 0, 1}},
		{"X decimal delta reset", rlHeader("X-RateLimit-Remaining", "1", "X-RateLimit-Reset", "1.5"),
			want{true, "X-RateLimit-Remaining", 1, 1500 * time.Millisecond, true, 0, false, 0, 1}},
		{"X reset over a day clamped to a day", rlHeader("X-RateLimit-Remaining", "1", "X-RateLimit-Reset", "90000"),
			want{true, "X-RateLimit-Remaining", 1, 24 * time.Hour, true, 0, false, 0, 1}},
		{"X epoch without Date uses the local clock", rlHeader("X-RateLimit-Remaining", "1", "X-RateLimit-Reset", "1795953630"),
			want{true, "X-RateLimit-Remaining", 1, 30 * time.Second, true, 0, false, 0, 1}},
		{"X used alone is not enough", rlHeader("X-RateLimit-Used", "3"), want{}},
		{"X limit and used give remaining", rlHeader("X-RateLimit-Limit", "60", "X-RateLimit-Used", "45"),
			want{true, "X-RateLimit-Remaining", 15, 0, false, 60, true, 0, 1}},
		{"X malformed remaining is not rescued by used", rlHeader("X-RateLimit-Limit", "60", "X-RateLimit-Used", "45", "X-RateLimit-Remaining", "x"), want{}},
		{"missing X remaining is unknown, not zero", rlHeader("X-RateLimit-Limit", "60", "X-RateLimit-Reset", "10"), want{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rl, ok := parseRateLimit(tc.h, rlNow)
			if ok != tc.want.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, tc.want.ok, rl)
			}
			if !ok {
				return
			}
			w := tc.want
			if rl.Source != w.source || rl.Remaining != w.remaining || rl.Reset != w.reset || rl.HasReset != w.hasReset ||
				rl.Quota != w.quota || rl.HasQuota != w.hasQuota || len(rl.Policies) != w.policies || len(rl.Limits) != w.limits {
				t.Fatalf("got %+v\nwant %+v", *rl, w)
			}
			if !rl.ReceivedAt.Equal(rlNow) {
				t.Fatalf("ReceivedAt = %v", rl.ReceivedAt)
			}
		})
	}
}

func TestRateLimitUsed(t *testing.T) {
	rl, ok := parseRateLimit(rlHeader("X-RateLimit-Limit", "5000", "X-RateLimit-Remaining", "4990", "X-RateLimit-Used", "10", "X-RateLimit-Reset", "120"), rlNow)
	if !ok || rl.Used != 10 || !rl.HasUsed || rl.Remaining != 4990 || rl.Quota != 5000 || rl.Reset != 2*time.Minute {
		t.Fatalf("rl = %+v", rl)
	}
	rl, _ = parseRateLimit(rlHeader("X-RateLimit-Remaining", "1"), rlNow)
	if rl.HasUsed || rl.HasQuota || rl.HasReset {
		t.Fatalf("absent fields must read as unknown: %+v", rl)
	}
}

func TestRateLimitDetails(t *testing.T) {
	rl, ok := parseRateLimit(rlHeader("RateLimit-Policy", `"peruser";q=65535;qu="content-bytes";w=10;pk=:sdfjLJUOUH==:`, "RateLimit", `"peruser";r=3;pk=:dHJpYWwxMjEzMjM=:`), rlNow)
	if !ok {
		t.Fatal("not parsed")
	}
	p := rl.Policies[0]
	if p.Name != "peruser" || p.Quota != 65535 || p.Unit != "content-bytes" || p.Window != 10*time.Second || !bytes.Equal(p.PartitionKey, []byte{0xb1, 0xd7, 0xe3, 0x2c, 0x95, 0x0e, 0x50}) {
		t.Fatalf("policy = %+v", p)
	}
	if l := rl.Limits[0]; string(l.PartitionKey) != "trial121323" || l.Unit != "content-bytes" {
		t.Fatalf("limit = %+v", l)
	}
	if _, ok := rl.ResetAt(); ok {
		t.Fatal("no t means no reset time")
	}
	rl, _ = parseRateLimit(rlHeader("RateLimit", `"baseline";r=1;t=600`), rlNow)
	if at, ok := rl.ResetAt(); !ok || !at.Equal(rlNow.Add(10*time.Minute)) {
		t.Fatalf("ResetAt = %v %v", at, ok)
	}
}

func TestResponseAndClientSurfaceRateLimit(t *testing.T) {
	srv := tsNewServer(t,
		tsStep{status: 200, body: `{"version":"1"}`, header: map[string]string{"Ratelimit-Policy": `"baseline";q=2000;w=600`, "Ratelimit": `"baseline";r=1996;t=600`}},
		tsStep{status: 200, body: `{"version":"1"}`})
	rec := &rlRecorder{}
	c, _ := tsClient(t, srv.URL, withObserver(rec))
	if _, ok := c.RateLimit(); ok {
		t.Fatal("a new client knows no rate limit")
	}
	_, resp, err := c.Misc.GetVersion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rl, ok := resp.RateLimit()
	if !ok || rl.Remaining != 1996 || rl.Quota != 2000 || rl.Reset != 10*time.Minute || rl.Policies[0].Window != 10*time.Minute {
		t.Fatalf("resp.RateLimit = %+v %v", rl, ok)
	}
	if got, ok := c.RateLimit(); !ok || got.Remaining != 1996 {
		t.Fatalf("client snapshot = %+v", got)
	}
	if len(rec.seen) != 1 || rec.seen[0].Remaining != 1996 {
		t.Fatalf("observer saw %+v", rec.seen)
	}
	// A response without the headers says "unknown", and the client keeps
	// the last snapshot rather than inventing zero.
	_, resp, _ = c.Misc.GetVersion(context.Background())
	if _, ok := resp.RateLimit(); ok {
		t.Fatal("a response without headers must report no rate limit")
	}
	if got, ok := c.RateLimit(); !ok || got.Remaining != 1996 {
		t.Fatalf("client snapshot = %+v", got)
	}
	var nilResp *Response
	if _, ok := nilResp.RateLimit(); ok {
		t.Fatal("nil response")
	}
}

type rlRecorder struct {
	obRecorder
	mu    sync.Mutex
	seen  []RateLimit
	waits []time.Duration
}

func (r *rlRecorder) OnRateLimit(_ context.Context, _ CallContext, rl RateLimit) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, rl)
}

func (r *rlRecorder) OnRateLimitWait(_ context.Context, _ CallContext, wait time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.waits = append(r.waits, wait)
}

// rlClock is a fake clock whose sleeps advance it.
type rlClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

func (k *rlClock) Now() time.Time {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.now
}

func (k *rlClock) Sleep(ctx context.Context, d time.Duration) error {
	k.mu.Lock()
	k.sleeps = append(k.sleeps, d)
	k.now = k.now.Add(d)
	k.mu.Unlock()
	return ctx.Err()
}

// Timer moves the time on by d as Sleep does and fires at once.
func (k *rlClock) Timer(d time.Duration) (<-chan time.Time, func()) {
	_ = k.Sleep(context.Background(), d)
	c := make(chan time.Time, 1)
	c <- k.Now()
	return c, func() {}
}

func TestPacingWaitsForTheReset(t *testing.T) {
	// The instance says 2 requests are left, then 1, then 0, with 5 s to
	// the reset (measured against the fake clock).
	steps := []tsStep{
		{status: 200, body: `{}`, header: map[string]string{"RateLimit": `"b";r=1;t=5`}},
		{status: 200, body: `{}`, header: map[string]string{"RateLimit": `"b";r=0;t=5`}},
		{status: 200, body: `{}`, header: map[string]string{"RateLimit": `"b";r=9;t=5`}},
	}
	srv := tsNewServer(t, steps...)
	k := &rlClock{now: rlNow}
	rec := &rlRecorder{}
	c, _ := tsClient(t, srv.URL, WithRateLimitPacing(Pacing{}), withObserver(rec))
	c.now, c.sleep = k.Now, k.Sleep
	for i := range 3 {
		if _, _, err := c.Misc.GetVersion(context.Background()); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	// Call 1 learns r=1; call 2 spends it and learns r=0 with the reset 5 s
	// after that response; call 3 waits exactly until then.
	if len(k.sleeps) != 1 || k.sleeps[0] != 5*time.Second || len(rec.waits) != 1 {
		t.Fatalf("sleeps = %v, waits = %v", k.sleeps, rec.waits)
	}
	// The budget reset; nothing more to wait for.
	if _, _, err := c.Misc.GetVersion(context.Background()); err != nil || len(k.sleeps) != 1 {
		t.Fatalf("err = %v sleeps = %v", err, k.sleeps)
	}
}

func TestPacingIsBoundedAndOffByDefault(t *testing.T) {
	spent := tsStep{status: 200, body: `{}`, header: map[string]string{"RateLimit": `"b";r=0;t=600`}}
	t.Run("off by default: the seed's behaviour", func(t *testing.T) {
		srv := tsNewServer(t, spent)
		k := &rlClock{now: rlNow}
		c, _ := tsClient(t, srv.URL)
		c.now, c.sleep = k.Now, k.Sleep
		for range 3 {
			_, _, _ = c.Misc.GetVersion(context.Background())
		}
		if len(k.sleeps) != 0 || srv.hits.Load() != 3 {
			t.Fatalf("sleeps = %v hits = %d", k.sleeps, srv.hits.Load())
		}
	})
	t.Run("bounded by MaxWait", func(t *testing.T) {
		srv := tsNewServer(t, spent)
		k := &rlClock{now: rlNow}
		c, _ := tsClient(t, srv.URL, WithRateLimitPacing(Pacing{MaxWait: 3 * time.Second}))
		c.now, c.sleep = k.Now, k.Sleep
		_, _, _ = c.Misc.GetVersion(context.Background())
		_, _, _ = c.Misc.GetVersion(context.Background())
		if len(k.sleeps) != 1 || k.sleeps[0] != 3*time.Second {
			t.Fatalf("sleeps = %v", k.sleeps)
		}
	})
	t.Run("bounded by ctx", func(t *testing.T) {
		srv := tsNewServer(t, spent)
		c, _ := tsClient(t, srv.URL, WithRateLimitPacing(Pacing{}))
		c.sleep = sleepContext // real sleep, ended by ctx
		_, _, _ = c.Misc.GetVersion(context.Background())
		ctx, cancel := context.WithCancel(context.Background())
		c.hooks = hooksFor(rlCancelOnWait{cancel: cancel})
		_, _, err := c.Misc.GetVersion(ctx)
		if !errors.Is(err, context.Canceled) || srv.hits.Load() != 1 {
			t.Fatalf("err = %v hits = %d", err, srv.hits.Load())
		}
	})
	t.Run("no headers, no waiting", func(t *testing.T) {
		srv := tsNewServer(t, tsStep{status: 200, body: `{}`})
		k := &rlClock{now: rlNow}
		c, _ := tsClient(t, srv.URL, WithRateLimitPacing(Pacing{}))
		c.now, c.sleep = k.Now, k.Sleep
		for range 5 {
			_, _, _ = c.Misc.GetVersion(context.Background())
		}
		if len(k.sleeps) != 0 {
			t.Fatalf("sleeps = %v", k.sleeps)
		}
	})
}

type rlCancelOnWait struct{ cancel context.CancelFunc }

func (rlCancelOnWait) OnRequest(context.Context, CallContext) {}

func (rlCancelOnWait) OnResponse(context.Context, CallContext, int) {}

func (rlCancelOnWait) OnError(context.Context, CallContext, error) {}

func (rlCancelOnWait) OnRateLimit(context.Context, CallContext, RateLimit) {}

func (o rlCancelOnWait) OnRateLimitWait(context.Context, CallContext, time.Duration) {
	o.cancel()
}

func TestPacingSpread(t *testing.T) {
	srv := tsNewServer(t, tsStep{status: 200, body: `{}`, header: map[string]string{"RateLimit": `"b";r=4;t=10`}})
	k := &rlClock{now: rlNow}
	c, _ := tsClient(t, srv.URL, WithRateLimitPacing(Pacing{Spread: true}))
	c.now, c.sleep = k.Now, k.Sleep
	_, _, _ = c.Misc.GetVersion(context.Background()) // learns r=4, reset in 10 s
	for range 3 {
		_, _, _ = c.Misc.GetVersion(context.Background())
	}
	// Every response says r=4, 10 s to the reset, so requests are spaced
	// 10 s / 4 = 2.5 s apart: the first goes at once, the next two wait.
	if !slices.Equal(k.sleeps, []time.Duration{2500 * time.Millisecond, 2500 * time.Millisecond}) {
		t.Fatalf("sleeps = %v", k.sleeps)
	}
}

func FuzzRateLimitIETF(f *testing.F) {
	for _, s := range []string{`"baseline";r=1996;t=600`, `default;r=50;t=30`, `"a";r=10;t=5,"b";r=0;t=40`, `("a" "b");r=1`, `"d";pk=:YWJj:;r=1`, `"x";r=1.5`, `"\"q\\"";r=1`} {
		f.Add(s, `"baseline";q=2000;w=600`)
	}
	f.Fuzz(func(t *testing.T, limit, policy string) {
		rl, ok := parseIETFRateLimit(rlHeader("RateLimit", limit, "RateLimit-Policy", policy))
		if !ok {
			return
		}
		if len(rl.Limits) == 0 || rl.Remaining < 0 || rl.Reset < 0 || rl.Reset > maxReset || rl.Quota < 0 {
			t.Fatalf("bad snapshot %+v from %q", rl, limit)
		}
		for _, l := range rl.Limits {
			if l.Remaining < 0 {
				t.Fatalf("negative remaining from %q", limit)
			}
		}
	})
}

func FuzzRateLimitDictionary(f *testing.F) {
	for _, s := range []string{`limit=100, remaining=50, reset=5`, `remaining=0`, `limit=1,remaining=x`, `,`, `=`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		rl, ok := parseRateLimitDictionary(rlHeader("RateLimit", v))
		if ok && (rl.Remaining < 0 || rl.Reset < 0 || rl.Reset > maxReset || !strings.Contains(v, "remaining")) {
			t.Fatalf("bad snapshot %+v from %q", rl, v)
		}
	})
}

func FuzzRateLimitFields(f *testing.F) {
	for _, s := range [][3]string{{"100", "0", "50"}, {"10, 10;w=1", "3", ""}, {"", "abc", "60"}, {"60", "1", "1595320702000"}, {"", "1", "2015-10-21T07:28:00Z"}, {"", "1", "1.5"}} {
		f.Add(s[0], s[1], s[2], "Wed, 21 Oct 2015 07:27:30 GMT")
	}
	f.Fuzz(func(t *testing.T, limit, remaining, reset, date string) {
		for _, prefix := range []string{"RateLimit-", "X-RateLimit-"} {
			h := rlHeader(prefix+"Limit", limit, prefix+"Remaining", remaining, prefix+"Reset", reset, "Date", date)
			rl, ok := parseRateLimitFields(h, prefix, "x", rlNow)
			if !ok {
				continue
			}
			if rl.Remaining < 0 || rl.Reset < 0 || rl.Reset > maxReset || rl.Quota < 0 {
				t.Fatalf("bad snapshot %+v", rl)
			}
		}
	})
}
