package forgejotest

import (
	"context"
	"encoding/base64"
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
// The scenario's steps live with their service, in contract_<service>_test.go
// (contract_repos_test.go, contract_issues_test.go, …); runScenario below
// runs them in an order that matters (each step may rely on what the ones
// before it made), through the area functions after it.
//
// To run it against Gitea:
//
//	. "$(scripts/gitea.sh start)" && go test -run Contract -v ./forgejotest/ ; scripts/gitea.sh stop
//
// Without the server's variables the gitea half skips, unless
// FORGEGO_CONTRACT_REQUIRE=1 (as .ci/run sets it), where it fails: a CI
// that forgets the server must not pass.

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
			if os.Getenv("FORGEGO_CONTRACT_REQUIRE") == "1" {
				t.Fatal(reason + " (FORGEGO_CONTRACT_REQUIRE=1: the contract suite must run against the server)")
			}
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
	s.note("bad token, even on /version: %d", e.StatusCode)
	// Differs on purpose: Forgejo 15 names the token it could not find
	// (the client scrubs it), Gitea 1.27 sends a generic refusal.
	if want := map[bool]string{true: "access token does not exist [sha: ***]", false: "invalid username, password or token"}[s.tg.fake]; e.Message != want {
		s.t.Errorf("bad token on %s: %q, want %q", s.tg.name, e.Message, want)
	}
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

// gaps is the contract for branch protections, attachments, user hooks,
// public members, team search, review requests, comment reactions and pull
// request files. It runs after reviews(): user2 is a collaborator with
// write access and s.org exists.
func (s *scenario) gaps() {
	s.branchProtections()
	s.attachments()
	s.userHooks()
	s.publicMembers()
	s.teamSearch()
	s.commentReactions()
	s.reviewRequestsAndFiles()
}

// outcomes is the contract for the outcomes a real program's scenario found
// the fake getting wrong (issue 23): a team without units, deleting a label
// that is not there, forking into an organization, a 51 MiB release asset.
// It runs after gaps(): s.org exists and user2 is a write collaborator.
func (s *scenario) outcomes() {
	s.teamUnits()
	s.missingLabelDelete()
	s.forkIntoOrg()
	s.bigAsset()
	s.compare()
	s.statuses()
	s.topicSearch()
	s.singleCommit()
}

// repoMoreArea is the contract for time tracking, subscriptions and
// watches, pins, assignees and reviewers, the timeline, the wiki, deploy
// keys, tag protections, git data, settings, templates and markup.
func (s *scenario) repoMoreArea() {
	s.timeTracking()
	s.subscriptionsAndWatches()
	s.pinsAndPeople()
	s.timeline()
	s.wiki()
	s.deployKeys()
	s.tagProtections()
	s.gitData()
	s.instanceTemplates()
	s.markup()
	s.repoExtras()
	s.pushMirrors()
	s.notesAndTemplates()
	s.transfers()
	s.archives()
	s.editorConfig()
	s.avatarAndAutoMerge()
	s.commitDiffs()
}

// accountsArea is this area's part of the contract scenario: what bots and
// automation do to accounts and what a site administrator does.
func (s *scenario) accountsArea() {
	s.adminAccounts()
	s.accountKeys()
	s.accountEmails()
	s.accountSettingsAndApps()
	s.adminSite()
	s.accountAvatarsAndOrgs()
	s.packagesArea()
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func linkSent(r *forgejo.Response) bool { return r.Header.Get("Link") != "" }

// sorted: Gitea lists a hook's events in map order.
func sorted(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}

// uniq is a name no earlier run used, for things that outlive a failed run.
func uniq(prefix string) string { return fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano()%1e10) }

// send sends body as JSON with c and returns the error.
func (s *scenario) send(c *forgejo.Client, method, path string, body any) *forgejo.APIError {
	s.t.Helper()
	var out json.RawMessage
	_, err := c.Do(s.ctx, &forgejo.Request{Method: method, Path: path, Body: body}, &out)
	return s.apiErr(err, method+" "+path)
}

// clientFor builds a client for the target with extra options.
func (s *scenario) clientFor(opts ...forgejo.ClientOption) *forgejo.Client {
	s.t.Helper()
	c, err := forgejo.NewClient(append([]forgejo.ClientOption{forgejo.WithBaseURL(s.tg.url), forgejo.WithHTTPClient(s.tg.httpc),
		forgejo.WithRetryPolicy(FastRetry)}, opts...)...)
	s.must(err, "client")
	return c
}

func upload(name, content string) forgejo.Upload {
	return forgejo.Upload{Name: name, Content: strings.NewReader(content), ContentType: "text/plain"}
}

func (s *scenario) attNote(a *forgejo.Attachment) string {
	s.t.Helper()
	// Differs on purpose: Forgejo sends an attachment's type ("attachment"
	// or "external", see forgejo-15-observations.md); Gitea 1.27 has no
	// such field.
	if want := map[bool]forgejo.AttachmentType{true: forgejo.AttachmentTypeAttachment}[s.tg.fake]; a.Type != want {
		s.t.Errorf("attachment type on %s: %q, want %q", s.tg.name, a.Type, want)
	}
	return fmt.Sprintf("name %s size %d uuid %v url has uuid %v", a.Name, a.Size, a.Uuid != "",
		a.Uuid != "" && strings.Contains(a.BrowserDownloadURL, a.Uuid))
}

// status is an error's HTTP status, 0 for none.
func (s *scenario) status(err error) int {
	s.t.Helper()
	if err == nil {
		return 0
	}
	return s.apiErr(err, "a call").StatusCode
}

// userLogins names users by role, so that both targets print the same.
func userLogins(us []*forgejo.User, tg *target) []string {
	var out []string
	for _, u := range us {
		switch u.Login {
		case tg.user1:
			out = append(out, "user1")
		case tg.user2:
			out = append(out, "user2")
		default:
			out = append(out, "other")
		}
	}
	return out
}

func (s *scenario) newIssue(title string) int64 {
	s.t.Helper()
	is, _, err := s.tg.c1.Issues.Create(s.ctx, s.owner, s.repo, forgejo.CreateIssueRequest{Title: title})
	s.must(err, "create "+title)
	return is.Number
}
