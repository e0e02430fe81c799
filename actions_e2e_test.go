package forgejo_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

// A bot's whole path against the fake with a simulated runner, on the
// fake clock: dispatch, wait (the job queued 20s, then running), follow the
// failing step's log as it grows, then the whole log, and download the
// artifact the job left.
func TestActionsBotEndToEnd(t *testing.T) {
	f := newActionsFixture(t)
	f.srv.AttachRunner(&forgejotest.Runner{Script: func(job forgejotest.RunnerJob) forgejotest.JobScript {
		return forgejotest.JobScript{
			QueueFor: 20 * time.Second,
			Steps: []forgejotest.StepScript{
				{Name: "Set up job", Duration: time.Second, Lines: []string{"picked up"}},
				{Name: "Test", Duration: 30 * time.Second, Lines: []string{"=== RUN TestA", "--- PASS: TestA", "=== RUN TestB", "--- FAIL: TestB"}, Fail: true},
			},
			Artifacts: map[string][]byte{"coverage": []byte("PK fake zip")},
		}
	}})
	ctx := context.Background()
	run, _, err := f.c.Actions.RunWorkflow(ctx, f.owner, f.repo, "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	if err != nil {
		t.Fatal(err)
	}
	var statuses []forgejo.ActionStatus
	got, err := f.c.Actions.WaitRun(ctx, f.owner, f.repo, run.ID, &forgejo.WaitRunOptions{
		QueueLimit: time.Minute, // queued 20s: below the limit
		OnUpdate:   func(r *forgejo.ActionRun, _ []*forgejo.ActionRunJob) { statuses = append(statuses, r.Status) }})
	if err != nil || got.Status != forgejo.ActionStatusFailure {
		t.Fatalf("run %+v, %v", got, err)
	}
	if len(statuses) < 3 || statuses[0] != forgejo.ActionStatusWaiting || statuses[len(statuses)-1] != forgejo.ActionStatusFailure {
		t.Fatalf("statuses seen %v", statuses)
	}
	jobs, _, err := f.c.Actions.ListRunJobs(ctx, f.owner, f.repo, run.ID)
	if err != nil || len(jobs) != 1 {
		t.Fatalf("jobs %v, %v", jobs, err)
	}
	var step, whole bytes.Buffer
	job, err := f.c.Actions.FollowJobLog(ctx, f.owner, f.repo, run.ID, jobs[0].ID, &step, &forgejo.FollowLogOptions{Step: 2})
	if err != nil || job.Status != forgejo.ActionStatusFailure {
		t.Fatalf("follow step: %+v, %v", job, err)
	}
	if s := step.String(); !strings.Contains(s, "--- FAIL: TestB\n") || strings.Contains(s, "picked up") || strings.Count(s, "\n") != 4 {
		t.Fatalf("step 2's log:\n%s", s)
	}
	if _, err := f.c.Actions.FollowJobLog(ctx, f.owner, f.repo, run.ID, jobs[0].ID, &whole, nil); err != nil {
		t.Fatal(err)
	}
	if s := whole.String(); strings.Count(s, "\n") != 5 || !strings.HasSuffix(s, step.String()) {
		t.Fatalf("whole log:\n%s", s)
	}
	a, err := f.c.Actions.FindRunArtifact(ctx, f.owner, f.repo, run.ID, "coverage")
	if err != nil {
		t.Fatal(err)
	}
	var zip bytes.Buffer
	if _, _, err := f.c.Actions.DownloadArtifactTo(ctx, f.owner, f.repo, a.ID, &zip); err != nil || zip.String() != "PK fake zip" {
		t.Fatalf("artifact %q, %v", zip.String(), err)
	}
}

// Following a log while the runner writes it: every line arrives once, in
// order, though the follow starts while the job is still queued.
func TestFollowJobLogWhileTheRunnerWrites(t *testing.T) {
	f := newActionsFixture(t)
	lines := make([]string, 200)
	for i := range lines {
		lines[i] = "line " + strings.Repeat("x", i%37)
	}
	f.srv.AttachRunner(&forgejotest.Runner{Script: func(forgejotest.RunnerJob) forgejotest.JobScript {
		return forgejotest.JobScript{QueueFor: 5 * time.Second, Steps: []forgejotest.StepScript{{Name: "build", Duration: 10 * time.Minute, Lines: lines}}}
	}})
	run, job := f.dispatch(t)
	var out bytes.Buffer
	if _, err := f.c.Actions.FollowJobLog(context.Background(), f.owner, f.repo, run.ID, job.ID, &out, nil); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(got) != len(lines) {
		t.Fatalf("%d lines, want %d", len(got), len(lines))
	}
	for i, l := range got {
		if _, text, _ := strings.Cut(l, " "); text != lines[i] {
			t.Fatalf("line %d = %q, want text %q", i, l, lines[i])
		}
	}
	// It read with Range once it had bytes: the fake answered 206 and 416,
	// as Forgejo 16 does, never the whole log twice.
	whole, ranged := 0, 0
	for _, r := range f.srv.Requests() {
		if r.Operation == "repoGetActionJobLogs" {
			switch r.Status {
			case 200:
				whole++
			case 206, 416:
				ranged++
			}
		}
	}
	if ranged == 0 || whole > 1 {
		t.Fatalf("log reads: %d whole, %d ranged", whole, ranged)
	}
}

// With forgejotest's own FakeClock moved in the background (AutoAdvance),
// as a program's test would use it: the runner keeps the job queued for
// two minutes; a wait with a one-minute queue limit reports it queued, a
// wait without one sees it through.
func TestWaitRunOnAutoAdvancingFakeClock(t *testing.T) {
	clk := forgejotest.NewFakeClock(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))
	srv := forgejotest.NewServer(t, forgejotest.WithClock(clk))
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "app")
	c := srv.Client(forgejo.WithClock(clk))
	ctx := context.Background()
	_, _, err := c.Repos.CreateFile(ctx, owner, "app", ".forgejo/workflows/ci.yml",
		forgejo.CreateFileRequest{Content: base64.StdEncoding.EncodeToString([]byte(ciWorkflow))})
	if err != nil {
		t.Fatal(err)
	}
	srv.AttachRunner(&forgejotest.Runner{Script: func(job forgejotest.RunnerJob) forgejotest.JobScript {
		s := forgejotest.DefaultJobScript(job)
		s.QueueFor = 2 * time.Minute
		return s
	}})
	stop := clk.AutoAdvance(ctx, 0)
	defer stop()
	run, _, err := c.Actions.RunWorkflow(ctx, owner, "app", "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Actions.WaitRun(ctx, owner, "app", run.ID, &forgejo.WaitRunOptions{QueueLimit: time.Minute})
	var q *forgejo.RunQueuedError
	if !errors.As(err, &q) || q.Waited < time.Minute || q.Waited >= 2*time.Minute {
		t.Fatalf("err = %v, want queued for a minute", err)
	}
	got, err := c.Actions.WaitRun(ctx, owner, "app", run.ID, nil)
	if err != nil || got.Status != forgejo.ActionStatusSuccess || !clk.Now().After(run.Created.Add(2*time.Minute)) {
		t.Fatalf("run %+v, %v at %s", got, err, clk.Now())
	}
}
