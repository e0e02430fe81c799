package integration

//lint:file-ignore SA1019 the suite calls deprecated operations and reads deprecated fields on purpose: the route matrix covers every operation, and Gitea still sends Hook.config.

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo"
)

// sshKey returns a fresh ed25519 public key in authorized_keys form.
func sshKey(t *testing.T, comment string) string {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	ok(t, "generate key", err)
	var wire bytes.Buffer
	for _, part := range [][]byte{[]byte("ssh-ed25519"), pub} {
		_ = binary.Write(&wire, binary.BigEndian, uint32(len(part)))
		wire.Write(part)
	}
	return "ssh-ed25519 " + base64.StdEncoding.EncodeToString(wire.Bytes()) + " " + comment
}

// pngImage returns a small PNG, base64-encoded, for avatars.
func pngImage(t *testing.T) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for x := range 8 {
		for y := range 8 {
			img.Set(x, y, color.RGBA{R: uint8(x * 30), G: uint8(y * 30), B: 200, A: 255})
		}
	}
	var buf bytes.Buffer
	ok(t, "encode png", png.Encode(&buf, img))
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

func TestRepository(t *testing.T) {
	c := admin(t)
	owner := need(t).admin
	repo := newRepoWith(t, c, forgejo.CreateRepoRequest{AutoInit: true, Description: "made by the suite", Gitignores: "Go", License: "MIT", Readme: "Default"})

	got, _, err := c.Repos.Get(ctx(t), owner, repo)
	ok(t, "get", err)
	if got.Description != "made by the suite" || got.Private || got.Fork || got.Permissions == nil || !got.Permissions.Admin || got.DefaultBranch != "main" {
		t.Fatalf("get = %+v", got)
	}
	byID, _, err := c.Repos.GetByID(ctx(t), got.ID)
	if err != nil || byID.FullName != owner+"/"+repo {
		t.Fatalf("get by id = %+v, %v", byID, err)
	}
	// auto_init with a license and a .gitignore committed three files.
	root, _, err := c.Repos.ListContents(ctx(t), owner, repo, nil)
	ok(t, "root listing", err)
	var files []string
	for _, e := range root {
		files = append(files, e.Name)
	}
	for _, want := range []string{"README.md", "LICENSE", ".gitignore"} {
		if !contains(files, want) {
			t.Fatalf("auto_init created %v, want %s among them", files, want)
		}
	}

	edited, _, err := c.Repos.Edit(ctx(t), owner, repo, forgejo.EditRepoRequest{
		Description: forgejo.Ptr(""), Website: forgejo.Ptr("https://example.com"), HasWiki: forgejo.Ptr(false),
	})
	if err != nil || edited.Description != "" || edited.Website != "https://example.com" || edited.HasWiki {
		t.Fatalf("edit = %+v, %v", edited, err)
	}

	t.Run("search", func(t *testing.T) {
		found, resp, err := c.Repos.Search(ctx(t), &forgejo.RepoSearchOptions{Query: repo})
		ok(t, "search", err)
		if len(found) != 1 || found[0].Name != repo {
			t.Fatalf("search %q = %d repositories", repo, len(found))
		}
		if n, ok := resp.TotalCount(); !ok || n != 1 {
			t.Fatalf("search X-Total-Count = %d (%v)", n, ok)
		}
		mine, _, err := c.Repos.List(ctx(t), &forgejo.RepoListOptions{ListOptions: forgejo.ListOptions{Limit: 50}})
		ok(t, "my repositories", err)
		if len(mine) == 0 {
			t.Fatal("no repositories of mine")
		}
		seen := false
		for r, err := range c.Repos.ListByUserIter(ctx(t), owner, nil) {
			ok(t, "walk user repositories", err)
			seen = seen || r.Name == repo
		}
		if !seen {
			t.Fatalf("%s not among %s's repositories", repo, owner)
		}
	})

	t.Run("topics", func(t *testing.T) {
		_, err := c.Repos.ReplaceTopics(ctx(t), owner, repo, []string{"go", "forgejo", "api"})
		ok(t, "replace topics", err)
		topics, resp, err := c.Repos.ListTopics(ctx(t), owner, repo, nil)
		if err != nil || len(topics) != 3 {
			t.Fatalf("topics = %v, %v", topics, err)
		}
		if n, ok := resp.TotalCount(); !ok || n != 3 {
			t.Fatalf("X-Total-Count = %d, %v", n, ok)
		}
		resp, err = c.Repos.AddTopic(ctx(t), owner, repo, "client")
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("add topic: %d, %v", status(resp), err)
		}
		resp, err = c.Repos.RemoveTopic(ctx(t), owner, repo, "forgejo")
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete topic: %d, %v", status(resp), err)
		}
		topics, _, _ = c.Repos.ListTopics(ctx(t), owner, repo, nil)
		if len(topics) != 3 || !contains(topics, "client") || contains(topics, "forgejo") {
			t.Fatalf("topics after add and delete = %v", topics)
		}
		// An invalid topic is refused with 422 and the invalid list.
		_, err = c.Repos.AddTopic(ctx(t), owner, repo, "Not_A_Topic!")
		mustStatus(t, err, http.StatusUnprocessableEntity)
		found, _, err := c.Repos.SearchTopics(ctx(t), &forgejo.RepoSearchTopicsOptions{Query: "client"})
		if err != nil || len(found) == 0 || found[0].TopicName != "client" || found[0].RepoCount < 1 {
			t.Fatalf("topic search = %+v, %v", found, err)
		}
		_, err = c.Repos.ReplaceTopics(ctx(t), owner, repo, nil)
		ok(t, "clear topics", err)
		if topics, _, _ = c.Repos.ListTopics(ctx(t), owner, repo, nil); len(topics) != 0 {
			t.Fatalf("topics after clearing = %v", topics)
		}
	})

	t.Run("avatar", func(t *testing.T) {
		resp, err := c.Repos.SetAvatar(ctx(t), owner, repo, forgejo.UpdateRepoAvatarRequest{Image: pngImage(t)})
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("update avatar: %d, %v", status(resp), err)
		}
		r, _, _ := c.Repos.Get(ctx(t), owner, repo)
		if r.AvatarURL == "" {
			t.Fatal("no avatar URL after upload")
		}
		resp, err = c.Repos.DeleteAvatar(ctx(t), owner, repo)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete avatar: %d, %v", status(resp), err)
		}
	})

	t.Run("push mirrors", func(t *testing.T) {
		mirrors, _, err := c.Repos.ListPushMirrors(ctx(t), owner, repo, nil)
		if err != nil || len(mirrors) != 0 {
			t.Fatalf("push mirrors = %v, %v", mirrors, err)
		}
		// A remote in a reserved or local range is refused, with 401
		// (HAZARDS.md): not an authentication failure.
		// Forgejo 15 accepts it (HAZARDS.md §22); it is deleted again.
		reserved, _, err := c.Repos.CreatePushMirror(ctx(t), owner, repo, forgejo.CreatePushMirrorRequest{RemoteAddress: "https://203.0.113.5/x.git", Interval: "8h"})
		if onForgejo(t) {
			if err != nil || reserved.RemoteName == "" {
				t.Fatalf("push mirror to a reserved address on Forgejo: %+v, %v", reserved, err)
			}
			_, err = c.Repos.DeletePushMirror(ctx(t), owner, repo, reserved.RemoteName)
			ok(t, "delete the reserved-address mirror", err)
		} else if ae := mustStatus(t, err, http.StatusUnauthorized); ae.Message != "Permission denied" {
			t.Fatalf("push mirror to a reserved address: %+v", ae)
		}
		// A public address is accepted. Adding does not push; the suite
		// never syncs it (no network is assumed).
		m, _, err := c.Repos.CreatePushMirror(ctx(t), owner, repo, forgejo.CreatePushMirrorRequest{
			RemoteAddress: "https://93.184.216.34/forgego-it-mirror.git", Interval: "8h", RemoteUsername: "u", RemotePassword: "p",
		})
		ok(t, "add push mirror", err)
		if m.RemoteName == "" || m.Interval != "8h0m0s" || m.RemoteAddress != "https://93.184.216.34/forgego-it-mirror.git" {
			t.Fatalf("push mirror = %+v", m)
		}
		got, _, err := c.Repos.GetPushMirror(ctx(t), owner, repo, m.RemoteName)
		if err != nil || got.RemoteName != m.RemoteName {
			t.Fatalf("push mirror by name = %+v, %v", got, err)
		}
		if mirrors, _, _ = c.Repos.ListPushMirrors(ctx(t), owner, repo, nil); len(mirrors) != 1 {
			t.Fatalf("push mirrors after adding = %v", mirrors)
		}
		resp, err := c.Repos.DeletePushMirror(ctx(t), owner, repo, m.RemoteName)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete push mirror: %d, %v", status(resp), err)
		}
		_, _, err = c.Repos.GetPushMirror(ctx(t), owner, repo, m.RemoteName)
		mustStatus(t, err, http.StatusNotFound)
	})

	t.Run("activity", func(t *testing.T) {
		feed, _, err := c.Repos.ListActivityFeeds(ctx(t), owner, repo, nil)
		ok(t, "activity", err)
		kinds := map[forgejo.ActivityOpType]bool{}
		for _, a := range feed {
			kinds[a.OpType] = true
		}
		if !kinds[forgejo.ActivityOpCreateRepo] {
			t.Fatalf("repository feed lacks create_repo: %v", kinds)
		}
	})

}

