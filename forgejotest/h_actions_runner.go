package forgejotest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"time"
)

// A simulated runner. Attached to the server ([Server.AttachRunner]), it
// picks up the jobs of workflow runs as a Forgejo runner would and plays a
// script for each: the job goes waiting → running → success or failure,
// its log grows line by line, its steps end one after the other, and its
// artifacts appear when it ends. Everything happens at times computed from
// the server's clock, never in real time: with a [FakeClock]
// ([WithClock]) the runs move exactly as the test moves the time, and the
// same times give the same runs, logs and webhook deliveries.
//
// The fake brings the runs up to the current time whenever an Actions
// route is called, whenever the FakeClock given to WithClock moves, and on
// [Server.AdvanceRuns]. A job no attached runner serves stays waiting, as
// on a Forgejo without runners. Cancelling a run (CancelActionRun) ends its
// jobs as cancelled and stops their scripts. [Server.RunActionJob] and
// [Server.AppendActionJobLog] play a job by hand instead; on a job the
// runner has taken they take it over (the rest of its script is dropped).

// Runner is a simulated runner: which jobs it takes (Labels) and what each
// does (Script). It runs any number of jobs at once (a real runner's
// capacity is not modelled). Do not change it once attached.
type Runner struct {
	// Name is the runner's name (default "forgejotest-runner"); the
	// default script writes it in the job's first line.
	Name string
	// Labels are the runs-on labels it serves: it takes a job when every
	// label of the job's runs-on is among them, as Forgejo matches. No
	// labels: it takes every job, whatever its runs-on.
	Labels []string
	// Script says what a job does, called once when the job starts waiting
	// for a runner (at the dispatch, or when the jobs it needs are done).
	// Nil: [DefaultJobScript]. It runs with the server's lock held: it must
	// not call the server's methods.
	Script func(job RunnerJob) JobScript
}

// RunnerJob is what a [Runner]'s Script learns about the job it is to run.
type RunnerJob struct {
	Owner, Repo string
	RunID       int64
	RunNumber   int64 // the run's index in the repository (#1, #2, ...)
	JobID       int64
	Key         string // the job's id in the workflow file ("build")
	Name        string // its name: the name: field, else Key
	RunsOn      []string
	Workflow    string // the workflow file's name ("ci.yml")
	Event       string // the event that triggered the run ("workflow_dispatch")
	Ref         string // the full ref: refs/heads/main, refs/tags/v1 or a commit id
	SHA         string
	Inputs      map[string]string // the dispatch's inputs, with the defaults
	Attempt     int64             // 1 for the first attempt
	Runner      string            // the name of the runner taking it
}

// JobScript is what a job does: how long it waits for the runner, then its
// steps, one after the other, then its artifacts.
type JobScript struct {
	// QueueFor is how long the job stays waiting before the runner picks
	// it up (from the moment it started waiting).
	QueueFor time.Duration
	// Steps run in order. A step that fails ends the job as a failure at
	// its end; the steps after it do not run. A job whose steps all pass
	// succeeds at the end of the last one (no steps: at once).
	Steps []StepScript
	// Artifacts, by name, are given to the run when the job ends (passed
	// or failed, not cancelled): what DownloadActionArtifact answers, as
	// given (pass a ZIP when the code under test opens it).
	Artifacts map[string][]byte
}

// StepScript is one step of a [JobScript].
type StepScript struct {
	Name string
	// Lines are appended to the job's log during the step, evenly over its
	// Duration: line k of n at the step's start + k*Duration/n, so the
	// first at once. Each is written as Forgejo stores a log line: the
	// time ([LogTimeFormat]), a space, the text and "\n".
	Lines    []string
	Duration time.Duration
	// Fail makes the step, and with it the job, fail at its end.
	Fail bool
}

// LogTimeFormat is the time at the start of every line a [Runner] writes
// in a job's log, as Forgejo's runners' log lines carry it.
const LogTimeFormat = "2006-01-02T15:04:05.0000000Z07:00"

// DefaultRunnerName is a [Runner]'s name when it has none.
const DefaultRunnerName = "forgejotest-runner"

// DefaultJobScript is a [Runner]'s script when it has none: picked up at
// once, three steps ("Set up job" 1s, "Run <name>" 3s with three lines,
// "Complete job" 1s), success, no artifacts.
func DefaultJobScript(job RunnerJob) JobScript {
	name := job.Runner
	if name == "" {
		name = DefaultRunnerName
	}
	return JobScript{Steps: []StepScript{
		{Name: "Set up job", Duration: time.Second, Lines: []string{"runner " + name + " picked up job " + job.Name}},
		{Name: "Run " + job.Name, Duration: 3 * time.Second, Lines: []string{
			job.Name + ": step 1 of 3", job.Name + ": step 2 of 3", job.Name + ": step 3 of 3"}},
		{Name: "Complete job", Duration: time.Second, Lines: []string{"Job succeeded"}},
	}}
}

