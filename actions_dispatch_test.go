package forgejo_test

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

// stepClock is a forgejotest.FakeClock that moves itself: each Sleep
// advances the time by its duration at once (no real wait) and records
// it, then runs the test's hook, which plays the runner at the new time or
// cancels the wait. A wait loop on it runs on one goroutine, step by step,
// deterministically.
type stepClock struct {
	*forgejotest.FakeClock
	mu     sync.Mutex
	sleeps []time.Duration
	hook   func(now time.Time, n int) // n: the 1-based sleep
}

func newStepClock() *stepClock {
	return &stepClock{FakeClock: forgejotest.NewFakeClock(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))}
}

func (c *stepClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.Advance(d)
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	n, hook := len(c.sleeps), c.hook
	c.mu.Unlock()
	if hook != nil {
		hook(c.Now(), n)
	}
	return ctx.Err()
}

func (c *stepClock) slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.sleeps)
}

// actionsFixture is a fake Forgejo on a step clock with a repository that
// holds a dispatchable workflow of one job.
type actionsFixture struct {
	srv         *forgejotest.Server
	clk         *stepClock
	c           *forgejo.Client
	owner, repo string
}

const ciWorkflow = "name: CI\non: workflow_dispatch\njobs:\n  test:\n    runs-on: docker\n"

func newActionsFixture(t *testing.T, opts ...forgejotest.Option) *actionsFixture {
	t.Helper()
	clk := newStepClock()
	srv := forgejotest.NewServer(t, append([]forgejotest.Option{forgejotest.WithClock(clk)}, opts...)...)
	f := &actionsFixture{srv: srv, clk: clk, c: srv.Client(forgejo.WithClock(clk)), owner: srv.DefaultUser(), repo: "app"}
	srv.AddRepo(f.owner, f.repo)
	f.addWorkflow(t, "ci.yml", ciWorkflow)
	return f
}

func (f *actionsFixture) addWorkflow(t *testing.T, name, content string) {
	t.Helper()
	_, _, err := f.c.Repos.CreateFile(context.Background(), f.owner, f.repo, ".forgejo/workflows/"+name,
		forgejo.CreateFileRequest{Content: base64.StdEncoding.EncodeToString([]byte(content))})
	if err != nil {
		t.Fatal(err)
	}
}

// dispatch starts ci.yml on main and returns the run and its one job.
func (f *actionsFixture) dispatch(t *testing.T) (*forgejo.ActionRun, *forgejo.ActionRunJob) {
	t.Helper()
	run, _, err := f.c.Actions.RunWorkflow(context.Background(), f.owner, f.repo, "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	if err != nil {
		t.Fatal(err)
	}
	jobs, _, err := f.c.Actions.ListRunJobs(context.Background(), f.owner, f.repo, run.ID)
	if err != nil || len(jobs) != 1 {
		t.Fatalf("jobs = %v, %v", jobs, err)
	}
	return run, jobs[0]
}