func TestStarsAndWatches(t *testing.T) {
	c, u2 := admin(t), user2(t)
	owner, repo := need(t).admin, newRepo(t, c)

	starred, _, err := u2.Users.IsStarred(ctx(t), owner, repo)
	if err != nil || starred {
		t.Fatalf("starred before = %v, %v", starred, err)
	}
	resp, err := u2.Users.Star(ctx(t), owner, repo)
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("star: %d, %v", status(resp), err)
	}
	starred, _, err = u2.Users.IsStarred(ctx(t), owner, repo)
	if err != nil || !starred {
		t.Fatalf("starred after = %v, %v", starred, err)
	}
	mine, _, err := u2.Users.ListMyStarred(ctx(t), nil)
	if err != nil || len(mine) == 0 || !containsRepo(mine, repo) {
		t.Fatalf("my starred = %d, %v", len(mine), err)
	}
	theirs, _, err := c.Users.ListStarred(ctx(t), need(t).user2, nil)
	if err != nil || !containsRepo(theirs, repo) {
		t.Fatalf("user2's starred = %d, %v", len(theirs), err)
	}
	gazers, _, err := c.Repos.ListStargazers(ctx(t), owner, repo, nil)
	if err != nil || len(gazers) != 1 || gazers[0].Login != need(t).user2 {
		t.Fatalf("stargazers = %v, %v", logins(gazers), err)
	}
	r, _, _ := c.Repos.Get(ctx(t), owner, repo)
	if r.StarsCount != 1 {
		t.Fatalf("stars_count = %d", r.StarsCount)
	}
	resp, err = u2.Users.Unstar(ctx(t), owner, repo)
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("unstar: %d, %v", status(resp), err)
	}
	if starred, _, _ = u2.Users.IsStarred(ctx(t), owner, repo); starred {
		t.Fatal("still starred after unstar")
	}

	// Watching: 404 means "not watching" and arrives as an *APIError.
	_, _, err = u2.Repos.GetSubscription(ctx(t), owner, repo)
	mustStatus(t, err, http.StatusNotFound)
	w, _, err := u2.Repos.Watch(ctx(t), owner, repo)
	if err != nil || !w.Subscribed || w.Ignored {
		t.Fatalf("watch = %+v, %v", w, err)
	}
	w, _, err = u2.Repos.GetSubscription(ctx(t), owner, repo)
	if err != nil || !w.Subscribed {
		t.Fatalf("watching = %+v, %v", w, err)
	}
	subs, _, err := c.Repos.ListSubscribers(ctx(t), owner, repo, nil)
	if err != nil || !contains(logins(subs), need(t).user2) || !contains(logins(subs), owner) {
		t.Fatalf("watchers = %v, %v", logins(subs), err)
	}
	watched, _, err := u2.Users.ListMySubscriptions(ctx(t), nil)
	if err != nil || !containsRepo(watched, repo) {
		t.Fatalf("my watched = %d, %v", len(watched), err)
	}
	watched, _, err = c.Users.ListSubscriptions(ctx(t), need(t).user2, nil)
	if err != nil || !containsRepo(watched, repo) {
		t.Fatalf("user2's watched = %d, %v", len(watched), err)
	}
	resp, err = u2.Repos.Unwatch(ctx(t), owner, repo)
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("unwatch: %d, %v", status(resp), err)
	}
}

