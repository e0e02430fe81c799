package forgeredis

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
	"github.com/redis/go-redis/v9"
)

var bg = context.Background()

// snap is the snapshot a Codeberg-like instance sends: r left, t to reset,
// policy q per w.
func snap(r int64, t time.Duration, q int64, w time.Duration) *forgejo.RateLimit {
	return &forgejo.RateLimit{
		Policies:  []forgejo.RateLimitPolicy{{Name: "baseline", Quota: q, Window: w, Unit: "requests"}},
		Limits:    []forgejo.RateLimitStatus{{Name: "baseline", Remaining: r, Reset: t, HasReset: true, Unit: "requests"}},
		Remaining: r, Reset: t, HasReset: true, Quota: q, HasQuota: true,
		Source: "RateLimit", ReceivedAt: time.Now(),
	}
}

func reserve(t *testing.T, p *Pacer) time.Duration {
	t.Helper()
	d, err := p.Reserve(bg, forgejo.CallContext{}, time.Now())
	if err != nil {
		t.Fatalf("Reserve: %v", err)
	}
	return d
}

func TestNewRefusesBadNames(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	defer rdb.Close()
	for _, name := range []string{"", strings.Repeat("0123456789abcdef", 3)[:40], "codeberg/" + strings.Repeat("A1", 20)} {
		if _, err := NewPacer(rdb, name); err == nil {
			t.Errorf("New(%q) accepted", name)
		}
	}
	if _, err := NewPacer(nil, "x"); err == nil {
		t.Error("NewPacer(nil) accepted")
	}
	if _, err := NewPacer(rdb, "x", WithPacerTimeout(0)); err == nil {
		t.Error("WithPacerTimeout(0) accepted")
	}
	p, err := NewPacer(rdb, "codeberg.org/bot", WithPacerPrefix("app:"))
	if err != nil || p.Key() != "app:codeberg.org/bot" {
		t.Fatalf("key %q, %v", p.Key(), err)
	}
}

