package forgeredis

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/webhook"
	"github.com/redis/go-redis/v9"
)

// startAOFRedis starts a redis-server with appendonly yes and appendfsync
// always in dir on port (0: a free one), and returns its address and a
// function that kills it (SIGKILL: a crash, nothing flushed on the way).
func startAOFRedis(t *testing.T, dir string, port int) (string, func()) {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		skipOrFail(t, "redis-server is not on PATH (scripts/redis.sh start installs it)")
	}
	if port == 0 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port = l.Addr().(*net.TCPAddr).Port
		l.Close()
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	cmd := exec.Command(bin, "--bind", "127.0.0.1", "--port", strconv.Itoa(port), "--save", "",
		"--appendonly", "yes", "--appendfsync", "always", "--dir", dir, "--logfile", filepath.Join(dir, "redis.log"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	kill := func() {
		select {
		case <-done:
		default:
			cmd.Process.Kill()
			<-done
		}
	}
	t.Cleanup(kill)
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer rdb.Close()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err = rdb.Ping(ctx).Err()
		cancel()
		if err == nil {
			return addr, kill
		}
	}
	t.Fatalf("redis-server with AOF did not come up on %s (log in %s)", addr, dir)
	return "", nil
}

// webhookFastPolicy retries quickly, for tests whose store goes away.
var webhookFastPolicy = forgejo.RetryPolicy{MaxAttempts: 20, BaseDelay: 50 * time.Millisecond, MaxDelay: 500 * time.Millisecond, Jitter: forgejo.JitterFull}

// TestRedisCrashWithAOF: Redis (appendonly yes, appendfsync always) is
// killed with SIGKILL a third of the way through and restarted on its AOF.
// Every delivery a receiver answered 202 runs: none stored is lost.
// Deliveries answered 500 while Redis was down are sent again, as a
// person's replay would.
func TestRedisCrashWithAOF(t *testing.T) {
	if testing.Short() {
		t.Skip("restarts a redis-server")
	}
	dir := t.TempDir()
	addr, kill := startAOFRedis(t, dir, 0)
	port, _ := strconv.Atoi(addr[len("127.0.0.1:"):])
	client := func() *redis.Client {
		c := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: 200 * time.Millisecond})
		t.Cleanup(func() { c.Close() })
		return c
	}
	p, _ := webhook.NewParser(webhook.WithSecret(fleetSecret))
	var receivers []string
	for i := 0; i < 2; i++ {
		q, _ := NewQueue(client(), "crash", WithQueueTimeout(time.Second))
		h, err := webhook.NewHandler(p, nil, webhook.WithQueue(q))
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		receivers = append(receivers, srv.URL)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wwg sync.WaitGroup
	for i := 0; i < 2; i++ {
		rdb := client()
		q, _ := NewQueue(rdb, "crash", WithPollInterval(100*time.Millisecond), WithQueueTimeout(time.Second))
		g, _ := NewGuard(rdb, "crash")
		r := webhook.NewRouter()
		webhook.On(r, webhook.EventPush, func(ctx context.Context, e *webhook.PushEvent) error {
			return rdb.HIncrBy(ctx, fleetDone, e.DeliveryID(), 1).Err()
		})
		w, err := webhook.NewWorker(q, r, webhook.WithWorkerGuard(g), webhook.WithConcurrency(4), webhook.WithVisibilityTimeout(time.Second),
			webhook.WithRetryPolicy(webhookFastPolicy))
		if err != nil {
			t.Fatal(err)
		}
		wwg.Add(1)
		go func() { defer wwg.Done(); w.Run(ctx) }()
	}

	const n = 1000
	var accepted, refused atomic.Int64
	var killedAt atomic.Int64
	hc := &http.Client{Timeout: 5 * time.Second}
	jobs := make(chan int)
	var swg sync.WaitGroup
	for c := 0; c < 8; c++ {
		swg.Add(1)
		go func() {
			defer swg.Done()
			for i := range jobs {
				payload := fmt.Appendf(nil, `{"ref":"refs/heads/main","before":"a","after":"b","commits":[],"repository":{"id":%d}}`, i)
				out := webhook.Build(webhook.EventPush, payload, webhook.BuildOptions{Secret: fleetSecret, DeliveryID: fmt.Sprintf("%08x-1111-4000-8000-%012x", i, i)})
				for try := 0; ; try++ {
					req, _ := out.NewRequest(context.Background(), receivers[(i+try)%2])
					resp, err := hc.Do(req)
					if err == nil {
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if resp.StatusCode == http.StatusAccepted {
							accepted.Add(1)
							break
						}
					}
					refused.Add(1)
					if try > 200 {
						t.Errorf("delivery %d never stored", i)
						break
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
		}()
	}
	restarted := make(chan struct{})
	for i := 0; i < n; i++ {
		if i == n/3 { // the senders go on while Redis is down
			killedAt.Store(int64(i))
			go func() {
				defer close(restarted)
				kill()
				time.Sleep(2 * time.Second) // longer than a receiver's Enqueue waits
				startAOFRedis(t, dir, port)
			}()
		}
		jobs <- i
	}
	close(jobs)
	swg.Wait()
	<-restarted

	rdb := client()
	var done map[string]string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		done, _ = rdb.HGetAll(context.Background(), fleetDone).Result()
		if len(done) >= n {
			break
		}
	}
	cancel()
	wwg.Wait()
	lost, twice := 0, 0
	for i := 0; i < n; i++ {
		switch runs, _ := strconv.Atoi(done[webhook.CanonicalDeliveryID(fmt.Sprintf("%08x-1111-4000-8000-%012x", i, i))]); {
		case runs == 0:
			lost++
		case runs > 1:
			twice++
		}
	}
	t.Logf("Redis killed (SIGKILL) and restarted on its AOF (appendfsync always) at delivery %d of %d: %d answered 202, %d answers 5xx or failed while it was down (sent again), %d lost, %d ran twice",
		killedAt.Load(), n, accepted.Load(), refused.Load(), lost, twice)
	if lost > 0 {
		t.Errorf("%d deliveries answered 202 never ran", lost)
	}
}
