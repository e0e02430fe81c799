package forgeredis

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"codeberg.org/forgego/forgejo/webhook"
	"github.com/redis/go-redis/v9"
)

// DefaultQueuePrefix is put before the name given to [NewQueue] to make
// the queue's keys.
const DefaultQueuePrefix = "forgego:webhook:"

// DefaultQueueCapacity is the number of deliveries a [Queue] holds, dead
// letters and deliveries waiting for their retry included, unless
// [WithCapacity] says otherwise.
const DefaultQueueCapacity = 100000

// DefaultPollInterval bounds how long [Queue.Receive] blocks in XREADGROUP
// before it looks again for expired leases and due retries.
const DefaultPollInterval = time.Second

// DefaultQueueTimeout bounds every Redis call of a [Queue] (the blocking
// read gets it on top of the poll interval) and of a [Guard]: well under
// Forgejo's DELIVER_TIMEOUT (5 s), so that a receiver whose Redis hangs
// answers 500 before Forgejo gives up on it.
const DefaultQueueTimeout = 2 * time.Second

// groupName is the consumer group every worker of a queue reads in.
const groupName = "workers"

// Queue is a [webhook.WorkQueue] and [webhook.DeadLetterStore] on Redis
// Streams with a consumer group, shared by any number of receivers and
// workers in any number of processes. It needs Redis 6.2 or later
// (XAUTOCLAIM); CI runs 7.0.
//
// The keys, all with the hash tag {name} (one Redis Cluster slot):
//
//	<prefix>{name}:stream   the ready and leased deliveries: a stream, consumer group "workers"
//	<prefix>{name}:delayed  the retries not yet due: a sorted set of entry IDs by due time (ms)
//	<prefix>{name}:retry    their fields: a hash, entry ID -> MessagePack of the fields
//	<prefix>{name}:dead     the dead letters: a stream
//	<prefix>{name}:deadidx  delivery ID -> dead-letter entry ID, for Requeue
//
// Enqueue is one script: the bound (the stream's length, leased entries
// included, plus the delayed and the dead ones) is checked and the entry
// added with XADD in the same script, so a full queue refuses with
// [webhook.ErrQueueFull] and never drops anything (XADD MAXLEN would).
// Receive is one script while there is work: it moves the due retries
// into the stream (on Redis's own clock), takes over an expired lease with
// XAUTOCLAIM (Reclaimed), or reads a new entry; only when nothing is ready
// does it block in XREADGROUP, for the poll interval at most. Ack is
// XACK and XDEL; Retry and DeadLetter are scripts that first check with
// XPENDING that the lease is still the entry's current one (same consumer,
// same delivery count, idle less than the visibility), else
// [webhook.ErrLeaseLost]. DeadLetters lists an entry that does not read as
// a delivery (written by hand or by another program) with its entry ID and
// an [webhook.UnreadableEntryError], and goes on; Requeue reads the dead
// letter before it moves it, and leaves an unreadable one where it is.
//
// Durability is Redis's: an Enqueue that returned nil is in Redis's memory
// and, with appendonly yes, in its AOF; appendfsync always loses no
// acknowledged XADD when the Redis host dies, everysec up to a second of
// them. Errors never contain the Redis password (of a [*redis.Client], a
// [*redis.ClusterClient] or a [*redis.Ring]: the client types
// [redis.NewUniversalClient] returns).
type Queue struct {
	rdb      redis.UniversalClient
	keys     []string // stream, delayed, retry, dead, deadidx
	capacity int
	poll     time.Duration
	timeout  time.Duration
	password func() string // a func, so that no rendering of the value shows it

	mu      sync.Mutex
	cursor  string    // of XAUTOCLAIM
	quietAt time.Time // when receiveScript last found nothing
}

// sweepInterval is how often, at most, Receive runs its script (due
// retries, expired leases) while its blocking read keeps finding new
// entries: retries are due to the second, leases expire after the
// visibility timeout, so a tenth of a second late costs nothing, and a
// busy worker saves a round trip per delivery. While the script finds
// something it runs every time.
const sweepInterval = 100 * time.Millisecond

