package forgejo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

type ocKey struct{}

// ocObserver is an obRecorder with StartCall and EndCall as well: StartCall
// puts a marker in ctx, and every event records whether its ctx holds it.
type ocObserver struct {
	obRecorder
	start   func(ctx context.Context) context.Context
	marks   []bool // per event, whether ctx carried the marker
	ends    []CallContext
	endErrs []error
}

func (o *ocObserver) mark(ctx context.Context) {
	o.mu.Lock()
	o.marks = append(o.marks, ctx.Value(ocKey{}) == "call")
	o.mu.Unlock()
}

func (o *ocObserver) OnRequest(ctx context.Context, call CallContext) {
	o.mark(ctx)
	o.obRecorder.OnRequest(ctx, call)
}

func (o *ocObserver) OnResponse(ctx context.Context, call CallContext, status int) {
	o.mark(ctx)
	o.obRecorder.OnResponse(ctx, call, status)
}

func (o *ocObserver) OnError(ctx context.Context, call CallContext, err error) {
	o.mark(ctx)
	o.obRecorder.OnError(ctx, call, err)
}

func (o *ocObserver) OnRetry(ctx context.Context, call CallContext, err error, wait time.Duration) {
	o.mark(ctx)
	o.obRecorder.OnRetry(ctx, call, err, wait)
}

func (o *ocObserver) StartCall(ctx context.Context, call CallContext) context.Context {
	o.add(fmt.Sprintf("start#%d %s %s %s", call.Attempt, call.Operation, call.Method, call.Route), call, nil)
	if o.start != nil {
		return o.start(ctx)
	}
	return context.WithValue(ctx, ocKey{}, "call")
}

func (o *ocObserver) EndCall(ctx context.Context, call CallContext, status int, err error) {
	o.mark(ctx)
	o.add(fmt.Sprintf("end#%d:%d:%T", call.Attempt, status, err), call, err)
	o.mu.Lock()
	o.ends = append(o.ends, call)
	o.endErrs = append(o.endErrs, err)
	o.mu.Unlock()
}

// ocTransport records whether each request's ctx carries the marker.
type ocTransport struct {
	marks []bool
}

func (t *ocTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.marks = append(t.marks, req.Context().Value(ocKey{}) == "call")
	return http.DefaultTransport.RoundTrip(req)
}

func allTrue(bs []bool) bool {
	for _, b := range bs {
		if !b {
			return false
		}
	}
	return len(bs) > 0
}

func TestStartEndCallWrapsTheCall(t *testing.T) {
	cases := []struct {
		name   string
		steps  []tsStep
		want   string
		status int
	}{
		{"success", []tsStep{{status: 200, body: rtIssueJSON}},
			"start#0 repoGet GET /repos/{owner}/{repo} request#1 response#1:200 end#1:200:<nil>", 200},
		{"503 then 200", []tsStep{{status: 503}, {status: 200, body: rtIssueJSON}},
			"start#0 repoGet GET /repos/{owner}/{repo} request#1 response#1:503 error#1 retry#1:250ms request#2 response#2:200 end#2:200:<nil>", 200},
		{"404", []tsStep{{status: 404, header: map[string]string{"X-Request-Id": "rid-9"}}},
			"start#0 repoGet GET /repos/{owner}/{repo} request#1 response#1:404 error#1 final:*forgejo.APIError end#1:404:*forgejo.APIError", 404},
		{"exhausted", []tsStep{{status: 503}},
			"start#0 repoGet GET /repos/{owner}/{repo} request#1 response#1:503 error#1 retry#1:250ms request#2 response#2:503 error#2 retry#2:500ms request#3 response#3:503 error#3 final:*forgejo.RetriesExhaustedError end#3:503:*forgejo.RetriesExhaustedError", 503},
		{"decode error after a 200", []tsStep{{status: 200, body: `[`}},
			"start#0 repoGet GET /repos/{owner}/{repo} request#1 response#1:200 error#1 final:*forgejo.DecodeError end#1:200:*forgejo.DecodeError", 200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := tsNewServer(t, tc.steps...)
			obs := &ocObserver{}
			tr := &ocTransport{}
			c, _ := tsClient(t, srv.URL, withObserver(obs), WithHTTPClient(&http.Client{Transport: tr}))
			tick := time.Unix(0, 0)
			c.now = func() time.Time { tick = tick.Add(time.Millisecond); return tick }
			_, _, err := c.Repos.Get(context.Background(), "o", "r")
			if got := strings.Join(obs.events, " "); got != tc.want {
				t.Fatalf("events:\n got %s\nwant %s", got, tc.want)
			}
			if !allTrue(obs.marks) {
				t.Fatalf("an observer event did not get StartCall's ctx: %v", obs.marks)
			}
			if !allTrue(tr.marks) {
				t.Fatalf("the transport did not get StartCall's ctx: %v", tr.marks)
			}
			end := obs.ends[0]
			if !end.Final || end.Duration <= 0 || end.Operation != "repoGet" || !strings.HasPrefix(end.URL, srv.URL) || obs.endErrs[0] != err {
				t.Fatalf("EndCall call = %+v err = %v", end, obs.endErrs[0])
			}
			if tc.name == "404" && end.RequestID != "rid-9" {
				t.Fatalf("EndCall RequestID = %q", end.RequestID)
			}
		})
	}
}

