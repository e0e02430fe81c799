package forgejotest_test

import (
	"context"
	"encoding/base64"
	"fmt"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

// A CI bot's view of a workflow run: dispatch it, let a runner (played by
// the test) finish its job, read the outcome and the log.
func ExampleServer_RunActionJob() {
	srv, _ := forgejotest.Start()
	defer srv.Close()
	owner := srv.DefaultUser() // the client's user may write to their own repository
	srv.AddRepo(owner, "app")
	c, ctx := srv.Client(), context.Background()
	workflow := "name: CI\non: workflow_dispatch\njobs:\n  test:\n    runs-on: docker\n"
	_, _, _ = c.Repos.CreateFile(ctx, owner, "app", ".forgejo/workflows/ci.yml",
		forgejo.CreateFileRequest{Content: base64.StdEncoding.EncodeToString([]byte(workflow))})

	run, _, err := c.Actions.DispatchWorkflow(ctx, owner, "app", "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main", ReturnRunInfo: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	jobs, _, _ := c.Actions.ListRunJobs(ctx, owner, "app", run.ID)
	srv.RunActionJob(owner, "app", jobs[0].ID, "success", "ok: 12 tests\n")

	got, _, _ := c.Actions.GetRun(ctx, owner, "app", run.ID)
	log, _, _ := c.Actions.GetJobLogs(ctx, owner, "app", jobs[0].ID, nil)
	fmt.Printf("run #%d %s: %s", got.IndexInRepo, got.Status, log)
	// Output: run #1 success: ok: 12 tests
}