// QueueOption configures a [Queue].
type QueueOption func(*queueConfig)

type queueConfig struct {
	prefix   string
	capacity int
	poll     time.Duration
	timeout  time.Duration
}

// WithQueuePrefix replaces [DefaultQueuePrefix].
func WithQueuePrefix(p string) QueueOption { return func(c *queueConfig) { c.prefix = p } }

// WithCapacity sets the bound of a Queue ([DefaultQueueCapacity] when n <= 0).
func WithCapacity(n int) QueueOption { return func(c *queueConfig) { c.capacity = n } }

// WithPollInterval sets how long Receive blocks in XREADGROUP at most
// ([DefaultPollInterval]): how soon an expired lease or a due retry is
// found while the stream is idle.
func WithPollInterval(d time.Duration) QueueOption { return func(c *queueConfig) { c.poll = d } }

// WithQueueTimeout bounds every Redis call ([DefaultQueueTimeout]).
func WithQueueTimeout(d time.Duration) QueueOption { return func(c *queueConfig) { c.timeout = d } }

func newConfig(opts []QueueOption) queueConfig {
	c := queueConfig{prefix: DefaultQueuePrefix, capacity: DefaultQueueCapacity, poll: DefaultPollInterval,
		timeout: DefaultQueueTimeout}
	for _, o := range opts {
		o(&c)
	}
	if c.capacity <= 0 {
		c.capacity = DefaultQueueCapacity
	}
	if c.poll <= 0 {
		c.poll = DefaultPollInterval
	}
	if c.timeout <= 0 {
		c.timeout = DefaultQueueTimeout
	}
	return c
}

// NewQueue returns the Queue called name in rdb. Every receiver and worker
// of one hook (or one set of hooks) uses the same name. It does not talk
// to Redis: the consumer group is created by the first Receive.
func NewQueue(rdb redis.UniversalClient, name string, opts ...QueueOption) (*Queue, error) {
	if rdb == nil {
		return nil, errors.New("forgeredis: nil Redis client")
	}
	if name == "" || strings.ContainsAny(name, "{}") {
		return nil, errors.New("forgeredis: a queue name must be non-empty and without braces")
	}
	c := newConfig(opts)
	base := c.prefix + "{" + name + "}:"
	q := &Queue{rdb: rdb, capacity: c.capacity, poll: c.poll, timeout: c.timeout, password: passwordOf(rdb), cursor: "0-0",
		keys: []string{base + "stream", base + "delayed", base + "retry", base + "dead", base + "deadidx"}}
	return q, nil
}

// wrap makes err an error of this package without the password.
func (q *Queue) wrap(op string, err error) error { return wrapErr(op, err, q.password()) }

// Field names of a stored entry.
const (
	fID, fType, fFamily, fCT, fBody, fSame, fPayload, fSigned, fReceived, fAttempts = "id", "type", "family", "ct", "body", "body_is_payload", "payload", "signed", "received", "attempts"
	// fHeaderBin is the headers in the binary form of encodeHeader.
	fHeaderBin   = "hdr"
	fReason, fAt = "reason", "dead_at"
)

func encode(d *webhook.StoredDelivery, attempts int) []any {
	h := encodeHeader(d.Header)
	signed := "0"
	if d.Signed {
		signed = "1"
	}
	args := []any{fID, d.ID, fType, string(d.EventType), fFamily, d.Family, fCT, d.ContentType,
		fPayload, d.Payload, fHeaderBin, h, fSigned, signed,
		fReceived, strconv.FormatInt(d.Received.UnixNano(), 10), fAttempts, strconv.Itoa(attempts)}
	if string(d.Body) == string(d.Payload) && len(d.Body) > 0 {
		args = append(args, fSame, "1")
	} else {
		args = append(args, fBody, d.Body)
	}
	return args
}

