package forgejotest

import (
	"archive/zip"
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Workflow runs, as a workflow_dispatch creates them from a workflow file of
// the repository (.forgejo/workflows/, else .gitea/workflows/), with a job
// per entry of its jobs: mapping. There is no runner: jobs wait until a
// test plays one with [Server.RunActionJob], which makes the job's tasks
// (attempts) and their logs; [Server.AddActionArtifact] gives a run an
// artifact.

type actionRun struct {
	id, index   int64
	repo        *repo
	workflowID  string // the file's name, e.g. "ci.yml"
	workflowDir string // ".forgejo/workflows"
	title       string
	ref, sha    string // ref expanded: refs/heads/main, refs/tags/v1, or a commit id
	trigger     *user
	event       string
	payload     string
	status      string
	jobs        []*actionJob
	created     time.Time
	updated     time.Time
	started     time.Time
	stopped     time.Time
}

type actionJob struct {
	id      int64
	run     *actionRun
	key     string // the job's id in the workflow
	name    string
	needs   []string
	runsOn  []string
	status  string
	tasks   []*actionTask // one per attempt
	started time.Time
	stopped time.Time
	queued  time.Time // when it last started waiting for a runner
	sim     *jobSim   // the attached runner playing it, nil if none
	manual  bool      // played by hand (RunActionJob): no runner takes it
}

type actionTask struct {
	id      int64
	job     *actionJob
	attempt int64
	status  string
	log     strings.Builder // grows by appends: a long log costs no copies
	token   string          // the automatic token, valid while the task runs
	steps   []*taskStep     // a runner's steps, none when played by hand
	created time.Time
	updated time.Time
	started time.Time
	stopped time.Time
}

type actionArtifact struct {
	id      int64
	run     *actionRun
	name    string
	data    []byte
	created time.Time
}

// artifactRetention is Forgejo's default [actions] ARTIFACT_RETENTION_DAYS.
const artifactRetention = 90 * 24 * time.Hour

// actionStatuses are the states Forgejo knows; the done ones end a job.
var actionStatuses = []string{"unknown", "waiting", "running", "success", "failure", "cancelled", "skipped", "blocked"}

func statusDone(s string) bool {
	return s == "success" || s == "failure" || s == "cancelled" || s == "skipped"
}

// aggregate is a run's status from its jobs', as Forgejo's
// AggregateJobStatus computes it.
func (run *actionRun) aggregate() string {
	allSuccessOrSkipped, allSkipped := len(run.jobs) > 0, len(run.jobs) > 0
	var cancelled, failure, running, waiting, blocked bool
	for _, j := range run.jobs {
		allSuccessOrSkipped = allSuccessOrSkipped && (j.status == "success" || j.status == "skipped")
		allSkipped = allSkipped && j.status == "skipped"
		cancelled = cancelled || j.status == "cancelled"
		failure = failure || j.status == "failure"
		running = running || j.status == "running"
		waiting = waiting || j.status == "waiting"
		blocked = blocked || j.status == "blocked"
	}
	switch {
	case allSkipped:
		return "skipped"
	case allSuccessOrSkipped:
		return "success"
	case cancelled:
		return "cancelled"
	case failure:
		return "failure"
	case running:
		return "running"
	case waiting:
		return "waiting"
	case blocked:
		return "blocked"
	}
	return "unknown"
}

// settle unblocks the jobs whose needs are done (all succeeded: waiting;
// else skipped) and recomputes the run's status and times.
func (run *actionRun) settle(now time.Time) {
	for changed := true; changed; {
		changed = false
		for _, j := range run.jobs {
			if j.status != "blocked" {
				continue
			}
			done, ok := true, true
			for _, n := range j.needs {
				if dep := run.job(n); dep != nil {
					done = done && statusDone(dep.status)
					ok = ok && (dep.status == "success" || dep.status == "skipped")
				}
			}
			if !done {
				continue
			}
			if ok {
				j.status, j.queued = "waiting", now
			} else {
				j.status, j.stopped = "skipped", now
			}
			changed = true
		}
	}
	run.status, run.updated = run.aggregate(), now
	if statusDone(run.status) && run.stopped.IsZero() {
		run.stopped = now
	}
}

func (run *actionRun) job(key string) *actionJob {
	for _, j := range run.jobs {
		if j.key == key {
			return j
		}
	}
	return nil
}

func prettyRef(ref string) string {
	return strings.TrimPrefix(strings.TrimPrefix(ref, "refs/heads/"), "refs/tags/")
}

// ---- wire

type wActionRun struct {
	ID                int64  `json:"id"`
	Title             string `json:"title"`
	Repository        *wRepo `json:"repository"`
	Status            string `json:"status"`
	Event             string `json:"event"`
	TriggerEvent      string `json:"trigger_event"`
	WorkflowID        string `json:"workflow_id"`
	IndexInRepo       int64  `json:"index_in_repo"`
	CommitSHA         string `json:"commit_sha"`
	Prettyref         string `json:"prettyref"`
	IsRefDeleted      bool   `json:"is_ref_deleted"`
	IsForkPullRequest bool   `json:"is_fork_pull_request"`
	NeedApproval      bool   `json:"need_approval"`
	ApprovedBy        int64  `json:"approved_by"`
	TriggerUser       *wUser `json:"trigger_user"`
	EventPayload      string `json:"event_payload"`
	ScheduleID        int64  `json:"ScheduleID"`
	HTMLURL           string `json:"html_url"`
	Created           string `json:"created"`
	Updated           string `json:"updated"`
	Started           string `json:"started"`
	Stopped           string `json:"stopped"`
	Duration          int64  `json:"duration"`
}

type wRunJob struct {
	ID      int64    `json:"id"`
	RepoID  int64    `json:"repo_id"`
	OwnerID int64    `json:"owner_id"`
	Name    string   `json:"name"`
	Needs   []string `json:"needs"`
	RunsOn  []string `json:"runs_on"`
	TaskID  int64    `json:"task_id"`
	Status  string   `json:"status"`
	Attempt int64    `json:"attempt"`
	Handle  string   `json:"handle"`
	RunID   int64    `json:"run_id"`
}

type wActionTask struct {
	ID           int64  `json:"id"`
	Name         string `json:"name"`
	HeadBranch   string `json:"head_branch"`
	HeadSHA      string `json:"head_sha"`
	RunNumber    int64  `json:"run_number"`
	Event        string `json:"event"`
	DisplayTitle string `json:"display_title"`
	Status       string `json:"status"`
	WorkflowID   string `json:"workflow_id"`
	URL          string `json:"url"`
	CreatedAt    string `json:"created_at"`
	UpdatedAt    string `json:"updated_at"`
	RunStartedAt string `json:"run_started_at"`
}

type wArtifact struct {
	ID                 int64  `json:"id"`
	Name               string `json:"name"`
	SizeInBytes        int64  `json:"size_in_bytes"`
	ArchiveDownloadURL string `json:"archive_download_url"`
	Expired            bool   `json:"expired"`
	CreatedAt          string `json:"created_at"`
	UpdatedAt          string `json:"updated_at"`
	ExpiresAt          string `json:"expires_at"`
	RunID              int64  `json:"run_id"`
}

// stamp renders a Forgejo TimeStamp: an unset one is the Unix epoch.
func stamp(t time.Time) string {
	if t.IsZero() {
		return epochTime
	}
	return ts(t)
}

func (v view) runURL(run *actionRun) string {
	return v.html("/" + run.repo.owner.login + "/" + run.repo.name + "/actions/runs/" + strconv.FormatInt(run.index, 10))
}

func (v view) actionRun(run *actionRun, now time.Time) *wActionRun {
	var d time.Duration
	if !run.started.IsZero() {
		end := run.stopped
		if end.IsZero() {
			end = now
		}
		d = end.Sub(run.started).Truncate(time.Second)
	}
	return &wActionRun{
		ID: run.id, Title: run.title, Repository: v.repo(run.repo, 0), Status: run.status,
		// Forgejo 15.0.3 leaves event empty for a dispatched run and fills
		// trigger_event (observed); the listing still filters on it. A run
		// from a push has both, as Forgejo's notifier fills them.
		Event: renderedEvent(run.event), TriggerEvent: run.event,
		WorkflowID: run.workflowID, IndexInRepo: run.index, CommitSHA: run.sha, Prettyref: prettyRef(run.ref),
		TriggerUser: v.user(run.trigger), EventPayload: run.payload, HTMLURL: v.runURL(run),
		Created: ts(run.created), Updated: ts(run.updated), Started: stamp(run.started), Stopped: stamp(run.stopped),
		Duration: int64(d),
	}
}

func renderedEvent(event string) string {
	if event == "workflow_dispatch" {
		return ""
	}
	return event
}

func (j *actionJob) latest() *actionTask {
	if len(j.tasks) == 0 {
		return nil
	}
	return j.tasks[len(j.tasks)-1]
}

func (j *actionJob) wire() *wRunJob {
	w := &wRunJob{ID: j.id, RepoID: j.run.repo.id, OwnerID: j.run.repo.owner.id, Name: j.name, Needs: j.needs,
		RunsOn: j.runsOn, Status: j.status, RunID: j.run.id}
	if t := j.latest(); t != nil {
		w.TaskID, w.Attempt = t.id, t.attempt
		w.Handle = uuidFrom(fakeSHA("job handle", strconv.FormatInt(t.id, 10)))
	}
	return w
}

func (v view) actionTask(t *actionTask) *wActionTask {
	run := t.job.run
	return &wActionTask{
		ID: t.id, Name: t.job.name, HeadBranch: prettyRef(run.ref), HeadSHA: run.sha, RunNumber: run.index,
		Event: run.event, DisplayTitle: run.title, Status: t.status, WorkflowID: run.workflowID,
		URL:       v.runURL(run), // Forgejo's GetRunLink: the run's page
		CreatedAt: ts(t.created), UpdatedAt: ts(t.updated), RunStartedAt: stamp(t.started),
	}
}

func (v view) artifact(a *actionArtifact) *wArtifact {
	return &wArtifact{
		ID: a.id, Name: a.name, SizeInBytes: int64(len(a.data)),
		ArchiveDownloadURL: v.api(repoPath(a.run.repo) + "/actions/artifacts/" + strconv.FormatInt(a.id, 10) + "/zip"),
		CreatedAt:          ts(a.created), UpdatedAt: ts(a.created), ExpiresAt: ts(a.created.Add(artifactRetention)),
		RunID: a.run.id,
	}
}

// ---- lookups

// pathRun finds {run_id} in r; another repository's run is as missing.
func (c *call) pathRun(r *repo) *actionRun {
	id, _ := strconv.ParseInt(c.p["run_id"], 10, 64)
	for _, run := range c.st.actions.runs {
		if run.id != id {
			continue
		}
		if run.repo != r {
			c.fail(http.StatusNotFound, "resource does not exist")
			return nil
		}
		return run
	}
	c.fail(http.StatusNotFound, "run with id "+strconv.FormatInt(id, 10)+": resource does not exist")
	return nil
}

// actionsPage cuts one page as Forgejo's GetListOptions does, without the
// paging headers: the runs and tasks listings carry total_count instead.
func actionsPage[T any](c *call, items []T) []T {
	size := c.formInt("limit")
	if size <= 0 {
		size = c.s.cfg.pagingNum
	}
	size = min(size, c.s.cfg.maxItems)
	page := max(c.formInt("page"), 1)
	start := min((page-1)*size, len(items))
	return items[start:min(start+size, len(items))]
}

// statusFilter reads the status query values; an unknown one is answered
// 400.
func (c *call) statusFilter() ([]string, bool) {
	sts := c.q["status"]
	for _, s := range sts {
		if !slices.Contains(actionStatuses, s) {
			c.fail(http.StatusBadRequest, "unknown status: "+s)
			return nil, false
		}
	}
	return sts, true
}

// ---- handlers

func hListRuns(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	sts, ok := c.statusFilter()
	if !ok {
		return
	}
	events := c.q["event"]
	runNumber, _ := strconv.ParseInt(c.q.Get("run_number"), 10, 64)
	var runs []*actionRun
	for _, run := range slices.Backward(c.st.actions.runs) { // newest first
		switch {
		case run.repo != r,
			len(events) > 0 && !slices.Contains(events, run.event),
			len(sts) > 0 && !slices.Contains(sts, run.status),
			runNumber != 0 && run.index != runNumber,
			c.q.Get("head_sha") != "" && run.sha != c.q.Get("head_sha"),
			c.q.Get("ref") != "" && run.ref != c.q.Get("ref"),
			c.q.Get("workflow_id") != "" && run.workflowID != c.q.Get("workflow_id"):
			continue
		}
		runs = append(runs, run)
	}
	out := []*wActionRun{}
	for _, run := range actionsPage(c, runs) {
		out = append(out, c.v.actionRun(run, c.now))
	}
	c.json(http.StatusOK, map[string]any{"workflow_runs": out, "total_count": len(runs)})
}

func hGetRun(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if run := c.pathRun(r); run != nil {
		c.json(http.StatusOK, c.v.actionRun(run, c.now))
	}
}

// hDeleteRun removes a finished run with its jobs, tasks and artifacts; one
// still waiting or running is refused (the spec: "must have completed").
func hDeleteRun(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	run := c.pathRun(r)
	if run == nil {
		return
	}
	if !statusDone(run.status) {
		c.fail(http.StatusBadRequest, "this workflow run is not done")
		return
	}
	a := &c.st.actions
	for _, j := range run.jobs {
		for _, t := range j.tasks {
			delete(c.st.tokens, t.token)
		}
	}
	a.runs = slices.DeleteFunc(a.runs, func(x *actionRun) bool { return x == run })
	a.artifacts = slices.DeleteFunc(a.artifacts, func(x *actionArtifact) bool { return x.run == run })
	c.empty(http.StatusNoContent)
}

// hCancelRun cancels the jobs not done yet; a finished run is left as it
// is. 204 either way.
func hCancelRun(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	run := c.pathRun(r)
	if run == nil {
		return
	}
	prior := run.status
	for _, j := range run.jobs {
		j.sim = nil // a runner stops a cancelled job
		if statusDone(j.status) {
			continue
		}
		c.st.endAttempt(j, "cancelled", c.now)
	}
	run.settle(c.now)
	c.s.runChanged(run, prior, c.now)
	c.empty(http.StatusNoContent)
}

func hListRunJobs(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	run := c.pathRun(r)
	if run == nil {
		return
	}
	out := []*wRunJob{}
	for _, j := range run.jobs {
		out = append(out, j.wire())
	}
	c.json(http.StatusOK, out)
}

// hJobLogs answers a job's log as text: its latest attempt's, or
// ?attempt=N's; with ?step=N only what step N (1-based, as attempt) wrote.
// It honours Range as Go's http.ServeContent does (see serveContent).
func hJobLogs(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	id, _ := strconv.ParseInt(c.p["job_id"], 10, 64)
	var job *actionJob
	for _, run := range c.st.actions.runs {
		for _, j := range run.jobs {
			if j.id == id && run.repo == r {
				job = j
			}
		}
	}
	if job == nil {
		c.fail(http.StatusNotFound, "run job with id "+strconv.FormatInt(id, 10)+": resource does not exist")
		return
	}
	t := job.latest()
	if t == nil {
		c.fail(http.StatusNotFound, "job is not started")
		return
	}
	if n := c.formInt("attempt"); n != 0 {
		if n < 1 || n > len(job.tasks) {
			c.fail(http.StatusNotFound, "attempt "+strconv.Itoa(n)+" of job "+strconv.FormatInt(id, 10)+": resource does not exist")
			return
		}
		t = job.tasks[n-1]
	}
	text := t.log.String()
	if n := c.formInt("step"); c.q.Has("step") {
		var ok bool
		if text, ok = t.stepLog(n); !ok {
			c.fail(http.StatusNotFound, "step "+c.q.Get("step")+" of job "+strconv.FormatInt(id, 10)+": resource does not exist")
			return
		}
	}
	c.serveContent("text/plain; charset=utf-8", text)
}

// hRunLogs answers a ZIP with one file per job that has started, its
// latest attempt's log, named as the spec says.
func hRunLogs(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	run := c.pathRun(r)
	if run == nil {
		return
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, j := range run.jobs {
		t := j.latest()
		if t == nil {
			continue
		}
		// The spec's naming: {job-name}-{job-id}-attempt-{N}.log.
		name := j.name + "-" + strconv.FormatInt(j.id, 10) + "-attempt-" + strconv.FormatInt(t.attempt, 10) + ".log"
		f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: t.updated})
		if err == nil {
			_, err = io.WriteString(f, t.log.String())
		}
		if err != nil {
			c.internalError(err.Error())
			return
		}
	}
	if err := zw.Close(); err != nil {
		c.internalError(err.Error())
		return
	}
	c.status, c.out = http.StatusOK, buf.Bytes()
	c.header.Set("Content-Type", "application/zip")
	c.header.Set("Content-Disposition", `attachment; filename="`+r.name+"-run-"+strconv.FormatInt(run.index, 10)+`-logs.zip"`)
}

