package forgejotest

//lint:file-ignore SA1019 the fake serves the registration-token routes Forgejo 15 deprecated, and these tests call them on purpose.

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
)

// statusOf is the HTTP status of a failed call, 0 for a success.
func statusOf(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	var e *forgejo.APIError
	if !errors.As(err, &e) {
		t.Fatalf("want an *APIError, got %v", err)
	}
	return e.StatusCode
}

func messageOf(err error) string {
	var e *forgejo.APIError
	if errors.As(err, &e) {
		return e.Message
	}
	return ""
}

// Secrets are write-only: listed by name (upper-cased, sorted), created
// 201, replaced 204, and their names held to Forgejo's rule.
func TestActionsSecrets(t *testing.T) {
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	other := srv.Client(forgejo.WithToken(srv.AddUser("other")))
	c, ctx := srv.Client(), context.Background()

	for _, tc := range []struct {
		name string
		want int
	}{
		{"zeta", 201}, {"alpha_1", 201}, {"ZETA", 204}, {"_x", 201},
		{"GITEA_TOKEN", 400}, {"github_x", 400}, {"FORGEJO_X", 400}, {"1ABC", 400}, {"a-b", 400},
	} {
		resp, err := c.Actions.SetRepoSecret(ctx, owner, "demo", tc.name, forgejo.CreateOrUpdateSecretRequest{Data: "v\r\n"})
		got := statusOf(t, err)
		if got == 0 {
			got = resp.StatusCode
		}
		if got != tc.want {
			t.Errorf("PUT secret %q: %d (%v), want %d", tc.name, got, err, tc.want)
		}
	}
	list, resp, err := c.Actions.ListRepoSecrets(ctx, owner, "demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range list {
		names = append(names, s.Name)
	}
	if want := []string{"ALPHA_1", "ZETA", "_X"}; !slices.Equal(names, want) || resp.Header.Get("X-Total-Count") != "3" || resp.Header.Get("Link") != "" {
		t.Errorf("secrets %v (total %q, link %q), want %v", names, resp.Header.Get("X-Total-Count"), resp.Header.Get("Link"), want)
	}
	raw, _ := io.ReadAll(mustGet(t, srv, "/repos/"+owner+"/demo/actions/secrets").Body)
	if bytes.Contains(raw, []byte(`"v`)) || bytes.Contains(raw, []byte("data")) {
		t.Errorf("a secret's value is rendered: %s", raw)
	}
	if _, err := c.Actions.SetRepoSecret(ctx, owner, "demo", "EMPTY", forgejo.CreateOrUpdateSecretRequest{}); statusOf(t, err) != 422 {
		t.Errorf("empty data: %v", err)
	}
	if resp, err := c.Actions.DeleteRepoSecret(ctx, owner, "demo", "zeta"); err != nil || resp.StatusCode != 204 {
		t.Errorf("delete: %v", err)
	}
	if _, err := c.Actions.DeleteRepoSecret(ctx, owner, "demo", "zeta"); statusOf(t, err) != 404 || messageOf(err) != "secret was not found [name: ]" {
		t.Errorf("delete again: %v", err)
	}
	if _, err := c.Actions.DeleteRepoSecret(ctx, owner, "demo", "GITEA_X"); statusOf(t, err) != 404 {
		t.Errorf("delete a reserved name: %v", err)
	}
	if _, _, err := other.Actions.ListRepoSecrets(ctx, owner, "demo", nil); statusOf(t, err) != 403 || messageOf(err) != "user should be the owner of the repo" {
		t.Errorf("someone else lists: %v", err)
	}
	if _, _, err := srv.AnonymousClient().Actions.ListRepoSecrets(ctx, owner, "demo", nil); statusOf(t, err) != 401 {
		t.Errorf("anonymously: %v", err)
	}

	// The user's own and an organization's are separate scopes; only an
	// owner of the organization may touch its secrets.
	if resp, err := other.Actions.SetUserSecret(ctx, "ZETA", forgejo.CreateOrUpdateSecretRequest{Data: "x"}); err != nil || resp.StatusCode != 201 {
		t.Errorf("user secret: %v", err)
	}
	if _, _, err := c.Orgs.Create(ctx, forgejo.CreateOrgRequest{Username: "acme"}); err != nil {
		t.Fatal(err)
	}
	if resp, err := c.Actions.SetOrgSecret(ctx, "acme", "ZETA", forgejo.CreateOrUpdateSecretRequest{Data: "x"}); err != nil || resp.StatusCode != 201 {
		t.Errorf("org secret: %v", err)
	}
	if _, err := other.Actions.SetOrgSecret(ctx, "acme", "ZETA", forgejo.CreateOrUpdateSecretRequest{Data: "x"}); statusOf(t, err) != 403 {
		t.Errorf("org secret by a non-member: %v", err)
	}
	if list, _, err := c.Actions.ListOrgSecrets(ctx, "acme", nil); err != nil || len(list) != 1 {
		t.Errorf("org secrets: %v %v", list, err)
	}
	if resp, err := other.Actions.DeleteUserSecret(ctx, "zeta"); err != nil || resp.StatusCode != 204 {
		t.Errorf("delete user secret: %v", err)
	}
}

