package main

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/demo"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/iostreams"
	"codeberg.org/forgego/forgejo/forgejotest"
)

type result struct {
	code           int
	stdout, stderr string
}

// cli runs the program in-process with the given environment.
func cli(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	return cliCtx(t, context.Background(), env, args...)
}

func cliCtx(t *testing.T, ctx context.Context, env map[string]string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	a := newApp(ctx, &out, &errb, func(k string) string { return env[k] })
	a.dir = t.TempDir() // no git remote unless a test makes one
	code := a.execute(args)
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

// syncBuffer is a bytes.Buffer safe to read while a command writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls until cond holds or a few seconds pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestVersion(t *testing.T) {
	srv, env := setup(t)
	r := cli(t, env, "version")
	r.want(t, 0)
	want := "server  " + forgejotest.DefaultVersion + "\nclient  forgego " + forgejo.Version + "\napi     " + srv.URL + "/api/v1\n"
	if r.stdout != want || r.stderr != "" {
		t.Errorf("stdout %q\nwant   %q\nstderr %q", r.stdout, want, r.stderr)
	}
	r = cli(t, env, "version", "--json", "server,client")
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

	// --version answers without asking anyone.
	n := len(srv.Requests())
	r = cli(t, env, "--version")
	r.want(t, 0)
	if !strings.HasPrefix(r.stdout, "forgego "+forgejo.Version+" (forgejo library "+forgejo.Version) || len(srv.Requests()) != n {
		t.Errorf("--version: %q", r.stdout)
	}
}

func TestRepoView(t *testing.T) {
	srv, env := setup(t)
	srv.AddIssues("alice", "proj", 3)
	for _, args := range [][]string{{"repo", "view", "alice/proj"}, {"repo", "view", "-R", "alice/proj"}, {"repo", "view", "--repo=alice/proj"}} {
		r := cli(t, env, args...)
		r.want(t, 0)
		for _, s := range []string{"alice/proj\nA project\n", "  stars               1\n", "  open issues         3\n",
			"  topics              cli, go\n", "  visibility          public\n", "  default branch      main\n", "  url                 " + srv.URL + "/alice/proj\n"} {
			if !strings.Contains(r.stdout, s) {
				t.Errorf("%v: missing %q in\n%s", args, s, r.stdout)
			}
		}
	}
	r := cli(t, env, "repo", "view", "alice/proj", "--json", "full_name,stars_count,topics,open_issues_count,created_at")
	r.want(t, 0)
	var rj forgejo.Repository
	if err := json.Unmarshal([]byte(r.stdout), &rj); err != nil || rj.FullName != "alice/proj" || rj.StarsCount != 1 ||
		strings.Join(rj.Topics, ",") != "cli,go" || rj.OpenIssuesCount != 3 || rj.CreatedAt.IsZero() {
		t.Errorf("json %s %v", r.stdout, err)
	}

	r = cli(t, env, "repo", "view", "alice/nope")
	r.want(t, 1)
	if got := lines(r.stderr); len(got) != 1 || got[0] != "forgego: GET "+srv.URL+"/api/v1/repos/alice/nope: 404 Not Found: The target couldn't be found." || r.stdout != "" {
		t.Errorf("stderr %q", r.stderr)
	}
	for _, args := range [][]string{{"repo", "view"}, {"repo", "view", "alice"}, {"repo", "view", "a/b/c"}, {"repo", "view", "a/b", "c/d"},
		{"repo", "view", "a/b", "-R", "c/d"}} {
		r = cli(t, env, args...)
		r.want(t, 2)
		if got := lines(r.stderr); len(got) != 3 || got[1] != "Usage: forgego repo view [OWNER/REPO] [flags]" {
			t.Errorf("%v: %q", args, r.stderr)
		}
	}
}