// decodeEntry reads an entry encode wrote (kept by the scripts, which
// change attempts and add the dead-letter fields). An entry without one of
// the fields a delivery cannot do without (all but family and attempts,
// which default to "" and 0), or with one in another form than encode's,
// is an error whose text names the fields and never quotes the entry's
// bytes (they may be anything: strconv's and encoding/json's errors would
// quote them).
func decodeEntry(v map[string]any) (*webhook.StoredDelivery, int, error) {
	var missing []string
	s := func(k string) string {
		x, ok := v[k].(string)
		if !ok {
			missing = append(missing, k)
		}
		return x
	}
	family, _ := v[fFamily].(string)
	d := &webhook.StoredDelivery{ID: s(fID), EventType: webhook.EventType(s(fType)), Family: family,
		ContentType: s(fCT), Payload: []byte(s(fPayload))}
	signed, received := s(fSigned), s(fReceived)
	attempts, ok := v[fAttempts].(string)
	if !ok {
		attempts = "0"
	}
	if same, ok := v[fSame].(string); ok && same == "1" {
		d.Body = d.Payload
	} else {
		d.Body = []byte(s(fBody))
	}
	bin := s(fHeaderBin)
	if len(missing) > 0 {
		return nil, 0, fmt.Errorf("missing %s", strings.Join(missing, ", "))
	}
	h, err := decodeHeader([]byte(bin))
	if err != nil {
		return nil, 0, errors.New(fHeaderBin + ": truncated or malformed")
	}
	d.Header = h
	switch signed {
	case "0", "1":
		d.Signed = signed == "1"
	default:
		return nil, 0, errors.New(fSigned + ": neither 0 nor 1")
	}
	ns, err := strconv.ParseInt(received, 10, 64)
	if err != nil {
		return nil, 0, errors.New(fReceived + ": not a time in Unix nanoseconds")
	}
	d.Received = time.Unix(0, ns)
	n, err := strconv.Atoi(attempts)
	if err != nil || n < 0 {
		return nil, 0, errors.New(fAttempts + ": not a count")
	}
	return d, n, nil
}

// readDeadLetter reads an entry of the dead-letter stream: a delivery's
// fields and the dead-letter script's. An entry that does not read is a
// dead letter with only its ID and an [webhook.UnreadableEntryError].
func readDeadLetter(m redis.XMessage) webhook.DeadLetter {
	unreadable := func(reason string) webhook.DeadLetter {
		return webhook.DeadLetter{ID: m.ID, Err: &webhook.UnreadableEntryError{ID: m.ID, Reason: reason}}
	}
	d, attempts, err := decodeEntry(m.Values)
	if err != nil {
		return unreadable(err.Error())
	}
	reason, ok := m.Values[fReason].(string)
	if !ok {
		return unreadable("missing " + fReason)
	}
	at, ok := m.Values[fAt].(string)
	if !ok {
		return unreadable("missing " + fAt)
	}
	us, err := strconv.ParseInt(at, 10, 64)
	if err != nil {
		return unreadable(fAt + ": not a time in Unix microseconds")
	}
	return webhook.DeadLetter{ID: m.ID, Delivery: d, Reason: reason, Attempts: attempts, At: time.UnixMicro(us)}
}

// encodeHeader writes h compactly, every byte of every value kept (they
// need not be UTF-8): a count of keys, then per key its length and bytes,
// its count of values, and each value's length and bytes, as uvarints. A
// key with a nil value list is left out; an empty one is kept.
func encodeHeader(h http.Header) []byte {
	size := 1
	for k, vs := range h {
		size += len(k) + 2*binary.MaxVarintLen16
		for _, v := range vs {
			size += len(v) + binary.MaxVarintLen16
		}
	}
	b := make([]byte, 0, size)
	n := 0
	for _, vs := range h {
		if vs != nil {
			n++
		}
	}
	b = binary.AppendUvarint(b, uint64(n))
	for k, vs := range h {
		if vs == nil {
			continue
		}
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
		b = binary.AppendUvarint(b, uint64(len(vs)))
		for _, v := range vs {
			b = binary.AppendUvarint(b, uint64(len(v)))
			b = append(b, v...)
		}
	}
	return b
}

