package forgeredis

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo/webhook"
	"github.com/redis/go-redis/v9"
)

// hidden is put in every value a vector corrupts: no error text may show
// it (an unreadable entry's message never quotes what is stored).
const hidden = "never-shown"

// deadVector is a dead-letter stream entry that does not read back as a
// delivery.
type deadVector struct {
	name string
	// fields makes the entry from a valid dead letter's fields.
	fields func(valid fieldList) fieldList
	// viaStream: the entry is added to the queue's stream and
	// dead-lettered through a lease, as a Worker does with an entry it
	// cannot decode; otherwise it is added to the dead-letter stream.
	viaStream bool
	// indexAs also indexes the entry under this delivery ID, as the
	// dead-letter script does for an entry with an id field.
	indexAs string
	// reason is a part of its UnreadableEntryError's Reason.
	reason string
}

// deadVectors are the adversarial entries.
var deadVectors = []deadVector{
	{name: "no fields of a delivery", reason: "missing",
		fields: func(fieldList) fieldList { return fieldList{fReason, "x " + hidden, fAt, "1700000000000000"} }},
	{name: "one stray field", reason: "missing",
		fields: func(fieldList) fieldList { return fieldList{"foo", hidden} }},
	{name: "one stray field, dead-lettered by a worker", reason: "missing", viaStream: true,
		fields: func(fieldList) fieldList { return fieldList{"foo", hidden} }},
	{name: "empty field name and value", reason: "missing",
		fields: func(fieldList) fieldList { return fieldList{"", ""} }},
	{name: "truncated JSON header (a form never released)", reason: "missing hdr",
		fields: func(v fieldList) fieldList {
			return v.without(fHeaderBin).with("header", `{"X-Forgejo-Delivery":["`+hidden)
		}},
	{name: "truncated JSON header, dead-lettered by a worker", reason: "missing hdr", viaStream: true,
		fields: func(v fieldList) fieldList {
			return v.without(fHeaderBin, fReason, fAt, fAttempts).with(fAttempts, "0").with("header", `{"X-Forgejo-Delivery":["`+hidden)
		}},
	{name: "truncated JSON header, indexed under its delivery ID", reason: "missing hdr", indexAs: "indexed-delivery",
		fields: func(v fieldList) fieldList {
			return v.with(fID, "indexed-delivery").without(fHeaderBin).with("header", `{"X-`+hidden)
		}},
	{name: "JSON header of the wrong shape", reason: "missing hdr",
		fields: func(v fieldList) fieldList { return v.without(fHeaderBin).with("header", `["`+hidden+`"]`) }},
	{name: "truncated binary header", reason: "hdr",
		fields: func(v fieldList) fieldList {
			h := encodeHeader(http.Header{"X-Secret": {hidden}})
			return v.with(fHeaderBin, string(h[:len(h)-3]))
		}},
	{name: "binary header with trailing bytes", reason: "hdr",
		fields: func(v fieldList) fieldList {
			return v.with(fHeaderBin, string(encodeHeader(http.Header{"X-Secret": {hidden}}))+"\x00")
		}},
	{name: "binary header claiming 2^63 keys", reason: "hdr",
		fields: func(v fieldList) fieldList { return v.with(fHeaderBin, "\xff\xff\xff\xff\xff\xff\xff\xff\x7f") }},
	{name: "non-numeric attempts", reason: "attempts",
		fields: func(v fieldList) fieldList { return v.with(fAttempts, "three "+hidden) }},
	{name: "negative attempts", reason: "attempts",
		fields: func(v fieldList) fieldList { return v.with(fAttempts, "-1") }},
	{name: "non-numeric received time", reason: "received",
		fields: func(v fieldList) fieldList { return v.with(fReceived, "yesterday "+hidden) }},
	{name: "signed neither 0 nor 1", reason: "signed",
		fields: func(v fieldList) fieldList { return v.with(fSigned, "yes "+hidden) }},
	{name: "no delivery ID", reason: "missing",
		fields: func(v fieldList) fieldList { return v.without(fID) }},
	{name: "no body", reason: "missing",
		fields: func(v fieldList) fieldList { return v.without(fBody, fSame) }},
	{name: "non-numeric dead-letter time", reason: "dead_at",
		fields: func(v fieldList) fieldList { return v.with(fAt, "now "+hidden) }},
	{name: "no dead-letter fields", reason: "missing",
		fields: func(v fieldList) fieldList { return v.without(fReason, fAt) }},
	{name: "binary junk", reason: "missing",
		fields: func(fieldList) fieldList {
			return fieldList{"\x00\xff\xfe", "\x89PNG\r\n\x1a\n\x00\x00" + hidden, "\xc3\x28", "\xff\xfe\xfd"}
		}},
}

