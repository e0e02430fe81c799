package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

type result struct {
	code           int
	stdout, stderr string
}

// cli runs the program in-process with the given environment.
func cli(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb, func(k string) string { return env[k] })
	return result{code, out.String(), errb.String()}
}

// setup starts a fake with a seeded repository and returns it with the
// environment pointing at it.
func setup(t *testing.T, opts ...forgejotest.Option) (*forgejotest.Server, map[string]string) {
	t.Helper()
	srv := forgejotest.NewServer(t, opts...)
	srv.AddRepo("alice", "proj")
	srv.SetRepo("alice", "proj", "A project", false, false)
	srv.SetTopics("alice", "proj", "go", "cli")
	srv.Star("bob", "alice", "proj")
	return srv, map[string]string{"FORGEJO_URL": srv.URL, "FORGEJO_TOKEN": srv.Token()}
}

func (r result) want(t *testing.T, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
}

func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func TestVersion(t *testing.T) {
	srv, env := setup(t)
	r := cli(t, env, "version")
	r.want(t, 0)
	want := "server  " + forgejotest.DefaultVersion + "\nclient  forgego " + forgejo.Version + "\napi     " + srv.URL + "/api/v1\n"
	if r.stdout != want || r.stderr != "" {
		t.Errorf("stdout %q\nwant   %q\nstderr %q", r.stdout, want, r.stderr)
	}
	r = cli(t, env, "--json", "version")
	r.want(t, 0)
	var v map[string]string
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || v["server"] != forgejotest.DefaultVersion || v["client"] != forgejo.Version {
		t.Errorf("json %s %v", r.stdout, err)
	}
	// --url wins over FORGEJO_URL.
	r = cli(t, map[string]string{"FORGEJO_URL": "http://127.0.0.1:1"}, "version", "--url", srv.URL)
	r.want(t, 0)
	r = cli(t, env, "version", "extra")
	r.want(t, 2)
}

func TestRepoView(t *testing.T) {
	srv, env := setup(t)
	srv.AddIssues("alice", "proj", 3)
	r := cli(t, env, "repo", "view", "alice/proj")
	r.want(t, 0)
	for _, s := range []string{"alice/proj\nA project\n", "  stars               1\n", "  open issues         3\n",
		"  topics              cli, go\n", "  visibility          public\n", "  default branch      main\n", "  url                 " + srv.URL + "/alice/proj\n"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("missing %q in\n%s", s, r.stdout)
		}
	}
	r = cli(t, env, "repo", "view", "alice/proj", "--json")
	r.want(t, 0)
	var rj repoJSON
	if err := json.Unmarshal([]byte(r.stdout), &rj); err != nil || rj.FullName != "alice/proj" || rj.StarsCount != 1 ||
		strings.Join(rj.Topics, ",") != "cli,go" || rj.OpenIssuesCount != 3 || rj.CreatedAt == nil {
		t.Errorf("json %s %v", r.stdout, err)
	}

	r = cli(t, env, "repo", "view", "alice/nope")
	r.want(t, 1)
	if got := lines(r.stderr); len(got) != 1 || !strings.Contains(got[0], "responded 404: The target couldn't be found.") || r.stdout != "" {
		t.Errorf("stderr %q", r.stderr)
	}
	for _, args := range [][]string{{"repo", "view"}, {"repo", "view", "alice"}, {"repo", "view", "a/b/c"}, {"repo", "view", "a/b", "c/d"}} {
		r = cli(t, env, args...)
		r.want(t, 2)
		if !strings.Contains(r.stderr, "Usage:") {
			t.Errorf("%v: no usage in %q", args, r.stderr)
		}
	}
}

