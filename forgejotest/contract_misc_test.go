package forgejotest

import (
	"fmt"
	"slices"
	"strings"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// The contract scenario's steps for MiscService and SettingsService: the
// version, settings, templates and markup. Same rules as contract_test.go; runScenario calls them in order.

func (s *scenario) settings() {
	set, _, err := s.tg.c1.Settings.GetAPI(s.ctx)
	s.must(err, "settings")
	s.note("settings: max_response_items %d, default_paging_num %d", set.MaxResponseItems, set.DefaultPagingNum)
	v, _, err := s.tg.c1.Misc.GetVersion(s.ctx)
	s.must(err, "version")
	// Differs on purpose: Forgejo (and so the fake) reports
	// "X.Y.Z+gitea-1.22.0", Gitea plain semver.
	if s.tg.forgejo != strings.Contains(v.Version, "+gitea-") {
		s.t.Errorf("version %q on %s", v.Version, s.tg.name)
	}
}

func (s *scenario) instanceTemplates() {
	c := s.tg.c1
	att, _, err := c.Settings.GetAttachment(s.ctx)
	s.must(err, "attachment settings")
	s.note("attachment settings: enabled %v, max files %d, .zip allowed %v", att.Enabled, att.MaxFiles, strings.Contains(att.AllowedTypes, ".zip"))
	// Differs on purpose: Forgejo's default MAX_SIZE is 2048 MiB, Gitea's
	// 100.
	if want := map[bool]int64{true: 2048, false: 100}[s.tg.forgejo]; att.MaxSize != want {
		s.t.Errorf("attachment max size on %s: %d, want %d", s.tg.name, att.MaxSize, want)
	}
	rs, _, err := c.Settings.GetRepository(s.ctx)
	s.must(err, "repository settings")
	s.note("repository settings: mirrors %v http %v migrations %v stars %v time tracking %v disabled", rs.MirrorsDisabled, rs.HTTPGitDisabled,
		rs.MigrationsDisabled, rs.StarsDisabled, rs.TimeTrackingDisabled)
	ui, _, err := c.Settings.GetUI(s.ctx)
	s.must(err, "ui settings")
	s.note("ui settings: reactions %v", ui.AllowedReactions)
	// Differs on purpose: Forgejo's default theme is forgejo-auto, Gitea's
	// gitea-auto.
	if want := map[bool]string{true: "forgejo-auto", false: "gitea-auto"}[s.tg.forgejo]; ui.DefaultTheme != want {
		s.t.Errorf("default theme on %s: %q, want %q", s.tg.name, ui.DefaultTheme, want)
	}

	lt, _, err := c.Misc.ListLabelTemplates(s.ctx)
	s.must(err, "label templates")
	def, _, err := c.Misc.ListLabelTemplateLabels(s.ctx, "Default")
	s.must(err, "Default labels")
	_, _, err = c.Misc.ListLabelTemplateLabels(s.ctx, "No-Such-Template")
	s.note("label templates %v; Default has labels %v, colors without # %v; a missing one %d", lt, len(def) > 5,
		len(def) > 0 && !strings.HasPrefix(def[0].Color, "#"), s.status(err))
	gi, _, err := c.Misc.ListGitignoreTemplates(s.ctx)
	s.must(err, "gitignore templates")
	goIgnore, _, err := c.Misc.GetGitignoreTemplate(s.ctx, "Go")
	s.must(err, "Go gitignore")
	_, _, err = c.Misc.GetGitignoreTemplate(s.ctx, "No-Such-Template")
	s.note("gitignore: Go listed %v, Go named %q with a source %v; a missing one %d", slices.Contains(gi, "Go"), goIgnore.Name, goIgnore.Source != "", s.status(err))
	ls, _, err := c.Misc.ListLicenseTemplates(s.ctx)
	s.must(err, "licenses")
	var mit *forgejo.LicensesTemplateListEntry
	for _, l := range ls {
		if l.Key == "MIT" {
			mit = l
		}
	}
	lic, _, err := c.Misc.GetLicenseTemplate(s.ctx, "MIT")
	s.must(err, "MIT")
	_, _, err = c.Misc.GetLicenseTemplate(s.ctx, "No-Such-License")
	s.note("licenses: MIT listed %v (url ends %v), MIT key %q with a body %v; a missing one %d", mit != nil,
		mit != nil && strings.HasSuffix(mit.URL, "/api/v1/licenses/MIT"), lic.Key, strings.Contains(lic.Body, "MIT"), s.status(err))

	// A repository auto_init starts from the templates; an unknown
	// .gitignore or license fails the create and leaves no repository.
	name := s.repo + "-init"
	r, _, err := c.Repos.Create(s.ctx, forgejo.CreateRepoRequest{Name: name, AutoInit: true, Readme: "Default",
		Gitignores: "Go", License: "MIT", Description: "from templates"})
	s.must(err, "create from templates")
	file := func(path string) string {
		b, _, err := c.Repos.GetRawFile(s.ctx, s.owner, name, path, &forgejo.RepoGetRawFileOptions{Ref: r.DefaultBranch})
		s.must(err, path)
		return string(b)
	}
	gitignore, license := file(".gitignore"), file("LICENSE")
	br, _, err := c.Repos.GetBranch(s.ctx, s.owner, name, r.DefaultBranch)
	s.must(err, "the initialized branch")
	var bad [3]int
	for i, opt := range []forgejo.CreateRepoRequest{{Gitignores: "Go,No-Such-Template"}, {License: "No-Such-License"}, {Readme: "No-Such-Readme"}} {
		opt.Name, opt.AutoInit = s.repo+"-bad", true
		_, _, err = c.Repos.Create(s.ctx, opt)
		bad[i] = s.status(err)
	}
	_, _, err = c.Repos.Get(s.ctx, s.owner, s.repo+"-bad")
	s.note("init from templates: empty %v, commit %q, README %v, .gitignore starts %q, ends with a newline %v, LICENSE starts %q with year and owner %v; unknown gitignore, license, readme %v, then the repository %d",
		r.Empty, strings.TrimSpace(br.Commit.Message), file("README.md") == "# "+name+"\n\nfrom templates",
		strings.SplitN(gitignore, "\n", 2)[0], strings.HasSuffix(gitignore, "\n"), strings.SplitN(license, "\n", 2)[0],
		strings.Contains(license, fmt.Sprintf("Copyright (c) %d %s", time.Now().Year(), s.owner)), bad, s.status(err))
}

func (s *scenario) markup() {
	c := s.tg.c1
	// Differs on purpose where onForgejo is set: Forgejo 15 gives a heading
	// an id and dir="auto", and breaks a document's line with <br>; Gitea
	// 1.27 sends a bare <hN> and keeps the newline.
	for _, tc := range []struct{ mode, text, onForgejo, onGitea string }{
		{"", "Hello **world**, _you_ and `code` <b>x</b> & \"quotes\"", "", ""},
		{"markdown", "# Title here\n\nSome text\nnext line",
			`<h1 id="user-content-title-here" dir="auto">Title here</h1>` + "\n" + `<p dir="auto">Some text<br>` + "\nnext line</p>\n",
			"<h1>Title here</h1>\n<p dir=\"auto\">Some text\nnext line</p>\n"},
		{"comment", "line one\nline two", "", ""},
		{"markdown", "- one\n- two\n\n1. first\n2. second", "", ""},
		{"markdown", "See [the docs](https://example.com/docs) or https://example.org", "", ""},
		{"markdown", "> quoted\n\n---\n\n## Sub *title*",
			"<blockquote>\n<p dir=\"auto\">quoted</p>\n</blockquote>\n<hr>\n" + `<h2 id="user-content-sub-title" dir="auto">Sub <em>title</em></h2>` + "\n",
			"<blockquote>\n<p dir=\"auto\">quoted</p>\n</blockquote>\n<hr>\n<h2>Sub <em>title</em></h2>\n"},
		{"comment", "## Heading\n\nsee <i>it</i> and <u>that</u>",
			`<h2 id="user-content-heading" dir="auto">Heading</h2>` + "\n" + `<p dir="auto">see <i>it</i> and <u>that</u></p>` + "\n",
			"<h2>Heading</h2>\n<p dir=\"auto\">see <i>it</i> and <u>that</u></p>\n"},
		{"markdown", "", "", ""},
	} {
		out, resp, err := c.Misc.RenderMarkdown(s.ctx, forgejo.MarkdownRequest{Mode: tc.mode, Text: tc.text})
		s.must(err, "render")
		if tc.onForgejo == "" {
			s.note("markdown %q %q: %d %q", tc.mode, tc.text, resp.StatusCode, out)
		} else if want := map[bool]string{true: tc.onForgejo, false: tc.onGitea}[s.tg.forgejo]; string(out) != want {
			s.t.Errorf("markdown %q %q on %s: %q, want %q", tc.mode, tc.text, s.tg.name, out, want)
		}
	}
	out, _, err := c.Misc.RenderMarkdownRaw(s.ctx, "*raw* text\nsecond")
	s.must(err, "render raw")
	if want := map[bool]string{true: "<p dir=\"auto\"><em>raw</em> text<br>\nsecond</p>\n", false: "<p dir=\"auto\"><em>raw</em> text\nsecond</p>\n"}[s.tg.forgejo]; string(out) != want {
		s.t.Errorf("markdown raw on %s: %q, want %q", s.tg.name, out, want)
	}
	out, _, err = c.Misc.RenderMarkup(s.ctx, forgejo.MarkupRequest{Mode: "markdown", Text: "**markup**"})
	s.must(err, "render markup")
	s.note("markup: %q", out)
	_, _, err = s.tg.anon.Misc.RenderMarkdown(s.ctx, forgejo.MarkdownRequest{Text: "x"})
	s.note("markdown anonymously: %d", s.status(err))
}