func TestStartEndCallTransportFailure(t *testing.T) {
	obs := &ocObserver{}
	c, _ := tsClient(t, "http://127.0.0.1:1", withObserver(obs), WithRetryPolicy(RetryOff()))
	_, _, err := c.Repos.Get(context.Background(), "o", "r")
	var te *TransportError
	if !errors.As(err, &te) {
		t.Fatal(err)
	}
	want := "start#0 repoGet GET /repos/{owner}/{repo} request#1 error#1 final:*forgejo.TransportError end#1:0:*forgejo.TransportError"
	if got := strings.Join(obs.events, " "); got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}
}

func TestStartEndCallNotCalledForValidationFailures(t *testing.T) {
	obs := &ocObserver{}
	c, _ := tsClient(t, "http://127.0.0.1:1", withObserver(obs))
	_, _, _ = c.Repos.Get(context.Background(), "o/x", "r")
	if got := strings.Join(obs.events, " "); got != "final:*forgejo.ValidationError" {
		t.Fatalf("events = %s", got)
	}
}

func TestStartEndCallCannotDetachOrBreakTheCall(t *testing.T) {
	srv := tsNewServer(t, tsStep{status: 200, body: rtIssueJSON})
	type parentKey struct{}
	parent := context.WithValue(context.Background(), parentKey{}, "parent")
	cases := map[string]func(context.Context) context.Context{
		"nil":      func(context.Context) context.Context { return nil },
		"detached": func(context.Context) context.Context { return context.WithValue(context.Background(), ocKey{}, "call") },
		"canceller": func(ctx context.Context) context.Context {
			c, cancel := context.WithCancel(ctx)
			t.Cleanup(cancel)
			return context.WithValue(c, ocKey{}, "call")
		},
		"panics": func(context.Context) context.Context { panic("boom") },
	}
	for name, start := range cases {
		t.Run(name, func(t *testing.T) {
			obs := &ocObserver{start: start}
			c, _ := tsClient(t, srv.URL, withObserver(obs))
			cctx, cancel := context.WithCancel(parent)
			defer cancel()
			if _, _, err := c.Repos.Get(cctx, "o", "r"); err != nil {
				t.Fatal(err)
			}
			if len(obs.ends) != 1 {
				t.Fatalf("EndCall ran %d times", len(obs.ends))
			}
			for i, m := range obs.marks {
				if m {
					t.Fatalf("event %d got the rejected ctx", i)
				}
			}
		})
	}
}

// ocPanicker panics in EndCall only.
type ocPanicker struct{ obRecorder }

func (*ocPanicker) StartCall(ctx context.Context, _ CallContext) context.Context { return ctx }
func (*ocPanicker) EndCall(context.Context, CallContext, int, error)             { panic("boom") }

func TestPanickingEndCallNeverFailsTheCall(t *testing.T) {
	srv := tsNewServer(t, tsStep{status: 200, body: rtIssueJSON})
	c, _ := tsClient(t, srv.URL, withObserver(&ocPanicker{}))
	if _, _, err := c.Repos.Get(context.Background(), "o", "r"); err != nil {
		t.Fatal(err)
	}
}