func TestIssueList(t *testing.T) {
	srv, env := setup(t)
	for i := range 75 {
		spec := forgejotest.IssueSpec{Title: "Issue " + string(rune('A'+i%26)), Closed: i%5 == 0}
		if i%10 == 1 {
			spec.Labels = []string{"bug", "ui"}
		}
		srv.AddIssue("alice", "proj", spec)
	}
	srv.AddPull("alice", "proj", "feature", "main", "A pull request") // not an issue: never listed

	r := cli(t, env, "issue", "list", "alice/proj")
	r.want(t, 0)
	rows := lines(r.stdout)
	if len(rows) != 31 || !strings.HasPrefix(rows[0], "NUMBER  STATE  TITLE") || !strings.HasPrefix(rows[1], "#75 ") {
		t.Fatalf("%d rows:\n%s", len(rows), r.stdout)
	}
	if !strings.Contains(r.stdout, "bug, ui") {
		t.Errorf("labels missing:\n%s", r.stdout)
	}
	if r.stderr != "showing 30 of 60 open issues in alice/proj\n" {
		t.Errorf("stderr %q", r.stderr)
	}

	srv.ResetRequests()
	r = cli(t, env, "issue", "list", "alice/proj", "--all")
	r.want(t, 0)
	if n := len(lines(r.stdout)) - 1; n != 60 {
		t.Errorf("--all: %d issues, want the 60 open ones", n)
	}
	if n := srv.Count("issueListIssues"); n != 2 { // two pages of 50
		t.Errorf("--all took %d requests", n)
	}
	r = cli(t, env, "issue", "list", "--limit", "7", "--state", "closed", "alice/proj")
	r.want(t, 0)
	if n := len(lines(r.stdout)) - 1; n != 7 || strings.Contains(r.stdout, " open ") {
		t.Errorf("closed, limit 7:\n%s", r.stdout)
	}
	r = cli(t, env, "issue", "list", "alice/proj", "--state", "all", "--limit", "100", "--json")
	r.want(t, 0)
	var issues []issueJSON
	if err := json.Unmarshal([]byte(r.stdout), &issues); err != nil || len(issues) != 75 {
		t.Fatalf("json: %v, %d issues", err, len(issues))
	}
	if is := issues[0]; is.Number != 75 || is.Author != "alice" || is.CreatedAt == nil || is.URL == "" || is.Labels == nil {
		t.Errorf("first %+v", is)
	}
	if r.stderr != "" {
		t.Errorf("stderr in --json mode: %q", r.stderr)
	}
	srv.AddRepo("alice", "empty")
	r = cli(t, env, "issue", "list", "alice/empty")
	r.want(t, 0)
	if r.stdout != "" || r.stderr != "no open issues in alice/empty\n" {
		t.Errorf("empty: %q %q", r.stdout, r.stderr)
	}

	for _, args := range [][]string{
		{"issue", "list", "alice/proj", "--all", "--limit", "5"},
		{"issue", "list", "alice/proj", "--limit", "0"},
		{"issue", "list", "alice/proj", "--state", "bogus"},
		{"issue", "list", "alice/proj", "--nope"},
		{"issue", "list"},
	} {
		r = cli(t, env, args...)
		r.want(t, 2)
		if !strings.HasPrefix(r.stderr, "forgego: ") || !strings.Contains(r.stderr, "Usage:") {
			t.Errorf("%v: %q", args, r.stderr)
		}
	}
}

func TestIssueCreate(t *testing.T) {
	srv, env := setup(t)
	r := cli(t, env, "issue", "create", "alice/proj", "--title", "It broke", "--body", "Details here")
	r.want(t, 0)
	if r.stdout != "created issue #1 in alice/proj: "+srv.URL+"/alice/proj/issues/1\n" {
		t.Errorf("stdout %q", r.stdout)
	}
	is, _, err := srv.Client().Issues.Get(context.Background(), "alice", "proj", 1)
	if err != nil || is.Title != "It broke" || is.Body != "Details here" || is.User.Login != srv.DefaultUser() {
		t.Fatalf("created %+v %v", is, err)
	}
	r = cli(t, env, "--json", "issue", "create", "alice/proj", "--title=Second")
	r.want(t, 0)
	var ij issueJSON
	if err := json.Unmarshal([]byte(r.stdout), &ij); err != nil || ij.Number != 2 || ij.State != "open" {
		t.Errorf("json %s %v", r.stdout, err)
	}
	if srv.Count("issueCreateIssue") != 2 {
		t.Errorf("%d creates", srv.Count("issueCreateIssue"))
	}
	// A failed create is not repeated.
	srv.Inject(forgejotest.Fault{Operation: "issueCreateIssue", Statuses: []int{503}})
	r = cli(t, env, "issue", "create", "alice/proj", "--title", "Third")
	r.want(t, 1)
	if srv.Count("issueCreateIssue") != 3 || !strings.Contains(r.stderr, "responded 503") {
		t.Errorf("count %d, stderr %q", srv.Count("issueCreateIssue"), r.stderr)
	}

	r = cli(t, env, "issue", "create", "alice/proj")
	r.want(t, 2)
	r = cli(t, map[string]string{"FORGEJO_URL": srv.URL}, "issue", "create", "alice/proj", "--title", "anonymous")
	r.want(t, 1)
	if got := lines(r.stderr); len(got) != 1 || !strings.Contains(got[0], "responded 401: token is required") {
		t.Errorf("stderr %q", r.stderr)
	}
}

