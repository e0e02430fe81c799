package forgejotest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// raw sends one request without the client library, so that tests see the
// wire: status, headers and body exactly as sent.
func raw(t *testing.T, srv *Server, method, path, token string, body any) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, srv.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "token "+token)
	}
	resp, err := srv.HTTPClient().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, path, err)
	}
	return resp, data
}

func wantStatus(t *testing.T, resp *http.Response, body []byte, want int) {
	t.Helper()
	if resp.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d; body %s", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, want, body)
	}
}

func decodeJSON[T any](t *testing.T, data []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
	return v
}

func TestVersionAndSettings(t *testing.T) {
	srv := NewServer(t, WithMaxResponseItems(20), WithDefaultPagingNum(10))
	resp, body := raw(t, srv, "GET", "/api/v1/version", "", nil)
	wantStatus(t, resp, body, 200)
	if got := string(body); got != `{"version":"`+DefaultVersion+`"}` {
		t.Errorf("version body %s", got)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json;charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	set, _, err := srv.Client().Settings.GetAPI(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if set.MaxResponseItems != 20 || set.DefaultPagingNum != 10 {
		t.Errorf("settings %+v", set)
	}
}

func TestPagingHeadersAndClamp(t *testing.T) {
	srv := NewServer(t, WithMaxResponseItems(3))
	srv.AddRepo("alice", "demo")
	srv.AddIssues("alice", "demo", 7)
	base := "/api/v1/repos/alice/demo/issues"
	link := func(page int) string {
		return srv.URL + base + "?limit=50&page=" + strconv.Itoa(page) + "&state=open"
	}
	cases := []struct {
		page    int
		numbers []int64
		links   []string
	}{
		// limit=50 is clamped to 3 while Link keeps limit=50; the last
		// page is computed with the size applied (ceil(7/3) = 3).
		{1, []int64{7, 6, 5}, []string{"<" + link(2) + `>; rel="next"`, "<" + link(3) + `>; rel="last"`}},
		{2, []int64{4, 3, 2}, []string{"<" + link(3) + `>; rel="next"`, "<" + link(3) + `>; rel="last"`, "<" + link(1) + `>; rel="first"`, "<" + link(1) + `>; rel="prev"`}},
		{3, []int64{1}, []string{"<" + link(1) + `>; rel="first"`, "<" + link(2) + `>; rel="prev"`}},
		// Past the end: 200 [], prev names the last page.
		{9, nil, []string{"<" + link(1) + `>; rel="first"`, "<" + link(2) + `>; rel="prev"`}},
	}
	for _, tc := range cases {
		resp, body := raw(t, srv, "GET", base+"?state=open&page="+strconv.Itoa(tc.page)+"&limit=50", "", nil)
		wantStatus(t, resp, body, 200)
		issues := decodeJSON[[]forgejo.Issue](t, body)
		var got []int64
		for _, is := range issues {
			got = append(got, is.Number)
		}
		if !equalInts(got, tc.numbers) {
			t.Errorf("page %d: numbers %v, want %v", tc.page, got, tc.numbers)
		}
		if tc.numbers == nil && strings.TrimSpace(string(body)) != "[]" {
			t.Errorf("page %d: body %s, want []", tc.page, body)
		}
		if got, want := resp.Header.Get("Link"), strings.Join(tc.links, ","); got != want {
			t.Errorf("page %d: Link\n got %s\nwant %s", tc.page, got, want)
		}
		if got := resp.Header.Get("X-Total-Count"); got != "7" {
			t.Errorf("page %d: X-Total-Count %q", tc.page, got)
		}
	}

	// Without a limit the page size is default_paging_num (30), still
	// clamped to 3; a single page sends no Link at all.
	resp, body := raw(t, srv, "GET", base, "", nil)
	if n := len(decodeJSON[[]forgejo.Issue](t, body)); n != 3 || !strings.Contains(resp.Header.Get("Link"), "?page=2>") {
		t.Errorf("no limit: %d items, Link %q", n, resp.Header.Get("Link"))
	}
	srv2 := NewServer(t)
	srv2.AddRepo("bob", "one")
	srv2.AddIssues("bob", "one", 2)
	resp, _ = raw(t, srv2, "GET", "/api/v1/repos/bob/one/issues?page=1&limit=10", "", nil)
	if resp.Header.Get("Link") != "" || resp.Header.Get("X-Total-Count") != "2" {
		t.Errorf("one page: Link %q, total %q", resp.Header.Get("Link"), resp.Header.Get("X-Total-Count"))
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestWalkSeesEverything walks a clamped listing with the client's
// iterator: every issue once, asking 50 on a server that clamps to 7.
func TestWalkSeesEverything(t *testing.T) {
	srv := NewServer(t, WithMaxResponseItems(7))
	srv.AddRepo("alice", "demo")
	srv.AddIssues("alice", "demo", 30)
	seen := map[int64]int{}
	for is, err := range srv.Client().Issues.ListIter(context.Background(), "alice", "demo",
		&forgejo.IssueListOptions{ListOptions: forgejo.ListOptions{Limit: 50}}) {
		if err != nil {
			t.Fatal(err)
		}
		seen[is.Number]++
	}
	if len(seen) != 30 {
		t.Fatalf("saw %d issues, want 30", len(seen))
	}
	for n, c := range seen {
		if c != 1 {
			t.Errorf("issue %d seen %d times", n, c)
		}
	}
	if got := srv.Count("issueListIssues"); got != 5 { // ceil(30/7)
		t.Errorf("%d list requests, want 5", got)
	}
}

func TestListingsWithoutLink(t *testing.T) {
	srv := NewServer(t, WithMaxResponseItems(2))
	srv.AddRepo("alice", "demo")
	for _, n := range []string{"bug", "docs", "feature"} {
		srv.AddLabel("alice", "demo", n, "")
	}
	for _, m := range []string{"v1", "v2", "v3"} {
		srv.AddMilestone("alice", "demo", m)
	}
	srv.SetTopics("alice", "demo", "go", "api", "forge")
	num := srv.AddIssue("alice", "demo", IssueSpec{Title: "talk", Comments: []CommentSpec{{Body: "a"}, {Body: "b"}, {Body: "c"}}})
	for _, u := range []string{"u1", "u2", "u3"} {
		srv.Star(u, "alice", "demo")
	}
	pr := srv.AddPull("alice", "demo", "feature", "main", "A change")
	cases := []struct {
		path  string
		total string
		items int
	}{
		{"/labels?page=1&limit=2", "3", 2},
		{"/milestones?page=1&limit=2", "3", 2},
		{"/topics?page=1&limit=2", "3", -1},
		{"/stargazers?page=1&limit=2", "3", 2},
		{"/forks?page=1&limit=2", "0", 0},
		// Comments ignore paging: all three come back.
		{"/issues/" + strconv.FormatInt(num, 10) + "/comments?page=1&limit=2", "3", 3},
		{"/pulls/" + strconv.FormatInt(pr, 10) + "/reviews?page=1&limit=2", "0", 0},
		{"/pulls/" + strconv.FormatInt(pr, 10) + "/commits?page=1&limit=2", "1", 1},
		{"/pulls/" + strconv.FormatInt(pr, 10) + "/files?page=1&limit=2", "1", 1},
	}
	for _, tc := range cases {
		resp, body := raw(t, srv, "GET", "/api/v1/repos/alice/demo"+tc.path, "", nil)
		wantStatus(t, resp, body, 200)
		if l := resp.Header.Get("Link"); l != "" {
			t.Errorf("%s: Link %q, want none", tc.path, l)
		}
		if got := resp.Header.Get("X-Total-Count"); got != tc.total {
			t.Errorf("%s: X-Total-Count %q, want %s", tc.path, got, tc.total)
		}
		if tc.items >= 0 {
			if n := len(decodeJSON[[]json.RawMessage](t, body)); n != tc.items {
				t.Errorf("%s: %d items, want %d", tc.path, n, tc.items)
			}
		}
	}
	// Labels sort alphabetically unless told otherwise.
	_, body0 := raw(t, srv, "GET", "/api/v1/repos/alice/demo/labels?sort=reversealphabetically", "", nil)
	if ls := decodeJSON[[]forgejo.Label](t, body0); len(ls) != 2 || ls[0].Name != "feature" || ls[1].Name != "docs" {
		t.Errorf("reverse-sorted labels %s", body0)
	}
	// The topics envelope, paged.
	_, body := raw(t, srv, "GET", "/api/v1/repos/alice/demo/topics?page=2&limit=2", "", nil)
	if string(body) != `{"topics":["go"]}` {
		t.Errorf("topics page 2: %s", body)
	}
	// A lone limit returns every stargazer, as Codeberg does.
	_, body = raw(t, srv, "GET", "/api/v1/repos/alice/demo/stargazers?limit=1", "", nil)
	if n := len(decodeJSON[[]json.RawMessage](t, body)); n != 3 {
		t.Errorf("stargazers?limit=1: %d items, want all 3", n)
	}
	// …while on issues a lone limit applies.
	srv.AddIssues("alice", "demo", 4)
	_, body = raw(t, srv, "GET", "/api/v1/repos/alice/demo/issues?limit=1", "", nil)
	if n := len(decodeJSON[[]json.RawMessage](t, body)); n != 1 {
		t.Errorf("issues?limit=1: %d items, want 1", n)
	}
}

func TestErrorShapes(t *testing.T) {
	srv := NewServer(t)
	srv.AddRepo("alice", "demo")
	bob := srv.AddUser("bob")
	srv.AddIssue("alice", "demo", IssueSpec{Title: "mine"})

	check := func(name string, resp *http.Response, body []byte, status int, ctype, want string) {
		t.Helper()
		if resp.StatusCode != status {
			t.Errorf("%s: status %d, want %d (%s)", name, resp.StatusCode, status, body)
		}
		if ct := resp.Header.Get("Content-Type"); ct != ctype {
			t.Errorf("%s: Content-Type %q, want %q", name, ct, ctype)
		}
		if string(body) != want {
			t.Errorf("%s: body\n got %s\nwant %s", name, body, want)
		}
	}
	sw := srv.URL + "/api/swagger"
	const js = "application/json;charset=utf-8"

	resp, body := raw(t, srv, "GET", "/api/v1/nodeinfo-typo", "", nil)
	check("unknown route", resp, body, 404, "text/plain; charset=utf-8", "404 page not found\n")
	resp, body = raw(t, srv, "GET", "/nodeinfo", "", nil)
	check("outside the API", resp, body, 404, "text/plain; charset=utf-8", "404 page not found\n")
	resp, body = raw(t, srv, "GET", "/api/v1/user", "", nil)
	check("token required", resp, body, 401, js, `{"message":"token is required","url":"`+sw+`"}`)
	resp, body = raw(t, srv, "GET", "/api/v1/version", "not-a-token", nil)
	check("bad token", resp, body, 401, js, `{"message":"access token does not exist [sha: not-a-token]","url":"`+sw+`"}`)
	resp, body = raw(t, srv, "GET", "/api/v1/repos/alice/nope", "", nil)
	check("missing repo", resp, body, 404, js, `{"message":"The target couldn't be found.","url":"`+sw+`","errors":[]}`)
	resp, body = raw(t, srv, "GET", "/api/v1/repos/nobody/nope", "", nil)
	check("missing owner", resp, body, 404, js, `{"message":"GetUserByName","url":"`+sw+`","errors":["user redirect does not exist [name: nobody]"]}`)
	resp, body = raw(t, srv, "GET", "/api/v1/users/Nobody", "", nil)
	check("missing user", resp, body, 404, js, `{"message":"user redirect does not exist [name: nobody]","url":"`+sw+`"}`)
	resp, body = raw(t, srv, "POST", "/api/v1/repos/alice/demo/issues", bob, map[string]string{"title": " "})
	check("blank title", resp, body, 422, js, `{"message":"[Title]: Required","url":"`+sw+`"}`)
	resp, body = raw(t, srv, "PATCH", "/api/v1/repos/alice/demo/issues/1", bob, map[string]string{"title": "hijack"})
	check("someone else's issue", resp, body, 403, "", "")
	resp, body = raw(t, srv, "PUT", "/api/v1/repos/alice/demo/topics/Bad_Topic!", srv.Token(), nil)
	check("not the owner", resp, body, 403, js, `{"message":"user should be an owner or a collaborator with admin write of a repository","url":"`+sw+`"}`)
	resp, body = raw(t, srv, "DELETE", "/api/v1/version", "", nil)
	check("wrong method", resp, body, 405, "", "")
	if got := resp.Header.Values("Allow"); len(got) != 1 || got[0] != "GET" {
		t.Errorf("Allow %v", got)
	}

	// An operation the library knows but the fake does not implement says
	// so, rather than pretending the route is missing.
	var unimplemented *knownOp
	impl := ImplementedOperations()
	for i, k := range libraryOps() {
		if k.method == "GET" && !strings.Contains(k.tmpl.raw, "{") && !contains(impl, k.id) {
			unimplemented = &libraryOps()[i]
			break
		}
	}
	if unimplemented == nil {
		t.Log("the library knows no operation the fake lacks")
	} else {
		resp, body = raw(t, srv, "GET", "/api/v1"+unimplemented.tmpl.raw, srv.Token(), nil)
		if resp.StatusCode != 501 || !strings.Contains(string(body), unimplemented.id) {
			t.Errorf("unimplemented %s: %d %s", unimplemented.id, resp.StatusCode, body)
		}
	}

	// Through the client: typed errors with the server's message.
	_, _, err := srv.Client().Repos.Get(context.Background(), "alice", "nope")
	var apiErr *forgejo.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || apiErr.Message != "The target couldn't be found." || apiErr.URL != sw {
		t.Errorf("client error %v", err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestWriteStatuses(t *testing.T) {
	srv := NewServer(t)
	ctx := context.Background()
	me := srv.DefaultUser()
	client := srv.Client()
	bobToken := srv.AddUser("bob")
	bob := srv.Client(forgejo.WithToken(bobToken))

	repo, resp, err := client.Repos.Create(ctx, forgejo.CreateRepoRequest{Name: "proj", AutoInit: true})
	if err != nil || resp.StatusCode != 201 || repo.FullName != me+"/proj" || repo.Empty || repo.DefaultBranch != "main" {
		t.Fatalf("create repo: %v %+v", err, repo)
	}
	_, _, err = client.Repos.Create(ctx, forgejo.CreateRepoRequest{Name: "proj"})
	var apiErr *forgejo.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 409 {
		t.Errorf("duplicate repo: %v", err)
	}

	issue, resp, err := client.Issues.Create(ctx, me, "proj", forgejo.CreateIssueRequest{Title: "first"})
	if err != nil || resp.StatusCode != 201 || issue.Number != 1 || issue.State != "open" {
		t.Fatalf("create issue: %v", err)
	}
	edited, resp, err := client.Issues.Edit(ctx, me, "proj", 1, forgejo.EditIssueRequest{State: forgejo.Ptr(forgejo.StateClosed)})
	if err != nil || resp.StatusCode != 201 || edited.State != "closed" || edited.ClosedAt.IsZero() {
		t.Fatalf("edit issue: %v %+v", err, edited)
	}

	for _, step := range []struct {
		name string
		do   func() (*forgejo.Response, error)
		want int
	}{
		{"replace topics", func() (*forgejo.Response, error) {
			return client.Repos.ReplaceTopics(ctx, me, "proj", []string{"Go", "api"})
		}, 204},
		{"add topic", func() (*forgejo.Response, error) { return client.Repos.AddTopic(ctx, me, "proj", "third") }, 204},
		{"remove topic", func() (*forgejo.Response, error) { return client.Repos.RemoveTopic(ctx, me, "proj", "go") }, 204},
		{"star", func() (*forgejo.Response, error) { return bob.Users.Star(ctx, me, "proj") }, 204},
		{"follow", func() (*forgejo.Response, error) { return bob.Users.Follow(ctx, me) }, 204},
	} {
		resp, err := step.do()
		if err != nil || resp.StatusCode != step.want {
			t.Errorf("%s: %v (status %v)", step.name, err, status(resp))
		}
	}
	topics, _, err := client.Repos.ListTopics(ctx, me, "proj", nil)
	if err != nil || strings.Join(topics, ",") != "api,third" {
		t.Errorf("topics %v %v", topics, err)
	}

	// bob comments: the owner gets a notification, marked read with 205.
	if _, resp, err := bob.Issues.CreateComment(ctx, me, "proj", 1, forgejo.CreateIssueCommentRequest{Body: "hello"}); err != nil || resp.StatusCode != 201 {
		t.Fatalf("comment: %v", err)
	}
	r, body := raw(t, srv, "GET", "/api/v1/notifications", srv.Token(), nil)
	threads := decodeJSON[[]forgejo.NotificationThread](t, body)
	if len(threads) != 1 || !threads[0].Unread || threads[0].Subject.Title != "first" || r.Header.Get("X-Total-Count") != "1" {
		t.Fatalf("notifications %s", body)
	}
	resp, err = client.Notifications.MarkThreadRead(ctx, threads[0].ID)
	if err != nil || resp.StatusCode != 205 {
		t.Errorf("mark read: %v %v", err, status(resp))
	}
	_, body = raw(t, srv, "GET", "/api/v1/notifications/new", srv.Token(), nil)
	if string(body) != `{"new":0}` {
		t.Errorf("new after read: %s", body)
	}
	r, body = raw(t, srv, "PUT", "/api/v1/notifications?all=true&to-status=unread", srv.Token(), nil)
	wantStatus(t, r, body, 205)
	if n := len(decodeJSON[[]json.RawMessage](t, body)); n != 1 {
		t.Errorf("mark all unread changed %d threads", n)
	}
	r, body = raw(t, srv, "GET", "/api/v1/notifications/threads/"+strconv.FormatInt(threads[0].ID, 10), bobToken, nil)
	wantStatus(t, r, body, 403)
}

func status(r *forgejo.Response) any {
	if r.StatusCode == 0 {
		return "no response"
	}
	return r.StatusCode
}

func TestPullRequestMerge(t *testing.T) {
	srv := NewServer(t)
	ctx := context.Background()
	me := srv.DefaultUser()
	srv.AddRepo(me, "proj")
	srv.AddBranch(me, "proj", "feature")
	client := srv.Client()

	pr, resp, err := client.PullRequests.Create(ctx, me, "proj", forgejo.CreatePullRequestRequest{Head: "feature", Base: "main", Title: "Add feature"})
	if err != nil || resp.StatusCode != 201 || pr.Number != 1 || pr.State != "open" || pr.Merged {
		t.Fatalf("create pull: %v %+v", err, pr)
	}
	if _, _, err := client.PullRequests.Create(ctx, me, "proj", forgejo.CreatePullRequestRequest{Head: "feature", Base: "main", Title: "again"}); !isStatus(err, 409) {
		t.Errorf("duplicate pull: %v", err)
	}
	// Issues and pulls share the counter.
	is, _, err := client.Issues.Create(ctx, me, "proj", forgejo.CreateIssueRequest{Title: "an issue"})
	if err != nil || is.Number != 2 {
		t.Fatalf("issue after pull: %v %v", err, is)
	}
	merged, _, _ := client.PullRequests.IsMerged(ctx, me, "proj", 1)
	if merged {
		t.Error("merged before merging")
	}
	resp, err = client.PullRequests.Merge(ctx, me, "proj", 1, forgejo.MergePullRequestRequest{Style: forgejo.MergeStyleMerge})
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("merge: %v", err)
	}
	if _, err := client.PullRequests.Merge(ctx, me, "proj", 1, forgejo.MergePullRequestRequest{Style: forgejo.MergeStyleMerge}); !isStatus(err, 405) {
		t.Errorf("second merge: %v", err)
	}
	got, _, err := client.PullRequests.Get(ctx, me, "proj", 1)
	if err != nil || got.State != "closed" || !got.Merged || got.MergedAt.IsZero() || got.MergedBy == nil || !got.IsMerged() {
		t.Fatalf("merged pull: %v %+v", err, got)
	}
	merged, _, err = client.PullRequests.IsMerged(ctx, me, "proj", 1)
	if err != nil || !merged {
		t.Errorf("is merged: %v %v", merged, err)
	}
	// Listings leave merged_by null, as Forgejo does.
	list, _, err := client.PullRequests.List(ctx, me, "proj", &forgejo.PullRequestListOptions{State: "closed"})
	if err != nil || len(list) != 1 || list[0].MergedBy != nil || !list[0].Merged {
		t.Errorf("listed merged pull: %v %+v", err, list)
	}
	// As an issue it carries the pull_request meta.
	asIssue, _, err := client.Issues.Get(ctx, me, "proj", 1)
	if err != nil || asIssue.PullRequest == nil || !asIssue.PullRequest.Merged || asIssue.State != "closed" {
		t.Errorf("pull as issue: %v %+v", err, asIssue)
	}
}

func isStatus(err error, code int) bool {
	var apiErr *forgejo.APIError
	return errors.As(err, &apiErr) && apiErr.StatusCode == code
}

func TestClientUsesFastRetry(t *testing.T) {
	srv := NewServer(t)
	if p := srv.Client().RetryPolicy(); p != FastRetry {
		t.Errorf("policy %v", p)
	}
	if p := srv.Client(forgejo.WithRetryPolicy(forgejo.RetryOff())).RetryPolicy(); p != forgejo.RetryOff() {
		t.Errorf("caller's policy did not win: %v", p)
	}
	anon := srv.AnonymousClient()
	if _, _, err := anon.Users.GetCurrent(context.Background()); !isStatus(err, 401) {
		t.Errorf("anonymous /user: %v", err)
	}
}

func TestStartAndClose(t *testing.T) {
	srv, err := Start(WithClock(NewFakeClock(time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC))))
	if err != nil {
		t.Fatal(err)
	}
	srv.AddRepo("alice", "demo")
	repo, _, err := srv.Client().Repos.Get(context.Background(), "alice", "demo")
	if err != nil || repo.CreatedAt.Format(time.RFC3339) != "2026-08-01T12:00:00Z" {
		t.Fatalf("repo %v %v", repo, err)
	}
	srv.Close()
	srv.Close() // idempotent
	if _, _, err := srv.Client(forgejo.WithRetryPolicy(forgejo.RetryOff())).Repos.Get(context.Background(), "alice", "demo"); err == nil {
		t.Error("closed server still answers")
	}
}

func TestWireShapes(t *testing.T) {
	srv := NewServer(t)
	srv.AddRepo("alice", "demo")
	srv.AddIssue("alice", "demo", IssueSpec{Title: "plain"})
	_, body := raw(t, srv, "GET", "/api/v1/repos/alice/demo/issues/1", "", nil)
	m := decodeJSON[map[string]any](t, body)
	for _, k := range []string{"milestone", "assignee", "assignees", "closed_at", "due_date", "pull_request"} {
		if v, ok := m[k]; !ok || v != nil {
			t.Errorf("%s = %v, want null", k, v)
		}
	}
	if m["id"].(float64) <= 0 {
		t.Errorf("id %v", m["id"])
	}
	for _, k := range []string{"created_at", "updated_at"} {
		if _, err := time.Parse(time.RFC3339, m[k].(string)); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
	// Field order follows the captured bodies.
	if !bytes.HasPrefix(body, []byte(`{"id":1,"url":"`)) {
		t.Errorf("issue body starts %s", body[:40])
	}
	_, body = raw(t, srv, "GET", "/api/v1/repos/alice/demo", "", nil)
	r := decodeJSON[map[string]any](t, body)
	if r["parent"] != nil || r["repo_transfer"] != nil || r["mirror_updated"] != "0001-01-01T00:00:00Z" {
		t.Errorf("repo shape %s", body)
	}
}

// TestRoutesMatchTheLibrary checks every route of the fake against the
// client's operations table: same operationId, method and path template.
func TestRoutesMatchTheLibrary(t *testing.T) {
	ops := map[string]forgejo.Operation{}
	for _, op := range forgejo.Operations() {
		ops[op.ID] = op
	}
	for _, r := range routeTable() {
		op, ok := ops[r.op]
		if !ok {
			t.Errorf("%s is not an operation of the library", r.op)
			continue
		}
		if op.Method != r.method || op.Path != r.path {
			t.Errorf("%s: fake %s %s, library %s %s", r.op, r.method, r.path, op.Method, op.Path)
		}
	}
	if n := len(ImplementedOperations()); n != len(routeTable()) {
		t.Errorf("%d operations for %d routes", n, len(routeTable()))
	}
}
