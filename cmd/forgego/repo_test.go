package main

import (
	"context"
	"encoding/base64"
	"slices"
	"strings"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
)

func TestRepoCreateAndFork(t *testing.T) {
	srv, env := setup(t)
	me := srv.DefaultUser()
	r := cli(t, env, "repo", "create", "tools", "--private", "-d", "Scripts")
	r.want(t, 0)
	if r.stdout != "created repository "+me+"/tools: "+srv.URL+"/"+me+"/tools\n" {
		t.Errorf("%q %q", r.stdout, r.stderr)
	}
	r = cli(t, env, "repo", "view", me+"/tools", "--json", "private,description", "--jq", `"\(.private) \(.description)"`)
	if r.stdout != "true Scripts\n" {
		t.Errorf("%q %q", r.stdout, r.stderr)
	}
	cli(t, env, "repo", "create", me+"/second").want(t, 0)
	r = cli(t, env, "repo", "fork", "alice/proj")
	r.want(t, 0)
	if r.stdout != "forked alice/proj to "+me+"/proj: "+srv.URL+"/"+me+"/proj\n" {
		t.Errorf("%q %q", r.stdout, r.stderr)
	}
	// A second fork of the same repository by the same user is refused,
	// as Forgejo and Gitea refuse it (409), whatever its name.
	r = cli(t, env, "repo", "fork", "-R", "alice/proj", "--fork-name", "proj2")
	if r.want(t, 1); !strings.Contains(r.stderr, "409") || !strings.Contains(r.stderr, "already forked") {
		t.Errorf("%q", r.stderr)
	}
	for _, args := range [][]string{{"repo", "create"}, {"repo", "create", "a", "b"}, {"repo", "create", "a/b/c"}, {"repo", "create", "x", "--private", "--public"}, {"repo", "fork"}} {
		cli(t, env, args...).want(t, 2)
	}
	cli(t, map[string]string{"FORGEJO_URL": srv.URL}, "repo", "create", "anon").want(t, 4)
}

