package integration

//lint:file-ignore SA1019 the suite calls deprecated operations and reads deprecated fields on purpose: the route matrix covers every operation, and Gitea still sends Hook.config.

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
)

func TestVersionIsPlainSemverOnGitea(t *testing.T) {
	c := client(t, "")
	v, resp, err := c.Misc.GetVersion(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	info, ok := v.Info()
	if onForgejo(t) {
		// "15.0.3+gitea-1.22.0": Forgejo's own version, then the Gitea API
		// level (HAZARDS.md §1).
		if !ok || !info.Forgejo || info.Major < 7 || info.GiteaCompat == "" || resp.Attempts != 1 {
			t.Fatalf("version %q parsed as %+v (ok %v)", v.Version, info, ok)
		}
		return
	}
	if !ok || info.Forgejo || info.Major != 1 || info.Minor < 22 || resp.Attempts != 1 {
		t.Fatalf("version %q parsed as %+v (ok %v)", v.Version, info, ok)
	}
}

func TestSettingsClampIsReal(t *testing.T) {
	s, _, err := client(t, "").Settings.GetAPI(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if s.MaxResponseItems != 20 || s.DefaultPagingNum != 10 {
		t.Fatalf("max_response_items = %d, default_paging_num = %d, want the 20 and 10 scripts/gitea.sh configures", s.MaxResponseItems, s.DefaultPagingNum)
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
		is, resp, err := c.Issues.Create(ctx(t), owner, repo, forgejo.CreateIssueRequest{Title: "issue " + strconv.Itoa(i), Body: "walk me"})
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
	for is, err := range c.Issues.ListIter(ctx(t), owner, repo, &forgejo.IssueListOptions{State: "all", Type: "issues"}) {
		if err != nil {
			t.Fatal(err)
		}
		numbers = append(numbers, is.Number)
	}
	_, first, err := c.Issues.List(ctx(t), owner, repo, &forgejo.IssueListOptions{State: "all", Type: "issues"})
	if err != nil {
		t.Fatal(err)
	}
	total, ok := first.TotalCount()
	if !ok || first.NextPage != 2 {
		t.Fatalf("first page: total %d (%v), next %d", total, ok, first.NextPage)
	}
	check("iterator", numbers, total)

	// 2. WalkPages asking for 1000 a page (any positive size is sent): the
	// server clamps to 20 and Link still offers the next page, so the walk
	// goes on and is complete.
	numbers = nil
	pages := 0
	fetch := func(ctx context.Context, o forgejo.ListOptions) ([]*forgejo.Issue, *forgejo.Response, error) {
		return c.Issues.List(ctx, owner, repo, &forgejo.IssueListOptions{State: "all", Type: "issues", ListOptions: o})
	}
	err = forgejo.WalkPages(ctx(t), forgejo.ListOptions{Limit: 1000}, fetch, func(items []*forgejo.Issue, resp *forgejo.Response) error {
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

	// 4. The cross-repository search walks the same 120 (the DB indexer).
	numbers = numbers[:0]
	for is, err := range c.Issues.SearchIter(ctx(t), &forgejo.IssueSearchOptions{State: "all", Type: "issues", Owner: owner, Query: "walk"}) {
		if err != nil {
			t.Fatal(err)
		}
		if is.Repository == nil || is.Repository.Name != repo {
			continue
		}
		numbers = append(numbers, is.Number)
	}
	check("search", numbers, 120)
}

func TestIssueReadEdit(t *testing.T) {
	c := admin(t)
	owner, repo := need(t).admin, newRepo(t, c)
	created, _, err := c.Issues.Create(ctx(t), owner, repo, forgejo.CreateIssueRequest{Title: "Crash on start", Body: "details"})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := c.Issues.Get(ctx(t), owner, repo, created.Number)
	if err != nil || got.Title != "Crash on start" || got.Body != "details" || got.State != "open" || got.User == nil || got.User.Login != owner {
		t.Fatalf("get = %+v, %v", got, err)
	}
	edited, resp, err := c.Issues.Edit(ctx(t), owner, repo, created.Number, forgejo.EditIssueRequest{State: forgejo.Ptr(forgejo.StateClosed)})
	if err != nil || edited.State != "closed" || edited.Title != "Crash on start" || edited.ClosedAt.IsZero() {
		t.Fatalf("edit = %+v, %v", edited, err)
	}
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("edit answered %d; Forgejo and Gitea answer 201", resp.StatusCode)
	}
	// An empty body is a real value, distinct from "not set".
	edited, _, err = c.Issues.Edit(ctx(t), owner, repo, created.Number, forgejo.EditIssueRequest{Body: forgejo.Ptr("")})
	if err != nil || edited.Body != "" || edited.State != "closed" {
		t.Fatalf("edit body = %+v, %v", edited, err)
	}
	// Reopen, retitle and assign in one edit.
	edited, _, err = c.Issues.Edit(ctx(t), owner, repo, created.Number, forgejo.EditIssueRequest{
		State: forgejo.Ptr(forgejo.StateOpen), Title: forgejo.Ptr("Crash on start (v2)"), Assignees: []string{owner},
	})
	if err != nil || edited.State != "open" || edited.Title != "Crash on start (v2)" || len(edited.Assignees) != 1 || edited.Assignees[0].Login != owner {
		t.Fatalf("edit = %+v, %v", edited, err)
	}

	t.Run("deadline", func(t *testing.T) {
		due := time.Date(2031, 3, 4, 0, 0, 0, 0, time.UTC)
		dl, resp, err := c.Issues.SetDeadline(ctx(t), owner, repo, created.Number, forgejo.EditDeadlineRequest{DueDate: due})
		ok(t, "deadline", err)
		if dl.DueDate.IsZero() || dl.DueDate.Year() != 2031 || status(resp) != http.StatusCreated {
			t.Fatalf("deadline = %+v (status %d)", dl, status(resp))
		}
		got, _, err := c.Issues.Get(ctx(t), owner, repo, created.Number)
		if err != nil || got.DueDate.Year() != 2031 {
			t.Fatalf("issue due date after setting = %v, %v", got.DueDate, err)
		}
	})

	t.Run("delete", func(t *testing.T) {
		n := newIssue(t, c, owner, repo, "delete me")
		resp, err := c.Issues.Delete(ctx(t), owner, repo, n)
		ok(t, "delete issue", err)
		if status(resp) != http.StatusNoContent {
			t.Fatalf("delete answered %d", status(resp))
		}
		_, _, err = c.Issues.Get(ctx(t), owner, repo, n)
		mustStatus(t, err, http.StatusNotFound)
	})
}

func TestIssueComments(t *testing.T) {
	c, u2 := admin(t), user2(t)
	owner, repo := need(t).admin, newRepo(t, c)
	n := newIssue(t, c, owner, repo, "talk about it")

	var ids []int64
	for i := 1; i <= 3; i++ {
		cm, resp, err := c.Issues.CreateComment(ctx(t), owner, repo, n, forgejo.CreateIssueCommentRequest{Body: fmt.Sprintf("comment %d", i)})
		ok(t, "create comment", err)
		if cm.Body != fmt.Sprintf("comment %d", i) || cm.User == nil || cm.User.Login != owner || status(resp) != http.StatusCreated || cm.ID == 0 {
			t.Fatalf("created comment = %+v (status %d)", cm, status(resp))
		}
		ids = append(ids, cm.ID)
	}
	// user2 may comment on a public repository too.
	cm2, _, err := u2.Issues.CreateComment(ctx(t), owner, repo, n, forgejo.CreateIssueCommentRequest{Body: "from user2"})
	ok(t, "user2 comment", err)
	if cm2.User == nil || cm2.User.Login != need(t).user2 {
		t.Fatalf("user2's comment = %+v", cm2)
	}

	list, _, err := c.Issues.ListComments(ctx(t), owner, repo, n, nil)
	ok(t, "list comments", err)
	if len(list) != 4 || list[0].ID != ids[0] || list[3].Body != "from user2" {
		t.Fatalf("comments = %d, first %+v", len(list), list[0])
	}
	is, _, err := c.Issues.Get(ctx(t), owner, repo, n)
	if err != nil || is.Comments != 4 {
		t.Fatalf("issue comments count = %d, %v", is.Comments, err)
	}

	got, _, err := c.Issues.GetComment(ctx(t), owner, repo, ids[1])
	if err != nil || got.Body != "comment 2" || !strings.Contains(got.IssueURL, "/issues/"+strconv.FormatInt(n, 10)) {
		t.Fatalf("get comment = %+v, %v", got, err)
	}
	edited, _, err := c.Issues.EditComment(ctx(t), owner, repo, ids[1], forgejo.EditIssueCommentRequest{Body: "comment 2, edited"})
	if err != nil || edited.Body != "comment 2, edited" || edited.ID != ids[1] {
		t.Fatalf("edit comment = %+v, %v", edited, err)
	}
	// The deprecated, issue-scoped variants reach the same comments.
	edited, _, err = c.Issues.EditCommentDeprecated(ctx(t), owner, repo, n, ids[2], forgejo.EditIssueCommentRequest{Body: "comment 3, edited"})
	if err != nil || edited.Body != "comment 3, edited" {
		t.Fatalf("edit comment (deprecated route) = %+v, %v", edited, err)
	}
	// user2 may not edit the admin's comment. Gitea answers 403 with an
	// empty body (HAZARDS.md): the status alone must survive.
	_, _, err = u2.Issues.EditComment(ctx(t), owner, repo, ids[0], forgejo.EditIssueCommentRequest{Body: "hijack"})
	if ae := mustStatus(t, err, http.StatusForbidden); ae.Message != "" || !strings.Contains(ae.Error(), "no message from the server") {
		t.Fatalf("403 on a foreign comment: %+v (Gitea 1.27 sends an empty body; update HAZARDS.md if that changed)", ae)
	}

	repoComments, resp, err := c.Issues.ListRepoComments(ctx(t), owner, repo, nil)
	ok(t, "repo comments", err)
	if len(repoComments) != 4 {
		t.Fatalf("repository comments = %d, want 4", len(repoComments))
	}
	if n, ok := resp.TotalCount(); ok && n != 4 {
		t.Fatalf("repository comments X-Total-Count = %d", n)
	}

	t.Run("reactions", func(t *testing.T) {
		r, _, err := c.Issues.CreateCommentReaction(ctx(t), owner, repo, ids[0], forgejo.EditReactionRequest{Content: "heart"})
		if err != nil || r.Content != "heart" || r.User == nil || r.User.Login != owner {
			t.Fatalf("comment reaction = %+v, %v", r, err)
		}
		rs, _, err := c.Issues.ListCommentReactions(ctx(t), owner, repo, ids[0])
		if err != nil || len(rs) != 1 || rs[0].Content != "heart" {
			t.Fatalf("comment reactions = %v, %v", rs, err)
		}
		_, err = c.Issues.DeleteCommentReaction(ctx(t), owner, repo, ids[0], forgejo.EditReactionRequest{Content: "heart"})
		ok(t, "delete comment reaction", err)
		if rs, _, _ = c.Issues.ListCommentReactions(ctx(t), owner, repo, ids[0]); len(rs) != 0 {
			t.Fatalf("comment reactions after delete = %v", rs)
		}

		r, _, err = u2.Issues.CreateReaction(ctx(t), owner, repo, n, forgejo.EditReactionRequest{Content: "+1"})
		if err != nil || r.Content != "+1" {
			t.Fatalf("issue reaction = %+v, %v", r, err)
		}
		rs, _, err = c.Issues.ListReactions(ctx(t), owner, repo, n, nil)
		if err != nil || len(rs) != 1 || rs[0].User == nil || rs[0].User.Login != need(t).user2 {
			t.Fatalf("issue reactions = %v, %v", rs, err)
		}
		_, err = u2.Issues.DeleteReaction(ctx(t), owner, repo, n, forgejo.EditReactionRequest{Content: "+1"})
		ok(t, "delete issue reaction", err)
		// A reaction the instance does not allow is refused.
		_, _, err = c.Issues.CreateReaction(ctx(t), owner, repo, n, forgejo.EditReactionRequest{Content: "not-an-emoji"})
		if err == nil {
			t.Fatal("an unknown reaction was accepted")
		}
	})

	t.Run("timeline", func(t *testing.T) {
		tl, _, err := c.Issues.ListTimeline(ctx(t), owner, repo, n, nil)
		ok(t, "timeline", err)
		comments := 0
		for _, ev := range tl {
			if ev.Type == "comment" {
				comments++
			}
		}
		if comments != 4 {
			t.Fatalf("timeline has %d comments among %d events, want 4", comments, len(tl))
		}
	})

	t.Run("delete", func(t *testing.T) {
		resp, err := c.Issues.DeleteComment(ctx(t), owner, repo, ids[0])
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete comment: %d, %v", status(resp), err)
		}
		_, _, err = c.Issues.GetComment(ctx(t), owner, repo, ids[0])
		mustStatus(t, err, http.StatusNotFound)
		_, err = c.Issues.DeleteCommentDeprecated(ctx(t), owner, repo, n, ids[1])
		ok(t, "delete comment (deprecated route)", err)
		list, _, err := c.Issues.ListComments(ctx(t), owner, repo, n, nil)
		if err != nil || len(list) != 2 {
			t.Fatalf("comments after two deletions = %d, %v", len(list), err)
		}
	})
}

// TestLabels covers repository labels (with a walk past the clamp) and the
// labels of one issue: add, replace, remove one, clear.
func TestLabels(t *testing.T) {
	c := admin(t)
	owner, repo := need(t).admin, newRepo(t, c)
	var ids []int64
	for i := 1; i <= 25; i++ {
		l, resp, err := c.Issues.CreateLabel(ctx(t), owner, repo, forgejo.CreateLabelRequest{
			Name: fmt.Sprintf("label-%02d", i), Color: "#00aabb", Description: "number " + strconv.Itoa(i),
		})
		ok(t, "create label", err)
		if l.Name != fmt.Sprintf("label-%02d", i) || l.ID == 0 || status(resp) != http.StatusCreated || !strings.EqualFold(strings.TrimPrefix(l.Color, "#"), "00aabb") {
			t.Fatalf("created label = %+v (status %d)", l, status(resp))
		}
		ids = append(ids, l.ID)
	}

	// 25 labels on a 20 clamp: the walk must see all of them, once.
	seen := map[int64]int{}
	for l, err := range c.Issues.ListLabelsIter(ctx(t), owner, repo, nil) {
		ok(t, "walk labels", err)
		seen[l.ID]++
	}
	if len(seen) != 25 {
		t.Fatalf("walk saw %d labels, want 25", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("label %d seen %d times", id, n)
		}
	}
	page, resp, err := c.Issues.ListLabels(ctx(t), owner, repo, &forgejo.IssueListLabelsOptions{ListOptions: forgejo.ListOptions{Limit: 50}})
	ok(t, "list labels", err)
	if total, ok := resp.TotalCount(); !ok || total != 25 || len(page) != 20 {
		t.Fatalf("first page: %d labels, X-Total-Count %d (%v)", len(page), total, ok)
	}

	l, _, err := c.Issues.GetLabel(ctx(t), owner, repo, ids[0])
	if err != nil || l.Name != "label-01" || l.Description != "number 1" {
		t.Fatalf("get label = %+v, %v", l, err)
	}
	l, _, err = c.Issues.EditLabel(ctx(t), owner, repo, ids[0], forgejo.EditLabelRequest{Name: forgejo.Ptr("bug"), Color: forgejo.Ptr("#ff0000"), Description: forgejo.Ptr("")})
	if err != nil || l.Name != "bug" || l.Description != "" || !strings.EqualFold(strings.TrimPrefix(l.Color, "#"), "ff0000") {
		t.Fatalf("edit label = %+v, %v", l, err)
	}
	// A bad color is refused with 422.
	_, _, err = c.Issues.CreateLabel(ctx(t), owner, repo, forgejo.CreateLabelRequest{Name: "bad", Color: "not-a-color"})
	mustStatus(t, err, http.StatusUnprocessableEntity)

	n := newIssue(t, c, owner, repo, "labelled")
	labelNames := func() []string {
		t.Helper()
		ls, _, err := c.Issues.ListLabelsByIssue(ctx(t), owner, repo, n)
		ok(t, "issue labels", err)
		var names []string
		for _, l := range ls {
			names = append(names, l.Name)
		}
		return names
	}
	got, _, err := c.Issues.AddLabelsToIssue(ctx(t), owner, repo, n, forgejo.IssueLabelsRequest{Labels: forgejo.LabelIDs(ids[0], ids[1])})
	if err != nil || len(got) != 2 {
		t.Fatalf("add labels = %v, %v", got, err)
	}
	// Adding again is idempotent; names work as well as ids.
	got, _, err = c.Issues.AddLabelsToIssue(ctx(t), owner, repo, n, forgejo.IssueLabelsRequest{Labels: forgejo.LabelNames("label-02", "label-03")})
	if err != nil || len(got) != 3 {
		t.Fatalf("add labels again = %v, %v", got, err)
	}
	// But not both in one list: Gitea wants all ids or all names
	// (HAZARDS.md), although the spec types the list as any.
	_, _, err = c.Issues.AddLabelsToIssue(ctx(t), owner, repo, n, forgejo.IssueLabelsRequest{Labels: []forgejo.LabelRef{forgejo.LabelID(ids[3]), forgejo.LabelName("label-05")}})
	if ae := mustStatus(t, err, http.StatusBadRequest); !strings.Contains(ae.Message, "array of strings or integers") {
		t.Fatalf("mixed label list: %+v", ae)
	}
	if names := labelNames(); len(names) != 3 || !contains(names, "bug") || !contains(names, "label-03") {
		t.Fatalf("issue labels = %v", names)
	}
	got, _, err = c.Issues.ReplaceLabelsForIssue(ctx(t), owner, repo, n, forgejo.IssueLabelsRequest{Labels: forgejo.LabelIDs(ids[4], ids[5])})
	if err != nil || len(got) != 2 {
		t.Fatalf("replace labels = %v, %v", got, err)
	}
	if names := labelNames(); len(names) != 2 || !contains(names, "label-05") || !contains(names, "label-06") {
		t.Fatalf("issue labels after replace = %v", names)
	}
	resp, err = c.Issues.RemoveLabelForIssue(ctx(t), owner, repo, n, strconv.FormatInt(ids[4], 10))
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("remove label: %d, %v", status(resp), err)
	}
	if names := labelNames(); len(names) != 1 || names[0] != "label-06" {
		t.Fatalf("issue labels after remove = %v", names)
	}
	// Filtering issues by label finds it.
	found, _, err := c.Issues.List(ctx(t), owner, repo, &forgejo.IssueListOptions{Labels: []string{"label-06"}})
	if err != nil || len(found) != 1 || found[0].Number != n {
		t.Fatalf("issues labelled label-06 = %v, %v", found, err)
	}
	_, err = c.Issues.RemoveLabelsForIssue(ctx(t), owner, repo, n, forgejo.DeleteLabelsRequest{})
	ok(t, "clear labels", err)
	if names := labelNames(); len(names) != 0 {
		t.Fatalf("issue labels after clear = %v", names)
	}

	resp, err = c.Issues.DeleteLabel(ctx(t), owner, repo, ids[0])
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("delete label: %d, %v", status(resp), err)
	}
	_, _, err = c.Issues.GetLabel(ctx(t), owner, repo, ids[0])
	mustStatus(t, err, http.StatusNotFound)
}

func TestMilestones(t *testing.T) {
	c := admin(t)
	owner, repo := need(t).admin, newRepo(t, c)
	due := time.Date(2030, 1, 2, 15, 4, 5, 0, time.UTC)
	m, resp, err := c.Issues.CreateMilestone(ctx(t), owner, repo, forgejo.CreateMilestoneRequest{Title: "v1.0", Description: "first", DueOn: due})
	ok(t, "create milestone", err)
	if m.Title != "v1.0" || m.State != forgejo.StateOpen || m.DueOn.IsZero() || status(resp) != http.StatusCreated {
		t.Fatalf("created milestone = %+v (status %d)", m, status(resp))
	}
	m2, _, err := c.Issues.CreateMilestone(ctx(t), owner, repo, forgejo.CreateMilestoneRequest{Title: "v2.0"})
	ok(t, "create second milestone", err)

	n1, n2 := newIssue(t, c, owner, repo, "in v1"), newIssue(t, c, owner, repo, "also in v1")
	for _, n := range []int64{n1, n2} {
		is, _, err := c.Issues.Edit(ctx(t), owner, repo, n, forgejo.EditIssueRequest{Milestone: forgejo.Ptr(m.ID)})
		if err != nil || is.Milestone == nil || is.Milestone.ID != m.ID {
			t.Fatalf("set milestone = %+v, %v", is, err)
		}
	}
	_, _, err = c.Issues.Edit(ctx(t), owner, repo, n2, forgejo.EditIssueRequest{State: forgejo.Ptr(forgejo.StateClosed)})
	ok(t, "close issue", err)

	got, _, err := c.Issues.GetMilestone(ctx(t), owner, repo, strconv.FormatInt(m.ID, 10))
	if err != nil || got.OpenIssues != 1 || got.ClosedIssues != 1 || got.Description != "first" {
		t.Fatalf("milestone counts = %+v, %v", got, err)
	}
	got, _, err = c.Issues.EditMilestone(ctx(t), owner, repo, m.Title, forgejo.EditMilestoneRequest{State: forgejo.Ptr(forgejo.StateClosed), Title: forgejo.Ptr("v1.0.0")})
	if err != nil || got.State != forgejo.StateClosed || got.Title != "v1.0.0" || got.ClosedAt.IsZero() {
		t.Fatalf("edit milestone = %+v, %v", got, err)
	}

	open, _, err := c.Issues.ListMilestones(ctx(t), owner, repo, nil)
	if err != nil || len(open) != 1 || open[0].ID != m2.ID {
		t.Fatalf("open milestones = %v, %v", open, err)
	}
	all, resp, err := c.Issues.ListMilestones(ctx(t), owner, repo, &forgejo.IssueListMilestonesOptions{State: "all"})
	if err != nil || len(all) != 2 {
		t.Fatalf("all milestones = %v, %v", all, err)
	}
	if n, ok := resp.TotalCount(); ok && n != 2 {
		t.Fatalf("milestones X-Total-Count = %d", n)
	}
	byName, _, err := c.Issues.ListMilestones(ctx(t), owner, repo, &forgejo.IssueListMilestonesOptions{State: "all", Name: "v2.0"})
	if err != nil || len(byName) != 1 || byName[0].ID != m2.ID {
		t.Fatalf("milestones named v2.0 = %v, %v", byName, err)
	}
	inV1, _, err := c.Issues.List(ctx(t), owner, repo, &forgejo.IssueListOptions{State: "all", Milestones: []string{"v1.0.0"}})
	if err != nil || len(inV1) != 2 {
		t.Fatalf("issues in v1.0.0 = %d, %v", len(inV1), err)
	}

	resp, err = c.Issues.DeleteMilestone(ctx(t), owner, repo, strconv.FormatInt(m.ID, 10))
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("delete milestone: %d, %v", status(resp), err)
	}
	_, _, err = c.Issues.GetMilestone(ctx(t), owner, repo, strconv.FormatInt(m.ID, 10))
	mustStatus(t, err, http.StatusNotFound)
	is, _, err := c.Issues.Get(ctx(t), owner, repo, n1)
	if err != nil || is.Milestone != nil {
		t.Fatalf("issue keeps a deleted milestone: %+v, %v", is.Milestone, err)
	}
}

