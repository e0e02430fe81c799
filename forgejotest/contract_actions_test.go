package forgejotest

import (
	"fmt"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
)

// actionsArea is this area's part of the contract scenario: secrets and
// variables at the repository, organization and user levels, runners,
// runs and a workflow dispatch. Registration tokens, runner registration,
// job search, cancelling and the 16.0 routes are not on Gitea 1.27 (its
// routes differ), so h_actions_test.go covers them on the fake alone.
func (s *scenario) actionsArea() {
	s.actionsSecrets()
	s.actionsVariables()
	s.actionsRunners()
	s.actionsRuns()
}

// outcome is the HTTP status of a call's outcome, success or failure.
func (s *scenario) outcome(resp *forgejo.Response, err error, what string) int {
	s.t.Helper()
	if err != nil {
		return s.apiErr(err, what).StatusCode
	}
	return resp.StatusCode
}

func (s *scenario) actionsSecrets() {
	c1, c2, o, r := s.tg.c1, s.tg.c2, s.owner, s.repo
	resp, err := c1.Actions.SetRepoSecret(s.ctx, o, r, "contract_b", forgejo.CreateOrUpdateSecretRequest{Data: "one"})
	s.note("repo secret: create %d", s.outcome(resp, err, "create a secret"))
	resp, err = c1.Actions.SetRepoSecret(s.ctx, o, r, "CONTRACT_B", forgejo.CreateOrUpdateSecretRequest{Data: "two"})
	s.note("repo secret: set again (other case) %d", s.outcome(resp, err, "set a secret again"))
	_, err = c1.Actions.SetRepoSecret(s.ctx, o, r, "contract_a", forgejo.CreateOrUpdateSecretRequest{Data: "a"})
	s.must(err, "a second secret")
	list, resp, err := c1.Actions.ListRepoSecrets(s.ctx, o, r, nil)
	s.must(err, "list secrets")
	var names []string
	dated := true
	for _, sec := range list {
		names = append(names, sec.Name)
		dated = dated && !sec.CreatedAt.IsZero()
	}
	total, _ := resp.TotalCount()
	s.note("repo secrets: %v dated %v total %d", names, dated, total)

	for _, bad := range []string{"GITEA_X", "github_token", "9LIVES", "has-dash"} {
		_, err = c1.Actions.SetRepoSecret(s.ctx, o, r, bad, forgejo.CreateOrUpdateSecretRequest{Data: "x"})
		e := s.apiErr(err, "invalid secret name")
		s.note("repo secret %q: %d", bad, e.StatusCode)
		// Differs on purpose: Forgejo says "invalid secret name"; Gitea
		// 1.27 words it its own way.
		if s.tg.forgejo && e.Message != "invalid secret name" {
			s.t.Errorf("secret %q on the fake: %q", bad, e.Message)
		}
	}
	// Forgejo reserves FORGEJO_ too; Gitea 1.27 accepts it.
	if s.tg.forgejo {
		_, err = c1.Actions.SetRepoSecret(s.ctx, o, r, "FORGEJO_X", forgejo.CreateOrUpdateSecretRequest{Data: "x"})
		if e := s.apiErr(err, "FORGEJO_ secret"); e.StatusCode != 400 {
			s.t.Errorf("FORGEJO_X on the fake: %d", e.StatusCode)
		}
	}
	_, _, err = c2.Actions.ListRepoSecrets(s.ctx, o, r, nil)
	e := s.apiErr(err, "secrets by user2")
	s.note("repo secrets by user2: %d %q", e.StatusCode, e.Message)
	_, _, err = s.tg.anon.Actions.ListRepoSecrets(s.ctx, o, r, nil)
	s.note("repo secrets anonymously: %d", s.apiErr(err, "secrets anonymously").StatusCode)

	resp, err = c1.Actions.DeleteRepoSecret(s.ctx, o, r, "contract_b")
	s.note("repo secret: delete %d", s.outcome(resp, err, "delete a secret"))
	_, err = c1.Actions.DeleteRepoSecret(s.ctx, o, r, "contract_b")
	s.note("repo secret: delete again %d", s.apiErr(err, "delete a secret again").StatusCode)

	// The user's own secrets and the organization's.
	resp, err = c2.Actions.SetUserSecret(s.ctx, "CONTRACT_U", forgejo.CreateOrUpdateSecretRequest{Data: "u"})
	s.note("user secret: create %d", s.outcome(resp, err, "user secret"))
	resp, err = c2.Actions.DeleteUserSecret(s.ctx, "contract_u")
	s.note("user secret: delete %d", s.outcome(resp, err, "delete user secret"))
	if s.org == "" {
		s.t.Fatal("actionsArea runs after orgsAndTeams: no organization")
	}
	resp, err = c1.Actions.SetOrgSecret(s.ctx, s.org, "CONTRACT_O", forgejo.CreateOrUpdateSecretRequest{Data: "o"})
	s.note("org secret: create %d", s.outcome(resp, err, "org secret"))
	olist, _, err := c1.Actions.ListOrgSecrets(s.ctx, s.org, nil)
	s.must(err, "org secrets")
	s.note("org secrets: %d", len(olist))
	_, err = c2.Actions.SetOrgSecret(s.ctx, s.org, "CONTRACT_O", forgejo.CreateOrUpdateSecretRequest{Data: "x"})
	s.note("org secret by user2: %d", s.apiErr(err, "org secret by user2").StatusCode)
	resp, err = c1.Actions.DeleteOrgSecret(s.ctx, s.org, "CONTRACT_O")
	s.note("org secret: delete %d", s.outcome(resp, err, "delete org secret"))
}

