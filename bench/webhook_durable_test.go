package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo/forgeredis"
	"codeberg.org/forgego/forgejo/webhook"
	"github.com/redis/go-redis/v9"
)

// The durable path: deliveries POSTed over loopback HTTP by several
// concurrent senders to an httptest server running
// webhook.NewHandler(p, nil, webhook.WithQueue(q)), which verifies, parses,
// stores and answers 202; a webhook.Worker in the same process drains q
// (a no-op function for every event type), as a single-process receiver
// does. Each operation is one delivery, timed from when it was due to be
// sent to its 202 read by the sender.

// durableQueue is a store under test. open returns the queue the Handler
// stores into, for b.N deliveries, and a function that releases it; when
// the queue is also a webhook.WorkQueue a Worker drains it while the
// benchmark runs.
type durableQueue struct {
	name string
	open func(b *testing.B) (webhook.Queue, func())
}

// storeOnly hides a queue's consumer side: nothing drains it, and the
// process does only the receiving, as a receiver whose workers run
// elsewhere (a shared store) does.
type storeOnly struct{ q webhook.Queue }

func (s storeOnly) Enqueue(ctx context.Context, d *webhook.StoredDelivery) error {
	return s.q.Enqueue(ctx, d)
}

// durableQueues are the stores the durable path is measured with: the
// memory queue, and, when FORGEGO_REDIS_ADDR names a Redis (scripts/redis.sh
// start), forgeredis's Streams queue on it, with a stream of its own per
// run, deleted afterwards.
func durableQueues(tb testing.TB) []durableQueue {
	qs := []durableQueue{
		{"memory", func(*testing.B) (webhook.Queue, func()) {
			return webhook.NewMemoryQueue(webhook.DefaultQueueCapacity), func() {}
		}},
		// The receiving side alone: the queue holds every delivery, and
		// no worker decodes and runs them in this process.
		{"memory-undrained", func(b *testing.B) (webhook.Queue, func()) {
			return storeOnly{webhook.NewMemoryQueue(b.N + 64)}, func() {}
		}},
	}
	addr := os.Getenv("FORGEGO_REDIS_ADDR")
	if addr == "" {
		tb.Log("FORGEGO_REDIS_ADDR is not set: measuring the memory queue only")
		return qs
	}
	redisQueue := func(b *testing.B) *forgeredis.Queue {
		rdb := redis.NewClient(&redis.Options{Addr: addr})
		q, err := forgeredis.NewQueue(rdb, fmt.Sprintf("bench-%d", time.Now().UnixNano()), forgeredis.WithCapacity(b.N+64))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() {
			rdb.Del(context.Background(), q.Keys()...)
			rdb.Close()
		})
		return q
	}
	return append(qs,
		durableQueue{"redis", func(b *testing.B) (webhook.Queue, func()) { return redisQueue(b), func() {} }},
		durableQueue{"redis-undrained", func(b *testing.B) (webhook.Queue, func()) { return storeOnly{redisQueue(b)}, func() {} }},
	)
}

// durableLoad is how the senders send: rate deliveries per second, each
// due at its time whether or not the earlier ones were answered (an open
// loop, as Forgejo's deliveries arrive), or, with rate 0, each sender
// sending its next delivery as soon as its last one was answered (the
// throughput the path sustains).
type durableLoad struct {
	name    string
	senders int
	rate    float64
}

var durableLoads = []durableLoad{
	{"max", 8, 0},
	{"rate=1000", 16, 1000},
}

// BenchmarkWebhookDurable reports, per store (memory: a MemoryQueue that
// a Worker in the process drains, decoding every delivery again to run
// it; memory-undrained: the receiving alone) and load, deliveries/s
// (deliveries answered 202 per second of wall time), p50-ms and p99-ms
// (time from due to 202) and cpu-ns/op (the process's CPU per delivery:
// senders, server, Handler, queue and Worker together). The percentiles
// need a few thousand deliveries: -benchtime 5000x.
func BenchmarkWebhookDurable(b *testing.B) {
	ds := hookDeliveries(b)
	for _, dq := range durableQueues(b) {
		for _, load := range durableLoads {
			b.Run(dq.name+"/"+load.name, func(b *testing.B) {
				q, release := dq.open(b)
				defer release()
				benchDurable(b, q, ds, load)
			})
		}
	}
}