// fieldList is a stream entry's fields and values, in order.
type fieldList []any

// validFields are the fields of a dead letter of sample(id) as the
// dead-letter script writes them.
func validFields(id string) fieldList {
	return append(fieldList(encode(sample(id), 2)), fReason, "failed 2 times", fAt, "1700000000000000")
}

func (f fieldList) with(k, v string) fieldList {
	out := append(fieldList(nil), f...)
	for i := 0; i < len(out); i += 2 {
		if out[i] == k {
			out[i+1] = v
			return out
		}
	}
	return append(out, k, v)
}

func (f fieldList) without(ks ...string) fieldList {
	var out fieldList
outer:
	for i := 0; i < len(f); i += 2 {
		for _, k := range ks {
			if f[i] == k {
				continue outer
			}
		}
		out = append(out, f[i], f[i+1])
	}
	return out
}

// lastDead is the ID of the newest entry of q's dead-letter stream.
func lastDead(t *testing.T, rdb *redis.Client, q *Queue) string {
	t.Helper()
	m, err := rdb.XRevRangeN(context.Background(), q.keys[3], "+", "-", 1).Result()
	if err != nil || len(m) != 1 {
		t.Fatalf("the newest dead letter: %v %v", m, err)
	}
	return m[0].ID
}

// deadLetterOf stores d and dead-letters it through a lease, returning its
// dead-letter entry ID.
func deadLetterOf(t *testing.T, rdb *redis.Client, q *Queue, d *webhook.StoredDelivery) string {
	t.Helper()
	ctx := context.Background()
	if err := q.Enqueue(ctx, d); err != nil {
		t.Fatal(err)
	}
	l := receive(t, q, "c", time.Minute)
	if err := q.DeadLetter(ctx, l, "gave up on "+l.Delivery.ID); err != nil {
		t.Fatal(err)
	}
	return lastDead(t, rdb, q)
}

// addVector stores v in q's dead letters, returning its entry ID.
func addVector(t *testing.T, rdb *redis.Client, q *Queue, v deadVector) string {
	t.Helper()
	ctx := context.Background()
	f := v.fields(validFields("V"))
	if !v.viaStream {
		id, err := rdb.XAdd(ctx, &redis.XAddArgs{Stream: q.keys[3], Values: []any(f)}).Result()
		if err != nil {
			t.Fatal(err)
		}
		if v.indexAs != "" {
			rdb.HSet(ctx, q.keys[4], v.indexAs, id)
		}
		return id
	}
	if err := rdb.XAdd(ctx, &redis.XAddArgs{Stream: q.keys[0], Values: []any(f)}).Err(); err != nil {
		t.Fatal(err)
	}
	l := receive(t, q, "c", time.Minute)
	if !strings.HasPrefix(l.Delivery.ID, "undecodable:") {
		t.Fatalf("the lease of an unreadable entry: %+v", l.Delivery)
	}
	if err := q.DeadLetter(ctx, l, "not runnable"); err != nil {
		t.Fatal(err)
	}
	return lastDead(t, rdb, q)
}

// checkUnreadable fails unless dl is the unreadable entry id of v.
func checkUnreadable(t *testing.T, dl webhook.DeadLetter, id string, v deadVector) {
	t.Helper()
	var ue *webhook.UnreadableEntryError
	if dl.ID != id || dl.Delivery != nil || !errors.As(dl.Err, &ue) || ue.ID != id {
		t.Fatalf("%s: dead letter %+v, want entry %s unreadable", v.name, dl, id)
	}
	if !strings.Contains(ue.Reason, v.reason) || strings.Contains(dl.Err.Error(), hidden) || !strings.Contains(dl.Err.Error(), id) {
		t.Errorf("%s: error %q, want one naming %s and %q, without the stored bytes", v.name, dl.Err, id, v.reason)
	}
}