func TestAPI(t *testing.T) {
	srv, env := setup(t, forgejotest.WithMaxResponseItems(10))
	srv.AddIssues("alice", "proj", 23)
	for _, l := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		srv.AddLabel("alice", "proj", l, "")
	}

	r := cli(t, env, "api", "/repos/alice/proj/issues?state=all", "-f", "limit=2", "-f", "page=3")
	r.want(t, 0)
	var issues []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &issues); err != nil || len(issues) != 2 || issues[0]["number"].(float64) != 19 {
		t.Fatalf("GET: %v\n%s", err, r.stdout)
	}
	if !strings.Contains(r.stdout, "\n  {\n    \"id\": ") {
		t.Errorf("not indented:\n%.200s", r.stdout)
	}
	log := srv.Requests()
	if q := log[len(log)-1].Query; q.Get("state") != "all" || q.Get("limit") != "2" || q.Get("page") != "3" {
		t.Errorf("query %v", q)
	}

	r = cli(t, env, "api", "-X", "POST", "repos/alice/proj/issues", "-f", "title=From api", "-F", "closed=true", "-F", "milestone=0")
	r.want(t, 0)
	log = srv.Requests()
	if body := string(log[len(log)-1].Body); body != `{"closed":true,"milestone":0,"title":"From api"}` {
		t.Errorf("body %s", body)
	}
	if !strings.Contains(r.stdout, `"title": "From api"`) || !strings.Contains(r.stdout, `"state": "closed"`) {
		t.Errorf("POST output:\n%.300s", r.stdout)
	}
	r = cli(t, env, "api", "-X", "PUT", "/api/v1/user/starred/alice/proj")
	r.want(t, 0)
	if r.stdout != "" {
		t.Errorf("204 printed %q", r.stdout)
	}

	// --paginate follows Link on issues and X-Total-Count on labels
	// (which send no Link), clamped to 10 per page, and prints one array.
	for _, tc := range []struct {
		path  string
		items int
		reqs  int
	}{{"/repos/alice/proj/issues?state=all", 24, 3}, {"/repos/alice/proj/labels", 12, 2}} {
		srv.ResetRequests()
		r = cli(t, env, "api", "--paginate", tc.path)
		r.want(t, 0)
		var all []json.RawMessage
		if err := json.Unmarshal([]byte(r.stdout), &all); err != nil || len(all) != tc.items {
			t.Errorf("%s: %v, %d items", tc.path, err, len(all))
		}
		if n := len(srv.Requests()); n != tc.reqs {
			t.Errorf("%s: %d requests, want %d", tc.path, n, tc.reqs)
		}
	}
	r = cli(t, env, "api", "--paginate", "/repos/alice/proj")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "does not answer a JSON array") {
		t.Errorf("stderr %q", r.stderr)
	}
	r = cli(t, env, "api", "--paginate", "-X", "POST", "/repos/alice/proj/issues")
	r.want(t, 2)
	r = cli(t, env, "api")
	r.want(t, 2)
	r = cli(t, env, "api", "/repos/alice/nope")
	r.want(t, 1)
	if !strings.HasPrefix(r.stderr, "forgego: api GET ") || !strings.Contains(r.stderr, "responded 404") {
		t.Errorf("stderr %q", r.stderr)
	}
	r = cli(t, env, "api", "/version", "-f", "novalue")
	r.want(t, 2)
}

