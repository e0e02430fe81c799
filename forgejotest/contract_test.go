package forgejotest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// The contract suite: ONE scenario, run against the fake and against a real
// Gitea (the server of the integration suite, scripts/gitea.sh) when
// FORGEGO_IT_URL and its companions are set. Each run writes a transcript of
// what it observed; when both ran, the transcripts must be identical. Where
// the fake differs on purpose (it follows Forgejo and Codeberg, which Gitea
// does not always), the scenario branches explicitly on target.fake and says
// why; such observations stay out of the transcript.
//
// To run it against Gitea:
//
//	. "$(scripts/gitea.sh start)" && go test -run Contract -v ./forgejotest/ ; scripts/gitea.sh stop

// target is a server the scenario runs against.
type target struct {
	name         string
	fake         bool
	url          string // instance root
	user1, user2 string
	c1, c2, anon *forgejo.Client
	httpc        *http.Client
}

func fakeTarget(t *testing.T) *target {
	// The same limits as scripts/gitea.sh sets (MAX_RESPONSE_ITEMS 20,
	// DEFAULT_PAGING_NUM 10), so that the clamp compares like with like;
	// Codeberg's own values are the fake's defaults (50 and 30). The same
	// logins, and user1 a site admin, as on the Gitea server.
	srv := NewServer(t, WithMaxResponseItems(20), WithDefaultPagingNum(10), WithDefaultUser("forgego-admin"))
	srv.SetAdmin("forgego-admin", true)
	tok2 := srv.AddUser("forgego-user2")
	return &target{
		name: "fake", fake: true, url: srv.URL, user1: "forgego-admin", user2: "forgego-user2",
		c1: srv.Client(), c2: srv.Client(forgejo.WithToken(tok2)), anon: srv.AnonymousClient(),
		httpc: srv.HTTPClient(),
	}
}

