package forgeredis

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo/webhook"
	"github.com/redis/go-redis/v9"
)

// The fleet: a redis-server of the test's own, two receiver processes and
// two worker processes (this test binary run again, as TestFleetHelper),
// thousands of signed deliveries, some sent to both receivers under one
// ID, one worker killed with SIGKILL midway and replaced. Every delivery's
// function runs; none is lost; none runs twice except those the killed
// worker held leases on (counted at the kill from XPENDING). Then Redis is
// stopped and a receiver answers 5xx.

const (
	fleetSecret = "fleet-secret"
	fleetQueue  = "fleet"
	fleetDone   = "fleet:done" // hash: delivery ID -> runs of its function
)

// TestFleetHelper is a fleet process when FORGEGO_FLEET_ROLE is set, and
// nothing otherwise.
func TestFleetHelper(t *testing.T) {
	role := os.Getenv("FORGEGO_FLEET_ROLE")
	if role == "" {
		t.Skip("a helper of TestFleet")
	}
	rdb := redis.NewClient(&redis.Options{Addr: os.Getenv("FORGEGO_FLEET_REDIS")})
	defer rdb.Close()
	q, err := NewQueue(rdb, fleetQueue, WithPollInterval(100*time.Millisecond), WithQueueTimeout(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	g, _ := NewGuard(rdb, fleetQueue)
	p, err := webhook.NewParser(webhook.WithSecret(fleetSecret))
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	h, err := webhook.NewHandler(p, nil, webhook.WithQueue(q))
	if err != nil {
		t.Fatal(err)
	}
	switch role {
	case "receiver":
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("ADDR %s\n", l.Addr())
		srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
		go func() { <-ctx.Done(); srv.Close() }()
		srv.Serve(l)
	case "worker":
		r := webhook.NewRouter()
		webhook.On(r, webhook.EventPush, func(ctx context.Context, e *webhook.PushEvent) error {
			time.Sleep(10 * time.Millisecond) // the work
			return rdb.HIncrBy(ctx, fleetDone, e.DeliveryID(), 1).Err()
		})
		w, err := webhook.NewWorker(q, r, webhook.WithWorkerGuard(g), webhook.WithConcurrency(4), webhook.WithVisibilityTimeout(2*time.Second),
			webhook.WithConsumerName(os.Getenv("FORGEGO_FLEET_NAME")), webhook.WithDrainTimeout(5*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("READY")
		if err := w.Run(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

type fleetProc struct {
	cmd  *exec.Cmd
	out  *bufio.Reader
	done chan struct{}
}

func startFleetProc(t *testing.T, redisAddr, role, name string) *fleetProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFleetHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "FORGEGO_FLEET_ROLE="+role, "FORGEGO_FLEET_REDIS="+redisAddr, "FORGEGO_FLEET_NAME="+name)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &fleetProc{cmd: cmd, out: bufio.NewReader(out), done: make(chan struct{})}
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// line reads the process's first line, then lets its stdout drain.
func (p *fleetProc) line(t *testing.T) string {
	t.Helper()
	s, err := p.out.ReadString('\n')
	if err != nil {
		t.Fatalf("fleet process: %v", err)
	}
	go func() { io.Copy(io.Discard, p.out); p.cmd.Wait(); close(p.done) }()
	return strings.TrimSpace(s)
}

func (p *fleetProc) stop(sig os.Signal) {
	p.cmd.Process.Signal(sig)
	<-p.done
}

func TestFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("the fleet takes several seconds")
	}
	srv := startOwnRedis(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.addr})
	defer rdb.Close()
	start := time.Now()

	var receivers []string
	var recvProcs []*fleetProc
	for i := 0; i < 2; i++ {
		p := startFleetProc(t, srv.addr, "receiver", "")
		addr := strings.TrimPrefix(p.line(t), "ADDR ")
		receivers = append(receivers, "http://"+addr+"/")
		recvProcs = append(recvProcs, p)
	}
	workers := map[string]*fleetProc{}
	for _, name := range []string{"worker-a", "worker-b"} {
		p := startFleetProc(t, srv.addr, "worker", name)
		if s := p.line(t); s != "READY" {
			t.Fatalf("worker said %q", s)
		}
		workers[name] = p
	}

	const n = 3000
	ids := make([]string, n)
	jobs := make(chan int)
	var sent, twiceSent, failed atomic.Int64
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	send := func(i int, url string) {
		payload := fmt.Appendf(nil, `{"ref":"refs/heads/main","before":"%040d","after":"%040d","commits":[],"repository":{"id":%d,"name":"r"}}`, i, i+1, i)
		out := webhook.Build(webhook.EventPush, payload, webhook.BuildOptions{Secret: fleetSecret, DeliveryID: ids[i]})
		req, _ := out.NewRequest(context.Background(), url)
		resp, err := client.Do(req)
		if err != nil {
			failed.Add(1)
			t.Errorf("delivery %d: %v", i, err)
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			failed.Add(1)
			t.Errorf("delivery %d: status %d", i, resp.StatusCode)
		}
		sent.Add(1)
	}
	var wg sync.WaitGroup
	for c := 0; c < 16; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				send(i, receivers[i%2])
				if i%10 == 0 { // a load balancer retried it to the other receiver
					twiceSent.Add(1)
					send(i, receivers[(i+1)%2])
				}
			}
		}()
	}
	for i := range ids {
		ids[i] = fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i)
	}
	var killed map[string]bool
	go func() {
		for i := 0; i < n; i++ {
			jobs <- i
		}
		close(jobs)
	}()

	// Midway: SIGKILL worker-a; what it held is what may run twice.
	ctx := context.Background()
	deadline := time.Now().Add(45 * time.Second)
	for time.Now().Before(deadline) {
		if c, _ := rdb.HLen(ctx, fleetDone).Result(); c >= n/2 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	workers["worker-a"].cmd.Process.Kill()
	<-workers["worker-a"].done
	q, _ := NewQueue(rdb, fleetQueue)
	pend, err := rdb.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: q.keys[0], Group: groupName, Start: "-", End: "+", Count: 1000, Consumer: "worker-a"}).Result()
	if err != nil {
		t.Fatal(err)
	}
	killed = map[string]bool{}
	for _, p := range pend {
		m, err := rdb.XRange(ctx, q.keys[0], p.ID, p.ID).Result()
		if err != nil || len(m) != 1 {
			t.Fatalf("pending entry %s: %v", p.ID, err)
		}
		id, _ := m[0].Values[fID].(string)
		killed[id] = true
	}
	workers["worker-c"] = startFleetProc(t, srv.addr, "worker", "worker-c")
	workers["worker-c"].line(t)
	wg.Wait()

	// Wait for every delivery to have run and the queue to be empty.
	var done map[string]string
	for time.Now().Before(deadline) {
		done, err = rdb.HGetAll(ctx, fleetDone).Result()
		if err != nil {
			t.Fatal(err)
		}
		live, delayed, dead, _ := q.Len(ctx)
		if len(done) >= n && live+delayed+dead == 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	lost, twice, twiceInFlight := 0, 0, 0
	for _, id := range ids {
		runs, _ := strconv.Atoi(done[webhook.CanonicalDeliveryID(id)])
		switch {
		case runs == 0:
			lost++
		case runs > 1:
			twice++
			if killed[webhook.CanonicalDeliveryID(id)] {
				twiceInFlight++
			} else {
				t.Errorf("delivery %s ran %d times and was not in flight at the kill", id, runs)
			}
		}
	}
	live, delayed, dead, _ := q.Len(ctx)
	t.Logf("fleet: %d deliveries (%d of them sent to both receivers: %d requests), %d lost, %d ran twice (%d of them in flight at the kill, none other); in flight at the kill: %d leases held by the killed worker; queue left %d/%d/%d; in %v",
		n, twiceSent.Load(), sent.Load(), lost, twice, twiceInFlight, len(killed), live, delayed, dead, time.Since(start).Round(time.Millisecond))
	if lost > 0 || failed.Load() > 0 {
		t.Errorf("%d lost, %d requests failed", lost, failed.Load())
	}
	if live+delayed+dead != 0 {
		t.Errorf("queue not empty: %d live, %d delayed, %d dead", live, delayed, dead)
	}

	for _, p := range workers {
		select {
		case <-p.done:
		default:
			p.stop(syscall.SIGTERM)
		}
	}

	// Redis stopped: a receiver answers 5xx.
	srv.kill()
	out := webhook.Build(webhook.EventPush, []byte(`{"ref":"refs/heads/main","before":"a","after":"b","commits":[],"repository":{"id":1}}`), webhook.BuildOptions{Secret: fleetSecret})
	req, _ := out.NewRequest(ctx, receivers[0])
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode < 500 {
		t.Errorf("with Redis stopped a receiver answered %d, want 5xx", resp.StatusCode)
	} else {
		t.Logf("with Redis stopped the receiver answered %d", resp.StatusCode)
	}
	for _, p := range recvProcs {
		p.stop(syscall.SIGTERM)
	}
}
