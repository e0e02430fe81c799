package forgejo_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
)

// No runner picks the run up: WaitRun reports it queued, with how long it
// waited, once QueueLimit has passed; it never hangs. The waits grow by half
// from Interval up to MaxInterval while nothing changes.
func TestWaitRunQueuedWithoutRunner(t *testing.T) {
	f := newActionsFixture(t)
	run, _ := f.dispatch(t)
	f.srv.ResetRequests()
	got, err := f.c.Actions.WaitRun(context.Background(), f.owner, f.repo, run.ID, &forgejo.WaitRunOptions{
		Interval: 2 * time.Second, MaxInterval: 10 * time.Second, QueueLimit: time.Minute})
	var q *forgejo.RunQueuedError
	if !errors.As(err, &q) || !errors.Is(err, forgejo.ErrRunQueued) {
		t.Fatalf("err = %v, want *RunQueuedError", err)
	}
	if q.Run == nil || q.Run.ID != run.ID || q.Run.Status != forgejo.ActionStatusWaiting || q.Err != nil || q.Waited < time.Minute || q.Waited > time.Minute+10*time.Second {
		t.Fatalf("queued error = %+v", q)
	}
	if got == nil || got.ID != run.ID {
		t.Fatalf("run = %+v, want the run as last read", got)
	}
	want := []time.Duration{2 * time.Second, 3 * time.Second, 4500 * time.Millisecond, 6750 * time.Millisecond, 10 * time.Second, 10 * time.Second}
	if s := f.clk.slept(); len(s) < len(want) || !slices.Equal(s[:len(want)], want) {
		t.Fatalf("waits %v, want them to start %v", s, want)
	}
	if polls := f.srv.Count("ActionRun"); polls != len(f.clk.slept())+1 {
		t.Fatalf("%d polls for %d waits", polls, len(f.clk.slept()))
	}
}

