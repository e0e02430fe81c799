package integration

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo"
)

// TestGitReads reads commits, refs, trees, blobs, tags and comparisons of
// the shared fixture, checking them against what the fixture wrote.
func TestGitReads(t *testing.T) {
	c := admin(t)
	fx := shared(t)
	o, r := fx.owner, fx.repo

	t.Run("commits", func(t *testing.T) {
		commits, resp, err := c.Repos.ListCommits(ctx(t), o, r, &forgejo.RepoListCommitsOptions{SHA: "main"})
		ok(t, "commits", err)
		if len(commits) != 2 || commits[0].SHA != fx.mainSHA || commits[1].SHA != fx.initSHA {
			t.Fatalf("commits of main = %d, first %+v", len(commits), commits[0])
		}
		if n, ok := resp.TotalCount(); !ok || n != 2 {
			t.Fatalf("commits X-Total-Count = %d (%v)", n, ok)
		}
		onFeature, _, err := c.Repos.ListCommits(ctx(t), o, r, &forgejo.RepoListCommitsOptions{SHA: "feature/x", Stat: forgejo.Ptr(false), Files: forgejo.Ptr(false)})
		if err != nil || len(onFeature) != 3 || onFeature[0].SHA != fx.featureSHA {
			t.Fatalf("commits of feature/x = %d, %v", len(onFeature), err)
		}
		byPath, _, err := c.Repos.ListCommits(ctx(t), o, r, &forgejo.RepoListCommitsOptions{Path: "docs/guide.md"})
		if err != nil || len(byPath) != 1 || byPath[0].SHA != fx.mainSHA {
			t.Fatalf("commits touching docs/guide.md = %d, %v", len(byPath), err)
		}
		one, _, err := c.Repos.GetCommit(ctx(t), o, r, fx.mainSHA, nil)
		ok(t, "single commit", err)
		if one.SHA != fx.mainSHA || len(one.Parents) != 1 || one.Parents[0].SHA != fx.initSHA || one.Commit == nil ||
			one.Commit.Message != "fixture files\n" || len(one.Files) != len(fixtureFiles) || one.Stats == nil || one.Stats.Additions == 0 {
			t.Fatalf("single commit = %+v", one)
		}
		diff, _, err := c.Repos.GetCommitDiff(ctx(t), o, r, fx.mainSHA, "diff")
		if err != nil || !strings.Contains(diff, "+++ b/main.go") {
			t.Fatalf("diff = %q…, %v", diff[:min(len(diff), 80)], err)
		}
		patch, _, err := c.Repos.GetCommitDiff(ctx(t), o, r, fx.mainSHA, "patch")
		if err != nil || !strings.Contains(patch, "Subject: [PATCH] fixture files") {
			t.Fatalf("patch = %q…, %v", patch[:min(len(patch), 80)], err)
		}
		// The first commit has no note: a 404 with the server's message.
		_, _, err = c.Repos.GetNote(ctx(t), o, r, fx.initSHA, nil)
		mustStatus(t, err, http.StatusNotFound)
		if fx.note == "" {
			t.Log("no git command: the fixture has no note to read")
			return
		}
		note, _, err := c.Repos.GetNote(ctx(t), o, r, fx.mainSHA, &forgejo.RepoGetNoteOptions{Files: forgejo.Ptr(false)})
		ok(t, "note", err)
		// "commit" is the commit on refs/notes/commits that wrote the note,
		// not the commit the note is about (HAZARDS.md).
		if strings.TrimSpace(note.Message) != fx.note || note.Commit == nil || note.Commit.SHA == "" || note.Commit.SHA == fx.mainSHA ||
			note.Commit.Commit == nil || !strings.Contains(note.Commit.Commit.Message, "Notes added by") {
			t.Fatalf("note = %+v (commit %+v)", note, note.Commit)
		}
	})

	t.Run("refs", func(t *testing.T) {
		refs, _, err := c.Repos.ListRefs(ctx(t), o, r)
		ok(t, "refs", err)
		byName := map[string]string{}
		for _, ref := range refs {
			byName[ref.Ref] = ref.Object.SHA
		}
		if byName["refs/heads/main"] != fx.mainSHA || byName["refs/heads/feature/x"] != fx.featureSHA || byName["refs/tags/v1.0.0"] != fx.tagSHA {
			t.Fatalf("refs = %v", byName)
		}
		heads, _, err := c.Repos.ListMatchingRefs(ctx(t), o, r, "heads")
		if err != nil || len(heads) != 2 {
			t.Fatalf("heads = %v, %v", heads, err)
		}
		one, _, err := c.Repos.ListMatchingRefs(ctx(t), o, r, "heads/feature/x")
		if err != nil || len(one) != 1 || one[0].Object.SHA != fx.featureSHA || one[0].Object.Type != "commit" {
			t.Fatalf("heads/feature/x = %+v, %v", one, err)
		}
		tags, _, err := c.Repos.ListMatchingRefs(ctx(t), o, r, "tags")
		if err != nil || len(tags) != 1 || tags[0].Object.Type != "tag" {
			t.Fatalf("tag refs = %+v, %v", tags, err)
		}
	})

	t.Run("trees and blobs", func(t *testing.T) {
		tree, _, err := c.Repos.GetTree(ctx(t), o, r, fx.mainSHA, &forgejo.RepoGetTreeOptions{Recursive: forgejo.Ptr(true)})
		ok(t, "tree", err)
		paths := map[string]string{}
		for _, e := range tree.Tree {
			paths[e.Path] = e.Type
		}
		if paths["docs/api/index.md"] != "blob" || paths["docs/api"] != "tree" || paths["README.md"] != "blob" || tree.Truncated {
			t.Fatalf("recursive tree = %v (truncated %v)", paths, tree.Truncated)
		}
		if int(tree.TotalCount) != len(tree.Tree) {
			t.Fatalf("tree total_count %d, %d entries", tree.TotalCount, len(tree.Tree))
		}
		// Paged: per_page, not limit (GetTree ignores limit).
		page, _, err := c.Repos.GetTree(ctx(t), o, r, fx.mainSHA, &forgejo.RepoGetTreeOptions{Recursive: forgejo.Ptr(true), ListOptions: forgejo.ListOptions{Limit: 2}})
		if err != nil || len(page.Tree) != 2 || !page.Truncated || page.TotalCount != tree.TotalCount {
			t.Fatalf("tree page of 2 = %d entries, truncated %v, total %d, %v", len(page.Tree), page.Truncated, page.TotalCount, err)
		}
		blob, _, err := c.Repos.GetBlob(ctx(t), o, r, fx.readmeSHA)
		if err != nil || blob.SHA != fx.readmeSHA || blob.Encoding != "base64" || !strings.Contains(unb64(t, blob.Content), fx.repo) {
			t.Fatalf("README blob = %+v, %v", blob, err)
		}
	})

	t.Run("tags", func(t *testing.T) {
		tags, _, err := c.Repos.ListTags(ctx(t), o, r, nil)
		if err != nil || len(tags) != 1 || tags[0].Name != fx.tag || tags[0].Commit == nil || tags[0].Commit.SHA != fx.mainSHA {
			t.Fatalf("tags = %+v, %v", tags, err)
		}
		tag, _, err := c.Repos.GetTag(ctx(t), o, r, fx.tag)
		if err != nil || tag.ID != fx.tagSHA || strings.TrimSpace(tag.Message) != "release v1.0.0" {
			t.Fatalf("tag = %+v, %v", tag, err)
		}
		at, _, err := c.Repos.GetAnnotatedTag(ctx(t), o, r, fx.tagSHA)
		if err != nil || at.Tag != fx.tag || at.Object == nil || at.Object.SHA != fx.mainSHA || at.Object.Type != "commit" || !strings.HasPrefix(at.Message, "release v1.0.0") {
			t.Fatalf("annotated tag = %+v, %v", at, err)
		}
	})

	t.Run("branches", func(t *testing.T) {
		branches, resp, err := c.Repos.ListBranches(ctx(t), o, r, nil)
		ok(t, "branches", err)
		names := map[string]string{}
		for _, b := range branches {
			names[b.Name] = b.Commit.ID
		}
		if len(names) != 2 || names["main"] != fx.mainSHA || names["feature/x"] != fx.featureSHA {
			t.Fatalf("branches = %v", names)
		}
		if n, ok := resp.TotalCount(); !ok || n != 2 {
			t.Fatalf("branches X-Total-Count = %d (%v)", n, ok)
		}
		b, _, err := c.Repos.GetBranch(ctx(t), o, r, "feature/x")
		if err != nil || b.Name != "feature/x" || b.Commit.ID != fx.featureSHA || b.Protected || !b.UserCanPush {
			t.Fatalf("feature/x = %+v, %v", b, err)
		}
	})

	t.Run("compare", func(t *testing.T) {
		cmp, _, err := c.Repos.CompareCommits(ctx(t), o, r, "main...feature/x")
		ok(t, "compare", err)
		if cmp.TotalCommits != 1 || len(cmp.Commits) != 1 || cmp.Commits[0].SHA != fx.featureSHA {
			t.Fatalf("compare main...feature/x = %+v", cmp)
		}
		// Gitea sends no top-level "files" (Forgejo does); the commit lists
		// its own.
		files := cmp.Files
		if len(files) == 0 {
			files = cmp.Commits[0].Files
		}
		if len(files) != 1 || files[0].Filename != "feature.txt" {
			t.Fatalf("compared files = %+v", files)
		}
	})
}