func TestCollaborators(t *testing.T) {
	c, u2 := admin(t), user2(t)
	owner, repo := need(t).admin, newRepoWith(t, c, forgejo.CreateRepoRequest{Private: true})
	user := need(t).user2

	// Private: user2 cannot see it, and the answer is 404, not 403.
	_, _, err := u2.Repos.Get(ctx(t), owner, repo)
	mustStatus(t, err, http.StatusNotFound)

	is, _, err := c.Repos.IsCollaborator(ctx(t), owner, repo, user)
	if err != nil || is {
		t.Fatalf("collaborator before = %v, %v", is, err)
	}
	resp, err := c.Repos.AddCollaborator(ctx(t), owner, repo, user, forgejo.AddCollaboratorRequest{Permission: "write"})
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("add collaborator: %d, %v", status(resp), err)
	}
	is, _, err = c.Repos.IsCollaborator(ctx(t), owner, repo, user)
	if err != nil || !is {
		t.Fatalf("collaborator after = %v, %v", is, err)
	}
	list, _, err := c.Repos.ListCollaborators(ctx(t), owner, repo, nil)
	if err != nil || len(list) != 1 || list[0].Login != user {
		t.Fatalf("collaborators = %v, %v", logins(list), err)
	}
	perm, _, err := c.Repos.GetPermissionLevel(ctx(t), owner, repo, user)
	if err != nil || perm.Permission != "write" || perm.User == nil || perm.User.Login != user {
		t.Fatalf("permission = %+v, %v", perm, err)
	}
	r, _, err := u2.Repos.Get(ctx(t), owner, repo)
	if err != nil || !r.Private || r.Permissions == nil || !r.Permissions.Push || r.Permissions.Admin {
		t.Fatalf("user2's view of the private repository = %+v, %v", r, err)
	}
	assignees, _, err := c.Issues.ListAssignees(ctx(t), owner, repo)
	if err != nil || !contains(logins(assignees), user) || !contains(logins(assignees), owner) {
		t.Fatalf("assignees = %v, %v", logins(assignees), err)
	}
	reviewers, _, err := c.Repos.ListReviewers(ctx(t), owner, repo)
	if err != nil || !contains(logins(reviewers), user) {
		t.Fatalf("reviewers = %v, %v", logins(reviewers), err)
	}
	resp, err = c.Repos.RemoveCollaborator(ctx(t), owner, repo, user)
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("delete collaborator: %d, %v", status(resp), err)
	}
	if is, _, _ = c.Repos.IsCollaborator(ctx(t), owner, repo, user); is {
		t.Fatal("still a collaborator")
	}
}

