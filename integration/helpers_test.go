package integration

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
)

// Git writes are the slow part of the suite: every commit Gitea makes runs
// its git hooks, each a start of the gitea binary (1–3 s on a busy 2-core
// machine). So tests that need no commit use an empty repository (newRepo),
// tests that only read git content share one fixture repository built once
// (shared), and only tests that write git content make their own
// (newGitRepo).

// newRepo creates an empty public repository owned by the admin (no
// commit: cheap), deletes it when t ends, and returns its name.
func newRepo(t *testing.T, c *forgejo.Client) string {
	t.Helper()
	return newRepoWith(t, c, forgejo.CreateRepoRequest{})
}

// newGitRepo creates a repository with auto_init: one commit on "main"
// with a README.
func newGitRepo(t *testing.T, c *forgejo.Client) string {
	t.Helper()
	return newRepoWith(t, c, forgejo.CreateRepoRequest{AutoInit: true})
}

// newRepoWith creates a repository owned by the caller with o (Name and
// DefaultBranch are set here), checks what the server answered, and deletes
// it when t ends.
func newRepoWith(t *testing.T, c *forgejo.Client, o forgejo.CreateRepoRequest) string {
	t.Helper()
	o.Name, o.DefaultBranch = unique("it"), "main"
	repo, resp, err := c.Repos.Create(ctx(t), o)
	ok(t, "create repository", err)
	if status(resp) != 201 || repo.Name != o.Name || repo.Owner == nil || repo.DefaultBranch != "main" ||
		repo.Empty == o.AutoInit || repo.FullName != repo.Owner.Login+"/"+o.Name || repo.Private != o.Private {
		t.Fatalf("created repository (status %d) = %+v", status(resp), repo)
	}
	owner := repo.Owner.Login
	cleanup(t, "repository "+o.Name, func(ctx context.Context) (*forgejo.Response, error) {
		return c.Repos.Delete(ctx, owner, o.Name)
	})
	return o.Name
}

// fixture is the shared read-only repository: a few commits on main, a
// branch with a slash and a tag. Tests must not change it.
type fixture struct {
	owner, repo string
	// initSHA is the auto_init commit; mainSHA the head of main (the
	// ChangeFiles commit); featureSHA the head of feature/x, one commit
	// ahead of main.
	initSHA, mainSHA, featureSHA string
	// tag is v1.0.0, annotated, on mainSHA; tagSHA is the tag object.
	tag, tagSHA string
	// readmeSHA is the blob of README.md.
	readmeSHA string
	// note is the git note on mainSHA, pushed with the git command; empty
	// when there is no git command.
	note string
}

// fixtureFiles are committed to main in one ChangeFiles commit.
var fixtureFiles = map[string]string{
	"main.go":                          "package main\n\nfunc main() {}\n",
	"docs/guide.md":                    "# Guide\n\nRead me.\n",
	"docs/api/index.md":                "# API\n",
	".editorconfig":                    "root = true\n\n[*.go]\nindent_style = tab\nindent_size = 8\n",
	".gitea/ISSUE_TEMPLATE/config.yml": "blank_issues_enabled: false\ncontact_links:\n  - name: Forum\n    url: https://example.com/forum\n    about: Ask here\n",
	".gitea/ISSUE_TEMPLATE/bug.md":     "---\nname: Bug report\nabout: Something is broken\ntitle: \"[bug] \"\nlabels: [\"bug\"]\n---\n\nWhat happened?\n",
}

var (
	sharedOnce sync.Once
	sharedFx   *fixture
	sharedErr  error
)

// shared returns the fixture repository, building it on first use. It is
// deleted after the whole run (TestMain).
func shared(t *testing.T) *fixture {
	t.Helper()
	e := need(t)
	sharedOnce.Do(func() { sharedFx, sharedErr = buildFixture(e) })
	if sharedErr != nil {
		t.Fatalf("shared fixture: %v", sharedErr)
	}
	return sharedFx
}

