package forgejotest

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/webhook"
)

var runnerT0 = time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)

// runnerFixture is a server on a FakeClock with testWorkflow in owner/demo.
type runnerFixture struct {
	t     *testing.T
	srv   *Server
	clock *FakeClock
	c     *forgejo.Client
	owner string
}

func newRunnerFixture(t *testing.T, opts ...Option) *runnerFixture {
	t.Helper()
	clock := NewFakeClock(runnerT0)
	srv := NewServer(t, append([]Option{WithClock(clock)}, opts...)...)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	c := srv.Client()
	addWorkflow(t, c, owner, "demo", ".forgejo/workflows/ci.yml", testWorkflow)
	return &runnerFixture{t: t, srv: srv, clock: clock, c: c, owner: owner}
}

func (f *runnerFixture) dispatch() int64 {
	f.t.Helper()
	run, _, err := f.c.Actions.DispatchWorkflow(context.Background(), f.owner, "demo", "ci.yml",
		forgejo.DispatchWorkflowRequest{Ref: "main", Inputs: map[string]string{"target": "prod"}, ReturnRunInfo: true})
	if err != nil {
		f.t.Fatal(err)
	}
	return run.ID
}

// state is "run status; job:status ..." as the API answers it now.
func (f *runnerFixture) state(runID int64) string {
	f.t.Helper()
	ctx := context.Background()
	run, _, err := f.c.Actions.GetRun(ctx, f.owner, "demo", runID)
	if err != nil {
		f.t.Fatal(err)
	}
	jobs, _, err := f.c.Actions.ListRunJobs(ctx, f.owner, "demo", runID)
	if err != nil {
		f.t.Fatal(err)
	}
	out := string(run.Status) + ";"
	for _, j := range jobs {
		out += " " + j.Name + ":" + string(j.Status)
	}
	return out
}

func (f *runnerFixture) jobID(runID int64, name string) int64 {
	f.t.Helper()
	jobs, _, err := f.c.Actions.ListRunJobs(context.Background(), f.owner, "demo", runID)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, j := range jobs {
		if j.Name == name {
			return j.ID
		}
	}
	f.t.Fatalf("no job %q", name)
	return 0
}

// logOf is a job's log as GET answers it (with query q, "" for none), and
// the status.
func (f *runnerFixture) logOf(jobID int64, q string, header ...string) (int, http.Header, string) {
	f.t.Helper()
	req, _ := http.NewRequest("GET", f.srv.URL+"/api/v1/repos/"+f.owner+"/demo/actions/jobs/"+itoa(jobID)+"/logs"+q, nil)
	req.Header.Set("Authorization", "token "+f.srv.Token())
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := f.srv.HTTPClient().Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(body)
}

func stamped(at time.Duration, text string) string {
	return runnerT0.Add(at).Format(LogTimeFormat) + " " + text + "\n"
}

// scriptedRunner: build queues 10s, then "compile" (two lines over 4s) and
// "package" (one line, 2s), and leaves an artifact; "Unit tests" queues 5s
// and fails in its only step ("go test", two lines over 4s).
var scriptedRunner = &Runner{Labels: []string{"docker", "linux"}, Script: func(j RunnerJob) JobScript {
	if j.Key == "build" {
		return JobScript{QueueFor: 10 * time.Second, Artifacts: map[string][]byte{"dist": []byte("PK-binary-for-" + j.Inputs["target"])},
			Steps: []StepScript{
				{Name: "compile", Duration: 4 * time.Second, Lines: []string{"compiling", "compiled"}},
				{Name: "package", Duration: 2 * time.Second, Lines: []string{"packaged"}},
			}}
	}
	return JobScript{QueueFor: 5 * time.Second, Steps: []StepScript{
		{Name: "go test", Duration: 4 * time.Second, Lines: []string{"=== RUN TestX", "--- FAIL: TestX"}, Fail: true},
	}}
}}