func hListTasks(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	sts, ok := c.statusFilter()
	if !ok {
		return
	}
	var tasks []*actionTask
	for _, run := range c.st.actions.runs {
		if run.repo != r {
			continue
		}
		for _, j := range run.jobs {
			for _, t := range j.tasks {
				if len(sts) == 0 || slices.Contains(sts, t.status) {
					tasks = append(tasks, t)
				}
			}
		}
	}
	slices.SortFunc(tasks, func(a, b *actionTask) int { return int(b.id - a.id) }) // newest first
	out := []*wActionTask{}
	for _, t := range actionsPage(c, tasks) {
		out = append(out, c.v.actionTask(t))
	}
	c.json(http.StatusOK, map[string]any{"workflow_runs": out, "total_count": len(tasks)})
}

// hListArtifacts lists a repository's artifacts, or (ofRun) one run's,
// optionally by exact name.
func hListArtifacts(ofRun bool) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil {
			return
		}
		var run *actionRun
		if ofRun {
			if run = c.pathRun(r); run == nil {
				return
			}
		}
		var arts []*actionArtifact
		for _, a := range c.st.actions.artifacts {
			if a.run.repo == r && (run == nil || a.run == run) && (c.q.Get("name") == "" || a.name == c.q.Get("name")) {
				arts = append(arts, a)
			}
		}
		out := []*wArtifact{}
		for _, a := range paginate(c, arts, pageLinked) {
			out = append(out, c.v.artifact(a))
		}
		c.json(http.StatusOK, out)
	}
}

