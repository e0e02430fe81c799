package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
	"github.com/creack/pty"
)

// The Forgejo Actions commands (run, workflow, secret, variable) against
// the fake, whose runs a test moves by playing the runner's part
// (RunActionJob).

const ciWorkflow = `name: CI
on:
  workflow_dispatch:
    inputs:
      target:
        description: Where to deploy
        required: true
jobs:
  build:
    runs-on: docker
    steps:
      - run: make
  test:
    name: Unit tests
    runs-on: [docker, linux]
    needs: build
`

const lintWorkflow = `name: "Lint"  # quoted
on: [push, workflow_dispatch]
jobs:
  lint:
    runs-on: docker
`

// actionsRepo seeds alice/proj with two workflows in .forgejo/workflows
// and a README beside them that is no workflow. The push of lint.yaml, a
// push workflow, starts run 1 (its job waits: no runner); the dispatches
// of a test are runs 2 and on.
func actionsRepo(t *testing.T, srv *forgejotest.Server) *forgejo.Client {
	t.Helper()
	c := srv.Client(forgejo.WithToken(srv.AddUser("alice")))
	for _, f := range []struct{ path, content string }{
		{".forgejo/workflows/ci.yml", ciWorkflow},
		{".forgejo/workflows/README.md", "not a workflow\n"},
		{".forgejo/workflows/lint.yaml", lintWorkflow}, // its push starts run 1
	} {
		if _, _, err := c.Repos.CreateFile(context.Background(), "alice", "proj", f.path, forgejo.CreateFileRequest{Content: base64.StdEncoding.EncodeToString([]byte(f.content))}); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// jobsOf returns the ids of a run's jobs, in the workflow's order.
func jobsOf(t *testing.T, c *forgejo.Client, runID int64) []int64 {
	t.Helper()
	jobs, _, err := c.Actions.ListRunJobs(context.Background(), "alice", "proj", runID)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, j := range jobs {
		ids = append(ids, j.ID)
	}
	return ids
}

func zipOf(t *testing.T, name, content string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.Create(name)
	w.Write([]byte(content))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestActionsTranscript is a session of the Actions commands: dispatch,
// list, view with the logs of a failing job, --exit-status, download,
// cancel, delete, then secrets and variables; compared with
// testdata/actions_transcript.txt (go test -run TestActionsTranscript
// -update after a deliberate change).
func TestActionsTranscript(t *testing.T) {
	clock := forgejotest.NewFakeClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	srv, env := setup(t, forgejotest.WithClock(clock))
	c := actionsRepo(t, srv)
	env["FORGEJO_TOKEN"] = srv.AddUser("alice")
	tmp := t.TempDir()
	notes := filepath.Join(tmp, "target.txt")
	os.WriteFile(notes, []byte("staging\n"), 0o644)
	const secretValue = "s3cr3t-deploy-key-value"

	var run2Jobs []int64
	steps := []struct {
		before func()
		stdin  string
		args   []string
	}{
		{nil, "", []string{"workflow", "list", "-R", "alice/proj"}},
		{nil, "", []string{"workflow", "list", "-R", "alice/proj", "--json", "file,name,path"}},
		{nil, "", []string{"workflow", "view", "ci.yml", "-R", "alice/proj", "--yaml"}},
		{nil, "", []string{"workflow", "view", "nope", "-R", "alice/proj"}},
		{nil, "", []string{"workflow", "run", "ci.yml", "-R", "alice/proj"}},
		{nil, "", []string{"workflow", "run", "ci.yml", "-R", "alice/proj", "-f", "target=prod"}},
		{nil, "", []string{"workflow", "run", "CI", "-R", "alice/proj", "-F", "target=@" + notes, "--json", "id,status,event,workflow_id,prettyref"}},
		{nil, "", []string{"workflow", "run", "lint", "-R", "alice/proj", "--ref", "main", "-f", "a", "-f", "b=1"}},
		{nil, "", []string{"workflow", "view", "CI", "-R", "alice/proj"}},
		{nil, "", []string{"run", "list", "-R", "alice/proj"}},
		{nil, "", []string{"run", "list", "-R", "alice/proj", "--status", "nope"}},
		{func() {
			clock.Advance(10 * time.Second)
			run2Jobs = jobsOf(t, c, 2)
			srv.RunActionJob("alice", "proj", run2Jobs[0], "running", "make\n")
			clock.Advance(42 * time.Second)
			srv.RunActionJob("alice", "proj", run2Jobs[0], "success", "make\nok\n")
			srv.RunActionJob("alice", "proj", run2Jobs[1], "running", "go test ./...\n")
			clock.Advance(7 * time.Second)
			srv.RunActionJob("alice", "proj", run2Jobs[1], "failure", "go test ./...\n--- FAIL: TestDeploy\nFAIL")
			srv.AddActionArtifact("alice", "proj", 2, "dist", zipOf(t, "app", "binary"))
			srv.AddActionArtifact("alice", "proj", 2, "coverage", zipOf(t, "cover.out", "mode: set"))
		}, "", []string{"run", "list", "-R", "alice/proj", "--status", "failure", "--json", "id,status,event,workflow_id,title,duration"}},
		{nil, "", []string{"run", "view", "2", "-R", "alice/proj"}},
		{nil, "", []string{"run", "view", "2", "-R", "alice/proj", "--log"}},
		{nil, "", []string{"run", "view", "2", "-R", "alice/proj", "--log-failed"}},
		{nil, "", []string{"run", "view", "2", "-R", "alice/proj", "--exit-status"}},
		{nil, "", []string{"run", "view", "3", "-R", "alice/proj", "--exit-status", "--log"}},
		{nil, "", []string{"run", "view", "2", "-R", "alice/proj", "--json", "id,status,jobs", "--jq", `.jobs[] | "\(.name) \(.status)"`}},
		{nil, "", []string{"run", "view", "2", "-R", "alice/proj", "--job", "2", "--log"}},
		{nil, "", []string{"run", "view", "2", "-R", "alice/proj", "--job", "1"}},
		{nil, "", []string{"run", "list", "-R", "alice/proj", "--workflow", "lint.yaml", "--event", "push", "--json", "id,event,title"}},
		{nil, "", []string{"run", "view", "100", "-R", "alice/proj"}},
		{nil, "", []string{"run", "download", "2", "-R", "alice/proj", "-D", tmp, "-n", "dist"}},
		{nil, "", []string{"run", "download", "2", "-R", "alice/proj", "-D", tmp}},
		{nil, "", []string{"run", "download", "2", "-R", "alice/proj", "-D", tmp, "--clobber", "-p", "cov*"}},
		{nil, "", []string{"run", "download", "2", "-R", "alice/proj", "-D", tmp, "-n", "missing"}},
		{nil, "", []string{"run", "cancel", "2", "-R", "alice/proj"}},
		{nil, "", []string{"run", "cancel", "3", "-R", "alice/proj"}},
		{nil, "", []string{"run", "delete", "2", "-R", "alice/proj"}},
		{nil, "", []string{"run", "view", "2", "-R", "alice/proj"}},
		{nil, "", []string{"run", "list", "-R", "alice/proj", "-L", "1"}},
		{nil, secretValue + "\n", []string{"secret", "set", "DEPLOY_KEY", "-R", "alice/proj"}},
		{nil, secretValue + "2\n", []string{"secret", "set", "DEPLOY_KEY", "-R", "alice/proj"}},
		{nil, "", []string{"secret", "set", "TOKEN", "-R", "alice/proj", "--body", "another-value"}},
		{nil, "", []string{"secret", "set", "EMPTY", "-R", "alice/proj"}},
		{nil, "", []string{"secret", "set", "-R", "alice/proj", "DEPLOY_KEY", secretValue}},
		{nil, "", []string{"secret", "list", "-R", "alice/proj"}},
		{nil, "", []string{"secret", "list", "-R", "alice/proj", "--json", "name"}},
		{nil, "", []string{"secret", "list", "--user"}},
		{nil, "", []string{"secret", "delete", "TOKEN", "-R", "alice/proj"}},
		{nil, "", []string{"secret", "delete", "TOKEN", "-R", "alice/proj"}},
		{nil, "", []string{"variable", "set", "DEPLOY_ENV", "-R", "alice/proj", "--body", "staging"}},
		{nil, "production\n", []string{"variable", "set", "DEPLOY_ENV", "-R", "alice/proj"}},
		{nil, "", []string{"variable", "set", "REGION", "--user", "--body", "eu"}},
		{nil, "", []string{"variable", "get", "DEPLOY_ENV", "-R", "alice/proj"}},
		{nil, "", []string{"variable", "list", "-R", "alice/proj"}},
		{nil, "", []string{"variable", "list", "--user", "--json", "name,value"}},
		{nil, "", []string{"variable", "delete", "DEPLOY_ENV", "-R", "alice/proj"}},
		{nil, "", []string{"variable", "get", "DEPLOY_ENV", "-R", "alice/proj"}},
		{nil, "", []string{"variable", "list", "-R", "alice/proj", "--org", "acme"}},
	}
	var b strings.Builder
	for _, st := range steps {
		if st.before != nil {
			st.before()
		}
		r := cliWith(t, env, func(a *app) { a.stdin = strings.NewReader(st.stdin) }, st.args...)
		fmt.Fprintf(&b, "$ forgego %s\nexit %d\n", quoteArgs(st.args), r.code)
		for _, s := range []struct{ name, text string }{{"stdout", r.stdout}, {"stderr", r.stderr}} {
			if s.text == "" {
				continue
			}
			fmt.Fprintf(&b, "--- %s\n%s", s.name, s.text)
			if !strings.HasSuffix(s.text, "\n") {
				b.WriteString("\n")
			}
		}
		b.WriteString("\n")
		if out := r.stdout + r.stderr; strings.Contains(out, srv.Token()) || strings.Contains(out, secretValue) {
			t.Errorf("%v printed the token or the secret:\n%s", st.args, out)
		}
	}
	for _, f := range []string{"dist.zip", "coverage.zip"} {
		if data, err := os.ReadFile(filepath.Join(tmp, f)); err != nil || !bytes.HasPrefix(data, []byte("PK")) {
			t.Errorf("%s: %v %q", f, err, data)
		}
	}
	compareGolden(t, "actions_transcript.txt", normalize(b.String(), srv.URL, tmp))
}

// compareGolden compares got with testdata/name, or rewrites it with -update.
func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update)", err, t.Name())
	}
	if got == string(want) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		g, w := "", ""
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("%s differs at line %d:\ngot  %q\nwant %q\n(run go test -run %s -update after a deliberate change)", name, i+1, g, w, t.Name())
		}
	}
}

