package webhook

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"
)

// Durable handoff. Forgejo never retries a delivery: one answered 5xx, one
// answered after DELIVER_TIMEOUT (5 s by default) and one sent while the
// receiver restarts are recorded as failed and are gone unless a person
// replays them. The only order that loses nothing is: verify, store
// durably, answer 2xx, then work. A [Handler] made with [WithQueue] does
// the first three; a [Worker] the last, with at-least-once semantics.
//
// The interfaces below are the contract between the two and a store. This
// package has one implementation, [MemoryQueue], for single-process
// programs and tests; a shared one (Redis Streams, a database table) lets
// receivers behind a load balancer and workers on other machines share the
// work. The contract is written so that a Redis Streams implementation maps
// one method to one command (or one short script):
//
//	Enqueue      XADD stream * field value ... (MAXLEN is not a bound: see ErrQueueFull)
//	Receive      XAUTOCLAIM stream group consumer <visibility> 0 COUNT 1 (expired leases first),
//	             then XREADGROUP GROUP group consumer COUNT 1 BLOCK <poll> STREAMS stream >
//	Ack          XACK stream group id (then XDEL)
//	Retry        XACK + XADD of the delivery with its attempt count and a not-before time
//	             (or a delayed set moved into the stream when due), atomically (MULTI or a script)
//	DeadLetter   XACK + XADD to the dead-letter stream, atomically
//	DeadLetters  XRANGE on the dead-letter stream
//	Requeue      XDEL from the dead-letter stream + XADD to the stream, atomically

// Queue is the producer side of a durable store of deliveries: what a
// [Handler] made with [WithQueue] needs. A receiving process needs nothing
// more.
type Queue interface {
	// Enqueue stores d durably and returns nil only once it is stored: once
	// Enqueue returned nil, a crash of this process, of the store's client
	// or (within the store's own durability promise) of the store loses
	// nothing, and a [WorkQueue.Receive] will hand d out. The Handler
	// answers 2xx after nil and 5xx after any error, so an error must mean
	// "not stored" (or "not known to be stored": an Enqueue that timed out
	// may have stored d, which then runs; a [DeliveryGuard] on the workers
	// keeps Forgejo's replay of it from running twice).
	//
	// A store at its bound returns an error matching [ErrQueueFull]; it
	// must never make room by dropping a stored delivery (a Redis stream
	// with XADD MAXLEN does: check XLEN, or the pending and dead-letter
	// counts, in the same script instead).
	//
	// d is not modified, and may be kept by the store; the caller does not
	// modify it afterwards. Enqueue does not deduplicate: a delivery
	// stored twice is stored twice, and the workers' guard runs it once.
	Enqueue(ctx context.Context, d *StoredDelivery) error
}

// WorkQueue is the consumer side: a [Queue] whose deliveries are handed to
// workers under leases. A delivery is in one of three states: ready (or
// waiting for its retry time), leased to one consumer until the lease's
// Deadline, or dead (see [DeadLetterStore]). It leaves the queue only
// through Ack, or into the dead-letter store through DeadLetter.
//
// All methods are safe for concurrent use by many workers in many
// processes.
type WorkQueue interface {
	Queue

	// Receive leases one delivery to consumer for visibility (the
	// visibility timeout): until the lease's Deadline no other Receive
	// returns it. It blocks until a delivery is available or ctx ends
	// (returning ctx's error, context.Canceled or DeadlineExceeded).
	//
	// Available are, oldest first: deliveries whose lease expired without
	// Ack, Retry or DeadLetter (their worker died or hung; the new Lease
	// has Reclaimed set), deliveries whose retry time has come, and new
	// ones. An expired lease must become available within a bounded time
	// even while Receive is blocked waiting for new deliveries (a Redis
	// implementation blocks in XREADGROUP for a poll interval at most, and
	// runs XAUTOCLAIM between); so must a delivery whose retry time came.
	//
	// consumer names the worker (a Redis consumer group's consumer); it is
	// for the store's bookkeeping and for operators, not a lock: any
	// consumer may complete any lease it holds.
	Receive(ctx context.Context, consumer string, visibility time.Duration) (*Lease, error)

	// Ack completes the delivery: it is removed and never handed out
	// again. Ack of a lease that expired and was given to another consumer
	// still removes the delivery (the function did run; a Redis XACK does
	// not check the consumer either) and returns nil; Ack of a delivery no
	// longer in the queue (acknowledged or dead-lettered already) returns
	// an error matching [ErrLeaseLost].
	Ack(ctx context.Context, l *Lease) error

	// Retry ends the lease and makes the delivery available again once
	// after has passed (0: at once), with its attempt count kept. Retry of
	// a lease that is no longer the delivery's current one (its Deadline
	// passed, so it may have been reclaimed; or the delivery was
	// acknowledged) changes nothing and returns an error matching
	// [ErrLeaseLost]: the delivery comes back as an expired lease, or the
	// new holder decides.
	Retry(ctx context.Context, l *Lease, after time.Duration) error

	// DeadLetter ends the lease and moves the delivery to the dead-letter
	// store with reason (a short text for operators; the Worker bounds it
	// to 1 KiB), where it stays until [DeadLetterStore.Requeue]. Like
	// Retry, it changes nothing for a lease that is no longer current
	// ([ErrLeaseLost]).
	DeadLetter(ctx context.Context, l *Lease, reason string) error
}