func TestRepoList(t *testing.T) {
	srv, env := setup(t, forgejotest.WithMaxResponseItems(5))
	for i := range 7 {
		srv.AddRepo("alice", "r"+string(rune('a'+i)))
	}
	srv.AddRepo(srv.DefaultUser(), "mine")
	r := cli(t, env, "repo", "list", "alice", "--all")
	r.want(t, 0)
	rows := lines(r.stdout)
	if len(rows) != 9 || !strings.HasPrefix(rows[0], "NAME ") || !strings.Contains(r.stdout, "alice/proj  ") || !strings.Contains(r.stdout, "A project") {
		t.Errorf("table:\n%s", r.stdout)
	}
	if r.stderr != "showing 8 of 8 repositories in alice\n" {
		t.Errorf("stderr %q", r.stderr)
	}
	r = cli(t, env, "repo", "list", "alice", "--limit", "3", "--json", "full_name")
	r.want(t, 0)
	var repos []forgejo.Repository
	if err := json.Unmarshal([]byte(r.stdout), &repos); err != nil || len(repos) != 3 || !strings.HasPrefix(repos[0].FullName, "alice/") {
		t.Errorf("json: %v %s", err, r.stdout)
	}
	r = cli(t, env, "repo", "ls")
	r.want(t, 0)
	if !strings.Contains(r.stdout, srv.DefaultUser()+"/mine") || strings.Contains(r.stdout, "alice/") {
		t.Errorf("own repositories:\n%s", r.stdout)
	}
	cli(t, env, "repo", "list", "a", "b").want(t, 2)
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
	// -R is the same as the argument.
	if r2 := cli(t, env, "issue", "list", "-R", "alice/proj"); r2.stdout != r.stdout || r2.stderr != r.stderr {
		t.Errorf("-R differs:\n%s\n%s", r2.stdout, r2.stderr)
	}

	srv.ResetRequests()
	r = cli(t, env, "issue", "list", "alice/proj", "--all")
	r.want(t, 0)
	if n := len(lines(r.stdout)) - 1; n != 60 {
		t.Errorf("--all: %d issues, want the 60 open ones", n)
	}
	if n := srv.Count("issueListIssues"); n != 2 { // pages of 100 asked, 50 served
		t.Errorf("--all took %d requests", n)
	}
	r = cli(t, env, "issue", "list", "--limit", "7", "--state", "closed", "alice/proj")
	r.want(t, 0)
	if n := len(lines(r.stdout)) - 1; n != 7 || strings.Contains(r.stdout, " open ") {
		t.Errorf("closed, limit 7:\n%s", r.stdout)
	}
	// The instance clamps: 100 asked, 50 served; -v says so, and the walk
	// follows its pages.
	r = cli(t, env, "issue", "list", "alice/proj", "-s", "all", "-L", "100", "--json", "number,user,created_at,html_url,labels", "-v")
	r.want(t, 0)
	var issues []forgejo.Issue
	if err := json.Unmarshal([]byte(r.stdout), &issues); err != nil || len(issues) != 75 {
		t.Fatalf("json: %v, %d issues", err, len(issues))
	}
	if !strings.Contains(r.stderr, "&limit=100\n") || !strings.Contains(r.stderr, "~ the instance clamped the page size: asked for 100 issues, served 50") {
		t.Errorf("no clamping shown:\n%s", r.stderr)
	}
	if is := issues[0]; is.Number != 75 || is.User == nil || is.User.Login != "alice" || is.CreatedAt.IsZero() || is.HTMLURL == "" || is.Labels == nil {
		t.Errorf("first %+v", is)
	}
	r = cli(t, env, "issue", "list", "alice/proj", "--json", "number")
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
		{"issue", "list", "alice/proj", "--limit", "many"},
		{"issue", "list", "alice/proj", "--state", "bogus"},
		{"issue", "list", "alice/proj", "--nope"},
		{"issue", "list"},
		{"issue", "list", "-R", "alice/proj", "alice/proj"},
	} {
		r = cli(t, env, args...)
		r.want(t, 2)
		got := lines(r.stderr)
		if len(got) != 3 || !strings.HasPrefix(got[0], "forgego: ") || got[1] != "Usage: forgego issue list [OWNER/REPO] [flags]" ||
			got[2] != "Run 'forgego issue list --help' for the flags and examples." {
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
	r = cli(t, env, "issue", "create", "-R", "alice/proj", "-t", "Second", "--json", "number,state")
	r.want(t, 0)
	var ij forgejo.Issue
	if err := json.Unmarshal([]byte(r.stdout), &ij); err != nil || ij.Number != 2 || ij.State != "open" {
		t.Errorf("json %s %v", r.stdout, err)
	}
	// A failed create is not repeated.
	srv.Inject(forgejotest.Fault{Operation: "issueCreateIssue", Statuses: []int{503}})
	r = cli(t, env, "issue", "create", "alice/proj", "--title", "Third")
	r.want(t, 1)
	if srv.Count("issueCreateIssue") != 3 || !strings.Contains(r.stderr, ": 503 Service Unavailable") {
		t.Errorf("count %d, stderr %q", srv.Count("issueCreateIssue"), r.stderr)
	}

	r = cli(t, env, "issue", "create", "alice/proj")
	r.want(t, 2)
	r = cli(t, map[string]string{"FORGEJO_URL": srv.URL}, "issue", "create", "alice/proj", "--title", "anonymous")
	r.want(t, 4)
	if got := lines(r.stderr); len(got) != 1 || !strings.Contains(got[0], ": 401 Unauthorized: token is required (log in with 'forgego auth login --with-token', or set FORGEJO_TOKEN)") {
		t.Errorf("stderr %q", r.stderr)
	}
}

func TestPullRequests(t *testing.T) {
	srv, env := setup(t)
	srv.AddIssues("alice", "proj", 2)
	for i, b := range []string{"feat-a", "feat-b", "feat-c"} {
		srv.AddBranch("alice", "proj", b)
		srv.AddPull("alice", "proj", b, "main", "Pull "+string(rune('A'+i)))
	}
	r := cli(t, env, "pr", "list", "alice/proj")
	r.want(t, 0)
	rows := lines(r.stdout)
	if len(rows) != 4 || !strings.HasPrefix(rows[0], "NUMBER  STATE  TITLE   BRANCH") || !strings.Contains(rows[1], "#5      open   Pull C  feat-c → main  alice") {
		t.Errorf("table:\n%s", r.stdout)
	}
	if r.stderr != "showing 3 of 3 open pull requests in alice/proj\n" {
		t.Errorf("stderr %q", r.stderr)
	}
	r = cli(t, env, "pr", "list", "-R", "alice/proj", "--json", "number,head,base,state", "--limit", "2")
	r.want(t, 0)
	var prs []forgejo.PullRequest
	if err := json.Unmarshal([]byte(r.stdout), &prs); err != nil || len(prs) != 2 || prs[0].Head.Ref != "feat-c" || prs[0].Base.Ref != "main" || prs[0].State != "open" {
		t.Errorf("json %v %s", err, r.stdout)
	}

	for _, args := range [][]string{{"pr", "view", "alice/proj", "4"}, {"pr", "view", "#4", "-R", "alice/proj"}} {
		r = cli(t, env, args...)
		r.want(t, 0)
		for _, s := range []string{"Pull B #4\nopen\n\n", "  branch    feat-b → main\n", "  url       " + srv.URL + "/alice/proj/pulls/4\n"} {
			if !strings.Contains(r.stdout, s) {
				t.Errorf("%v: missing %q in\n%s", args, s, r.stdout)
			}
		}
	}
	r = cli(t, env, "pr", "view", "-R", "alice/proj", "4", "--json", "number,title")
	r.want(t, 0)
	var pj forgejo.PullRequest
	if err := json.Unmarshal([]byte(r.stdout), &pj); err != nil || pj.Number != 4 || pj.Title != "Pull B" {
		t.Errorf("json %v %s", err, r.stdout)
	}
	r = cli(t, env, "pr", "view", "alice/proj", "99")
	r.want(t, 1)
	for _, args := range [][]string{{"pr", "view", "alice/proj"}, {"pr", "view", "alice/proj", "x"}, {"pr", "view", "-R", "alice/proj"}, {"pr", "list", "--state", "gone", "a/b"}} {
		cli(t, env, args...).want(t, 2)
	}
}

func TestUsageErrors(t *testing.T) {
	_, env := setup(t)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"forgego: no command given", "Usage: forgego <command>", "Run 'forgego --help' for the commands, or try: forgego --embedded issue list forgego/demo -v"}},
		{[]string{"isue", "list"}, []string{`forgego: unknown command "isue" for forgego`, "Usage: forgego <command>", "Did you mean 'forgego issue'? Run 'forgego --help' for the commands."}},
		{[]string{"issue"}, []string{"forgego: forgego issue needs a command: close, comment, create, edit, list, reopen, view", "Usage: forgego issue <command>", "Run 'forgego issue --help' for the flags and examples."}},
		{[]string{"issue", "delete", "a/b"}, []string{`forgego: unknown command "delete" for forgego issue`, "Usage: forgego issue <command>", "Commands: close, comment, create, edit, list, reopen, view. Run 'forgego issue --help' for more."}},
		{[]string{"--nope", "version"}, []string{"forgego: unknown flag: --nope", "Usage: forgego <command>", "Run 'forgego --help' for the flags and examples."}},
		{[]string{"issue", "list", "a/b", "-L", "x"}, []string{`forgego: invalid argument "x" for "-L, --limit" flag: not a number`, "Usage: forgego issue list [OWNER/REPO] [flags]", "Run 'forgego issue list --help' for the flags and examples."}},
	} {
		r := cli(t, env, tc.args...)
		r.want(t, 2)
		if got := lines(r.stderr); strings.Join(got, "\n") != strings.Join(tc.want, "\n") || r.stdout != "" {
			t.Errorf("%v:\n%s\nwant\n%s", tc.args, r.stderr, strings.Join(tc.want, "\n"))
		}
	}
	// Configuration errors are failures with one line, not usage errors.
	r := cli(t, map[string]string{"FORGEJO_URL": "ftp://example.org"}, "version")
	r.want(t, 1)
	if got := lines(r.stderr); len(got) != 1 || got[0] != `forgego: FORGEJO_URL "ftp://example.org" is not an instance's URL: the scheme must be https or http, not "ftp" (such as https://codeberg.org)` {
		t.Errorf("%q", r.stderr)
	}
	// A bad --url is a usage error, said in the user's terms, and a
	// password in it is never repeated.
	for _, tc := range []struct{ url, want string }{
		{"not a url", `forgego: --url "not a url" is not an instance's URL: not a URL such as https://codeberg.org`},
		{"https://", `forgego: --url "https://" is not an instance's URL: the URL names no host`},
		{"https://alice:pw-s3cret@example.org", `forgego: --url is not an instance's URL: the URL carries a user name or password`},
	} {
		r = cli(t, nil, "--url", tc.url, "version")
		r.want(t, 2)
		if !strings.HasPrefix(r.stderr, tc.want) || strings.Contains(r.stderr, "baseURL") || strings.Contains(r.stderr, "pw-s3cret") {
			t.Errorf("%q: %q", tc.url, r.stderr)
		}
	}
}