// TestIssueExtras covers subscriptions, the stopwatch, tracked time,
// dependencies, pins and attachments of issues.
func TestIssueExtras(t *testing.T) {
	c, u2 := admin(t), user2(t)
	owner, repo := need(t).admin, newRepo(t, c)
	n := newIssue(t, c, owner, repo, "extras")

	t.Run("subscriptions", func(t *testing.T) {
		resp, err := c.Issues.Subscribe(ctx(t), owner, repo, n, need(t).user2)
		if err != nil || (status(resp) != http.StatusCreated && status(resp) != http.StatusOK) {
			t.Fatalf("subscribe user2: %d, %v", status(resp), err)
		}
		w, _, err := u2.Issues.GetSubscription(ctx(t), owner, repo, n)
		if err != nil || !w.Subscribed {
			t.Fatalf("user2's subscription = %+v, %v", w, err)
		}
		subs, _, err := c.Issues.ListSubscribers(ctx(t), owner, repo, n, nil)
		if err != nil || !contains(logins(subs), need(t).user2) {
			t.Fatalf("subscribers = %v, %v", logins(subs), err)
		}
		_, err = c.Issues.Unsubscribe(ctx(t), owner, repo, n, need(t).user2)
		ok(t, "unsubscribe", err)
		w, _, err = u2.Issues.GetSubscription(ctx(t), owner, repo, n)
		if err != nil || w.Subscribed {
			t.Fatalf("user2's subscription after removal = %+v, %v", w, err)
		}
	})

	t.Run("stopwatch and tracked time", func(t *testing.T) {
		resp, err := c.Issues.StartStopwatch(ctx(t), owner, repo, n)
		if err != nil || status(resp) != http.StatusCreated {
			t.Fatalf("start stopwatch: %d, %v", status(resp), err)
		}
		_, err = c.Issues.StartStopwatch(ctx(t), owner, repo, n)
		mustStatus(t, err, http.StatusConflict) // already running
		ws, _, err := c.Users.ListStopwatches(ctx(t), nil)
		if err != nil || len(ws) != 1 || ws[0].IssueIndex != n || ws[0].RepoName != repo {
			t.Fatalf("stopwatches = %+v, %v", ws, err)
		}
		_, err = c.Issues.DeleteStopwatch(ctx(t), owner, repo, n)
		ok(t, "cancel stopwatch", err)
		if ws, _, _ = c.Users.ListStopwatches(ctx(t), nil); len(ws) != 0 {
			t.Fatalf("stopwatches after cancel = %+v", ws)
		}
		_, err = c.Issues.StartStopwatch(ctx(t), owner, repo, n)
		ok(t, "restart stopwatch", err)
		_, err = c.Issues.StopStopwatch(ctx(t), owner, repo, n)
		ok(t, "stop stopwatch", err)

		tt, _, err := c.Issues.AddTrackedTime(ctx(t), owner, repo, n, forgejo.AddTimeRequest{Time: 3600})
		if err != nil || tt.Time != 3600 || tt.UserName != owner || tt.ID == 0 {
			t.Fatalf("add time = %+v, %v", tt, err)
		}
		times, _, err := c.Issues.ListTrackedTimes(ctx(t), owner, repo, n, nil)
		if err != nil || len(times) < 1 {
			t.Fatalf("tracked times = %v, %v", times, err)
		}
		var sum int64
		for _, x := range times {
			sum += x.Time
		}
		if sum < 3600 {
			t.Fatalf("tracked seconds = %d, want at least 3600", sum)
		}
		repoTimes, _, err := c.Repos.ListTrackedTimes(ctx(t), owner, repo, nil)
		if err != nil || len(repoTimes) != len(times) {
			t.Fatalf("repository tracked times = %d, %v; issue has %d", len(repoTimes), err, len(times))
		}
		userTimes, _, err := c.Repos.ListUserTrackedTimes(ctx(t), owner, repo, owner)
		if err != nil || len(userTimes) != len(times) {
			t.Fatalf("user tracked times = %d, %v", len(userTimes), err)
		}
		mine, _, err := c.Users.ListTrackedTimes(ctx(t), nil)
		if err != nil || len(mine) < len(times) {
			t.Fatalf("my tracked times = %d, %v", len(mine), err)
		}
		_, _, err = c.Issues.AddTrackedTime(ctx(t), owner, repo, n, forgejo.AddTimeRequest{Time: 60})
		ok(t, "add more time", err)
		resp, err = c.Issues.DeleteTrackedTime(ctx(t), owner, repo, n, tt.ID)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete time: %d, %v", status(resp), err)
		}
		_, err = c.Issues.DeleteTrackedTime(ctx(t), owner, repo, n, tt.ID)
		mustStatus(t, err, http.StatusNotFound)
		resp, err = c.Issues.ClearTrackedTimes(ctx(t), owner, repo, n)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("reset time: %d, %v", status(resp), err)
		}
		if times, _, _ = c.Issues.ListTrackedTimes(ctx(t), owner, repo, n, nil); len(times) != 0 {
			t.Fatalf("tracked times after reset = %v", times)
		}
		// With nothing left, a reset is a 404.
		_, err = c.Issues.ClearTrackedTimes(ctx(t), owner, repo, n)
		mustStatus(t, err, http.StatusNotFound)
	})

	t.Run("dependencies", func(t *testing.T) {
		blocker := newIssue(t, c, owner, repo, "blocker")
		meta := forgejo.IssueMetaRequest{Owner: owner, Repo: repo, Index: blocker}
		// The answer is the issue of the URL (the dependent one), not the
		// blocker named in the body.
		dep, _, err := c.Issues.AddDependency(ctx(t), owner, repo, n, meta)
		if err != nil || dep.Number != n {
			t.Fatalf("add dependency = %+v, %v", dep, err)
		}
		deps, _, err := c.Issues.ListDependencies(ctx(t), owner, repo, n, nil)
		if err != nil || len(deps) != 1 || deps[0].Number != blocker {
			t.Fatalf("dependencies = %v, %v", deps, err)
		}
		blocks, _, err := c.Issues.ListBlocks(ctx(t), owner, repo, blocker, nil)
		if err != nil || len(blocks) != 1 || blocks[0].Number != n {
			t.Fatalf("blocks = %v, %v", blocks, err)
		}
		_, _, err = c.Issues.RemoveDependency(ctx(t), owner, repo, n, meta)
		ok(t, "remove dependency", err)
		if deps, _, _ = c.Issues.ListDependencies(ctx(t), owner, repo, n, nil); len(deps) != 0 {
			t.Fatalf("dependencies after removal = %v", deps)
		}
		_, _, err = c.Issues.AddBlock(ctx(t), owner, repo, blocker, forgejo.IssueMetaRequest{Owner: owner, Repo: repo, Index: n})
		ok(t, "add blocking", err)
		if deps, _, _ = c.Issues.ListDependencies(ctx(t), owner, repo, n, nil); len(deps) != 1 {
			t.Fatalf("dependencies after blocking = %v", deps)
		}
		_, _, err = c.Issues.RemoveBlock(ctx(t), owner, repo, blocker, forgejo.IssueMetaRequest{Owner: owner, Repo: repo, Index: n})
		ok(t, "remove blocking", err)
		if blocks, _, _ = c.Issues.ListBlocks(ctx(t), owner, repo, blocker, nil); len(blocks) != 0 {
			t.Fatalf("blocks after removal = %v", blocks)
		}
	})

	t.Run("pins", func(t *testing.T) {
		allowed, _, err := c.Repos.GetNewPinAllowed(ctx(t), owner, repo)
		if err != nil || !allowed.Issues {
			t.Fatalf("new pin allowed = %+v, %v", allowed, err)
		}
		other := newIssue(t, c, owner, repo, "pinned too")
		for _, x := range []int64{n, other} {
			resp, err := c.Issues.Pin(ctx(t), owner, repo, x)
			if err != nil || status(resp) != http.StatusNoContent {
				t.Fatalf("pin #%d: %d, %v", x, status(resp), err)
			}
		}
		pinned, _, err := c.Issues.ListPinned(ctx(t), owner, repo)
		if err != nil || len(pinned) != 2 || pinned[0].Number != n || pinned[0].PinOrder != 1 {
			t.Fatalf("pinned = %v, %v", pinned, err)
		}
		_, err = c.Issues.MovePin(ctx(t), owner, repo, other, 1)
		ok(t, "move pin", err)
		pinned, _, err = c.Issues.ListPinned(ctx(t), owner, repo)
		if err != nil || len(pinned) != 2 || pinned[0].Number != other {
			t.Fatalf("pinned after move = %v, %v", pinned, err)
		}
		_, err = c.Issues.Unpin(ctx(t), owner, repo, other)
		ok(t, "unpin", err)
		if pinned, _, _ = c.Issues.ListPinned(ctx(t), owner, repo); len(pinned) != 1 || pinned[0].Number != n {
			t.Fatalf("pinned after unpin = %v", pinned)
		}
	})

	t.Run("attachments", func(t *testing.T) {
		const content = "attached text\n"
		a, resp, err := c.Issues.UploadAttachment(ctx(t), owner, repo, n, &forgejo.IssueUploadAttachmentOptions{Name: "notes.txt"},
			forgejo.Upload{Name: "local.txt", Content: strings.NewReader(content), ContentType: "text/plain"})
		ok(t, "upload issue attachment", err)
		if a.Name != "notes.txt" || a.Size != int64(len(content)) || a.ID == 0 || status(resp) != http.StatusCreated || a.BrowserDownloadURL == "" {
			t.Fatalf("attachment = %+v (status %d)", a, status(resp))
		}
		list, _, err := c.Issues.ListAttachments(ctx(t), owner, repo, n)
		if err != nil || len(list) != 1 || list[0].ID != a.ID {
			t.Fatalf("attachments = %v, %v", list, err)
		}
		got, _, err := c.Issues.GetAttachment(ctx(t), owner, repo, n, a.ID)
		if err != nil || got.Uuid != a.Uuid {
			t.Fatalf("get attachment = %+v, %v", got, err)
		}
		got, _, err = c.Issues.EditAttachment(ctx(t), owner, repo, n, a.ID, forgejo.EditAttachmentRequest{Name: forgejo.Ptr("renamed.txt")})
		if err != nil || got.Name != "renamed.txt" {
			t.Fatalf("edit attachment = %+v, %v", got, err)
		}
		resp, err = c.Issues.DeleteAttachment(ctx(t), owner, repo, n, a.ID)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete attachment: %d, %v", status(resp), err)
		}
		_, _, err = c.Issues.GetAttachment(ctx(t), owner, repo, n, a.ID)
		mustStatus(t, err, http.StatusNotFound)

		cm, _, err := c.Issues.CreateComment(ctx(t), owner, repo, n, forgejo.CreateIssueCommentRequest{Body: "see attachment"})
		ok(t, "comment", err)
		ca, _, err := c.Issues.UploadCommentAttachment(ctx(t), owner, repo, cm.ID, nil,
			forgejo.Upload{Name: "log.txt", Content: strings.NewReader("log line\n")})
		if err != nil || ca.Name != "log.txt" {
			t.Fatalf("comment attachment = %+v, %v", ca, err)
		}
		clist, _, err := c.Issues.ListCommentAttachments(ctx(t), owner, repo, cm.ID)
		if err != nil || len(clist) != 1 {
			t.Fatalf("comment attachments = %v, %v", clist, err)
		}
		cget, _, err := c.Issues.GetCommentAttachment(ctx(t), owner, repo, cm.ID, ca.ID)
		if err != nil || cget.ID != ca.ID {
			t.Fatalf("get comment attachment = %+v, %v", cget, err)
		}
		cget, _, err = c.Issues.EditCommentAttachment(ctx(t), owner, repo, cm.ID, ca.ID, forgejo.EditAttachmentRequest{Name: forgejo.Ptr("log-1.txt")})
		if err != nil || cget.Name != "log-1.txt" {
			t.Fatalf("edit comment attachment = %+v, %v", cget, err)
		}
		_, err = c.Issues.DeleteCommentAttachment(ctx(t), owner, repo, cm.ID, ca.ID)
		ok(t, "delete comment attachment", err)
		if clist, _, _ = c.Issues.ListCommentAttachments(ctx(t), owner, repo, cm.ID); len(clist) != 0 {
			t.Fatalf("comment attachments after delete = %v", clist)
		}
	})
}