func TestDeployKeys(t *testing.T) {
	c := admin(t)
	owner, repo := need(t).admin, newRepo(t, c)
	key := sshKey(t, "deploy@forgego")
	k, resp, err := c.Repos.CreateKey(ctx(t), owner, repo, forgejo.CreateKeyRequest{Title: "ci", Key: key, ReadOnly: true})
	ok(t, "create deploy key", err)
	if k.Title != "ci" || !k.ReadOnly || k.Fingerprint == "" || status(resp) != http.StatusCreated || !strings.HasPrefix(k.Key, "ssh-ed25519 ") {
		t.Fatalf("deploy key = %+v (status %d)", k, status(resp))
	}
	list, _, err := c.Repos.ListKeys(ctx(t), owner, repo, nil)
	if err != nil || len(list) != 1 || list[0].ID != k.ID {
		t.Fatalf("deploy keys = %v, %v", list, err)
	}
	byFP, _, err := c.Repos.ListKeys(ctx(t), owner, repo, &forgejo.RepoListKeysOptions{Fingerprint: k.Fingerprint})
	if err != nil || len(byFP) != 1 {
		t.Fatalf("deploy keys by fingerprint = %v, %v", byFP, err)
	}
	got, _, err := c.Repos.GetKey(ctx(t), owner, repo, k.ID)
	if err != nil || got.Fingerprint != k.Fingerprint {
		t.Fatalf("get deploy key = %+v, %v", got, err)
	}
	// The same key twice is a conflict... or a 422: record which.
	_, _, err = c.Repos.CreateKey(ctx(t), owner, repo, forgejo.CreateKeyRequest{Title: "again", Key: key})
	mustStatus(t, err, http.StatusUnprocessableEntity)
	resp, err = c.Repos.DeleteKey(ctx(t), owner, repo, k.ID)
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("delete deploy key: %d, %v", status(resp), err)
	}
	_, _, err = c.Repos.GetKey(ctx(t), owner, repo, k.ID)
	mustStatus(t, err, http.StatusNotFound)
}

// TestRepoWebhooks works on the shared fixture: a test delivery needs a
// commit ("repository is empty" 404 otherwise). The hook is deleted again.
func TestRepoWebhooks(t *testing.T) {
	c := admin(t)
	fx := shared(t)
	owner, repo := fx.owner, fx.repo
	h, resp, err := c.Repos.CreateHook(ctx(t), owner, repo, forgejo.CreateHookRequest{
		Type: "gitea", Active: true, Events: []string{"push", "issues"}, BranchFilter: "main",
		Config: forgejo.HookConfig{"url": "http://hooks.invalid/x", "content_type": "json", "secret": "s3cret-value"},
	})
	ok(t, "create hook", err)
	cleanup(t, "hook", func(ctx context.Context) (*forgejo.Response, error) {
		return c.Repos.DeleteHook(ctx, owner, repo, h.ID)
	})
	if h.ID == 0 || !h.Active || h.Type != "gitea" || h.Config["url"] != "http://hooks.invalid/x" || status(resp) != http.StatusCreated || !contains(h.Events, "push") {
		t.Fatalf("hook = %+v (status %d)", h, status(resp))
	}
	list, _, err := c.Repos.ListHooks(ctx(t), owner, repo, nil)
	if err != nil || len(list) != 1 || list[0].ID != h.ID {
		t.Fatalf("hooks = %v, %v", list, err)
	}
	got, _, err := c.Repos.GetHook(ctx(t), owner, repo, h.ID)
	if err != nil || got.Config["content_type"] != "json" || got.BranchFilter != "main" {
		t.Fatalf("get hook = %+v, %v", got, err)
	}
	if _, leaked := got.Config["secret"]; leaked {
		t.Fatalf("the server echoed the hook secret: %v", got.Config)
	}
	got, _, err = c.Repos.EditHook(ctx(t), owner, repo, h.ID, forgejo.EditHookRequest{Active: forgejo.Ptr(false), Events: []string{"release"}})
	if err != nil || got.Active || len(got.Events) != 1 || got.Events[0] != "release" {
		t.Fatalf("edit hook = %+v, %v", got, err)
	}
	resp, err = c.Repos.TestHook(ctx(t), owner, repo, h.ID, &forgejo.RepoTestHookOptions{Ref: "main"})
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("test hook: %d, %v", status(resp), err)
	}
	resp, err = c.Repos.DeleteHook(ctx(t), owner, repo, h.ID)
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("delete hook: %d, %v", status(resp), err)
	}
	_, _, err = c.Repos.GetHook(ctx(t), owner, repo, h.ID)
	mustStatus(t, err, http.StatusNotFound)

	// Server-side git hooks: Gitea 1.27 disables editing them by default
	// (DISABLE_GIT_HOOKS), so even the site admin gets 403 with a message.
	_, _, err = c.Repos.ListGitHooks(ctx(t), owner, repo)
	if ae := mustStatus(t, err, http.StatusForbidden); ae.Message != "must be allowed to edit Git hooks" {
		t.Fatalf("git hooks: %+v", ae)
	}
}