// On Forgejo 15 LTS, which lists and dispatches runs but serves jobs, logs,
// artifacts, cancel and delete only from 16: the commands that need them
// fail with one line naming the release that serves them (exit 1), and run
// view shows the run without its jobs.
func TestActionsOnForgejo15(t *testing.T) {
	srv, env := setup(t, forgejotest.WithRelease("15"))
	actionsRepo(t, srv)
	env["FORGEJO_TOKEN"] = srv.AddUser("alice")
	cli(t, env, "workflow", "run", "ci.yml", "-R", "alice/proj", "-f", "target=x").want(t, 0)

	r := cli(t, env, "run", "view", "2", "-R", "alice/proj")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "  status        waiting\n") || strings.Contains(r.stdout, "JOBS") ||
		!strings.Contains(r.stderr, "no jobs shown: ") || !strings.Contains(r.stderr, "Forgejo 16.0 or later") {
		t.Errorf("run view on 15:\nstdout %s\nstderr %s", r.stdout, r.stderr)
	}
	for _, args := range [][]string{
		{"run", "view", "2", "-R", "alice/proj", "--log"},
		{"run", "view", "2", "-R", "alice/proj", "--log-failed"},
		{"run", "cancel", "2", "-R", "alice/proj"},
		{"run", "download", "2", "-R", "alice/proj", "-D", t.TempDir()},
		{"run", "delete", "2", "-R", "alice/proj"},
	} {
		r := cli(t, env, args...)
		r.want(t, 1)
		if r.stdout != "" || len(lines(r.stderr)) != 1 || !strings.HasPrefix(r.stderr, "forgego: the server does not serve Actions.") ||
			!strings.Contains(r.stderr, "it needs Forgejo 16.0 or later") {
			t.Errorf("%v: want one line naming Forgejo 16, got stdout %q stderr %q", args, r.stdout, r.stderr)
		}
	}
	// What 15 serves works: the listing, secrets, variables.
	cli(t, env, "run", "list", "-R", "alice/proj").want(t, 0)
	cli(t, env, "secret", "set", "K", "-R", "alice/proj", "--body", "value").want(t, 0)
	cli(t, env, "variable", "list", "-R", "alice/proj").want(t, 0)
}

