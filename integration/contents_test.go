package integration

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo"
)

// TestContents writes a file through its life (create, update, delete)
// with the sha guard, in a repository that starts empty, and reads it back
// each time through the contents union and the raw download.
func TestContents(t *testing.T) {
	c := admin(t)
	owner, repo := need(t).admin, newRepo(t, c)

	// The first file of an empty repository makes its first commit.
	created, resp, err := c.Repos.CreateFile(ctx(t), owner, repo, "docs/hello.txt", forgejo.CreateFileRequest{
		Content: b64("hello\n"), Message: "say hello",
		Author: &forgejo.Identity{Name: "Ada", Email: "ada@example.com"},
	})
	ok(t, "create file", err)
	if status(resp) != http.StatusCreated || created.Content == nil || created.Content.SHA == "" || created.Content.Type != "file" ||
		created.Commit == nil || created.Commit.Message != "say hello\n" || created.Commit.Author == nil || created.Commit.Author.Email != "ada@example.com" {
		t.Fatalf("create (status %d) = %+v", status(resp), created)
	}
	sha1 := created.Content.SHA

	got, _, err := c.Repos.GetContents(ctx(t), owner, repo, "docs/hello.txt", nil)
	ok(t, "get file", err)
	if got.IsDir() || got.File == nil || got.File.SHA != sha1 || got.File.Encoding != "base64" || unb64(t, got.File.Content) != "hello\n" ||
		got.File.Size != 6 || got.File.LastCommitSHA != created.Commit.SHA {
		t.Fatalf("get file = %+v", got.File)
	}
	dir, _, err := c.Repos.GetContents(ctx(t), owner, repo, "docs", nil)
	ok(t, "get directory", err)
	if !dir.IsDir() || len(dir.Dir) != 1 || dir.Dir[0].Name != "hello.txt" || dir.Dir[0].Content != "" || dir.Dir[0].SHA != sha1 {
		t.Fatalf("get directory = %+v", dir)
	}

	// Creating it again is refused.
	_, _, err = c.Repos.CreateFile(ctx(t), owner, repo, "docs/hello.txt", forgejo.CreateFileRequest{Content: b64("again\n")})
	mustStatus(t, err, http.StatusUnprocessableEntity)

	updated, resp, err := c.Repos.UpdateFile(ctx(t), owner, repo, "docs/hello.txt", forgejo.UpdateFileRequest{
		Content: b64("hello, world\n"), SHA: sha1, Message: "louder",
	})
	ok(t, "update file", err)
	if status(resp) != http.StatusOK || updated.Content == nil || updated.Content.SHA == sha1 || updated.Commit == nil || len(updated.Commit.Parents) != 1 ||
		updated.Commit.Parents[0].SHA != created.Commit.SHA {
		t.Fatalf("update (status %d) = %+v", status(resp), updated)
	}
	sha2 := updated.Content.SHA
	raw, _, err := c.Repos.GetRawFile(ctx(t), owner, repo, "docs/hello.txt", nil)
	if err != nil || string(raw) != "hello, world\n" {
		t.Fatalf("raw after update = %q, %v", raw, err)
	}
	old, _, err := c.Repos.GetRawFile(ctx(t), owner, repo, "docs/hello.txt", &forgejo.RepoGetRawFileOptions{Ref: created.Commit.SHA})
	if err != nil || string(old) != "hello\n" {
		t.Fatalf("raw at the first commit = %q, %v", old, err)
	}

	// The sha guard: a stale sha is refused, with a real status code and the
	// server's message, and nothing is written. Gitea 1.27 answers 422 to
	// both, Forgejo (15 and Codeberg) 409 to the update and 400 to the
	// delete (HAZARDS.md §10): ErrStaleFile matches all of them.
	updateStatus, deleteStatus := http.StatusUnprocessableEntity, http.StatusUnprocessableEntity
	if onForgejo(t) {
		updateStatus, deleteStatus = http.StatusConflict, http.StatusBadRequest
	}
	_, _, err = c.Repos.UpdateFile(ctx(t), owner, repo, "docs/hello.txt", forgejo.UpdateFileRequest{Content: b64("lost update\n"), SHA: sha1})
	if ae := mustStatus(t, err, updateStatus); !strings.Contains(ae.Message, "sha does not match") || !errors.Is(err, forgejo.ErrStaleFile) {
		t.Fatalf("stale update: %+v", ae)
	}
	_, _, err = c.Repos.DeleteFile(ctx(t), owner, repo, "docs/hello.txt", forgejo.DeleteFileRequest{SHA: sha1})
	if ae := mustStatus(t, err, deleteStatus); !strings.Contains(ae.Message, "sha does not match") || !errors.Is(err, forgejo.ErrStaleFile) {
		t.Fatalf("stale delete: %+v", ae)
	}
	if raw, _, _ = c.Repos.GetRawFile(ctx(t), owner, repo, "docs/hello.txt", nil); string(raw) != "hello, world\n" {
		t.Fatalf("a refused write changed the file: %q", raw)
	}

	deleted, resp, err := c.Repos.DeleteFile(ctx(t), owner, repo, "docs/hello.txt", forgejo.DeleteFileRequest{SHA: sha2, Message: "bye"})
	ok(t, "delete file", err)
	if status(resp) != http.StatusOK || deleted.Commit == nil || deleted.Commit.Message != "bye\n" || deleted.Content != nil {
		t.Fatalf("delete (status %d) = %+v", status(resp), deleted)
	}
	_, _, err = c.Repos.GetContents(ctx(t), owner, repo, "docs/hello.txt", nil)
	mustStatus(t, err, http.StatusNotFound)
	_, _, err = c.Repos.GetRawFile(ctx(t), owner, repo, "docs/hello.txt", nil)
	mustStatus(t, err, http.StatusNotFound)
	// The directory went with its only file.
	root, _, err := c.Repos.ListContents(ctx(t), owner, repo, nil)
	if err != nil || len(root) != 0 {
		t.Fatalf("root after deleting the only file = %v, %v", root, err)
	}
}