func TestForksAndTransfers(t *testing.T) {
	c, u2 := admin(t), user2(t)
	fx := shared(t)
	owner, user := need(t).admin, need(t).user2

	t.Run("fork", func(t *testing.T) {
		name := unique("fork")
		fork, resp, err := u2.Repos.CreateFork(ctx(t), fx.owner, fx.repo, forgejo.CreateForkRequest{Name: name})
		ok(t, "fork", err)
		cleanup(t, "fork", func(ctx context.Context) (*forgejo.Response, error) { return u2.Repos.Delete(ctx, user, name) })
		if !fork.Fork || fork.Owner == nil || fork.Owner.Login != user || fork.Parent == nil || fork.Parent.FullName != fx.owner+"/"+fx.repo || status(resp) != http.StatusAccepted {
			t.Fatalf("fork = %+v (status %d)", fork, status(resp))
		}
		forks, _, err := c.Repos.ListForks(ctx(t), fx.owner, fx.repo, nil)
		if err != nil || !containsRepo(forks, name) {
			t.Fatalf("forks = %v, %v", forks, err)
		}
		// The fork has the parent's branches.
		br, _, err := u2.Repos.GetBranch(ctx(t), user, name, "feature/x")
		if err != nil || br.Commit == nil || br.Commit.ID != fx.featureSHA {
			t.Fatalf("fork's feature/x = %+v, %v", br, err)
		}
	})

	// A site admin's transfer happens at once (202, new owner in the
	// answer); a plain user's transfer to someone else waits for them.
	t.Run("transfer by an admin", func(t *testing.T) {
		name := newRepo(t, c)
		r, resp, err := c.Repos.Transfer(ctx(t), owner, name, forgejo.TransferRepoRequest{NewOwner: user})
		ok(t, "transfer", err)
		cleanup(t, "transferred repository", func(ctx context.Context) (*forgejo.Response, error) { return u2.Repos.Delete(ctx, user, name) })
		if status(resp) != http.StatusAccepted || r.Owner == nil || r.Owner.Login != user {
			t.Fatalf("transfer answered %d: %+v", status(resp), r)
		}
		got, _, err := u2.Repos.Get(ctx(t), user, name)
		if err != nil || got.Owner.Login != user {
			t.Fatalf("after transfer = %+v, %v", got, err)
		}
	})

	t.Run("transfer accepted", func(t *testing.T) {
		name := newRepo(t, u2)
		r, resp, err := u2.Repos.Transfer(ctx(t), user, name, forgejo.TransferRepoRequest{NewOwner: owner})
		ok(t, "transfer", err)
		if status(resp) != http.StatusCreated || r.Owner == nil || r.Owner.Login != user {
			t.Fatalf("pending transfer answered %d: %+v", status(resp), r)
		}
		accepted, resp, err := c.Repos.AcceptTransfer(ctx(t), user, name)
		ok(t, "accept", err)
		cleanup(t, "accepted repository", func(ctx context.Context) (*forgejo.Response, error) { return c.Repos.Delete(ctx, owner, name) })
		if accepted.Owner == nil || accepted.Owner.Login != owner || status(resp) != http.StatusAccepted {
			t.Fatalf("accepted (%d) = %+v", status(resp), accepted)
		}
	})

	t.Run("transfer rejected", func(t *testing.T) {
		name := newRepo(t, u2)
		_, _, err := u2.Repos.Transfer(ctx(t), user, name, forgejo.TransferRepoRequest{NewOwner: owner})
		ok(t, "transfer", err)
		rejected, _, err := c.Repos.RejectTransfer(ctx(t), user, name)
		ok(t, "reject", err)
		if rejected.Owner == nil || rejected.Owner.Login != user {
			t.Fatalf("rejected = %+v", rejected)
		}
		_, _, err = c.Repos.AcceptTransfer(ctx(t), user, name)
		mustStatus(t, err, http.StatusNotFound) // nothing pending any more
	})

	t.Run("template", func(t *testing.T) {
		tmpl := newRepoWith(t, c, forgejo.CreateRepoRequest{AutoInit: true, Template: true})
		_, err := c.Repos.ReplaceTopics(ctx(t), owner, tmpl, []string{"tmpl"})
		ok(t, "topics", err)
		name := unique("gen")
		gen, resp, err := c.Repos.Generate(ctx(t), owner, tmpl, forgejo.GenerateRepoRequest{Owner: owner, Name: name, GitContent: true, Topics: true, Description: "generated"})
		ok(t, "generate", err)
		cleanup(t, "generated repository", func(ctx context.Context) (*forgejo.Response, error) { return c.Repos.Delete(ctx, owner, name) })
		if gen.Name != name || gen.Description != "generated" || status(resp) != http.StatusCreated {
			t.Fatalf("generated = %+v (status %d)", gen, status(resp))
		}
		raw, _, err := c.Repos.GetRawFile(ctx(t), owner, name, "README.md", nil)
		if err != nil || !strings.Contains(string(raw), tmpl) {
			t.Fatalf("generated README = %q, %v", raw, err)
		}
		topics, _, err := c.Repos.ListTopics(ctx(t), owner, name, nil)
		if err != nil || len(topics) != 1 || topics[0] != "tmpl" {
			t.Fatalf("generated topics = %v, %v", topics, err)
		}
	})
}

