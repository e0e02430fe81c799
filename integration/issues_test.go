package integration

import (
	"context"
	"net/http"
	"strconv"
	"testing"

	"codeberg.org/forgego/forgejo"
)

// repo creates a repository owned by the admin with an initial commit, and
// returns its name.
func newRepo(t *testing.T, c *forgejo.Client) string {
	t.Helper()
	name := unique("it")
	var repo forgejo.Repository
	_, err := c.Do(ctx(t), &forgejo.Request{
		Method: "POST", Path: "/user/repos", Operation: "createCurrentUserRepo",
		Body: map[string]any{"name": name, "auto_init": true, "default_branch": "main"},
	}, &repo)
	if err != nil {
		t.Fatalf("create repository: %v", err)
	}
	if repo.Name != name || repo.Owner == nil || repo.Owner.Login != need(t).admin {
		t.Fatalf("created repository = %+v", repo)
	}
	return name
}

func TestVersionIsPlainSemverOnGitea(t *testing.T) {
	c := client(t, "")
	v, resp, err := c.Misc.GetVersion(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	info, ok := v.Info()
	if !ok || info.Forgejo || info.Major != 1 || info.Minor < 22 || resp.Attempts != 1 {
		t.Fatalf("version %q parsed as %+v (ok %v)", v.Version, info, ok)
	}
}

func TestSettingsClampIsReal(t *testing.T) {
	s, _, err := client(t, "").Settings.GetGeneralAPISettings(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if s.MaxResponseItems != 20 {
		t.Fatalf("max_response_items = %d, want the 20 scripts/gitea.sh configures", s.MaxResponseItems)
	}
}

// TestWalk120Issues files 120 issues and walks them three ways: the
// iterator at the client's page size, WalkPages asking for 50 a page on a
// server that clamps to 20, and Collect. Each must see every issue exactly
// once, as many as X-Total-Count says.
func TestWalk120Issues(t *testing.T) {
	c := admin(t)
	owner, repo := need(t).admin, newRepo(t, c)
	for i := 1; i <= 120; i++ {
		is, resp, err := c.Issues.CreateIssue(ctx(t), owner, repo, forgejo.CreateIssueOption{Title: "issue " + strconv.Itoa(i), Body: "walk me"})
		if err != nil {
			t.Fatalf("create issue %d: %v", i, err)
		}
		if is.Number != int64(i) || resp.StatusCode != http.StatusCreated || resp.Attempts != 1 {
			t.Fatalf("issue %d came back as #%d (status %d)", i, is.Number, resp.StatusCode)
		}
	}

	check := func(name string, numbers []int64, total int) {
		t.Helper()
		if total != 120 {
			t.Fatalf("%s: X-Total-Count = %d, want 120", name, total)
		}
		seen := map[int64]int{}
		for _, n := range numbers {
			seen[n]++
		}
		if len(numbers) != total || len(seen) != total {
			t.Fatalf("%s: saw %d issues (%d distinct), want %d", name, len(numbers), len(seen), total)
		}
		for n := int64(1); n <= 120; n++ {
			if seen[n] != 1 {
				t.Fatalf("%s: issue #%d seen %d times", name, n, seen[n])
			}
		}
	}

	// 1. The iterator, at the default page size (30, clamped to 20).
	var numbers []int64
	for is, err := range c.Issues.ListIssuesIter(ctx(t), owner, repo, &forgejo.ListIssuesOptions{State: "all", Type: "issues"}) {
		if err != nil {
			t.Fatal(err)
		}
		numbers = append(numbers, is.Number)
	}
	_, first, err := c.Issues.ListIssues(ctx(t), owner, repo, &forgejo.ListIssuesOptions{State: "all", Type: "issues"})
	if err != nil {
		t.Fatal(err)
	}
	total, ok := first.TotalCount()
	if !ok || first.NextPage != 2 {
		t.Fatalf("first page: total %d (%v), next %d", total, ok, first.NextPage)
	}
	check("iterator", numbers, total)

	// 2. WalkPages asking for 50 a page: the server clamps to 20 and Link
	// still offers the next page, so the walk goes on.
	numbers = nil
	pages := 0
	fetch := func(ctx context.Context, o forgejo.ListOptions) ([]*forgejo.Issue, *forgejo.Response, error) {
		return c.Issues.ListIssues(ctx, owner, repo, &forgejo.ListIssuesOptions{State: "all", Type: "issues", ListOptions: o})
	}
	err = forgejo.WalkPages(ctx(t), forgejo.ListOptions{Limit: 50}, fetch, func(items []*forgejo.Issue, resp *forgejo.Response) error {
		pages++
		if len(items) > 20 {
			t.Errorf("page %d has %d items: the server should clamp to 20", pages, len(items))
		}
		for _, is := range items {
			numbers = append(numbers, is.Number)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	check("walk of 50 on a 20 clamp", numbers, total)
	if pages != 6 {
		t.Fatalf("pages = %d, want 6 (120 / 20)", pages)
	}

	// 3. Collect.
	all, err := forgejo.Collect(ctx(t), forgejo.ListOptions{Limit: 50}, fetch)
	if err != nil {
		t.Fatal(err)
	}
	numbers = numbers[:0]
	for _, is := range all {
		numbers = append(numbers, is.Number)
	}
	check("collect", numbers, total)
}

func TestIssueReadEdit(t *testing.T) {
	c := admin(t)
	owner, repo := need(t).admin, newRepo(t, c)
	created, _, err := c.Issues.CreateIssue(ctx(t), owner, repo, forgejo.CreateIssueOption{Title: "Crash on start", Body: "details"})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := c.Issues.GetIssue(ctx(t), owner, repo, created.Number)
	if err != nil || got.Title != "Crash on start" || got.Body != "details" || got.State != "open" || got.User == nil || got.User.Login != owner {
		t.Fatalf("get = %+v, %v", got, err)
	}
	edited, resp, err := c.Issues.EditIssue(ctx(t), owner, repo, created.Number, forgejo.EditIssueOption{State: forgejo.Ptr("closed")})
	if err != nil || edited.State != "closed" || edited.Title != "Crash on start" || edited.ClosedAt.IsZero() {
		t.Fatalf("edit = %+v, %v", edited, err)
	}
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("edit answered %d; Forgejo and Gitea answer 201", resp.StatusCode)
	}
	// An empty body is a real value, distinct from "not set".
	edited, _, err = c.Issues.EditIssue(ctx(t), owner, repo, created.Number, forgejo.EditIssueOption{Body: forgejo.Ptr("")})
	if err != nil || edited.Body != "" || edited.State != "closed" {
		t.Fatalf("edit body = %+v, %v", edited, err)
	}
}

func TestTopicsReplace(t *testing.T) {
	c := admin(t)
	owner, repo := need(t).admin, newRepo(t, c)
	if _, err := c.Repos.UpdateTopics(ctx(t), owner, repo, []string{"go", "forgejo", "api"}); err != nil {
		t.Fatal(err)
	}
	topics, resp, err := c.Repos.ListTopics(ctx(t), owner, repo, nil)
	if err != nil || len(topics) != 3 {
		t.Fatalf("topics = %v, %v", topics, err)
	}
	if n, ok := resp.TotalCount(); !ok || n != 3 {
		t.Fatalf("X-Total-Count = %d, %v", n, ok)
	}
	if _, err := c.Repos.UpdateTopics(ctx(t), owner, repo, nil); err != nil {
		t.Fatal(err)
	}
	if topics, _, _ = c.Repos.ListTopics(ctx(t), owner, repo, nil); len(topics) != 0 {
		t.Fatalf("topics after clearing = %v", topics)
	}
}

func TestErrorShapes(t *testing.T) {
	anon := client(t, "")
	c := admin(t)

	_, _, err := anon.Users.GetCurrent(ctx(t))
	ae := mustStatus(t, err, http.StatusUnauthorized)
	if ae.Message == "" {
		t.Fatalf("401 without the server's message: %+v", ae)
	}

	_, _, err = c.Repos.Get(ctx(t), need(t).admin, "definitely-not-"+unique("x"))
	ae = mustStatus(t, err, http.StatusNotFound)
	if ae.Message == "" && len(ae.Errors) == 0 {
		t.Fatalf("404 without the server's message: %+v", ae)
	}

	// A router-level miss is text/plain; the status survives.
	_, err = c.Do(ctx(t), &forgejo.Request{Method: "GET", Path: "/definitely/not/a/route", Operation: "unknownRoute", Retry: forgejo.IdempotentOnly}, nil)
	ae = mustStatus(t, err, http.StatusNotFound)
	if ae.Message != "404 page not found" {
		t.Fatalf("router 404 message = %q", ae.Message)
	}

	// 422: an invalid sort on the repository search.
	_, err = c.Do(ctx(t), &forgejo.Request{Method: "GET", Path: "/repos/search", Operation: "repoSearch", Retry: forgejo.IdempotentOnly,
		Query: map[string][]string{"q": {"a"}, "sort": {"bogus"}, "page": {"1"}, "limit": {"2"}}}, nil)
	ae = mustStatus(t, err, http.StatusUnprocessableEntity)
	if ae.Message == "" {
		t.Fatalf("422 without the server's message: %+v", ae)
	}

	// 403: a plain user asking for an admin listing.
	_, err = user2(t).Do(ctx(t), &forgejo.Request{Method: "GET", Path: "/admin/users", Operation: "adminSearchUsers", Retry: forgejo.IdempotentOnly}, nil)
	ae = mustStatus(t, err, http.StatusForbidden)
	if ae.Message == "" {
		t.Fatalf("403 without the server's message: %+v", ae)
	}

	// 409: creating a repository that exists.
	name := newRepo(t, c)
	_, err = c.Do(ctx(t), &forgejo.Request{Method: "POST", Path: "/user/repos", Operation: "createCurrentUserRepo", Body: map[string]any{"name": name}}, nil)
	ae = mustStatus(t, err, http.StatusConflict)
	if ae.Message == "" {
		t.Fatalf("409 without the server's message: %+v", ae)
	}
}