// TestContentsReads reads the shared fixture: files and directories
// through the union, at a ref, raw and as archives.
func TestContentsReads(t *testing.T) {
	c := admin(t)
	fx := shared(t)

	dir, _, err := c.Repos.GetContents(ctx(t), fx.owner, fx.repo, "docs", nil)
	ok(t, "docs", err)
	types := map[string]string{}
	for _, e := range dir.Dir {
		types[e.Name] = e.Type
	}
	if !dir.IsDir() || len(dir.Dir) != 2 || types["guide.md"] != "file" || types["api"] != "dir" {
		t.Fatalf("docs = %v", types)
	}
	f, _, err := c.Repos.GetContents(ctx(t), fx.owner, fx.repo, "docs/api/index.md", nil)
	if err != nil || f.File == nil || unb64(t, f.File.Content) != fixtureFiles["docs/api/index.md"] || f.File.Path != "docs/api/index.md" {
		t.Fatalf("docs/api/index.md = %+v, %v", f, err)
	}
	// At the first commit only the README existed.
	_, _, err = c.Repos.GetContents(ctx(t), fx.owner, fx.repo, "main.go", &forgejo.RepoGetContentsOptions{Ref: fx.initSHA})
	mustStatus(t, err, http.StatusNotFound)
	root, _, err := c.Repos.ListContents(ctx(t), fx.owner, fx.repo, &forgejo.RepoListContentsOptions{Ref: "feature/x"})
	ok(t, "root of feature/x", err)
	var names []string
	for _, e := range root {
		names = append(names, e.Name)
	}
	if !contains(names, "feature.txt") || !contains(names, "main.go") || !contains(names, "README.md") {
		t.Fatalf("root of feature/x = %v", names)
	}

	raw, _, err := c.Repos.GetRawFile(ctx(t), fx.owner, fx.repo, "docs/guide.md", nil)
	if err != nil || string(raw) != fixtureFiles["docs/guide.md"] {
		t.Fatalf("raw docs/guide.md = %q, %v", raw, err)
	}
	raw, _, err = c.Repos.GetRawFile(ctx(t), fx.owner, fx.repo, "feature.txt", &forgejo.RepoGetRawFileOptions{Ref: "feature/x"})
	if err != nil || string(raw) != "a feature\n" {
		t.Fatalf("raw feature.txt on feature/x = %q, %v", raw, err)
	}
	media, _, err := c.Repos.GetMedia(ctx(t), fx.owner, fx.repo, "main.go", nil)
	if err != nil || string(media) != fixtureFiles["main.go"] {
		t.Fatalf("media main.go = %q, %v", media, err)
	}

	zip, resp, err := c.Repos.GetArchive(ctx(t), fx.owner, fx.repo, "main", forgejo.ArchiveZip)
	if err != nil || !bytes.HasPrefix(zip, []byte("PK\x03\x04")) {
		t.Fatalf("zip archive: %d bytes, %v", len(zip), err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/zip" {
		t.Logf("zip archive content type %q", ct)
	}
	tgz, _, err := c.Repos.GetArchive(ctx(t), fx.owner, fx.repo, fx.tag, forgejo.ArchiveTarGz)
	if err != nil || !bytes.HasPrefix(tgz, []byte{0x1f, 0x8b}) {
		t.Fatalf("tar.gz archive: %d bytes, %v", len(tgz), err)
	}
	// A branch name with a slash reaches the archive too.
	bundle, _, err := c.Repos.GetArchive(ctx(t), fx.owner, fx.repo, "feature/x", forgejo.ArchiveBundle)
	if err != nil || !bytes.HasPrefix(bundle, []byte("# v2 git bundle")) {
		t.Fatalf("bundle of feature/x: %q…, %v", bundle[:min(len(bundle), 20)], err)
	}
	// The download bound applies: past it, a response-too-large error.
	small := client(t, need(t).adminToken, forgejo.WithMaxDownloadBytes(64))
	_, _, err = small.Repos.GetArchive(ctx(t), fx.owner, fx.repo, "main", forgejo.ArchiveZip)
	var te *forgejo.TransportError
	if !errors.As(err, &te) || te.Kind != forgejo.TransportResponseTooLarge {
		t.Fatalf("archive past the download bound: %v", err)
	}

	ec, _, err := c.Repos.GetEditorConfig(ctx(t), fx.owner, fx.repo, "main.go", nil)
	if err != nil || ec["indent_style"] != "tab" || ec["indent_size"] != "8" {
		t.Fatalf("editorconfig of main.go = %v, %v", ec, err)
	}
	langs, _, err := c.Repos.ListLanguages(ctx(t), fx.owner, fx.repo)
	if err != nil || langs["Go"] == 0 {
		t.Fatalf("languages = %v, %v", langs, err)
	}

	cfg, _, err := c.Repos.GetIssueConfig(ctx(t), fx.owner, fx.repo)
	if err != nil || cfg.BlankIssuesEnabled || len(cfg.ContactLinks) != 1 || cfg.ContactLinks[0].URL != "https://example.com/forum" {
		t.Fatalf("issue config = %+v, %v", cfg, err)
	}
	v, _, err := c.Repos.ValidateIssueConfig(ctx(t), fx.owner, fx.repo)
	if err != nil || !v.Valid {
		t.Fatalf("validate issue config = %+v, %v", v, err)
	}
	tmpls, _, err := c.Repos.ListIssueTemplates(ctx(t), fx.owner, fx.repo)
	if err != nil || len(tmpls) != 1 || tmpls[0].Name != "Bug report" || tmpls[0].Title != "[bug] " || len(tmpls[0].Labels) != 1 || tmpls[0].Labels[0] != "bug" {
		t.Fatalf("issue templates = %+v, %v", tmpls, err)
	}
}

// TestApplyDiffPatch commits a unified diff.
func TestApplyDiffPatch(t *testing.T) {
	c := admin(t)
	owner, repo := need(t).admin, newRepo(t, c)
	base := putFile(t, c, owner, repo, "notes.txt", "one\ntwo\n", "")
	patch := "diff --git a/notes.txt b/notes.txt\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,3 @@\n one\n two\n+three\n"
	// The spec's body is UpdateFileOptions, whose sha the client requires;
	// Gitea's ApplyDiffPatchFileOptions has no sha and ignores it.
	fr, _, err := c.Repos.ApplyPatch(ctx(t), owner, repo, forgejo.UpdateFileRequest{Content: patch, Message: "apply a patch", Branch: "main", SHA: base.Commit.SHA})
	ok(t, "apply patch", err)
	if fr.Commit == nil || fr.Commit.Message != "apply a patch\n" {
		t.Fatalf("apply patch = %+v", fr)
	}
	raw, _, err := c.Repos.GetRawFile(ctx(t), owner, repo, "notes.txt", nil)
	if err != nil || string(raw) != "one\ntwo\nthree\n" {
		t.Fatalf("after the patch = %q, %v", raw, err)
	}
}
