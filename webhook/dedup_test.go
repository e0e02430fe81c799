package webhook

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

func TestMemoryGuard(t *testing.T) {
	ctx := context.Background()
	g := NewMemoryGuard(3)
	for _, id := range []string{"a", "b", "c"} {
		if first, err := g.Claim(ctx, id); !first || err != nil {
			t.Fatalf("Claim(%s) = %v, %v", id, first, err)
		}
	}
	if first, _ := g.Claim(ctx, "a"); first {
		t.Error("a claimed twice")
	}
	// A fourth ID evicts the oldest.
	if first, _ := g.Claim(ctx, "d"); !first || g.Len() != 3 {
		t.Errorf("d: %v, len %d", first, g.Len())
	}
	if first, _ := g.Claim(ctx, "a"); !first {
		t.Error("a not forgotten after eviction")
	}
	// Release forgets an ID; releasing an unknown one is harmless.
	if err := g.Release(ctx, "c"); err != nil {
		t.Fatal(err)
	}
	_ = g.Release(ctx, "never")
	if first, _ := g.Claim(ctx, "c"); !first {
		t.Error("c not claimable after Release")
	}
	if NewMemoryGuard(0).capacity != DefaultGuardCapacity {
		t.Error("default capacity")
	}
}

func TestMemoryGuardConcurrentClaims(t *testing.T) {
	g := NewMemoryGuard(0)
	var wins atomic.Int32
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if first, _ := g.Claim(context.Background(), "same"); first {
				wins.Add(1)
			}
			_, _ = g.Claim(context.Background(), fmt.Sprint("other-", i))
		}()
	}
	wg.Wait()
	if wins.Load() != 1 || g.Len() != 65 {
		t.Errorf("%d winners, %d ids", wins.Load(), g.Len())
	}
}
