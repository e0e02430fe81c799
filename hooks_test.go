package forgejo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// obRecorder records observer events as compact strings.
type obRecorder struct {
	mu     sync.Mutex
	events []string
	calls  []CallContext
	errs   []error
}

func (r *obRecorder) add(ev string, call CallContext, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	r.calls = append(r.calls, call)
	r.errs = append(r.errs, err)
}

func (r *obRecorder) OnRequest(_ context.Context, call CallContext) {
	r.add(fmt.Sprintf("request#%d", call.Attempt), call, nil)
}

func (r *obRecorder) OnResponse(_ context.Context, call CallContext, status int) {
	r.add(fmt.Sprintf("response#%d:%d", call.Attempt, status), call, nil)
}

func (r *obRecorder) OnError(_ context.Context, call CallContext, err error) {
	ev := fmt.Sprintf("error#%d", call.Attempt)
	if call.Final {
		ev = "final:" + fmt.Sprintf("%T", err)
	}
	r.add(ev, call, err)
}

func (r *obRecorder) OnRetry(_ context.Context, call CallContext, _ error, wait time.Duration) {
	r.add(fmt.Sprintf("retry#%d:%v", call.Attempt, wait), call, nil)
}

func TestObserverEventOrder(t *testing.T) {
	cases := []struct {
		name  string
		steps []tsStep
		want  []string
	}{
		{"success", []tsStep{{status: 200, body: rtIssueJSON}},
			[]string{"request#1", "response#1:200"}},
		{"single 404: attempt error then final", []tsStep{{status: 404}},
			[]string{"request#1", "response#1:404", "error#1", "final:*forgejo.APIError"}},
		{"three 503s: four OnError", []tsStep{{status: 503}},
			[]string{"request#1", "response#1:503", "error#1", "retry#1:250ms",
				"request#2", "response#2:503", "error#2", "retry#2:500ms",
				"request#3", "response#3:503", "error#3", "final:*forgejo.RetriesExhaustedError"}},
		{"503 then 200", []tsStep{{status: 503}, {status: 200, body: rtIssueJSON}},
			[]string{"request#1", "response#1:503", "error#1", "retry#1:250ms", "request#2", "response#2:200"}},
		{"2xx that fails to decode still reports the response", []tsStep{{status: 200, body: `[`}},
			[]string{"request#1", "response#1:200", "error#1", "final:*forgejo.DecodeError"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := tsNewServer(t, tc.steps...)
			rec := &obRecorder{}
			c, _ := tsClient(t, srv.URL, withObserver(rec))
			_, _, _ = c.Repos.Get(context.Background(), "o", "r")
			if strings.Join(rec.events, " ") != strings.Join(tc.want, " ") {
				t.Fatalf("events:\n got %v\nwant %v", rec.events, tc.want)
			}
			for i, call := range rec.calls {
				if call.Operation != "repoGet" || call.Method != "GET" || !strings.HasSuffix(call.URL, "/api/v1/repos/o/r") {
					t.Fatalf("event %d call = %+v", i, call)
				}
			}
		})
	}
}

func TestObserverSeesTransportAndValidationFailures(t *testing.T) {
	rec := &obRecorder{}
	c, _ := tsClient(t, "http://127.0.0.1:1", withObserver(rec), WithRetryPolicy(RetryOff()))
	_, _, err := c.Repos.Get(context.Background(), "o", "r")
	if err == nil {
		t.Fatal("want a transport error")
	}
	if got := strings.Join(rec.events, " "); got != "request#1 error#1 final:*forgejo.TransportError" {
		t.Fatalf("events = %s (no response arrived, so no OnResponse)", got)
	}
	rec2 := &obRecorder{}
	c2, _ := tsClient(t, "http://127.0.0.1:1", withObserver(rec2))
	_, _, err = c2.Repos.Get(context.Background(), "o/x", "r")
	if got := strings.Join(rec2.events, " "); got != "final:*forgejo.ValidationError" || rec2.errs[0] != err {
		t.Fatalf("events = %s", got)
	}
}

