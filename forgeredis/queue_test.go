package forgeredis

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo/webhook"
	"github.com/redis/go-redis/v9"
)

// newTestQueue is a Queue with a unique name whose keys are deleted when
// the test ends.
func newTestQueue(t *testing.T, rdb *redis.Client, opts ...QueueOption) *Queue {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	q, err := NewQueue(rdb, "test-"+t.Name()+"-"+hex.EncodeToString(b), append([]QueueOption{WithPollInterval(50 * time.Millisecond)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rdb.Del(context.Background(), q.Keys()...) })
	return q
}

func sample(id string) *webhook.StoredDelivery {
	payload := []byte(`{"ref":"refs/heads/main","before":"a","after":"b","commits":[],"repository":{"id":1}}`)
	return &webhook.StoredDelivery{ID: id, EventType: webhook.EventPush, Family: "push", ContentType: "json",
		Body: payload, Payload: payload, Signed: true, Received: time.Unix(1700000000, 123456789),
		Header: http.Header{"X-Forgejo-Delivery": {id}, "X-Forgejo-Signature": {"abc"}, "X-Bin": {"\x00\xff\r\n"}}}
}

func receive(t *testing.T, q *Queue, consumer string, vis time.Duration) *webhook.Lease {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l, err := q.Receive(ctx, consumer, vis)
	if err != nil {
		t.Fatalf("Receive: %v", err)
	}
	return l
}

func nothing(t *testing.T, q *Queue, wait time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if l, err := q.Receive(ctx, "c-nothing", time.Minute); err == nil {
		t.Fatalf("Receive handed out %s, want nothing", l.Delivery.ID)
	}
}

func TestQueueRoundTrip(t *testing.T) {
	rdb, _ := sharedRedis(t)
	q := newTestQueue(t, rdb)
	ctx := context.Background()
	form := sample("FORM")
	form.ContentType, form.Body = "form", []byte("payload=%7B%7D")
	get := sample("GET")
	get.ContentType, get.Body, get.Signed = "query", nil, false
	for _, d := range []*webhook.StoredDelivery{sample("A"), form, get} {
		if err := q.Enqueue(ctx, d); err != nil {
			t.Fatal(err)
		}
		l := receive(t, q, "c1", time.Minute)
		got := l.Delivery
		if got.ID != d.ID || got.EventType != d.EventType || got.Family != d.Family || got.ContentType != d.ContentType ||
			!bytes.Equal(got.Body, d.Body) || !bytes.Equal(got.Payload, d.Payload) || got.Signed != d.Signed ||
			!got.Received.Equal(d.Received) || got.Header.Get("X-Bin") != "\x00\xff\r\n" || len(got.Header) != len(d.Header) {
			t.Errorf("stored %+v, got %+v", d, got)
		}
		if l.Attempt != 1 || l.Reclaimed || l.Consumer != "c1" {
			t.Errorf("lease %+v", l)
		}
		if _, err := got.Event(); err != nil && d.ID == "A" {
			t.Errorf("Event: %v", err)
		}
		if err := q.Ack(ctx, l); err != nil {
			t.Fatal(err)
		}
		if err := q.Ack(ctx, l); !errors.Is(err, webhook.ErrLeaseLost) {
			t.Errorf("second Ack: %v, want ErrLeaseLost", err)
		}
	}
	if live, delayed, dead, _ := q.Len(ctx); live+delayed+dead != 0 {
		t.Errorf("left %d %d %d", live, delayed, dead)
	}
}

func TestQueueBound(t *testing.T) {
	rdb, _ := sharedRedis(t)
	q := newTestQueue(t, rdb, WithCapacity(2))
	ctx := context.Background()
	for i, want := range []bool{true, true, false} {
		err := q.Enqueue(ctx, sample(string(rune('A'+i))))
		if (err == nil) != want || (!want && !errors.Is(err, webhook.ErrQueueFull)) {
			t.Fatalf("Enqueue %d: %v", i, err)
		}
	}
	// A dead letter still counts; nothing was dropped.
	l := receive(t, q, "c", time.Minute)
	if err := q.DeadLetter(ctx, l, "x"); err != nil {
		t.Fatal(err)
	}
	if err := q.Enqueue(ctx, sample("C")); !errors.Is(err, webhook.ErrQueueFull) {
		t.Fatalf("Enqueue with a dead letter at the bound: %v", err)
	}
	if live, _, dead, _ := q.Len(ctx); live != 1 || dead != 1 {
		t.Fatalf("live %d dead %d", live, dead)
	}
}

func TestQueueReclaimedLease(t *testing.T) {
	rdb, _ := sharedRedis(t)
	q := newTestQueue(t, rdb)
	ctx := context.Background()
	q.Enqueue(ctx, sample("A"))
	l1 := receive(t, q, "dead-worker", 300*time.Millisecond)
	nothing(t, q, 150*time.Millisecond) // leased: not handed out again
	start := time.Now()
	l2 := receive(t, q, "c2", 300*time.Millisecond)
	if !l2.Reclaimed || l2.Attempt != 2 || l2.Delivery.ID != "A" || l2.Consumer != "c2" {
		t.Fatalf("reclaimed lease %+v", l2)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
	// The old lease is no longer current.
	if err := q.Retry(ctx, l1, 0); !errors.Is(err, webhook.ErrLeaseLost) {
		t.Errorf("Retry of the expired lease: %v", err)
	}
	if err := q.DeadLetter(ctx, l1, "x"); !errors.Is(err, webhook.ErrLeaseLost) {
		t.Errorf("DeadLetter of the expired lease: %v", err)
	}
	// Ack of the old lease still completes the delivery (the function ran).
	if err := q.Ack(ctx, l1); err != nil {
		t.Errorf("Ack of the old lease: %v", err)
	}
	if err := q.Ack(ctx, l2); !errors.Is(err, webhook.ErrLeaseLost) {
		t.Errorf("Ack after completion: %v", err)
	}
	nothing(t, q, 500*time.Millisecond)
}

func TestQueueRetryAndDeadLetter(t *testing.T) {
	rdb, _ := sharedRedis(t)
	q := newTestQueue(t, rdb)
	ctx := context.Background()
	q.Enqueue(ctx, sample("A"))
	l := receive(t, q, "c", time.Minute)
	if err := q.Retry(ctx, l, 400*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := q.Retry(ctx, l, 0); !errors.Is(err, webhook.ErrLeaseLost) {
		t.Errorf("second Retry: %v", err)
	}
	nothing(t, q, 200*time.Millisecond) // not yet due
	l = receive(t, q, "c", time.Minute)
	if l.Attempt != 2 || l.Reclaimed || l.Delivery.ID != "A" {
		t.Fatalf("retried lease %+v", l)
	}
	if err := q.Retry(ctx, l, 0); err != nil {
		t.Fatal(err)
	}
	l = receive(t, q, "c", time.Minute)
	if l.Attempt != 3 {
		t.Fatalf("attempt %d", l.Attempt)
	}
	if err := q.DeadLetter(ctx, l, "gave up: boom"); err != nil {
		t.Fatal(err)
	}
	if err := q.Ack(ctx, l); !errors.Is(err, webhook.ErrLeaseLost) {
		t.Errorf("Ack of a dead letter: %v", err)
	}
	nothing(t, q, 200*time.Millisecond)
	dl, err := q.DeadLetters(ctx, 0)
	if err != nil || len(dl) != 1 {
		t.Fatalf("DeadLetters: %v %v", dl, err)
	}
	if dl[0].Reason != "gave up: boom" || dl[0].Attempts != 3 || dl[0].Delivery.ID != "A" ||
		!bytes.Equal(dl[0].Delivery.Payload, sample("A").Payload) || time.Since(dl[0].At) > time.Minute {
		t.Errorf("dead letter %+v", dl[0])
	}
	if err := q.Requeue(ctx, "B"); !errors.Is(err, webhook.ErrNotDead) {
		t.Errorf("Requeue of no dead letter: %v", err)
	}
	if err := q.Requeue(ctx, "A"); err != nil {
		t.Fatal(err)
	}
	if err := q.Requeue(ctx, "A"); !errors.Is(err, webhook.ErrNotDead) {
		t.Errorf("second Requeue: %v", err)
	}
	l = receive(t, q, "c", time.Minute)
	if l.Attempt != 1 || l.Delivery.ID != "A" {
		t.Errorf("requeued lease %+v", l)
	}
	if dl, _ := q.DeadLetters(ctx, 0); len(dl) != 0 {
		t.Errorf("dead letters after requeue: %d", len(dl))
	}
}

func TestGuardOneOfTwo(t *testing.T) {
	rdb, _ := sharedRedis(t)
	b := make([]byte, 6)
	rand.Read(b)
	name := "test-" + hex.EncodeToString(b)
	g1, _ := NewGuard(rdb, name)
	g2, _ := NewGuard(redis.NewClient(&redis.Options{Addr: rdb.Options().Addr}), name)
	ctx := context.Background()
	res := make(chan bool, 2)
	for _, g := range []*Guard{g1, g2} {
		go func() { ok, _ := g.Claim(ctx, "ID-1"); res <- ok }()
	}
	if a, b := <-res, <-res; a == b {
		t.Fatalf("claims %v %v, want one true", a, b)
	}
	if err := g2.Release(ctx, "ID-1"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := g1.Claim(ctx, "ID-1"); !ok {
		t.Error("claim after release refused")
	}
	g1.Release(ctx, "ID-1")
}

// Two receivers (handlers) given the same delivery store it twice; the
// workers' guard runs it once.
func TestGuardTwoReceiversOneRun(t *testing.T) {
	rdb, _ := sharedRedis(t)
	q := newTestQueue(t, rdb)
	b := make([]byte, 6)
	rand.Read(b)
	g, _ := NewGuard(rdb, "test-"+hex.EncodeToString(b))
	p, err := webhook.NewParser(webhook.WithSecret("s3cret"))
	if err != nil {
		t.Fatal(err)
	}
	ran := make(chan string, 10)
	h, err := webhook.NewHandler(p, nil, webhook.WithQueue(q))
	if err != nil {
		t.Fatal(err)
	}
	rt := webhook.NewRouter()
	webhook.On(rt, webhook.EventPush, func(ctx context.Context, e *webhook.PushEvent) error {
		ran <- e.DeliveryID()
		return nil
	})
	r1, r2 := httptest.NewServer(h), httptest.NewServer(h)
	defer r1.Close()
	defer r2.Close()
	out := webhook.Build(webhook.EventPush, sample("x").Payload, webhook.BuildOptions{Secret: "s3cret", DeliveryID: "6f9619ff-8b86-d011-b42d-00cf4fc964ff"})
	for _, srv := range []*httptest.Server{r1, r2} {
		req, _ := out.NewRequest(context.Background(), srv.URL)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusAccepted {
			t.Fatalf("delivery: %v %v", resp, err)
		}
		resp.Body.Close()
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	for i := 0; i < 2; i++ {
		w, err := webhook.NewWorker(q, rt, webhook.WithWorkerGuard(g), webhook.WithConcurrency(2))
		if err != nil {
			t.Fatal(err)
		}
		go func() { done <- w.Run(ctx) }()
	}
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if live, _, _, _ := q.Len(context.Background()); live == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
	<-done
	if len(ran) != 1 {
		t.Fatalf("ran %d times, want 1", len(ran))
	}
	if id := <-ran; !strings.EqualFold(id, "6f9619ff-8b86-d011-b42d-00cf4fc964ff") {
		t.Errorf("ran %s", id)
	}
}

// A store that cannot be reached: the receiver answers 500, and no error
// names the password.
func TestQueueUnavailable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	const password = "hunter2-very-secret"
	rdb := redis.NewClient(&redis.Options{Addr: addr, Password: password, MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer rdb.Close()
	q, _ := NewQueue(rdb, "down", WithQueueTimeout(500*time.Millisecond))
	g, _ := NewGuard(rdb, "down")
	p, _ := webhook.NewParser(webhook.WithSecret("s3cret"))
	var errs []error
	h, err := webhook.NewHandler(p, nil, webhook.WithQueue(q), webhook.WithErrorFunc(func(_ *http.Request, err error) { errs = append(errs, err) }))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	out := webhook.Build(webhook.EventPush, sample("x").Payload, webhook.BuildOptions{Secret: "s3cret"})
	req, _ := out.NewRequest(context.Background(), srv.URL)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusInternalServerError {
		t.Errorf("status %d, want 500", resp.StatusCode)
	}
	ctx := context.Background()
	_, gerr := g.Claim(ctx, "A")
	_, rerr := q.Receive(ctx, "c", time.Second)
	_, derr := q.DeadLetters(ctx, 0)
	errs = append(errs, gerr, rerr, derr, q.Requeue(ctx, "A"))
	for _, err := range errs {
		if err == nil {
			t.Error("no error from an unreachable store")
			continue
		}
		if strings.Contains(err.Error(), password) {
			t.Errorf("error names the password: %v", err)
		}
	}
	// A server that answers with the password in its error text (a wrong
	// one, say) is scrubbed too.
	if e := wrapErr("x", errors.New("ERR bad "+password), password); strings.Contains(e.Error(), password) {
		t.Errorf("not scrubbed: %v", e)
	}
}

// TestQueueExtend: a lease extended before it expires stays its
// consumer's (another consumer's Receive finds nothing well past the first
// deadline, and the delivery count stays 1); once left to expire, Extend
// reports ErrLeaseLost and the delivery is handed out Reclaimed.
func TestQueueExtend(t *testing.T) {
	rdb, _ := sharedRedis(t)
	q := newTestQueue(t, rdb)
	ctx := context.Background()
	q.Enqueue(ctx, sample("A"))
	l := receive(t, q, "busy-worker", 400*time.Millisecond)
	first := l.Deadline
	for range 4 {
		time.Sleep(200 * time.Millisecond)
		if err := q.Extend(ctx, l, 400*time.Millisecond); err != nil {
			t.Fatalf("Extend of a current lease: %v", err)
		}
	}
	if !l.Deadline.After(first.Add(500 * time.Millisecond)) {
		t.Errorf("deadline %v after four extensions, first %v", l.Deadline, first)
	}
	// 950 ms after the lease began, a consumer that would take over a
	// lease idle for 400 ms finds nothing.
	pctx, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
	defer cancel()
	if l3, err := q.Receive(pctx, "c3", 400*time.Millisecond); err == nil {
		t.Fatalf("an extended lease was handed out to another consumer: %+v", l3)
	}
	time.Sleep(450 * time.Millisecond)
	if err := q.Extend(ctx, l, 400*time.Millisecond); !errors.Is(err, webhook.ErrLeaseLost) {
		t.Fatalf("Extend of an expired lease: %v, want ErrLeaseLost", err)
	}
	l2 := receive(t, q, "c2", 400*time.Millisecond)
	if !l2.Reclaimed || l2.Attempt != 2 {
		t.Errorf("after expiry: %+v, want Reclaimed, attempt 2 (extensions do not count)", l2)
	}
	if err := q.Ack(ctx, l2); err != nil {
		t.Fatal(err)
	}
}

// TestHeaderEncoding: every byte of every header value survives the
// stored form, empty value lists stay, nil ones go; a damaged form is an
// error, never a panic; an entry with the headers in JSON (a form of
// development, never released) is one without headers.
func TestHeaderEncoding(t *testing.T) {
	h := http.Header{"X-Bin": {"\x00\xff\r\n", ""}, "Empty": {}, "Nil": nil, "": {"no name"}, "X-Long": {strings.Repeat("v", 70000)}}
	got, err := decodeHeader(encodeHeader(h))
	if err != nil {
		t.Fatal(err)
	}
	want := http.Header{"X-Bin": {"\x00\xff\r\n", ""}, "Empty": {}, "": {"no name"}, "X-Long": {strings.Repeat("v", 70000)}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip: %q", got)
	}
	if got, err := decodeHeader(encodeHeader(nil)); err != nil || got == nil || len(got) != 0 {
		t.Errorf("nil header: %v, %v", got, err)
	}
	full := encodeHeader(h)
	for i := range len(full) {
		if _, err := decodeHeader(full[:i]); err == nil {
			t.Fatalf("a form cut at %d of %d bytes decoded", i, len(full))
		}
	}
	for _, b := range [][]byte{{0xff}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, {1, 0xff, 0xff, 0xff, 0x7f}, append(encodeHeader(h), 0)} {
		if _, err := decodeHeader(b); err == nil {
			t.Errorf("%q decoded", b)
		}
	}
	old := map[string]any{fID: "A", fType: "push", fCT: "json", fPayload: "{}", fSame: "1", fSigned: "1", fReceived: "1700000000000000000",
		"header": `{"X-Bin":["AP8NCg=="],"Empty":[]}`}
	if d, _, err := decodeEntry(old); err == nil || err.Error() != "missing hdr" {
		t.Errorf("JSON headers: %+v, %v", d, err)
	}
}