func buildFixture(e *env) (*fixture, error) {
	c, err := forgejo.NewClient(forgejo.WithBaseURL(e.url), forgejo.WithToken(e.adminToken),
		forgejo.WithHooks(matrix.hooks()), forgejo.WithHTTPClient(&http.Client{Transport: transport}))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	fx := &fixture{owner: e.admin, repo: unique("fixture"), tag: "v1.0.0"}
	r, _, err := c.Repos.Create(ctx, forgejo.CreateRepoRequest{Name: fx.repo, AutoInit: true, DefaultBranch: "main", Description: "shared fixture"})
	if err != nil {
		return nil, fmt.Errorf("create: %w", err)
	}
	if r.Empty {
		return nil, errors.New("auto_init left the repository empty")
	}
	sharedCleanup = func() { _, _ = c.Repos.Delete(context.Background(), fx.owner, fx.repo) }
	br, _, err := c.Repos.GetBranch(ctx, fx.owner, fx.repo, "main")
	if err != nil {
		return nil, fmt.Errorf("get main: %w", err)
	}
	fx.initSHA = br.Commit.ID
	ops := []*forgejo.ChangeFileOperation{}
	for _, path := range sortedKeys(fixtureFiles) {
		ops = append(ops, &forgejo.ChangeFileOperation{Operation: "create", Path: path, Content: b64(fixtureFiles[path])})
	}
	fr, _, err := c.Repos.ChangeFiles(ctx, fx.owner, fx.repo, forgejo.ChangeFilesRequest{Files: ops, Message: "fixture files"})
	if err != nil {
		return nil, fmt.Errorf("change files: %w", err)
	}
	if fr.Commit == nil || len(fr.Files) != len(ops) {
		return nil, fmt.Errorf("change files answered %+v", fr)
	}
	fx.mainSHA = fr.Commit.SHA
	// One commit on a new branch with a slash in its name.
	f, _, err := c.Repos.CreateFile(ctx, fx.owner, fx.repo, "feature.txt", forgejo.CreateFileRequest{
		Content: b64("a feature\n"), Message: "add a feature", Branch: "main", NewBranch: "feature/x",
	})
	if err != nil {
		return nil, fmt.Errorf("feature branch: %w", err)
	}
	fx.featureSHA = f.Commit.SHA
	tag, _, err := c.Repos.CreateTag(ctx, fx.owner, fx.repo, forgejo.CreateTagRequest{TagName: fx.tag, Target: fx.mainSHA, Message: "release v1.0.0"})
	if err != nil {
		return nil, fmt.Errorf("tag: %w", err)
	}
	fx.tagSHA = tag.ID
	if err := addNote(ctx, e, fx); err != nil {
		return nil, fmt.Errorf("git note: %w", err)
	}
	readme, _, err := c.Repos.GetContents(ctx, fx.owner, fx.repo, "README.md", nil)
	if err != nil || readme.File == nil {
		return nil, fmt.Errorf("README: %v", err)
	}
	fx.readmeSHA = readme.File.SHA
	return fx, nil
}

// sharedCleanup deletes the fixture after the run; nil when none was built.
var sharedCleanup func()

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// putFile creates path with content on branch ("" for the default branch)
// and returns the server's answer.
func putFile(t *testing.T, c *forgejo.Client, owner, repo, path, content, branch string) *forgejo.FileResponse {
	t.Helper()
	fr, _, err := c.Repos.CreateFile(ctx(t), owner, repo, path, forgejo.CreateFileRequest{
		Content: b64(content), Message: "add " + path, Branch: branch,
	})
	ok(t, "create "+path, err)
	if fr.Content == nil || fr.Content.Path != path || fr.Commit == nil || fr.Commit.SHA == "" {
		t.Fatalf("create %s answered %+v", path, fr)
	}
	return fr
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func unb64(t *testing.T, s string) string {
	t.Helper()
	d, err := base64.StdEncoding.DecodeString(s)
	ok(t, "base64", err)
	return string(d)
}

// newIssue files an issue and returns its number.
func newIssue(t *testing.T, c *forgejo.Client, owner, repo, title string) int64 {
	t.Helper()
	is, _, err := c.Issues.Create(ctx(t), owner, repo, forgejo.CreateIssueRequest{Title: title, Body: "body of " + title})
	ok(t, "create issue", err)
	if is.Title != title || is.Number == 0 || is.State != forgejo.StateOpen {
		t.Fatalf("created issue = %+v", is)
	}
	return is.Number
}

// logins returns the logins of users.
func logins(users []*forgejo.User) []string {
	var out []string
	for _, u := range users {
		out = append(out, u.Login)
	}
	return out
}

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func containsRepo(repos []*forgejo.Repository, name string) bool {
	for _, r := range repos {
		if r.Name == name {
			return true
		}
	}
	return false
}

// mustEnvelope asserts that a Gitea listing which wraps its items in
// {"<key>": [...], "total_count": n}, where Forgejo's spec has a bare array,
// still decodes: the client unwraps a lone list member (HAZARDS.md §11).
func mustEnvelope(t *testing.T, err error, key string) {
	t.Helper()
	if err != nil {
		t.Fatalf("listing wrapped in {%q: [...], \"total_count\": n}: %v", key, err)
	}
}

// addNote pushes a git note on the fixture's main head with the git
// command (the API can read notes but, on Gitea, not write them). Without a
// git command it does nothing.
func addNote(ctx context.Context, e *env, fx *fixture) error {
	if _, err := exec.LookPath("git"); err != nil {
		return nil
	}
	dir, err := os.MkdirTemp("", "forgego-it-git")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	u, err := url.Parse(e.url + "/" + fx.owner + "/" + fx.repo + ".git")
	if err != nil {
		return err
	}
	u.User = url.UserPassword(e.admin, e.adminToken)
	const note = "reviewed by the integration suite"
	for _, args := range [][]string{
		{"clone", "--quiet", "--no-checkout", u.String(), dir},
		{"-C", dir, "-c", "user.name=forgego", "-c", "user.email=forgego@example.com", "notes", "add", "-m", note, fx.mainSHA},
		{"-C", dir, "push", "--quiet", "origin", "refs/notes/commits"},
	} {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "credential.helper="}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v: %s", args[0], err, strings.ReplaceAll(string(out), e.adminToken, "***"))
		}
	}
	fx.note = note
	return nil
}