func giteaTarget(t *testing.T) (*target, string) {
	env := map[string]string{}
	for _, k := range []string{"FORGEGO_IT_URL", "FORGEGO_IT_ADMIN", "FORGEGO_IT_ADMIN_TOKEN", "FORGEGO_IT_USER2", "FORGEGO_IT_USER2_TOKEN"} {
		v := os.Getenv(k)
		if v == "" {
			return nil, k + " is not set: start a real server with `. \"$(scripts/gitea.sh start)\"` to run the contract suite against it"
		}
		env[k] = v
	}
	mk := func(opts ...forgejo.ClientOption) *forgejo.Client {
		c, err := forgejo.NewClient(append([]forgejo.ClientOption{forgejo.WithBaseURL(env["FORGEGO_IT_URL"]), forgejo.WithRetryPolicy(FastRetry)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	return &target{
		name: "gitea", url: strings.TrimRight(env["FORGEGO_IT_URL"], "/"),
		user1: env["FORGEGO_IT_ADMIN"], user2: env["FORGEGO_IT_USER2"],
		c1: mk(forgejo.WithToken(env["FORGEGO_IT_ADMIN_TOKEN"])), c2: mk(forgejo.WithToken(env["FORGEGO_IT_USER2_TOKEN"])),
		anon: mk(), httpc: http.DefaultClient,
	}, ""
}

func TestContract(t *testing.T) {
	transcripts := map[string][]string{}
	t.Run("fake", func(t *testing.T) {
		transcripts["fake"] = runScenario(t, fakeTarget(t))
	})
	t.Run("gitea", func(t *testing.T) {
		tg, reason := giteaTarget(t)
		if tg == nil {
			t.Skip(reason)
		}
		transcripts["gitea"] = runScenario(t, tg)
	})
	fake, gitea := transcripts["fake"], transcripts["gitea"]
	if fake == nil || gitea == nil || t.Failed() {
		return
	}
	for i := range max(len(fake), len(gitea)) {
		var f, g string
		if i < len(fake) {
			f = fake[i]
		}
		if i < len(gitea) {
			g = gitea[i]
		}
		if f != g {
			t.Errorf("transcripts differ at line %d:\n fake:  %s\n gitea: %s", i+1, f, g)
		}
	}
	t.Logf("fake and gitea agree on %d observations", len(fake))
	if testing.Verbose() {
		t.Logf("transcript:\n%s", strings.Join(fake, "\n"))
	}
}

// scenario carries one run.
type scenario struct {
	t     *testing.T
	tg    *target
	ctx   context.Context
	lines []string
	owner string
	repo  string
	org   string
}

// note records an observation both targets must share.
func (s *scenario) note(format string, args ...any) {
	s.lines = append(s.lines, fmt.Sprintf(format, args...))
}

func (s *scenario) must(err error, what string) {
	s.t.Helper()
	if err != nil {
		s.t.Fatalf("%s: %v", what, err)
	}
}

// apiErr returns the *APIError inside err, failing the test when there is
// none.
func (s *scenario) apiErr(err error, what string) *forgejo.APIError {
	s.t.Helper()
	var e *forgejo.APIError
	if !errors.As(err, &e) {
		s.t.Fatalf("%s: want an *APIError, got %v", what, err)
	}
	if !strings.HasSuffix(e.URL, "/api/swagger") && e.Message != "" && e.StatusCode != 422 {
		s.t.Errorf("%s: error url %q is not the swagger page", what, e.URL)
	}
	return e
}

// raw sends an arbitrary request with a token (or none) and returns the
// response with its body read.
func (s *scenario) raw(method, path, token string) (*http.Response, []byte) {
	s.t.Helper()
	req, err := http.NewRequestWithContext(s.ctx, method, s.tg.url+"/api/v1"+path, nil)
	s.must(err, "building a request")
	if token != "" {
		req.Header.Set("Authorization", "token "+token)
	}
	resp, err := s.tg.httpc.Do(req)
	s.must(err, method+" "+path)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	s.must(err, "reading "+path)
	return resp, body
}

func (s *scenario) count(path string, query url.Values, c *forgejo.Client) (int, *forgejo.Response) {
	s.t.Helper()
	var items []json.RawMessage
	resp, err := c.Do(s.ctx, &forgejo.Request{Method: "GET", Path: path, Query: query, Retry: forgejo.RetryIdempotentOnly}, &items)
	s.must(err, "GET "+path)
	return len(items), resp
}

func runScenario(t *testing.T, tg *target) []string {
	s := &scenario{t: t, tg: tg, ctx: context.Background(), owner: tg.user1,
		repo: fmt.Sprintf("contract-%d", time.Now().UnixNano())}
	s.settings()
	s.repository()
	s.issues()
	s.paging()
	s.editing()
	s.topics()
	s.stars()
	s.follows()
	s.commentsAndNotifications()
	s.labelsAndMilestones()
	s.errorShapes()
	s.contents()
	s.tags()
	s.releases()
	s.orgsAndTeams()
	s.hooks()
	s.collaboratorsAndMore()
	s.reviews()
	s.gaps()
	s.outcomes()
	s.actionsArea()
	s.repoMoreArea()
	// Last: its blocking (fake only; Gitea has none) undoes user2's
	// collaborations, which the areas before rely on.
	s.accountsArea()
	s.cleanup()
	return s.lines
}

func (s *scenario) settings() {
	set, _, err := s.tg.c1.Settings.GetAPI(s.ctx)
	s.must(err, "settings")
	s.note("settings: max_response_items %d, default_paging_num %d", set.MaxResponseItems, set.DefaultPagingNum)
	v, _, err := s.tg.c1.Misc.GetVersion(s.ctx)
	s.must(err, "version")
	// Differs on purpose: Forgejo (and so the fake) reports
	// "X.Y.Z+gitea-1.22.0", Gitea plain semver.
	if s.tg.fake != strings.Contains(v.Version, "+gitea-") {
		s.t.Errorf("version %q on %s", v.Version, s.tg.name)
	}
}

func (s *scenario) repository() {
	c := s.tg.c1
	repo, resp, err := c.Repos.Create(s.ctx, forgejo.CreateRepoRequest{Name: s.repo, AutoInit: true, Description: "contract suite"})
	s.must(err, "create repository")
	if repo.Owner == nil || repo.Owner.Login != s.owner || repo.Name != s.repo || repo.ID <= 0 {
		s.t.Fatalf("created %+v", repo)
	}
	s.note("create repository: %d, empty %v, private %v, default branch %q, permissions %+v, topics %v",
		resp.StatusCode, repo.Empty, repo.Private, repo.DefaultBranch, *repo.Permissions, repo.Topics)

	_, _, err = c.Repos.Create(s.ctx, forgejo.CreateRepoRequest{Name: s.repo})
	e := s.apiErr(err, "create it again")
	s.note("create it again: %d %q", e.StatusCode, e.Message)
	_, _, err = c.Repos.Create(s.ctx, forgejo.CreateRepoRequest{Name: "bad name!"})
	e = s.apiErr(err, "bad name")
	s.note("bad name: %d %q", e.StatusCode, e.Message)

	got, _, err := s.tg.anon.Repos.Get(s.ctx, s.owner, s.repo)
	s.must(err, "get repository anonymously")
	s.note("get anonymously: full name ok %v, permissions %+v", got.FullName == s.owner+"/"+s.repo, *got.Permissions)
}

func (s *scenario) issues() {
	for i := 1; i <= 25; i++ {
		is, resp, err := s.tg.c1.Issues.Create(s.ctx, s.owner, s.repo, forgejo.CreateIssueRequest{Title: fmt.Sprintf("Issue %d", i), Body: "body"})
		s.must(err, "create issue")
		if is.Number != int64(i) || resp.StatusCode != 201 || is.State != "open" || is.ID <= 0 {
			s.t.Fatalf("issue %d: %d %+v", i, resp.StatusCode, is)
		}
	}
	s.note("created issues 1..25 with 201")
}

func (s *scenario) paging() {
	c := s.tg.c1
	list := func(page, limit int) ([]*forgejo.Issue, *forgejo.Response) {
		s.t.Helper()
		is, resp, err := c.Issues.List(s.ctx, s.owner, s.repo, &forgejo.IssueListOptions{ListOptions: forgejo.ListOptions{Page: page, Limit: limit}})
		s.must(err, "list issues")
		return is, resp
	}
	// Ask 50 from a server that clamps to 20: Link echoes limit=50, the
	// last page is computed with 20.
	for _, page := range []int{1, 2, 5} {
		is, resp := list(page, 50)
		total, _ := resp.TotalCount()
		var first int64
		if len(is) > 0 {
			first = is[0].Number
		}
		s.note("issues page %d limit 50: %d items from #%d, total %d, next %d, prev %d, first %d, last %d, link echoes limit=50 %v",
			page, len(is), first, total, resp.NextPage, resp.PrevPage, resp.FirstPage, resp.LastPage,
			resp.Header.Get("Link") == "" || strings.Contains(resp.Header.Get("Link"), "limit=50"))
	}
	// No limit at all: default_paging_num.
	n, resp := s.count("/repos/"+s.owner+"/"+s.repo+"/issues", url.Values{"page": {"1"}}, c)
	s.note("issues without limit: %d items, next %d", n, resp.NextPage)
	// Walk with the iterator at two page sizes: every issue exactly once.
	for _, limit := range []int{50, 7} {
		seen := map[int64]int{}
		for is, err := range c.Issues.ListIter(s.ctx, s.owner, s.repo, &forgejo.IssueListOptions{ListOptions: forgejo.ListOptions{Limit: limit}}) {
			s.must(err, "walk")
			seen[is.Number]++
		}
		once := true
		for _, v := range seen {
			once = once && v == 1
		}
		s.note("walk with limit %d: %d distinct issues, each once %v", limit, len(seen), once)
	}
}

func (s *scenario) editing() {
	c := s.tg.c1
	is, _, err := c.Issues.Get(s.ctx, s.owner, s.repo, 1)
	s.must(err, "get issue")
	s.note("issue 1: %q state %s comments %d closed_at zero %v pull_request nil %v labels %d milestone nil %v",
		is.Title, is.State, is.Comments, is.ClosedAt.IsZero(), is.PullRequest == nil, len(is.Labels), is.Milestone == nil)
	ed, resp, err := c.Issues.Edit(s.ctx, s.owner, s.repo, 1, forgejo.EditIssueRequest{Title: forgejo.Ptr("Issue one"), State: forgejo.Ptr(forgejo.StateClosed)})
	s.must(err, "edit issue")
	s.note("edit issue 1: %d %q state %s closed_at set %v", resp.StatusCode, ed.Title, ed.State, !ed.ClosedAt.IsZero())
	closed, resp2, err := c.Issues.List(s.ctx, s.owner, s.repo, &forgejo.IssueListOptions{State: "closed"})
	s.must(err, "list closed")
	total, _ := resp2.TotalCount()
	s.note("closed issues: %d (total %d)", len(closed), total)
	ed, _, err = c.Issues.Edit(s.ctx, s.owner, s.repo, 1, forgejo.EditIssueRequest{State: forgejo.Ptr(forgejo.StateOpen)})
	s.must(err, "reopen")
	s.note("reopen: state %s closed_at zero %v", ed.State, ed.ClosedAt.IsZero())
	// Someone else may not edit the issue: a bare 403.
	_, _, err = s.tg.c2.Issues.Edit(s.ctx, s.owner, s.repo, 2, forgejo.EditIssueRequest{Title: forgejo.Ptr("hijack")})
	e := s.apiErr(err, "edit someone else's issue")
	s.note("user2 edits issue 2: %d %q", e.StatusCode, e.Message)
	// The poster may edit their own.
	mine, _, err := s.tg.c2.Issues.Create(s.ctx, s.owner, s.repo, forgejo.CreateIssueRequest{Title: "by user2"})
	s.must(err, "user2 files an issue")
	ed, resp, err = s.tg.c2.Issues.Edit(s.ctx, s.owner, s.repo, mine.Number, forgejo.EditIssueRequest{State: forgejo.Ptr(forgejo.StateClosed)})
	s.must(err, "user2 closes their issue")
	s.note("user2 closes own issue #%d: %d %s", mine.Number, resp.StatusCode, ed.State)
}

func (s *scenario) topics() {
	c := s.tg.c1
	topics := func() string {
		s.t.Helper()
		ts, resp, err := c.Repos.ListTopics(s.ctx, s.owner, s.repo, nil)
		s.must(err, "list topics")
		total, _ := resp.TotalCount()
		return fmt.Sprintf("%v (total %d)", ts, total)
	}
	resp, err := c.Repos.ReplaceTopics(s.ctx, s.owner, s.repo, []string{"Go", "api"})
	s.must(err, "replace topics")
	s.note("replace topics: %d -> %s", resp.StatusCode, topics())
	resp, err = c.Repos.AddTopic(s.ctx, s.owner, s.repo, "Third")
	s.must(err, "add topic")
	s.note("add topic: %d -> %s", resp.StatusCode, topics())
	resp, err = c.Repos.RemoveTopic(s.ctx, s.owner, s.repo, "go")
	s.must(err, "remove topic")
	s.note("remove topic: %d -> %s", resp.StatusCode, topics())
	page, resp2, err := c.Repos.ListTopics(s.ctx, s.owner, s.repo, &forgejo.ListOptions{Page: 2, Limit: 1})
	s.must(err, "topics page 2")
	s.note("topics page 2 of 1: %v, Link sent %v", page, resp2.Header.Get("Link") != "")

	_, err = c.Repos.AddTopic(s.ctx, s.owner, s.repo, "bad_topic!")
	e := s.apiErr(err, "invalid topic")
	s.note("invalid topic: %d %q", e.StatusCode, e.Message)
	_, err = c.Repos.ReplaceTopics(s.ctx, s.owner, s.repo, []string{"ok", "Bad Topic"})
	e = s.apiErr(err, "invalid topics")
	s.note("invalid topics: %d %q", e.StatusCode, e.Message)
	_, err = c.Repos.RemoveTopic(s.ctx, s.owner, s.repo, "missing")
	e = s.apiErr(err, "remove a missing topic")
	s.note("remove a missing topic: %d", e.StatusCode)
	_, err = s.tg.c2.Repos.ReplaceTopics(s.ctx, s.owner, s.repo, []string{"x"})
	e = s.apiErr(err, "topics by a non-owner")
	s.note("topics by user2: %d %q", e.StatusCode, e.Message)
	_, err = s.tg.anon.Repos.ReplaceTopics(s.ctx, s.owner, s.repo, []string{"x"})
	e = s.apiErr(err, "topics anonymously")
	s.note("topics anonymously: %d %q", e.StatusCode, e.Message)
}

func (s *scenario) stars() {
	c1, c2 := s.tg.c1, s.tg.c2
	for _, c := range []*forgejo.Client{c1, c2, c2} { // starring twice is fine
		resp, err := c.Users.Star(s.ctx, s.owner, s.repo)
		s.must(err, "star")
		s.note("star: %d", resp.StatusCode)
	}
	starred, _, err := c2.Users.IsStarred(s.ctx, s.owner, s.repo)
	s.must(err, "check star")
	repo, _, err := c1.Repos.Get(s.ctx, s.owner, s.repo)
	s.must(err, "get repository")
	users, resp, err := c1.Repos.ListStargazers(s.ctx, s.owner, s.repo, &forgejo.ListOptions{Page: 1, Limit: 1})
	s.must(err, "stargazers")
	total, _ := resp.TotalCount()
	s.note("after starring: user2 starred %v, stars_count %d, stargazers page 1 limit 1: %d (total %d, Link sent %v)",
		starred, repo.StarsCount, len(users), total, resp.Header.Get("Link") != "")

	// Differs on purpose: Codeberg ignores a lone limit on stargazers and
	// returns all of them; the fake does the same, Gitea 1.27 applies it.
	n, _ := s.count("/repos/"+s.owner+"/"+s.repo+"/stargazers", url.Values{"limit": {"1"}}, c1)
	if want := map[bool]int{true: 2, false: 1}[s.tg.fake]; n != want {
		s.t.Errorf("stargazers?limit=1 on %s: %d, want %d", s.tg.name, n, want)
	}

	for range 2 {
		resp, err := c2.Users.Unstar(s.ctx, s.owner, s.repo)
		s.must(err, "unstar")
		s.note("unstar: %d", resp.StatusCode)
	}
	starred, _, err = c2.Users.IsStarred(s.ctx, s.owner, s.repo)
	s.must(err, "check star")
	repo, _, err = c1.Repos.Get(s.ctx, s.owner, s.repo)
	s.must(err, "get repository")
	s.note("after unstarring: user2 starred %v, stars_count %d", starred, repo.StarsCount)
}

func (s *scenario) follows() {
	c1, c2 := s.tg.c1, s.tg.c2
	u1, u2 := s.tg.user1, s.tg.user2
	for range 2 {
		resp, err := c2.Users.Follow(s.ctx, u1)
		s.must(err, "follow")
		s.note("follow: %d", resp.StatusCode)
	}
	f21, _, err := c2.Users.IsFollowedByMe(s.ctx, u1)
	s.must(err, "check following")
	f12, _, err := c1.Users.IsFollowedByMe(s.ctx, u2)
	s.must(err, "check following")
	other, _, err := c1.Users.IsFollowing(s.ctx, u2, u1)
	s.must(err, "check another's following")
	followers, _, err := c1.Users.ListFollowers(s.ctx, u1, nil)
	s.must(err, "followers")
	s.note("user2 follows user1 %v, user1 follows user2 %v, seen by user1 %v, user1's followers include user2 %v",
		f21, f12, other, slices.ContainsFunc(followers, func(u *forgejo.User) bool { return u.Login == u2 }))
	_, _, err = s.tg.anon.Users.ListFollowers(s.ctx, u1, nil)
	e := s.apiErr(err, "followers anonymously")
	s.note("followers anonymously: %d %q", e.StatusCode, e.Message)
	_, err = c2.Users.Follow(s.ctx, "nobody-contract-xyz")
	e = s.apiErr(err, "follow a missing user")
	s.note("follow a missing user: %d %q", e.StatusCode, e.Message)
	resp, err := c2.Users.Unfollow(s.ctx, u1)
	s.must(err, "unfollow")
	f21, _, err = c2.Users.IsFollowedByMe(s.ctx, u1)
	s.must(err, "check following")
	s.note("unfollow: %d, still following %v", resp.StatusCode, f21)
}

func (s *scenario) commentsAndNotifications() {
	c1, c2 := s.tg.c1, s.tg.c2
	// Start from a clean slate on a server that may have older threads.
	_, err := c1.Do(s.ctx, &forgejo.Request{Method: "PUT", Path: "/notifications", Query: url.Values{"all": {"true"}}, Retry: forgejo.RetryAlways}, nil)
	s.must(err, "mark everything read")
	_, err = c2.Do(s.ctx, &forgejo.Request{Method: "PUT", Path: "/notifications", Query: url.Values{"all": {"true"}}, Retry: forgejo.RetryAlways}, nil)
	s.must(err, "mark everything read")

	cm, resp, err := c2.Issues.CreateComment(s.ctx, s.owner, s.repo, 2, forgejo.CreateIssueCommentRequest{Body: "hello"})
	s.must(err, "comment")
	s.note("user2 comments: %d, id > 0 %v, by user2 %v", resp.StatusCode, cm.ID > 0, cm.User != nil && cm.User.Login == s.tg.user2)
	_, _, err = c1.Issues.CreateComment(s.ctx, s.owner, s.repo, 2, forgejo.CreateIssueCommentRequest{Body: "reply"})
	s.must(err, "reply")
	// Comments ignore paging: both come back on a page of one, without Link.
	n, r := s.count("/repos/"+s.owner+"/"+s.repo+"/issues/2/comments", url.Values{"page": {"1"}, "limit": {"1"}}, c1)
	total, _ := r.TotalCount()
	s.note("comments with page=1&limit=1: %d items, total %d, Link sent %v", n, total, r.Header.Get("Link") != "")
	is, _, err := c1.Issues.Get(s.ctx, s.owner, s.repo, 2)
	s.must(err, "issue 2")
	s.note("issue 2 comments count: %d", is.Comments)

	for _, who := range []struct {
		name string
		c    *forgejo.Client
	}{{"user1", c1}, {"user2", c2}} {
		threads, _, err := who.c.Notifications.List(s.ctx, nil)
		s.must(err, "notifications")
		var mine []*forgejo.NotificationThread
		for _, th := range threads {
			if th.Repository != nil && th.Repository.Name == s.repo {
				mine = append(mine, th)
			}
		}
		if len(mine) != 1 {
			s.note("%s notifications for the repository: %d", who.name, len(mine))
			continue
		}
		th := mine[0]
		s.note("%s notification: %q type %s state %s unread %v", who.name, th.Subject.Title, th.Subject.Type, th.Subject.State, th.Unread)
		resp, err := who.c.Notifications.MarkThreadRead(s.ctx, th.ID)
		s.must(err, "mark read")
		cnt, _, err := who.c.Notifications.GetNewCount(s.ctx)
		s.must(err, "new notifications")
		s.note("%s marks it read: %d, new now %d", who.name, resp.StatusCode, cnt.New)
	}
}

func (s *scenario) labelsAndMilestones() {
	c := s.tg.c1
	l, resp, err := c.Issues.CreateLabel(s.ctx, s.owner, s.repo, forgejo.CreateLabelRequest{Name: "bug", Color: "#EE0701", Description: "broken"})
	s.must(err, "create label")
	s.note("create label: %d %q color %s", resp.StatusCode, l.Name, l.Color)
	_, _, err = c.Issues.CreateLabel(s.ctx, s.owner, s.repo, forgejo.CreateLabelRequest{Name: "bad", Color: "zz"})
	e := s.apiErr(err, "bad color")
	s.note("bad color: %d %q", e.StatusCode, e.Message)
	_, _, err = s.tg.c2.Issues.CreateLabel(s.ctx, s.owner, s.repo, forgejo.CreateLabelRequest{Name: "x", Color: "00ff00"})
	e = s.apiErr(err, "label by user2")
	s.note("label by user2: %d %q", e.StatusCode, e.Message)
	m, resp, err := c.Issues.CreateMilestone(s.ctx, s.owner, s.repo, forgejo.CreateMilestoneRequest{Title: "v1", Description: "first"})
	s.must(err, "create milestone")
	s.note("create milestone: %d %q state %s open %d closed_at nil %v", resp.StatusCode, m.Title, m.State, m.OpenIssues, m.ClosedAt.IsZero())
	is, _, err := c.Issues.Create(s.ctx, s.owner, s.repo, forgejo.CreateIssueRequest{Title: "labelled", Labels: []int64{l.ID}, Milestone: m.ID})
	s.must(err, "labelled issue")
	s.note("labelled issue: labels %d (%s) milestone %q", len(is.Labels), labelName(is.Labels), milestoneTitle(is.Milestone))
	labels, resp, err := c.Issues.ListLabels(s.ctx, s.owner, s.repo, nil)
	s.must(err, "list labels")
	total, _ := resp.TotalCount()
	s.note("labels: %d (total %d, Link sent %v)", len(labels), total, resp.Header.Get("Link") != "")
	filtered, _, err := c.Issues.List(s.ctx, s.owner, s.repo, &forgejo.IssueListOptions{Labels: []string{"bug"}})
	s.must(err, "filter by label")
	s.note("issues labelled bug: %d", len(filtered))
}

func labelName(ls []*forgejo.Label) string {
	var names []string
	for _, l := range ls {
		names = append(names, l.Name)
	}
	return strings.Join(names, ",")
}

func milestoneTitle(m *forgejo.Milestone) string {
	if m == nil {
		return ""
	}
	return m.Title
}

func (s *scenario) errorShapes() {
	_, _, err := s.tg.c1.Repos.Get(s.ctx, s.owner, "no-such-repo-contract")
	e := s.apiErr(err, "missing repository")
	s.note("missing repository: %d, has message %v", e.StatusCode, e.Message != "")
	// Differs on purpose: Forgejo (Codeberg) says "The target couldn't be
	// found." with errors [], Gitea 1.27 "not found".
	if want := map[bool]string{true: "The target couldn't be found.", false: "not found"}[s.tg.fake]; e.Message != want {
		s.t.Errorf("missing repository message %q on %s", e.Message, s.tg.name)
	}
	_, _, err = s.tg.c1.Repos.Get(s.ctx, "no-such-owner-contract", "x")
	e = s.apiErr(err, "missing owner")
	s.note("missing owner: %d", e.StatusCode)
	// Differs on purpose: Codeberg answers GetUserByName with the detail in
	// errors; Gitea 1.27 "not found".
	if s.tg.fake && (e.Message != "GetUserByName" || len(e.Errors) != 1) {
		s.t.Errorf("missing owner on the fake: %+v", e)
	}
	_, _, err = s.tg.anon.Users.GetCurrent(s.ctx)
	e = s.apiErr(err, "anonymous /user")
	s.note("anonymous /user: %d %q", e.StatusCode, e.Message)
	bad, err := forgejo.NewClient(forgejo.WithBaseURL(s.tg.url), forgejo.WithToken("not-a-real-token-contract"), forgejo.WithHTTPClient(s.tg.httpc))
	s.must(err, "client")
	_, _, err = bad.Misc.GetVersion(s.ctx)
	e = s.apiErr(err, "bad token")
	s.note("bad token, even on /version: %d %q", e.StatusCode, e.Message)
	var out json.RawMessage
	_, err = s.tg.c1.Do(s.ctx, &forgejo.Request{Method: "POST", Path: "/repos/" + s.owner + "/" + s.repo + "/issues", Body: map[string]string{"title": ""}}, &out)
	e = s.apiErr(err, "blank title")
	s.note("blank title: %d %q", e.StatusCode, e.Message)
	resp, body := s.raw("GET", "/definitely/not/a/route", "")
	s.note("unknown route: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), strings.TrimSpace(string(body)))
}

func (s *scenario) cleanup() {
	if s.org != "" {
		_, _ = s.tg.c1.Repos.Delete(s.ctx, s.org, "org-repo")
		resp, err := s.tg.c1.Orgs.Delete(s.ctx, s.org)
		s.must(err, "delete the organization")
		s.note("delete org: %d", resp.StatusCode)
	}
	resp, err := s.tg.c1.Repos.Delete(s.ctx, s.owner, s.repo)
	s.must(err, "delete repository")
	_, _, err = s.tg.c1.Repos.Get(s.ctx, s.owner, s.repo)
	e := s.apiErr(err, "deleted repository")
	s.note("delete repository: %d, then %d", resp.StatusCode, e.StatusCode)
}