// sleepSignal is a fake clock that says when the client starts to wait:
// the test then moves the run and the time, with no real sleep.
type sleepSignal struct {
	*forgejotest.FakeClock
	sleeping chan time.Duration
}

// Sleep sets its timer before it signals, so that the time the test moves
// next is after the timer was set.
func (c *sleepSignal) Sleep(ctx context.Context, d time.Duration) error {
	t, stop := c.Timer(d)
	defer stop()
	c.sleeping <- d
	select {
	case <-t:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// run watch on a pipe prints a line per change, polling on the client's
// clock at --interval; --exit-status makes a failed run exit 1.
func TestRunWatchPiped(t *testing.T) {
	fake := forgejotest.NewFakeClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	clock := &sleepSignal{FakeClock: fake, sleeping: make(chan time.Duration)}
	srv, env := setup(t, forgejotest.WithClock(fake))
	c := actionsRepo(t, srv)
	env["FORGEJO_TOKEN"] = srv.AddUser("alice")
	cli(t, env, "workflow", "run", "ci.yml", "-R", "alice/proj", "-f", "target=x").want(t, 0)
	jobs := jobsOf(t, c, 2)

	done := make(chan result, 1)
	go func() {
		done <- cliWith(t, env, func(a *app) { a.clock = clock }, "run", "watch", "2", "-R", "alice/proj", "--interval", "5", "--exit-status")
	}()
	// Each step: the watch waits; the runner moves; the time passes.
	moves := []func(){
		func() {}, // nothing changes: no line
		func() { srv.RunActionJob("alice", "proj", jobs[0], "running", "make\n") },
		func() { srv.RunActionJob("alice", "proj", jobs[0], "success", "make\nok\n") },
		func() { srv.RunActionJob("alice", "proj", jobs[1], "running", "") },
		func() { srv.RunActionJob("alice", "proj", jobs[1], "failure", "FAIL\n") },
	}
	for i, move := range moves {
		select {
		case d := <-clock.sleeping:
			if d != 5*time.Second {
				t.Errorf("step %d: waits %s, want the --interval, 5s", i, d)
			}
		case r := <-done:
			t.Fatalf("watch ended early at step %d: %+v", i, r)
		}
		move()
		fake.Advance(5 * time.Second)
	}
	r := <-done
	r.want(t, 1)
	// Between its jobs the run waits again (Forgejo's aggregate status).
	want := "run 2: waiting\njob 2 build: waiting\njob 3 Unit tests: blocked\n" +
		"run 2: running\njob 2 build: running\n" +
		"run 2: waiting\njob 2 build: success\njob 3 Unit tests: waiting\n" +
		"run 2: running\njob 3 Unit tests: running\n" +
		"run 2: failure\njob 3 Unit tests: failure\n"
	if r.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}
	if r.stderr != "run 2 ended: failure (15s)\n" {
		t.Errorf("stderr %q", r.stderr)
	}
}

// Gitea reports every finished run and job as "completed" and how it
// ended in "conclusion" (its jobs listing wrapped): run view and run watch
// show the conclusion, and --exit-status exits 1 for a failed run.
func TestRunEndedOnGitea(t *testing.T) {
	gitea := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v1/version":
			io.WriteString(w, `{"version":"1.27.3"}`)
		case "/api/v1/repos/o/r/actions/runs/5":
			io.WriteString(w, `{"id":5,"run_number":3,"run_attempt":1,"event":"workflow_dispatch","status":"completed","conclusion":"failure",`+
				`"path":"ci.yml@refs/heads/main","head_branch":"main","display_title":"CI"}`)
		case "/api/v1/repos/o/r/actions/runs/5/jobs":
			io.WriteString(w, `{"jobs":[{"id":9,"run_id":5,"name":"build","status":"completed","conclusion":"failure"}],"total_count":1}`)
		default:
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, "404 page not found\n")
		}
	}))
	defer gitea.Close()
	env := map[string]string{"FORGEJO_URL": gitea.URL, "FORGEJO_TOKEN": "t0ken"}

	r := cli(t, env, "run", "view", "5", "-R", "o/r", "--exit-status")
	r.want(t, 1)
	if !regexp.MustCompile(`(?m)^  status\s+failure$`).MatchString(r.stdout) || !regexp.MustCompile(`(?m)^  9\s+build\s+failure\b`).MatchString(r.stdout) {
		t.Errorf("run view shows no failure:\n%s", r.stdout)
	}
	r = cli(t, env, "run", "watch", "5", "-R", "o/r", "--exit-status")
	r.want(t, 1)
	if r.stdout != "run 5: failure\njob 9 build: failure\n" || r.stderr != "run 5 ended: failure (-)\n" {
		t.Errorf("run watch:\nstdout %q\nstderr %q", r.stdout, r.stderr)
	}
}

