package forgeredis

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
	"github.com/redis/go-redis/v9"
)

// The fleet simulation: 4 OS processes (this test binary, re-executed),
// each with its own client, walk one forgejotest instance that emulates a
// quota of simQuota requests per simWindow, simTotal requests in all.

const (
	simProcs  = 4
	simQuota  = 100
	simWindow = 2 * time.Second
	simTotal  = 1000
	simChild  = "FORGEGO_REDISQUOTA_SIM_CHILD" // set in the children only
)

// childResult is what a child prints on its last line.
type childResult struct {
	Requests  int    `json:"requests"`
	Failed    int    `json:"failed"`
	Fallbacks int64  `json:"fallbacks"`
	FirstErr  string `json:"first_error,omitempty"`
}

// TestHelperProcess is one process of the fleet; it does nothing unless
// the simulation started it.
func TestHelperProcess(t *testing.T) {
	if os.Getenv(simChild) != "1" {
		t.Skip("a child of TestFleetSimulation only")
	}
	res := runChild()
	b, _ := json.Marshal(res)
	fmt.Printf("\nSIMRESULT %s\n", b)
}

type countFallbacks struct{ n atomic.Int64 }

func (c *countFallbacks) OnPacerFallback(context.Context, forgejo.CallContext, error) {
	c.n.Add(1)
}

func runChild() childResult {
	var res childResult
	fail := func(err error) childResult {
		res.Failed++
		if res.FirstErr == "" {
			res.FirstErr = err.Error()
		}
		return res
	}
	index, _ := strconv.Atoi(os.Getenv("SIM_INDEX"))
	count, _ := strconv.Atoi(os.Getenv("SIM_COUNT"))
	rec := &countFallbacks{}
	opts := []forgejo.ClientOption{
		forgejo.WithBaseURL(os.Getenv("SIM_URL")),
		forgejo.WithToken(os.Getenv("SIM_TOKEN")),
		forgejo.WithRateLimitPacing(forgejo.Pacing{MaxWait: 10 * time.Second}),
		// Local pacing alone overshoots; the retries (honouring
		// Retry-After) make sure the walk finishes all the same.
		forgejo.WithRetryPolicy(forgejo.RetryPolicy{MaxAttempts: 20, BaseDelay: 100 * time.Millisecond,
			MaxDelay: 5 * time.Second, RespectRetryAfter: true}),
		forgejo.WithHooks(forgejo.Hooks{PacerFallback: rec.OnPacerFallback}),
	}
	if addr := os.Getenv("SIM_REDIS"); addr != "" {
		rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
		defer rdb.Close()
		p, err := NewPacer(rdb, os.Getenv("SIM_NAME"))
		if err != nil {
			return fail(err)
		}
		opts = append(opts, forgejo.WithPacer(p))
	}
	c, err := forgejo.NewClient(opts...)
	if err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	for i := range count {
		number := int64(index + 1 + i*simProcs)
		if _, _, err := c.Issues.Get(ctx, "alice", "demo", number); err != nil {
			fail(err)
		}
		res.Requests++
	}
	res.Fallbacks = rec.n.Load()
	return res
}

type simRun struct {
	wall, min time.Duration
	perWindow string // requests let through in each window, and when the first came
	tooMany   int
	requests  int
	fallbacks int64
}

func (r simRun) String() string {
	return fmt.Sprintf("%d requests, %d answered 429, wall %v, minimum %v, wall/minimum %.3f, %d fallbacks; per window:%s",
		r.requests, r.tooMany, r.wall.Round(time.Millisecond), r.min.Round(time.Millisecond),
		float64(r.wall)/float64(r.min), r.fallbacks, r.perWindow)
}

// firstReadClock is the system clock, remembering its first reading.
type firstReadClock struct {
	forgejo.Clock
	once  sync.Once
	first time.Time
}

func (c *firstReadClock) Now() time.Time {
	now := time.Now()
	c.once.Do(func() { c.first = now })
	return now
}

