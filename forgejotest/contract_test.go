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
// server (the integration suite's: scripts/gitea.sh starts a Gitea, and any
// Forgejo will do) when the server's variables are set. Each run writes a
// transcript of what it observed, area by area; where both ran, each area's
// transcripts must be identical, and each area reports its own differences.
//
// The real server's kind comes from its /version: a Forgejo names the Gitea
// level it is compatible with ("15.0.3+gitea-1.22.0"), a Gitea does not
// ("1.27.3"). Where the fake answers as Forgejo and Gitea differs, the
// scenario branches on target.forgejo and says why; such observations stay out
// of the transcript. A real Forgejo takes the fake's side of every such
// branch: it is held to the fake's Forgejo answers. Against a Forgejo of a
// release the fake can answer as (Releases), the fake runs as that release
// (WithRelease), so that an operation newer than the server is missing from
// both.
//
// The scenario's steps live with their service, in contract_<service>_test.go
// (contract_repos_test.go, contract_issues_test.go, …); runScenario below
// runs them in an order that matters (each step may rely on what the ones
// before it made), each area in its own subtest: a failure stops its area,
// not the areas after it. A call the scenario needs to succeed that meets
// the router's miss (404 text/plain "404 page not found", or an empty 405:
// the server lacks the route) ends its area with the observation "route
// missing: …", not a failure: the transcripts then say which side lacks it.
//
// The variables, all needed (scripts/gitea.sh start writes them for its
// server; set them by hand for another, with two users' all-scope tokens,
// user1 a site administrator):
//
//	FORGEGO_IT_URL               the instance root, such as http://127.0.0.1:3000
//	FORGEGO_IT_ADMIN             user1's login (a site administrator)
//	FORGEGO_IT_ADMIN_TOKEN       user1's token, scope all
//	FORGEGO_IT_USER2             user2's login (not an administrator)
//	FORGEGO_IT_USER2_TOKEN       user2's token, scope all
//	FORGEGO_CONTRACT_REQUIRE=1   fail, not skip, when they are not set (.ci/run)
//
// To run it against Gitea:
//
//	. "$(scripts/gitea.sh start)" && go test -run Contract -v ./forgejotest/ ; scripts/gitea.sh stop
//
// Without the server's variables the server half skips, unless
// FORGEGO_CONTRACT_REQUIRE=1 (as .ci/run sets it), where it fails: a CI
// that forgets the server must not pass.

// target is a server the scenario runs against.
type target struct {
	name string // "fake", "gitea" or "forgejo"
	// forgejo is true where the scenario holds the target to the fake's
	// Forgejo answers: the fake itself, and a real Forgejo; false for Gitea.
	forgejo      bool
	version      string // what /version answers
	release      string // the release the fake answers as for a real Forgejo ("15.0.3"), "" for the pinned spec
	url          string // instance root
	user1, user2 string
	c1, c2, anon *forgejo.Client
	httpc        *http.Client
}

func fakeTarget(t *testing.T, opts ...Option) *target {
	// The same limits as scripts/gitea.sh sets (MAX_RESPONSE_ITEMS 20,
	// DEFAULT_PAGING_NUM 10), so that the clamp compares like with like;
	// Codeberg's own values are the fake's defaults (50 and 30). The same
	// logins, and user1 a site admin, as on the Gitea server.
	srv := NewServer(t, append([]Option{WithMaxResponseItems(20), WithDefaultPagingNum(10), WithDefaultUser("forgego-admin")}, opts...)...)
	srv.SetAdmin("forgego-admin", true)
	tok2 := srv.AddUser("forgego-user2")
	return &target{
		name: "fake", forgejo: true, url: srv.URL, user1: "forgego-admin", user2: "forgego-user2",
		c1: srv.Client(), c2: srv.Client(forgejo.WithToken(tok2)), anon: srv.AnonymousClient(),
		httpc: srv.HTTPClient(),
	}
}

// serverTarget is the real server the variables name, its kind read from
// /version; nil and the reason when they are not set.
func serverTarget(t *testing.T) (*target, string) {
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
	tg := &target{
		name: "gitea", url: strings.TrimRight(env["FORGEGO_IT_URL"], "/"),
		user1: env["FORGEGO_IT_ADMIN"], user2: env["FORGEGO_IT_USER2"],
		c1: mk(forgejo.WithToken(env["FORGEGO_IT_ADMIN_TOKEN"])), c2: mk(forgejo.WithToken(env["FORGEGO_IT_USER2_TOKEN"])),
		anon: mk(), httpc: http.DefaultClient,
	}
	v, _, err := tg.anon.Misc.GetVersion(context.Background())
	if err != nil {
		t.Fatalf("the server's version (%s): %v", tg.url, err)
	}
	tg.version = v.Version
	tg.name, tg.forgejo, tg.release = serverKind(v.Version)
	return tg, ""
}

