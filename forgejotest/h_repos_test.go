package forgejotest

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

func TestWikiNames(t *testing.T) {
	for _, tc := range []struct{ title, web, file string }{
		{"Home", "Home", "Home.md"},
		{"Second Page", "Second-Page", "Second Page.md"},
		{"a-b", "a-b.-", "a-b.md"},
		{"", "unnamed", "unnamed.md"},
		{"Q&A?", "Q&A%3F", "Q&A?.md"},
	} {
		web := titleToWebPath(tc.title)
		if web != tc.web || webPathToGitPath(web) != tc.file || gitPathToWebPath(tc.file) != tc.web {
			t.Errorf("%q: web %q file %q back %q", tc.title, web, webPathToGitPath(web), gitPathToWebPath(tc.file))
		}
	}
}

// The wiki's page listing takes a limit of one as "the default", as
// Forgejo's ListWikiPages does, and counts every page.
func TestWikiListing(t *testing.T) {
	srv := NewServer(t, WithDefaultPagingNum(2))
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	ctx, c := context.Background(), srv.Client()
	for _, title := range []string{"A", "B", "C"} {
		if _, _, err := c.Repos.CreateWikiPage(ctx, owner, "demo", forgejo.CreateWikiPageRequest{Title: forgejo.Ptr(title), ContentBase64: forgejo.Ptr(b64(title))}); err != nil {
			t.Fatal(err)
		}
	}
	pages, resp, err := c.Repos.ListWikiPages(ctx, owner, "demo", &forgejo.ListOptions{Page: 1, Limit: 1})
	total, _ := resp.TotalCount()
	if err != nil || len(pages) != 2 || total != 3 {
		t.Errorf("limit 1: %d pages (total %d), %v", len(pages), total, err)
	}
	_, _, err = c.Repos.CreateWikiPage(ctx, owner, "demo", forgejo.CreateWikiPageRequest{Title: forgejo.Ptr("_pages"), ContentBase64: forgejo.Ptr(b64("x"))})
	if statusOf(t, err) != http.StatusBadRequest {
		t.Errorf("a reserved name: %v", err)
	}
}

func sshBlob(fields ...[]byte) string {
	var blob []byte
	for _, f := range fields {
		blob = binary.BigEndian.AppendUint32(blob, uint32(len(f)))
		blob = append(blob, f...)
	}
	return base64.StdEncoding.EncodeToString(blob)
}

func TestParseAuthorizedKey(t *testing.T) {
	small, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	e := big.NewInt(int64(small.E)).Bytes()
	for _, tc := range []struct {
		key, err string
	}{
		{sshEd25519("me"), ""},
		{"ssh-rsa " + sshBlob([]byte("ssh-rsa"), e, small.N.Bytes()), "key length is not enough: got 1024, needs 3071"},
		{"ssh-dss " + sshBlob([]byte("ssh-dss"), []byte("x")), "invalid ssh public key: ssh: no key found"},
		{"ssh-ed25519 " + sshBlob([]byte("ssh-rsa"), []byte("x")), "key type and content does not match: ssh-ed25519 - ssh-rsa"},
		{"ssh-ed25519 !!!", "extractTypeFromBase64Key: invalid key format: illegal base64 data at input byte 0"},
		{"ssh-ed25519 " + sshBlob([]byte("ssh-ed25519"), []byte("short")), "invalid ssh public key: ssh: no key found"},
		{sshEd25519("a") + "\n" + sshEd25519("b"), "key contains new line"},
	} {
		content, fp, msg := checkSSHKey(tc.key)
		switch {
		case tc.err == "" && (msg != "" || !strings.HasPrefix(fp, "SHA256:") || content != tc.key):
			t.Errorf("%.30q: %q %q %v", tc.key, content, fp, msg)
		case tc.err != "" && msg != tc.err:
			t.Errorf("%.30q: error %q, want %q", tc.key, msg, tc.err)
		}
	}
}

