package forgeredis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"
	"time"
)

// TestGuardOptions: a Guard's own options set its key and its TTL.
func TestGuardOptions(t *testing.T) {
	rdb, _ := sharedRedis(t)
	b := make([]byte, 6)
	rand.Read(b)
	name := "test-" + hex.EncodeToString(b)
	g, err := NewGuard(rdb, name, WithGuardPrefix("test:guard:"), WithGuardTTL(time.Minute), WithGuardTimeout(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if ok, err := g.Claim(ctx, "ID-1"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	key := "test:guard:{" + name + "}:ID-1"
	defer rdb.Del(ctx, key)
	ttl, err := rdb.PTTL(ctx, key).Result()
	if err != nil || ttl <= 59*time.Second || ttl > time.Minute {
		t.Errorf("key %s: TTL %v, %v", key, ttl, err)
	}
}
