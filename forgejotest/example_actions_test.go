package forgejotest_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"time"

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

// exampleRepo makes owner/app with a two-job workflow, .forgejo/workflows/ci.yml:
// build, then test (needs build), both on "docker".
func exampleRepo(srv *forgejotest.Server, c *forgejo.Client) (owner string) {
	owner = srv.DefaultUser()
	srv.AddRepo(owner, "app")
	workflow := "name: CI\non: workflow_dispatch\njobs:\n  build:\n    runs-on: docker\n  test:\n    runs-on: docker\n    needs: build\n"
	_, _, _ = c.Repos.CreateFile(context.Background(), owner, "app", ".forgejo/workflows/ci.yml",
		forgejo.CreateFileRequest{Content: base64.StdEncoding.EncodeToString([]byte(workflow))})
	return owner
}

// A bot that dispatches a workflow and waits for its run. The server has a
// simulated runner and the fake clock moves the time, so the minutes the
// run takes pass at once: WaitRun sleeps on the same clock, and
// AutoAdvance wakes it each time.
func ExampleServer_AttachRunner() {
	clock := forgejotest.NewFakeClock(time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC))
	srv, _ := forgejotest.Start(forgejotest.WithClock(clock))
	defer srv.Close()
	srv.AttachRunner(&forgejotest.Runner{Labels: []string{"docker"}, Script: func(j forgejotest.RunnerJob) forgejotest.JobScript {
		return forgejotest.JobScript{QueueFor: 20 * time.Second, Steps: []forgejotest.StepScript{
			{Name: "make " + j.Name, Duration: 40 * time.Second, Lines: []string{"ok"}},
		}}
	}})
	c := srv.Client(forgejo.WithClock(clock))
	owner := exampleRepo(srv, c)
	ctx := context.Background()
	stop := clock.AutoAdvance(ctx, 0)
	defer stop()

	run, _, err := c.Actions.RunWorkflow(ctx, owner, "app", "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("dispatched run #%d: %s\n", run.IndexInRepo, run.Outcome())
	final, err := c.Actions.WaitRun(ctx, owner, "app", run.ID, &forgejo.WaitRunOptions{
		OnUpdate: func(r *forgejo.ActionRun, jobs []*forgejo.ActionRunJob) {
			for _, j := range jobs {
				fmt.Printf("  %s %s", j.Name, j.Outcome())
			}
			fmt.Println()
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("run #%d %s in %s\n", final.IndexInRepo, final.Outcome(), time.Duration(final.Duration))
	// Output:
	// dispatched run #1: waiting
	//   build waiting  test blocked
	//   build running  test blocked
	//   build success  test waiting
	//   build success  test running
	//   build success  test success
	// run #1 success in 1m40s
}

// A bot that reports why a job failed: it follows the job's log while the
// job runs, each line once, and stops when the job has ended. Runner log
// lines start with their time, as Forgejo's do.
func ExampleServer_AttachRunner_followFailingJob() {
	clock := forgejotest.NewFakeClock(time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC))
	srv, _ := forgejotest.Start(forgejotest.WithClock(clock))
	defer srv.Close()
	srv.AttachRunner(&forgejotest.Runner{Script: func(j forgejotest.RunnerJob) forgejotest.JobScript {
		return forgejotest.JobScript{Steps: []forgejotest.StepScript{
			{Name: "checkout", Duration: 2 * time.Second, Lines: []string{"checked out " + j.Ref}},
			{Name: "go test", Duration: 30 * time.Second, Fail: true, Lines: []string{
				"=== RUN   TestParse", "--- FAIL: TestParse (0.01s)", "FAIL"}},
		}}
	}})
	c := srv.Client(forgejo.WithClock(clock))
	owner := exampleRepo(srv, c)
	ctx := context.Background()
	stop := clock.AutoAdvance(ctx, 0)
	defer stop()

	run, _, err := c.Actions.RunWorkflow(ctx, owner, "app", "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	if err != nil {
		fmt.Println(err)
		return
	}
	jobs, _, _ := c.Actions.ListRunJobs(ctx, owner, "app", run.ID)
	job, err := c.Actions.FollowJobLog(ctx, owner, "app", run.ID, jobs[0].ID, os.Stdout, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("job %s: %s\n", job.Name, job.Outcome())
	// Output:
	// 2026-12-04T09:00:00.0000000Z checked out refs/heads/main
	// 2026-12-04T09:00:02.0000000Z === RUN   TestParse
	// 2026-12-04T09:00:12.0000000Z --- FAIL: TestParse (0.01s)
	// 2026-12-04T09:00:22.0000000Z FAIL
	// job build: failure
}

// A deploy bot that takes the build of the last run that passed: the
// newest successful run, its artifact by name, downloaded as a stream.
// Runs #1 and #3 pass here, #2 fails.
func ExampleServer_AttachRunner_lastGreenArtifact() {
	clock := forgejotest.NewFakeClock(time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC))
	srv, _ := forgejotest.Start(forgejotest.WithClock(clock))
	defer srv.Close()
	srv.AttachRunner(&forgejotest.Runner{Script: func(j forgejotest.RunnerJob) forgejotest.JobScript {
		sc := forgejotest.JobScript{Steps: []forgejotest.StepScript{{Name: "build", Duration: time.Minute, Fail: j.RunNumber == 2}}}
		if j.Key == "build" {
			sc.Artifacts = map[string][]byte{"app": zipOf("app.txt", fmt.Sprintf("build of run #%d\n", j.RunNumber))}
		}
		return sc
	}})
	c := srv.Client()
	owner := exampleRepo(srv, c)
	ctx := context.Background()
	for range 3 {
		if _, _, err := c.Actions.RunWorkflow(ctx, owner, "app", "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main"}); err != nil {
			fmt.Println(err)
			return
		}
	}
	clock.Advance(time.Hour) // all three runs end

	runs, _, err := c.Actions.ListRuns(ctx, owner, "app", &forgejo.ActionListRunsOptions{
		Status: []forgejo.ActionStatus{"success"}, ListOptions: forgejo.ListOptions{Limit: 1}})
	if err != nil || len(runs.WorkflowRuns) == 0 {
		fmt.Println("no green run", err)
		return
	}
	green := runs.WorkflowRuns[0] // the newest first
	art, err := c.Actions.FindRunArtifact(ctx, owner, "app", green.ID, "app")
	if err != nil {
		fmt.Println(err)
		return
	}
	var buf bytes.Buffer
	n, _, err := c.Actions.DownloadArtifactTo(ctx, owner, "app", art.ID, &buf)
	if err != nil {
		fmt.Println(err)
		return
	}
	zr, _ := zip.NewReader(bytes.NewReader(buf.Bytes()), n)
	f, _ := zr.File[0].Open()
	content, _ := io.ReadAll(f)
	fmt.Printf("run #%d, artifact %q (%d bytes): %s", green.IndexInRepo, art.Name, n, content)
	// Output: run #3, artifact "app" (144 bytes): build of run #3
}

// zipOf is a ZIP holding one file, as an artifact download is.
func zipOf(name, content string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
	_, _ = io.WriteString(w, content)
	_ = zw.Close()
	return buf.Bytes()
}