// TestDeadLettersUnreadable: an unreadable entry in the dead-letter stream
// is listed with its entry ID and an UnreadableEntryError, between the
// readable ones, which are listed and requeued as usual; requeueing it
// says it is unreadable and leaves it.
func TestDeadLettersUnreadable(t *testing.T) {
	rdb, _ := sharedRedis(t)
	ctx := context.Background()
	for _, v := range deadVectors {
		t.Run(v.name, func(t *testing.T) {
			q := newTestQueue(t, rdb)
			a := deadLetterOf(t, rdb, q, sample("A"))
			bad := addVector(t, rdb, q, v)
			b := deadLetterOf(t, rdb, q, sample("B"))

			dls, err := q.DeadLetters(ctx, 0)
			if err != nil || len(dls) != 3 {
				t.Fatalf("DeadLetters: %d, %v; want 3 and no error", len(dls), err)
			}
			for i, want := range []struct{ entry, delivery string }{{a, "A"}, {"", ""}, {b, "B"}} {
				if i == 1 {
					continue
				}
				dl := dls[i]
				if dl.ID != want.entry || dl.Err != nil || dl.Delivery == nil || dl.Delivery.ID != want.delivery ||
					dl.Reason != "gave up on "+want.delivery || dl.Attempts != 1 {
					t.Errorf("dead letter %d: %+v, want %s of delivery %s", i, dl, want.entry, want.delivery)
				}
			}
			checkUnreadable(t, dls[1], bad, v)
			if dls, err := q.DeadLetters(ctx, 2); err != nil || len(dls) != 2 || dls[1].ID != bad {
				t.Errorf("DeadLetters(2): %+v, %v", dls, err)
			}

			var ue *webhook.UnreadableEntryError
			ids := []string{bad}
			if v.indexAs != "" {
				ids = append(ids, v.indexAs)
			}
			for _, id := range ids {
				err := q.Requeue(ctx, id)
				if !errors.As(err, &ue) || ue.ID != bad || errors.Is(err, webhook.ErrNotDead) || strings.Contains(err.Error(), hidden) {
					t.Errorf("Requeue(%q) of the unreadable entry: %v", id, err)
				}
			}
			if err := q.Requeue(ctx, "A"); err != nil {
				t.Errorf("Requeue by delivery ID: %v", err)
			}
			if err := q.Requeue(ctx, b); err != nil {
				t.Errorf("Requeue by entry ID: %v", err)
			}
			for _, id := range []string{"A", a, b, "B"} {
				if err := q.Requeue(ctx, id); !errors.Is(err, webhook.ErrNotDead) {
					t.Errorf("second Requeue(%q): %v", id, err)
				}
			}
			for _, want := range []string{"A", "B"} {
				if l := receive(t, q, "c", time.Minute); l.Delivery.ID != want || l.Attempt != 1 {
					t.Errorf("requeued lease %+v, want %s at attempt 1", l, want)
				}
			}
			dls, err = q.DeadLetters(ctx, 0)
			if err != nil || len(dls) != 1 {
				t.Fatalf("DeadLetters after the requeues: %+v, %v; want the unreadable one", dls, err)
			}
			checkUnreadable(t, dls[0], bad, v)
		})
	}

	// All of them at once, between readable ones: listed in order.
	t.Run("all", func(t *testing.T) {
		q := newTestQueue(t, rdb, WithCapacity(1000))
		type want struct {
			entry string
			v     *deadVector // nil: readable
		}
		var wants []want
		for i := range deadVectors {
			id := string(rune('a' + i))
			wants = append(wants, want{entry: deadLetterOf(t, rdb, q, sample(id))})
			wants = append(wants, want{addVector(t, rdb, q, deadVectors[i]), &deadVectors[i]})
		}
		dls, err := q.DeadLetters(ctx, 0)
		if err != nil || len(dls) != len(wants) {
			t.Fatalf("DeadLetters: %d, %v; want %d", len(dls), err, len(wants))
		}
		for i, w := range wants {
			if w.v != nil {
				checkUnreadable(t, dls[i], w.entry, *w.v)
			} else if dls[i].ID != w.entry || dls[i].Err != nil || dls[i].Delivery == nil {
				t.Errorf("dead letter %d: %+v, want readable %s", i, dls[i], w.entry)
			}
		}
		var ue *webhook.UnreadableEntryError
		for i, w := range wants {
			err := q.Requeue(ctx, w.entry)
			if w.v == nil && err != nil {
				t.Errorf("Requeue of readable %s: %v", w.entry, err)
			}
			if w.v != nil && (!errors.As(err, &ue) || ue.ID != w.entry) {
				t.Errorf("Requeue of %s (%s): %v", w.entry, w.v.name, err)
			}
			if w.v == nil {
				if l := receive(t, q, "c", time.Minute); l.Delivery.ID != dls[i].Delivery.ID || l.Attempt != 1 {
					t.Errorf("requeued lease %+v", l)
				}
			}
		}
		if dls, err := q.DeadLetters(ctx, 0); err != nil || len(dls) != len(deadVectors) {
			t.Errorf("left after requeueing the readable ones: %d, %v; want the %d unreadable", len(dls), err, len(deadVectors))
		}
	})
}