// decodeHeader reads encodeHeader's form; the result is never nil.
func decodeHeader(b []byte) (http.Header, error) {
	bad := errors.New("truncated or malformed")
	next := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, false
		}
		b = b[n:]
		return v, true
	}
	str := func() (string, bool) {
		n, ok := next()
		if !ok || n > uint64(len(b)) {
			return "", false
		}
		s := string(b[:n])
		b = b[n:]
		return s, true
	}
	keys, ok := next()
	if !ok || keys > uint64(len(b)) {
		return nil, bad
	}
	h := make(http.Header, keys)
	for range keys {
		k, ok := str()
		if !ok {
			return nil, bad
		}
		nv, ok := next()
		if !ok || nv > uint64(len(b)) {
			return nil, bad
		}
		vs := make([]string, 0, nv)
		for range nv {
			v, ok := str()
			if !ok {
				return nil, bad
			}
			vs = append(vs, v)
		}
		h[k] = vs
	}
	if len(b) != 0 {
		return nil, bad
	}
	return h, nil
}

func (q *Queue) op(ctx context.Context, extra time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, q.timeout+extra)
}

// Enqueue implements [webhook.Queue]: one script checks the bound and adds
// the entry (XADD), so an error means not stored, or, after a timeout, not
// known to be stored.
func (q *Queue) Enqueue(ctx context.Context, d *webhook.StoredDelivery) error {
	if d == nil {
		return errors.New("forgeredis: Enqueue of nil")
	}
	args := encode(d, 0)
	ctx, cancel := q.op(ctx, 0)
	defer cancel()
	res, err := enqueueScript.Run(ctx, q.rdb, q.keys, append([]any{q.capacity}, args...)...).Int64Slice()
	if err != nil {
		return q.wrap("enqueue", err)
	}
	if len(res) != 2 {
		return errors.New("forgeredis: enqueue: unexpected reply")
	}
	if res[0] == 0 {
		return fmt.Errorf("%w: %d deliveries stored (dead letters and pending retries included), the bound is %d", webhook.ErrQueueFull, res[1], q.capacity)
	}
	return nil
}

// ensureGroup creates the consumer group (at the stream's start, making
// the stream if needed); an existing one is fine.
func (q *Queue) ensureGroup(ctx context.Context) error {
	err := q.rdb.XGroupCreateMkStream(ctx, q.keys[0], groupName, "0").Err()
	if err != nil && !strings.HasPrefix(err.Error(), "BUSYGROUP") {
		return err
	}
	return nil
}

func isNoGroup(err error) bool { return err != nil && strings.HasPrefix(err.Error(), "NOGROUP") }

// Receive implements [webhook.WorkQueue].
func (q *Queue) Receive(ctx context.Context, consumer string, visibility time.Duration) (*webhook.Lease, error) {
	if consumer == "" {
		return nil, errors.New("forgeredis: Receive without a consumer name")
	}
	if visibility < time.Millisecond {
		visibility = time.Millisecond
	}
	grouped := false
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		l, err := q.receiveOnce(ctx, consumer, visibility)
		if isNoGroup(err) && !grouped {
			grouped = true
			octx, cancel := q.op(ctx, 0)
			err = q.ensureGroup(octx)
			cancel()
			if err == nil {
				continue
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, q.wrap("receive", err)
		}
		if l != nil {
			return l, nil
		}
	}
}