// TestRenamedRepositoryRedirect: after a rename (or a transfer), the old
// path answers 301 to the new one, for every method. net/http follows a 301
// by turning a PATCH, POST or DELETE into a GET, so without care a write to
// the old name "succeeds" as a read of the new one, and nothing is written.
func TestRenamedRepositoryRedirect(t *testing.T) {
	c := admin(t)
	owner, old := need(t).admin, newRepo(t, c)
	renamed := old + "-renamed"
	r, _, err := c.Repos.Edit(ctx(t), owner, old, forgejo.EditRepoRequest{Name: forgejo.Ptr(renamed)})
	ok(t, "rename", err)
	cleanup(t, "renamed repository", func(ctx context.Context) (*forgejo.Response, error) { return c.Repos.Delete(ctx, owner, renamed) })
	if r.Name != renamed {
		t.Fatalf("renamed = %+v", r)
	}
	// A read through the old name follows the redirect: fine.
	got, _, err := c.Repos.Get(ctx(t), owner, old)
	if err != nil || got.Name != renamed {
		t.Fatalf("get through the old name = %+v, %v", got, err)
	}
	// A write through the old name must either be done or fail; it must
	// not report a success it did not have.
	var bugs []string
	edited, _, err := c.Repos.Edit(ctx(t), owner, old, forgejo.EditRepoRequest{Description: forgejo.Ptr("written through the old name")})
	var redirected *forgejo.APIError
	if !errors.As(err, &redirected) || redirected.StatusCode/100 != 3 {
		bugs = append(bugs, fmt.Sprintf("PATCH to the old path: want the 3xx as an *APIError, got %v", err))
	}
	after, _, gerr := c.Repos.Get(ctx(t), owner, renamed)
	ok(t, "get", gerr)
	if err == nil && after.Description != "written through the old name" {
		bugs = append(bugs, fmt.Sprintf("PATCH to the old path: 301, re-sent as GET, the unchanged repository (description %q) returned as the edit's result", edited.Description))
	}
	_, err = c.Repos.Delete(ctx(t), owner, old)
	if _, _, gerr := c.Repos.Get(ctx(t), owner, renamed); err == nil && gerr == nil {
		bugs = append(bugs, "DELETE to the old path: 301, re-sent as GET (200), reported as deleted although the repository still exists")
	}
	if len(bugs) > 0 {
		t.Fatal("regression: a write that meets a redirect reports success: " + strings.Join(bugs, "; "))
	}
}

func TestWiki(t *testing.T) {
	c := admin(t)
	owner, repo := need(t).admin, newRepo(t, c)
	p, resp, err := c.Repos.CreateWikiPage(ctx(t), owner, repo, forgejo.CreateWikiPageRequest{
		Title: forgejo.Ptr("Home"), ContentBase64: forgejo.Ptr(b64("# Welcome\n")), Message: forgejo.Ptr("first page"),
	})
	ok(t, "create wiki page", err)
	if p.Title != "Home" || unb64(t, p.ContentBase64) != "# Welcome\n" || status(resp) != http.StatusCreated {
		t.Fatalf("wiki page = %+v (status %d)", p, status(resp))
	}
	_, _, err = c.Repos.CreateWikiPage(ctx(t), owner, repo, forgejo.CreateWikiPageRequest{
		Title: forgejo.Ptr("Second Page"), ContentBase64: forgejo.Ptr(b64("two\n")),
	})
	ok(t, "create second page", err)
	// An edit without a title renames the page on Gitea (to "unnamed"): keep
	// the title.
	p, _, err = c.Repos.EditWikiPage(ctx(t), owner, repo, "Home", forgejo.CreateWikiPageRequest{Title: forgejo.Ptr("Home"), ContentBase64: forgejo.Ptr(b64("# Welcome back\n")), Message: forgejo.Ptr("edit")})
	if err != nil || unb64(t, p.ContentBase64) != "# Welcome back\n" {
		t.Fatalf("edit wiki page = %+v, %v", p, err)
	}
	p, _, err = c.Repos.GetWikiPage(ctx(t), owner, repo, "Home")
	if err != nil || unb64(t, p.ContentBase64) != "# Welcome back\n" || p.CommitCount != 2 {
		t.Fatalf("get wiki page = %+v, %v", p, err)
	}
	pages, _, err := c.Repos.ListWikiPages(ctx(t), owner, repo, nil)
	if err != nil || len(pages) != 2 {
		t.Fatalf("wiki pages = %v, %v", pages, err)
	}
	revs, _, err := c.Repos.ListWikiPageRevisions(ctx(t), owner, repo, "Home", nil)
	if err != nil || revs.Count != 2 || len(revs.Commits) != 2 || strings.TrimSpace(revs.Commits[0].Message) != "edit" {
		t.Fatalf("revisions = %+v, %v", revs, err)
	}
	resp, err = c.Repos.DeleteWikiPage(ctx(t), owner, repo, "Second-Page")
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("delete wiki page: %d, %v", status(resp), err)
	}
	_, _, err = c.Repos.GetWikiPage(ctx(t), owner, repo, "Second-Page")
	mustStatus(t, err, http.StatusNotFound)
}

