package forgejo_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"time"

	"codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

// A bot dispatches a workflow, waits for its run without hanging on a
// queue no runner serves, and prints the log of its job. (Here a fake
// Forgejo plays the server, and the test plays the runner.)
func ExampleActionsService_FollowJobLog() {
	srv, _ := forgejotest.Start()
	defer srv.Close()
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "app")
	c, ctx := srv.Client(), context.Background()
	workflow := "on: workflow_dispatch\njobs:\n  test:\n    runs-on: docker\n"
	_, _, _ = c.Repos.CreateFile(ctx, owner, "app", ".forgejo/workflows/ci.yml",
		forgejo.CreateFileRequest{Content: base64.StdEncoding.EncodeToString([]byte(workflow))})

	run, _, err := c.Actions.RunWorkflow(ctx, owner, "app", "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	if err != nil {
		fmt.Println(err)
		return
	}
	jobs, _, _ := c.Actions.ListRunJobs(ctx, owner, "app", run.ID)
	srv.RunActionJob(owner, "app", jobs[0].ID, "failure", "go test ./...\nFAIL: TestParse\n") // the runner

	run, err = c.Actions.WaitRun(ctx, owner, "app", run.ID, &forgejo.WaitRunOptions{QueueLimit: 10 * time.Minute})
	var queued *forgejo.RunQueuedError
	if errors.As(err, &queued) {
		fmt.Printf("no runner took run %d in %s\n", queued.Run.ID, queued.Waited)
		return
	} else if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("run #%d: %s\n", run.IndexInRepo, run.Outcome())
	job, err := c.Actions.FollowJobLog(ctx, owner, "app", run.ID, jobs[0].ID, os.Stdout, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("job %s: %s\n", job.Name, job.Outcome())
	// Output:
	// run #1: failure
	// go test ./...
	// FAIL: TestParse
	// job test: failure
}
