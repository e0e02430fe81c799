package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo/forgeredis"
	"codeberg.org/forgego/forgejo/webhook"
	"github.com/redis/go-redis/v9"
)

// hiddenValue is in every value a vector corrupts: no output may show it.
const hiddenValue = "never-shown"

// cliDeadVector is an entry of the dead-letter stream that does not read
// back as a delivery.
type cliDeadVector struct {
	name string
	// fields makes it from a valid dead letter's fields.
	fields func(valid map[string]any) map[string]any
	// byWorker: added to the queue's stream instead, for 'webhook work'
	// to dead-letter.
	byWorker bool
	// indexAs: indexed under this delivery ID, as the dead-letter script
	// does for an entry with an id field.
	indexAs string
}

func withField(v map[string]any, set map[string]any, drop ...string) map[string]any {
	out := map[string]any{}
	for k, x := range v {
		out[k] = x
	}
	for _, k := range drop {
		delete(out, k)
	}
	for k, x := range set {
		out[k] = x
	}
	return out
}

var cliDeadVectors = []cliDeadVector{
	{name: "one stray field", fields: func(map[string]any) map[string]any { return map[string]any{"foo": hiddenValue} }},
	{name: "garbage dead-lettered by webhook work", byWorker: true,
		fields: func(map[string]any) map[string]any {
			return map[string]any{"id": "junk-" + hiddenValue, "header": "{" + hiddenValue}
		}},
	{name: "truncated JSON header", fields: func(v map[string]any) map[string]any {
		return withField(v, map[string]any{"header": `{"X-Forgejo-Delivery":["` + hiddenValue}, "hdr")
	}},
	{name: "truncated JSON header, indexed under its delivery ID", indexAs: "indexed-delivery",
		fields: func(v map[string]any) map[string]any {
			return withField(v, map[string]any{"id": "indexed-delivery", "header": `{"X-` + hiddenValue}, "hdr")
		}},
	{name: "truncated binary header", fields: func(v map[string]any) map[string]any {
		return withField(v, map[string]any{"hdr": "\x05\x03abc"})
	}},
	{name: "non-numeric attempts", fields: func(v map[string]any) map[string]any {
		return withField(v, map[string]any{"attempts": "three " + hiddenValue})
	}},
	{name: "non-numeric received time", fields: func(v map[string]any) map[string]any {
		return withField(v, map[string]any{"received": "yesterday " + hiddenValue})
	}},
	{name: "no delivery ID", fields: func(v map[string]any) map[string]any { return withField(v, nil, "id") }},
	{name: "binary junk", fields: func(map[string]any) map[string]any {
		return map[string]any{"\x00\xff\xfe": "\x89PNG\r\n\x1a\n\x00" + hiddenValue, "\xc3\x28": "\x1b[2J\xff"}
	}},
}

// deadLetterRig is a queue of its own in the test's Redis.
type deadLetterRig struct {
	url, name string
	rdb       *redis.Client
	q         *forgeredis.Queue
}

func newDeadLetterRig(t *testing.T) *deadLetterRig {
	t.Helper()
	url := redisURL(t)
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { rdb.Close() })
	b := make([]byte, 6)
	rand.Read(b)
	name := "cli-dead-" + hex.EncodeToString(b)
	q, err := forgeredis.NewQueue(rdb, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rdb.Del(context.Background(), q.Keys()...) })
	return &deadLetterRig{url: url, name: name, rdb: rdb, q: q}
}

func (r *deadLetterRig) cli(t *testing.T, args ...string) result {
	t.Helper()
	return cli(t, nil, append(append([]string{"webhook", "dead-letters"}, args...), "--queue", r.url, "--queue-name", r.name)...)
}

// newestDead is the ID of the newest dead letter.
func (r *deadLetterRig) newestDead(t *testing.T) string {
	t.Helper()
	m, err := r.rdb.XRevRangeN(context.Background(), r.q.Keys()[3], "+", "-", 1).Result()
	if err != nil || len(m) != 1 {
		t.Fatalf("newest dead letter: %v %v", m, err)
	}
	return m[0].ID
}