// TestRepoCreateInitialized: --add-readme, --gitignore and --license make
// the instance write a first commit on the default branch, so a pull
// request can be opened against it at once; an unknown template (Forgejo's
// 500, with an empty message for anyone but an administrator) is one line
// naming it, exit 1.
func TestRepoCreateInitialized(t *testing.T) {
	srv, env := setup(t)
	me := srv.DefaultUser()
	ctx := context.Background()
	c := srv.Client()
	body := func() string { // the last create request's body
		t.Helper()
		for _, rq := range slices.Backward(srv.Requests()) {
			if rq.Method == "POST" && strings.HasSuffix(rq.Path, "/repos") {
				return string(rq.Body)
			}
		}
		t.Fatal("no create request")
		return ""
	}

	// A plain create stays empty, as before.
	cli(t, env, "repo", "create", "empty").want(t, 0)
	if b := body(); strings.Contains(b, "auto_init") || strings.Contains(b, "readme") {
		t.Errorf("plain create sent %s", b)
	}

	r := cli(t, env, "repo", "create", "notes", "--add-readme", "-d", "My notes")
	r.want(t, 0)
	if r.stdout != "created repository "+me+"/notes: "+srv.URL+"/"+me+"/notes\n" {
		t.Errorf("%q %q", r.stdout, r.stderr)
	}
	if b := body(); !strings.Contains(b, `"auto_init":true`) || !strings.Contains(b, `"readme":"Default"`) || strings.Contains(b, "gitignores") || strings.Contains(b, "license") {
		t.Errorf("--add-readme sent %s", b)
	}
	if got, _, err := c.Repos.GetRawFile(ctx, me, "notes", "README.md", &forgejo.RepoGetRawFileOptions{Ref: "main"}); err != nil || string(got) != "# notes\n\nMy notes" {
		t.Errorf("README.md on main: %q %v", got, err)
	}
	// A pull request against the new default branch.
	if _, _, err := c.Repos.CreateFile(ctx, me, "notes", "todo.txt", forgejo.CreateFileRequest{
		Content: base64.StdEncoding.EncodeToString([]byte("write more\n")), NewBranch: "feature"}); err != nil {
		t.Fatal(err)
	}
	r = cli(t, env, "pr", "create", "-R", me+"/notes", "--head", "feature", "--title", "Add a to-do list")
	r.want(t, 0)
	if !strings.HasPrefix(r.stdout, "created pull request #1 in "+me+"/notes (feature → main)") {
		t.Errorf("pr create: %q %q", r.stdout, r.stderr)
	}

	// --gitignore and --license alone initialize the repository too (with
	// Forgejo's README); --default-branch names its branch.
	r = cli(t, env, "repo", "create", "lib", "--gitignore", "Go", "--license", "MIT", "--default-branch", "trunk")
	r.want(t, 0)
	if b := body(); !strings.Contains(b, `"auto_init":true`) || !strings.Contains(b, `"gitignores":"Go"`) || !strings.Contains(b, `"license":"MIT"`) || !strings.Contains(b, `"default_branch":"trunk"`) {
		t.Errorf("--gitignore --license sent %s", b)
	}
	for file, start := range map[string]string{"README.md": "# lib\n\n", ".gitignore": "# ---> Go\n", "LICENSE": "MIT License\n"} {
		got, _, err := c.Repos.GetRawFile(ctx, me, "lib", file, &forgejo.RepoGetRawFileOptions{Ref: "trunk"})
		if err != nil || !strings.HasPrefix(string(got), start) {
			t.Errorf("%s on trunk: %q %v", file, got, err)
		}
	}
	cli(t, env, "repo", "create", "my-org/lib2", "-g", "Rust", "-l", "0BSD").want(t, 1) // no such organization

	// Unknown templates: one line naming the name, exit 1, nothing created.
	for _, tc := range []struct{ flag, value, want string }{
		{"--gitignore", "Go,Cobol", `the instance has no .gitignore template "Cobol": POST ` + srv.URL + `/api/v1/user/repos: 500 Internal Server Error`},
		{"--license", "WTFPL", `the instance has no license "WTFPL": POST ` + srv.URL + `/api/v1/user/repos: 500 Internal Server Error`},
	} {
		r = cli(t, env, "repo", "create", "bad", tc.flag, tc.value)
		r.want(t, 1)
		if r.stderr != "forgego: "+tc.want+"\n" || r.stdout != "" {
			t.Errorf("%s %s: %q", tc.flag, tc.value, r.stderr)
		}
	}
	if _, _, err := c.Repos.Get(ctx, me, "bad"); err == nil {
		t.Error("a failed create left a repository")
	}
	// A failure that is not the templates' is left as it is.
	r = cli(t, env, "repo", "create", "lib", "--gitignore", "Cobol")
	if r.want(t, 1); !strings.Contains(r.stderr, "409") || strings.Contains(r.stderr, "template") {
		t.Errorf("409: %q", r.stderr)
	}

	for _, args := range [][]string{{"repo", "create", "x", "--gitignore", ""}, {"repo", "create", "x", "--license", " "}, {"repo", "create", "x", "--default-branch="}} {
		cli(t, env, args...).want(t, 2)
	}
}

// TestRepoCreateCompletion: --gitignore and --license complete with the
// instance's templates, and with nothing (not an error) when the instance
// cannot be asked.
func TestRepoCreateCompletion(t *testing.T) {
	_, env := setup(t)
	for _, tc := range []struct{ flag, prefix, want string }{
		{"--gitignore", "", "Go\nNode\nPython\nRust\n:4\n"},
		{"--gitignore", "p", "Python\n:4\n"},
		{"--license", "", "0BSD\nApache-2.0\nGPL-3.0-only\nMIT\n:4\n"},
		{"--license", "mi", "MIT\n:4\n"},
	} {
		r := cli(t, env, "__complete", "repo", "create", "x", tc.flag, tc.prefix)
		r.want(t, 0)
		if !strings.HasPrefix(r.stdout, tc.want) {
			t.Errorf("%s %q: %q", tc.flag, tc.prefix, r.stdout)
		}
	}
	r := cli(t, map[string]string{"FORGEJO_URL": "http://127.0.0.1:1"}, "__complete", "repo", "create", "x", "--license", "")
	r.want(t, 0)
	if !strings.HasPrefix(r.stdout, ":4\n") {
		t.Errorf("offline: %q", r.stdout)
	}
}
