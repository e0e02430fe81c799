package integration

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo"
)

func TestBranches(t *testing.T) {
	c := admin(t)
	owner, repo := need(t).admin, newGitRepo(t, c)
	main, _, err := c.Repos.GetBranch(ctx(t), owner, repo, "main")
	ok(t, "main", err)

	b, resp, err := c.Repos.CreateBranch(ctx(t), owner, repo, forgejo.CreateBranchRepoRequest{NewBranchName: "feature/y", OldRefName: "main"})
	ok(t, "create branch", err)
	if b.Name != "feature/y" || b.Commit == nil || b.Commit.ID != main.Commit.ID || status(resp) != http.StatusCreated {
		t.Fatalf("created branch (%d) = %+v", status(resp), b)
	}
	_, _, err = c.Repos.CreateBranch(ctx(t), owner, repo, forgejo.CreateBranchRepoRequest{NewBranchName: "feature/y", OldRefName: "main"})
	mustStatus(t, err, http.StatusConflict)
	got, _, err := c.Repos.GetBranch(ctx(t), owner, repo, "feature/y")
	if err != nil || got.Name != "feature/y" {
		t.Fatalf("get feature/y = %+v, %v", got, err)
	}
	list, _, err := c.Repos.ListBranches(ctx(t), owner, repo, nil)
	if err != nil || len(list) != 2 {
		t.Fatalf("branches = %d, %v", len(list), err)
	}

	resp, err = c.Repos.RenameBranch(ctx(t), owner, repo, "feature/y", forgejo.UpdateBranchRepoRequest{Name: "feature/z"})
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("rename branch: %d, %v", status(resp), err)
	}
	_, _, err = c.Repos.GetBranch(ctx(t), owner, repo, "feature/z")
	ok(t, "renamed branch", err)

	// The default branch cannot be deleted.
	_, err = c.Repos.DeleteBranch(ctx(t), owner, repo, "main")
	if ae := mustStatus(t, err, http.StatusForbidden); ae.Message == "" {
		t.Fatalf("deleting the default branch: %+v", ae)
	}
	resp, err = c.Repos.DeleteBranch(ctx(t), owner, repo, "feature/z")
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("delete branch: %d, %v", status(resp), err)
	}
	_, _, err = c.Repos.GetBranch(ctx(t), owner, repo, "feature/z")
	mustStatus(t, err, http.StatusNotFound)

	t.Run("protection", func(t *testing.T) {
		p, resp, err := c.Repos.CreateBranchProtection(ctx(t), owner, repo, forgejo.CreateBranchProtectionRequest{
			RuleName: "main", EnablePush: true, RequiredApprovals: 1, EnableStatusCheck: true, StatusCheckContexts: []string{"ci/*"},
		})
		ok(t, "create protection", err)
		if p.RuleName != "main" || !p.EnablePush || p.RequiredApprovals != 1 || status(resp) != http.StatusCreated || len(p.StatusCheckContexts) != 1 {
			t.Fatalf("protection (%d) = %+v", status(resp), p)
		}
		_, _, err = c.Repos.CreateBranchProtection(ctx(t), owner, repo, forgejo.CreateBranchProtectionRequest{RuleName: "main"})
		mustStatus(t, err, http.StatusForbidden) // Gitea: "Branch protection already exist"
		got, _, err := c.Repos.GetBranchProtection(ctx(t), owner, repo, "main")
		if err != nil || got.RequiredApprovals != 1 {
			t.Fatalf("get protection = %+v, %v", got, err)
		}
		got, _, err = c.Repos.EditBranchProtection(ctx(t), owner, repo, "main", forgejo.EditBranchProtectionRequest{RequiredApprovals: forgejo.Ptr[int64](2), EnableStatusCheck: forgejo.Ptr(false)})
		if err != nil || got.RequiredApprovals != 2 || got.EnableStatusCheck {
			t.Fatalf("edit protection = %+v, %v", got, err)
		}
		b, _, err := c.Repos.GetBranch(ctx(t), owner, repo, "main")
		if err != nil || !b.Protected || b.EffectiveBranchProtectionName != "main" || b.RequiredApprovals != 2 {
			t.Fatalf("protected main = %+v, %v", b, err)
		}
		// Rule names are globs, and globs have slashes.
		_, _, err = c.Repos.CreateBranchProtection(ctx(t), owner, repo, forgejo.CreateBranchProtectionRequest{RuleName: "release/*"})
		ok(t, "create glob protection", err)
		list, _, err := c.Repos.ListBranchProtections(ctx(t), owner, repo)
		if err != nil || len(list) != 2 {
			t.Fatalf("protections = %v, %v", list, err)
		}
		resp, err = c.Repos.DeleteBranchProtection(ctx(t), owner, repo, "main")
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete protection: %d, %v", status(resp), err)
		}
		_, _, err = c.Repos.GetBranchProtection(ctx(t), owner, repo, "main")
		mustStatus(t, err, http.StatusNotFound)

		_, _, err = c.Repos.GetBranchProtection(ctx(t), owner, repo, "release/*")
		var ve *forgejo.ValidationError
		if errors.As(err, &ve) {
			t.Fatalf("regression: GetBranchProtection(%q) is refused before sending (%v); Gitea serves "+
				"/branch_protections/release%%2F* (and release/*) with 200, so a glob rule can be read, edited and deleted only through Client.Do", "release/*", err)
		}
		ok(t, "get glob protection", err)
		_, err = c.Repos.DeleteBranchProtection(ctx(t), owner, repo, "release/*")
		ok(t, "delete glob protection", err)
	})

	t.Run("tags", func(t *testing.T) {
		tag, resp, err := c.Repos.CreateTag(ctx(t), owner, repo, forgejo.CreateTagRequest{TagName: "v0.1.0", Target: "main"})
		ok(t, "create tag", err)
		if tag.Name != "v0.1.0" || tag.Commit == nil || tag.Commit.SHA != main.Commit.ID || status(resp) != http.StatusCreated || tag.ZipballURL == "" {
			t.Fatalf("lightweight tag (%d) = %+v", status(resp), tag)
		}
		_, _, err = c.Repos.CreateTag(ctx(t), owner, repo, forgejo.CreateTagRequest{TagName: "v0.1.0", Target: "main"})
		mustStatus(t, err, http.StatusConflict)
		// A tag name with a slash, through the multi-segment tag path.
		_, _, err = c.Repos.CreateTag(ctx(t), owner, repo, forgejo.CreateTagRequest{TagName: "rel/0.2", Target: "main", Message: "annotated"})
		ok(t, "create rel/0.2", err)
		got, _, err := c.Repos.GetTag(ctx(t), owner, repo, "rel/0.2")
		if err != nil || got.Name != "rel/0.2" || strings.TrimSpace(got.Message) != "annotated" {
			t.Fatalf("get rel/0.2 = %+v, %v", got, err)
		}
		tags, _, err := c.Repos.ListTags(ctx(t), owner, repo, nil)
		if err != nil || len(tags) != 2 {
			t.Fatalf("tags = %v, %v", tags, err)
		}
		for _, name := range []string{"v0.1.0", "rel/0.2"} {
			resp, err = c.Repos.DeleteTag(ctx(t), owner, repo, name)
			if err != nil || status(resp) != http.StatusNoContent {
				t.Fatalf("delete tag %s: %d, %v", name, status(resp), err)
			}
		}
		_, _, err = c.Repos.GetTag(ctx(t), owner, repo, "v0.1.0")
		mustStatus(t, err, http.StatusNotFound)
	})

	t.Run("tag protection", func(t *testing.T) {
		tp, resp, err := c.Repos.CreateTagProtection(ctx(t), owner, repo, forgejo.CreateTagProtectionRequest{NamePattern: "v*", WhitelistUsernames: []string{owner}})
		ok(t, "create tag protection", err)
		cleanup(t, "tag protection", func(ctx context.Context) (*forgejo.Response, error) {
			return c.Repos.DeleteTagProtection(ctx, owner, repo, tp.ID)
		})
		if tp.NamePattern != "v*" || len(tp.WhitelistUsernames) != 1 || status(resp) != http.StatusCreated {
			t.Fatalf("tag protection (%d) = %+v", status(resp), tp)
		}
		got, _, err := c.Repos.GetTagProtection(ctx(t), owner, repo, tp.ID)
		if err != nil || got.NamePattern != "v*" {
			t.Fatalf("get tag protection = %+v, %v", got, err)
		}
		got, _, err = c.Repos.EditTagProtection(ctx(t), owner, repo, tp.ID, forgejo.EditTagProtectionRequest{NamePattern: forgejo.Ptr("release-*")})
		if err != nil || got.NamePattern != "release-*" {
			t.Fatalf("edit tag protection = %+v, %v", got, err)
		}
		list, _, err := c.Repos.ListTagProtections(ctx(t), owner, repo)
		if err != nil || len(list) != 1 || list[0].ID != tp.ID {
			t.Fatalf("tag protections = %v, %v", list, err)
		}
		resp, err = c.Repos.DeleteTagProtection(ctx(t), owner, repo, tp.ID)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete tag protection: %d, %v", status(resp), err)
		}
	})
}