func TestObserverCallContextCarriesRequestIDAndDuration(t *testing.T) {
	srv := tsNewServer(t, tsStep{status: 404, header: map[string]string{"X-Request-Id": "req-42"}})
	rec := &obRecorder{}
	c, _ := tsClient(t, srv.URL, withObserver(rec))
	tick := time.Unix(0, 0)
	c.now = func() time.Time { tick = tick.Add(7 * time.Millisecond); return tick }
	_, _, err := c.Repos.Get(context.Background(), "o", "r")
	var ae *APIError
	if !errors.As(err, &ae) {
		t.Fatal(err)
	}
	if ae.Call.RequestID != "req-42" || ae.Call.Duration != 7*time.Millisecond {
		t.Fatalf("call = %+v", ae.Call)
	}
	if !strings.Contains(err.Error(), "[request-id req-42] after 7ms responded 404") {
		t.Fatalf("Error() = %s", err)
	}
	if rec.calls[1].RequestID != "req-42" {
		t.Fatalf("OnResponse call = %+v", rec.calls[1])
	}
}

// obPanicker panics in every callback.
type obPanicker struct{}

func (obPanicker) OnRequest(context.Context, CallContext)                     { panic("boom") }
func (obPanicker) OnResponse(context.Context, CallContext, int)               { panic("boom") }
func (obPanicker) OnError(context.Context, CallContext, error)                { panic("boom") }
func (obPanicker) OnRetry(context.Context, CallContext, error, time.Duration) { panic("boom") }

func TestPanickingObserverNeverFailsTheCall(t *testing.T) {
	srv := tsNewServer(t, tsStep{status: 503}, tsStep{status: 200, body: `{"version":"1.2.3"}`})
	c, _ := tsClient(t, srv.URL, withObserver(obPanicker{}))
	v, resp, err := c.Misc.GetVersion(context.Background())
	if err != nil || v.Version != "1.2.3" || resp.Attempts != 2 {
		t.Fatalf("v = %+v err = %v", v, err)
	}
}

func TestNoObserverAllocatesNothingForIt(t *testing.T) {
	c, err := NewClient()
	if err != nil {
		t.Fatal(err)
	}
	call := CallContext{Operation: "x", Method: "GET", URL: "u"}
	allocs := testing.AllocsPerRun(100, func() {
		c.notifyRequest(context.Background(), call)
		c.notifyResponse(context.Background(), call, 200)
		c.notifyError(context.Background(), call, errResponseTooLarge)
		c.notifyRetry(context.Background(), call, errResponseTooLarge, time.Second)
	})
	if allocs != 0 {
		t.Fatalf("allocs = %v, want 0 without an observer", allocs)
	}
}

func TestSlogObserver(t *testing.T) {
	srv := tsNewServer(t, tsStep{status: 503}, tsStep{status: 404, body: `{"message":"GetUserByName","errors":["user redirect does not exist"]}`})
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, _ := tsClient(t, srv.URL, withObserver(slogObserver(logger)))
	_, _, _ = c.Repos.Get(context.Background(), "o", "r")

	type line struct {
		Level, Msg, Op, URL, Error string
		Attempt, Status            int
		Wait                       int64
	}
	var got []line
	for _, raw := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var l line
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatalf("not JSON: %s", raw)
		}
		got = append(got, l)
	}
	want := []struct{ level, msg string }{
		{"DEBUG", "forgejo request"}, {"DEBUG", "forgejo response"}, {"DEBUG", "forgejo attempt failed"},
		{"INFO", "forgejo retrying"},
		{"DEBUG", "forgejo request"}, {"DEBUG", "forgejo response"}, {"DEBUG", "forgejo attempt failed"},
		{"INFO", "forgejo call failed"},
	}
	if len(got) != len(want) {
		t.Fatalf("lines = %d, want %d:\n%s", len(got), len(want), buf.String())
	}
	for i, w := range want {
		if got[i].Level != w.level || got[i].Msg != w.msg || got[i].Op != "repoGet" {
			t.Fatalf("line %d = %+v, want %v", i, got[i], w)
		}
	}
	if got[3].Wait != int64(250*time.Millisecond) || got[5].Status != 404 || !strings.Contains(got[7].Error, "user redirect does not exist") {
		t.Fatalf("attributes wrong: %+v", got)
	}
}
