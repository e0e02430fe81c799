package forgejo

import (
	"context"
	"errors"
	"strings"
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

// TestRetriesExhaustedNamesCallOnce: the message of a call that gave up
// names the call (operation, method, URL) once, then the attempts, then
// the last failure without its own copy of the call.
func TestRetriesExhaustedNamesCallOnce(t *testing.T) {
	srv := tsClosingServer(t)
	c, _ := tsClient(t, srv.URL)
	_, _, err := c.Repos.Get(context.Background(), "a", "b")
	if err == nil {
		t.Fatal("err = nil")
	}
	msg := err.Error()
	label := "repoGet GET " + srv.URL + "/api/v1/repos/a/b"
	if n := strings.Count(msg, "repoGet"); n != 1 {
		t.Errorf("the call is named %d times, want once: %q", n, msg)
	}
	if !strings.HasPrefix(msg, label+": gave up after 3 attempts (the last took ") {
		t.Errorf("message = %q, want it to start %q", msg, label+": gave up after 3 attempts (the last took ")
	}
	if !strings.Contains(msg, "ms): transport failure: connection failed (") {
		t.Errorf("message = %q, want the last failure after the attempts", msg)
	}
	if strings.Contains(msg, "attempt 3") {
		t.Errorf("message = %q repeats the attempt number", msg)
	}
}

// TestRetriesExhaustedKeepsRequestID: the request ID of the last answer
// stays in the call's label; an API failure keeps its status and message.
func TestRetriesExhaustedKeepsRequestID(t *testing.T) {
	srv := tsNewServer(t, tsStep{status: 503, header: map[string]string{"X-Request-Id": "rid-7"}, body: `{"message":"down"}`})
	c, _ := tsClient(t, srv.URL)
	_, _, err := c.Repos.Get(context.Background(), "a", "b")
	want := "repoGet GET " + srv.URL + "/api/v1/repos/a/b [request-id rid-7]: gave up after 3 attempts (the last took "
	if msg := err.Error(); !strings.HasPrefix(msg, want) || !strings.HasSuffix(msg, "ms): responded 503: down") {
		t.Errorf("message = %q, want %q…ms): responded 503: down", msg, want)
	}
}