// simulate runs the fleet once. redisAddr "" paces locally only; kill, if
// not nil, is called after killAfter.
func simulate(t *testing.T, redisAddr string, kill func(), killAfter time.Duration) simRun {
	t.Helper()
	clock := &firstReadClock{Clock: forgejo.SystemClock()} // forgejotest counts windows from its first reading of the clock
	srv := forgejotest.NewServer(t, forgejotest.WithClock(clock), forgejotest.WithRateLimit(simQuota, simWindow))
	windowsStart := clock.first
	srv.AddRepo("alice", "demo")
	srv.AddIssues("alice", "demo", simTotal)
	name := uniqueName(t, nil)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	type child struct {
		cmd *exec.Cmd
		out bytes.Buffer
	}
	var children []*child
	t0 := time.Now()
	for i := range simProcs {
		ch := &child{cmd: exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1", "-test.v")}
		ch.cmd.Env = append(os.Environ(), simChild+"=1",
			"SIM_URL="+srv.URL, "SIM_TOKEN="+srv.Token(), "SIM_REDIS="+redisAddr, "SIM_NAME="+name,
			"SIM_INDEX="+strconv.Itoa(i), "SIM_COUNT="+strconv.Itoa(simTotal/simProcs))
		ch.cmd.Stdout, ch.cmd.Stderr = &ch.out, &ch.out
		if err := ch.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		children = append(children, ch)
	}
	if kill != nil {
		timer := time.AfterFunc(killAfter, kill)
		defer timer.Stop()
	}
	var run simRun
	for i, ch := range children {
		err := ch.cmd.Wait()
		var res *childResult
		sc := bufio.NewScanner(bytes.NewReader(ch.out.Bytes()))
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), "SIMRESULT "); ok {
				res = new(childResult)
				if jerr := json.Unmarshal([]byte(line), res); jerr != nil {
					t.Fatalf("child %d: %v", i, jerr)
				}
			}
		}
		if err != nil || res == nil {
			t.Fatalf("child %d: %v\n%s", i, err, ch.out.String())
		}
		if res.Failed > 0 || res.Requests != simTotal/simProcs {
			t.Fatalf("child %d: %d requests, %d failed (first: %s)", i, res.Requests, res.Failed, res.FirstErr)
		}
		run.fallbacks += res.Fallbacks
	}
	// The pacing is judged from the first request to the last, not from
	// t0 to the children's exit: starting four test binaries under -race on
	// a loaded machine takes seconds of its own, which says nothing of the
	// pacer.
	first, last := t0, t0
	for i, r := range srv.Requests() {
		if i == 0 || r.Time.Before(first) {
			first = r.Time
		}
		if r.Time.After(last) {
			last = r.Time
		}
	}
	run.wall = last.Sub(first)

	// The minimum: windows [S+k·w, S+(k+1)·w) from the server's start S,
	// simQuota requests each. Starting at the first request in window k0,
	// the last of simTotal requests cannot go before window
	// k0+⌈total/quota⌉−1 opens:
	//   minimum = S + (k0 + ⌈total/quota⌉ − 1)·w − first,  k0 = ⌊(first−S)/w⌋.
	t0 = first
	k0 := int64(t0.Sub(windowsStart) / simWindow)
	windows := int64((simTotal + simQuota - 1) / simQuota)
	run.min = windowsStart.Add(time.Duration(k0+windows-1) * simWindow).Sub(t0)
	var counts []int
	var firsts []time.Duration
	for _, r := range srv.Requests() {
		run.requests++
		if r.Status == 429 {
			run.tooMany++
			continue
		}
		at := r.Time.Sub(windowsStart)
		k := int(at / simWindow)
		for len(counts) <= k {
			counts = append(counts, 0)
			firsts = append(firsts, -1)
		}
		if counts[k] == 0 {
			firsts[k] = at - time.Duration(k)*simWindow
		}
		counts[k]++
	}
	var b strings.Builder
	for k, n := range counts {
		fmt.Fprintf(&b, " %d@+%dms", n, firsts[k].Milliseconds())
	}
	run.perWindow = b.String()
	return run
}

// TestFleetSimulation: 4 processes share one token's quota, with the Redis
// pacer, with local pacing only, and with Redis killed a third of the way.
func TestFleetSimulation(t *testing.T) {
	if testing.Short() {
		t.Skip("the fleet simulation takes about a minute; it runs without -short")
	}
	_, addr := sharedRedis(t)
	own := startOwnRedis(t)

	withRedis := simulate(t, addr, nil, 0)
	t.Logf("Redis pacer:        %v", withRedis)
	local := simulate(t, "", nil, 0)
	t.Logf("local pacing only:  %v", local)
	killed := simulate(t, own.addr, own.kill, 6*time.Second)
	t.Logf("Redis killed at 6s: %v", killed)

	if withRedis.tooMany != 0 {
		t.Errorf("Redis pacer: %d answers were 429, want 0", withRedis.tooMany)
	}
	if ratio := float64(withRedis.wall) / float64(withRedis.min); ratio > 1.15 {
		t.Errorf("Redis pacer: wall %v is %.3f× the minimum %v, want ≤ 1.15", withRedis.wall, ratio, withRedis.min)
	}
	if withRedis.fallbacks != 0 {
		t.Errorf("Redis pacer: %d fallbacks with Redis up", withRedis.fallbacks)
	}
	if killed.fallbacks == 0 {
		t.Errorf("Redis killed: no fallback reported")
	}
}
