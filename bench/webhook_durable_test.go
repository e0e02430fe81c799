package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
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
// webhook.NewHandler(p, webhook.WithQueue(q)), which verifies, parses,
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
	h := webhook.NewHandler(p, webhook.WithQueue(q), webhook.WithErrorFunc(func(_ *http.Request, err error) {
		handlerErrs.Add(1)
		firstErr.CompareAndSwap(nil, err)
	}))
	var ran atomic.Int64
	h.HandleDefault(func(context.Context, webhook.Event) error { ran.Add(1); return nil })
	srv := httptest.NewServer(h)
	defer srv.Close()

	// The worker drains the queue while the senders fill it.
	workerCtx, stopWorker := context.WithCancel(context.Background())
	workerDone := make(chan error, 1)
	wq, drains := q.(webhook.WorkQueue)
	if drains {
		w := webhook.NewWorker(wq, h, webhook.WithConcurrency(2), webhook.WithConsumerName("bench"))
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

	// Every delivery gets its own ID, as Forgejo's do; built before the
	// clock starts.
	type outgoing struct {
		body   []byte
		header http.Header
	}
	pool := make([]outgoing, 256)
	for i := range pool {
		d := ds[i%len(ds)]
		o := webhook.Build(d.event, d.body, webhook.BuildOptions{Secret: hookSecret})
		pool[i] = outgoing{o.Body, o.HTTPHeader()}
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: load.senders, MaxConnsPerHost: load.senders}}
	defer client.CloseIdleConnections()

	send := func(o outgoing) error {
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/hook", bytes.NewReader(o.body))
		if err != nil {
			return err
		}
		req.Header = o.header
		resp, err := client.Do(req)
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
	// Warm the connections up: one delivery per sender, not counted.
	if load.senders > 64 {
		b.Fatal("more senders than memory-undrained has room for")
	}
	for i := range load.senders {
		if err := send(pool[i%len(pool)]); err != nil {
			b.Fatal(err)
		}
	}

	type job struct {
		i   int
		due time.Time // zero: as soon as a sender is free
	}
	jobs := make(chan job, load.senders)
	lat := make([][]time.Duration, load.senders)
	var sendErr atomic.Value
	var wg sync.WaitGroup
	cpuStart := cpuTime()
	steal0, total0 := machineSteal()
	b.ResetTimer()
	start := time.Now()
	for s := range load.senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				t0 := j.due
				if t0.IsZero() {
					t0 = time.Now()
				}
				if err := send(pool[j.i%len(pool)]); err != nil {
					sendErr.CompareAndSwap(nil, err)
					continue
				}
				lat[s] = append(lat[s], time.Since(t0))
			}
		}()
	}
	for i := range b.N {
		j := job{i: i}
		if load.rate > 0 {
			j.due = start.Add(time.Duration(float64(i) * float64(time.Second) / load.rate))
			if d := time.Until(j.due); d > 0 {
				time.Sleep(d)
			}
		}
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	cpuUsed := cpuTime() - cpuStart

	if err := sendErr.Load(); err != nil {
		b.Fatalf("a delivery was not answered 202: %v (handler errors: %d, first: %v)", err, handlerErrs.Load(), firstErr.Load())
	}
	all := slices.Concat(lat...)
	slices.Sort(all)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "deliveries/s")
	b.ReportMetric(ms(percentile(all, 0.50)), "p50-ms")
	b.ReportMetric(ms(percentile(all, 0.99)), "p99-ms")
	b.ReportMetric(float64(cpuUsed)/float64(b.N), "cpu-ns/op")
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
