package forgejo_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

// The pacing simulation: forgejotest emulates Codeberg's edge limiter
// (ratelimit-policy / ratelimit headers, failed requests consuming quota, a
// real 429 with Retry-After once the quota is spent) with a scaled-down
// window, q=100 per w=2 s. A walk of 250 one-item pages needs more requests
// than one window allows.

const (
	simQuota  = 100
	simWindow = 2 * time.Second
	simIssues = 250
)

// simClock is one virtual clock shared by the fake server and the client:
// the client's waits advance it, requests take no time.
type simClock struct {
	mu sync.Mutex
	t  time.Time
}

func (k *simClock) Now() time.Time {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.t
}

func (k *simClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	k.mu.Lock()
	k.t = k.t.Add(max(d, 0))
	k.mu.Unlock()
	return nil
}

// Timer moves the time on by d as Sleep does and fires at once.
func (k *simClock) Timer(d time.Duration) (<-chan time.Time, func()) {
	_ = k.Sleep(context.Background(), d)
	c := make(chan time.Time, 1)
	c <- k.Now()
	return c, func() {}
}

// simWalk walks every issue of a repository of simIssues issues, one per
// page, and returns what it saw, the elapsed time on clock, and how many
// 429s the server answered.
func simWalk(t testing.TB, clock forgejo.Clock, serverClock forgejo.Clock, opts ...forgejo.ClientOption) (items int, elapsed time.Duration, tooMany int) {
	t.Helper()
	srvOpts := []forgejotest.Option{forgejotest.WithRateLimit(simQuota, simWindow)}
	if serverClock != nil {
		srvOpts = append(srvOpts, forgejotest.WithClock(serverClock))
	}
	srv := forgejotest.NewServer(t, srvOpts...)
	srv.AddRepo(srv.DefaultUser(), "sim")
	srv.AddIssues(srv.DefaultUser(), "sim", simIssues)

	clientOpts := []forgejo.ClientOption{forgejo.WithRetryPolicy(forgejo.RetryPolicy{
		MaxAttempts: 3, BaseDelay: 250 * time.Millisecond, MaxDelay: 8 * time.Second, Jitter: forgejo.JitterNone, RespectRetryAfter: true,
	})}
	if clock != nil {
		clientOpts = append(clientOpts, forgejo.WithClock(clock))
	}
	c := srv.Client(append(clientOpts, opts...)...)

	start := time.Now()
	if clock != nil {
		start = clock.Now()
	}
	seen := map[int64]bool{}
	for is, err := range c.Issues.ListIter(context.Background(), srv.DefaultUser(), "sim", &forgejo.IssueListOptions{ListOptions: forgejo.ListOptions{Limit: 1}}) {
		if err != nil {
			t.Fatalf("walk failed after %d issues: %v", len(seen), err)
		}
		if seen[is.Number] {
			t.Fatalf("issue #%d seen twice", is.Number)
		}
		seen[is.Number] = true
	}
	if clock != nil {
		elapsed = clock.Now().Sub(start)
	} else {
		elapsed = time.Since(start)
	}
	for _, r := range srv.Requests() {
		if r.Status == 429 {
			tooMany++
		}
	}
	return len(seen), elapsed, tooMany
}

// simMinimum is the least time the quota allows for n requests starting at
// the beginning of a window: every full window but the last must pass.
func simMinimum(n int) time.Duration {
	return time.Duration((n+simQuota-1)/simQuota-1) * simWindow
}

func TestPacingSimulation(t *testing.T) {
	requests := simIssues + 1 // the last page is empty: 250 pages of one, then []

	t.Run("pacing on: no 429, within 10% of the minimum", func(t *testing.T) {
		clock := &simClock{t: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}
		items, elapsed, tooMany := simWalk(t, clock, clock, forgejo.WithRateLimitPacing(forgejo.Pacing{}))
		if items != simIssues {
			t.Fatalf("walked %d issues, want %d", items, simIssues)
		}
		if tooMany != 0 {
			t.Fatalf("%d requests were refused with 429; pacing should have waited instead", tooMany)
		}
		min := simMinimum(requests)
		ratio := float64(elapsed) / float64(min)
		if ratio > 1.1 || ratio < 1 {
			t.Fatalf("walk took %v, minimum %v: ratio %.3f", elapsed, min, ratio)
		}
		t.Logf("%d requests in %v of virtual time; minimum %v; ratio %.3f; 429s %d", requests, elapsed, min, ratio, tooMany)
	})

	t.Run("pacing off: the 429s are retried as the seed says", func(t *testing.T) {
		clock := &simClock{t: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}
		items, _, tooMany := simWalk(t, clock, clock)
		if items != simIssues {
			t.Fatalf("walked %d issues, want %d", items, simIssues)
		}
		// One refusal per spent window: the retry waits the Retry-After
		// (the rest of the window) and the next window admits it.
		if want := (requests - 1) / simQuota; tooMany != want {
			t.Fatalf("429s = %d, want %d", tooMany, want)
		}
		t.Logf("pacing off: %d 429s, each retried after its Retry-After", tooMany)
	})
}

// BenchmarkPacingSimulation runs the walk in real time (about 4 s a run)
// and reports the walk's wall time over the minimum the quota allows, and
// the 429s the server answered. Run with -benchtime 1x.
func BenchmarkPacingSimulation(b *testing.B) {
	requests := simIssues + 1
	for _, mode := range []struct {
		name string
		opts []forgejo.ClientOption
	}{
		{"pacing-on", []forgejo.ClientOption{forgejo.WithRateLimitPacing(forgejo.Pacing{})}},
		{"pacing-off", nil},
	} {
		b.Run(mode.name, func(b *testing.B) {
			var ratio, tooMany float64
			for b.Loop() {
				_, elapsed, n := simWalk(b, nil, nil, mode.opts...)
				ratio += float64(elapsed) / float64(simMinimum(requests))
				tooMany += float64(n)
			}
			b.ReportMetric(ratio/float64(b.N), "wall/min")
			b.ReportMetric(tooMany/float64(b.N), "429s/op")
		})
	}
}
