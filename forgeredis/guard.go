package forgeredis

import (
	"context"
	"errors"
	"strings"
	"time"

	"codeberg.org/forgego/forgejo/webhook"
	"github.com/redis/go-redis/v9"
)

// DefaultGuardPrefix is put before the name given to [NewGuard].
const DefaultGuardPrefix = "forgego:guard:"

// DefaultGuardTTL is how long a [Guard] remembers a delivery ID unless
// [WithGuardTTL] says otherwise: longer than any retry schedule and any
// redelivery by a proxy.
const DefaultGuardTTL = 7 * 24 * time.Hour

// GuardOption configures a [Guard].
type GuardOption func(*guardConfig)

type guardConfig struct {
	prefix  string
	ttl     time.Duration
	timeout time.Duration
}

// WithGuardPrefix replaces [DefaultGuardPrefix].
func WithGuardPrefix(p string) GuardOption { return func(c *guardConfig) { c.prefix = p } }

// WithGuardTTL sets how long the Guard remembers a delivery ID
// ([DefaultGuardTTL] when d <= 0).
func WithGuardTTL(d time.Duration) GuardOption { return func(c *guardConfig) { c.ttl = d } }

// WithGuardTimeout bounds every Redis call of the Guard
// ([DefaultQueueTimeout] when d <= 0, for the reason given there).
func WithGuardTimeout(d time.Duration) GuardOption { return func(c *guardConfig) { c.timeout = d } }

// Guard is a [webhook.DeliveryGuard] on Redis, shared by every receiver
// and worker: Claim is SET key 1 NX PX ttl (atomic: of two concurrent
// Claims of one ID, one wins), Release is DEL. The key is the prefix, the
// name in braces and the canonical delivery ID. Errors never contain the
// Redis password (see [Queue]); every call is bounded ([WithGuardTimeout]).
type Guard struct {
	rdb      redis.UniversalClient
	base     string
	ttl      time.Duration
	timeout  time.Duration
	password func() string // a func, so that no rendering of the value shows it
}

// NewGuard returns the Guard called name in rdb (use the queue's name).
func NewGuard(rdb redis.UniversalClient, name string, opts ...GuardOption) (*Guard, error) {
	if rdb == nil {
		return nil, errors.New("forgeredis: nil Redis client")
	}
	if name == "" || strings.ContainsAny(name, "{}") {
		return nil, errors.New("forgeredis: a guard name must be non-empty and without braces")
	}
	c := guardConfig{prefix: DefaultGuardPrefix, ttl: DefaultGuardTTL, timeout: DefaultQueueTimeout}
	for _, o := range opts {
		o(&c)
	}
	if c.ttl <= 0 {
		c.ttl = DefaultGuardTTL
	}
	if c.timeout <= 0 {
		c.timeout = DefaultQueueTimeout
	}
	return &Guard{rdb: rdb, base: c.prefix + "{" + name + "}:", ttl: c.ttl, timeout: c.timeout, password: passwordOf(rdb)}, nil
}

// Claim implements [webhook.DeliveryGuard].
func (g *Guard) Claim(ctx context.Context, id string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	ok, err := g.rdb.SetNX(ctx, g.base+id, 1, g.ttl).Result()
	if err != nil {
		return false, wrapErr("guard claim", err, g.password())
	}
	return ok, nil
}

// Release implements [webhook.DeliveryGuard].
func (g *Guard) Release(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	return wrapErr("guard release", g.rdb.Del(ctx, g.base+id).Err(), g.password())
}

var _ webhook.DeliveryGuard = (*Guard)(nil)