func TestConnectionErrorNamesTheCallOnce(t *testing.T) {
	url := "http://127.0.0.1:1/api/v1/version"
	r := cli(t, map[string]string{"FORGEJO_URL": "http://127.0.0.1:1"}, "version")
	r.want(t, 1)
	got := lines(r.stderr)
	if len(got) != 1 || strings.Count(got[0], "127.0.0.1:1") != 2 || !strings.HasPrefix(got[0], "forgego: GET "+url+": connection failed: dial tcp 127.0.0.1:1: connect: connection refused") ||
		!strings.HasSuffix(got[0], "(gave up after 3 attempts)") {
		t.Errorf("%q", r.stderr)
	}
}

func TestHelp(t *testing.T) {
	_, env := setup(t)
	for _, args := range [][]string{{"issue", "list", "--help"}, {"help", "issue", "list"}, {"issue", "ls", "-h"}} {
		r := cli(t, env, args...)
		r.want(t, 0)
		for _, s := range []string{
			"List a repository's issues",
			"Usage:\n  forgego issue list [OWNER/REPO] [flags]\n",
			"Examples:\n  forgego issue list forgejo/forgejo\n",
			"  -L, --limit N          list at most N issues (default 30)\n",
			"  -R, --repo OWNER/REPO  the repository as OWNER/REPO, instead of the first argument (default: from the git remote)\n",
			`  -s, --state STATE      list the issues in this STATE: open, closed or all (default "open")` + "\n",
			"Global Flags:\n",
			"  -v, --verbose      show every request, retry and wait on stderr\n",
		} {
			if !strings.Contains(squeeze(r.stdout), squeeze(s)) {
				t.Errorf("%v: missing %q in\n%s", args, s, r.stdout)
			}
		}
	}
	// Every help form is the command's own, not one global text.
	root, api := cli(t, env, "--help"), cli(t, env, "api", "--help")
	if root.stdout == api.stdout || !strings.Contains(root.stdout, "Commands:\n  issue ") || !strings.Contains(root.stdout, "FORGEJO_TOKEN") {
		t.Errorf("root help:\n%s", root.stdout)
	}
	for _, s := range []string{"-f key=value   a string field", "-F key=value   a typed field", `-X, --method METHOD`, `(default "GET")`} {
		if !strings.Contains(squeeze(api.stdout), squeeze(s)) {
			t.Errorf("api help lacks %q:\n%s", s, api.stdout)
		}
	}
}