// serverKind reads a real server's version: its name, whether the scenario
// holds it to the fake's Forgejo answers, and the release the fake answers
// as for it (WithRelease's argument). That is "" for a Gitea, and for a
// Forgejo whose release line the fake does not know or is the newest one
// (the fake then answers as the pinned spec, that line's build).
func serverKind(version string) (name string, forgejoLike bool, release string) {
	info, ok := forgejo.ParseVersion(version)
	if !ok || !info.Forgejo {
		return "gitea", false, ""
	}
	lines := Releases()
	line := fmt.Sprintf("%d.%d", info.Major, info.Minor)
	if slices.Contains(lines[:len(lines)-1], line) {
		release = fmt.Sprintf("%d.%d.%d", info.Major, info.Minor, info.Patch)
	}
	return "forgejo", true, release
}

func TestContract(t *testing.T) {
	server, reason := serverTarget(t)
	var fakeOpts []Option
	if server != nil && server.release != "" {
		fakeOpts = append(fakeOpts, WithRelease(server.release))
	}
	var fake, onServer *transcript
	t.Run("fake", func(t *testing.T) {
		fake = runScenario(t, fakeTarget(t, fakeOpts...))
	})
	name := "server"
	if server != nil {
		name = server.name
	}
	t.Run(name, func(t *testing.T) {
		if server == nil {
			if os.Getenv("FORGEGO_CONTRACT_REQUIRE") == "1" {
				t.Fatal(reason + " (FORGEGO_CONTRACT_REQUIRE=1: the contract suite must run against the server)")
			}
			t.Skip(reason)
		}
		t.Logf("%s %s; the fake answers as %s", server.name, server.version, map[bool]string{true: "release " + server.release, false: "the pinned spec"}[server.release != ""])
		onServer = runScenario(t, server)
	})
	if fake == nil || onServer == nil {
		return
	}
	agree, differ := 0, 0
	for _, area := range fake.areas {
		f, g := fake.lines[area], onServer.lines[area]
		same := true
		for i := range max(len(f), len(g)) {
			var a, b string
			if i < len(f) {
				a = f[i]
			}
			if i < len(g) {
				b = g[i]
			}
			if a != b {
				t.Errorf("%s: transcripts differ at line %d:\n fake:  %s\n %s: %s", area, i+1, a, server.name, b)
				same = false
				break
			}
		}
		if same {
			agree += len(f)
		} else {
			differ++
		}
		if ms := onServer.missing[area]; len(ms) > 0 {
			t.Logf("%s: route missing on %s: %s", area, server.name, strings.Join(ms, "; "))
		}
	}
	t.Logf("fake and %s agree on %d observations; %d of %d areas differ", server.name, agree, differ, len(fake.areas))
	if testing.Verbose() {
		var all []string
		for _, area := range fake.areas {
			all = append(all, fake.lines[area]...)
		}
		t.Logf("transcript:\n%s", strings.Join(all, "\n"))
	}
}

// transcript is what one run observed, area by area.
type transcript struct {
	areas   []string            // in the order they ran
	lines   map[string][]string // per area
	missing map[string][]string // per area: the calls that met a missing route
}

// routeMissing ends an area at a call that met the router's miss.
type routeMissing struct{ what string }

// isRouterMiss reports whether err is the router's answer to a route it
// does not have: 404 text/plain "404 page not found", or an empty 405.
func isRouterMiss(err error) bool {
	var e *forgejo.APIError
	if !errors.As(err, &e) {
		return false
	}
	return e.StatusCode == http.StatusNotFound && e.Message == "404 page not found" ||
		e.StatusCode == http.StatusMethodNotAllowed && e.Message == ""
}

// scenario carries one run.
type scenario struct {
	t     *testing.T
	tg    *target
	ctx   context.Context
	lines []string // the current area's
	tr    *transcript
	path  string // the current area, "gaps/attachments"
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
	if isRouterMiss(err) {
		var e *forgejo.APIError
		errors.As(err, &e)
		panic(routeMissing{what: fmt.Sprintf("%s (%s: %d)", what, e.Call.Operation, e.StatusCode)})
	}
	if err != nil {
		s.t.Fatalf("%s: %v", what, err)
	}
}