// receiveOnce is one round: due retries, an expired lease, a new entry,
// all in one script (at most every sweepInterval while the blocking read
// finds work); then, when the script found nothing or did not run, the
// blocking XREADGROUP, for the poll interval at most. nil, nil: nothing
// this round.
func (q *Queue) receiveOnce(ctx context.Context, consumer string, visibility time.Duration) (*webhook.Lease, error) {
	q.mu.Lock()
	start := q.cursor
	sweep := time.Since(q.quietAt) >= min(sweepInterval, q.poll)
	q.mu.Unlock()
	if sweep {
		l, err := q.sweep(ctx, consumer, visibility, start)
		if l != nil || err != nil {
			return l, err
		}
	}

	octx, cancel := q.op(ctx, q.poll)
	streams, err := q.rdb.XReadGroup(octx, &redis.XReadGroupArgs{Group: groupName, Consumer: consumer,
		Streams: []string{q.keys[0], ">"}, Count: 1, Block: q.poll}).Result()
	cancel()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for _, s := range streams {
		for _, m := range s.Messages {
			return q.lease(m, consumer, visibility, 1, false), nil
		}
	}
	return nil, nil
}

// sweep runs receiveScript from the XAUTOCLAIM cursor start: a lease, or
// nil, nil when nothing was ready.
func (q *Queue) sweep(ctx context.Context, consumer string, visibility time.Duration, start string) (*webhook.Lease, error) {
	octx, cancel := q.op(ctx, 0)
	res, err := receiveScript.Run(octx, q.rdb, q.keys, groupName, consumer, visibility.Milliseconds(), start).Slice()
	cancel()
	if err != nil {
		return nil, err
	}
	kind, cursor, m, count, err := receiveReply(res)
	if err != nil {
		return nil, err
	}
	q.mu.Lock()
	if cursor != "" {
		q.cursor = cursor
	}
	if kind == receivedNothing {
		q.quietAt = time.Now()
	}
	q.mu.Unlock()
	switch kind {
	case receivedNew, receivedReclaimed:
		return q.lease(m, consumer, visibility, count, kind == receivedReclaimed), nil
	}
	return nil, nil
}

// What receiveScript found.
const (
	receivedNoGroup   = -1
	receivedNothing   = 0
	receivedNew       = 1
	receivedReclaimed = 2
)

// receiveReply reads receiveScript's reply.
func receiveReply(res []any) (kind int64, cursor string, m redis.XMessage, count int64, err error) {
	bad := errors.New("forgeredis: receive: unexpected reply")
	if len(res) < 2 {
		return 0, "", m, 0, bad
	}
	kind, ok := res[0].(int64)
	if !ok {
		return 0, "", m, 0, bad
	}
	if kind == receivedNoGroup {
		text, _ := res[1].(string)
		return kind, "", m, 0, errors.New(text) // NOGROUP …, for isNoGroup
	}
	cursor, _ = res[1].(string)
	if kind == receivedNothing {
		return kind, cursor, m, 0, nil
	}
	if len(res) != 5 {
		return 0, "", m, 0, bad
	}
	m, err = entryReply(res[2:4])
	count, _ = res[4].(int64)
	if err != nil || count < 1 {
		return 0, "", m, 0, bad
	}
	return kind, cursor, m, count, nil
}

// lease makes a Lease of m, just delivered to consumer for the count-th
// time.
func (q *Queue) lease(m redis.XMessage, consumer string, visibility time.Duration, count int64, reclaimed bool) *webhook.Lease {
	deadline := time.Now().Add(visibility)
	d, attempts, err := decodeEntry(m.Values)
	if err != nil {
		// Not ours to run: leave it to become a dead letter through the
		// Worker, which cannot decode it either. Hand out what we have.
		d = &webhook.StoredDelivery{ID: "undecodable:" + m.ID}
	}
	return &webhook.Lease{Delivery: d, Consumer: consumer, Attempt: attempts + int(count), Reclaimed: reclaimed,
		Deadline: deadline,
		Token:    m.ID + "/" + strconv.FormatInt(count, 10) + "/" + strconv.FormatInt(visibility.Milliseconds(), 10)}
}

// token splits a Lease's token.
func token(l *webhook.Lease) (id, count, vis string, err error) {
	if l == nil {
		return "", "", "", errors.New("forgeredis: nil lease")
	}
	parts := strings.Split(l.Token, "/")
	if len(parts) != 3 {
		return "", "", "", errors.New("forgeredis: not a lease of a forgeredis.Queue")
	}
	return parts[0], parts[1], parts[2], nil
}