func mustGet(t *testing.T, srv *Server, path string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("GET", srv.URL+"/api/v1"+path, nil)
	req.Header.Set("Authorization", "token "+srv.Token())
	resp, err := srv.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// Variables: created 204 (Forgejo 15), a taken name 409, renamed by PUT,
// a rename onto another variable refused.
func TestActionsVariables(t *testing.T) {
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	c, ctx := srv.Client(), context.Background()

	if resp, err := c.Actions.CreateRepoVariable(ctx, owner, "demo", "env", forgejo.CreateVariableRequest{Value: "a\r\nb"}); err != nil || resp.StatusCode != 204 {
		t.Fatalf("create: %v", err)
	}
	if _, err := c.Actions.CreateRepoVariable(ctx, owner, "demo", "ENV", forgejo.CreateVariableRequest{Value: "x"}); statusOf(t, err) != 409 || messageOf(err) != "variable name ENV already exists" {
		t.Errorf("create again: %v", err)
	}
	if _, err := c.Actions.CreateRepoVariable(ctx, owner, "demo", "GITHUB_X", forgejo.CreateVariableRequest{Value: "x"}); statusOf(t, err) != 400 {
		t.Errorf("a reserved name: %v", err)
	}
	if _, err := c.Actions.CreateRepoVariable(ctx, owner, "demo", "ci", forgejo.CreateVariableRequest{Value: "x"}); statusOf(t, err) != 400 || messageOf(err) != "env name cannot be ci" {
		t.Errorf("CI: %v", err)
	}
	v, _, err := c.Actions.GetRepoVariable(ctx, owner, "demo", "Env")
	if err != nil || v.Name != "ENV" || v.Data != "a\nb" || v.OwnerID != 0 || v.RepoID == 0 {
		t.Errorf("get: %+v %v", v, err)
	}
	if _, err := c.Actions.CreateRepoVariable(ctx, owner, "demo", "OTHER", forgejo.CreateVariableRequest{Value: "o"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Actions.UpdateRepoVariable(ctx, owner, "demo", "ENV", forgejo.UpdateVariableRequest{Name: "other", Value: "x"}); statusOf(t, err) != 500 {
		t.Errorf("rename onto another: %v", err)
	}
	if resp, err := c.Actions.UpdateRepoVariable(ctx, owner, "demo", "ENV", forgejo.UpdateVariableRequest{Name: "renamed", Value: "new"}); err != nil || resp.StatusCode != 204 {
		t.Errorf("update: %v", err)
	}
	list, _, err := c.Actions.ListRepoVariables(ctx, owner, "demo", nil)
	if err != nil || len(list) != 2 || list[0].Name != "RENAMED" || list[0].Data != "new" {
		t.Errorf("list: %+v %v", list, err)
	}
	if _, _, err := c.Actions.GetRepoVariable(ctx, owner, "demo", "ENV"); statusOf(t, err) != 404 || messageOf(err) != "variable not found" {
		t.Errorf("the old name: %v", err)
	}
	if resp, err := c.Actions.DeleteRepoVariable(ctx, owner, "demo", "renamed"); err != nil || resp.StatusCode != 204 {
		t.Errorf("delete: %v", err)
	}
	if _, err := c.Actions.DeleteRepoVariable(ctx, owner, "demo", "renamed"); statusOf(t, err) != 404 {
		t.Errorf("delete again: %v", err)
	}
	// A user's variables are their own.
	if _, err := c.Actions.CreateUserVariable(ctx, "mine", forgejo.CreateVariableRequest{Value: "1"}); err != nil {
		t.Fatal(err)
	}
	if uv, _, err := c.Actions.GetUserVariable(ctx, "MINE"); err != nil || uv.OwnerID == 0 || uv.RepoID != 0 {
		t.Errorf("user variable: %+v %v", uv, err)
	}
	if _, _, err := srv.Client(forgejo.WithToken(srv.AddUser("other"))).Actions.GetUserVariable(ctx, "MINE"); statusOf(t, err) != 404 {
		t.Errorf("someone else's: %v", err)
	}
}

// Runners belong to a scope; visible adds those above it; a scope may
// read but not delete a runner it only sees; admin routes need a site
// admin; the registration token stays the same.
func TestActionsRunners(t *testing.T) {
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.SetAdmin(owner, true)
	srv.AddRepo(owner, "demo")
	c, ctx := srv.Client(), context.Background()
	other := srv.Client(forgejo.WithToken(srv.AddUser("other")))

	global, resp, err := c.Actions.RegisterAdminRunner(ctx, forgejo.RegisterRunnerRequest{Name: "global"})
	if err != nil || resp.StatusCode != 201 || global.ID == 0 || len(global.Token) != 40 || global.Uuid == "" {
		t.Fatalf("register global: %+v %v", global, err)
	}
	user, _, err := c.Actions.RegisterUserRunner(ctx, forgejo.RegisterRunnerRequest{Name: "mine", Ephemeral: true})
	if err != nil {
		t.Fatal(err)
	}
	repoRunner, _, err := c.Actions.RegisterRepoRunner(ctx, owner, "demo", forgejo.RegisterRunnerRequest{Name: "repo", Description: "d"})
	if err != nil {
		t.Fatal(err)
	}
	count := func(visible *bool) int {
		t.Helper()
		rs, _, err := c.Actions.ListRepoRunners(ctx, owner, "demo", &forgejo.ActionListRepoRunnersOptions{Visible: visible})
		if err != nil {
			t.Fatal(err)
		}
		return len(rs)
	}
	if own, all := count(nil), count(forgejo.Ptr(true)); own != 1 || all != 3 {
		t.Errorf("repository runners: own %d, visible %d, want 1 and 3", own, all)
	}
	if all, _, err := c.Actions.ListAdminRunners(ctx, nil); err != nil || len(all) != 3 {
		t.Errorf("admin list: %d %v", len(all), err)
	}
	rn, _, err := c.Actions.GetRepoRunner(ctx, owner, "demo", itoa(global.ID))
	if err != nil || rn.Name != "global" || rn.Status != "offline" || rn.OwnerID != 0 || rn.RepoID != 0 {
		t.Errorf("a visible runner through the repository: %+v %v", rn, err)
	}
	if _, err := c.Actions.DeleteRepoRunner(ctx, owner, "demo", itoa(user.ID)); statusOf(t, err) != 404 {
		t.Errorf("delete the owner's runner through the repository: %v", err)
	}
	if resp, err := c.Actions.DeleteRepoRunner(ctx, owner, "demo", itoa(repoRunner.ID)); err != nil || resp.StatusCode != 204 {
		t.Errorf("delete: %v", err)
	}
	if _, _, err := c.Actions.GetRepoRunner(ctx, owner, "demo", itoa(repoRunner.ID)); statusOf(t, err) != 404 {
		t.Errorf("get a deleted runner: %v", err)
	}
	if resp, err := c.Actions.DeleteAdminRunner(ctx, itoa(user.ID)); err != nil || resp.StatusCode != 204 {
		t.Errorf("admin deletes a user's runner: %v", err)
	}
	if _, _, err := other.Actions.ListAdminRunners(ctx, nil); statusOf(t, err) != 403 || messageOf(err) != "user should be the site admin" {
		t.Errorf("admin list by a user: %v", err)
	}
	t1, _, err := c.Actions.GetRepoRegistrationToken(ctx, owner, "demo")
	if err != nil {
		t.Fatal(err)
	}
	t2, _, _ := c.Actions.GetRepoRegistrationToken(ctx, owner, "demo")
	t3, _, _ := c.Actions.GetAdminRegistrationToken(ctx)
	t4, _, _ := c.Actions.GetAdminRegistrationTokenDeprecated(ctx)
	if t1.Token == "" || t1.Token != t2.Token || t3.Token == t1.Token || t3.Token != t4.Token {
		t.Errorf("registration tokens: %q %q %q %q", t1.Token, t2.Token, t3.Token, t4.Token)
	}
	if _, _, err := other.Actions.GetRepoRegistrationToken(ctx, owner, "demo"); statusOf(t, err) != 403 {
		t.Errorf("someone else's token: %v", err)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

const testWorkflow = `name: CI
on:
  workflow_dispatch:
    inputs:
      target:
        description: Where to deploy
        required: true
      level:
        default: "3"
jobs:
  build:
    runs-on: docker
    steps:
      - run: echo "build: ${{ inputs.target }}"
  test:
    name: Unit tests
    runs-on: [docker, linux]
    needs: build
`

func addWorkflow(t *testing.T, c *forgejo.Client, owner, repo, path, content string) {
	t.Helper()
	if _, _, err := c.Repos.CreateFile(context.Background(), owner, repo, path, forgejo.CreateFileRequest{Content: base64.StdEncoding.EncodeToString([]byte(content))}); err != nil {
		t.Fatal(err)
	}
}

// A dispatch reads the workflow file from the ref, refuses a missing one
// (500, as Forgejo 15) and a missing required input (400), and makes a run
// whose jobs wait (or are blocked on needs) until a runner plays them.
func TestActionsDispatchAndRun(t *testing.T) {
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	c, ctx := srv.Client(), context.Background()
	addWorkflow(t, c, owner, "demo", ".forgejo/workflows/ci.yml", testWorkflow)

	_, _, err := c.Actions.DispatchWorkflow(ctx, owner, "demo", "missing.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	if statusOf(t, err) != 500 {
		t.Errorf("missing workflow: %v", err)
	}
	_, _, err = c.Actions.DispatchWorkflow(ctx, owner, "demo", "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	if statusOf(t, err) != 400 || messageOf(err) != "input required for 'Where to deploy'" {
		t.Errorf("missing input: %v", err)
	}
	_, _, err = c.Actions.DispatchWorkflow(ctx, owner, "demo", "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "no-such-branch", Inputs: map[string]string{"target": "x"}})
	if statusOf(t, err) != 500 {
		t.Errorf("missing ref: %v", err)
	}
	_, _, err = c.Actions.DispatchWorkflow(ctx, owner, "demo", "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "refs/heads/nope", Inputs: map[string]string{"target": "x"}})
	if statusOf(t, err) != 404 {
		t.Errorf("a full ref that names nothing: %v", err)
	}
	other := srv.Client(forgejo.WithToken(srv.AddUser("other")))
	_, _, err = other.Actions.DispatchWorkflow(ctx, owner, "demo", "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main", Inputs: map[string]string{"target": "x"}})
	if statusOf(t, err) != 403 {
		t.Errorf("dispatch by a reader: %v", err)
	}
	info, resp, err := c.Actions.DispatchWorkflow(ctx, owner, "demo", "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main", Inputs: map[string]string{"target": "prod"}, ReturnRunInfo: true})
	if err != nil || resp.StatusCode != 201 || info.RunNumber != 1 || !slices.Equal(info.Jobs, []string{"build", "test"}) {
		t.Fatalf("dispatch: %+v %v", info, err)
	}
	if info2, resp, err := c.Actions.DispatchWorkflow(ctx, owner, "demo", "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main", Inputs: map[string]string{"target": "x"}}); err != nil || resp.StatusCode != 204 || info2 != nil {
		t.Errorf("dispatch without run info: %+v %v", info2, err)
	}

	runs, _, err := c.Actions.ListRuns(ctx, owner, "demo", &forgejo.ActionListRunsOptions{Event: []string{"workflow_dispatch"}})
	if err != nil || runs.TotalCount != 2 || runs.WorkflowRuns[0].IndexInRepo != 2 {
		t.Fatalf("runs: %+v %v", runs, err)
	}
	run, _, err := c.Actions.GetRun(ctx, owner, "demo", info.ID)
	if err != nil || run.Title != "CI" || run.Status != "waiting" || run.EventName() != "workflow_dispatch" || run.Event != "" ||
		run.Prettyref != "main" || run.WorkflowID != "ci.yml" || run.TriggerUser == nil || run.TriggerUser.Login != owner || !run.Started.IsZero() && run.Started.Year() != 1970 {
		t.Errorf("run: %+v %v", run, err)
	}
	if _, _, err := c.Actions.ListRuns(ctx, owner, "demo", &forgejo.ActionListRunsOptions{Status: []forgejo.ActionStatus{"bogus"}}); statusOf(t, err) != 400 {
		t.Errorf("unknown status: %v", err)
	}
	jobs, _, err := c.Actions.ListRunJobs(ctx, owner, "demo", info.ID)
	if err != nil || len(jobs) != 2 || jobs[0].Status != "waiting" || jobs[1].Status != "blocked" || jobs[1].Name != "Unit tests" ||
		!slices.Equal(jobs[1].RunsOn, []string{"docker", "linux"}) || !slices.Equal(jobs[1].Needs, []string{"build"}) {
		t.Fatalf("jobs: %+v %v", jobs, err)
	}
	waiting, _, err := c.Actions.ListRepoRunnerJobs(ctx, owner, "demo", &forgejo.ActionListRepoRunnerJobsOptions{Labels: []string{"docker"}})
	if err != nil || len(waiting) != 2 { // build of both runs
		t.Errorf("jobs a docker runner may take: %d %v", len(waiting), err)
	}
	if _, _, err := c.Actions.GetJobLogs(ctx, owner, "demo", jobs[0].ID, nil); statusOf(t, err) != 404 {
		t.Errorf("logs of a job not started: %v", err)
	}
	if _, err := c.Actions.DeleteRun(ctx, owner, "demo", info.ID); statusOf(t, err) != 400 {
		t.Errorf("delete a waiting run: %v", err)
	}

	// A runner takes build: the run runs, the task's token reads the run.
	tok := srv.RunActionJob(owner, "demo", jobs[0].ID, "running", "step 1\n")
	bot := srv.Client(forgejo.WithToken(tok))
	cur, _, err := bot.Actions.GetCurrentRun(ctx)
	if err != nil || cur.ID != info.ID || cur.Status != "running" {
		t.Errorf("current run: %+v %v", cur, err)
	}
	if _, _, err := c.Actions.GetCurrentRun(ctx); statusOf(t, err) != 401 {
		t.Errorf("current run with a user's token: %v", err)
	}
	srv.RunActionJob(owner, "demo", jobs[0].ID, "success", "step 1\nstep 2\n")
	if _, _, err := bot.Actions.GetCurrentRun(ctx); statusOf(t, err) != 401 {
		t.Errorf("a finished task's token: %v", err)
	}
	jobs, _, _ = c.Actions.ListRunJobs(ctx, owner, "demo", info.ID)
	if jobs[0].Status != "success" || jobs[0].Attempt != 1 || jobs[0].TaskID == 0 || jobs[1].Status != "waiting" {
		t.Errorf("after build: %+v %+v", jobs[0], jobs[1])
	}
	srv.RunActionJob(owner, "demo", jobs[1].ID, "failure", "boom\n")
	srv.RunActionJob(owner, "demo", jobs[1].ID, "success", "fine\n") // a second attempt
	log, _, err := c.Actions.GetJobLogs(ctx, owner, "demo", jobs[1].ID, nil)
	if err != nil || log != "fine\n" {
		t.Errorf("latest log: %q %v", log, err)
	}
	if log, _, err = c.Actions.GetJobLogs(ctx, owner, "demo", jobs[1].ID, &forgejo.ActionGetJobLogsOptions{Attempt: 1}); err != nil || log != "boom\n" {
		t.Errorf("first attempt's log: %q %v", log, err)
	}
	run, _, _ = c.Actions.GetRun(ctx, owner, "demo", info.ID)
	if run.Status != "success" || run.Started.Year() == 1970 || run.Stopped.Year() == 1970 {
		t.Errorf("finished run: %s %v %v", run.Status, run.Started, run.Stopped)
	}
	tasks, _, err := c.Actions.ListTasks(ctx, owner, "demo", nil)
	if err != nil || tasks.TotalCount != 3 || tasks.WorkflowRuns[0].Name != "Unit tests" || tasks.WorkflowRuns[0].Status != "success" || tasks.WorkflowRuns[0].RunNumber != 1 {
		t.Errorf("tasks: %+v %v", tasks, err)
	}
	zipped, _, err := c.Actions.GetRunLogs(ctx, owner, "demo", info.ID)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(zipped), int64(len(zipped)))
	if err != nil || len(zr.File) != 2 {
		t.Errorf("run logs: %v", err)
	}

	// Artifacts.
	artID := srv.AddActionArtifact(owner, "demo", info.ID, "dist", []byte("PK-bytes"))
	arts, _, err := c.Actions.ListRunArtifacts(ctx, owner, "demo", info.ID, nil)
	if err != nil || len(arts) != 1 || arts[0].ID != artID || arts[0].SizeInBytes != 8 || !strings.HasSuffix(arts[0].ArchiveDownloadURL, "/zip") {
		t.Errorf("artifacts: %+v %v", arts, err)
	}
	if body, _, err := c.Actions.DownloadArtifact(ctx, owner, "demo", artID); err != nil || string(body) != "PK-bytes" {
		t.Errorf("download: %q %v", body, err)
	}
	if resp, err := c.Actions.DeleteArtifact(ctx, owner, "demo", artID); err != nil || resp.StatusCode != 204 {
		t.Errorf("delete artifact: %v", err)
	}
	if _, _, err := c.Actions.GetArtifact(ctx, owner, "demo", artID); statusOf(t, err) != 404 {
		t.Errorf("deleted artifact: %v", err)
	}

	// Cancel the second run, then delete both.
	if resp, err := c.Actions.CancelRun(ctx, owner, "demo", runs.WorkflowRuns[0].ID); err != nil || resp.StatusCode != 204 {
		t.Errorf("cancel: %v", err)
	}
	if run, _, _ := c.Actions.GetRun(ctx, owner, "demo", runs.WorkflowRuns[0].ID); run.Status != "cancelled" {
		t.Errorf("cancelled run: %s", run.Status)
	}
	for _, id := range []int64{info.ID, runs.WorkflowRuns[0].ID} {
		if resp, err := c.Actions.DeleteRun(ctx, owner, "demo", id); err != nil || resp.StatusCode != 204 {
			t.Errorf("delete run %d: %v", id, err)
		}
	}
	if _, _, err := c.Actions.GetRun(ctx, owner, "demo", info.ID); statusOf(t, err) != 404 {
		t.Errorf("deleted run: %v", err)
	}
}

// A private repository's actions are as missing to someone who may not
// read it; .forgejo/workflows hides .gitea/workflows once it exists; a job
// search that matches nothing answers null, as Forgejo's does.
func TestActionsAccessAndWorkflowDirs(t *testing.T) {
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "secret")
	srv.SetRepo(owner, "secret", "", true, false)
	c, ctx := srv.Client(), context.Background()
	other := srv.Client(forgejo.WithToken(srv.AddUser("other")))
	addWorkflow(t, c, owner, "secret", ".gitea/workflows/old.yml", "jobs:\n  a:\n    runs-on: x\n")
	if _, resp, err := c.Actions.DispatchWorkflow(ctx, owner, "secret", "old.yml", forgejo.DispatchWorkflowRequest{Ref: "main"}); err != nil || resp.StatusCode != 204 {
		t.Fatalf("dispatch from .gitea/workflows: %v", err)
	}
	if _, _, err := other.Actions.ListRuns(ctx, owner, "secret", nil); statusOf(t, err) != 404 {
		t.Errorf("runs of a private repository: %v", err)
	}
	if _, _, err := srv.AnonymousClient().Actions.ListTasks(ctx, owner, "secret", nil); statusOf(t, err) != 404 {
		t.Errorf("tasks of a private repository anonymously: %v", err)
	}
	addWorkflow(t, c, owner, "secret", ".forgejo/workflows/new.yml", "jobs:\n  b:\n    runs-on: x\n")
	if _, _, err := c.Actions.DispatchWorkflow(ctx, owner, "secret", "old.yml", forgejo.DispatchWorkflowRequest{Ref: "main"}); statusOf(t, err) != 500 {
		t.Errorf("old.yml once .forgejo/workflows exists: %v", err)
	}
	if _, _, err := c.Actions.DispatchWorkflow(ctx, owner, "secret", "new.yml", forgejo.DispatchWorkflowRequest{Ref: "main"}); err != nil {
		t.Errorf("new.yml: %v", err)
	}
	jobs, _, err := c.Actions.ListRepoRunnerJobs(ctx, owner, "secret", &forgejo.ActionListRepoRunnerJobsOptions{Labels: []string{"nothing"}})
	if err != nil || jobs != nil {
		t.Errorf("no job matches: %v %v", jobs, err)
	}
	raw, _ := io.ReadAll(mustGet(t, srv, "/repos/"+owner+"/secret/actions/runners/jobs?labels=nothing").Body)
	if string(raw) != "null" {
		t.Errorf("no job matches, raw: %s", raw)
	}
	all, _, err := c.Actions.ListUserRunnerJobs(ctx, nil)
	if err != nil || len(all) != 2 {
		t.Errorf("the owner's waiting jobs: %d %v", len(all), err)
	}
}

// The workflow reader takes what YAML throws at it without panicking.
func TestParseWorkflowOddities(t *testing.T) {
	for _, in := range []string{"", "-", "jobs:", "jobs: []\n", ":\n:", "jobs:\n  - a\n", "jobs:\n  a:\n    needs: [\n", "\"a:b\": c\njobs:\n  x: {}\n", "jobs:\n\t a:\n"} {
		wf, err := parseWorkflow(in)
		if err == nil && len(wf.jobs) == 0 {
			t.Errorf("%q: no jobs and no error", in)
		}
	}
	wf, err := parseWorkflow("run-name: Deploy # comment\non: [push, workflow_dispatch]\njobs:\n  z:\n    runs-on: ['a', \"b\"]\n  a:\n    name: First\n    needs:\n      - z\n")
	if err != nil || wf.runName != "Deploy" || len(wf.jobs) != 2 || wf.jobs[0].name != "First" || !slices.Equal(wf.jobs[0].needs, []string{"z"}) || !slices.Equal(wf.jobs[1].runsOn, []string{"a", "b"}) {
		t.Errorf("parsed %+v %v", wf, err)
	}
}

// Deleting a repository deletes its Actions state with it.
func TestActionsForgottenWithTheRepository(t *testing.T) {
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.SetAdmin(owner, true)
	srv.AddRepo(owner, "gone")
	c, ctx := srv.Client(), context.Background()
	addWorkflow(t, c, owner, "gone", ".forgejo/workflows/ci.yml", "jobs:\n  a:\n    runs-on: x\n")
	info, _, err := c.Actions.DispatchWorkflow(ctx, owner, "gone", "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main", ReturnRunInfo: true})
	if err != nil {
		t.Fatal(err)
	}
	jobs, _, _ := c.Actions.ListRunJobs(ctx, owner, "gone", info.ID)
	tok := srv.RunActionJob(owner, "gone", jobs[0].ID, "running", "")
	if _, _, err := c.Actions.RegisterRepoRunner(ctx, owner, "gone", forgejo.RegisterRunnerRequest{Name: "r"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Repos.Delete(ctx, owner, "gone"); err != nil {
		t.Fatal(err)
	}
	if rs, _, err := c.Actions.ListAdminRunners(ctx, nil); err != nil || len(rs) != 0 {
		t.Errorf("runners after the repository is deleted: %d %v", len(rs), err)
	}
	if js, _, err := c.Actions.ListAdminRunnerJobs(ctx, nil); err != nil || len(js) != 0 {
		t.Errorf("jobs after the repository is deleted: %d %v", len(js), err)
	}
	if _, _, err := srv.Client(forgejo.WithToken(tok)).Actions.GetCurrentRun(ctx); statusOf(t, err) != 401 {
		t.Errorf("a deleted run's task token: %v", err)
	}
}