func (s *scenario) actionsVariables() {
	c1, c2, o, r := s.tg.c1, s.tg.c2, s.owner, s.repo
	resp, err := c1.Actions.CreateRepoVariable(s.ctx, o, r, "contract_var", forgejo.CreateVariableRequest{Value: "v1"})
	s.must(err, "create a variable")
	// Differs on purpose: Forgejo 15 answers 204, Gitea 1.27 201.
	if want := map[bool]int{true: 204, false: 201}[s.tg.forgejo]; resp.StatusCode != want {
		s.t.Errorf("create variable on %s: %d, want %d", s.tg.name, resp.StatusCode, want)
	}
	_, err = c1.Actions.CreateRepoVariable(s.ctx, o, r, "CONTRACT_VAR", forgejo.CreateVariableRequest{Value: "v2"})
	e := s.apiErr(err, "create a variable again")
	s.note("repo variable: create again %d", e.StatusCode)
	for _, bad := range []string{"GITEA_V", "ci", "bad-name"} {
		_, err = c1.Actions.CreateRepoVariable(s.ctx, o, r, bad, forgejo.CreateVariableRequest{Value: "x"})
		s.note("repo variable %q: %d", bad, s.apiErr(err, "invalid variable name").StatusCode)
	}
	_, err = c1.Actions.UpdateRepoVariable(s.ctx, o, r, "CONTRACT_NOPE", forgejo.UpdateVariableRequest{Value: "x"})
	e = s.apiErr(err, "update a missing variable")
	s.note("repo variable: update a missing one %d %q", e.StatusCode, e.Message)
	_, err = c1.Actions.SetRepoSecret(s.ctx, o, r, "CONTRACT_EMPTY", forgejo.CreateOrUpdateSecretRequest{})
	s.note("repo secret without data: %d", s.apiErr(err, "secret without data").StatusCode)
	_, _, err = c2.Actions.ListRepoVariables(s.ctx, o, r, nil)
	s.note("repo variables by user2: %d", s.apiErr(err, "variables by user2").StatusCode)
	_, _, err = s.tg.anon.Actions.ListUserVariables(s.ctx, nil)
	s.note("user variables anonymously: %d", s.apiErr(err, "user variables anonymously").StatusCode)
	v, _, err := c1.Actions.GetRepoVariable(s.ctx, o, r, "Contract_Var")
	s.must(err, "get a variable")
	s.note("repo variable: %s = %q, owner id 0 %v, repo id set %v", v.Name, v.Data, v.OwnerID == 0, v.RepoID > 0)
	resp, err = c1.Actions.UpdateRepoVariable(s.ctx, o, r, "CONTRACT_VAR", forgejo.UpdateVariableRequest{Value: "line1\r\nline2"})
	s.note("repo variable: update %d", s.outcome(resp, err, "update a variable"))
	v, _, err = c1.Actions.GetRepoVariable(s.ctx, o, r, "CONTRACT_VAR")
	s.must(err, "get the variable")
	s.note("repo variable after update: %q", v.Data)
	resp, err = c1.Actions.UpdateRepoVariable(s.ctx, o, r, "CONTRACT_VAR", forgejo.UpdateVariableRequest{Name: "contract_renamed", Value: "v3"})
	s.note("repo variable: rename %d", s.outcome(resp, err, "rename a variable"))
	vars, _, err := c1.Actions.ListRepoVariables(s.ctx, o, r, nil)
	s.must(err, "list variables")
	var names []string
	for _, x := range vars {
		names = append(names, x.Name+"="+x.Data)
	}
	s.note("repo variables: %v", names)
	_, _, err = c1.Actions.GetRepoVariable(s.ctx, o, r, "CONTRACT_VAR")
	s.note("repo variable: old name %d", s.apiErr(err, "the old name").StatusCode)
	_, _, err = c2.Actions.GetRepoVariable(s.ctx, o, r, "CONTRACT_RENAMED")
	s.note("repo variable by user2: %d", s.apiErr(err, "variable by user2").StatusCode)
	resp, err = c1.Actions.DeleteRepoVariable(s.ctx, o, r, "CONTRACT_RENAMED")
	s.note("repo variable: delete %d", s.outcome(resp, err, "delete a variable"))
	_, err = c1.Actions.DeleteRepoVariable(s.ctx, o, r, "CONTRACT_RENAMED")
	s.note("repo variable: delete again %d", s.apiErr(err, "delete again").StatusCode)

	// User and organization variables.
	_, err = c2.Actions.CreateUserVariable(s.ctx, "CONTRACT_UV", forgejo.CreateVariableRequest{Value: "u"})
	s.must(err, "user variable")
	uv, _, err := c2.Actions.GetUserVariable(s.ctx, "contract_uv")
	s.must(err, "get user variable")
	s.note("user variable: %s = %q, owner id set %v, repo id 0 %v", uv.Name, uv.Data, uv.OwnerID > 0, uv.RepoID == 0)
	uvars, _, err := c2.Actions.ListUserVariables(s.ctx, nil)
	s.must(err, "user variables")
	s.note("user variables: %d", len(uvars))
	resp, err = c2.Actions.DeleteUserVariable(s.ctx, "CONTRACT_UV")
	s.note("user variable: delete %d", s.outcome(resp, err, "delete user variable"))
	_, err = c1.Actions.CreateOrgVariable(s.ctx, s.org, "CONTRACT_OV", forgejo.CreateVariableRequest{Value: "o"})
	s.must(err, "org variable")
	resp, err = c1.Actions.UpdateOrgVariable(s.ctx, s.org, "CONTRACT_OV", forgejo.UpdateVariableRequest{Value: "o2"})
	s.note("org variable: update %d", s.outcome(resp, err, "update org variable"))
	ov, _, err := c1.Actions.GetOrgVariable(s.ctx, s.org, "CONTRACT_OV")
	s.must(err, "get org variable")
	ovars, _, err := c1.Actions.ListOrgVariables(s.ctx, s.org, nil)
	s.must(err, "org variables")
	s.note("org variable: %q, %d in the list", ov.Data, len(ovars))
	_, _, err = c2.Actions.GetOrgVariable(s.ctx, s.org, "CONTRACT_OV")
	s.note("org variable by user2: %d", s.apiErr(err, "org variable by user2").StatusCode)
	resp, err = c1.Actions.DeleteOrgVariable(s.ctx, s.org, "CONTRACT_OV")
	s.note("org variable: delete %d", s.outcome(resp, err, "delete org variable"))
}