// benchDurable measures b.N deliveries of ds (taken in turn, each with a
// delivery ID of its own) through a Handler storing into q, under load.
func benchDurable(b *testing.B, q webhook.Queue, ds []hookDelivery, load durableLoad) {
	p, err := webhook.NewParser(webhook.WithSecret(hookSecret))
	if err != nil {
		b.Fatal(err)
	}
	var handlerErrs atomic.Int64
	var firstErr atomic.Value
	h, err := webhook.NewHandler(p, nil, webhook.WithQueue(q), webhook.WithErrorFunc(func(_ *http.Request, err error) {
		handlerErrs.Add(1)
		firstErr.CompareAndSwap(nil, err)
	}))
	if err != nil {
		b.Fatal(err)
	}
	var ran atomic.Int64
	r := webhook.NewRouter()
	r.HandleDefault(func(context.Context, webhook.Event) error { ran.Add(1); return nil })
	srv := httptest.NewServer(h)
	defer srv.Close()

	// The worker drains the queue while the senders fill it.
	workerCtx, stopWorker := context.WithCancel(context.Background())
	workerDone := make(chan error, 1)
	wq, drains := q.(webhook.WorkQueue)
	if drains {
		w, err := webhook.NewWorker(wq, r, webhook.WithConcurrency(2), webhook.WithConsumerName("bench"))
		if err != nil {
			b.Fatal(err)
		}
		go func() { workerDone <- w.Run(workerCtx) }()
	} else {
		workerDone <- nil
	}
	defer func() {
		stopWorker()
		if err := <-workerDone; err != nil {
			b.Error(err)
		}
	}()

	// send sends b.N deliveries, from this process or from a child.
	var send func() (senderResult, error)
	if *childSender {
		child, err := startSenderChild(srv.URL+"/hook", load, b.N)
		if err != nil {
			b.Fatal(err)
		}
		send = child.run
	} else {
		s := newHookSender(srv.URL+"/hook", ds, load)
		defer s.close()
		if err := s.warm(); err != nil {
			b.Fatal(err)
		}
		send = func() (senderResult, error) {
			lat, elapsed, err := s.run(b.N)
			return senderResult{lat: lat, elapsed: elapsed}, err
		}
	}
	cpuStart := cpuTime()
	steal0, total0 := machineSteal()
	b.ResetTimer()
	res, err := send()
	b.StopTimer()
	cpuUsed := cpuTime() - cpuStart
	if err != nil {
		b.Fatalf("%v (handler errors: %d, first: %v)", err, handlerErrs.Load(), firstErr.Load())
	}
	all := res.lat // sorted
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(float64(len(all))/res.elapsed.Seconds(), "deliveries/s")
	b.ReportMetric(ms(percentile(all, 0.50)), "p50-ms")
	b.ReportMetric(ms(percentile(all, 0.99)), "p99-ms")
	b.ReportMetric(float64(cpuUsed)/float64(b.N), "cpu-ns/op")
	if *childSender {
		b.ReportMetric(float64(res.cpu)/float64(b.N), "sender-cpu-ns/op")
	}
	reportSteal(b, steal0, total0)

	// What was stored runs: wait (briefly) for the worker to drain.
	if drains {
		want := int64(b.N + load.senders)
		for deadline := time.Now().Add(10 * time.Second); ran.Load() < want && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		if got := ran.Load(); got != want {
			b.Errorf("the worker ran %d of %d stored deliveries", got, want)
		}
	}
}

// percentile is the nearest-rank percentile of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// hookSender sends signed deliveries as Forgejo does, each with its own
// delivery ID, from load.senders connections, and times each from when it
// was due to its 202 read.
type hookSender struct {
	url    string
	load   durableLoad
	pool   []hookOutgoing
	client *http.Client
}

type hookOutgoing struct {
	body   []byte
	header http.Header
}

func newHookSender(url string, ds []hookDelivery, load durableLoad) *hookSender {
	// Built before the clock starts.
	pool := make([]hookOutgoing, 256)
	for i := range pool {
		d := ds[i%len(ds)]
		o := webhook.Build(d.event, d.body, webhook.BuildOptions{Secret: hookSecret})
		pool[i] = hookOutgoing{o.Body, o.HTTPHeader()}
	}
	return &hookSender{url: url, load: load, pool: pool,
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: load.senders, MaxConnsPerHost: load.senders}}}
}

func (s *hookSender) close() { s.client.CloseIdleConnections() }