// TestRunnerMovesRunOnTheClock: a scripted run goes waiting → running →
// failure exactly as the clock moves; logs grow line by line with their
// times, steps are served alone (?step=N, 1-based), the artifact appears
// when its job ends, and the job that needs the first waits for it.
func TestRunnerMovesRunOnTheClock(t *testing.T) {
	f := newRunnerFixture(t)
	f.srv.AttachRunner(scriptedRunner)
	ctx := context.Background()
	runID := f.dispatch()
	build, tests := f.jobID(runID, "build"), f.jobID(runID, "Unit tests")

	steps := []struct {
		at    time.Duration
		state string
		log   string // build's log
	}{
		{0, "waiting; build:waiting Unit tests:blocked", ""},
		{9 * time.Second, "waiting; build:waiting Unit tests:blocked", ""},
		{10 * time.Second, "running; build:running Unit tests:blocked", stamped(10*time.Second, "compiling")},
		{13 * time.Second, "running; build:running Unit tests:blocked", stamped(10*time.Second, "compiling") + stamped(12*time.Second, "compiled")},
		{16 * time.Second, "waiting; build:success Unit tests:waiting", // Forgejo's aggregate: a waiting job makes the run waiting
			stamped(10*time.Second, "compiling") + stamped(12*time.Second, "compiled") + stamped(14*time.Second, "packaged")},
		{21 * time.Second, "running; build:success Unit tests:running", ""},
		{25 * time.Second, "failure; build:success Unit tests:failure", ""},
	}
	for _, st := range steps {
		f.clock.Set(runnerT0.Add(st.at))
		if got := f.state(runID); got != st.state {
			t.Fatalf("at +%v: %q, want %q", st.at, got, st.state)
		}
		if st.log == "" {
			continue
		}
		if code, _, got := f.logOf(build, ""); code != 200 || got != st.log {
			t.Errorf("at +%v: build log %d %q, want %q", st.at, code, got, st.log)
		}
	}
	if code, _, got := f.logOf(build, "?step=2"); code != 200 || got != stamped(14*time.Second, "packaged") {
		t.Errorf("step 2: %d %q", code, got)
	}
	if code, _, got := f.logOf(build, "?step=1"); code != 200 || got != stamped(10*time.Second, "compiling")+stamped(12*time.Second, "compiled") {
		t.Errorf("step 1: %d %q", code, got)
	}
	for _, q := range []string{"?step=3", "?step=0", "?step=x"} {
		if code, _, _ := f.logOf(build, q); code != 404 {
			t.Errorf("%s: %d, want 404", q, code)
		}
	}
	if code, _, got := f.logOf(tests, ""); code != 200 || got != stamped(21*time.Second, "=== RUN TestX")+stamped(23*time.Second, "--- FAIL: TestX") {
		t.Errorf("tests log: %d %q", code, got)
	}
	run, _, _ := f.c.Actions.GetRun(ctx, f.owner, "demo", runID)
	if !run.Started.Equal(runnerT0.Add(10*time.Second)) || !run.Stopped.Equal(runnerT0.Add(25*time.Second)) || run.Duration.Seconds() != 15 {
		t.Errorf("run times: started %v stopped %v duration %v", run.Started, run.Stopped, run.Duration)
	}
	arts, _, err := f.c.Actions.ListRunArtifacts(ctx, f.owner, "demo", runID, nil)
	if err != nil || len(arts) != 1 || arts[0].Name != "dist" || !arts[0].CreatedAt.Equal(runnerT0.Add(16*time.Second)) {
		t.Fatalf("artifacts: %+v %v", arts, err)
	}
	data, _, err := f.c.Actions.DownloadArtifact(ctx, f.owner, "demo", arts[0].ID)
	if err != nil || string(data) != "PK-binary-for-prod" {
		t.Errorf("artifact: %q %v", data, err)
	}
	// The run's logs: one entry per job, named as the spec says.
	zipped, _, err := f.c.Actions.GetRunLogs(ctx, f.owner, "demo", runID)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(zipped), int64(len(zipped)))
	if err != nil {
		t.Fatal(err)
	}
	var entries []string
	for _, zf := range zr.File {
		rc, _ := zf.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		entries = append(entries, zf.Name+": "+itoa(int64(strings.Count(string(b), "\n"))))
	}
	if want := []string{"build-" + itoa(build) + "-attempt-1.log: 3", "Unit tests-" + itoa(tests) + "-attempt-1.log: 2"}; !slices.Equal(entries, want) {
		t.Errorf("run logs %v, want %v", entries, want)
	}
	// Later moves change nothing.
	f.clock.Advance(time.Hour)
	if got := f.state(runID); got != "failure; build:success Unit tests:failure" {
		t.Errorf("after an hour: %q", got)
	}
}

