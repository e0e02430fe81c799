package main

import (
	"os/exec"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/forgejotest"
)

func TestParseRemote(t *testing.T) {
	for _, tc := range []struct{ in, host, base, owner, repo string }{
		{"https://codeberg.org/forgejo/forgejo.git", "codeberg.org", "https://codeberg.org", "forgejo", "forgejo"},
		{"https://codeberg.org/forgejo/forgejo", "codeberg.org", "https://codeberg.org", "forgejo", "forgejo"},
		{"https://codeberg.org/forgejo/forgejo/", "codeberg.org", "https://codeberg.org", "forgejo", "forgejo"},
		{"https://alice:s3cr3t@Codeberg.org/a/b.git", "codeberg.org", "https://codeberg.org", "a", "b"},
		{"https://oauth2:s3cr3t@git.example.org:8443/git/a/b", "git.example.org", "https://git.example.org:8443/git", "a", "b"},
		{"http://127.0.0.1:3000/alice/proj.git", "127.0.0.1", "http://127.0.0.1:3000", "alice", "proj"},
		{"ssh://git@codeberg.org/forgejo/forgejo.git", "codeberg.org", "https://codeberg.org", "forgejo", "forgejo"},
		{"ssh://git@codeberg.org:2222/forgejo/forgejo", "codeberg.org", "https://codeberg.org", "forgejo", "forgejo"},
		{"git+ssh://git@codeberg.org/a/b.git", "codeberg.org", "https://codeberg.org", "a", "b"},
		{"git@codeberg.org:forgejo/forgejo.git", "codeberg.org", "https://codeberg.org", "forgejo", "forgejo"},
		{"codeberg.org:forgejo/forgejo", "codeberg.org", "https://codeberg.org", "forgejo", "forgejo"},
		{"git://codeberg.org/a/b-c.d_e", "codeberg.org", "https://codeberg.org", "a", "b-c.d_e"},
		{"https://[::1]:3000/a/b.git", "::1", "https://[::1]:3000", "a", "b"},
	} {
		got, err := parseRemote(tc.in)
		if err != nil || got.host != tc.host || got.base != tc.base || got.owner != tc.owner || got.repo != tc.repo {
			t.Errorf("%q: %+v %v", tc.in, got, err)
		}
	}
	for _, in := range []string{
		"", "/srv/git/a/b.git", "./b", "../a/b", "file:///srv/git/a/b.git", "C:/repos/a/b",
		"https://codeberg.org/onlyone", "https://codeberg.org/", "https://s3cr3t@codeberg.org/a/../b",
		"https://codeberg.org/a/b?token=s3cr3t", "https://codeberg.org/a/b#x", "https://codeberg.org/a%2Fb/c",
		"ftp://codeberg.org/a/b", "git@codeberg.org:a", "git@:a/b", "https://s3cr3t@/a/b",
		"https://codeberg.org/a/b c", "https://codeberg.org/a/b\n", "git@evil.example/../x:a/b",
		"https://codeberg.org/a/.", "https://codeberg.org/../b", "ext::sh -c touch% /tmp/pwned",
		"https://user:s3cr3t@host\x00/a/b", "-oProxyCommand=x:a/b",
	} {
		got, err := parseRemote(in)
		if err == nil {
			t.Errorf("%q accepted: %+v", in, got)
			continue
		}
		if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%q: the secret is in %v", in, err)
		}
	}
}