// The caller's context ends while no runner has picked the run up: the
// error is both the context's and ErrRunQueued.
func TestWaitRunContextEndsWhileWaiting(t *testing.T) {
	f := newActionsFixture(t)
	run, _ := f.dispatch(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.clk.hook = func(now time.Time, n int) {
		if n == 4 {
			cancel()
		}
	}
	_, err := f.c.Actions.WaitRun(ctx, f.owner, f.repo, run.ID, nil) // QueueLimit 0: as long as ctx allows
	var q *forgejo.RunQueuedError
	if !errors.Is(err, context.Canceled) || !errors.As(err, &q) || !errors.Is(err, forgejo.ErrRunQueued) {
		t.Fatalf("err = %v, want context.Canceled and ErrRunQueued", err)
	}
	// Default waits 2s, 3s, 4.5s, 6.75s: the run was seen waiting 16.25s.
	if q.Waited != 16250*time.Millisecond || q.Err != context.Canceled {
		t.Fatalf("queued error = %+v", q)
	}
}

// A runner takes the job, then finishes it: WaitRun returns the final run,
// reports each change to OnUpdate with the jobs, and the wait comes back to
// Interval after each change.
func TestWaitRunFollowsTheRun(t *testing.T) {
	f := newActionsFixture(t)
	run, job := f.dispatch(t)
	f.clk.hook = func(now time.Time, n int) {
		switch n {
		case 3:
			f.srv.RunActionJob(f.owner, f.repo, job.ID, "running", "")
		case 7:
			f.srv.RunActionJob(f.owner, f.repo, job.ID, "failure", "boom\n")
		}
	}
	var seen []string
	got, err := f.c.Actions.WaitRun(context.Background(), f.owner, f.repo, run.ID, &forgejo.WaitRunOptions{
		Interval: time.Second, MaxInterval: 4 * time.Second,
		OnUpdate: func(r *forgejo.ActionRun, jobs []*forgejo.ActionRunJob) {
			if len(jobs) != 1 || jobs[0].ID != job.ID {
				t.Errorf("jobs = %v", jobs)
				return
			}
			seen = append(seen, string(r.Status)+"/"+string(jobs[0].Status))
		}})
	if err != nil || got.Status != forgejo.ActionStatusFailure || got.Stopped.IsZero() {
		t.Fatalf("run = %+v, %v", got, err)
	}
	if want := []string{"waiting/waiting", "running/running", "failure/failure"}; !slices.Equal(seen, want) {
		t.Fatalf("updates %v, want %v", seen, want)
	}
	// 1, 1.5, 2.25 (runner starts), 1 (reset), 1.5, 2.25, 3.375 (it ends).
	want := []time.Duration{time.Second, 1500 * time.Millisecond, 2250 * time.Millisecond, time.Second, 1500 * time.Millisecond, 2250 * time.Millisecond, 3375 * time.Millisecond}
	if s := f.clk.slept(); !slices.Equal(s, want) {
		t.Fatalf("waits %v, want %v", s, want)
	}
}

// The context ends while the run is running: the run as last read and the
// context's error, not a *RunQueuedError.
func TestWaitRunContextEndsWhileRunning(t *testing.T) {
	f := newActionsFixture(t)
	run, job := f.dispatch(t)
	f.srv.RunActionJob(f.owner, f.repo, job.ID, "running", "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.clk.hook = func(time.Time, int) { cancel() }
	got, err := f.c.Actions.WaitRun(ctx, f.owner, f.repo, run.ID, nil)
	if !errors.Is(err, context.Canceled) || errors.Is(err, forgejo.ErrRunQueued) || got == nil || got.Status != forgejo.ActionStatusRunning {
		t.Fatalf("run %+v, err %v", got, err)
	}
}

// A run that goes from waiting to running is not queued any more: the
// queue limit counts only the time seen waiting.
func TestWaitRunQueueLimitCountsOnlyWaiting(t *testing.T) {
	f := newActionsFixture(t)
	run, job := f.dispatch(t)
	f.clk.hook = func(now time.Time, n int) {
		switch n {
		case 1:
			f.srv.RunActionJob(f.owner, f.repo, job.ID, "running", "")
		case 20:
			f.srv.RunActionJob(f.owner, f.repo, job.ID, "success", "")
		}
	}
	got, err := f.c.Actions.WaitRun(context.Background(), f.owner, f.repo, run.ID, &forgejo.WaitRunOptions{QueueLimit: 3 * time.Second})
	if err != nil || got.Status != forgejo.ActionStatusSuccess {
		t.Fatalf("run %+v, err %v", got, err)
	}
}

// WaitJob waits for one job; its queue error names the job.
func TestWaitJob(t *testing.T) {
	f := newActionsFixture(t)
	run, job := f.dispatch(t)
	_, err := f.c.Actions.WaitJob(context.Background(), f.owner, f.repo, run.ID, job.ID, &forgejo.WaitRunOptions{QueueLimit: 10 * time.Second})
	var q *forgejo.RunQueuedError
	if !errors.As(err, &q) || q.Job == nil || q.Job.ID != job.ID || q.Run != nil || q.Waited < 10*time.Second {
		t.Fatalf("err = %v (%+v), want the job queued", err, q)
	}
	base := len(f.clk.slept())
	f.clk.hook = func(now time.Time, n int) {
		if n == base+3 {
			f.srv.RunActionJob(f.owner, f.repo, job.ID, "success", "ok\n")
		}
	}
	got, err := f.c.Actions.WaitJob(context.Background(), f.owner, f.repo, run.ID, job.ID, nil)
	if err != nil || got.Status != forgejo.ActionStatusSuccess || got.ID != job.ID {
		t.Fatalf("job %+v, err %v", got, err)
	}
	_, err = f.c.Actions.WaitJob(context.Background(), f.owner, f.repo, run.ID, job.ID+1000, nil)
	if !errors.Is(err, forgejo.ErrNotFound) {
		t.Fatalf("a job the run lacks: %v, want ErrNotFound", err)
	}
}