func (c *call) pathArtifact(r *repo) *actionArtifact {
	id, _ := strconv.ParseInt(c.p["artifact_id"], 10, 64)
	for _, a := range c.st.actions.artifacts {
		if a.id == id && a.run.repo == r {
			return a
		}
	}
	c.fail(http.StatusNotFound, "artifact with id "+strconv.FormatInt(id, 10)+": resource does not exist")
	return nil
}

func hGetArtifact(c *call) {
	if r := c.pathRepo(); r != nil {
		if a := c.pathArtifact(r); a != nil {
			c.json(http.StatusOK, c.v.artifact(a))
		}
	}
}

func hDeleteArtifact(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	a := c.pathArtifact(r)
	if a == nil {
		return
	}
	// Forgejo marks it for deletion; it is gone for the API at once.
	c.st.actions.artifacts = slices.DeleteFunc(c.st.actions.artifacts, func(x *actionArtifact) bool { return x == a })
	c.empty(http.StatusNoContent)
}

// hDownloadArtifact answers the artifact's bytes as they were seeded.
func hDownloadArtifact(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	a := c.pathArtifact(r)
	if a == nil {
		return
	}
	c.status, c.out = http.StatusOK, slices.Clone(a.data)
	c.header.Set("Content-Type", "application/zip")
	c.header.Set("Content-Disposition", `attachment; filename="`+a.name+`.zip"`)
}