// squeeze collapses runs of spaces, for comparing help texts whose column
// widths depend on the longest flag.
func squeeze(s string) string {
	return regexp.MustCompile(` {2,}`).ReplaceAllString(s, "  ")
}

func TestCompletion(t *testing.T) {
	_, env := setup(t)
	r := cli(t, env, "completion", "bash")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "bash completion") || !strings.Contains(r.stdout, "forgego") {
		t.Errorf("bash completion:\n%.300s", r.stdout)
	}
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}} {
		r = cli(t, env, args...)
		r.want(t, 2)
		if r.stdout != "" {
			t.Errorf("%v: %q", args, r.stdout)
		}
	}
	r = cli(t, env, "__complete", "issue", "list", "--state", "")
	r.want(t, 0)
	if !strings.HasPrefix(r.stdout, "open\nclosed\nall\n:4\n") {
		t.Errorf("--state completion %q", r.stdout)
	}
	r = cli(t, env, "__complete", "is")
	if !strings.Contains(r.stdout, "issue\t") {
		t.Errorf("command completion %q", r.stdout)
	}
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
	r = cli(t, env, "ratelimit", "--json", "known,remaining,quota,reset_seconds")
	r.want(t, 0)
	var m map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil || m["known"] != true || m["remaining"] != float64(1998) || m["quota"] != float64(2000) || m["reset_seconds"] != float64(600) {
		t.Errorf("json %s %v", r.stdout, err)
	}

	plainSrv, plain := setup(t)
	r = cli(t, plain, "ratelimit")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "no rate-limit headers") {
		t.Errorf("stdout %q", r.stdout)
	}
	r = cli(t, plain, "ratelimit", "--json", "known,remaining")
	if !strings.Contains(r.stdout, `"known": false`) {
		t.Errorf("unknown must not read as zero: %q", r.stdout)
	}
	// An error answer is a failure, not "no headers".
	plainSrv.Inject(forgejotest.Fault{Operation: "getVersion", Statuses: []int{404}})
	r = cli(t, plain, "ratelimit")
	r.want(t, 1)
	if got := lines(r.stderr); len(got) != 1 || !strings.Contains(got[0], "/api/v1/version: 404 Not Found") || r.stdout != "" {
		t.Errorf("404: %q %q", r.stdout, r.stderr)
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
		{"-v", "api", "-X", "GET", "/repos/alice/proj/issues", "-f", "q=" + token},
		{"-v", "ratelimit"},
		{"-v", "issue", "list", "alice/proj", "--json", "title,body"},
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

func TestTablesAlignAfterMasking(t *testing.T) {
	srv, env := setup(t)
	token := env["FORGEJO_TOKEN"]
	srv.AddIssue("alice", "proj", forgejotest.IssueSpec{Title: "short"})
	srv.AddIssue("alice", "proj", forgejotest.IssueSpec{Title: "leaked " + token})
	srv.AddIssue("alice", "proj", forgejotest.IssueSpec{Title: "tab\there", Labels: []string{"bug"}})
	r := cli(t, env, "issue", "list", "alice/proj")
	r.want(t, 0)
	rows := lines(r.stdout)
	if len(rows) != 4 || strings.Contains(r.stdout, token) || !strings.Contains(r.stdout, "leaked ***") {
		t.Fatalf("table:\n%s", r.stdout)
	}
	// Every column starts at the same place on every row: the masked title
	// was aligned as printed, and the tab inside a title did not shift it.
	for _, head := range []string{"LABELS", "UPDATED"} {
		col := strings.Index(rows[0], head)
		for _, row := range rows[1:] {
			if len(row) <= col || row[col-1] != ' ' || (head == "UPDATED" && !strings.HasPrefix(row[col:], "20")) {
				t.Errorf("%s not at %d in %q\n%s", head, col, row, r.stdout)
			}
		}
	}
	if !strings.Contains(rows[1], "tab here") || !strings.HasSuffix(strings.TrimSpace(rows[1][:strings.Index(rows[0], "UPDATED")]), "bug") {
		t.Errorf("row %q", rows[1])
	}
	var buf bytes.Buffer
	m := iostreams.NewMasker()
	m.Add("sekrit-value")
	if err := writeTable(&buf, m, [][]string{{"A", "B"}, {"sekrit-value", "x"}, {"longer-than-mask", "y"}}); err != nil {
		t.Fatal(err)
	}
	if want := "A                 B\n***               x\nlonger-than-mask  y\n"; buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestEmbeddedDemo(t *testing.T) {
	// A quicker demo: the same faults, a one-second window, no Retry-After
	// wait on the 503.
	defer func(w time.Duration, ra string) { demo.Window, demo.RetryAfter = w, ra }(demo.Window, demo.RetryAfter)
	demo.Window, demo.RetryAfter = time.Second, "0"

	env := map[string]string{"FORGEJO_TOKEN": "a-token-the-demo-ignores", "FORGEJO_URL": "http://127.0.0.1:1"}
	r := cli(t, env, "--embedded", "issue", "list", "forgego/demo", "--all", "-v")
	r.want(t, 0)
	if n := len(lines(r.stdout)) - 1; n != demo.Issues*2/3 {
		t.Errorf("%d issues listed, want %d", n, demo.Issues*2/3)
	}
	for _, s := range []string{
		"embedded demo server on http://127.0.0.1:",
		"> GET /api/v1/repos/forgego/demo/issues?state=open&type=issues&page=1&limit=100\n",
		"~ the instance clamped the page size: asked for 100 issues, served 50",
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
	r = cli(t, env, "--embedded", "issue", "create", "forgego/demo", "--title", "Hello", "--json", "number")
	r.want(t, 0)
	var ij forgejo.Issue
	if err := json.Unmarshal([]byte(r.stdout), &ij); err != nil || ij.Number != demo.Issues+demo.Pulls+1 {
		t.Errorf("create: %s %v", r.stdout, err)
	}
	r = cli(t, env, "--embedded", "ratelimit")
	if r.code != 0 || !strings.Contains(r.stdout, "quota            7\n") || !strings.Contains(r.stdout, "policy baseline  7 requests per") {
		t.Errorf("ratelimit: %d %q", r.code, r.stdout)
	}
	r = cli(t, env, "--embedded", "pr", "list", "forgego/demo")
	if r.code != 0 || len(lines(r.stdout)) != demo.Pulls+1 {
		t.Errorf("pr list: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = cli(t, env, "--embedded", "repo", "list")
	if r.code != 0 || !strings.Contains(r.stdout, "forgego/demo ") {
		t.Errorf("repo list: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestEmbeddedDemoWithPacing(t *testing.T) {
	defer func(w time.Duration, ra string) { demo.Window, demo.RetryAfter = w, ra }(demo.Window, demo.RetryAfter)
	demo.Window, demo.RetryAfter = time.Second, "0"

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
