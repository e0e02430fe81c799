//go:build unix

package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo/forgeredis"
	"codeberg.org/forgego/forgejo/webhook"
	"github.com/redis/go-redis/v9"
)

// TestWebhookQueueFleet is the webhook fleet through the CLI: two
// `forgego webhook listen --queue` processes and two `forgego webhook work
// --exec` processes (this test binary run as forgego, see TestMain) on the
// redis-server of scripts/redis.sh, a thousand signed deliveries, one in
// ten sent to both receivers under the same ID, one worker killed with
// SIGKILL (its whole process group, its commands with it) midway and
// replaced. Every delivery's command runs; none is lost; none runs twice
// except those the killed worker held leases on at the kill (read from
// XPENDING). Then SIGTERM stops the rest, each draining first.
func TestWebhookQueueFleet(t *testing.T) {
	queue := redisURL(t)
	if testing.Short() {
		t.Skip("the fleet takes several seconds")
	}
	b := make([]byte, 6)
	rand.Read(b)
	name := "cli-fleet-" + hex.EncodeToString(b)
	const secret = "fleet-secret-of-the-hook"
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs.log")

	rdb := redis.NewClient(&redis.Options{Addr: strings.TrimSuffix(strings.TrimPrefix(queue, "redis://"), "/0")})
	defer rdb.Close()
	q, err := forgeredis.NewQueue(rdb, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // the queue's keys and the guard's
		if keys, _ := rdb.Keys(context.Background(), "*{"+name+"}*").Result(); len(keys) > 0 {
			rdb.Del(context.Background(), keys...)
		}
	})

	var receivers []string
	for range 2 {
		p := startCLI(t, "webhook", "listen", "--secret", secret, "--addr", "127.0.0.1:0", "--queue", queue, "--queue-name", name)
		m := p.waitFor(t, regexp.MustCompile(`listening for deliveries on (http://\S+/)`))
		receivers = append(receivers, m[1])
	}
	// The command records each run; the sleep is the work.
	command := `sleep 0.01; echo "$FORGEJO_DELIVERY $FORGEJO_EVENT_TYPE" >> ` + runs
	startWorker := func() (*cliProc, string) {
		p := startCLI(t, "webhook", "work", "--queue", queue, "--queue-name", name, "--exec", command,
			"--concurrency", "4", "--claim-after", "2s")
		m := p.waitFor(t, regexp.MustCompile(`working on queue \S+ as (\S+),`))
		return p, m[1]
	}
	workerA, consumerA := startWorker()
	workerB, _ := startWorker()

	const n = 1000
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i)
	}
	client := &http.Client{Timeout: 10 * time.Second}
	var requests, failed atomic.Int64
	send := func(i int, url string) {
		payload := fmt.Appendf(nil, `{"ref":"refs/heads/main","before":"%040d","after":"%040d","commits":[],"repository":{"id":%d,"name":"r"}}`, i, i+1, i)
		out := webhook.Build(webhook.EventPush, payload, webhook.BuildOptions{Secret: secret, DeliveryID: ids[i]})
		req, _ := out.NewRequest(context.Background(), url)
		requests.Add(1)
		resp, err := client.Do(req)
		if err != nil {
			failed.Add(1)
			t.Errorf("delivery %d: %v", i, err)
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			failed.Add(1)
			t.Errorf("delivery %d: status %d", i, resp.StatusCode)
		}
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				send(i, receivers[i%2])
				if i%10 == 0 { // a load balancer retried it to the other receiver
					send(i, receivers[(i+1)%2])
				}
			}
		}()
	}
	go func() {
		for i := range n {
			jobs <- i
		}
		close(jobs)
	}()

	// Midway, worker A dies with everything it started.
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) && len(readRuns(t, runs)) < n/3 {
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(-workerA.cmd.Process.Pid, syscall.SIGKILL)
	<-workerA.done
	ctx := context.Background()
	pend, err := rdb.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: q.Keys()[0], Group: "workers", Start: "-", End: "+", Count: 1000, Consumer: consumerA}).Result()
	if err != nil {
		t.Fatal(err)
	}
	inFlight := map[string]bool{}
	for _, p := range pend {
		m, err := rdb.XRange(ctx, q.Keys()[0], p.ID, p.ID).Result()
		if err != nil || len(m) != 1 {
			t.Fatalf("pending entry %s: %v", p.ID, err)
		}
		for _, v := range m[0].Values {
			if s, ok := v.(string); ok && strings.Count(s, "-") == 4 && len(s) == 36 {
				inFlight[s] = true
			}
		}
	}
	killedAt := len(readRuns(t, runs))
	workerC, _ := startWorker()
	wg.Wait()

	var got map[string]int
	for time.Now().Before(deadline) {
		got = readRuns(t, runs)
		live, delayed, dead, _ := q.Len(ctx)
		if len(got) >= n && live+delayed+dead == 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	lost, twice, twiceInFlight := 0, 0, 0
	for _, id := range ids {
		switch c := got[id]; {
		case c == 0:
			lost++
		case c > 1:
			twice++
			if inFlight[id] {
				twiceInFlight++
			} else {
				t.Errorf("delivery %s ran %d times and was not in flight at the kill", id, c)
			}
		}
	}
	live, delayed, dead, _ := q.Len(ctx)
	t.Logf("CLI fleet: %d deliveries in %d requests (one in ten to both receivers), worker %s killed after %d runs holding %d leases; %d lost, %d ran twice (%d of them in flight at the kill); queue left %d/%d/%d",
		n, requests.Load(), consumerA, killedAt, len(inFlight), lost, twice, twiceInFlight, live, delayed, dead)
	if lost > 0 || failed.Load() > 0 || live+delayed+dead != 0 {
		t.Errorf("%d lost, %d requests failed, queue left %d/%d/%d", lost, failed.Load(), live, delayed, dead)
	}
	for _, p := range []*cliProc{workerB, workerC} {
		p.cmd.Process.Signal(syscall.SIGTERM)
		<-p.done
	}
}

// readRuns counts the runs.log lines per delivery ID.
func readRuns(t *testing.T, path string) map[string]int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	m := map[string]int{}
	for _, line := range strings.Split(string(b), "\n") {
		if id, typ, ok := strings.Cut(line, " "); ok {
			if typ != "push" {
				t.Errorf("a run of event type %q", typ)
			}
			m[id]++
		}
	}
	return m
}

// cliProc is forgego running as a process of its own (in its own process
// group, so that a kill takes its commands with it).
type cliProc struct {
	cmd   *exec.Cmd
	lines chan string
	done  chan struct{}
}

func startCLI(t *testing.T, args ...string) *cliProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "FORGEGO_TEST_AS_MAIN=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &cliProc{cmd: cmd, lines: make(chan string, 64), done: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			select {
			case p.lines <- sc.Text():
			default: // nobody waits for lines any more
			}
		}
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-p.done
		}
	})
	return p
}

// waitFor returns the submatches of the first stderr line matching re.
func (p *cliProc) waitFor(t *testing.T, re *regexp.Regexp) []string {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line := <-p.lines:
			if m := re.FindStringSubmatch(line); m != nil {
				return m
			}
		case <-p.done:
			t.Fatalf("%v exited before printing %v", p.cmd.Args[1:], re)
		case <-timeout:
			t.Fatalf("%v printed no line matching %v", p.cmd.Args[1:], re)
		}
	}
}
