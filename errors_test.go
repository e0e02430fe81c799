package forgejo

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// The status sentinels match through retries.
func TestStatusSentinels(t *testing.T) {
	for _, code := range []int{400, 401, 403, 404, 409, 422, 423, 429, 503} {
		srv := tsNewServer(t, tsStep{status: code})
		c, _ := tsClient(t, srv.URL)
		_, _, err := c.Repos.Get(context.Background(), "o", "r")
		for sentinel, want := range map[error]int{ErrBadRequest: 400, ErrUnauthorized: 401, ErrForbidden: 403, ErrNotFound: 404,
			ErrConflict: 409, ErrUnprocessable: 422, ErrLocked: 423, ErrRateLimited: 429} {
			if got := errors.Is(err, sentinel); got != (code == want) {
				t.Errorf("status %d: errors.Is(err, %v) = %v", code, sentinel, got)
			}
		}
		if StatusCode(err) != code {
			t.Errorf("StatusCode = %d, want %d", StatusCode(err), code)
		}
		if code == 429 || code == 503 {
			var re *RetriesExhaustedError
			if !errors.As(err, &re) {
				t.Errorf("status %d: %v is not a RetriesExhaustedError; the sentinel must match through it", code, err)
			}
		}
	}
	if StatusCode(nil) != 0 || StatusCode(errors.New("x")) != 0 {
		t.Error("StatusCode of a non-API error is not 0")
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