// missingRoute reports whether err is the router's miss (the server lacks
// the route), and records it as the observation "route missing: …" when
// it is: for a call the area can go on without, where must would end it.
func (s *scenario) missingRoute(err error, what string) bool {
	s.t.Helper()
	if !isRouterMiss(err) {
		return false
	}
	var e *forgejo.APIError
	errors.As(err, &e)
	m := fmt.Sprintf("%s (%s: %d)", what, e.Call.Operation, e.StatusCode)
	s.note("route missing: %s", m)
	s.tr.missing[s.path] = append(s.tr.missing[s.path], m)
	return true
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

func runScenario(t *testing.T, tg *target) *transcript {
	s := &scenario{t: t, tg: tg, ctx: context.Background(), owner: tg.user1,
		repo: fmt.Sprintf("contract-%d", time.Now().UnixNano()),
		tr:   &transcript{lines: map[string][]string{}, missing: map[string][]string{}}}
	area := s.area
	area("settings", s.settings)
	area("repository", s.repository)
	area("issues", s.issues)
	area("paging", s.paging)
	area("editing", s.editing)
	area("topics", s.topics)
	area("stars", s.stars)
	area("follows", s.follows)
	area("commentsAndNotifications", s.commentsAndNotifications)
	area("labelsAndMilestones", s.labelsAndMilestones)
	area("errorShapes", s.errorShapes)
	area("contents", s.contents)
	area("tags", s.tags)
	area("releases", s.releases)
	area("orgsAndTeams", s.orgsAndTeams)
	area("hooks", s.hooks)
	area("collaboratorsAndMore", s.collaboratorsAndMore)
	area("reviews", s.reviews)
	area("gaps", s.gaps)
	area("outcomes", s.outcomes)
	area("actions", s.actionsArea)
	area("repoMore", s.repoMoreArea)
	// Last: its blocking (fake only; Gitea has none) undoes user2's
	// collaborations, which the areas before rely on.
	area("accounts", s.accountsArea)
	area("cleanup", s.cleanup)
	return s.tr
}

// area runs step as a subtest of the current one, with a transcript of its
// own: a failure ends the area, not the run, and a call that meets a
// missing route ends it with the observation "route missing: …". An area
// may hold areas (gaps, outcomes, …): its steps are areas of their own.
func (s *scenario) area(name string, step func()) {
	full := name
	if s.path != "" {
		full = s.path + "/" + name
	}
	parentT, parentLines, parentPath := s.t, s.lines, s.path
	s.tr.areas = append(s.tr.areas, full)
	parentT.Run(name, func(t *testing.T) {
		s.t, s.lines, s.path = t, nil, full
		defer func() {
			r := recover()
			m, missing := r.(routeMissing)
			if missing {
				s.note("route missing: %s", m.what)
				s.tr.missing[full] = append(s.tr.missing[full], m.what)
				t.Logf("route missing on %s, the rest of the area not run: %s", s.tg.name, m.what)
			}
			s.tr.lines[full] = s.lines
			s.t, s.lines, s.path = parentT, parentLines, parentPath
			if r != nil && !missing {
				panic(r)
			}
		}()
		step()
	})
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
	if want := map[bool]string{true: "The target couldn't be found.", false: "not found"}[s.tg.forgejo]; e.Message != want {
		s.t.Errorf("missing repository message %q on %s", e.Message, s.tg.name)
	}
	_, _, err = s.tg.c1.Repos.Get(s.ctx, "no-such-owner-contract", "x")
	e = s.apiErr(err, "missing owner")
	s.note("missing owner: %d", e.StatusCode)
	// Differs on purpose: Codeberg answers GetUserByName with the detail in
	// errors; Gitea 1.27 "not found".
	if s.tg.forgejo && (e.Message != "GetUserByName" || len(e.Errors) != 1) {
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
	if want := map[bool]string{true: "access token does not exist [sha: ***]", false: "invalid username, password or token"}[s.tg.forgejo]; e.Message != want {
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
	s.area("branchProtections", s.branchProtections)
	s.area("attachments", s.attachments)
	s.area("userHooks", s.userHooks)
	s.area("publicMembers", s.publicMembers)
	s.area("teamSearch", s.teamSearch)
	s.area("commentReactions", s.commentReactions)
	s.area("reviewRequestsAndFiles", s.reviewRequestsAndFiles)
}

// outcomes is the contract for the outcomes a real program's scenario found
// the fake getting wrong: a team without units, deleting a label
// that is not there, forking into an organization, a 51 MiB release asset.
// It runs after gaps(): s.org exists and user2 is a write collaborator.
func (s *scenario) outcomes() {
	s.area("teamUnits", s.teamUnits)
	s.area("missingLabelDelete", s.missingLabelDelete)
	s.area("forkIntoOrg", s.forkIntoOrg)
	s.area("bigAsset", s.bigAsset)
	s.area("compare", s.compare)
	s.area("statuses", s.statuses)
	s.area("topicSearch", s.topicSearch)
	s.area("singleCommit", s.singleCommit)
}

// repoMoreArea is the contract for time tracking, subscriptions and
// watches, pins, assignees and reviewers, the timeline, the wiki, deploy
// keys, tag protections, git data, settings, templates and markup.
func (s *scenario) repoMoreArea() {
	s.area("timeTracking", s.timeTracking)
	s.area("subscriptionsAndWatches", s.subscriptionsAndWatches)
	s.area("pinsAndPeople", s.pinsAndPeople)
	s.area("timeline", s.timeline)
	s.area("wiki", s.wiki)
	s.area("deployKeys", s.deployKeys)
	s.area("tagProtections", s.tagProtections)
	s.area("gitData", s.gitData)
	s.area("instanceTemplates", s.instanceTemplates)
	s.area("markup", s.markup)
	s.area("repoExtras", s.repoExtras)
	s.area("pushMirrors", s.pushMirrors)
	s.area("notesAndTemplates", s.notesAndTemplates)
	s.area("transfers", s.transfers)
	s.area("archives", s.archives)
	s.area("editorConfig", s.editorConfig)
	s.area("avatarAndAutoMerge", s.avatarAndAutoMerge)
	s.area("commitDiffs", s.commitDiffs)
}

// accountsArea is this area's part of the contract scenario: what bots and
// automation do to accounts and what a site administrator does.
func (s *scenario) accountsArea() {
	s.area("adminAccounts", s.adminAccounts)
	s.area("accountKeys", s.accountKeys)
	s.area("accountEmails", s.accountEmails)
	s.area("accountSettingsAndApps", s.accountSettingsAndApps)
	s.area("adminSite", s.adminSite)
	s.area("accountAvatarsAndOrgs", s.accountAvatarsAndOrgs)
	s.area("packagesArea", s.packagesArea)
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
	if want := map[bool]forgejo.AttachmentType{true: forgejo.AttachmentTypeAttachment}[s.tg.forgejo]; a.Type != want {
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

// The real server's kind, and the release the fake answers as for it, come
// from its version string.
func TestContractServerKind(t *testing.T) {
	for v, want := range map[string]struct {
		name    string
		forgejo bool
		release string
	}{
		"1.27.3":                                 {"gitea", false, ""},
		"15.0.3+gitea-1.22.0":                    {"forgejo", true, "15.0.3"},
		"11.0.15+gitea-1.22.0":                   {"forgejo", true, "11.0.15"},
		"16.0.0-dev-539-4695780d41+gitea-1.22.0": {"forgejo", true, ""},
		"12.0.1+gitea-1.22.0":                    {"forgejo", true, ""},
		"garbage":                                {"gitea", false, ""},
	} {
		name, isForgejo, release := serverKind(v)
		if name != want.name || isForgejo != want.forgejo || release != want.release {
			t.Errorf("%q: %s %v %q, want %+v", v, name, isForgejo, release, want)
		}
		if release != "" {
			if _, _, err := parseRelease(release); err != nil {
				t.Errorf("%q: WithRelease(%q) refused: %v", v, release, err)
			}
		}
	}
}

// An area that meets a missing route ends there with the observation
// "route missing: …" and no failure; the areas after it run. The fake as
// Forgejo 15.0 lacks an operation the actions area needs (ListRunJobs).
func TestContractMissingRouteEndsOnlyItsArea(t *testing.T) {
	tr := runScenario(t, fakeTarget(t, WithRelease("15.0.3")))
	ms := tr.missing["actions"]
	if len(ms) != 1 || !strings.Contains(ms[0], "ListActionRunJobs") {
		t.Fatalf("actions area's missing routes: %q", ms)
	}
	if last := tr.lines["actions"][len(tr.lines["actions"])-1]; !strings.HasPrefix(last, "route missing: ") {
		t.Errorf("actions area's last line: %q", last)
	}
	for _, area := range []string{"repoMore/wiki", "accounts/accountKeys", "cleanup"} {
		if len(tr.lines[area]) == 0 {
			t.Errorf("area %s after the miss did not run", area)
		}
	}
}

// The whole scenario against the fake as Forgejo 11.0, the oldest release
// it answers as: every area passes, and the routes 11.0 lacks are recorded
// where the scenario meets them, ending an area (must) or not (missingRoute).
func TestContractOnRelease11(t *testing.T) {
	tr := runScenario(t, fakeTarget(t, WithRelease("11.0")))
	for area, want := range map[string]string{
		"actions":                        "getRepoRunners",
		"accounts/accountEmails":         "adminListUserEmails",
		"accounts/accountAvatarsAndOrgs": "adminCreateUserAccessToken",
		"repoMore/archives":              "GetBlobs",
	} {
		if ms := tr.missing[area]; len(ms) != 1 || !strings.Contains(ms[0], want) {
			t.Errorf("%s: missing %q, want %s", area, ms, want)
		}
	}
	if n := len(tr.lines["repoMore/archives"]); n < 2 {
		t.Errorf("archives stopped at the missing route: %d lines", n)
	}
}