// TestRunnerSameTimesSameRun: the run depends on the times, not on when or
// how often anyone looked: one jump to the end gives what small steps give.
func TestRunnerSameTimesSameRun(t *testing.T) {
	end := func(stepwise bool) string {
		f := newRunnerFixture(t)
		f.srv.AttachRunner(scriptedRunner)
		runID := f.dispatch()
		if stepwise {
			for range 30 {
				f.clock.Advance(time.Second)
				f.state(runID)
			}
		} else {
			f.clock.Advance(30 * time.Second)
		}
		_, _, a := f.logOf(f.jobID(runID, "build"), "")
		_, _, b := f.logOf(f.jobID(runID, "Unit tests"), "")
		run, _, _ := f.c.Actions.GetRun(context.Background(), f.owner, "demo", runID)
		return f.state(runID) + "\n" + a + b + run.Stopped.String()
	}
	if a, b := end(true), end(false); a != b {
		t.Errorf("stepwise:\n%s\njump:\n%s", a, b)
	}
}

// TestJobLogRange: a job log answers Range as http.ServeContent does.
func TestJobLogRange(t *testing.T) {
	f := newRunnerFixture(t)
	f.srv.AttachRunner(scriptedRunner)
	runID := f.dispatch()
	build := f.jobID(runID, "build")
	if code, _, body := f.logOf(build, ""); code != 404 || !strings.Contains(body, "not started") {
		t.Errorf("before the runner took it: %d %s", code, body)
	}
	f.clock.Advance(30 * time.Second)
	_, h, full := f.logOf(build, "")
	size := itoa(int64(len(full)))
	if h.Get("Accept-Ranges") != "bytes" || !strings.HasPrefix(h.Get("Content-Type"), "text/plain") || h.Get("Content-Length") != size {
		t.Errorf("200 headers: %v", h)
	}
	for _, tc := range []struct {
		rng, status, contentRange, body string
	}{
		{"bytes=10-", "206", "bytes 10-" + itoa(int64(len(full)-1)) + "/" + size, full[10:]},
		{"bytes=0-4", "206", "bytes 0-4/" + size, full[:5]},
		{"bytes=-5", "206", "bytes " + itoa(int64(len(full)-5)) + "-" + itoa(int64(len(full)-1)) + "/" + size, full[len(full)-5:]},
		{"bytes=" + size + "-", "416", "bytes */" + size, ""},
		{"bytes=99999-", "416", "bytes */" + size, ""},
	} {
		code, h, body := f.logOf(build, "", "Range", tc.rng)
		if itoa(int64(code)) != tc.status || h.Get("Content-Range") != tc.contentRange || (tc.status == "206" && body != tc.body) {
			t.Errorf("Range %s: %d %q %q, want %s %q", tc.rng, code, h.Get("Content-Range"), body, tc.status, tc.contentRange)
		}
	}
	// A started job with nothing written yet: 200 empty, with a Range too
	// (http.ServeContent ignores a Range on empty content).
	tests := f.jobID(runID, "Unit tests")
	f.srv.RunActionJob(f.owner, "demo", tests, "running", "")
	if code, _, body := f.logOf(tests, ""); code != 200 || body != "" {
		t.Errorf("empty log: %d %q", code, body)
	}
	if code, h, _ := f.logOf(tests, "", "Range", "bytes=0-"); code != 200 || h.Get("Content-Range") != "" {
		t.Errorf("empty log from 0: %d %q", code, h.Get("Content-Range"))
	}
	// Range applies to a step's own text.
	step2 := stamped(14*time.Second, "packaged")
	if code, h, body := f.logOf(build, "?step=2", "Range", "bytes=5-"); code != 206 || body != step2[5:] ||
		h.Get("Content-Range") != "bytes 5-"+itoa(int64(len(step2)-1))+"/"+itoa(int64(len(step2))) {
		t.Errorf("step 2 from 5: %d %q %q", code, h.Get("Content-Range"), body)
	}
}

// TestJobLogRangeWhileGrowing: a follower reading from its last byte gets
// only what was added, and a 416 while nothing was.
func TestJobLogRangeWhileGrowing(t *testing.T) {
	f := newRunnerFixture(t)
	f.srv.AttachRunner(scriptedRunner)
	runID := f.dispatch()
	build := f.jobID(runID, "build")
	f.clock.Advance(10 * time.Second)
	var got string
	for range 8 {
		code, _, body := f.logOf(build, "", "Range", "bytes="+itoa(int64(len(got)))+"-")
		switch code {
		case 206:
			got += body
		case 416:
		default:
			t.Fatalf("status %d", code)
		}
		f.clock.Advance(time.Second)
	}
	if _, _, full := f.logOf(build, ""); got != full || strings.Count(got, "\n") != 3 {
		t.Errorf("followed %q, log %q", got, full)
	}
}