// hCurrentRun answers the run of the job whose automatic token
// authenticates the request, while that job runs.
func hCurrentRun(c *call) {
	_, tok, _ := strings.Cut(strings.TrimSpace(c.r.Header.Get("Authorization")), " ")
	tok = strings.TrimSpace(tok)
	for _, run := range c.st.actions.runs {
		for _, j := range run.jobs {
			if t := j.latest(); t != nil && tok != "" && t.token == tok && t.status == "running" {
				c.json(http.StatusOK, c.v.actionRun(run, c.now))
				return
			}
		}
	}
	// Forgejo's words are not known here; the status is the spec's
	// "automatic actions token must be used".
	c.fail(http.StatusUnauthorized, "an automatic Forgejo Actions token of a running job is required")
}

// ---- dispatch

// workflowDirs are where Forgejo reads workflows, the first that exists.
var workflowDirs = []string{".forgejo/workflows", ".gitea/workflows"}

func hDispatchWorkflow(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	var b struct {
		Ref           string            `json:"ref"`
		Inputs        map[string]string `json:"inputs"`
		ReturnRunInfo bool              `json:"return_run_info"`
	}
	if !c.decode(&b) {
		return
	}
	name := c.p["workflowfilename"]
	if b.Ref == "" {
		c.fail(http.StatusBadRequest, "ref is empty")
		return
	}
	ref := b.Ref
	switch {
	case strings.HasPrefix(ref, "refs/"):
	case r.tag(ref) != nil:
		ref = "refs/tags/" + ref
	case r.branch(ref) != nil:
		ref = "refs/heads/" + ref
	default:
		sha, ok := r.commitOf(ref)
		if !ok {
			// Forgejo's ExpandRef fails with a plain error: a 500.
			c.internalError("could not expand reference '" + b.Ref + "'")
			return
		}
		ref = sha
	}
	sha, files, ok := r.resolveRef(ref)
	if !ok {
		c.fail(http.StatusNotFound, "object does not exist [id: "+ref+", rel_path: ]")
		return
	}
	dir, content, found := "", "", false
	for _, d := range workflowDirs {
		if !isDir(files, d) {
			continue
		}
		dir = d
		content, found = files[d+"/"+name]
		found = found && (strings.HasSuffix(name, ".yml") || strings.HasSuffix(name, ".yaml"))
		break
	}
	if !found {
		// Forgejo 15 answers a missing workflow with a plain error, so a
		// 500 (Gitea 1.27: 404).
		c.internalError("workflow not found")
		return
	}
	wf, err := parseWorkflow(content)
	if err != nil {
		c.internalError(err.Error())
		return
	}
	inputs := map[string]string{}
	for _, in := range wf.inputs {
		v := b.Inputs[in.key]
		if v == "" {
			v = in.def
		}
		if v == "" {
			if in.required {
				c.fail(http.StatusBadRequest, "input required for '"+cmp.Or(in.description, in.key)+"'")
				return
			}
			continue
		}
		inputs[in.key] = v
	}
	// The payload renders the repository and the sender for nobody in
	// particular, as Forgejo's (no permissions, no private e-mail).
	anon := c.v
	anon.viewer = nil
	p, _ := json.Marshal(map[string]any{"inputs": inputs, "ref": ref, "repository": anon.repo(r, 0),
		"sender": anon.user(c.user), "workflow": dir + "/" + name})
	run := c.newRun(r, dir, name, wf, cmp.Or(wf.runName, wf.name, dir+"/"+name), ref, sha, "workflow_dispatch", string(p))
	var keys []string
	for _, j := range run.jobs {
		keys = append(keys, j.key)
	}
	if b.ReturnRunInfo {
		c.json(http.StatusCreated, map[string]any{"id": run.id, "run_number": run.index, "jobs": keys})
		return
	}
	c.empty(http.StatusNoContent)
}