// TestCommitStatuses posts a status to the fixture's head and reads it back
// by sha and by ref, a ref with a slash included.
func TestCommitStatuses(t *testing.T) {
	c := admin(t)
	fx := shared(t)
	o, r := fx.owner, fx.repo
	ctxName := unique("ci")
	st, resp, err := c.Repos.CreateStatus(ctx(t), o, r, fx.featureSHA, forgejo.CreateStatusRequest{
		State: forgejo.CommitStatusSuccess, Context: ctxName, Description: "all green", TargetURL: "https://ci.example.com/1",
	})
	ok(t, "create status", err)
	if st.Status != forgejo.CommitStatusSuccess || st.Context != ctxName || st.Creator == nil || status(resp) != http.StatusCreated {
		t.Fatalf("status (%d) = %+v", status(resp), st)
	}
	list, _, err := c.Repos.ListStatusesBySHA(ctx(t), o, r, fx.featureSHA, nil)
	if err != nil || len(list) == 0 || list[0].Context != ctxName {
		t.Fatalf("statuses = %+v, %v", list, err)
	}
	combined, _, err := c.Repos.GetCombinedStatus(ctx(t), o, r, fx.featureSHA, nil)
	if err != nil || combined.State != forgejo.CommitStatusSuccess || combined.SHA != fx.featureSHA || combined.TotalCount < 1 {
		t.Fatalf("combined status = %+v, %v", combined, err)
	}
	byRef, _, err := c.Repos.ListStatuses(ctx(t), o, r, fx.featureSHA, nil)
	if err != nil || len(byRef) == 0 {
		t.Fatalf("statuses by ref = %+v, %v", byRef, err)
	}
	// The main use is by branch name, and branch names carry slashes.
	combined, _, err = c.Repos.GetCombinedStatus(ctx(t), o, r, "feature/x", nil)
	var ve *forgejo.ValidationError
	if errors.As(err, &ve) {
		t.Fatalf("regression: GetCombinedStatusByRef(%q) is refused before sending (%v), although Gitea answers "+
			"/commits/feature%%2Fx/status and /commits/feature/x/status alike", "feature/x", err)
	}
	if err != nil || combined.SHA != fx.featureSHA || combined.State != forgejo.CommitStatusSuccess {
		t.Fatalf("combined status of feature/x = %+v, %v", combined, err)
	}
	byRef, _, err = c.Repos.ListStatuses(ctx(t), o, r, "feature/x", nil)
	if err != nil || len(byRef) == 0 {
		t.Fatalf("statuses of feature/x = %+v, %v", byRef, err)
	}
}