// Ack implements [webhook.WorkQueue]: XACK and XDEL.
func (q *Queue) Ack(ctx context.Context, l *webhook.Lease) error {
	id, _, _, err := token(l)
	if err != nil {
		return err
	}
	ctx, cancel := q.op(ctx, 0)
	defer cancel()
	n, err := ackScript.Run(ctx, q.rdb, q.keys, groupName, id).Int()
	if err != nil {
		return q.wrap("ack", err)
	}
	if n == 0 {
		return fmt.Errorf("forgeredis: ack of entry %s: %w", id, webhook.ErrLeaseLost)
	}
	return nil
}

// Extend implements [webhook.LeaseExtender]: the entry's idle time starts
// again, so that XAUTOCLAIM leaves it to its consumer for visibility more.
func (q *Queue) Extend(ctx context.Context, l *webhook.Lease, visibility time.Duration) error {
	id, count, vis, err := token(l)
	if err != nil {
		return err
	}
	ctx, cancel := q.op(ctx, 0)
	defer cancel()
	start := time.Now()
	n, err := extendScript.Run(ctx, q.rdb, q.keys, groupName, id, l.Consumer, count, vis).Int()
	if err != nil {
		return q.wrap("extend", err)
	}
	if n == 0 {
		return fmt.Errorf("forgeredis: extend of entry %s: %w", id, webhook.ErrLeaseLost)
	}
	ms := visibility.Milliseconds()
	l.Deadline = start.Add(visibility)
	l.Token = id + "/" + count + "/" + strconv.FormatInt(ms, 10)
	return nil
}

// Retry implements [webhook.WorkQueue].
func (q *Queue) Retry(ctx context.Context, l *webhook.Lease, after time.Duration) error {
	id, count, vis, err := token(l)
	if err != nil {
		return err
	}
	ms := after.Milliseconds()
	if after > 0 && ms == 0 {
		ms = 1
	}
	ctx, cancel := q.op(ctx, 0)
	defer cancel()
	n, err := retryScript.Run(ctx, q.rdb, q.keys, groupName, id, l.Consumer, count, vis, l.Attempt, ms).Int()
	if err != nil {
		return q.wrap("retry", err)
	}
	if n == 0 {
		return fmt.Errorf("forgeredis: retry of entry %s: %w", id, webhook.ErrLeaseLost)
	}
	return nil
}

// DeadLetter implements [webhook.WorkQueue].
func (q *Queue) DeadLetter(ctx context.Context, l *webhook.Lease, reason string) error {
	id, count, vis, err := token(l)
	if err != nil {
		return err
	}
	ctx, cancel := q.op(ctx, 0)
	defer cancel()
	n, err := deadScript.Run(ctx, q.rdb, q.keys, groupName, id, l.Consumer, count, vis, l.Attempt, reason).Int()
	if err != nil {
		return q.wrap("dead-letter", err)
	}
	if n == 0 {
		return fmt.Errorf("forgeredis: dead-letter of entry %s: %w", id, webhook.ErrLeaseLost)
	}
	return nil
}

// DeadLetters implements [webhook.DeadLetterStore]: XRANGE on the
// dead-letter stream. An entry that does not read as a dead letter of this
// package (changed by hand, written by another program, or an undecodable
// delivery a Worker dead-lettered) is listed with its entry ID and an
// [webhook.UnreadableEntryError] naming its missing or malformed fields;
// the error is Redis's failure only.
func (q *Queue) DeadLetters(ctx context.Context, limit int) ([]webhook.DeadLetter, error) {
	ctx, cancel := q.op(ctx, 0)
	defer cancel()
	var msgs []redis.XMessage
	var err error
	if limit > 0 {
		msgs, err = q.rdb.XRangeN(ctx, q.keys[3], "-", "+", int64(limit)).Result()
	} else {
		msgs, err = q.rdb.XRange(ctx, q.keys[3], "-", "+").Result()
	}
	if err != nil {
		return nil, q.wrap("listing dead letters", err)
	}
	out := make([]webhook.DeadLetter, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, readDeadLetter(m))
	}
	return out, nil
}