// newRun makes a run of the workflow file dir/name (read as wf) on ref at
// sha, triggered by event for c's user: waiting, with a job per entry of
// its jobs: (blocked while it needs others).
func (c *call) newRun(r *repo, dir, name string, wf *workflowFile, title, ref, sha, event, payload string) *actionRun {
	a := &c.st.actions
	if a.nextIndex == nil {
		a.nextIndex = map[int64]int64{}
	}
	a.nextIndex[r.id]++
	run := &actionRun{
		id: c.st.id("action_run"), index: a.nextIndex[r.id], repo: r, workflowID: name, workflowDir: dir,
		title: title, ref: ref, sha: sha, trigger: c.user, event: event, payload: payload,
		status: "waiting", created: c.now, updated: c.now,
	}
	for _, wj := range wf.jobs {
		j := &actionJob{id: c.st.id("action_job"), run: run, key: wj.key, name: cmp.Or(wj.name, wj.key),
			needs: wj.needs, runsOn: wj.runsOn, status: "waiting", queued: c.now}
		if len(j.needs) > 0 {
			j.status = "blocked"
		}
		run.jobs = append(run.jobs, j)
	}
	run.settle(c.now)
	a.runs = append(a.runs, run)
	return run
}

// ---- a workflow file, read as far as dispatching needs: a YAML subset
// (block mappings and sequences, flow sequences, quoted scalars).

