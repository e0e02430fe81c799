package forgejo

import (
	"context"
	"errors"
	"testing"
)

func TestRetryBudget(t *testing.T) {
	srv := tsNewServer(t, tsStep{status: 503})
	c, k := tsClient(t, srv.URL, WithRetryBudget(RetryBudget{MaxTokens: 4, TokenRatio: 0.5}))
	// Call 1: attempt 1 fails (4→3, 3 > 2: retry), attempt 2 fails (3→2,
	// 2 is not > 2: stop). Exhausted after 2 attempts, not 3.
	_, _, err := c.Misc.GetVersion(context.Background())
	var re *RetriesExhaustedError
	if !errors.As(err, &re) || re.Attempts != 2 {
		t.Fatalf("err = %v", err)
	}
	// Call 2: the budget is at half: one attempt, the failure comes back bare.
	hits := srv.hits.Load()
	_, _, err = c.Misc.GetVersion(context.Background())
	var ae *APIError
	if !errors.As(err, &ae) || errors.As(err, &re) || srv.hits.Load()-hits != 1 {
		t.Fatalf("err = %v, attempts = %d", err, srv.hits.Load()-hits)
	}
	if len(k.waits()) != 1 {
		t.Fatalf("waits = %v", k.waits())
	}
	for _, bad := range []RetryBudget{{}, {MaxTokens: 10}, {MaxTokens: 2000, TokenRatio: 0.1}, {MaxTokens: 10, TokenRatio: 2}} {
		if _, err := NewClient(WithRetryBudget(bad)); err == nil {
			t.Errorf("budget %+v accepted", bad)
		}
	}
}

func TestRetryBudgetRefillsOnSuccess(t *testing.T) {
	l := newRetryTokens(&RetryBudget{MaxTokens: 4, TokenRatio: 0.5})
	l.recordOutcome(false, true)
	l.recordOutcome(false, true)
	if l.allowRetry() {
		t.Fatal("at half the budget, no retry")
	}
	l.recordOutcome(true, false)
	if !l.allowRetry() {
		t.Fatal("a success refills the budget")
	}
	for range 10 {
		l.recordOutcome(true, false)
	}
	if l.tokens != 4 {
		t.Fatalf("tokens = %v, want capped at 4", l.tokens)
	}
	l.recordOutcome(false, false) // a non-retryable failure costs nothing
	if l.tokens != 4 {
		t.Fatalf("tokens = %v", l.tokens)
	}
}
