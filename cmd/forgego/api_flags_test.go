package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAPIFlagsAsGh(t *testing.T) {
	srv, env := setup(t)
	srv.AddIssues("alice", "proj", 3)
	env["FORGEJO_TOKEN"] = srv.AddUser("alice") // the owner: may edit

	// Fields without -X make a POST with a JSON body, as in gh.
	r := cli(t, env, "api", "repos/alice/proj/issues", "-f", "title=By default a POST")
	r.want(t, 0)
	last := srv.Requests()[len(srv.Requests())-1]
	if last.Method != "POST" || string(last.Body) != `{"title":"By default a POST"}` {
		t.Errorf("%s %s", last.Method, last.Body)
	}

	// --input FILE is the body as it is; the fields go in the query.
	in := filepath.Join(t.TempDir(), "edit.json")
	if err := os.WriteFile(in, []byte(`{"title":"From --input"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r = cli(t, env, "api", "-X", "PATCH", "/repos/alice/proj/issues/1", "--input", in, "-f", "x=1", "--jq", ".title")
	r.want(t, 0)
	last = srv.Requests()[len(srv.Requests())-1]
	if r.stdout != "From --input\n" || last.Method != "PATCH" || string(last.Body) != `{"title":"From --input"}` || last.Query.Get("x") != "1" {
		t.Errorf("stdout %q; %s %s %v", r.stdout, last.Method, last.Body, last.Query)
	}
	// --input - reads standard input.
	r = cliWith(t, env, func(a *app) { a.stdin = strings.NewReader(`{"title":"From stdin"}`) }, "api", "repos/alice/proj/issues", "--input", "-", "-q", ".title")
	if r.want(t, 0); r.stdout != "From stdin\n" {
		t.Errorf("stdin: %q", r.stdout)
	}
	cli(t, env, "api", "repos/alice/proj/issues", "--input", "/nonexistent").want(t, 2)

	// -H adds a header; the reserved ones are a usage error.
	r = cli(t, env, "api", "/repos/alice/proj", "-H", "X-Custom: yes", "--silent")
	r.want(t, 0)
	for _, args := range [][]string{
		{"api", "/version", "-H", "Authorization: token x"},
		{"api", "/version", "-H", "Content-Type: text/plain"},
		{"api", "/version", "-H", "novalue"},
		{"api", "https://codeberg.org/api/v1/version"},
	} {
		r = cli(t, env, args...)
		r.want(t, 2)
	}

	// -i prints the status line and the headers first.
	r = cli(t, env, "api", "-i", "/repos/alice/proj/issues?limit=1")
	r.want(t, 0)
	head, body, ok := strings.Cut(r.stdout, "\n\n")
	if !ok || !strings.HasPrefix(head, "HTTP 200 OK\n") || !strings.Contains(head, "\nX-Total-Count: 5") || !strings.HasPrefix(body, "[") {
		t.Errorf("-i:\n%s", r.stdout)
	}
	// and an error's, before the one-line error.
	r = cli(t, env, "api", "-i", "/repos/alice/nope")
	r.want(t, 1)
	if !strings.HasPrefix(r.stdout, "HTTP 404 Not Found\n") || !strings.Contains(r.stderr, "404 Not Found") {
		t.Errorf("-i on 404: %q %q", r.stdout, r.stderr)
	}

	// {owner}/{repo} from the git remote.
	dir := gitRepo(t, "origin", "https://example.org/alice/proj.git")
	r = cliWith(t, env, inDir(dir), "api", "repos/{owner}/{repo}", "--jq", ".full_name")
	if r.want(t, 0); r.stdout != "alice/proj\n" {
		t.Errorf("{owner}/{repo}: %q %q", r.stdout, r.stderr)
	}
	cli(t, env, "api", "repos/{owner}/{repo}").want(t, 2)
}
