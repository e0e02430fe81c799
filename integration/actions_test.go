package integration

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// TestActions runs what the real server serves of the Actions helpers:
// RunWorkflow (Gitea answers the dispatch 204 without the run, so the run
// is found in the listing by the documented rule; Forgejo names it), the
// runs listed and read, WaitRun on a run no runner takes (the server has
// none: it stays queued, which WaitRun reports as such, by its QueueLimit
// and by the context), and a repository's secrets and variables.
func TestActions(t *testing.T) {
	c := client(t, need(t).adminToken)
	owner, repo := need(t).admin, newRepo(t, c)
	putFile(t, c, owner, repo, ".gitea/workflows/deploy.yml",
		"on:\n  workflow_dispatch:\n    inputs:\n      target:\n        default: staging\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo deploying to ${{ inputs.target }}\n", "")
	putFile(t, c, owner, repo, ".gitea/workflows/lint.yml",
		"on: workflow_dispatch\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo lint\n", "")

	var first *forgejo.ActionRun
	t.Run("dispatch and find the run", func(t *testing.T) {
		run, resp, err := c.Actions.RunWorkflow(ctx(t), owner, repo, "deploy.yml",
			forgejo.DispatchWorkflowRequest{Ref: "main", Inputs: map[string]string{"target": "production"}})
		if err != nil {
			t.Fatalf("RunWorkflow: %v", err)
		}
		// Gitea: 204, the run found in the listing; Forgejo: 201 with it.
		if st := status(resp); st != http.StatusNoContent && st != http.StatusCreated {
			t.Fatalf("dispatch answered %d", st)
		}
		if run.ID <= 0 || run.EventName() != "workflow_dispatch" {
			t.Fatalf("run = %+v", run)
		}
		// The run names its workflow and ref: Forgejo in WorkflowID and
		// Prettyref, Gitea together in Path. Nothing has ended it, so its
		// Outcome is its Status.
		if run.WorkflowID != "deploy.yml" && run.Path != "deploy.yml@refs/heads/main" {
			t.Fatalf("run names workflow %q, path %q", run.WorkflowID, run.Path)
		}
		if run.Outcome() != run.Status || run.Status.Done() {
			t.Fatalf("a run no runner took: status %q, conclusion %q", run.Status, run.Conclusion)
		}
		got, _, err := c.Actions.GetRun(ctx(t), owner, repo, run.ID)
		if err != nil || got.ID != run.ID || got.EventName() != "workflow_dispatch" {
			t.Fatalf("GetRun(%d) = %+v, %v", run.ID, got, err)
		}
		first = run

		// A second dispatch, of another workflow, then of the first again:
		// each finds its own run, the newest.
		lint, _, err := c.Actions.RunWorkflow(ctx(t), owner, repo, "lint.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
		if err != nil || lint.ID <= run.ID {
			t.Fatalf("second RunWorkflow = %+v, %v (first run %d)", lint, err, run.ID)
		}
		again, _, err := c.Actions.RunWorkflow(ctx(t), owner, repo, "deploy.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
		if err != nil || again.ID <= lint.ID {
			t.Fatalf("third RunWorkflow = %+v, %v (second run %d)", again, err, lint.ID)
		}

		list, _, err := c.Actions.ListRuns(ctx(t), owner, repo, &forgejo.ActionListRunsOptions{Event: []string{"workflow_dispatch"}})
		if err != nil || list.TotalCount != 3 || len(list.WorkflowRuns) != 3 {
			t.Fatalf("runs = %+v, %v", list, err)
		}
		ids := map[int64]bool{}
		for _, r := range list.WorkflowRuns {
			ids[r.ID] = true
		}
		if !ids[run.ID] || !ids[lint.ID] || !ids[again.ID] {
			t.Fatalf("listed %v, dispatched %d, %d, %d", ids, run.ID, lint.ID, again.ID)
		}
		var n int
		for r, err := range c.Actions.ListRunsIter(ctx(t), owner, repo, &forgejo.ActionListRunsOptions{ListOptions: forgejo.ListOptions{Limit: 1}}) {
			if err != nil {
				t.Fatal(err)
			}
			if !ids[r.ID] {
				t.Fatalf("walked an unknown run %d", r.ID)
			}
			n++
		}
		if n != 3 {
			t.Fatalf("walked %d runs, want 3", n)
		}
	})

	t.Run("wait without a runner", func(t *testing.T) {
		if first == nil {
			t.Fatal("no run dispatched")
		}
		// No runner: the run stays queued. WaitRun says so once the queue
		// limit passes, with the time it was seen waiting; a runner that
		// did pick it up would make it end instead, also a valid outcome.
		start := time.Now()
		run, err := c.Actions.WaitRun(ctx(t), owner, repo, first.ID, &forgejo.WaitRunOptions{
			Interval: 200 * time.Millisecond, MaxInterval: 500 * time.Millisecond, QueueLimit: 1500 * time.Millisecond})
		var q *forgejo.RunQueuedError
		switch {
		case errors.As(err, &q):
			if !errors.Is(err, forgejo.ErrRunQueued) || q.Run == nil || q.Run.ID != first.ID || q.Waited < 1500*time.Millisecond || q.Err != nil {
				t.Fatalf("queued = %+v", q)
			}
			if elapsed := time.Since(start); elapsed < q.Waited {
				t.Fatalf("waited %s by its account, %s by the clock", q.Waited, elapsed)
			}
		case err == nil && run != nil && run.ID == first.ID:
			t.Logf("run %d ended %s: a runner took it", run.ID, run.Status)
		default:
			t.Fatalf("WaitRun = %+v, %v", run, err)
		}

		// The context ends first: the error is the context's and
		// ErrRunQueued both.
		wctx, cancel := context.WithTimeout(ctx(t), time.Second)
		defer cancel()
		_, err = c.Actions.WaitRun(wctx, owner, repo, first.ID, &forgejo.WaitRunOptions{Interval: 200 * time.Millisecond})
		if err != nil && !(errors.Is(err, context.DeadlineExceeded) && errors.Is(err, forgejo.ErrRunQueued)) {
			t.Fatalf("WaitRun to the deadline: %v, want DeadlineExceeded and ErrRunQueued", err)
		}
	})

	t.Run("secrets", func(t *testing.T) {
		resp, err := c.Actions.SetRepoSecret(ctx(t), owner, repo, "DEPLOY_KEY", forgejo.CreateOrUpdateSecretRequest{Data: "first-value"})
		if err != nil || status(resp) != http.StatusCreated {
			t.Fatalf("create secret: %d, %v", status(resp), err)
		}
		resp, err = c.Actions.SetRepoSecret(ctx(t), owner, repo, "DEPLOY_KEY", forgejo.CreateOrUpdateSecretRequest{Data: "second-value"})
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("update secret: %d, %v", status(resp), err)
		}
		_, err = c.Actions.SetRepoSecret(ctx(t), owner, repo, "OTHER", forgejo.CreateOrUpdateSecretRequest{Data: "x"})
		ok(t, "second secret", err)
		secrets, _, err := c.Actions.ListRepoSecrets(ctx(t), owner, repo, nil)
		if err != nil || len(secrets) != 2 {
			t.Fatalf("secrets = %v, %v", secrets, err)
		}
		names := map[string]bool{}
		for _, s := range secrets {
			names[s.Name] = true
		}
		if !names["DEPLOY_KEY"] || !names["OTHER"] {
			t.Fatalf("secret names %v", names)
		}
		for _, name := range []string{"DEPLOY_KEY", "OTHER"} {
			resp, err = c.Actions.DeleteRepoSecret(ctx(t), owner, repo, name)
			if err != nil || status(resp) != http.StatusNoContent {
				t.Fatalf("delete secret %s: %d, %v", name, status(resp), err)
			}
		}
		if secrets, _, err = c.Actions.ListRepoSecrets(ctx(t), owner, repo, nil); err != nil || len(secrets) != 0 {
			t.Fatalf("secrets after delete = %v, %v", secrets, err)
		}
		_, err = c.Actions.DeleteRepoSecret(ctx(t), owner, repo, "DEPLOY_KEY")
		mustStatus(t, err, http.StatusNotFound)
	})

	t.Run("variables", func(t *testing.T) {
		// 201 on Gitea, 204 on Forgejo 15.
		resp, err := c.Actions.CreateRepoVariable(ctx(t), owner, repo, "REGION", forgejo.CreateVariableRequest{Value: "eu-west"})
		if err != nil || (status(resp) != http.StatusCreated && status(resp) != http.StatusNoContent) {
			t.Fatalf("create variable: %d, %v", status(resp), err)
		}
		v, _, err := c.Actions.GetRepoVariable(ctx(t), owner, repo, "REGION")
		if err != nil || v.Name != "REGION" || v.Data != "eu-west" {
			t.Fatalf("variable = %+v, %v", v, err)
		}
		_, err = c.Actions.UpdateRepoVariable(ctx(t), owner, repo, "REGION", forgejo.UpdateVariableRequest{Value: "us-east", Name: "AWS_REGION"})
		ok(t, "update variable", err)
		_, _, err = c.Actions.GetRepoVariable(ctx(t), owner, repo, "REGION")
		mustStatus(t, err, http.StatusNotFound)
		_, err = c.Actions.CreateRepoVariable(ctx(t), owner, repo, "TIER", forgejo.CreateVariableRequest{Value: "gold"})
		ok(t, "second variable", err)
		vars, _, err := c.Actions.ListRepoVariables(ctx(t), owner, repo, nil)
		if err != nil || len(vars) != 2 {
			t.Fatalf("variables = %v, %v", vars, err)
		}
		byName := map[string]string{}
		for _, v := range vars {
			byName[v.Name] = v.Data
		}
		if byName["AWS_REGION"] != "us-east" || byName["TIER"] != "gold" {
			t.Fatalf("variables %v", byName)
		}
		_, err = c.Actions.CreateRepoVariable(ctx(t), owner, repo, "TIER", forgejo.CreateVariableRequest{Value: "again"})
		mustStatus(t, err, http.StatusConflict)
		for _, name := range []string{"AWS_REGION", "TIER"} {
			_, err = c.Actions.DeleteRepoVariable(ctx(t), owner, repo, name)
			ok(t, "delete variable "+name, err)
		}
		if vars, _, err = c.Actions.ListRepoVariables(ctx(t), owner, repo, nil); err != nil || len(vars) != 0 {
			t.Fatalf("variables after delete = %v, %v", vars, err)
		}
	})
}
