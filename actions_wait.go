package forgejo

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// This file waits for a workflow run, or one of its jobs, to end: polling
// through the client (so every poll is paced, retried and observed like
// any call), with an interval that grows while nothing changes and comes
// back to its start on any change, on the client's clock.

// WaitRunOptions tunes [ActionsService.WaitRun] and [ActionsService.WaitJob].
// The zero value (or nil) takes every default.
type WaitRunOptions struct {
	// Interval is the first wait between polls (default 2s).
	Interval time.Duration
	// MaxInterval is the ceiling of the interval, which grows by half after
	// every poll that saw no change and comes back to Interval on any
	// change (default 30s).
	MaxInterval time.Duration
	// QueueLimit is how long the run (or job) may stay "waiting", which is
	// what it does while no runner picks it up, before the wait gives up
	// with a [*RunQueuedError]. Zero waits as long as the context allows;
	// a context that ends while the run is still waiting also gives a
	// *RunQueuedError, which then matches the context's error too.
	QueueLimit time.Duration
	// OnUpdate, when set, is called with the run and its jobs at the first
	// poll and at each poll that saw a change; jobs is nil where the server
	// has no jobs route (before Forgejo 16.0). It runs on the waiting
	// goroutine: a slow OnUpdate delays the next poll.
	OnUpdate func(run *ActionRun, jobs []*ActionRunJob)
}

// Defaults of WaitRunOptions and FollowLogOptions.
const (
	defaultPollInterval    = 2 * time.Second
	defaultMaxPollInterval = 30 * time.Second
)

// pollBackoff is the growing, resetting interval of a wait.
type pollBackoff struct {
	first, max, cur time.Duration
}

func newPollBackoff(first, maxInterval time.Duration) pollBackoff {
	if first <= 0 {
		first = defaultPollInterval
	}
	if maxInterval <= 0 {
		maxInterval = defaultMaxPollInterval
	}
	maxInterval = max(maxInterval, first)
	return pollBackoff{first: first, max: maxInterval, cur: first}
}

// next returns the wait before the next poll: the first interval after a
// change, else the last one grown by half, up to the ceiling.
func (b *pollBackoff) next(changed bool) time.Duration {
	if changed {
		b.cur = b.first
	}
	d := b.cur
	b.cur = min(b.cur+b.cur/2, b.max)
	return d
}

// Done reports whether a run's or a job's status is final: Forgejo's
// success, failure, cancelled and skipped, and Gitea's "completed" (whose
// Conclusion says how it ended: see [ActionRun.Outcome]).
func (s ActionStatus) Done() bool {
	switch strings.ToLower(string(s)) {
	case "success", "failure", "cancelled", "canceled", "skipped", "completed":
		return true
	}
	return false
}

// actionWaiting reports whether a run or job status means it has not been
// picked up yet: Forgejo's waiting and blocked, Gitea's queued, pending,
// requested and waiting.
func actionWaiting(s ActionStatus) bool {
	switch strings.ToLower(string(s)) {
	case "waiting", "blocked", "queued", "pending", "requested":
		return true
	}
	return false
}

// queueClock measures how long a wait has seen its run waiting.
type queueClock struct {
	since   time.Time
	waiting bool
}

// observe records a poll's status at now and returns how long the run has
// been waiting (0 when it is not).
func (q *queueClock) observe(waiting bool, now time.Time) time.Duration {
	if !waiting {
		q.waiting = false
		return 0
	}
	if !q.waiting {
		q.waiting, q.since = true, now
	}
	return now.Sub(q.since)
}

// WaitRun polls a workflow run until it ends (success, failure, cancelled,
// skipped; Gitea's "completed") and returns it: [ActionRun.Outcome] says
// how it ended on either server. Every poll ([ActionsService.GetRun], and
// [ActionsService.ListRunJobs] when opts.OnUpdate is set) goes through the
// client: paced, retried and rate limited like any call. The wait between
// polls starts at opts.Interval, grows by half after each poll that saw no
// change, up to opts.MaxInterval, and comes back to opts.Interval whenever
// the run or one of its jobs changed; it is measured on the client's
// [Clock].
//
// A run that stays "waiting" (no runner picks it up) ends the wait with a
// [*RunQueuedError] carrying the run and how long it was seen waiting, once
// opts.QueueLimit has passed, or when ctx ends while it still waits (then
// the error also matches ctx's error). When ctx ends while the run is
// running, WaitRun returns the run as last read and ctx's error. A failed
// poll ends the wait with its error and the run as last read.
func (s *ActionsService) WaitRun(ctx context.Context, owner, repo string, runID int64, opts *WaitRunOptions) (*ActionRun, error) {
	o := deref(opts)
	noJobs := false // the server has no jobs route
	poll := func() (*ActionRun, waitSnapshot, error) {
		run, _, err := s.GetRun(ctx, owner, repo, runID, knownRelease())
		if err != nil {
			return nil, waitSnapshot{}, err
		}
		var jobs []*ActionRunJob
		if o.OnUpdate != nil && !noJobs {
			jobs, _, err = s.ListRunJobs(ctx, owner, repo, runID, knownRelease())
			switch {
			case errors.Is(err, ErrUnsupportedOperation):
				noJobs, jobs = true, nil
			case err != nil:
				return run, waitSnapshot{}, err
			}
		}
		snap := waitSnapshot{status: run.Status, state: runState(run, jobs)}
		if o.OnUpdate != nil {
			snap.notify = func() { o.OnUpdate(run, jobs) }
		}
		return run, snap, nil
	}
	return waitUntilDone(ctx, s, o, poll, func(run *ActionRun, waited time.Duration, cause error) error {
		return &RunQueuedError{Run: run, Waited: waited, Err: cause}
	})
}