// Many goroutines of several pacers (as many processes) reserve at once:
// exactly the budget goes now, then exactly one quota per later window.
func TestReserveConcurrentNeverOverReserves(t *testing.T) {
	rdb, addr := sharedRedis(t)
	name := uniqueName(t, rdb)
	const w = 10 * time.Second
	first := newPacer(t, rdb, name)
	first.Observe(bg, forgejo.CallContext{}, time.Now(), 200, snap(50, w, 100, w), 0)

	var pacers []*Pacer
	for range 4 {
		c := redis.NewClient(&redis.Options{Addr: addr, PoolSize: 8})
		t.Cleanup(func() { c.Close() })
		pacers = append(pacers, newPacer(t, c, name))
	}
	var mu sync.Mutex
	var waits []time.Duration
	var wg sync.WaitGroup
	for g := range 32 {
		wg.Go(func() {
			for range 10 {
				d := reserve(t, pacers[g%4])
				mu.Lock()
				waits = append(waits, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	// 320 reservations: 50 now, then 100 in each later window.
	var byWindow [5]int
	for _, d := range waits {
		k := int((d + w - 1) / w) // 0: now; k: the k-th window after this one
		if k >= len(byWindow) {
			t.Fatalf("a wait of %v", d)
		}
		byWindow[k]++
	}
	if byWindow != [5]int{50, 100, 100, 70, 0} {
		t.Fatalf("reservations per window = %v, want [50 100 100 70 0]", byWindow)
	}
}

// When the window the snapshot described has ended, a fresh one gives the
// whole quota again, less the reservations already handed out for it.
func TestWindowReset(t *testing.T) {
	rdb, _ := sharedRedis(t)
	p := newPacer(t, rdb, uniqueName(t, rdb))
	p.Observe(bg, forgejo.CallContext{}, time.Now(), 200, snap(0, 500*time.Millisecond, 5, 500*time.Millisecond), 0)
	d := reserve(t, p)
	if d <= 0 || d > 500*time.Millisecond {
		t.Fatalf("spent budget: wait %v, want (0, 500ms]", d)
	}
	time.Sleep(d + 20*time.Millisecond)
	for i := range 4 { // the fifth slot is the reservation above
		if d := reserve(t, p); d != 0 {
			t.Fatalf("fresh window, request %d: wait %v", i, d)
		}
	}
	if d := reserve(t, p); d <= 0 || d > 500*time.Millisecond {
		t.Fatalf("fresh window spent: wait %v, want (0, 500ms]", d)
	}
	// A later snapshot within the window may only tighten the estimate.
	p2 := newPacer(t, rdb, uniqueName(t, rdb))
	p2.Observe(bg, forgejo.CallContext{}, time.Now(), 200, snap(10, 5*time.Second, 100, 10*time.Second), 0)
	p2.Observe(bg, forgejo.CallContext{}, time.Now(), 200, snap(3, 4*time.Second, 100, 10*time.Second), 0)
	p2.Observe(bg, forgejo.CallContext{}, time.Now(), 200, snap(7, 6*time.Second, 100, 10*time.Second), 0)
	for range 3 {
		if d := reserve(t, p2); d != 0 {
			t.Fatalf("budget left, wait %v", d)
		}
	}
	if d := reserve(t, p2); d < 3900*time.Millisecond || d > 4*time.Second {
		t.Fatalf("spent: wait %v, want the tightest reset, 4 s", d)
	}
}

// A 429 with Retry-After holds back every process until then.
func TestTooManyRequestsBlocksEveryone(t *testing.T) {
	rdb, addr := sharedRedis(t)
	name := uniqueName(t, rdb)
	p1 := newPacer(t, rdb, name)
	other := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { other.Close() })
	p2 := newPacer(t, other, name)
	if d := reserve(t, p2); d != 0 {
		t.Fatalf("nothing known yet: wait %v", d)
	}
	p1.Observe(bg, forgejo.CallContext{}, time.Now(), 429, nil, 1500*time.Millisecond)
	for range 3 {
		if d := reserve(t, p2); d < 1400*time.Millisecond || d > 1500*time.Millisecond {
			t.Fatalf("after a 429 with Retry-After 1.5 s: wait %v", d)
		}
	}
}

// blackhole accepts connections and never answers.
func blackhole(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return l.Addr().String()
}

// Redis down, refusing or hanging: Reserve fails within the timeout, then
// at once during the cooldown, and works again once Redis is back.
func TestRedisDownFailsFast(t *testing.T) {
	own := startOwnRedis(t)
	rdb := redis.NewClient(&redis.Options{Addr: own.addr})
	t.Cleanup(func() { rdb.Close() })
	p := newPacer(t, rdb, uniqueName(t, nil), WithPacerTimeout(100*time.Millisecond), WithPacerCooldown(300*time.Millisecond))
	reserve(t, p)
	own.kill()
	start := time.Now()
	if _, err := p.Reserve(bg, forgejo.CallContext{}, time.Now()); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("killed Redis: err %v", err)
	}
	if el := time.Since(start); el > 150*time.Millisecond {
		t.Fatalf("killed Redis: Reserve took %v, timeout 100ms", el)
	}

	hung := redis.NewClient(&redis.Options{Addr: blackhole(t), ReadTimeout: time.Minute, WriteTimeout: time.Minute, DialTimeout: time.Minute})
	t.Cleanup(func() { hung.Close() })
	ph := newPacer(t, hung, "hung", WithPacerTimeout(100*time.Millisecond), WithPacerCooldown(300*time.Millisecond))
	start = time.Now()
	_, err := ph.Reserve(bg, forgejo.CallContext{}, time.Now())
	if el := time.Since(start); !errors.Is(err, ErrUnavailable) || el < 90*time.Millisecond || el > 150*time.Millisecond {
		t.Fatalf("hanging Redis: %v after %v, want ErrUnavailable after the 100ms timeout", err, el)
	}
	start = time.Now()
	ph.Observe(bg, forgejo.CallContext{}, time.Now(), 200, nil, 0)
	_, err = ph.Reserve(bg, forgejo.CallContext{}, time.Now())
	if el := time.Since(start); !errors.Is(err, ErrUnavailable) || el > 10*time.Millisecond {
		t.Fatalf("during the cooldown: %v after %v, want an immediate ErrUnavailable", err, el)
	}
}

type fallbacks struct {
	mu   sync.Mutex
	errs []error
}

func (f *fallbacks) OnPacerFallback(_ context.Context, _ forgejo.CallContext, err error) {
	f.mu.Lock()
	f.errs = append(f.errs, err)
	f.mu.Unlock()
}

func (f *fallbacks) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.errs)
}

// With Redis hanging, a client's calls still succeed, paced locally, and
// the PacerFallback hook hears of it; none waits much longer than the timeout.
func TestClientFallsBackWhenRedisHangs(t *testing.T) {
	srv := forgejotest.NewServer(t, forgejotest.WithRateLimit(3, time.Second))
	srv.AddRepo("alice", "demo")
	srv.AddIssues("alice", "demo", 1)
	hung := redis.NewClient(&redis.Options{Addr: blackhole(t)})
	t.Cleanup(func() { hung.Close() })
	rec := &fallbacks{}
	c := srv.Client(
		forgejo.WithPacer(newPacer(t, hung, "hung", WithPacerTimeout(50*time.Millisecond))),
		forgejo.WithRateLimitPacing(forgejo.Pacing{MaxWait: 5 * time.Second}),
		forgejo.WithHooks(forgejo.Hooks{PacerFallback: rec.OnPacerFallback}))
	start := time.Now()
	for i := range 6 {
		if _, _, err := c.Issues.Get(bg, "alice", "demo", 1); err != nil {
			t.Fatalf("request %d failed with Redis down: %v", i, err)
		}
	}
	if rec.count() != 6 || !errors.Is(rec.errs[0], ErrUnavailable) {
		t.Fatalf("fallbacks %v, want 6 wrapping ErrUnavailable", rec.errs)
	}
	// Local pacing kept the 3-per-second quota: no 429.
	for _, r := range srv.Requests() {
		if r.Status == 429 {
			t.Fatalf("a 429 with local pacing: %+v", r)
		}
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Fatalf("6 requests at 3/s took %v", el)
	}
}

// Two clients on one shared quota, in one process: no 429.
func TestTwoClientsShareOneQuota(t *testing.T) {
	rdb, _ := sharedRedis(t)
	srv := forgejotest.NewServer(t, forgejotest.WithRateLimit(10, time.Second))
	srv.AddRepo("alice", "demo")
	srv.AddIssues("alice", "demo", 1)
	name := uniqueName(t, rdb)
	var wg sync.WaitGroup
	for range 2 {
		c := srv.Client(
			forgejo.WithPacer(newPacer(t, rdb, name)),
			forgejo.WithRateLimitPacing(forgejo.Pacing{MaxWait: 5 * time.Second}),
			forgejo.WithRetryPolicy(forgejo.RetryOff()))
		for range 3 {
			wg.Go(func() {
				for range 5 {
					if _, _, err := c.Issues.Get(bg, "alice", "demo", 1); err != nil {
						t.Error(err)
					}
				}
			})
		}
	}
	wg.Wait()
	if n := len(srv.Requests()); n != 30 {
		t.Fatalf("%d requests, want 30", n)
	}
}

// Someone outside the fleet spends the same quota: the server says less
// than the estimate, which drops to that, less the requests in flight.
func TestOutsideSpendingLowersTheEstimate(t *testing.T) {
	rdb, _ := sharedRedis(t)
	p := newPacer(t, rdb, uniqueName(t, rdb))
	const w = 10 * time.Second
	p.Observe(bg, forgejo.CallContext{}, time.Now(), 200, snap(50, w, 100, w), 0)
	reserve(t, p)
	reserve(t, p) // estimate 48, two in flight
	// One of the two answers: the server has 40 left, not 49.
	p.Observe(bg, forgejo.CallContext{}, time.Now(), 200, snap(40, w, 100, w), 0)
	for i := range 39 { // 40 less the request still in flight
		if d := reserve(t, p); d != 0 {
			t.Fatalf("request %d: wait %v", i, d)
		}
	}
	if d := reserve(t, p); d == 0 {
		t.Fatal("the 40th request went now: the outside spending was ignored")
	}
	// Our own requests answering later (the server saying more than the
	// estimate) never raise it within the window.
	p.Observe(bg, forgejo.CallContext{}, time.Now(), 200, snap(45, w, 100, w), 0)
	if d := reserve(t, p); d == 0 {
		t.Fatal("a stale snapshot raised the estimate")
	}
}

// Requests let through before the first snapshot are all in flight when it
// arrives; the server has already counted some of them. Charging all of
// them again would lose those slots for the window (and, in a fleet, cost
// a whole extra window): the budget left is the quota less what was sent.
func TestFirstSnapshotDoesNotCountInFlightTwice(t *testing.T) {
	rdb, _ := sharedRedis(t)
	p := newPacer(t, rdb, uniqueName(t, rdb))
	const w = 10 * time.Second
	for range 5 {
		if d := reserve(t, p); d != 0 {
			t.Fatalf("a wait of %v with nothing known", d)
		}
	}
	// The first answer: the server counted all five (r = 95).
	p.Observe(bg, forgejo.CallContext{}, time.Now(), 200, snap(95, w, 100, w), 0)
	now := 0
	for range 100 {
		if reserve(t, p) == 0 {
			now++
		}
	}
	if now != 95 {
		t.Fatalf("%d reservations went at once after the first snapshot, want 95 (100 less the 5 sent)", now)
	}
}
