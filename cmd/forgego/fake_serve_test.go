//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run this test binary as the forgego program:
// FORGEGO_TEST_AS_MAIN=1 makes it main() with the given arguments.
func TestMain(m *testing.M) {
	if os.Getenv("FORGEGO_TEST_AS_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// TestFakeServe starts `forgego fake serve` as a real process and talks to
// it as a program in another language would: plain HTTP and JSON, no Go
// client. It creates a repository, issues and a commit status, reads them
// back, reads a page the server clamps, and stops the server with SIGTERM:
// exit status 0.
func TestFakeServe(t *testing.T) {
	cmd := exec.Command(os.Args[0], "fake", "serve", "--seed", "demo")
	cmd.Env = append(os.Environ(), "FORGEGO_TEST_AS_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	vars := map[string]string{}
	sc := bufio.NewScanner(stdout)
	for len(vars) < 3 && sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok {
			t.Fatalf("stdout line %q", sc.Text())
		}
		vars[k] = v
	}
	base, token := vars["FORGEJO_URL"], vars["FORGEJO_TOKEN"]
	if !strings.HasPrefix(base, "http://127.0.0.1:") || token == "" || vars["FORGEJO_USER"] != "forgego" {
		t.Fatalf("variables %v; stderr %s", vars, stderr.String())
	}

	call := func(method, path, body string, want int) (http.Header, any) {
		t.Helper()
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, err := http.NewRequest(method, base+"/api/v1"+path, rd)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "token "+token)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != want {
			t.Fatalf("%s %s: %d, want %d: %s", method, path, resp.StatusCode, want, data)
		}
		var doc any
		if len(data) > 0 {
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatalf("%s %s: %v: %s", method, path, err, data)
			}
		}
		return resp.Header, doc
	}
	field := func(doc any, k string) any { return doc.(map[string]any)[k] }

	_, me := call("GET", "/user", "", 200)
	if field(me, "login") != "forgego" || field(me, "is_admin") != true {
		t.Errorf("/user %v", me)
	}
	call("POST", "/user/repos", `{"name":"svc","auto_init":true}`, 201)
	for _, title := range []string{"first", "second", "third"} {
		call("POST", "/repos/forgego/svc/issues", `{"title":"`+title+`"}`, 201)
	}
	h, page := call("GET", "/repos/forgego/svc/issues?state=all&limit=2", "", 200)
	if items := page.([]any); len(items) != 2 || field(items[0], "title") != "third" || h.Get("X-Total-Count") != "3" {
		t.Errorf("issues %v, X-Total-Count %q", page, h.Get("X-Total-Count"))
	}
	_, br := call("GET", "/repos/forgego/svc/branches/main", "", 200)
	sha, _ := field(field(br, "commit"), "id").(string)
	if sha == "" {
		t.Fatalf("branch %v", br)
	}
	call("POST", "/repos/forgego/svc/statuses/"+sha, `{"state":"success","context":"ci/test","description":"green"}`, 201)
	_, combined := call("GET", "/repos/forgego/svc/commits/main/status", "", 200)
	if field(combined, "state") != "success" {
		t.Errorf("combined status %v", combined)
	}
	// The demo's 246 open issues and pull requests, asked 100 a page:
	// clamped at 50, the total in X-Total-Count.
	h, page = call("GET", "/repos/forgego/demo/issues?limit=100", "", 200)
	if n := len(page.([]any)); n != 50 || h.Get("X-Total-Count") != "246" || !strings.Contains(h.Get("Link"), `rel="next"`) {
		t.Errorf("clamped page: %d items, X-Total-Count %q, Link %q", n, h.Get("X-Total-Count"), h.Get("Link"))
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) || err != nil {
			t.Fatalf("exit: %v; stderr %s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not stop it")
	}
	if !strings.Contains(stderr.String(), "forgejotest serving on "+base+" (seed demo, no rate limit)") || !strings.Contains(stderr.String(), "forgejotest stopped (") {
		t.Errorf("stderr %q", stderr.String())
	}
}

func TestFakeServeUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"fake", "serve", "--addr", "0.0.0.0:0"}, "forgego: --addr 0.0.0.0:0 is not a loopback address"},
		{[]string{"fake", "serve", "--addr", ":3000"}, "forgego: --addr :3000 is not a loopback address"},
		{[]string{"fake", "serve", "--addr", "nope"}, `forgego: --addr "nope" is not HOST:PORT`},
		{[]string{"fake", "serve", "--seed", "full"}, `forgego: --seed must be demo or empty, not "full"`},
		{[]string{"fake", "serve", "--rate-limit", "10"}, `forgego: --rate-limit "10" is not Q/W`},
		{[]string{"fake", "serve", "--rate-limit", "10/1ms"}, `forgego: --rate-limit "10/1ms": the window must be`},
		{[]string{"fake", "serve", "--release", "12"}, `forgego: --release "12" is not a known Forgejo release: 11.0, 13.0, 14.0, 15.0, 16.0`},
		{[]string{"fake"}, "forgego: forgego fake needs a command: serve"},
	} {
		r := cli(t, nil, tc.args...)
		r.want(t, 2)
		if !strings.HasPrefix(r.stderr, tc.want) || r.stdout != "" {
			t.Errorf("%v: %q", tc.args, r.stderr)
		}
	}
}

// TestFakeServeRelease: with --release 15.0.3 it answers as Forgejo 15.0.3
// does: 16.0's routes are the router's 404, DeleteActionRun (its path
// served for GET) an empty 405, /version says 15.0.3.
func TestFakeServeRelease(t *testing.T) {
	cmd := exec.Command(os.Args[0], "fake", "serve", "--release", "15.0.3")
	cmd.Env = append(os.Environ(), "FORGEGO_TEST_AS_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	vars := map[string]string{}
	sc := bufio.NewScanner(stdout)
	for len(vars) < 3 && sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "=")
		vars[k] = v
	}
	base, token := vars["FORGEJO_URL"], vars["FORGEJO_TOKEN"]
	if base == "" || token == "" {
		t.Fatalf("variables %v; stderr %s", vars, stderr.String())
	}
	call := func(method, path string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(method, base+"/api/v1"+path, nil)
		req.Header.Set("Authorization", "token "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp, string(data)
	}
	if resp, body := call("GET", "/version"); resp.StatusCode != 200 || !strings.Contains(body, `"15.0.3+gitea-1.22.0"`) {
		t.Errorf("/version: %d %s", resp.StatusCode, body)
	}
	if resp, body := call("GET", "/repos/forgego/svc/actions/runs/1/jobs"); resp.StatusCode != 404 || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" || body != "404 page not found\n" {
		t.Errorf("ListActionRunJobs: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if resp, body := call("DELETE", "/repos/forgego/svc/actions/runs/1"); resp.StatusCode != 405 || body != "" || resp.Header.Get("Allow") != "GET" {
		t.Errorf("DeleteActionRun: %d %q Allow %q", resp.StatusCode, body, resp.Header.Get("Allow"))
	}
	if resp, body := call("GET", "/user"); resp.StatusCode != 200 || !strings.Contains(body, `"login":"forgego"`) {
		t.Errorf("/user: %d %s", resp.StatusCode, body)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v; stderr %s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "(seed empty, no rate limit, as Forgejo 15.0.3)") {
		t.Errorf("stderr %q", stderr.String())
	}
}

// SIGINT (Ctrl-C) stops it cleanly too.
func TestFakeServeStopsOnSIGINT(t *testing.T) {
	cmd := exec.Command(os.Args[0], "fake", "serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "FORGEGO_TEST_AS_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), "FORGEJO_URL=http://127.0.0.1:") {
		t.Fatalf("first line %q", sc.Text())
	}
	for !strings.HasPrefix(sc.Text(), "FORGEJO_USER=") {
		if !sc.Scan() {
			t.Fatal("no FORGEJO_USER line")
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGINT: %v", err)
	}
}