func (s *scenario) actionsRunners() {
	c1, c2, o, r := s.tg.c1, s.tg.c2, s.owner, s.repo
	runners, _, err := c1.Actions.ListRepoRunners(s.ctx, o, r, nil)
	s.must(err, "repo runners")
	s.note("repo runners: %d", len(runners))
	_, _, err = c2.Actions.ListRepoRunners(s.ctx, o, r, nil)
	s.note("repo runners by user2: %d", s.apiErr(err, "runners by user2").StatusCode)
	_, _, err = c2.Actions.ListAdminRunners(s.ctx, nil)
	s.note("admin runners by user2: %d", s.apiErr(err, "admin runners by user2").StatusCode)
	_, _, err = c1.Actions.GetRepoRunner(s.ctx, o, r, "987654")
	e := s.apiErr(err, "missing runner")
	s.note("missing runner: %d", e.StatusCode)
	s.runnerMissing(e, "987654")
	oruns, _, err := c1.Actions.ListOrgRunners(s.ctx, s.org, nil)
	s.must(err, "org runners")
	s.note("org runners: %d", len(oruns))
	_, _, err = c2.Actions.ListOrgRunners(s.ctx, s.org, nil)
	s.note("org runners by user2: %d", s.apiErr(err, "org runners by user2").StatusCode)
	_, _, err = c1.Actions.GetAdminRunner(s.ctx, "987654")
	e = s.apiErr(err, "missing runner (admin)")
	s.note("missing runner (admin): %d", e.StatusCode)
	s.runnerMissing(e, "987654")
	uruns, _, err := c2.Actions.ListUserRunners(s.ctx, nil)
	s.must(err, "user runners")
	s.note("user runners: %d", len(uruns))
}