// LeaseExtender is implemented by a [WorkQueue] whose leases can be
// extended. A [Worker] on such a queue extends the lease of each delivery
// whose function is still running every third of the visibility timeout,
// so a function that runs longer than the visibility timeout is not taken
// over by another worker while its own worker is alive: only a worker that
// died, hung outside its functions or lost the store for longer than the
// rest of a lease loses the delivery to the others. [MemoryQueue] and
// forgeredis.Queue implement it.
type LeaseExtender interface {
	// Extend moves l's lease to end visibility from now, and l.Deadline
	// with it. It returns an error matching [ErrLeaseLost] when l is no
	// longer the delivery's current lease (it expired, and another
	// consumer may hold the delivery, or it was completed); nothing is
	// changed then.
	Extend(ctx context.Context, l *Lease, visibility time.Duration) error
}

// DeadLetterStore lists and re-queues the deliveries a [Worker] gave up on:
// for operators and tools (forgego webhook dead-letters, say).
//
// A shared store may hold entries it cannot read back as deliveries: an
// entry changed by hand or written by another program, or one a worker
// dead-lettered because it did not decode in the first place. Such an
// entry is still a dead letter: it is listed, with [DeadLetter.Err] set
// to an [*UnreadableEntryError], so that one bad entry never hides the
// others, and an operator can name it by its [DeadLetter.ID].
type DeadLetterStore interface {
	// DeadLetters returns up to limit dead letters (all when limit <= 0),
	// oldest first: every entry, readable or not (an unreadable one counts
	// against limit like any other). It returns an error only when the
	// store itself fails (unreachable, timed out), never because of what
	// an entry holds.
	DeadLetters(ctx context.Context, limit int) ([]DeadLetter, error)
	// Requeue moves a dead letter back to the queue as a new delivery:
	// ready at once, its attempt count starting again at 1. id is the
	// delivery's ID ([StoredDelivery.ID]; should one delivery ID be a
	// dead letter twice, the store picks one) or the dead letter's own
	// [DeadLetter.ID]. An id that is neither returns an error matching
	// [ErrNotDead]; the ID of an unreadable entry returns an error that
	// holds its [*UnreadableEntryError] (errors.As), and the entry stays
	// where it is: there is nothing to deliver. Requeue is an operator's
	// decision, like Forgejo's own replay, so a [DeliveryGuard] does not
	// stop it (see [Worker]).
	Requeue(ctx context.Context, id string) error
}

// Errors of queues. Implementations return errors that match them with
// errors.Is (wrapping them is fine).
var (
	// ErrQueueFull: the store is at its bound and stored nothing. A
	// [Handler] answers it 503, which Forgejo records as a failed
	// delivery.
	ErrQueueFull = errors.New("webhook: queue full")
	// ErrLeaseLost: the lease is no longer the delivery's current one (it
	// expired and another consumer holds the delivery now, or it was
	// completed); nothing was changed.
	ErrLeaseLost = errors.New("webhook: lease lost")
	// ErrNotDead: [DeadLetterStore.Requeue] of an id that is not a dead
	// letter.
	ErrNotDead = errors.New("webhook: no such dead letter")
)

// UnreadableEntryError is a stored entry that a store could not read back
// as a delivery: a field it always writes is missing or is not in the form
// it writes it in. It is the Err of such a [DeadLetter], and what
// [DeadLetterStore.Requeue] of its ID returns (wrapped; find it with
// errors.As). Its message names the entry and what was wrong with it,
// never the stored bytes.
type UnreadableEntryError struct {
	// ID is the store's ID of the entry ([DeadLetter.ID]).
	ID string
	// Reason says what is wrong with the entry, for operators: which
	// fields are missing or malformed (a text of the store's, which never
	// quotes the entry's content).
	Reason string
}

// Error implements the error interface.
func (e *UnreadableEntryError) Error() string {
	return "webhook: stored entry " + clean(e.ID) + " is unreadable: " + cleanN(e.Reason, 300)
}

// StoredDelivery is a verified delivery as a queue stores it: everything
// needed to re-create its [Event] without the hook's secret. Only
// deliveries that passed [Parser] verification (signature, headers, shape)
// are ever made into one by this package.
//
// A store must keep every field, byte for byte; a Redis implementation
// stores them as fields of the stream entry (Header as its
// http.Header's wire form or as JSON, Received as Unix nanoseconds).
type StoredDelivery struct {
	// ID is the delivery's canonical delivery ID ([CanonicalDeliveryID]),
	// or, for a delivery without one, "sha256:" and the hex SHA-256 of its
	// payload (the key a [DeliveryGuard] is given).
	ID string
	// EventType is the event type the delivery was parsed as (a legacy
	// spelling already mapped to its API name).
	EventType EventType
	// Family is the X-Forgejo-Event header as sent.
	Family string
	// ContentType is "json", "form" or "query" (a GET hook: the payload
	// came in the query string), as [Delivery.ContentType].
	ContentType string
	// Body is the request body as received: the same bytes as Payload for
	// a JSON hook (a store may keep them once), the URL-encoded form for a
	// form hook, empty for a GET hook.
	Body []byte
	// Payload is the JSON payload, the bytes the signature covers.
	Payload []byte
	// Header is the request's header without the ones that carry
	// credentials of the receiving side (see [StoredHeader]): the
	// hook's Authorization header is not stored.
	Header http.Header
	// Signed is the verification result: true when the signature was
	// checked and matched a secret, false for a delivery accepted unsigned
	// ([AllowUnsigned]).
	Signed bool
	// Received is when the receiver read the delivery.
	Received time.Time
}

