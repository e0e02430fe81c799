package forgejotest

import (
	"slices"
	"time"
)

// The fake has no runner. A run comes from dispatching a workflow file of
// the repository (POST …/actions/workflows/{file}/dispatches); these
// helpers then play the runner's part, so that a bot or CI tool under test
// sees its jobs run, their logs and their artifacts.

// RunActionJob plays a runner on the job jobID of a run in owner/repoName
// (the ids of a run's jobs are in ListRunJobs). status "running" starts the
// job: a new attempt (task) when the job has none in progress, with log as
// its log so far; a done status ("success", "failure", "cancelled",
// "skipped") ends the job, its attempt's log becoming log. The run's status
// follows its jobs', and a job waiting on this one (needs:) is unblocked or
// skipped as Forgejo does. While the attempt runs, token is its automatic
// token (Authorization: Bearer), which GET /actions/run answers for; it is
// "" once the job is done.
func (s *Server) RunActionJob(owner, repoName string, jobID int64, status, log string) (token string) {
	if s.tb != nil {
		s.tb.Helper()
	}
	var problem string
	s.withRepo(owner, repoName, func(r *repo, now time.Time) {
		s.advanceRunsLocked(now)
		job := s.st.actions.jobIn(r, jobID)
		switch {
		case job == nil:
			problem = "no such job in the repository"
			return
		case status != "running" && !statusDone(status):
			problem = "status must be running, success, failure, cancelled or skipped"
			return
		case job.status == "blocked":
			problem = "the job waits on jobs it needs"
			return
		}
		job.sim, job.manual = nil, true // played by hand from now on
		prior := job.run.status
		t := job.latest()
		if t == nil || statusDone(t.status) {
			t = s.startTask(job, now)
		}
		t.status, t.updated = status, now
		t.log.Reset()
		t.log.WriteString(log)
		job.status = status
		if statusDone(status) {
			t.stopped, job.stopped = now, now
			delete(s.st.tokens, t.token)
		} else {
			token = t.token
		}
		job.run.settle(now)
		s.runChanged(job.run, prior, now)
	})
	if problem != "" {
		s.fatalf("RunActionJob %s/%s job %d: %s", owner, repoName, jobID, problem)
	}
	return token
}

// AddActionArtifact gives the run runID of owner/repoName an artifact named
// name; DownloadArtifact answers data as it is (pass a ZIP when the code
// under test opens it). It returns the artifact's id.
func (s *Server) AddActionArtifact(owner, repoName string, runID int64, name string, data []byte) (id int64) {
	if s.tb != nil {
		s.tb.Helper()
	}
	missing := false
	s.withRepo(owner, repoName, func(r *repo, now time.Time) {
		a := &s.st.actions
		i := slices.IndexFunc(a.runs, func(run *actionRun) bool { return run.id == runID && run.repo == r })
		if i < 0 {
			missing = true
			return
		}
		id = s.st.id("action_artifact")
		a.artifacts = append(a.artifacts, &actionArtifact{id: id, run: a.runs[i], name: name, data: slices.Clone(data), created: now})
	})
	if missing {
		s.fatalf("AddActionArtifact: no run %d in %s/%s", runID, owner, repoName)
	}
	return id
}

func (a *actionsState) jobIn(r *repo, id int64) *actionJob {
	for _, run := range a.runs {
		if run.repo != r {
			continue
		}
		for _, j := range run.jobs {
			if j.id == id {
				return j
			}
		}
	}
	return nil
}

// botUser is whom an automatic token authenticates as: Forgejo's
// forgejo-actions (id -2), a user no login names.
func (a *actionsState) botUser() *user {
	if a.bot == nil {
		a.bot = &user{id: -2, login: "forgejo-actions", fullName: "Forgejo Actions"}
	}
	return a.bot
}

// forgetRepo drops what a deleted repository had in Actions, as Forgejo
// deletes them with it: secrets, variables, runners, its registration
// token, runs (their tasks' tokens) and artifacts.
func (a *actionsState) forgetRepo(st *state, r *repo) {
	sc := actionsScope{repoID: r.id}
	a.secrets = slices.DeleteFunc(a.secrets, func(x *actionSecret) bool { return x.scope == sc })
	a.variables = slices.DeleteFunc(a.variables, func(x *actionVariable) bool { return x.scope == sc })
	a.runners = slices.DeleteFunc(a.runners, func(x *actionRunner) bool { return x.scope == sc })
	delete(a.regTokens, sc)
	for _, run := range a.runs {
		if run.repo != r {
			continue
		}
		for _, j := range run.jobs {
			for _, t := range j.tasks {
				delete(st.tokens, t.token)
			}
		}
	}
	a.runs = slices.DeleteFunc(a.runs, func(x *actionRun) bool { return x.repo == r })
	a.artifacts = slices.DeleteFunc(a.artifacts, func(x *actionArtifact) bool { return x.run.repo == r })
}