// gitRepo makes a git repository in a temporary directory with the given
// remotes (name, URL pairs).
func gitRepo(t *testing.T, remotes ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	cmds := [][]string{{"init", "-q"}}
	for i := 0; i+1 < len(remotes); i += 2 {
		cmds = append(cmds, []string{"remote", "add", remotes[i], remotes[i+1]})
	}
	for _, c := range cmds {
		if out, err := exec.Command("git", append([]string{"-C", dir}, c...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", c, err, out)
		}
	}
	return dir
}

func inDir(dir string) func(*app) { return func(a *app) { a.dir = dir } }

func TestRepoFromGitRemote(t *testing.T) {
	srv, env := setup(t)
	srv.AddIssues("alice", "proj", 2)
	srv.AddRepo("bob", "other")

	// origin, an https URL with a token in it: the token is never printed.
	dir := gitRepo(t, "upstream", "https://example.org/bob/other.git", "origin", "https://alice:s3cr3tpw@example.org/alice/proj.git")
	r := cliWith(t, env, inDir(dir), "issue", "list", "-v")
	r.want(t, 0)
	if !strings.Contains(r.stderr, "open issues in alice/proj") || !strings.Contains(r.stderr, "from the git remote origin") {
		t.Errorf("stderr %q", r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, "s3cr3tpw") {
		t.Errorf("the remote's token printed")
	}
	// A token as the user name is masked too; a login is not.
	tokenName := "0123456789abcdef0123456789abcdef01234567"
	srv.AddIssue("alice", "proj", forgejotest.IssueSpec{Title: "about " + tokenName, Author: "alice"})
	d2 := gitRepo(t, "origin", "https://"+tokenName+"@example.org/alice/proj.git")
	r = cliWith(t, env, inDir(d2), "issue", "list")
	if r.want(t, 0); strings.Contains(r.stdout, tokenName) || !strings.Contains(r.stdout, "about ***") {
		t.Errorf("%q", r.stdout)
	}
	d3 := gitRepo(t, "origin", "https://alice@example.org/alice/proj.git")
	r = cliWith(t, env, inDir(d3), "issue", "view", "3")
	if r.want(t, 0); !strings.Contains(r.stdout, "opened by alice") {
		t.Errorf("%q", r.stdout)
	}
	// -R and an argument win over the remote.
	r = cliWith(t, env, inDir(dir), "issue", "list", "-R", "bob/other")
	if r.stderr != "no open issues in bob/other\n" {
		t.Errorf("-R: %q", r.stderr)
	}
	r = cliWith(t, env, inDir(dir), "repo", "view")
	if !strings.HasPrefix(r.stdout, "alice/proj\n") {
		t.Errorf("repo view %q %q", r.stdout, r.stderr)
	}

	// Without a usable remote, the usage error says why.
	for _, d := range []string{t.TempDir(), gitRepo(t), gitRepo(t, "origin", "/srv/git/a/b.git")} {
		r = cliWith(t, env, inDir(d), "issue", "list")
		r.want(t, 2)
		if !strings.Contains(r.stderr, "from the git remote of the current directory (") {
			t.Errorf("%q", r.stderr)
		}
	}

	// A remote on a logged-in instance beats origin elsewhere, and its
	// instance is used.
	aenv, _ := authEnv(t)
	cliIn(t, aenv, srv.Token(), "auth", "login", "--hostname", srv.URL, "--with-token").want(t, 0)
	other := forgejotest.NewServer(t)
	cliIn(t, aenv, other.Token(), "auth", "login", "--hostname", other.URL, "--with-token").want(t, 0) // the default now
	dir = gitRepo(t, "origin", "git@github.example:someone/fork.git", "forgejo", strings.Replace(srv.URL, "http://", "http://tok3n@", 1)+"/alice/proj.git")
	r = cliWith(t, aenv, inDir(dir), "issue", "list")
	r.want(t, 0)
	if r.stderr != "showing 3 of 3 open issues in alice/proj\n" {
		t.Errorf("stderr %q", r.stderr)
	}
	if other.Count("issueListIssues") != 0 {
		t.Errorf("the default instance was asked, not the remote's")
	}
	// FORGEJO_URL still wins over the remote's instance.
	aenv["FORGEJO_URL"] = other.URL
	cliWith(t, aenv, inDir(dir), "issue", "list").want(t, 1)
	if other.Count("issueListIssues") != 1 {
		t.Errorf("FORGEJO_URL did not win")
	}
}