// strippedHeaders are not stored: the hook's authorization header (a
// credential Forgejo is configured with), and credentials a proxy or a
// browser may add on the way.
var strippedHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie"}

// StoredHeader returns a copy of h without the headers a [StoredDelivery]
// never keeps: Authorization (the hook's authorization header, which
// Forgejo sends when one is configured: a credential of yours, which a
// program checks when it receives the delivery, not after), Proxy-
// Authorization and Cookie. Every other header is kept as received,
// signatures included (they are the payload's HMAC, not the secret, and
// let a worker verify again).
func StoredHeader(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for k, vs := range h {
		drop := false
		for _, s := range strippedHeaders {
			if strings.EqualFold(k, s) {
				drop = true
			}
		}
		if !drop {
			out[k] = append([]string(nil), vs...)
		}
	}
	return out
}

// NewStoredDelivery returns what a queue stores for ev, a verified event
// (from [Parser.Parse] or [Parser.ParseRequest]), received at received.
// The byte slices are ev's; the header is a stripped copy ([StoredHeader]).
func NewStoredDelivery(ev Event, received time.Time) *StoredDelivery {
	d := ev.delivery()
	return &StoredDelivery{
		ID:          guardKey(ev),
		EventType:   d.typ,
		Family:      d.family,
		ContentType: d.contentType,
		Body:        d.body,
		Payload:     d.payload,
		Header:      StoredHeader(d.Header()),
		Signed:      d.signed,
		Received:    received,
	}
}

// Event re-creates the delivery's event from the stored bytes, without
// verifying it again: the stored verification result stands (the store is
// inside the trust boundary; see [WithReverify] for a worker that verifies
// anyway). Its DeliveryID is the ID the delivery came with ("" when ID is
// a payload digest), Header the stored header, Signed the stored result.
// Errors are [*Error] values of kind ErrMalformed or ErrEventMismatch.
func (d *StoredDelivery) Event() (Event, error) {
	id := d.ID
	if strings.HasPrefix(id, "sha256:") {
		id = ""
	}
	h := d.Header
	return decode(Delivery{
		id:          id,
		typ:         d.EventType,
		family:      d.Family,
		contentType: d.ContentType,
		body:        d.Body,
		payload:     d.Payload,
		header:      func() http.Header { return h },
		signed:      d.Signed,
	})
}

// Lease is a delivery handed to one consumer by [WorkQueue.Receive].
type Lease struct {
	// Delivery is the stored delivery; do not modify it.
	Delivery *StoredDelivery
	// Token is the queue's handle of this lease (a Redis stream entry ID
	// plus whatever tells this lease from a later one of the same entry).
	// Opaque to the Worker.
	Token string
	// Consumer is the consumer the lease was given to.
	Consumer string
	// Attempt counts the leases given for this delivery, this one
	// included: 1 the first time; Retry and an expired lease each add one
	// (a Redis implementation adds the entry's times-delivered to the
	// attempts stored with a retried entry). Requeue starts again at 1.
	Attempt int
	// Reclaimed is set when the previous lease of this delivery expired
	// without Ack, Retry or DeadLetter: its worker died, hung or lost the
	// store. The Worker then runs the function even when the guard already
	// holds the delivery ID (the dead worker's own claim).
	Reclaimed bool
	// Deadline is when the lease expires and the delivery becomes
	// available to another consumer.
	Deadline time.Time
}

// DeadLetter is a delivery a worker gave up on, as a [DeadLetterStore]
// lists it; or, when Err is set, a stored entry that could not be read.
type DeadLetter struct {
	// ID is the store's own ID of the dead letter (a Redis stream entry
	// ID, a sequence number in a MemoryQueue), unique in the store and
	// accepted by [DeadLetterStore.Requeue]. An unreadable entry has one
	// too: it is how an operator names it.
	ID string
	// Delivery is the stored delivery; nil when Err is set.
	Delivery *StoredDelivery
	// Reason is why: the last error of the event function, "attempts
	// exhausted", an undecodable delivery.
	Reason string
	// Attempts is how many leases the delivery had.
	Attempts int
	// At is when it was dead-lettered.
	At time.Time
	// Err is nil for a dead letter that was read, and otherwise an
	// [*UnreadableEntryError] saying why the entry could not be: Delivery
	// is nil then, and Reason, Attempts and At are zero (what the entry
	// says about them is not to be trusted).
	Err error
}
