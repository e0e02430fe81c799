package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unicode"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

// gitHost is an instance that serves git too: the fake's API under /api/v1
// and `git http-backend` (over CGI) for the rest, on one origin, so that
// the clone URL is the instance's own and the token goes with it. It
// records the Authorization headers git sent.
type gitHost struct {
	srv  *forgejotest.Server
	url  string
	root string // GIT_PROJECT_ROOT: owner/repo.git bare repositories

	mu    sync.Mutex
	auths []string
	// base is the instance's URL as the CLI is given it (default url);
	// a git request whose Host is not base's goes to trap.
	base string
	trap *credTrap
	// hook, when set, answers the git requests it returns true for.
	hook func(w http.ResponseWriter, r *http.Request) bool
	// cloneURL, when set, is the clone_url of every repoGet answer.
	cloneURL string
	client   *http.Client // trusts the listener (tls)
}

// gitHostOptions: tls serves the instance over https; root, when set, is
// a GIT_PROJECT_ROOT shared with other hosts.
type gitHostOptions struct {
	tls  bool
	root string
}

func newGitHost(t *testing.T) (*gitHost, map[string]string) {
	t.Helper()
	return newGitHostWith(t, gitHostOptions{})
}

// gitBackend is `git http-backend` over CGI, serving root.
func gitBackend(t *testing.T, root string) http.Handler {
	t.Helper()
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	return &cgi.Handler{Path: gitPath, Args: []string{"http-backend"},
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}}
}

func newGitHostWith(t *testing.T, o gitHostOptions) (*gitHost, map[string]string) {
	t.Helper()
	h := &gitHost{root: o.root}
	if h.root == "" {
		h.root = t.TempDir()
	}
	backend := gitBackend(t, h.root)
	var srv *forgejotest.Server
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			srv.ServeHTTP(w, r)
			return
		}
		h.mu.Lock()
		h.auths = append(h.auths, r.Header.Get("Authorization"))
		trap, hook, base := h.trap, h.hook, h.base
		h.mu.Unlock()
		if u, err := url.Parse(base); trap != nil && (err != nil || !strings.EqualFold(r.Host, u.Host)) {
			// Another host name for this listener is another origin.
			trap.inspect("this listener as "+r.Host, r)
		} else if hook != nil && hook(w, r) {
			return
		}
		backend.ServeHTTP(w, r)
	})
	var front *httptest.Server
	if o.tls {
		front = httptest.NewTLSServer(handler)
	} else {
		front = httptest.NewServer(handler)
	}
	t.Cleanup(front.Close)
	h.url, h.base, h.client = front.URL, front.URL, front.Client()
	srv = forgejotest.NewServer(t)
	h.srv = srv
	// The fake's clone URLs are on its own listener: answer repoGet with
	// the front's.
	srv.Handle("repoGet", func(w http.ResponseWriter, r *http.Request) {
		owner, name := r.PathValue("owner"), r.PathValue("repo")
		h.mu.Lock()
		base, clone := h.base, h.cloneURL
		h.mu.Unlock()
		if clone == "" {
			clone = base + "/" + owner + "/" + name + ".git"
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": 1, "name": name, "full_name": owner + "/" + name, "default_branch": "main",
			"clone_url": clone, "html_url": base + "/" + owner + "/" + name})
	})
	return h, map[string]string{"FORGEJO_URL": front.URL, "FORGEJO_TOKEN": srv.Token()}
}

func mustGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// bare makes owner/name.git with a commit on main and, for each pull
// request number, a commit on refs/pull/N/head.
func (h *gitHost) bare(t *testing.T, owner, name string, pulls ...string) {
	t.Helper()
	work := t.TempDir()
	mustGit(t, work, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(work, "README"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustGit(t, work, "add", "README")
	mustGit(t, work, "commit", "-q", "-m", "first")
	dst := filepath.Join(h.root, owner, name+".git")
	mustGit(t, work, "init", "-q", "--bare", "-b", "main", dst)
	mustGit(t, work, "push", "-q", dst, "main")
	for _, n := range pulls {
		mustGit(t, work, "checkout", "-q", "-b", "pr"+n, "main")
		if err := os.WriteFile(filepath.Join(work, "change-"+n), []byte(n+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		mustGit(t, work, "add", ".")
		mustGit(t, work, "commit", "-q", "-m", "change "+n)
		mustGit(t, work, "push", "-q", dst, "pr"+n+":refs/pull/"+n+"/head")
	}
}

func (h *gitHost) sawToken(token string) (withToken, without int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, a := range h.auths {
		raw, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(a, "Basic "))
		if strings.HasSuffix(string(raw), ":"+token) {
			withToken++
		} else {
			without++
		}
	}
	return
}

func TestRepoCloneAndPRCheckout(t *testing.T) {
	h, env := newGitHost(t)
	h.srv.AddRepo("alice", "proj")
	n := h.srv.AddPull("alice", "proj", "feature/x", "main", "Add x")
	h.bare(t, "alice", "proj", "1")
	if n != 1 {
		t.Fatalf("pull %d", n)
	}
	token := h.srv.Token()

	work := t.TempDir()
	r := cliWith(t, env, inDir(work), "repo", "clone", "alice/proj")
	r.want(t, 0)
	if r.stdout != "cloned alice/proj into proj\n" {
		t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
	}
	clone := filepath.Join(work, "proj")
	if with, _ := h.sawToken(token); with == 0 {
		t.Errorf("git did not send the token: %v", h.auths)
	}
	cfg, err := os.ReadFile(filepath.Join(clone, ".git", "config"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cfg), token) || strings.Contains(string(cfg), "extraHeader") || !strings.Contains(string(cfg), h.url+"/alice/proj.git") {
		t.Errorf(".git/config:\n%s", cfg)
	}
	// A second clone into the same directory: git refuses, exit 1.
	r = cliWith(t, env, inDir(work), "repo", "clone", "alice/proj")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "forgego: git clone failed") {
		t.Errorf("stderr %q", r.stderr)
	}
	cliWith(t, env, inDir(work), "repo", "clone").want(t, 2)
	cliWith(t, env, inDir(work), "repo", "clone", "nope").want(t, 2)

	// pr checkout inside the clone: the repository from its origin.
	r = cliWith(t, env, inDir(clone), "pr", "checkout", "1")
	r.want(t, 0)
	if r.stdout != "checked out pull request #1 of alice/proj in the branch feature/x\n" {
		t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
	}
	if b := mustGit(t, clone, "branch", "--show-current"); b != "feature/x" {
		t.Errorf("on %q", b)
	}
	if _, err := os.Stat(filepath.Join(clone, "change-1")); err != nil {
		t.Errorf("the pull request's file: %v", err)
	}
	// Again: the branch exists and is fast-forwarded (nothing to do).
	mustGit(t, clone, "checkout", "-q", "main")
	cliWith(t, env, inDir(clone), "pr", "checkout", "1").want(t, 0)
	r = cliWith(t, env, inDir(clone), "pr", "checkout", "1", "--branch", "review-1")
	r.want(t, 0)
	if b := mustGit(t, clone, "branch", "--show-current"); b != "review-1" {
		t.Errorf("on %q", b)
	}
	// A local branch that went its own way is not overwritten.
	mustGit(t, clone, "checkout", "-q", "-b", "review-2", "main")
	if err := os.WriteFile(filepath.Join(clone, "mine"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustGit(t, clone, "add", "mine")
	mustGit(t, clone, "commit", "-q", "-m", "mine")
	r = cliWith(t, env, inDir(clone), "pr", "checkout", "1", "--branch", "review-2")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "the local branch review-2 has commits the pull request has not") {
		t.Errorf("stderr %q", r.stderr)
	}
	r = cliWith(t, env, inDir(clone), "pr", "checkout", "1", "--branch", "bad..name")
	r.want(t, 2)

	// In a repository with no remote naming it: fetched from the clone
	// URL, with the token.
	bare := t.TempDir()
	mustGit(t, bare, "init", "-q")
	h.mu.Lock()
	h.auths = nil
	h.mu.Unlock()
	r = cliWith(t, env, inDir(bare), "pr", "checkout", "1", "-R", "alice/proj")
	r.want(t, 0)
	if b := mustGit(t, bare, "branch", "--show-current"); b != "feature/x" {
		t.Errorf("on %q", b)
	}
	if with, _ := h.sawToken(token); with == 0 {
		t.Errorf("the fetch from the clone URL sent no token")
	}
	if cfg, _ := os.ReadFile(filepath.Join(bare, ".git", "config")); strings.Contains(string(cfg), token) || strings.Contains(string(cfg), "remote") {
		t.Errorf(".git/config after a fetch by URL:\n%s", cfg)
	}

	// Outside a git repository: refused before anything is asked.
	before := len(h.srv.Requests())
	r = cliWith(t, env, inDir(t.TempDir()), "pr", "checkout", "1", "-R", "alice/proj")
	r.want(t, 1)
	if r.stderr != "forgego: pr checkout: not in a git repository: run it inside a clone (forgego repo clone OWNER/REPO)\n" || len(h.srv.Requests()) != before {
		t.Errorf("stderr %q", r.stderr)
	}
	for _, out := range []string{r.stdout, r.stderr} {
		if strings.Contains(out, token) {
			t.Errorf("token printed")
		}
	}
}

func TestPRListMerged(t *testing.T) {
	srv, env := setup(t)
	for _, b := range []string{"a", "b", "c"} {
		srv.AddPull("alice", "proj", b, "main", "PR "+b)
	}
	c := srv.Client(forgejo.WithToken(srv.AddUser("alice")))
	ctx := t.Context()
	if _, err := c.PullRequests.Merge(ctx, "alice", "proj", 2, forgejo.MergePullRequestRequest{Style: forgejo.MergeStyleMerge}); err != nil {
		t.Fatal(err)
	}
	closed := forgejo.StateClosed
	if _, _, err := c.PullRequests.Edit(ctx, "alice", "proj", 3, forgejo.EditPullRequestRequest{State: &closed}); err != nil {
		t.Fatal(err)
	}
	r := cli(t, env, "pr", "list", "-R", "alice/proj", "--state", "merged", "--jq", ".[].number")
	r.want(t, 0)
	if r.stdout != "2\n" {
		t.Errorf("merged: %q %q", r.stdout, r.stderr)
	}
	r = cli(t, env, "pr", "list", "-R", "alice/proj", "--state", "merged")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "#2") || strings.Contains(r.stdout, "#3") || r.stderr != "showing 1 merged pull requests in alice/proj\n" {
		t.Errorf("%q %q", r.stdout, r.stderr)
	}
	r = cli(t, env, "pr", "list", "-R", "alice/proj", "--state", "closed", "--jq", "[.[].number]")
	if r.want(t, 0); r.stdout != "[3,2]\n" && r.stdout != "[2,3]\n" {
		t.Errorf("closed: %q", r.stdout)
	}
	r = cli(t, env, "pr", "list", "-R", "alice/proj", "--state", "gone")
	r.want(t, 2)
	if !strings.Contains(r.stderr, "--state must be open, closed, merged or all") {
		t.Errorf("%q", r.stderr)
	}
}

// TestPRCheckoutHostileHeadBranch: a head branch name the server made
// unusable is the server's failure, not a mistake on the command line:
// exit 1, one line, and nothing fetched or checked out.
func TestPRCheckoutHostileHeadBranch(t *testing.T) {
	h, env := newGitHost(t)
	h.srv.AddRepo("alice", "proj")
	h.srv.AddPull("alice", "proj", "feature/x", "main", "x")
	h.bare(t, "alice", "proj", "1")
	var head atomic.Value
	h.srv.Handle("repoGetPullRequest", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		repo := map[string]any{"id": 1, "name": "proj", "full_name": "alice/proj"}
		_ = json.NewEncoder(w).Encode(map[string]any{"id": 1, "number": 1, "state": "open", "title": "x",
			"head": map[string]any{"ref": head.Load(), "label": head.Load(), "repo": repo},
			"base": map[string]any{"ref": "main", "label": "main", "repo": repo}})
	})
	names := []string{"", "a..b", "-x", "--upload-pack=touch pwned", "refs/heads/../x", "a\x01b", "a\x1b[31mred", "a\x7fb", "a b",
		"a@{b", "@{-1}", "x.lock", "HEAD", "a~1", "a^", "a:b", `a\b`, "a*b", "a?b", "a[b", "/x", "x/", "a/.b", "a."}
	failed := 0
	for _, name := range names {
		head.Store(name)
		dir := t.TempDir()
		mustGit(t, dir, "init", "-q", "-b", "main")
		mustGit(t, dir, "commit", "-q", "--allow-empty", "-m", "one")
		mustGit(t, dir, "checkout", "-q", "-b", "previous") // what @{-1} would expand to
		mustGit(t, dir, "checkout", "-q", "main")
		before := mustGit(t, dir, "for-each-ref")
		h.mu.Lock()
		h.auths = nil
		h.mu.Unlock()
		r := cliWith(t, env, inDir(dir), "pr", "checkout", "1", "-R", "alice/proj")
		var fails []string
		if r.code != 1 {
			fails = append(fails, fmt.Sprintf("exit %d", r.code))
		}
		if l := lines(r.stderr); len(l) != 1 || !strings.HasPrefix(l[0], "forgego: ") {
			fails = append(fails, fmt.Sprintf("stderr %q", r.stderr))
		}
		if strings.ContainsFunc(r.stderr, func(c rune) bool { return c != '\n' && unicode.IsControl(c) }) {
			fails = append(fails, "a raw control character on stderr")
		}
		h.mu.Lock()
		if len(h.auths) > 0 {
			fails = append(fails, fmt.Sprintf("%d git requests", len(h.auths)))
		}
		h.mu.Unlock()
		if after := mustGit(t, dir, "for-each-ref"); after != before {
			fails = append(fails, "refs changed: "+after)
		}
		if b := mustGit(t, dir, "branch", "--show-current"); b != "main" {
			fails = append(fails, "on "+b)
		}
		if len(fails) > 0 {
			failed++
			t.Errorf("head %q: %s", name, strings.Join(fails, "; "))
		} else {
			t.Logf("head %q: %s", name, strings.TrimSpace(r.stderr))
		}
	}
	t.Logf("%d of %d names failed", failed, len(names))

	// The same names with --branch are mistakes on the command line.
	head.Store("feature/x")
	for _, name := range []string{"a..b", "@{-1}", "x.lock"} {
		dir := t.TempDir()
		mustGit(t, dir, "init", "-q")
		r := cliWith(t, env, inDir(dir), "pr", "checkout", "1", "-R", "alice/proj", "--branch", name)
		if r.want(t, 2); !strings.Contains(r.stderr, "is not a valid branch name") {
			t.Errorf("--branch %q: %q", name, r.stderr)
		}
	}
}