// secret set never shows the value: not with -v, and not when a server
// echoes it back in an error (it is masked from the moment it is read).
func TestSecretSetNeverShown(t *testing.T) {
	const value = "correct-horse-battery-staple"
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		msg, _ := json.Marshal("bad data: " + string(body) + " / " + value[:10] + "\x1b[0m" + value[10:])
		fmt.Fprintf(w, `{"message":%s}`, msg)
	}))
	defer echo.Close()
	srv, env := setup(t)
	env["FORGEJO_TOKEN"] = srv.AddUser("alice")
	for _, tc := range []struct {
		env  map[string]string
		args []string
		code int
	}{
		{env, []string{"secret", "set", "K", "-R", "alice/proj", "-v"}, 0},
		{map[string]string{"FORGEJO_URL": echo.URL, "FORGEJO_TOKEN": hostileToken}, []string{"secret", "set", "K", "-R", "o/r", "-v"}, 1},
		{map[string]string{"FORGEJO_URL": echo.URL, "FORGEJO_TOKEN": hostileToken}, []string{"secret", "set", "K", "--org", "acme"}, 1},
	} {
		r := cliWith(t, tc.env, func(a *app) { a.stdin = strings.NewReader(value + "\n") }, tc.args...)
		r.want(t, tc.code)
		out := r.stdout + r.stderr
		if strings.Contains(shown(out), value) || strings.Contains(out, value[:12]) {
			t.Errorf("%v: the value is shown:\n%s", tc.args, out)
		}
		if l := lines(r.stderr); tc.code == 1 && (len(l) == 0 || !strings.HasPrefix(l[len(l)-1], "forgego: PUT ") || !strings.Contains(l[len(l)-1], `{"data":"***"}`)) {
			t.Errorf("%v: want the failure in one line, the echoed value masked:\n%s", tc.args, out)
		}
	}
}