type workflowFile struct {
	name, runName string
	inputs        []workflowInput
	jobs          []workflowJob // sorted by id
	push          *pushFilter   // on: push, nil when a push does not start it
}

// pushFilter is on: push's branch filters (glob patterns); tagsOnly when
// it names tags and no branches, so that a branch push does not start it.
type pushFilter struct {
	branches, branchesIgnore []string
	tagsOnly                 bool
}

// matches reports whether a push to branch starts the workflow.
func (f *pushFilter) matches(branch string) bool {
	if f == nil || f.tagsOnly {
		return false
	}
	if len(f.branches) > 0 {
		return slices.ContainsFunc(f.branches, func(p string) bool { ok, _ := path.Match(p, branch); return ok })
	}
	return !slices.ContainsFunc(f.branchesIgnore, func(p string) bool { ok, _ := path.Match(p, branch); return ok })
}

type workflowInput struct {
	key, description, def string
	required              bool
}

type workflowJob struct {
	key, name     string
	needs, runsOn []string
}

type ynode struct {
	key, val string
	indent   int
	kids     []*ynode
}

func (n *ynode) child(key string) *ynode {
	for _, k := range n.kids {
		if k.key == key {
			return k
		}
	}
	return nil
}

// list is a node's value as a list: a flow sequence, block items, or one
// scalar.
func (n *ynode) list() []string {
	if n == nil {
		return nil
	}
	if v := strings.TrimSpace(n.val); strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		var out []string
		for _, s := range strings.Split(v[1:len(v)-1], ",") {
			if s = unquote(strings.TrimSpace(s)); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	if n.val != "" {
		return []string{unquote(n.val)}
	}
	var out []string
	for _, k := range n.kids {
		if k.key == "-" {
			out = append(out, unquote(k.val))
		}
	}
	return out
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

func parseYAMLTree(content string) *ynode {
	root := &ynode{indent: -1}
	stack := []*ynode{root}
	for _, line := range strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") || trimmed == "---" {
			continue
		}
		if i := strings.Index(trimmed, " #"); i >= 0 && !strings.ContainsAny(trimmed[:i], `"'`) {
			trimmed = strings.TrimSpace(trimmed[:i])
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		n := &ynode{indent: indent}
		if rest, ok := strings.CutPrefix(trimmed, "-"); ok && (rest == "" || rest[0] == ' ') {
			n.key, n.val = "-", strings.TrimSpace(rest)
		} else if k, v, ok := strings.Cut(trimmed, ":"); ok && (v == "" || v[0] == ' ') {
			n.key, n.val = unquote(strings.TrimSpace(k)), strings.TrimSpace(v)
		} else {
			n.val = trimmed
		}
		for len(stack) > 1 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		top := stack[len(stack)-1]
		top.kids = append(top.kids, n)
		stack = append(stack, n)
	}
	return root
}

// errWorkflow is a workflow file the fake cannot read.
type errWorkflow string

func (e errWorkflow) Error() string { return string(e) }

func parseWorkflow(content string) (*workflowFile, error) {
	root := parseYAMLTree(content)
	wf := &workflowFile{}
	if n := root.child("name"); n != nil {
		wf.name = unquote(n.val)
	}
	if n := root.child("run-name"); n != nil && !strings.Contains(n.val, "${{") {
		wf.runName = unquote(n.val)
	}
	if on := root.child("on"); on != nil {
		if slices.Contains(on.list(), "push") {
			wf.push = &pushFilter{}
		}
		if p := on.child("push"); p != nil {
			wf.push = &pushFilter{branches: p.child("branches").list(), branchesIgnore: p.child("branches-ignore").list()}
			wf.push.tagsOnly = len(wf.push.branches) == 0 && len(wf.push.branchesIgnore) == 0 && p.child("tags") != nil
		}
		if d := on.child("workflow_dispatch"); d != nil {
			if ins := d.child("inputs"); ins != nil {
				for _, in := range ins.kids {
					wi := workflowInput{key: in.key}
					if x := in.child("description"); x != nil {
						wi.description = unquote(x.val)
					}
					if x := in.child("default"); x != nil {
						wi.def = unquote(x.val)
					}
					if x := in.child("required"); x != nil {
						wi.required = x.val == "true"
					}
					wf.inputs = append(wf.inputs, wi)
				}
			}
		}
	}
	jobs := root.child("jobs")
	if jobs == nil || len(jobs.kids) == 0 {
		return nil, errWorkflow("model.ReadWorkflow: jobs: a workflow needs at least one job")
	}
	for _, j := range jobs.kids {
		wj := workflowJob{key: j.key, needs: j.child("needs").list(), runsOn: j.child("runs-on").list()}
		if n := j.child("name"); n != nil && !strings.Contains(n.val, "${{") {
			wj.name = unquote(n.val)
		}
		wf.jobs = append(wf.jobs, wj)
	}
	slices.SortFunc(wf.jobs, func(a, b workflowJob) int { return strings.Compare(a.key, b.key) })
	return wf, nil
}
