package main

import (
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// realServer is the real Gitea of scripts/gitea.sh (.ci/run starts one and
// exports its variables): skipped without one, unless FORGEGO_IT_REQUIRE=1,
// where a missing server fails the test, as in the integration suite. The
// variables are read inside the test, so that go test's cache keys on them.
func realServer(t *testing.T) (url, login, token string) {
	t.Helper()
	url, login, token = os.Getenv("FORGEGO_IT_URL"), os.Getenv("FORGEGO_IT_ADMIN"), os.Getenv("FORGEGO_IT_ADMIN_TOKEN")
	if url == "" || login == "" || token == "" {
		if os.Getenv("FORGEGO_IT_REQUIRE") == "1" {
			t.Fatal("FORGEGO_IT_REQUIRE=1 but FORGEGO_IT_URL, FORGEGO_IT_ADMIN or FORGEGO_IT_ADMIN_TOKEN is not set")
		}
		t.Skip("no real server; run `. \"$(scripts/gitea.sh start)\"` first (see scripts/gitea.md)")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("the CLI's integration test needs git")
	}
	return url, login, token
}

// TestCLIAgainstGitea is a day's session with the CLI against a real Gitea:
// log in, create a repository, clone it with git and work inside the clone
// (the repository taken from its remote): an issue commented, labelled and
// closed, a branch pushed, a pull request checked out and merged, a release
// published with a file and downloaded. No token appears in any output or
// in the clone's .git/config.
func TestCLIAgainstGitea(t *testing.T) {
	url, login, token := realServer(t)
	home := t.TempDir()
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, "config")}
	var seen strings.Builder // every output, checked for the token at the end
	run := func(dir string, stdin string, args ...string) result {
		t.Helper()
		r := cliWith(t, env, func(a *app) {
			a.dir = dir
			if stdin != "" {
				a.stdin = strings.NewReader(stdin)
			}
		}, args...)
		seen.WriteString(r.stdout + r.stderr)
		return r
	}
	ok := func(dir string, args ...string) result {
		t.Helper()
		r := run(dir, "", args...)
		r.want(t, 0)
		return r
	}
	work := t.TempDir()

	r := run(work, token+"\n", "auth", "login", "--hostname", url, "--with-token")
	r.want(t, 0)
	ok(work, "auth", "status")

	name := "cli-it-" + time.Now().UTC().Format("150405.000000")
	name = strings.ReplaceAll(name, ".", "-")
	r = ok(work, "repo", "create", name, "--description", "The CLI's integration test")
	if !strings.Contains(r.stdout, "created repository "+login+"/"+name) {
		t.Fatalf("repo create: %q", r.stdout)
	}
	// A repository the instance initializes: a default branch with
	// README.md, .gitignore and LICENSE, so a pull request has a base at
	// once; an unknown template fails in one line and creates nothing.
	r = ok(work, "repo", "create", name+"-init", "--add-readme", "--gitignore", "Go", "--license", "MIT", "-d", "Initialized")
	if !strings.Contains(r.stdout, "created repository "+login+"/"+name+"-init") {
		t.Fatalf("repo create --add-readme: %q", r.stdout)
	}
	r = ok(work, "repo", "view", login+"/"+name+"-init", "--json", "default_branch,empty", "--jq", `"\(.default_branch) \(.empty)"`)
	branch, empty, _ := strings.Cut(strings.TrimSpace(r.stdout), " ")
	if branch == "" || empty != "false" {
		t.Fatalf("initialized repository: %q", r.stdout)
	}
	for file, want := range map[string]string{"README.md": "# " + name + "-init", ".gitignore": "# ---> Go", "LICENSE": "MIT License"} {
		r = ok(work, "api", "repos/"+login+"/"+name+"-init/raw/"+file+"?ref="+branch)
		if !strings.HasPrefix(r.stdout, want) {
			t.Errorf("%s on %s: %.80q", file, branch, r.stdout)
		}
	}
	for flag, value := range map[string]string{"--gitignore": "No-Such-Template", "--license": "No-Such-License"} {
		r = run(work, "", "repo", "create", name+"-bad", flag, value)
		if r.want(t, 1); len(lines(r.stderr)) != 1 || !strings.Contains(r.stderr, `"`+value+`"`) {
			t.Errorf("%s %s: %q", flag, value, r.stderr)
		}
	}
	if r = run(work, "", "repo", "view", login+"/"+name+"-bad"); r.code != 1 {
		t.Errorf("a failed create left %s-bad: exit %d %q", name, r.code, r.stdout)
	}
	ok(work, "repo", "clone", login+"/"+name)
	clone := filepath.Join(work, name)
	// The test's own pushes get the token as the CLI gives it to git: from
	// the environment, never in .git/config.
	cred := base64.StdEncoding.EncodeToString([]byte(login + ":" + token))
	push := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = clone
		cmd.Env = append(os.Environ(), "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=http."+url+"/.extraHeader",
			"GIT_CONFIG_VALUE_0=Authorization: Basic "+cred, "GIT_TERMINAL_PROMPT=0",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(file, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(clone, file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", "# "+name+"\n")
	push("checkout", "-q", "-b", "main")
	push("add", "README.md")
	push("commit", "-q", "-m", "first")
	push("push", "-q", "origin", "main")

	// Issues, inside the clone: the repository from its origin.
	ok(clone, "label", "create", "bug", "--color", "ee0701", "--description", "Something is broken")
	r = ok(clone, "issue", "create", "--title", "It broke", "--body", "Steps: run it.")
	if !strings.HasPrefix(r.stdout, "created issue #1 in "+login+"/"+name) {
		t.Fatalf("issue create: %q", r.stdout)
	}
	ok(clone, "issue", "comment", "1", "--body", "Same here.")
	ok(clone, "issue", "edit", "1", "--add-label", "bug")
	ok(clone, "issue", "close", "1", "--comment", "Fixed in main.")
	r = ok(clone, "issue", "view", "1", "--json", "state,labels,comments", "--jq", `"\(.state) \([.labels[].name]|join(",")) \(.comments)"`)
	if r.stdout != "closed bug 2\n" {
		t.Errorf("issue view: %q", r.stdout)
	}

	// A pull request from a pushed branch: checked out, then merged.
	push("checkout", "-q", "-b", "feature")
	write("feature.txt", "a feature\n")
	push("add", "feature.txt")
	push("commit", "-q", "-m", "a feature")
	push("push", "-q", "origin", "feature")
	push("checkout", "-q", "main")
	r = ok(clone, "pr", "create", "--head", "feature", "--title", "Add a feature", "--body", "Closes nothing.")
	if !strings.HasPrefix(r.stdout, "created pull request #2 in "+login+"/"+name+" (feature → main)") {
		t.Fatalf("pr create: %q", r.stdout)
	}
	r = ok(clone, "pr", "checkout", "2", "--branch", "review-2")
	if b := gitIn(t, clone, "branch", "--show-current"); b != "review-2" {
		t.Errorf("pr checkout: on %q; %q %q", b, r.stdout, r.stderr)
	}
	// Gitea checks mergeability in the background: a merge sent at once
	// may be refused ("try again later"); wait for it.
	var merged bool
	for range 40 {
		if r = run(clone, "", "pr", "merge", "2", "--merge"); r.code == 0 {
			merged = true
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if !merged {
		t.Fatalf("pr merge: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = ok(clone, "pr", "list", "--state", "merged", "--json", "number,merged", "--jq", `.[] | "\(.number) \(.merged)"`)
	if r.stdout != "2 true\n" {
		t.Errorf("pr list --state merged: %q", r.stdout)
	}

	// A release with a file, downloaded again.
	asset := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(asset, []byte("release notes, as a file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok(clone, "release", "create", "v1.0.0", "--title", "1.0.0", "--notes", "The first.", asset)
	r = ok(clone, "release", "view", "v1.0.0", "--json", "tag_name,assets", "--jq", `"\(.tag_name) \([.assets[].name]|join(","))"`)
	if r.stdout != "v1.0.0 notes.txt\n" {
		t.Errorf("release view: %q", r.stdout)
	}
	dl := t.TempDir()
	ok(clone, "release", "download", "v1.0.0", "--dir", dl)
	if got, err := os.ReadFile(filepath.Join(dl, "notes.txt")); err != nil || string(got) != "release notes, as a file\n" {
		t.Errorf("downloaded %q %v", got, err)
	}
	r = run(clone, "", "release", "download", "v1.0.0", "--dir", dl)
	r.want(t, 1) // exists: not overwritten without --clobber

	cfg, err := os.ReadFile(filepath.Join(clone, ".git", "config"))
	if err != nil {
		t.Fatal(err)
	}
	for what, text := range map[string]string{"the output": seen.String(), ".git/config": string(cfg)} {
		if strings.Contains(text, token) || strings.Contains(text, cred) {
			t.Errorf("the token is in %s", what)
		}
	}
	if !strings.Contains(string(cfg), url+"/"+login+"/"+name+".git") {
		t.Errorf(".git/config has not the plain clone URL:\n%s", cfg)
	}
	ok(clone, "auth", "logout", "--hostname", url)
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}