func TestRateLimit(t *testing.T) {
	_, env := setup(t, forgejotest.WithRateLimit(2000, 10*time.Minute))
	r := cli(t, env, "ratelimit")
	r.want(t, 0)
	for _, line := range []string{"source           RateLimit", "remaining        1999", "quota            2000", "reset in         10m0s", "policy baseline  2000 requests per 10m0s"} {
		if !strings.Contains(r.stdout, line+"\n") {
			t.Errorf("stdout %q lacks %q", r.stdout, line)
		}
	}
	r = cli(t, env, "ratelimit", "--json")
	r.want(t, 0)
	var m map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil || m["known"] != true || m["remaining"] != float64(1998) || m["quota"] != float64(2000) || m["reset_seconds"] != float64(600) {
		t.Errorf("json %s %v", r.stdout, err)
	}

	_, plain := setup(t)
	r = cli(t, plain, "ratelimit")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "no rate-limit headers") {
		t.Errorf("stdout %q", r.stdout)
	}
	r = cli(t, plain, "ratelimit", "--json")
	if strings.TrimSpace(r.stdout) != `{"known":false}` && !strings.Contains(r.stdout, `"known": false`) {
		t.Errorf("unknown must not read as zero: %q", r.stdout)
	}
	// A spent quota still reports: the 429 carries the headers and a
	// Retry-After.
	_, tight := setup(t, forgejotest.WithRateLimit(1, time.Hour))
	cli(t, tight, "version")
	r = cli(t, tight, "ratelimit")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "remaining        0\n") || !strings.Contains(r.stdout, "retry after") {
		t.Errorf("spent: %q", r.stdout)
	}
}

func TestVerboseShowsRetries(t *testing.T) {
	srv, env := setup(t)
	srv.AddIssues("alice", "proj", 3)
	srv.Inject(forgejotest.Fault{Operation: "issueListIssues", Statuses: []int{503}, RetryAfter: "0"})
	srv.Inject(forgejotest.Fault{Operation: "issueListIssues", Reset: true, Times: 2})
	r := cli(t, env, "-v", "issue", "list", "alice/proj")
	r.want(t, 0)
	for _, s := range []string{
		"> GET /api/v1/repos/alice/proj/issues?state=open&type=issues&page=1&limit=30\n",
		"< 503 Service Unavailable in ",
		"~ issueListIssues attempt 1 failed (503 Service Unavailable, Retry-After 0s); retrying in 0s\n",
		"(attempt 2)\n",
		"! no response: connection failed\n",
		"~ issueListIssues attempt 2 failed (connection failed); retrying in ",
		"(attempt 3)\n< 200 OK in ",
	} {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("missing %q in\n%s", s, r.stderr)
		}
	}
	if n := len(lines(r.stdout)); n != 4 {
		t.Errorf("%d lines of output", n)
	}
	// Without -v, nothing but the summary.
	r = cli(t, env, "issue", "list", "alice/proj")
	if r.stderr != "showing 3 of 3 open issues in alice/proj\n" {
		t.Errorf("quiet stderr %q", r.stderr)
	}
}

func TestTokenNeverPrinted(t *testing.T) {
	srv, env := setup(t)
	token := env["FORGEJO_TOKEN"]
	srv.AddIssues("alice", "proj", 2)
	// A server that echoes the token in an error body.
	srv.Inject(forgejotest.Fault{Operation: "getVersion", Statuses: []int{500, 500, 500},
		Body: `{"message":"bad credentials ` + token + `","url":"x"}`})
	srv.Inject(forgejotest.Fault{Operation: "repoGet", Statuses: []int{401},
		Body: `{"message":"token ` + token + ` expired"}`})
	var all strings.Builder
	for _, args := range [][]string{
		{"-v", "version"},
		{"-v", "repo", "view", "alice/proj"},
		{"-v", "issue", "list", "alice/proj", "--all"},
		{"-v", "issue", "create", "alice/proj", "--title", token},
		{"-v", "api", "/user"},
		{"-v", "api", "/repos/alice/proj/issues", "-f", "q=" + token},
		{"-v", "ratelimit"},
		{"-v", "--json", "issue", "list", "alice/proj"},
		{"-v", "repo", "view", "alice/nope"},
	} {
		r := cli(t, env, args...)
		all.WriteString(r.stdout + r.stderr)
		if strings.Contains(r.stdout+r.stderr, token) {
			t.Errorf("%v printed the token:\n%s\n%s", args, r.stdout, r.stderr)
		}
	}
	if !strings.Contains(all.String(), "***") {
		t.Error("the echoes were not masked (or never happened)")
	}
}