// AttachRunner attaches a simulated runner (see [Runner]). Jobs already
// waiting that it serves start waiting for it now. It is listed among the
// instance's runners (getAdminRunners, and every scope's visible ones):
// online, with its labels, "active" while it runs a job, else "idle". Runners are asked in
// the order they were attached; the first that serves a job takes it. It
// may be called at any time, also on a server from [Start].
func (s *Server) AttachRunner(r *Runner) {
	if r == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a := &s.st.actions
	sr := &simRunner{r: r, attached: s.now()}
	a.sims = append(a.sims, sr)
	a.runners = append(a.runners, &actionRunner{id: s.st.id("runner"), uuid: uuidFrom(randomHex(16)),
		name: cmp.Or(r.Name, DefaultRunnerName), description: "simulated by forgejotest", token: randomHex(20), sim: sr})
	if fc := s.cfg.fakeClock; fc != nil && !a.observing {
		a.observing = true
		cancel := fc.observe(func() {
			if s.dq.ctx.Err() == nil { // not closed
				s.AdvanceRuns()
			}
		})
		if s.tb != nil {
			s.tb.Cleanup(cancel)
		}
	}
	s.advanceRunsLocked(s.now())
}

// AdvanceRuns brings the runs of attached runners up to the server's
// current time: the jobs they pick up, log lines, steps and ends due by now
// happen, in the order of their times, and the webhooks of runs that ended
// are queued. The fake calls it on every Actions request and when a
// FakeClock given to [WithClock] moves; call it after moving another clock
// (the system clock: 'forgejo fake serve' does it every 100ms) to see the
// deliveries of a run that ended while nothing asked.
func (s *Server) AdvanceRuns() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advanceRunsLocked(s.now())
}

// AppendActionJobLog appends text to the log of the job jobID of
// owner/repoName, which must be running ([Server.RunActionJob] with
// "running" starts it): a log that grows while a client follows it. On a
// job a [Runner] plays, it takes the job over.
func (s *Server) AppendActionJobLog(owner, repoName string, jobID int64, text string) {
	if s.tb != nil {
		s.tb.Helper()
	}
	var problem string
	s.withRepo(owner, repoName, func(r *repo, now time.Time) {
		s.advanceRunsLocked(now)
		job := s.st.actions.jobIn(r, jobID)
		if job == nil {
			problem = "no such job in the repository"
			return
		}
		t := job.latest()
		if job.status != "running" || t == nil || t.status != "running" {
			problem = "the job is not running"
			return
		}
		job.sim, job.manual = nil, true
		t.log.WriteString(text)
		t.updated = now
	})
	if problem != "" {
		s.fatalf("AppendActionJobLog %s/%s job %d: %s", owner, repoName, jobID, problem)
	}
}

// ---- the simulation

type simRunner struct {
	r        *Runner
	attached time.Time
	taken    []*actionJob // the jobs it picked up (some since ended)
}

// wire renders the attached runner as the runners API lists it.
func (sr *simRunner) wire(rn *actionRunner) *wRunner {
	status := "idle"
	sr.taken = slices.DeleteFunc(sr.taken, func(j *actionJob) bool { return j.sim == nil || j.sim.runner != sr })
	if len(sr.taken) > 0 {
		status = "active"
	}
	return &wRunner{ID: rn.id, UUID: rn.uuid, Name: rn.name, Version: "forgejotest", Description: rn.description,
		Labels: append([]string{}, sr.r.Labels...), Status: status}
}

// serves reports whether the runner takes a job asking for runsOn.
func (sr *simRunner) serves(runsOn []string) bool {
	return len(sr.r.Labels) == 0 || runsOnAll(runsOn, sr.r.Labels)
}

// jobSim is a job a runner plays: its script as a timeline.
type jobSim struct {
	runner *simRunner
	events []simEvent
	next   int
	arts   map[string][]byte
}

type simKind int

const (
	simPickup simKind = iota
	simStepStart
	simLine
	simStepEnd
	simJobEnd
)

type simEvent struct {
	at   time.Time
	kind simKind
	step int
	text string
	fail bool
}

func (js *jobSim) due() (time.Time, bool) {
	if js == nil || js.next >= len(js.events) {
		return time.Time{}, false
	}
	return js.events[js.next].at, true
}