// deadLetter stores a delivery and dead-letters it, returning its entry ID.
func (r *deadLetterRig) deadLetter(t *testing.T, id string) string {
	t.Helper()
	ctx := context.Background()
	d := &webhook.StoredDelivery{ID: id, EventType: webhook.EventIssues, Family: "issues", ContentType: "json",
		Body: []byte(issuePayload), Payload: []byte(issuePayload), Header: http.Header{"X-Forgejo-Delivery": {id}},
		Signed: true, Received: time.Unix(1700000000, 0)}
	if err := r.q.Enqueue(ctx, d); err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	l, err := r.q.Receive(rctx, "test", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.q.DeadLetter(ctx, l, "exit status 3"); err != nil {
		t.Fatal(err)
	}
	return r.newestDead(t)
}

// validDeadFields are the fields of a dead letter as the queue writes them.
func (r *deadLetterRig) validDeadFields(t *testing.T) map[string]any {
	t.Helper()
	id := r.deadLetter(t, "template")
	m, err := r.rdb.XRange(context.Background(), r.q.Keys()[3], id, id).Result()
	if err != nil || len(m) != 1 {
		t.Fatalf("the template: %v %v", m, err)
	}
	if err := r.q.Requeue(context.Background(), "template"); err != nil {
		t.Fatal(err)
	}
	r.rdb.Del(context.Background(), r.q.Keys()[0])
	return m[0].Values
}

// add stores v, returning its dead-letter entry ID.
func (r *deadLetterRig) add(t *testing.T, v cliDeadVector, valid map[string]any) string {
	t.Helper()
	ctx := context.Background()
	keys := r.q.Keys()
	if !v.byWorker {
		id, err := r.rdb.XAdd(ctx, &redis.XAddArgs{Stream: keys[3], Values: v.fields(valid)}).Result()
		if err != nil {
			t.Fatal(err)
		}
		if v.indexAs != "" {
			r.rdb.HSet(ctx, keys[4], v.indexAs, id)
		}
		return id
	}
	before, _ := r.rdb.XLen(ctx, keys[3]).Result()
	_, werr, stop := worker(t, "--queue", r.url, "--queue-name", r.name, "--max-attempts", "1", "--exec", "true")
	if err := r.rdb.XAdd(ctx, &redis.XAddArgs{Stream: keys[0], Values: v.fields(valid)}).Err(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "webhook work to dead-letter the entry", func() bool {
		n, _ := r.rdb.XLen(ctx, keys[3]).Result()
		return n == before+1
	})
	if code := stop(); code != exitInterrupt {
		t.Fatalf("webhook work exited %d: %s", code, werr.String())
	}
	return r.newestDead(t)
}

// TestWebhookQueueDeadLettersUnreadable: one unreadable dead letter among
// readable ones hides nothing: list prints the readable ones and names the
// unreadable one on stderr (a JSON line with --json), requeue requeues the
// readable ones and names it, and both exit 1 saying how many failed.
func TestWebhookQueueDeadLettersUnreadable(t *testing.T) {
	redisURL(t)
	for _, v := range cliDeadVectors {
		t.Run(v.name, func(t *testing.T) {
			r := newDeadLetterRig(t)
			valid := r.validDeadFields(t)
			a := r.deadLetter(t, "delivery-a")
			bad := r.add(t, v, valid)
			b := r.deadLetter(t, "delivery-b")
			noLeak := func(res result) {
				t.Helper()
				for _, s := range []string{res.stdout, res.stderr} {
					if strings.Contains(s, hiddenValue) || strings.Contains(s, "\x1b") {
						t.Errorf("the stored bytes were printed: %q", s)
					}
				}
			}
			summary := "forgego: 1 of 3 dead letters unreadable: " + bad

			res := r.cli(t, "list")
			noLeak(res)
			out, errl := lines(res.stdout), lines(res.stderr)
			if res.code != 1 || len(out) != 2 || !strings.HasPrefix(out[0], "delivery-a  issues  1 attempts  ") ||
				!strings.HasPrefix(out[1], "delivery-b  ") || len(errl) != 2 ||
				!strings.HasPrefix(errl[0], bad+": unreadable: ") || errl[1] != summary {
				t.Fatalf("list: exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
			}

			res = r.cli(t, "list", "--json")
			noLeak(res)
			out, errl = lines(res.stdout), lines(res.stderr)
			if res.code != 1 || len(out) != 3 || len(errl) != 1 || errl[0] != summary {
				t.Fatalf("list --json: exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
			}
			for i, want := range []struct{ id, delivery string }{{a, "delivery-a"}, {bad, ""}, {b, "delivery-b"}} {
				var got map[string]any
				if err := json.Unmarshal([]byte(out[i]), &got); err != nil {
					t.Fatalf("line %d: %v: %s", i, err, out[i])
				}
				reason, unreadable := got["unreadable"].(string)
				if got["id"] != want.id || (want.delivery == "") != unreadable || (unreadable && (reason == "" || len(got) != 2)) ||
					(!unreadable && (got["delivery"] != want.delivery || got["reason"] != "exit status 3")) {
					t.Errorf("line %d: %s, want entry %s of delivery %q", i, out[i], want.id, want.delivery)
				}
			}

			args := []string{"requeue", "delivery-a", bad, b, "nope"}
			if v.indexAs != "" {
				args = append(args, v.indexAs)
			}
			res = r.cli(t, args...)
			noLeak(res)
			errl = lines(res.stderr)
			wantErr := []string{"delivery-a: requeued", bad + ": unreadable: ", b + ": requeued", "nope: not a dead letter"}
			if v.indexAs != "" {
				wantErr = append(wantErr, v.indexAs+": unreadable (entry "+bad+"): ")
			}
			failed := []string{bad, "nope"}
			if v.indexAs != "" {
				failed = append(failed, v.indexAs)
			}
			wantErr = append(wantErr, "forgego: "+strconv.Itoa(len(failed))+" of "+strconv.Itoa(len(args)-1)+" not requeued: "+strings.Join(failed, ", "))
			ok := res.code == 1 && len(errl) == len(wantErr)
			for i := 0; ok && i < len(wantErr); i++ {
				ok = errl[i] == wantErr[i] || (strings.HasSuffix(wantErr[i], ": ") && strings.HasPrefix(errl[i], wantErr[i]))
			}
			if !ok {
				t.Fatalf("requeue: exit %d\nstderr:\n%s\nwant:\n%s", res.code, res.stderr, strings.Join(wantErr, "\n"))
			}

			// The requeued ones are in the queue; the unreadable one stays.
			if n, _ := r.rdb.XLen(context.Background(), r.q.Keys()[0]).Result(); n != 2 {
				t.Errorf("%d entries in the queue's stream, want the 2 requeued", n)
			}
			res = r.cli(t, "list")
			noLeak(res)
			errl = lines(res.stderr)
			if res.code != 1 || res.stdout != "" || len(errl) != 2 || !strings.HasPrefix(errl[0], bad+": unreadable: ") ||
				errl[1] != "forgego: 1 of 1 dead letters unreadable: "+bad {
				t.Errorf("list after requeue: exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
			}
		})
	}
}