// TestRepoActions covers the Actions reads, a dispatched workflow run, and
// the secrets and variables of a repository. No runner is registered, so
// the run stays queued.
func TestRepoActions(t *testing.T) {
	// With the version check, what a Forgejo release lacks (the artifact,
	// job and log routes are 16.0-only) fails before sending; on Gitea
	// every call is sent.
	c := client(t, need(t).adminToken, forgejo.WithVersionCheck())
	owner, repo := need(t).admin, newRepo(t, c)
	// tooNew reports whether the server's release lacks op, after checking
	// that the call was then refused with the typed error.
	tooNew := func(t *testing.T, op string, err error) bool {
		t.Helper()
		if served, serr := c.Serves(ctx(t), op); serr != nil || served {
			return false
		}
		if !errors.Is(err, forgejo.ErrUnsupportedOperation) {
			t.Fatalf("%s on a release without it: %v, want ErrUnsupportedOperation", op, err)
		}
		return true
	}

	runs, _, err := c.Actions.ListRuns(ctx(t), owner, repo, nil)
	if err != nil || runs.TotalCount != 0 || len(runs.WorkflowRuns) != 0 {
		t.Fatalf("runs = %+v, %v", runs, err)
	}
	tasks, _, err := c.Actions.ListTasks(ctx(t), owner, repo, nil)
	if err != nil || tasks.TotalCount != 0 {
		t.Fatalf("tasks = %+v, %v", tasks, err)
	}
	// Gitea wraps artifacts and runners in {"artifacts":[],"total_count":0}
	// where Forgejo (and so the client) has a bare array; the client unwraps
	// the lone list (HAZARDS.md §11).
	if _, _, err = c.Actions.ListArtifacts(ctx(t), owner, repo, nil); !tooNew(t, "ListActionArtifacts", err) {
		mustEnvelope(t, err, "artifacts")
	}
	_, _, err = c.Actions.ListRepoRunners(ctx(t), owner, repo, nil)
	mustEnvelope(t, err, "runners")

	t.Run("dispatched run", func(t *testing.T) {
		putFile(t, c, owner, repo, ".gitea/workflows/manual.yml",
			"on:\n  workflow_dispatch:\n    inputs:\n      who:\n        default: world\njobs:\n  hello:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hello ${{ inputs.who }}\n", "")
		// Gitea answers 204 without the run even when asked for it; Forgejo
		// 15 answers 201 with it (HAZARDS.md §22).
		run, resp, err := c.Actions.DispatchWorkflow(ctx(t), owner, repo, "manual.yml", forgejo.DispatchWorkflowRequest{Ref: "main", Inputs: map[string]string{"who": "suite"}, ReturnRunInfo: true})
		switch {
		case err != nil:
			t.Fatalf("dispatch: %v", err)
		case status(resp) == http.StatusNoContent && run == nil:
		case onForgejo(t) && status(resp) == http.StatusCreated && run != nil && run.ID > 0 && len(run.Jobs) == 1:
		default:
			t.Fatalf("dispatch (%d) = %+v", status(resp), run)
		}
		// Forgejo 15 leaves event empty and fills trigger_event; EventName
		// reads either.
		runs, _, err := c.Actions.ListRuns(ctx(t), owner, repo, &forgejo.ActionListRunsOptions{Event: []string{"workflow_dispatch"}})
		if err != nil || runs.TotalCount != 1 || len(runs.WorkflowRuns) != 1 || runs.WorkflowRuns[0].EventName() != "workflow_dispatch" {
			t.Fatalf("dispatched runs = %+v, %v", runs, err)
		}
		id := runs.WorkflowRuns[0].ID
		if run != nil && run.ID != id {
			t.Fatalf("dispatch answered run %d, the listing %d", run.ID, id)
		}
		got, _, err := c.Actions.GetRun(ctx(t), owner, repo, id)
		if err != nil || got.ID != id || got.EventName() != "workflow_dispatch" {
			t.Fatalf("run = %+v, %v", got, err)
		}
		listed, _, err := c.Actions.ListRunJobs(ctx(t), owner, repo, id)
		if tooNew(t, "ListActionRunJobs", err) {
			return // the jobs, artifacts, logs and deletion below are 16.0-only
		}
		mustEnvelope(t, err, "jobs")
		if len(listed) != 1 || listed[0].Name != "hello" || listed[0].Status != "queued" {
			t.Fatalf("jobs through the unwrapped envelope = %+v", listed)
		}
		_, _, err = c.Actions.ListRunArtifacts(ctx(t), owner, repo, id, nil)
		mustEnvelope(t, err, "artifacts")
		// The same through Client.Do and a struct of one's own.
		var jobs struct {
			Jobs []struct {
				ID     int64  `json:"id"`
				Name   string `json:"name"`
				Status string `json:"status"`
			} `json:"jobs"`
		}
		_, err = c.Do(ctx(t), &forgejo.Request{Method: "GET", Path: "/repos/" + owner + "/" + repo + "/actions/runs/" + strconv.FormatInt(id, 10) + "/jobs",
			Operation: "ListActionRunJobs (Do)", Retry: forgejo.RetryIdempotentOnly}, &jobs)
		if err != nil || len(jobs.Jobs) != 1 || jobs.Jobs[0].Name != "hello" || jobs.Jobs[0].Status != "queued" {
			t.Fatalf("jobs = %+v, %v", jobs, err)
		}
		// Without a runner the job never starts: no logs, and the run cannot
		// be deleted yet.
		_, _, err = c.Actions.GetJobLogs(ctx(t), owner, repo, jobs.Jobs[0].ID, nil)
		if ae := mustStatus(t, err, http.StatusNotFound); ae.Message != "job not started" {
			t.Fatalf("logs of a queued job: %+v", ae)
		}
		_, err = c.Actions.DeleteRun(ctx(t), owner, repo, id)
		if ae := mustStatus(t, err, http.StatusBadRequest); ae.Message != "this workflow run is not done" {
			t.Fatalf("delete a queued run: %+v", ae)
		}
	})

	resp, err := c.Actions.SetRepoSecret(ctx(t), owner, repo, "DEPLOY_TOKEN", forgejo.CreateOrUpdateSecretRequest{Data: "s3cret"})
	if err != nil || status(resp) != http.StatusCreated {
		t.Fatalf("create secret: %d, %v", status(resp), err)
	}
	resp, err = c.Actions.SetRepoSecret(ctx(t), owner, repo, "DEPLOY_TOKEN", forgejo.CreateOrUpdateSecretRequest{Data: "n3w"})
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("update secret: %d, %v", status(resp), err)
	}
	secrets, _, err := c.Actions.ListRepoSecrets(ctx(t), owner, repo, nil)
	if err != nil || len(secrets) != 1 || secrets[0].Name != "DEPLOY_TOKEN" {
		t.Fatalf("secrets = %v, %v", secrets, err)
	}
	resp, err = c.Actions.DeleteRepoSecret(ctx(t), owner, repo, "DEPLOY_TOKEN")
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("delete secret: %d, %v", status(resp), err)
	}

	// 201 on Gitea, 204 on Forgejo 15 (HAZARDS.md §22).
	resp, err = c.Actions.CreateRepoVariable(ctx(t), owner, repo, "TARGET", forgejo.CreateVariableRequest{Value: "staging"})
	if err != nil || (status(resp) != http.StatusCreated && status(resp) != http.StatusNoContent) {
		t.Fatalf("create variable: %d, %v", status(resp), err)
	}
	v, _, err := c.Actions.GetRepoVariable(ctx(t), owner, repo, "TARGET")
	if err != nil || v.Data != "staging" || v.Name != "TARGET" {
		t.Fatalf("variable = %+v, %v", v, err)
	}
	_, err = c.Actions.UpdateRepoVariable(ctx(t), owner, repo, "TARGET", forgejo.UpdateVariableRequest{Value: "production"})
	ok(t, "update variable", err)
	vars, _, err := c.Actions.ListRepoVariables(ctx(t), owner, repo, nil)
	if err != nil || len(vars) != 1 || vars[0].Data != "production" {
		t.Fatalf("variables = %v, %v", vars, err)
	}
	_, err = c.Actions.CreateRepoVariable(ctx(t), owner, repo, "TARGET", forgejo.CreateVariableRequest{Value: "again"})
	mustStatus(t, err, http.StatusConflict)
	_, err = c.Actions.DeleteRepoVariable(ctx(t), owner, repo, "TARGET")
	ok(t, "delete variable", err)
	_, _, err = c.Actions.GetRepoVariable(ctx(t), owner, repo, "TARGET")
	mustStatus(t, err, http.StatusNotFound)
}
