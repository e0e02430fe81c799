package forgejo

import (
	"context"
	"errors"
	"testing"
)

// TestAttemptsWhenEveryAttemptFailsInTransport: the Response of a call
// whose every attempt failed in transport still says how many were made.
func TestAttemptsWhenEveryAttemptFailsInTransport(t *testing.T) {
	srv := tsClosingServer(t)
	c, clock := tsClient(t, srv.URL)
	_, resp, err := c.Repos.Get(context.Background(), "a", "b")
	var re *RetriesExhaustedError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want *RetriesExhaustedError", err)
	}
	if re.Attempts != 3 {
		t.Fatalf("RetriesExhaustedError.Attempts = %d, want 3", re.Attempts)
	}
	if resp == nil || resp.Attempts != re.Attempts {
		t.Fatalf("Response.Attempts = %v, want %d", resp, re.Attempts)
	}
	if got := len(clock.waits()); got != 2 {
		t.Fatalf("backoff waits = %d, want 2", got)
	}
}
