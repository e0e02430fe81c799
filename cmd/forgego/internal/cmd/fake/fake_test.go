package fake

import (
	"context"
	"encoding/base64"
	"slices"
	"strings"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"codeberg.org/forgego/forgejo/forgejotest"
)

func TestNewCmdServe(t *testing.T) {
	f, _, stderr := cmdutil.TestFactory("")
	var got *ServeOptions
	err := cmdutil.ExecuteTest(NewCmdServe(f, func(o *ServeOptions) error { got = o; return nil }), "--addr", "127.0.0.1:3000", "--seed", "demo", "--rate-limit", "100/1m")
	if err != nil || got.Addr != "127.0.0.1:3000" || got.Seed != "demo" || got.Quota != 100 || got.Window != time.Minute {
		t.Fatalf("%v %+v", err, got)
	}
	err = cmdutil.ExecuteTest(NewCmdServe(f, func(o *ServeOptions) error { got = o; return nil }), "--addr", "0.0.0.0:0", "--allow-remote", "--rate-limit", "5/30")
	if f.IOStreams.Flush(); err != nil || got.Window != 30*time.Second || !strings.Contains(stderr.String(), "warning: serving on 0.0.0.0:0") {
		t.Fatalf("%v %+v %q", err, got, stderr.String())
	}
	for _, rel := range []string{"15", "15.0", "15.0.3", "11.0.15", "16.0"} {
		err = cmdutil.ExecuteTest(NewCmdServe(f, func(o *ServeOptions) error { got = o; return nil }), "--release", rel)
		if err != nil || got.Release != rel {
			t.Errorf("--release %s: %v %+v", rel, err, got)
		}
	}
	for args, want := range map[string]string{
		"--addr 0.0.0.0:0":     "not a loopback address",
		"--addr nope":          "is not HOST:PORT",
		"--seed full":          "--seed must be demo or empty",
		"--rate-limit 5":       "is not Q/W",
		"--rate-limit 5/500ms": "at least 1s",
		"extra":                "takes no arguments",
		"--release 12.0":       `--release "12.0" is not a known Forgejo release: 11.0, 13.0, 14.0, 15.0, 16.0`,
		"--release 15.0.x":     "is not a known Forgejo release",
	} {
		if err := cmdutil.ExecuteTest(NewCmdServe(f, func(*ServeOptions) error { return nil }), strings.Fields(args)...); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", args, err, want)
		}
	}
}

// TestServeRunnerFlags: --runner and its details parse; the details alone
// are refused.
func TestServeRunnerFlags(t *testing.T) {
	f, _, _ := cmdutil.TestFactory("")
	var got *ServeOptions
	err := cmdutil.ExecuteTest(NewCmdServe(f, func(o *ServeOptions) error { got = o; return nil }),
		"--runner", "--runner-labels", "docker,linux", "--runner-fail-job", "test", "--runner-fail-job", "Unit tests")
	if err != nil || !got.Runner || !slices.Equal(got.RunnerLabels, []string{"docker", "linux"}) || !slices.Equal(got.RunnerFail, []string{"test", "Unit tests"}) {
		t.Fatalf("%v %+v", err, got)
	}
	for args, want := range map[string]string{
		"--runner-fail-job x":           "add --runner",
		"--runner-labels a":             "add --runner",
		"--runner --runner-labels a,,b": "a label is empty",
	} {
		if err := cmdutil.ExecuteTest(NewCmdServe(f, func(*ServeOptions) error { return nil }), strings.Fields(args)...); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", args, err, want)
		}
	}
}

// TestRunner: --runner's runner plays a dispatched run to its end; the job
// named in --runner-fail-job fails, the others pass, and a job whose
// labels it lacks stays waiting.
func TestRunner(t *testing.T) {
	clock := forgejotest.NewFakeClock(time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC))
	srv := forgejotest.NewServer(t, forgejotest.WithClock(clock))
	srv.AttachRunner(Runner([]string{"docker"}, []string{"lint"}))
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "app")
	c, ctx := srv.Client(), context.Background()
	wf := "on: workflow_dispatch\njobs:\n  build:\n    runs-on: docker\n  lint:\n    runs-on: docker\n  mac:\n    runs-on: macos\n"
	if _, _, err := c.Repos.CreateFile(ctx, owner, "app", ".forgejo/workflows/ci.yml", forgejo.CreateFileRequest{Content: base64.StdEncoding.EncodeToString([]byte(wf))}); err != nil {
		t.Fatal(err)
	}
	run, _, err := c.Actions.RunWorkflow(ctx, owner, "app", "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main"})
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	jobs, _, err := c.Actions.ListRunJobs(ctx, owner, "app", run.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range jobs {
		got = append(got, j.Name+":"+string(j.Status))
	}
	if want := []string{"build:success", "lint:failure", "mac:waiting"}; !slices.Equal(got, want) {
		t.Errorf("jobs %v, want %v", got, want)
	}
	lint, _, _ := c.Actions.GetJobLogs(ctx, owner, "app", jobs[1].ID, nil)
	if !strings.Contains(lint, "lint: failed (--runner-fail-job)\n") || strings.Contains(lint, "Job succeeded") {
		t.Errorf("lint's log:\n%s", lint)
	}
}
