package webhook

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync"
)

// DeliveryGuard remembers which delivery IDs were processed, so that a
// [Handler] given one with [WithGuard], or a [Worker] given one with
// [WithWorkerGuard], runs each delivery ID at most once (successfully).
// Back it with your own store (a database table with a unique key, Redis
// SETNX) when several processes receive the same hook or when it must
// survive restarts; [NewMemoryGuard] is the in-process default.
//
// What it protects against: the same request arriving twice (a proxy or
// load balancer retrying, a queue redelivering a message, a request replayed
// unchanged). What it does not: Forgejo's "replay" of a delivery from the
// hook's settings page creates a new delivery with a new ID, which is
// processed again, as the person replaying it intends; and since Forgejo's
// signature covers the payload only, not the headers, someone holding a
// captured delivery can resend it under a made-up delivery ID, which the
// guard cannot recognise (serve the hook over TLS to keep deliveries
// secret).
//
// The id a guard is given is the delivery ID in its canonical form
// ([CanonicalDeliveryID]: forms of one UUID are one delivery, and a request
// naming two different IDs is refused before it gets here, with
// ErrAmbiguous). A delivery without any ID (Forgejo always sends one; a
// hand-made request may not) is keyed "sha256:" followed by the hex SHA-256
// of its payload, so the same signed bytes run once.
type DeliveryGuard interface {
	// Claim records id as being processed and reports whether it was new.
	// It returns false for an id claimed before and not released. Claim
	// must be atomic: of two concurrent calls with one id, one returns
	// true.
	Claim(ctx context.Context, id string) (first bool, err error)
	// Release forgets id, so that a later delivery with it is processed:
	// the Handler or Worker calls it when the event function failed or
	// panicked.
	Release(ctx context.Context, id string) error
}

// guardKey is the key a [DeliveryGuard] records ev under: its canonical
// delivery ID, or the digest of its payload when it has none.
func guardKey(ev Event) string {
	if id := ev.DeliveryID(); id != "" {
		return id
	}
	return payloadKey(ev.Payload())
}

// payloadKey is "sha256:" and the hex SHA-256 of payload.
func payloadKey(payload []byte) string {
	sum := sha256.Sum256(payload)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// DefaultGuardCapacity is the number of delivery IDs a [MemoryGuard] made
// with capacity 0 remembers.
const DefaultGuardCapacity = 10000

// MemoryGuard is a [DeliveryGuard] kept in memory: it remembers the most
// recent delivery IDs up to its capacity and forgets the oldest first. It is
// safe for concurrent use, and is lost when the process exits.
type MemoryGuard struct {
	mu       sync.Mutex
	capacity int
	order    *list.List // of string, oldest at the front
	ids      map[string]*list.Element
}

// NewMemoryGuard returns a MemoryGuard remembering up to capacity delivery
// IDs ([DefaultGuardCapacity] if capacity <= 0).
func NewMemoryGuard(capacity int) *MemoryGuard {
	if capacity <= 0 {
		capacity = DefaultGuardCapacity
	}
	return &MemoryGuard{capacity: capacity, order: list.New(), ids: make(map[string]*list.Element)}
}

// Claim implements [DeliveryGuard].
func (g *MemoryGuard) Claim(_ context.Context, id string) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, seen := g.ids[id]; seen {
		return false, nil
	}
	g.ids[id] = g.order.PushBack(id)
	for g.order.Len() > g.capacity {
		oldest := g.order.Front()
		g.order.Remove(oldest)
		delete(g.ids, oldest.Value.(string))
	}
	return true, nil
}

// Release implements [DeliveryGuard].
func (g *MemoryGuard) Release(_ context.Context, id string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if el, ok := g.ids[id]; ok {
		g.order.Remove(el)
		delete(g.ids, id)
	}
	return nil
}

// Len is the number of delivery IDs remembered.
func (g *MemoryGuard) Len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.ids)
}