func TestUsage(t *testing.T) {
	_, env := setup(t)
	r := cli(t, env)
	r.want(t, 2)
	if !strings.Contains(r.stderr, "no command given") || !strings.Contains(r.stderr, "Usage:") {
		t.Errorf("%q", r.stderr)
	}
	for _, args := range [][]string{{"help"}, {"-h"}, {"issue", "list", "--help"}} {
		r = cli(t, env, args...)
		r.want(t, 0)
		if !strings.HasPrefix(r.stdout, "forgego: a command-line client") {
			t.Errorf("%v: %q", args, r.stdout)
		}
	}
	for _, args := range [][]string{{"frobnicate"}, {"issue"}, {"issue", "delete", "a/b"}, {"--nope", "version"}} {
		r = cli(t, env, args...)
		r.want(t, 2)
	}
	// Configuration errors are failures with one line, not usage errors.
	r = cli(t, map[string]string{"FORGEJO_URL": "ftp://example.org"}, "version")
	r.want(t, 1)
	if got := lines(r.stderr); len(got) != 1 || !strings.Contains(got[0], "baseURL") {
		t.Errorf("%q", r.stderr)
	}
	// Nothing draws progress on a stderr that is not a terminal.
	if p, _ := progressFor(&bytes.Buffer{}); p != nil {
		t.Error("progress on a buffer")
	}
}

func TestEmbeddedDemo(t *testing.T) {
	// A quicker demo: the same faults, a one-second window, no Retry-After
	// wait on the 503.
	defer func(w time.Duration, ra string) { demoWindow, demoRetryAfter = w, ra }(demoWindow, demoRetryAfter)
	demoWindow, demoRetryAfter = time.Second, "0"

	env := map[string]string{"FORGEJO_TOKEN": "a-token-the-demo-ignores", "FORGEJO_URL": "http://127.0.0.1:1"}
	r := cli(t, env, "--embedded", "issue", "list", "forgego/demo", "--all", "-v")
	r.want(t, 0)
	if n := len(lines(r.stdout)) - 1; n != demoIssues*2/3 {
		t.Errorf("%d issues listed, want %d", n, demoIssues*2/3)
	}
	for _, s := range []string{
		"embedded demo server on http://127.0.0.1:",
		"< 503 Service Unavailable",
		"~ issueListIssues attempt 1 failed (503 Service Unavailable, Retry-After 0s)",
		"! no response: connection failed",
		"< 429 Too Many Requests",
		"~ issueListIssues attempt 1 failed (429 Too Many Requests, Retry-After 1s); retrying in 1s",
		"showing 240 of 240 open issues in forgego/demo",
	} {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("missing %q in\n%s", s, r.stderr)
		}
	}
	r = cli(t, env, "--embedded", "repo", "view", "forgego/demo")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "forgego/demo\nA demo repository") || !strings.Contains(r.stdout, "api-client, cli, forgejo, go") {
		t.Errorf("repo view:\n%s", r.stdout)
	}
	r = cli(t, env, "--embedded", "--json", "issue", "create", "forgego/demo", "--title", "Hello")
	r.want(t, 0)
	var ij issueJSON
	if err := json.Unmarshal([]byte(r.stdout), &ij); err != nil || ij.Number != demoIssues+demoPulls+1 {
		t.Errorf("create: %s %v", r.stdout, err)
	}
	r = cli(t, env, "--embedded", "ratelimit")
	if r.code != 0 || !strings.Contains(r.stdout, "quota            7\n") || !strings.Contains(r.stdout, "policy baseline  7 requests per") {
		t.Errorf("ratelimit: %d %q", r.code, r.stdout)
	}
}

func TestEmbeddedDemoWithPacing(t *testing.T) {
	defer func(w time.Duration, ra string) { demoWindow, demoRetryAfter = w, ra }(demoWindow, demoRetryAfter)
	demoWindow, demoRetryAfter = time.Second, "0"

	env := map[string]string{"FORGEJO_URL": "http://127.0.0.1:1"}
	r := cli(t, env, "--embedded", "--pace", "issue", "list", "forgego/demo", "--all", "-v")
	r.want(t, 0)
	if !strings.Contains(r.stderr, "the rate-limit budget is spent; waiting") {
		t.Errorf("no pacing wait shown:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, "429") {
		t.Errorf("with --pace the walk must not be refused with 429:\n%s", r.stderr)
	}
	if !strings.Contains(r.stderr, "showing 240 of 240 open issues in forgego/demo") {
		t.Errorf("walk incomplete:\n%s", r.stderr)
	}
}