// TestRunnerNoMatchStaysWaiting: a job no runner serves waits forever;
// attaching one that serves it starts its queue then.
func TestRunnerNoMatchStaysWaiting(t *testing.T) {
	f := newRunnerFixture(t)
	f.srv.AttachRunner(&Runner{Labels: []string{"windows"}})
	runID := f.dispatch()
	f.clock.Advance(24 * time.Hour)
	if got := f.state(runID); got != "waiting; build:waiting Unit tests:blocked" {
		t.Fatalf("after a day: %q", got)
	}
	attached := f.clock.Now()
	f.srv.AttachRunner(&Runner{Labels: []string{"docker", "linux"}, Script: func(RunnerJob) JobScript {
		return JobScript{QueueFor: time.Minute, Steps: []StepScript{{Name: "s", Duration: time.Second}}}
	}})
	f.clock.Set(attached.Add(59 * time.Second))
	if got := f.state(runID); got != "waiting; build:waiting Unit tests:blocked" {
		t.Errorf("before its queue time: %q", got)
	}
	f.clock.Set(attached.Add(2*time.Minute + 2*time.Second))
	if got := f.state(runID); got != "success; build:success Unit tests:success" {
		t.Errorf("after: %q", got)
	}
}

// TestRunnerCancel: cancelling a running run ends its jobs as cancelled;
// the script stops (no more lines), and a job's log keeps what it had.
func TestRunnerCancel(t *testing.T) {
	f := newRunnerFixture(t)
	f.srv.AttachRunner(scriptedRunner)
	runID := f.dispatch()
	build := f.jobID(runID, "build")
	f.clock.Advance(11 * time.Second)
	if _, err := f.c.Actions.CancelRun(context.Background(), f.owner, "demo", runID); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(time.Hour)
	if got := f.state(runID); got != "cancelled; build:cancelled Unit tests:cancelled" {
		t.Errorf("state %q", got)
	}
	if _, _, log := f.logOf(build, ""); log != stamped(10*time.Second, "compiling") {
		t.Errorf("log %q", log)
	}
	if arts, _, _ := f.c.Actions.ListRunArtifacts(context.Background(), f.owner, "demo", runID, nil); len(arts) != 0 {
		t.Errorf("a cancelled job left artifacts: %v", arts)
	}
}

// TestRunnerManualControl: RunActionJob and AppendActionJobLog play a job
// by hand, taking it over from a runner.
func TestRunnerManualControl(t *testing.T) {
	f := newRunnerFixture(t)
	f.srv.AttachRunner(scriptedRunner)
	runID := f.dispatch()
	build := f.jobID(runID, "build")
	f.clock.Advance(10 * time.Second) // the runner took it
	f.srv.RunActionJob(f.owner, "demo", build, "running", "by hand\n")
	f.srv.AppendActionJobLog(f.owner, "demo", build, "more\n")
	f.clock.Advance(time.Minute) // the script would have ended it by now
	if got := f.state(runID); got != "running; build:running Unit tests:blocked" {
		t.Errorf("state %q", got)
	}
	if _, _, log := f.logOf(build, ""); log != "by hand\nmore\n" {
		t.Errorf("log %q", log)
	}
	f.srv.RunActionJob(f.owner, "demo", build, "success", "by hand\nmore\ndone\n")
	f.clock.Advance(5 * time.Second) // the runner takes the next job, queued 5s
	if got := f.state(runID); got != "running; build:success Unit tests:running" {
		t.Errorf("state %q", got)
	}
}