// timeline lays a script out in time from since.
func timeline(since time.Time, sc JobScript) []simEvent {
	t := since.Add(max(sc.QueueFor, 0))
	ev := []simEvent{{at: t, kind: simPickup}}
	for i, st := range sc.Steps {
		d := max(st.Duration, 0)
		ev = append(ev, simEvent{at: t, kind: simStepStart, step: i, text: st.Name})
		for k, line := range st.Lines {
			ev = append(ev, simEvent{at: t.Add(d * time.Duration(k) / time.Duration(len(st.Lines))), kind: simLine, step: i, text: line})
		}
		t = t.Add(d)
		ev = append(ev, simEvent{at: t, kind: simStepEnd, step: i, fail: st.Fail})
		if st.Fail {
			return append(ev, simEvent{at: t, kind: simJobEnd, fail: true})
		}
	}
	return append(ev, simEvent{at: t, kind: simJobEnd})
}

// advanceRunsLocked plays the runners up to now; s.mu is held.
func (s *Server) advanceRunsLocked(now time.Time) {
	a := &s.st.actions
	if len(a.sims) == 0 {
		return
	}
	for {
		s.assignRunners()
		var best *actionJob
		var bestAt time.Time
		for _, run := range a.runs {
			for _, j := range run.jobs {
				at, ok := j.sim.due()
				if !ok || at.After(now) {
					continue
				}
				if best == nil || at.Before(bestAt) {
					best, bestAt = j, at
				}
			}
		}
		if best == nil {
			return
		}
		s.applySim(best)
	}
}

// assignRunners gives every waiting job no runner has yet to the first
// attached runner that serves it.
func (s *Server) assignRunners() {
	a := &s.st.actions
	for _, run := range a.runs {
		for _, j := range run.jobs {
			if j.status != "waiting" || j.sim != nil || j.manual || len(j.tasks) > 0 {
				continue
			}
			for _, sr := range a.sims {
				if !sr.serves(j.runsOn) {
					continue
				}
				since := j.queued
				if since.Before(sr.attached) {
					since = sr.attached
				}
				script := DefaultJobScript
				if sr.r.Script != nil {
					script = sr.r.Script
				}
				rj := j.runnerJob(int64(len(j.tasks)) + 1)
				rj.Runner = sr.r.Name
				if rj.Runner == "" {
					rj.Runner = DefaultRunnerName
				}
				sc := script(rj)
				j.sim = &jobSim{runner: sr, events: timeline(since, sc), arts: sc.Artifacts}
				break
			}
		}
	}
}

func (j *actionJob) runnerJob(attempt int64) RunnerJob {
	run := j.run
	var payload struct {
		Inputs map[string]string `json:"inputs"`
	}
	_ = json.Unmarshal([]byte(run.payload), &payload)
	return RunnerJob{
		Owner: run.repo.owner.login, Repo: run.repo.name, RunID: run.id, RunNumber: run.index, JobID: j.id,
		Key: j.key, Name: j.name, RunsOn: slices.Clone(j.runsOn), Workflow: run.workflowID, Event: run.event,
		Ref: run.ref, SHA: run.sha, Inputs: payload.Inputs, Attempt: attempt,
	}
}

// applySim applies the job's next event.
func (s *Server) applySim(j *actionJob) {
	js := j.sim
	e := js.events[js.next]
	js.next++
	at := e.at
	switch e.kind {
	case simPickup:
		prior := j.run.status
		t := s.startTask(j, at)
		t.status, j.status = "running", "running"
		js.runner.taken = append(js.runner.taken, j)
		j.run.settle(at)
		s.runChanged(j.run, prior, at)
	case simStepStart:
		if t := j.latest(); t != nil {
			t.steps = append(t.steps, &taskStep{name: e.text, status: "running", start: t.log.Len(), end: -1, started: at})
			t.updated = at
		}
	case simLine:
		if t := j.latest(); t != nil {
			t.log.WriteString(at.UTC().Format(LogTimeFormat) + " " + e.text + "\n")
			t.updated = at
		}
	case simStepEnd:
		if t := j.latest(); t != nil && e.step < len(t.steps) {
			st := t.steps[e.step]
			st.end, st.stopped, st.status = t.log.Len(), at, "success"
			if e.fail {
				st.status = "failure"
			}
			t.updated = at
		}
	case simJobEnd:
		status := "success"
		if e.fail {
			status = "failure"
		}
		j.sim = nil
		s.endJob(j, status, at)
		names := make([]string, 0, len(js.arts))
		for n := range js.arts {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			a := &s.st.actions
			a.artifacts = append(a.artifacts, &actionArtifact{id: s.st.id("action_artifact"), run: j.run, name: n,
				data: slices.Clone(js.arts[n]), created: at})
		}
	}
}

// startTask starts a new attempt of j at now, with its automatic token.
func (s *Server) startTask(j *actionJob, now time.Time) *actionTask {
	t := &actionTask{id: s.st.id("action_task"), job: j, attempt: int64(len(j.tasks)) + 1, created: now, started: now, updated: now}
	j.tasks = append(j.tasks, t)
	j.started, j.stopped = now, time.Time{}
	if j.run.started.IsZero() || statusDone(j.run.status) {
		j.run.started, j.run.stopped = now, time.Time{}
	}
	t.token = randomHex(20)
	s.st.tokens[t.token] = s.st.actions.botUser()
	return t
}