// runnerMissing holds a missing runner's message to the server's kind: it
// differs on purpose, Forgejo 15 writing "runner with ID", Gitea 1.27
// "runner with id".
func (s *scenario) runnerMissing(e *forgejo.APIError, id string) {
	word := map[bool]string{true: "ID", false: "id"}[s.tg.forgejo]
	if want := "runner with " + word + " " + id + ": resource does not exist"; e.Message != want {
		s.t.Errorf("missing runner on %s: %q, want %q", s.tg.name, e.Message, want)
	}
}

const contractWorkflow = `name: Contract
on:
  workflow_dispatch:
jobs:
  hello:
    runs-on: ubuntu-latest
    steps:
      - run: echo hello
`

func (s *scenario) actionsRuns() {
	c1, c2, o, r := s.tg.c1, s.tg.c2, s.owner, s.repo
	runs, _, err := c1.Actions.ListRuns(s.ctx, o, r, nil)
	s.must(err, "list runs")
	s.note("runs before: %d (%d listed)", runs.TotalCount, len(runs.WorkflowRuns))
	_, _, err = s.tg.anon.Actions.ListRuns(s.ctx, o, r, nil)
	// Differs on purpose: Forgejo's actions routes read a public
	// repository without a token; Gitea 1.27 answers 401.
	if s.tg.forgejo != (err == nil) {
		s.t.Errorf("runs anonymously on %s: %v", s.tg.name, err)
	}

	_, _, err = c1.Actions.DispatchWorkflow(s.ctx, o, r, "missing.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	e := s.apiErr(err, "dispatch a missing workflow")
	// Differs on purpose: Forgejo 15 answers a missing workflow file with a
	// plain error (500, "workflow not found" for an admin); Gitea 1.27 404.
	if want := map[bool]int{true: 500, false: 404}[s.tg.forgejo]; e.StatusCode != want {
		s.t.Errorf("dispatch a missing workflow on %s: %d %q, want %d", s.tg.name, e.StatusCode, e.Message, want)
	}
	_, _, err = s.tg.anon.Actions.DispatchWorkflow(s.ctx, o, r, "contract.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	s.note("dispatch anonymously: %d", s.apiErr(err, "dispatch anonymously").StatusCode)

	// Both servers read .gitea/workflows.
	_, _, err = c1.Repos.CreateFile(s.ctx, o, r, ".gitea/workflows/contract.yml", forgejo.CreateFileRequest{Content: b64(contractWorkflow), Message: "workflow"})
	s.must(err, "add a workflow")
	_, _, err = c1.Actions.DispatchWorkflow(s.ctx, o, r, "contract.yml", forgejo.DispatchWorkflowRequest{Ref: "no-such-ref"})
	// Differs on purpose: Forgejo's ExpandRef fails with a plain error
	// (500); Gitea 1.27 answers 404.
	if want := map[bool]int{true: 500, false: 404}[s.tg.forgejo]; s.apiErr(err, "dispatch a missing ref").StatusCode != want {
		s.t.Errorf("dispatch a missing ref on %s: %v", s.tg.name, err)
	}
	info, resp, err := c1.Actions.DispatchWorkflow(s.ctx, o, r, "contract.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	s.must(err, "dispatch")
	s.note("dispatch: %d, run info %v", resp.StatusCode, info != nil)
	// user2 writes to the repository (collaboratorsAndMore).
	_, resp, err = c2.Actions.DispatchWorkflow(s.ctx, o, r, "contract.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	s.must(err, "dispatch by user2")
	s.note("dispatch by user2: %d", resp.StatusCode)

	runs, _, err = c1.Actions.ListRuns(s.ctx, o, r, &forgejo.ActionListRunsOptions{Event: []string{"workflow_dispatch"}})
	s.must(err, "list runs")
	s.note("runs after: %d (%d listed)", runs.TotalCount, len(runs.WorkflowRuns))
	if len(runs.WorkflowRuns) != 2 {
		return
	}
	run := runs.WorkflowRuns[1] // the first dispatched: newest first
	s.note("run: event %s, id set %v", run.EventName(), run.ID > 0)
	// Differs on purpose: Gitea 1.27 answers GitHub's workflow-run shape
	// (status "queued", run_number, actor), Forgejo its own.
	if s.tg.forgejo && (run.Status != "waiting" || run.IndexInRepo != 1 || run.WorkflowID != "contract.yml" ||
		run.Prettyref != "main" || len(run.CommitSHA) != 40 || loginOf(run.TriggerUser) != o || run.Title != "Contract" ||
		!strings.HasSuffix(run.HTMLURL, fmt.Sprintf("/%s/%s/actions/runs/1", o, r))) {
		s.t.Errorf("run on the fake: %+v", run)
	}
	got, _, err := c1.Actions.GetRun(s.ctx, o, r, run.ID)
	s.must(err, "get run")
	s.note("get run: same id %v", got.ID == run.ID)
	_, _, err = c1.Actions.GetRun(s.ctx, o, r, run.ID+100000)
	e = s.apiErr(err, "missing run")
	s.note("missing run: %d %q", e.StatusCode, strings.Replace(e.Message, fmt.Sprint(run.ID+100000), "N", 1))
	none, _, err := c1.Actions.ListRuns(s.ctx, o, r, &forgejo.ActionListRunsOptions{Status: []forgejo.ActionStatus{forgejo.ActionStatusSuccess}})
	s.must(err, "runs by status")
	s.note("successful runs: %d", none.TotalCount)

	jobs, _, err := c1.Actions.ListRunJobs(s.ctx, o, r, run.ID)
	s.must(err, "run jobs")
	var names []string
	for _, j := range jobs {
		names = append(names, j.Name)
	}
	s.note("run jobs: %v", names)
	if s.tg.forgejo && (len(jobs) != 1 || jobs[0].Status != "waiting" || len(jobs[0].RunsOn) != 1) {
		s.t.Errorf("jobs on the fake: %+v", jobs)
	}
	if len(jobs) == 1 {
		_, _, err = c1.Actions.GetJobLogs(s.ctx, o, r, jobs[0].ID, nil)
		s.note("logs of a job not started: %d", s.apiErr(err, "logs of a job not started").StatusCode)
	}
	tasks, _, err := c1.Actions.ListTasks(s.ctx, o, r, nil)
	s.must(err, "tasks")
	s.note("tasks: %d", tasks.TotalCount)
	arts, _, err := c1.Actions.ListArtifacts(s.ctx, o, r, nil)
	s.must(err, "artifacts")
	s.note("artifacts: %d", len(arts))
	_, _, err = c1.Actions.GetArtifact(s.ctx, o, r, 987654)
	s.note("missing artifact: %d", s.apiErr(err, "missing artifact").StatusCode)

	_, err = c1.Actions.DeleteRun(s.ctx, o, r, run.ID)
	e = s.apiErr(err, "delete a waiting run")
	s.note("delete a waiting run: %d %q", e.StatusCode, e.Message)
	_, err = c2.Actions.DeleteRun(s.ctx, o, r, run.ID)
	// Differs on purpose: Forgejo deletes runs for repository admins
	// only (403 to a writer); Gitea 1.27 lets a writer through (400: not
	// done).
	if want := map[bool]int{true: 403, false: 400}[s.tg.forgejo]; s.apiErr(err, "delete by user2").StatusCode != want {
		s.t.Errorf("delete a run by user2 on %s: %v", s.tg.name, err)
	}
}

func loginOf(u *forgejo.User) string {
	if u == nil {
		return ""
	}
	return u.Login
}