// TestRunnerWebhooks: a run that ends sends action_run_success or
// action_run_failure (cancelled too), and a success after a run that did
// not succeed sends action_run_recover as well, to the repository's hooks,
// signed and shaped so that the webhook package reads them.
func TestRunnerWebhooks(t *testing.T) {
	f := newRunnerFixture(t)
	ctx := context.Background()
	const secret = "runner-secret"
	rc := newReceiver(t, secret)
	_, _, err := f.c.Repos.CreateHook(ctx, f.owner, "demo", forgejo.CreateHookRequest{
		Type: forgejo.HookTypeForgejo, Active: true,
		Config: forgejo.HookConfig{"url": rc.url, "content_type": "json", "secret": secret},
		Events: []string{"action_run_success", "action_run_failure", "action_run_recover"},
	})
	if err != nil {
		t.Fatal(err)
	}
	fail := true
	f.srv.AttachRunner(&Runner{Script: func(RunnerJob) JobScript {
		return JobScript{Steps: []StepScript{{Name: "s", Duration: time.Second, Fail: fail}}}
	}})
	var runs []int64
	for i, want := range [][]string{{"action_run_failure"}, {"action_run_success", "action_run_recover"}, {"action_run_success"}, {"action_run_failure"}} {
		fail = i == 0
		id := f.dispatch()
		runs = append(runs, id)
		if i == 3 {
			if _, err := f.c.Actions.CancelRun(ctx, f.owner, "demo", id); err != nil {
				t.Fatal(err)
			}
		}
		f.clock.Advance(time.Minute) // no request: the clock's move delivers
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		if err := f.srv.WaitDeliveries(wctx); err != nil {
			t.Fatal(err)
		}
		cancel()
		var got []string
		for _, e := range rc.take() {
			ev, ok := e.(*webhook.ActionRunEvent)
			if !ok {
				t.Fatalf("run %d: %T", i, e)
			}
			got = append(got, string(ev.EventType()))
			if ev.Run == nil || ev.Run.ID != id || !statusDone(string(ev.Run.Status)) || ev.Run.Repository == nil || ev.Run.Repository.FullName != f.owner+"/demo" {
				t.Errorf("run %d: payload run %+v", i, ev.Run)
			}
			if i > 0 && (ev.LastRun == nil || ev.LastRun.ID != runs[i-1]) {
				t.Errorf("run %d: last_run %+v", i, ev.LastRun)
			}
			if i == 0 && ev.LastRun != nil {
				t.Errorf("first run: last_run %+v", ev.LastRun)
			}
			if ev.PriorStatus != "running" {
				t.Errorf("run %d: prior_status %q", i, ev.PriorStatus)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("run %d: deliveries %v, want %v", i, got, want)
		}
	}
	ds := f.srv.Deliveries()
	last := ds[len(ds)-1]
	var body map[string]json.RawMessage
	if err := json.Unmarshal(last.Body, &body); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(body))
	for k := range body {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"action", "last_run", "prior_status", "run"}) || last.Header.Get("X-Forgejo-Event-Type") != "action_run_failure" ||
		last.Action != "failure" {
		t.Errorf("last delivery: %v %q %v", keys, last.Header.Get("X-Forgejo-Event-Type"), last.Action)
	}
}

// TestRunnerRelease15: on Forgejo 15 runs move too, the dispatch answers
// 201 with the run (event empty, trigger_event workflow_dispatch), and
// the 16-only routes answer the router's 404.
func TestRunnerRelease15(t *testing.T) {
	f := newRunnerFixture(t, WithRelease("15"))
	f.srv.AttachRunner(&Runner{})
	ctx := context.Background()
	run, resp, err := f.c.Actions.DispatchWorkflow(ctx, f.owner, "demo", "ci.yml",
		forgejo.DispatchWorkflowRequest{Ref: "main", Inputs: map[string]string{"target": "x"}, ReturnRunInfo: true})
	if err != nil || resp.StatusCode != 201 || run.ID == 0 || run.RunNumber != 1 || !slices.Equal(run.Jobs, []string{"build", "test"}) {
		t.Fatalf("dispatch: %+v %v", run, err)
	}
	got, _, err := f.c.Actions.GetRun(ctx, f.owner, "demo", run.ID)
	if err != nil || got.Status != "running" || got.Event != "" || got.TriggerEvent != "workflow_dispatch" {
		t.Fatalf("run: %+v %v", got, err)
	}
	f.clock.Advance(time.Minute)
	if got, _, _ = f.c.Actions.GetRun(ctx, f.owner, "demo", run.ID); got.Status != "success" {
		t.Errorf("after a minute: %s", got.Status)
	}
	for _, path := range []string{"/runs/" + itoa(run.ID) + "/jobs", "/jobs/1/logs", "/runs/" + itoa(run.ID) + "/artifacts", "/runs/" + itoa(run.ID) + "/logs"} {
		resp := mustGet(t, f.srv, "/repos/"+f.owner+"/demo/actions"+path)
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 404 || string(body) != "404 page not found\n" {
			t.Errorf("%s: %d %q", path, resp.StatusCode, body)
		}
	}
}