// Requeue implements [webhook.DeadLetterStore]: the dead letter indexed
// under the delivery ID id, or else the one whose entry ID is id, is moved
// back into the stream, attempts starting again. (Were one delivery ID
// dead-lettered twice, it was stored twice, and the index names the later;
// the earlier is requeued by its entry ID.) An unreadable entry is left
// where it is, and the error holds its [webhook.UnreadableEntryError];
// remove it, if you must, with XDEL on the dead-letter stream ([Queue.Keys]).
func (q *Queue) Requeue(ctx context.Context, id string) error {
	ctx, cancel := q.op(ctx, 0)
	defer cancel()
	byEntry := "0"
	if isEntryID(id) {
		byEntry = "1"
	}
	res, err := findDeadScript.Run(ctx, q.rdb, q.keys, id, byEntry).Slice()
	if err != nil {
		return q.wrap("requeue", err)
	}
	if len(res) == 0 {
		return fmt.Errorf("forgeredis: requeue of %q: %w", id, webhook.ErrNotDead)
	}
	m, err := entryReply(res)
	if err != nil {
		return err
	}
	dl := readDeadLetter(m)
	if dl.Err != nil {
		return fmt.Errorf("forgeredis: requeue of %q: %w", id, dl.Err)
	}
	n, err := requeueScript.Run(ctx, q.rdb, q.keys, m.ID, dl.Delivery.ID).Int()
	if err != nil {
		return q.wrap("requeue", err)
	}
	if n == 0 {
		return fmt.Errorf("forgeredis: requeue of %q: %w", id, webhook.ErrNotDead)
	}
	return nil
}

// isEntryID reports whether id is a stream entry ID in full (MS-SEQ), the
// form XRANGE takes without an error.
func isEntryID(id string) bool {
	ms, seq, ok := strings.Cut(id, "-")
	if !ok {
		return false
	}
	for _, part := range []string{ms, seq} {
		if part == "" || strings.TrimLeft(part, "0123456789") != "" {
			return false
		}
		if _, err := strconv.ParseUint(part, 10, 64); err != nil {
			return false
		}
	}
	return true
}

// entryReply reads an {entry ID, fields} reply.
func entryReply(res []any) (redis.XMessage, error) {
	var m redis.XMessage
	bad := errors.New("forgeredis: unexpected reply")
	if len(res) != 2 {
		return m, bad
	}
	m.ID, _ = res[0].(string)
	fields, _ := res[1].([]any)
	if m.ID == "" || len(fields)%2 != 0 {
		return m, bad
	}
	m.Values = make(map[string]any, len(fields)/2)
	for i := 0; i < len(fields); i += 2 {
		k, _ := fields[i].(string)
		m.Values[k] = fields[i+1]
	}
	return m, nil
}

// Len returns the deliveries stored: ready or leased, waiting for a
// retry, and dead.
func (q *Queue) Len(ctx context.Context) (live, delayed, dead int64, err error) {
	ctx, cancel := q.op(ctx, 0)
	defer cancel()
	pipe := q.rdb.Pipeline()
	a, b, c := pipe.XLen(ctx, q.keys[0]), pipe.ZCard(ctx, q.keys[1]), pipe.XLen(ctx, q.keys[3])
	if _, err := pipe.Exec(ctx); err != nil {
		return 0, 0, 0, q.wrap("counting", err)
	}
	return a.Val(), b.Val(), c.Val(), nil
}

// Keys returns the Redis keys of the queue: stream, delayed, retry, dead,
// deadidx.
func (q *Queue) Keys() []string { return append([]string(nil), q.keys...) }

var (
	_ webhook.WorkQueue       = (*Queue)(nil)
	_ webhook.DeadLetterStore = (*Queue)(nil)
)