func (s *hookSender) send(o hookOutgoing) error {
	req, err := http.NewRequest(http.MethodPost, s.url, bytes.NewReader(o.body))
	if err != nil {
		return err
	}
	req.Header = o.header
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// warm opens the connections: one delivery per sender, not counted (the
// memory-undrained queue has room for 64).
func (s *hookSender) warm() error {
	if s.load.senders > 64 {
		return errors.New("more senders than memory-undrained has room for")
	}
	for i := range s.load.senders {
		if err := s.send(s.pool[i%len(s.pool)]); err != nil {
			return err
		}
	}
	return nil
}

// run sends n deliveries and returns their times, sorted, and the time
// they took; an error if any was not answered 202.
func (s *hookSender) run(n int) ([]time.Duration, time.Duration, error) {
	type job struct {
		i   int
		due time.Time // zero: as soon as a sender is free
	}
	jobs := make(chan job, s.load.senders)
	lat := make([][]time.Duration, s.load.senders)
	var sendErr atomic.Value
	var wg sync.WaitGroup
	start := time.Now()
	for k := range s.load.senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				t0 := j.due
				if t0.IsZero() {
					t0 = time.Now()
				}
				if err := s.send(s.pool[j.i%len(s.pool)]); err != nil {
					sendErr.CompareAndSwap(nil, err)
					continue
				}
				lat[k] = append(lat[k], time.Since(t0))
			}
		}()
	}
	for i := range n {
		j := job{i: i}
		if s.load.rate > 0 {
			j.due = start.Add(time.Duration(float64(i) * float64(time.Second) / s.load.rate))
			if d := time.Until(j.due); d > 0 {
				time.Sleep(d)
			}
		}
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	elapsed := time.Since(start)
	if err, _ := sendErr.Load().(error); err != nil {
		return nil, 0, fmt.Errorf("a delivery was not answered 202: %w", err)
	}
	all := slices.Concat(lat...)
	slices.Sort(all)
	return all, elapsed, nil
}

// With -childsender the deliveries are sent from a child process (this
// test binary started again with sendEnv set), as Forgejo sends them from
// its own: cpu-ns/op is then the receiver's CPU alone, with the sender's
// as sender-cpu-ns/op, and the receiver's garbage collector has only its
// own garbage. The two still share the machine's cores.
var childSender = flag.Bool("childsender", false, "send the durable benchmark's deliveries from a child process (cpu-ns/op is then the receiver's alone)")

// sendEnv carries "url senders rate n" to a child that is to send.
const sendEnv = "FORGEGO_BENCH_SEND"

// senderChild is a started child sender that has warmed its connections
// up and waits for the word to start.
type senderChild struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

type senderResult struct {
	lat     []time.Duration // sorted
	elapsed time.Duration
	cpu     int64 // the child's CPU time while sending (0 in process)
}

func startSenderChild(url string, load durableLoad, n int) (*senderChild, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %g %d", sendEnv, url, load.senders, load.rate, n))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &senderChild{cmd: cmd, in: in, out: bufio.NewReader(outPipe)}
	if line, err := c.out.ReadString('\n'); err != nil || line != "ready\n" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("sender child: %q %v", line, err)
	}
	return c, nil
}

// run starts the sending and reads the child's report: a line
// "done <elapsed ns> <cpu ns> <count>", then one time (ns) per line.
func (c *senderChild) run() (senderResult, error) {
	var res senderResult
	defer func() { _ = c.cmd.Wait() }()
	if _, err := io.WriteString(c.in, "go\n"); err != nil {
		return res, err
	}
	c.in.Close()
	line, err := c.out.ReadString('\n')
	var n int
	var elapsed int64
	if _, serr := fmt.Sscanf(line, "done %d %d %d\n", &elapsed, &res.cpu, &n); err != nil || serr != nil {
		return res, fmt.Errorf("sender child: %q %v %v", line, err, serr)
	}
	res.elapsed = time.Duration(elapsed)
	res.lat = make([]time.Duration, 0, n)
	for range n {
		line, err := c.out.ReadString('\n')
		v, perr := strconv.ParseInt(strings.TrimSpace(line), 10, 64)
		if err != nil || perr != nil {
			return res, fmt.Errorf("sender child: reading times: %v %v", err, perr)
		}
		res.lat = append(res.lat, time.Duration(v))
	}
	slices.Sort(res.lat)
	return res, nil
}

// sendChild is the child's side: warm up, say "ready", wait for a line on
// stdin, send, report. Its exit status is 1 on any failure.
func sendChild(spec string) int {
	var url string
	var load durableLoad
	var n int
	if _, err := fmt.Sscanf(spec, "%s %d %g %d", &url, &load.senders, &load.rate, &n); err != nil {
		fmt.Fprintln(os.Stderr, "sender child: bad spec:", spec, err)
		return 1
	}
	ds, err := loadHookDeliveries()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sender child:", err)
		return 1
	}
	s := newHookSender(url, ds, load)
	defer s.close()
	if err := s.warm(); err != nil {
		fmt.Fprintln(os.Stderr, "sender child:", err)
		return 1
	}
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprint(out, "ready\n")
	out.Flush()
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return 1
	}
	cpu0 := cpuTime()
	lat, elapsed, err := s.run(n)
	cpu := cpuTime() - cpu0
	if err != nil {
		fmt.Fprintln(os.Stderr, "sender child:", err)
		return 1
	}
	fmt.Fprintf(out, "done %d %d %d\n", elapsed.Nanoseconds(), cpu, len(lat))
	for _, d := range lat {
		fmt.Fprintln(out, d.Nanoseconds())
	}
	if err := out.Flush(); err != nil {
		return 1
	}
	return 0
}