func TestReleases(t *testing.T) {
	c := admin(t)
	owner, repo := need(t).admin, newGitRepo(t, c)

	r1, resp, err := c.Repos.CreateRelease(ctx(t), owner, repo, forgejo.CreateReleaseRequest{TagName: "v1.0.0", Name: "One", Body: "first", TargetCommitish: "main"})
	ok(t, "create release", err)
	if r1.TagName != "v1.0.0" || r1.Name != "One" || r1.Draft || r1.Prerelease || r1.Author == nil || r1.Author.Login != owner || status(resp) != http.StatusCreated {
		t.Fatalf("release (%d) = %+v", status(resp), r1)
	}
	// Creating it twice is a conflict.
	_, _, err = c.Repos.CreateRelease(ctx(t), owner, repo, forgejo.CreateReleaseRequest{TagName: "v1.0.0", TargetCommitish: "main"})
	mustStatus(t, err, http.StatusConflict)
	rc, _, err := c.Repos.CreateRelease(ctx(t), owner, repo, forgejo.CreateReleaseRequest{TagName: "v1.1.0-rc1", Name: "RC", Prerelease: true, TargetCommitish: "main"})
	ok(t, "create prerelease", err)
	draft, _, err := c.Repos.CreateRelease(ctx(t), owner, repo, forgejo.CreateReleaseRequest{TagName: "v2.0.0", Name: "Draft", Draft: true, TargetCommitish: "main"})
	ok(t, "create draft", err)
	if !draft.Draft || !rc.Prerelease {
		t.Fatalf("draft %+v, prerelease %+v", draft, rc)
	}

	got, _, err := c.Repos.GetRelease(ctx(t), owner, repo, r1.ID)
	if err != nil || got.Body != "first" || got.TagName != "v1.0.0" {
		t.Fatalf("get release = %+v, %v", got, err)
	}
	got, _, err = c.Repos.GetReleaseByTag(ctx(t), owner, repo, "v1.0.0")
	if err != nil || got.ID != r1.ID {
		t.Fatalf("release by tag = %+v, %v", got, err)
	}
	got, _, err = c.Repos.EditRelease(ctx(t), owner, repo, r1.ID, forgejo.EditReleaseRequest{Body: forgejo.Ptr("first, edited"), Name: forgejo.Ptr("One!")})
	if err != nil || got.Body != "first, edited" || got.Name != "One!" || got.TagName != "v1.0.0" {
		t.Fatalf("edit release = %+v, %v", got, err)
	}
	all, resp, err := c.Repos.ListReleases(ctx(t), owner, repo, nil)
	if err != nil || len(all) != 3 {
		t.Fatalf("releases = %d, %v", len(all), err)
	}
	if n, ok := resp.TotalCount(); !ok || n != 3 {
		t.Fatalf("releases X-Total-Count = %d (%v)", n, ok)
	}
	stable, _, err := c.Repos.ListReleases(ctx(t), owner, repo, &forgejo.RepoListReleasesOptions{PreRelease: forgejo.Ptr(false), Draft: forgejo.Ptr(false)})
	if err != nil || len(stable) != 1 || stable[0].ID != r1.ID {
		t.Fatalf("stable releases = %d, %v", len(stable), err)
	}
	// Latest skips drafts and prereleases.
	latest, _, err := c.Repos.GetLatestRelease(ctx(t), owner, repo)
	if err != nil || latest.ID != r1.ID {
		t.Fatalf("latest = %+v, %v", latest, err)
	}

	t.Run("assets", func(t *testing.T) {
		a, resp, err := c.Repos.UploadReleaseAsset(ctx(t), owner, repo, r1.ID, &forgejo.RepoUploadReleaseAssetOptions{Name: "checksums.txt"},
			forgejo.Upload{Name: "sums.txt", Content: strings.NewReader("abc  file\n")})
		ok(t, "upload asset", err)
		if a.Name != "checksums.txt" || a.Size != 10 || status(resp) != http.StatusCreated {
			t.Fatalf("asset (%d) = %+v", status(resp), a)
		}
		// External (link) assets are Forgejo's: Gitea looks for the file part
		// and answers 500 "http: no such file" (HAZARDS.md); Forgejo answers
		// 201 with type "external" (the asset is deleted again, so the counts
		// below hold on both).
		ext, _, err := c.Repos.LinkReleaseAsset(ctx(t), owner, repo, r1.ID, "mirror", "https://example.com/file.tgz")
		if onForgejo(t) {
			if err != nil || ext.Name != "mirror" || ext.Type != "external" || ext.BrowserDownloadURL != "https://example.com/file.tgz" {
				t.Fatalf("external asset on Forgejo = %+v, %v", ext, err)
			}
			_, err = c.Repos.DeleteReleaseAsset(ctx(t), owner, repo, r1.ID, ext.ID)
			ok(t, "delete the external asset", err)
		} else if ae := mustStatus(t, err, http.StatusInternalServerError); !strings.Contains(ae.Message, "no such file") {
			t.Fatalf("external asset on Gitea: %+v", ae)
		}
		b, _, err := c.Repos.UploadReleaseAsset(ctx(t), owner, repo, r1.ID, nil,
			forgejo.Upload{Name: "notes.md", Content: strings.NewReader("# notes\n"), ContentType: "text/markdown"})
		if err != nil || b.Name != "notes.md" {
			t.Fatalf("second asset = %+v, %v", b, err)
		}
		list, _, err := c.Repos.ListReleaseAssets(ctx(t), owner, repo, r1.ID)
		if err != nil || len(list) != 2 {
			t.Fatalf("assets = %v, %v", list, err)
		}
		got, _, err := c.Repos.GetReleaseAsset(ctx(t), owner, repo, r1.ID, a.ID)
		if err != nil || got.Uuid != a.Uuid {
			t.Fatalf("get asset = %+v, %v", got, err)
		}
		got, _, err = c.Repos.EditReleaseAsset(ctx(t), owner, repo, r1.ID, a.ID, forgejo.EditAttachmentRequest{Name: forgejo.Ptr("SHA256SUMS")})
		if err != nil || got.Name != "SHA256SUMS" {
			t.Fatalf("edit asset = %+v, %v", got, err)
		}
		rel, _, _ := c.Repos.GetRelease(ctx(t), owner, repo, r1.ID)
		if len(rel.Assets) != 2 {
			t.Fatalf("release assets = %v", rel.Assets)
		}
		for _, id := range []int64{a.ID, b.ID} {
			resp, err = c.Repos.DeleteReleaseAsset(ctx(t), owner, repo, r1.ID, id)
			if err != nil || status(resp) != http.StatusNoContent {
				t.Fatalf("delete asset %d: %d, %v", id, status(resp), err)
			}
		}
		_, _, err = c.Repos.GetReleaseAsset(ctx(t), owner, repo, r1.ID, a.ID)
		mustStatus(t, err, http.StatusNotFound)
	})

	t.Run("delete", func(t *testing.T) {
		resp, err := c.Repos.DeleteReleaseByTag(ctx(t), owner, repo, "v1.1.0-rc1")
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete by tag: %d, %v", status(resp), err)
		}
		// The release goes, the tag stays.
		_, _, err = c.Repos.GetRelease(ctx(t), owner, repo, rc.ID)
		mustStatus(t, err, http.StatusNotFound)
		_, _, err = c.Repos.GetTag(ctx(t), owner, repo, "v1.1.0-rc1")
		ok(t, "tag after its release was deleted", err)
		resp, err = c.Repos.DeleteRelease(ctx(t), owner, repo, draft.ID)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete release: %d, %v", status(resp), err)
		}
		_, err = c.Repos.DeleteRelease(ctx(t), owner, repo, draft.ID)
		mustStatus(t, err, http.StatusNotFound)
	})

	t.Run("tag with a slash", func(t *testing.T) {
		rel, _, err := c.Repos.CreateRelease(ctx(t), owner, repo, forgejo.CreateReleaseRequest{TagName: "release/3.0", TargetCommitish: "main"})
		ok(t, "create release/3.0", err)
		_, _, err = c.Repos.GetReleaseByTag(ctx(t), owner, repo, "release/3.0")
		var ve *forgejo.ValidationError
		if errors.As(err, &ve) {
			t.Fatalf("regression: GetReleaseByTag(%q) and DeleteReleaseByTag are refused before sending (%v); Gitea answers "+
				"/releases/tags/release%%2F3.0 with 200 (release %s), while /releases/tags/release/3.0 is a router 404", "release/3.0", err, strconv.FormatInt(rel.ID, 10))
		}
		ok(t, "release by a tag with a slash", err)
		_, err = c.Repos.DeleteReleaseByTag(ctx(t), owner, repo, "release/3.0")
		ok(t, "delete release by a tag with a slash", err)
	})
}