// An organization's repository starts unwatched; a user's is watched by
// its owner, and watchers_count follows the watchers.
func TestWatchers(t *testing.T) {
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	tokB := srv.AddUser("bob")
	ctx, c, bob := context.Background(), srv.Client(), srv.Client(forgejo.WithToken(tokB))
	if _, _, err := bob.Repos.Watch(ctx, owner, "demo"); err != nil {
		t.Fatal(err)
	}
	r, _, err := c.Repos.Get(ctx, owner, "demo")
	if err != nil || r.WatchersCount != 2 {
		t.Errorf("watchers_count: %d, %v", r.WatchersCount, err)
	}
	mine, _, err := bob.Users.ListMySubscriptions(ctx, nil)
	if err != nil || len(mine) != 1 {
		t.Errorf("bob's subscriptions: %d, %v", len(mine), err)
	}
	theirs, _, err := c.Users.ListSubscriptions(ctx, "bob", nil)
	if err != nil || len(theirs) != 1 {
		t.Errorf("bob's subscriptions seen by the owner: %d, %v", len(theirs), err)
	}
	if _, _, err := c.Orgs.Create(ctx, forgejo.CreateOrgRequest{Username: "acme"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Repos.CreateInOrg(ctx, "acme", forgejo.CreateRepoRequest{Name: "tool"}); err != nil {
		t.Fatal(err)
	}
	if r, _, _ := c.Repos.Get(ctx, "acme", "tool"); r.WatchersCount != 0 {
		t.Errorf("an organization's repository: watchers_count %d", r.WatchersCount)
	}
}

// Git data beyond the contract: pull request heads among the references,
// languages, and the commit log's own page bound.
func TestGitDataMore(t *testing.T) {
	srv := NewServer(t, WithMaxResponseItems(100))
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	srv.AddBranch(owner, "demo", "feature")
	srv.AddPull(owner, "demo", "feature", "main", "A change")
	ctx, c := context.Background(), srv.Client()
	for _, f := range []string{"main.go", "util.go", "docs/x.go", "web/app.js", "config.yaml"} {
		if _, _, err := c.Repos.CreateFile(ctx, owner, "demo", f, forgejo.CreateFileRequest{Content: b64("package x\n")}); err != nil {
			t.Fatal(err)
		}
	}
	refs, _, err := c.Repos.ListRefs(ctx, owner, "demo")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range refs {
		names = append(names, r.Ref)
	}
	if strings.Join(names, " ") != "refs/heads/feature refs/heads/main refs/pull/1/head" {
		t.Errorf("refs: %v", names)
	}
	langs, _, err := c.Repos.ListLanguages(ctx, owner, "demo")
	if err != nil || len(langs) != 2 || langs["Go"] != 20 || langs["JavaScript"] != 10 {
		t.Errorf("languages (docs, data and prose left out): %v, %v", langs, err)
	}
	for range 60 {
		if _, _, err := c.Repos.CreateFile(ctx, owner, "demo", "n/"+strings.Repeat("x", 1+len(names))+time.Now().Format("150405.000000000"), forgejo.CreateFileRequest{Content: b64("x")}); err != nil {
			t.Fatal(err)
		}
	}
	cs, resp, err := c.Repos.ListCommits(ctx, owner, "demo", &forgejo.RepoListCommitsOptions{ListOptions: forgejo.ListOptions{Limit: 100}})
	if err != nil || len(cs) != 50 || resp.Header.Get("X-PerPage") != "50" || resp.Header.Get("X-HasMore") != "true" {
		t.Errorf("a page of 100 asked: %d, per page %q, has more %q, %v", len(cs), resp.Header.Get("X-PerPage"), resp.Header.Get("X-HasMore"), err)
	}
}

// A deploy key shows its repository only to the owner and site
// administrators; the same key on two repositories shares its key_id.
func TestDeployKeyShared(t *testing.T) {
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "one")
	srv.AddRepo(owner, "two")
	ctx, c := context.Background(), srv.Client()
	key := sshEd25519("shared")
	k1, _, err := c.Repos.CreateKey(ctx, owner, "one", forgejo.CreateKeyRequest{Title: "k", Key: key, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	k2, _, err := c.Repos.CreateKey(ctx, owner, "two", forgejo.CreateKeyRequest{Title: "k", Key: key})
	if err != nil || k1.KeyID != k2.KeyID || k1.ID == k2.ID {
		t.Errorf("the same key twice: %+v %+v, %v", k1, k2, err)
	}
	var raw []map[string]json.RawMessage
	if _, err := c.Do(ctx, &forgejo.Request{Method: "GET", Path: "/repos/" + owner + "/one/keys"}, &raw); err != nil || len(raw) != 1 {
		t.Fatalf("list: %v", err)
	}
	var perms struct {
		Permissions struct{ Push bool } `json:"permissions"`
	}
	if err := json.Unmarshal(raw[0]["repository"], &perms); err != nil || perms.Permissions.Push {
		t.Errorf("a read-only key's repository permissions: %s, %v", raw[0]["repository"], err)
	}
}

// Renaming the default branch moves the default and the open pull
// requests with it.
func TestRenameDefaultBranch(t *testing.T) {
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	srv.AddBranch(owner, "demo", "feature")
	n := srv.AddPull(owner, "demo", "feature", "main", "A change")
	ctx, c := context.Background(), srv.Client()
	if _, err := c.Repos.RenameBranch(ctx, owner, "demo", "main", forgejo.UpdateBranchRepoRequest{Name: "trunk"}); err != nil {
		t.Fatal(err)
	}
	r, _, _ := c.Repos.Get(ctx, owner, "demo")
	pr, _, err := c.PullRequests.Get(ctx, owner, "demo", n)
	if err != nil || r.DefaultBranch != "trunk" || pr.Base.Ref != "trunk" {
		t.Errorf("after renaming main: default %q, pull base %q, %v", r.DefaultBranch, pr.Base.Ref, err)
	}
}

// A transferred repository answers under its old name with a 307 to the
// new one, which the client follows.
func TestTransferRedirect(t *testing.T) {
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	tokB := srv.AddUser("bob")
	ctx, c, bob := context.Background(), srv.Client(), srv.Client(forgejo.WithToken(tokB))
	// The owner is no site administrator: the transfer waits for bob.
	r, resp, err := c.Repos.Transfer(ctx, owner, "demo", forgejo.TransferRepoRequest{NewOwner: "bob"})
	if err != nil || resp.StatusCode != http.StatusCreated || r.Owner.Login != owner {
		t.Fatalf("start: %d %+v, %v", resp.StatusCode, r, err)
	}
	if _, _, err := bob.Repos.AcceptTransfer(ctx, owner, "demo"); err != nil {
		t.Fatal(err)
	}
	got, _, err := c.Repos.Get(ctx, owner, "demo")
	if err != nil || got.FullName != "bob/demo" {
		t.Errorf("the old name: %+v, %v", got, err)
	}
	var redirects int
	for _, rq := range srv.Requests() {
		if rq.Status == http.StatusTemporaryRedirect {
			redirects++
		}
	}
	if redirects != 1 {
		t.Errorf("redirects: %d", redirects)
	}
}

func TestNotesAndTemplates(t *testing.T) {
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	ctx, c := context.Background(), srv.Client()
	n, _, err := c.Repos.SetNote(ctx, owner, "demo", "main", forgejo.NoteRequest{Message: "looked at"})
	if err != nil || n.Message != "looked at\n" || n.Commit == nil {
		t.Fatalf("set: %+v, %v", n, err)
	}
	if g, _, err := c.Repos.GetNote(ctx, owner, "demo", n.Commit.SHA, nil); err != nil || g.Message != n.Message {
		t.Errorf("get by id: %+v, %v", g, err)
	}
	if _, err := c.Repos.DeleteNote(ctx, owner, "demo", "main"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Repos.DeleteNote(ctx, owner, "demo", "main"); statusOf(t, err) != http.StatusNotFound {
		t.Errorf("remove again: %v", err)
	}
	tpl := "---\nname: Feature\ndescription: Ask for one\nlabels: enhancement, ui\n---\nWhat?\n"
	if _, _, err := c.Repos.CreateFile(ctx, owner, "demo", ".forgejo/issue_template/feature.md", forgejo.CreateFileRequest{Content: b64(tpl)}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Repos.CreateFile(ctx, owner, "demo", ".forgejo/issue_template/config.yml", forgejo.CreateFileRequest{Content: b64("blank_issues_enabled: maybe\n")}); err != nil {
		t.Fatal(err)
	}
	ts, _, err := c.Repos.ListIssueTemplates(ctx, owner, "demo")
	if err != nil || len(ts) != 1 || ts[0].About != "Ask for one" || len(ts[0].Labels) != 2 || ts[0].Content != "What?\n" {
		t.Errorf("templates: %+v, %v", ts, err)
	}
	v, _, err := c.Repos.ValidateIssueConfig(ctx, owner, "demo")
	if err != nil || v.Valid || v.Message == "" {
		t.Errorf("an invalid config: %+v, %v", v, err)
	}
}

func TestMirrorAddresses(t *testing.T) {
	for _, tc := range []struct {
		addr   string
		status int
	}{
		{"https://codeberg.org/x/y.git", 0},
		{"ssh://git@example.com/x.git", 0},
		{"http://localhost/x.git", http.StatusUnauthorized},
		{"https://10.1.2.3/x.git", http.StatusUnauthorized},
		{"https://[::1]/x.git", http.StatusUnauthorized},
		{"file:///etc/x", http.StatusBadRequest},
		{"not a url", http.StatusBadRequest},
	} {
		if st, _ := mirrorAddressAllowed(tc.addr); st != tc.status {
			t.Errorf("%s: %d, want %d", tc.addr, st, tc.status)
		}
	}
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	ctx, c := context.Background(), srv.Client()
	m, _, err := c.Repos.CreatePushMirror(ctx, owner, "demo", forgejo.CreatePushMirrorRequest{
		RemoteAddress: "https://codeberg.org/x/y.git", RemoteUsername: "bot", RemotePassword: "secret", Interval: "0"})
	if err != nil || m.RemoteAddress != "https://bot@codeberg.org/x/y.git" || m.Interval != "0s" {
		t.Errorf("the password is not kept: %+v, %v", m, err)
	}
	if _, err := c.Repos.SyncPushMirrors(ctx, owner, "demo"); err != nil {
		t.Fatal(err)
	}
	if g, _, _ := c.Repos.GetPushMirror(ctx, owner, "demo", m.RemoteName); g == nil || g.LastUpdate.IsZero() {
		t.Errorf("after a sync: %+v", g)
	}
}

func TestEditorconfigGlob(t *testing.T) {
	for _, tc := range []struct {
		sel, path string
		want      bool
	}{
		{"*", "a.go", true},
		{"*.go", "x/a.go", true},
		{"/*.go", "x/a.go", false},
		{"x/**.go", "x/y/a.go", true},
		{"*.{js,ts}", "a.ts", true},
		{"[Mm]akefile", "makefile", true},
		{"a?.txt", "ab.txt", true},
		{"[!a]*", "abc", false},
	} {
		re, err := editorconfigGlob(tc.sel)
		if err != nil || re.MatchString(tc.path) != tc.want {
			t.Errorf("%q on %q: %v %v", tc.sel, tc.path, err, !tc.want)
		}
	}
}

func TestCommitDiffHunks(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\n"
	nw := "a\nB\nc\nd\ne\nf\nG\nh\n" // two changes five lines apart: one hunk
	got := commitDiff(map[string]string{"f": old}, map[string]string{"f": nw})
	want := "diff --git a/f b/f\nindex " + blobSHA(old)[:7] + ".." + blobSHA(nw)[:7] + " 100644\n--- a/f\n+++ b/f\n" +
		"@@ -1,8 +1,8 @@\n a\n-b\n+B\n c\n d\n e\n f\n-g\n+G\n h\n"
	if got != want {
		t.Errorf("one hunk:\n%s\nwant:\n%s", got, want)
	}
	got = commitDiff(map[string]string{"e": ""}, map[string]string{"e": "x"})
	if !strings.HasSuffix(got, "@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n") {
		t.Errorf("from empty: %q", got)
	}
}