// waitSnapshot is what one poll of a wait saw.
type waitSnapshot struct {
	status ActionStatus // the run's or the job's
	state  string       // compared between polls to tell a change (runState)
	notify func()       // opts.OnUpdate with what the poll read; nil without it
}

// waitUntilDone is the loop of WaitRun and WaitJob. It polls until the
// status is final, calls notify at the first poll and at each change,
// gives up with queued's error once the value has been seen waiting for
// o.QueueLimit, and otherwise sleeps the growing, resetting interval. A
// poll's error (a poll may return the value it read with it) ends the wait
// with the value last read: with queued's error wrapping ctx's when ctx
// ended it while the value was waiting, ctx's error when ctx ended it
// otherwise, else the poll's error.
func waitUntilDone[T comparable](ctx context.Context, s *ActionsService, o WaitRunOptions, poll func() (T, waitSnapshot, error), queued func(v T, waited time.Duration, cause error) error) (T, error) {
	b := newPollBackoff(o.Interval, o.MaxInterval)
	var (
		last, zero T
		prev       string
		q          queueClock
		waited     time.Duration
		updated    bool
	)
	ended := func(err error) error {
		cerr := ctx.Err()
		switch {
		case cerr == nil:
			return err
		case q.waiting:
			return queued(last, waited, cerr)
		}
		return cerr
	}
	for {
		v, snap, err := poll()
		if v != zero {
			last = v
		}
		if err != nil {
			return last, ended(err)
		}
		waited = q.observe(actionWaiting(snap.status), s.client.now())
		changed := prev != "" && snap.state != prev // the first poll is no change
		prev = snap.state
		if snap.notify != nil && (changed || !updated) {
			updated = true
			snap.notify()
		}
		if snap.status.Done() {
			return v, nil
		}
		if q.waiting && o.QueueLimit > 0 && waited >= o.QueueLimit {
			return v, queued(v, waited, nil)
		}
		if err := s.client.sleep(ctx, b.next(changed)); err != nil {
			if q.waiting {
				waited = q.observe(true, s.client.now())
			}
			return last, ended(err)
		}
	}
}

// runState is what a wait compares between polls to tell a change.
func runState(run *ActionRun, jobs []*ActionRunJob) string {
	var b strings.Builder
	b.WriteString(string(run.Status))
	b.WriteByte('|')
	b.WriteString(run.Updated.String())
	b.WriteString(run.Started.String())
	b.WriteString(run.Stopped.String())
	for _, j := range jobs {
		if j != nil {
			b.WriteString("|" + strconv.FormatInt(j.ID, 10) + ":" + string(j.Status) + ":" + strconv.FormatInt(j.TaskID, 10))
		}
	}
	return b.String()
}

// WaitJob polls one job of a run until it ends and returns it, as
// [ActionsService.WaitRun] polls a run: the same growing interval, the same
// *RunQueuedError for a job no runner picks up (its Job is the job, its
// Run nil), the same handling of ctx. opts.OnUpdate, when set, receives
// a nil run and the run's jobs. It reads [ActionsService.ListRunJobs],
// which Forgejo 16.0 added: on an older release it fails with an
// [*UnsupportedOperationError], before sending when the client knows the
// server's release and otherwise at the first poll's 404. A run without
// that job is an error matching [ErrNotFound].
func (s *ActionsService) WaitJob(ctx context.Context, owner, repo string, runID, jobID int64, opts *WaitRunOptions) (*ActionRunJob, error) {
	o := deref(opts)
	poll := func() (*ActionRunJob, waitSnapshot, error) {
		job, jobs, err := s.findJob(ctx, owner, repo, runID, jobID)
		if err != nil {
			return nil, waitSnapshot{}, err
		}
		snap := waitSnapshot{status: job.Status, state: runState(&ActionRun{}, jobs)}
		if o.OnUpdate != nil {
			snap.notify = func() { o.OnUpdate(nil, jobs) }
		}
		return job, snap, nil
	}
	return waitUntilDone(ctx, s, o, poll, func(job *ActionRunJob, waited time.Duration, cause error) error {
		return &RunQueuedError{Job: job, Waited: waited, Err: cause}
	})
}

// findJob reads a run's jobs and picks one.
func (s *ActionsService) findJob(ctx context.Context, owner, repo string, runID, jobID int64) (*ActionRunJob, []*ActionRunJob, error) {
	jobs, _, err := s.ListRunJobs(ctx, owner, repo, runID, knownRelease())
	if err != nil {
		return nil, nil, err
	}
	for _, j := range jobs {
		if j != nil && j.ID == jobID {
			return j, jobs, nil
		}
	}
	return nil, jobs, fmt.Errorf("forgejo: run %d of %s/%s has no job %d: %w", runID, bound(owner), bound(repo), jobID, ErrNotFound)
}