// TestRunnerWithPollingClient: a client polling on the same FakeClock
// makes progress with AutoAdvance, and the run it sees end is the one the
// script says, at the script's times.
func TestRunnerWithPollingClient(t *testing.T) {
	f := newRunnerFixture(t)
	f.srv.AttachRunner(scriptedRunner)
	runID := f.dispatch()
	c := f.srv.Client(forgejo.WithClock(f.clock))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stop := f.clock.AutoAdvance(ctx, 0)
	defer stop()
	var seen []string
	for {
		run, _, err := c.Actions.GetRun(ctx, f.owner, "demo", runID)
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) == 0 || seen[len(seen)-1] != string(run.Status) {
			seen = append(seen, string(run.Status))
		}
		if statusDone(string(run.Status)) {
			break
		}
		if err := f.clock.Sleep(ctx, 3*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(seen, []string{"waiting", "running", "waiting", "running", "failure"}) || !f.clock.Now().Equal(runnerT0.Add(27*time.Second)) {
		t.Errorf("seen %v, ended at +%v", seen, f.clock.Now().Sub(runnerT0))
	}
}

// TestFakeClockWaiters: BlockUntil sees a sleeper, AdvanceToNext wakes it
// at its end, and with nothing pending it does nothing.
func TestFakeClockWaiters(t *testing.T) {
	c := NewFakeClock(runnerT0)
	if _, ok := c.AdvanceToNext(); ok || c.Pending() != 0 {
		t.Fatal("AdvanceToNext with nothing pending")
	}
	ctx := context.Background()
	done := make(chan error)
	go func() { done <- c.Sleep(ctx, 7*time.Second) }()
	if err := c.BlockUntil(ctx, 1); err != nil {
		t.Fatal(err)
	}
	_, stop := c.Timer(time.Hour)
	if c.Pending() != 2 {
		t.Errorf("pending %d", c.Pending())
	}
	stop()
	if d, ok := c.AdvanceToNext(); !ok || d != 7*time.Second {
		t.Errorf("AdvanceToNext: %v %v", d, ok)
	}
	if err := <-done; err != nil || !c.Now().Equal(runnerT0.Add(7*time.Second)) || c.Pending() != 0 {
		t.Errorf("sleep %v at %v", err, c.Now())
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := c.BlockUntil(cctx, 1); err != context.Canceled {
		t.Errorf("BlockUntil on a done context: %v", err)
	}
	// AutoAdvance with a step moves by steps while someone sleeps.
	stopAuto := c.AutoAdvance(ctx, time.Second)
	if err := c.Sleep(ctx, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	stopAuto()
	if got := c.Now().Sub(runnerT0); got != 12*time.Second {
		t.Errorf("now +%v, want +12s", got)
	}
}

// TestPushStartsRuns: a push to a branch starts the workflows of the
// pushed commit that name push and let the branch through; the runner
// plays them like dispatched ones.
func TestPushStartsRuns(t *testing.T) {
	clock := NewFakeClock(runnerT0)
	srv := NewServer(t, WithClock(clock))
	srv.AttachRunner(&Runner{})
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	c, ctx := srv.Client(), context.Background()
	put := func(path, content, branch, newBranch, msg string) {
		t.Helper()
		_, _, err := c.Repos.CreateFile(ctx, owner, "demo", path, forgejo.CreateFileRequest{
			Content: b64(content), Branch: branch, NewBranch: newBranch, Message: msg})
		if err != nil {
			t.Fatal(err)
		}
	}
	put(".forgejo/workflows/main.yml", "on:\n  push:\n    branches: [main]\njobs:\n  a:\n    runs-on: docker\n", "", "", "Add main's CI\n\nlong text")
	put(".forgejo/workflows/any.yml", "on: [push, pull_request]\njobs:\n  b:\n    runs-on: docker\n", "", "", "Add any")
	put(".forgejo/workflows/tags.yml", "on:\n  push:\n    tags: ['v*']\njobs:\n  c:\n    runs-on: docker\n", "", "", "Add tags")
	put("NOTES.md", "hi", "main", "dev", "On dev")
	clock.Advance(time.Minute)
	list, _, err := c.Actions.ListRuns(ctx, owner, "demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range slices.Backward(list.WorkflowRuns) {
		got = append(got, r.WorkflowID+" "+r.Prettyref+" "+r.Event+"/"+r.TriggerEvent+" "+string(r.Status)+" "+r.Title)
	}
	want := []string{
		"main.yml main push/push success Add main's CI",
		"any.yml main push/push success Add any",
		"main.yml main push/push success Add any",
		"any.yml main push/push success Add tags",
		"main.yml main push/push success Add tags",
		"any.yml dev push/push success On dev",
	}
	if !slices.Equal(got, want) {
		t.Errorf("runs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if list.WorkflowRuns[0].EventPayload == "" || !strings.Contains(list.WorkflowRuns[0].EventPayload, `"ref":"refs/heads/dev"`) {
		t.Errorf("payload %s", list.WorkflowRuns[0].EventPayload)
	}
	pushes, _, _ := c.Actions.ListRuns(ctx, owner, "demo", &forgejo.ActionListRunsOptions{Event: []string{"push"}})
	if pushes.TotalCount != 6 {
		t.Errorf("event=push lists %d", pushes.TotalCount)
	}
}

// BenchmarkJobLogTail: reading the last 64 KiB of a 50 MB job log with
// Range costs about the 64 KiB answered, not the log's size (compare
// B/op with the log).
func BenchmarkJobLogTail(b *testing.B) {
	srv := NewServer(b)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	c := srv.Client()
	if _, _, err := c.Repos.CreateFile(context.Background(), owner, "demo", ".forgejo/workflows/ci.yml",
		forgejo.CreateFileRequest{Content: b64("on: workflow_dispatch\njobs:\n  a:\n    runs-on: docker\n")}); err != nil {
		b.Fatal(err)
	}
	run, _, err := c.Actions.DispatchWorkflow(context.Background(), owner, "demo", "ci.yml", forgejo.DispatchWorkflowRequest{Ref: "main", ReturnRunInfo: true})
	if err != nil {
		b.Fatal(err)
	}
	jobs, _, _ := c.Actions.ListRunJobs(context.Background(), owner, "demo", run.ID)
	job := jobs[0].ID
	srv.RunActionJob(owner, "demo", job, "running", "")
	chunk := strings.Repeat(strings.Repeat("x", 99)+"\n", 10_000) // 1 MB
	for range 50 {
		srv.AppendActionJobLog(owner, "demo", job, chunk)
	}
	size := 50 * len(chunk)
	req, _ := http.NewRequest("GET", srv.URL+"/api/v1/repos/"+owner+"/demo/actions/jobs/"+itoa(job)+"/logs", nil)
	req.Header.Set("Authorization", "token "+srv.Token())
	req.Header.Set("Range", "bytes="+itoa(int64(size-64<<10))+"-")
	hc := srv.HTTPClient()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 206 || n != 64<<10 {
			b.Fatalf("%d, %d bytes", resp.StatusCode, n)
		}
	}
}

// TestRunnerListed: an attached runner is one of the instance's runners,
// online with its labels: idle, then active while it runs a job.
func TestRunnerListed(t *testing.T) {
	f := newRunnerFixture(t)
	f.srv.SetAdmin(f.owner, true)
	f.srv.AttachRunner(&Runner{Name: "ci-1", Labels: []string{"docker", "linux"}})
	ctx := context.Background()
	status := func() string {
		t.Helper()
		list, _, err := f.c.Actions.ListAdminRunners(ctx, nil)
		if err != nil || len(list) != 1 {
			t.Fatalf("runners %v %v", list, err)
		}
		rn := list[0]
		if rn.Name != "ci-1" || !slices.Equal(rn.Labels, []string{"docker", "linux"}) || rn.Version == "" || rn.RepoID != 0 || rn.OwnerID != 0 {
			t.Errorf("runner %+v", rn)
		}
		return string(rn.Status)
	}
	if got := status(); got != "idle" {
		t.Errorf("before: %s", got)
	}
	runID := f.dispatch()
	if got := status(); got != "active" {
		t.Errorf("running: %s (%s)", got, f.state(runID))
	}
	f.clock.Advance(time.Hour)
	if got := status(); got != "idle" {
		t.Errorf("after: %s (%s)", got, f.state(runID))
	}
	visible := true
	if list, _, err := f.c.Actions.ListRepoRunners(ctx, f.owner, "demo", &forgejo.ActionListRepoRunnersOptions{Visible: &visible}); err != nil || len(list) != 1 {
		t.Errorf("visible from the repository: %v %v", list, err)
	}
}