// run watch on a terminal redraws the run and its jobs in place: the
// cursor goes up over the block drawn last (the program's own sequence,
// through WriteControl), and nothing else but the display rule's output
// reaches the terminal. The fake's simulated runner plays the jobs as the
// fake clock moves.
func TestRunWatchTerminal(t *testing.T) {
	fake := forgejotest.NewFakeClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	clock := &sleepSignal{FakeClock: fake, sleeping: make(chan time.Duration)}
	srv, env := setup(t, forgejotest.WithClock(fake))
	actionsRepo(t, srv)
	env["FORGEJO_TOKEN"] = srv.AddUser("alice")
	srv.AttachRunner(&forgejotest.Runner{Name: "sim\x1b[2J"})
	cli(t, env, "workflow", "run", "ci.yml", "-R", "alice/proj", "-f", "target=x").want(t, 0)

	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	var got bytes.Buffer
	copied := make(chan struct{})
	go func() { defer close(copied); io.Copy(&got, ptmx) }()
	done := make(chan int, 1)
	go func() {
		a := newApp(context.Background(), tty, tty, func(k string) string { return env[k] })
		a.dir, a.clock = t.TempDir(), clock
		done <- a.execute([]string{"run", "watch", "2", "-R", "alice/proj", "-i", "1"})
	}()
	code := -1
	for code < 0 {
		select {
		case <-clock.sleeping:
			fake.Advance(time.Second)
		case code = <-done:
		}
	}
	tty.Close()
	<-copied
	out := strings.ReplaceAll(got.String(), "\r\n", "\n")
	if code != 0 {
		t.Fatalf("exit %d\n%q", code, out)
	}
	redraws := regexp.MustCompile("\x1b\\[[0-9]+A\r\x1b\\[J")
	if n := len(redraws.FindAllString(out, -1)); n != 2 { // running, build done, all done
		t.Errorf("%d redraws, want one per change:\n%q", n, out)
	}
	if bad := unsafeOutput(redraws.ReplaceAllString(out, "")); bad != "" {
		t.Errorf("unsafe output: %s", bad)
	}
	// What the screen shows at the end: the last block, then the summary.
	last := out[strings.LastIndex(out, "\x1b[J")+3:]
	want := "CI · run 2 in alice/proj\n  success    10s\n  success    build (job 2)\n  success    Unit tests (job 3)\nrun 2 ended: success (10s)\n"
	if last != want {
		t.Errorf("last screen:\n%q\nwant\n%q", last, want)
	}
}

// secret set does not read the value from a terminal, where what is typed
// is shown: it asks for a pipe, a file or --body.
func TestSecretSetRefusesTerminal(t *testing.T) {
	srv, env := setup(t)
	env["FORGEJO_TOKEN"] = srv.AddUser("alice")
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	srv.ResetRequests()
	r := cliWith(t, env, func(a *app) { a.stdin = tty }, "secret", "set", "K", "-R", "alice/proj")
	r.want(t, 2)
	if !strings.Contains(r.stderr, "standard input, which is a terminal: pipe it in") || len(srv.Requests()) != 0 {
		t.Errorf("stderr %q, %d requests", r.stderr, len(srv.Requests()))
	}
}