// endJob ends j's attempt with a done status at now and settles its run.
func (s *Server) endJob(j *actionJob, status string, now time.Time) {
	prior := j.run.status
	s.st.endAttempt(j, status, now)
	j.run.settle(now)
	s.runChanged(j.run, prior, now)
}

// endAttempt gives j a done status at now, and its attempt, if still
// going, that status too: its open steps end, its token stops working.
// The run is left to settle.
func (st *state) endAttempt(j *actionJob, status string, now time.Time) {
	j.status, j.stopped = status, now
	if t := j.latest(); t != nil && !statusDone(t.status) {
		t.status, t.stopped, t.updated = status, now, now
		for _, step := range t.steps {
			if step.end < 0 {
				step.end, step.stopped, step.status = t.log.Len(), now, status
			}
		}
		delete(st.tokens, t.token)
	}
}

// runChanged sends what Forgejo sends when a run's status changed from
// prior: once it is done, action_run_success (and action_run_recover after
// a run that did not succeed) or action_run_failure (failed, cancelled),
// to the repository's hooks and its owner's, as the repository's owner
// sees the run.
func (s *Server) runChanged(run *actionRun, prior string, now time.Time) {
	if statusDone(prior) || !statusDone(run.status) {
		return
	}
	c := &call{s: s, st: s.st, now: now, header: http.Header{}, v: view{root: s.URL, host: s.host, st: s.st, viewer: run.repo.owner}}
	v := c.payloadView()
	p := &wActionRunPayload{Run: v.actionRun(run, now), PriorStatus: prior}
	if last := lastRunBefore(s.st.actions.runs, run); last != nil {
		p.LastRun = v.actionRun(last, now)
	}
	if run.status == "success" {
		p.Action = "success"
		s.emit(c, run.repo, "action_run_success", "", p)
		if p.LastRun != nil && p.LastRun.Status != "success" {
			rp := *p
			rp.Action = "recover"
			s.emit(c, run.repo, "action_run_recover", "", &rp)
		}
		return
	}
	p.Action = "failure"
	s.emit(c, run.repo, "action_run_failure", "", p)
}

// wActionRunPayload is Forgejo's ActionPayload.
type wActionRunPayload struct {
	Action      string      `json:"action"`
	Run         *wActionRun `json:"run"`
	PriorStatus string      `json:"prior_status"`
	LastRun     *wActionRun `json:"last_run"`
}

// lastRunBefore is Forgejo's GetRunBefore: the repository's run that
// stopped last before run stopped.
func lastRunBefore(runs []*actionRun, run *actionRun) *actionRun {
	var best *actionRun
	for _, r := range runs {
		if r == run || r.repo != run.repo || r.stopped.IsZero() || !r.stopped.Before(run.stopped) {
			continue
		}
		if best == nil || !r.stopped.Before(best.stopped) {
			best = r
		}
	}
	return best
}

// taskStep is one step of an attempt: its part of the log is
// log[start:end] (end -1 while it runs).
type taskStep struct {
	name             string
	status           string
	start, end       int
	started, stopped time.Time
}

// stepLog is the part of t's log that step n (1-based) wrote.
func (t *actionTask) stepLog(n int) (string, bool) {
	if n < 1 || n > len(t.steps) {
		return "", false
	}
	st := t.steps[n-1]
	end := st.end
	if end < 0 {
		end = t.log.Len()
	}
	return t.log.String()[st.start:end], true
}

// synced brings the runs up to the request's time before h answers, and
// after (a job dispatched now may be picked up now).
func synced(h func(*call)) func(*call) {
	return func(c *call) {
		c.s.advanceRunsLocked(c.now)
		h(c)
		c.s.advanceRunsLocked(c.now)
	}
}

// serveContent answers text as Go's http.ServeContent does, which is how
// Forgejo 16 serves a job's log: 200 with Accept-Ranges: bytes; a
// satisfiable Range (bytes=N-, bytes=N-M, bytes=-K) 206 with Content-Range
// (several ranges: multipart/byteranges); a Range past the end (N >= the
// size) 416 with Content-Range: bytes */SIZE and a plain-text reason; but
// an empty log answers 200 and nothing, Range or not. No Last-Modified or ETag is sent,
// so no conditional request applies.
func (c *call) serveContent(contentType, text string) {
	rec := httptest.NewRecorder()
	rec.Header().Set("Content-Type", contentType)
	http.ServeContent(rec, c.r, "", time.Time{}, strings.NewReader(text))
	for k, v := range rec.Header() {
		c.header[k] = v
	}
	c.status, c.out = rec.Code, rec.Body.Bytes()
}