// Forgejo names the run it started (201, return_run_info): RunWorkflow reads
// it whole with one GetRun and never lists.
func TestRunWorkflowFromTheAnswer(t *testing.T) {
	f := newActionsFixture(t)
	run, resp, err := f.c.Actions.RunWorkflow(context.Background(), f.owner, f.repo, "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusCreated || run.ID == 0 || run.WorkflowID != "ci.yml" || run.Status != forgejo.ActionStatusWaiting ||
		run.EventName() != "workflow_dispatch" || run.Prettyref != "main" {
		t.Fatalf("run = %+v (status %d)", run, resp.StatusCode)
	}
	if n := f.srv.Count("ListActionRuns"); n != 0 {
		t.Fatalf("listed runs %d times, want 0 where the answer names the run", n)
	}
	if d, g := f.srv.Count("DispatchWorkflow"), f.srv.Count("ActionRun"); d != 1 || g != 1 {
		t.Fatalf("dispatches %d, gets %d; want 1 and 1", d, g)
	}
	// The dispatch asked for the run even though the caller did not.
	for _, r := range f.srv.Requests() {
		if r.Operation == "DispatchWorkflow" && !strings.Contains(string(r.Body), `"return_run_info":true`) {
			t.Fatalf("dispatch body %s lacks return_run_info", r.Body)
		}
	}
}

// answer204 makes the fake dispatch as Gitea does: the run is created, the
// answer is 204 without it. later, when set, runs after the dispatch, as
// another client's dispatch would.
func answer204(t *testing.T, f *actionsFixture, later func()) {
	t.Helper()
	inner := f.srv.Client(forgejo.WithClock(f.clk))
	var h http.HandlerFunc
	h = func(w http.ResponseWriter, r *http.Request) {
		f.srv.Handle("DispatchWorkflow", nil) // the fake's own handler, for the inner dispatch
		_, _, err := inner.Actions.DispatchWorkflow(r.Context(), r.PathValue("owner"), r.PathValue("repo"), r.PathValue("workflowfilename"), forgejo.DispatchWorkflowRequest{Ref: "main"})
		f.srv.Handle("DispatchWorkflow", h)
		if err != nil {
			t.Errorf("inner dispatch: %v", err)
		}
		if later != nil {
			later()
		}
		w.WriteHeader(http.StatusNoContent)
	}
	f.srv.Handle("DispatchWorkflow", h)
}

// A 204 (Gitea) names no run: RunWorkflow finds it in the listing by the
// rule (workflow_dispatch, that workflow, that ref, created no earlier than
// a minute before), reading the listing again, with growing waits, while it
// is not there yet. An older dispatch of the same workflow and a newer
// dispatch of another workflow are not taken.
func TestRunWorkflowFindsTheRunOn204(t *testing.T) {
	f := newActionsFixture(t)
	f.addWorkflow(t, "other.yml", ciWorkflow)
	old, _ := f.dispatch(t) // an earlier dispatch of ci.yml, two hours ago
	f.clk.Advance(2 * time.Hour)
	answer204(t, f, func() {
		// Someone dispatches another workflow right after.
		other := f.srv.Client()
		f.srv.Handle("DispatchWorkflow", nil)
		defer answer204(t, f, nil)
		if _, _, err := other.Actions.DispatchWorkflow(context.Background(), f.owner, f.repo, "other.yml", forgejo.DispatchWorkflowRequest{Ref: "main"}); err != nil {
			t.Error(err)
		}
	})
	// The first listing does not show the run yet.
	f.srv.Inject(forgejotest.Fault{Operation: "ListActionRuns", Statuses: []int{200}, Body: `{"workflow_runs":[],"total_count":0}`,
		Header: http.Header{"Content-Type": {"application/json"}}})
	run, resp, err := f.c.Actions.RunWorkflow(context.Background(), f.owner, f.repo, "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("dispatch status %d, want the 204", resp.StatusCode)
	}
	if run.ID == old.ID || run.WorkflowID != "ci.yml" || run.EventName() != "workflow_dispatch" {
		t.Fatalf("found %+v; the older run was %d", run, old.ID)
	}
	if got := f.srv.Count("ListActionRuns"); got != 2 {
		t.Fatalf("listed %d times, want 2", got)
	}
	if got := f.clk.slept(); !slices.Equal(got, []time.Duration{500 * time.Millisecond}) {
		t.Fatalf("waits %v, want [500ms]", got)
	}
}

// A 204 and no new run in the listing, only one dispatched two hours
// earlier: five listings, waits 0.5s, 1s, 2s, 4s on the client's clock,
// then *RunNotFoundError. The dispatch is sent once.
func TestRunWorkflowNotFound(t *testing.T) {
	f := newActionsFixture(t)
	f.dispatch(t)
	f.clk.Advance(2 * time.Hour)
	f.srv.ResetRequests()
	f.srv.Handle("DispatchWorkflow", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	_, _, err := f.c.Actions.RunWorkflow(context.Background(), f.owner, f.repo, "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	var nf *forgejo.RunNotFoundError
	if !errors.As(err, &nf) || !errors.Is(err, forgejo.ErrRunNotFound) || nf.Attempts != 5 || nf.Workflow != "ci.yml" || nf.Ref != "main" {
		t.Fatalf("err = %v, want *RunNotFoundError after 5 listings", err)
	}
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second}
	if got := f.clk.slept(); !slices.Equal(got, want) {
		t.Fatalf("waits %v, want %v", got, want)
	}
	if d, l := f.srv.Count("DispatchWorkflow"), f.srv.Count("ListActionRuns"); d != 1 || l != 5 {
		t.Fatalf("dispatches %d, listings %d; want 1 and 5", d, l)
	}
}

// Gitea's runs are GitHub-shaped: no creation time, and the workflow and
// the ref together in path ("ci.yml@refs/heads/main"). The rule holds the
// path to both, so the newest dispatched run of that workflow on that ref
// is taken: not a push run, not another workflow's, not another ref's.
// A finished run's Outcome is its conclusion.
func TestRunWorkflowGiteaShapedListing(t *testing.T) {
	f := newActionsFixture(t)
	f.srv.Handle("DispatchWorkflow", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	f.srv.Handle("ListActionRuns", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"total_count":5,"workflow_runs":[
			{"id":11,"event":"workflow_dispatch","status":"queued","path":"ci.yml@refs/heads/dev","head_branch":"dev","run_number":5},
			{"id":10,"event":"workflow_dispatch","status":"queued","path":"lint.yml@refs/heads/main","head_branch":"main","run_number":4},
			{"id":9,"event":"push","status":"queued","path":"push.yml@refs/heads/main","head_branch":"main","run_number":3},
			{"id":8,"event":"workflow_dispatch","status":"queued","path":"ci.yml@refs/heads/main","head_branch":"main","run_number":2,"started_at":null},
			{"id":5,"event":"workflow_dispatch","status":"completed","conclusion":"success","path":"ci.yml@refs/heads/main","run_number":1}]}`))
	})
	list, _, err := f.c.Actions.ListRuns(context.Background(), f.owner, f.repo, nil)
	if err != nil || len(list.WorkflowRuns) != 5 {
		t.Fatalf("list = %+v, %v", list, err)
	}
	if r := list.WorkflowRuns[4]; r.Status != "completed" || !r.Status.Done() || r.Outcome() != forgejo.ActionStatusSuccess {
		t.Fatalf("finished run: status %q, conclusion %q, outcome %q", r.Status, r.Conclusion, r.Outcome())
	}
	if r := list.WorkflowRuns[3]; r.Outcome() != "queued" {
		t.Fatalf("queued run's outcome %q", r.Outcome())
	}
	run, _, err := f.c.Actions.RunWorkflow(context.Background(), f.owner, f.repo, "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	if err != nil || run.ID != 8 {
		t.Fatalf("run = %+v, %v; want run 8", run, err)
	}
}
