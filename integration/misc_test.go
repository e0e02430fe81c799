package integration

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo"
)

func TestMiscellaneous(t *testing.T) {
	c := admin(t)
	anon := client(t, "")

	t.Run("markdown", func(t *testing.T) {
		html, resp, err := c.Misc.RenderMarkdown(ctx(t), forgejo.MarkdownRequest{Text: "# Title\n\nSome *emphasis*.", Mode: "markdown"})
		ok(t, "markdown", err)
		if !strings.Contains(html, "<h1") || !strings.Contains(html, "Title</h1>") || !strings.Contains(html, "<em>emphasis</em>") {
			t.Fatalf("markdown = %q", html)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Fatalf("markdown content type %q", ct)
		}
		raw, _, err := c.Misc.RenderMarkdownRaw(ctx(t), "**bold** and `code`")
		if err != nil || !strings.Contains(raw, "<strong>bold</strong>") || !strings.Contains(raw, "<code>code</code>") {
			t.Fatalf("raw markdown = %q, %v", raw, err)
		}
		markup, _, err := c.Misc.RenderMarkup(ctx(t), forgejo.MarkupRequest{Text: "## Sub", Mode: "file", FilePath: "doc.md"})
		if err != nil || !strings.Contains(markup, "Sub</h2>") {
			t.Fatalf("markup = %q, %v", markup, err)
		}
		// Rendering needs a token on Gitea 1.27.
		_, _, err = anon.Misc.RenderMarkdownRaw(ctx(t), "x")
		mustStatus(t, err, http.StatusUnauthorized)
	})

	t.Run("templates", func(t *testing.T) {
		gi, _, err := anon.Misc.ListGitignoreTemplates(ctx(t))
		if err != nil || !contains(gi, "Go") || len(gi) < 50 {
			t.Fatalf("gitignore templates = %d, %v", len(gi), err)
		}
		goIgnore, _, err := anon.Misc.GetGitignoreTemplate(ctx(t), "Go")
		if err != nil || goIgnore.Name != "Go" || !strings.Contains(goIgnore.Source, "*.exe") {
			t.Fatalf("Go gitignore = %+v, %v", goIgnore, err)
		}
		_, _, err = anon.Misc.GetGitignoreTemplate(ctx(t), "NoSuchLanguage")
		mustStatus(t, err, http.StatusNotFound)
		lt, _, err := anon.Misc.ListLabelTemplates(ctx(t))
		if err != nil || !contains(lt, "Default") {
			t.Fatalf("label templates = %v, %v", lt, err)
		}
		labels, _, err := anon.Misc.ListLabelTemplateLabels(ctx(t), "Default")
		if err != nil || len(labels) < 5 || labels[0].Name == "" || labels[0].Color == "" {
			t.Fatalf("Default labels = %+v, %v", labels, err)
		}
		lic, _, err := anon.Misc.ListLicenseTemplates(ctx(t))
		ok(t, "licenses", err)
		keys := map[string]bool{}
		for _, l := range lic {
			keys[l.Key] = true
		}
		if !keys["MIT"] || !keys["Apache-2.0"] {
			t.Fatalf("license templates = %d", len(lic))
		}
		mit, _, err := anon.Misc.GetLicenseTemplate(ctx(t), "MIT")
		if err != nil || mit.Key != "MIT" || !strings.Contains(mit.Body, "Permission is hereby granted") {
			t.Fatalf("MIT = %+v, %v", mit.Key, err)
		}
	})

	t.Run("settings", func(t *testing.T) {
		att, _, err := anon.Settings.GetAttachment(ctx(t))
		if err != nil || !att.Enabled || att.MaxSize == 0 || !strings.Contains(att.AllowedTypes, ".txt") {
			t.Fatalf("attachment settings = %+v, %v", att, err)
		}
		repo, _, err := anon.Settings.GetRepository(ctx(t))
		// scripts/gitea.sh turns LFS off.
		if err != nil || !repo.LFSDisabled || repo.StarsDisabled || repo.HTTPGitDisabled {
			t.Fatalf("repository settings = %+v, %v", repo, err)
		}
		ui, _, err := anon.Settings.GetUI(ctx(t))
		if err != nil || len(ui.AllowedReactions) == 0 || !contains(ui.AllowedReactions, "heart") {
			t.Fatalf("ui settings = %+v, %v", ui, err)
		}
	})

	t.Run("signing keys", func(t *testing.T) {
		// scripts/gitea.sh configures no signing key: Gitea answers 404,
		// Forgejo an empty 200; both are ErrNoSigningKey (HAZARDS.md §22).
		_, _, err := anon.Misc.GetSigningKey(ctx(t))
		if !errors.Is(err, forgejo.ErrNoSigningKey) {
			t.Fatalf("instance signing key: %v", err)
		}
		fx := shared(t)
		_, _, err = c.Repos.GetSigningKey(ctx(t), fx.owner, fx.repo)
		if !errors.Is(err, forgejo.ErrNoSigningKey) {
			t.Fatalf("repository signing key: %v", err)
		}
	})
}
