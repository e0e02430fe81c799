package forgejo

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// dcRoot holds the real Codeberg captures, copied unchanged from the
// project's shared fixtures (see testdata/codeberg/INDEX.md).
const dcRoot = "testdata/codeberg"

// dcFixture reads one capture.
func dcFixture(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dcRoot, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return data
}

// dcReply is what the test server answers.
type dcReply struct {
	status      int // 0: 200
	contentType string
	header      map[string]string
	body        []byte
}

// dcServe answers every request with reply, failing the test when the
// request is not GET wantPath (under /api/v1).
func dcServe(t *testing.T, wantPath string, reply dcReply) *Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.EscapedPath() != "/api/v1"+wantPath {
			t.Errorf("request %s %s, want GET /api/v1%s", r.Method, r.URL.EscapedPath(), wantPath)
		}
		ct := reply.contentType
		if ct == "" {
			ct = "application/json;charset=utf-8"
		}
		w.Header().Set("Content-Type", ct)
		for k, v := range reply.header {
			w.Header().Set(k, v)
		}
		status := reply.status
		if status == 0 {
			status = http.StatusOK
		}
		w.WriteHeader(status)
		w.Write(reply.body)
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(WithBaseURL(srv.URL), WithRetryPolicy(RetryOff()))
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

// dcTime parses an RFC 3339 time of a fixture.
func dcTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// dcFiles lists every file under testdata/codeberg, slash-separated and
// relative to it.
func dcFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dcRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dcRoot, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Every capture INDEX.md lists is present, and nothing else is.
func TestFixtureIndexComplete(t *testing.T) {
	f, err := os.Open(filepath.Join(dcRoot, "INDEX.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var listed []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "| `"); ok {
			if name, _, ok := strings.Cut(rest, "`"); ok {
				listed = append(listed, name)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	var bodies []string
	for _, p := range dcFiles(t) {
		if p != "INDEX.md" {
			bodies = append(bodies, p)
		}
	}
	slices.Sort(listed)
	slices.Sort(bodies)
	if len(bodies) != 51 || !slices.Equal(listed, bodies) {
		t.Errorf("INDEX.md lists %d bodies, testdata holds %d\nlisted %q\nheld   %q", len(listed), len(bodies), listed, bodies)
	}
}

// Every capture is valid JSON.
func TestFixtureJSONValid(t *testing.T) {
	n := 0
	for _, p := range dcFiles(t) {
		if !strings.HasSuffix(p, ".json") {
			continue
		}
		n++
		t.Run(p, func(t *testing.T) {
			var v any
			if err := json.Unmarshal(dcFixture(t, p), &v); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			switch v.(type) {
			case map[string]any, []any:
			default:
				t.Errorf("top level is %T, want an object or an array", v)
			}
		})
	}
	if n != 51 {
		t.Errorf("%d .json captures, want 51", n)
	}
}

// Every captured error body yields a message.
func TestFixtureErrorBodies(t *testing.T) {
	n := 0
	for _, p := range dcFiles(t) {
		if !strings.HasPrefix(p, "error/") {
			continue
		}
		n++
		t.Run(p, func(t *testing.T) {
			msg, u, _ := parseErrorBody(dcFixture(t, p), "application/json;charset=utf-8")
			if msg == "" {
				t.Error("empty Message")
			}
			if u != "https://codeberg.org/api/swagger" {
				t.Errorf("URL = %q", u)
			}
		})
	}
	if n != 4 {
		t.Errorf("%d error captures, want 4", n)
	}
}

func TestDecodeGetVersion(t *testing.T) {
	c := dcServe(t, "/version", dcReply{body: dcFixture(t, "version/version.json")})
	v, resp, err := c.Misc.GetVersion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if v.Version != "16.0.0-dev-668-1bdb1938+gitea-1.22.0" {
		t.Errorf("Version = %q", v.Version)
	}
	if _, ok := resp.TotalCount(); ok || resp.NextPage != 0 {
		t.Errorf("non-listing reports paging: %+v", resp)
	}
}

func TestDecodeRepoGet(t *testing.T) {
	tests := []struct {
		fixture, owner, repo      string
		fullName, ownerLogin      string
		id, ownerID               int64
		defaultBranch, createdAt  string
		ownerCreated, description string
		topics                    []string
		stars                     int64
	}{
		{
			fixture: "repository/repo-single.json", owner: "forgejo", repo: "forgejo",
			fullName: "forgejo/forgejo", ownerLogin: "forgejo", id: 73144, ownerID: 70422,
			defaultBranch: "forgejo", createdAt: "2022-11-06T07:24:57+01:00", ownerCreated: "2022-11-06T07:18:11+01:00",
			description: "Beyond coding. We forge.", topics: []string{"forge", "forgejo", "git", "self-hosted"}, stars: 5233,
		},
		{
			fixture: "repository/repo-single-community.json", owner: "codeberg", repo: "Community",
			fullName: "Codeberg/Community", ownerLogin: "Codeberg", id: 1, ownerID: 37566,
			defaultBranch: "main", createdAt: "2018-06-29T12:48:58+02:00", ownerCreated: "2022-01-09T23:34:52+01:00",
			topics: []string{"codeberg", "community"}, stars: 395,
		},
	}
	for _, tc := range tests {
		t.Run(tc.fixture, func(t *testing.T) {
			c := dcServe(t, "/repos/"+tc.owner+"/"+tc.repo, dcReply{body: dcFixture(t, tc.fixture)})
			r, resp, err := c.Repos.Get(context.Background(), tc.owner, tc.repo)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != 200 || resp.Attempts != 1 {
				t.Errorf("status %d, attempts %d", resp.StatusCode, resp.Attempts)
			}
			if r.FullName != tc.fullName || r.ID != tc.id || r.ID <= 0 || r.DefaultBranch != tc.defaultBranch {
				t.Errorf("FullName=%q ID=%d DefaultBranch=%q", r.FullName, r.ID, r.DefaultBranch)
			}
			if r.Owner == nil || r.Owner.Login != tc.ownerLogin || r.Owner.ID != tc.ownerID {
				t.Fatalf("Owner = %+v", r.Owner)
			}
			if tc.description != "" && r.Description != tc.description {
				t.Errorf("Description = %q", r.Description)
			}
			if !slices.Equal(r.Topics, tc.topics) || r.StarsCount != tc.stars {
				t.Errorf("Topics=%q StarsCount=%d", r.Topics, r.StarsCount)
			}
			if want := dcTime(t, tc.createdAt); r.CreatedAt.IsZero() || !r.CreatedAt.Equal(want) {
				t.Errorf("CreatedAt = %v, want %v", r.CreatedAt, want)
			}
			if r.UpdatedAt.IsZero() || !r.UpdatedAt.After(r.CreatedAt) {
				t.Errorf("UpdatedAt = %v", r.UpdatedAt)
			}
			if want := dcTime(t, tc.ownerCreated); !r.Owner.Created.Equal(want) {
				t.Errorf("Owner.Created = %v, want %v", r.Owner.Created, want)
			}
			// 0001-01-01T00:00:00Z is Forgejo's "never": it must be Go's zero time.
			if !r.MirrorUpdated.IsZero() || !r.Owner.LastLogin.IsZero() {
				t.Errorf("zero times not zero: MirrorUpdated=%v Owner.LastLogin=%v", r.MirrorUpdated, r.Owner.LastLogin)
			}
			// An unarchived repository's archived_at is the Unix epoch, not
			// the zero time: callers must test Archived, not ArchivedAt.
			if r.Archived || !r.ArchivedAt.Equal(time.Unix(0, 0)) {
				t.Errorf("Archived=%v ArchivedAt=%v", r.Archived, r.ArchivedAt)
			}
			if r.Parent != nil || r.RepoTransfer != nil {
				t.Errorf("null objects decoded non-nil: Parent=%v RepoTransfer=%v", r.Parent, r.RepoTransfer)
			}
			if r.Permissions == nil || !r.Permissions.Pull || r.Permissions.Push || r.Permissions.Admin {
				t.Errorf("Permissions = %+v, want pull only", r.Permissions)
			}
			if r.InternalTracker == nil || !r.InternalTracker.EnableIssueDependencies {
				t.Errorf("InternalTracker = %+v", r.InternalTracker)
			}
		})
	}
}

func TestDecodeListTopics(t *testing.T) {
	c := dcServe(t, "/repos/forgejo/forgejo/topics", dcReply{
		header: map[string]string{"X-Total-Count": "4"},
		body:   dcFixture(t, "repository/topics.json"),
	})
	topics, resp, err := c.Repos.ListTopics(context.Background(), "forgejo", "forgejo", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"forge", "forgejo", "git", "self-hosted"}; !slices.Equal(topics, want) {
		t.Errorf("topics = %q, want %q", topics, want)
	}
	if n, ok := resp.TotalCount(); n != 4 || !ok {
		t.Errorf("TotalCount() = %d, %v; want 4, true", n, ok)
	}
	if resp.NextPage != 0 || resp.hasLink {
		t.Errorf("NextPage=%d hasLink=%v without a Link header", resp.NextPage, resp.hasLink)
	}

	// Walked, it takes one request: 4 seen of 4.
	var walked []string
	for name, err := range c.Repos.ListTopicsIter(context.Background(), "forgejo", "forgejo", nil) {
		if err != nil {
			t.Fatal(err)
		}
		walked = append(walked, name)
	}
	if !slices.Equal(walked, topics) {
		t.Errorf("walked %q", walked)
	}
}

func TestDecodeListIssues(t *testing.T) {
	type dcIssueWant struct {
		number    int64
		labels    []string
		assignee  string // "" for null
		closedAt  string // "" for null
		isPull    bool
		userLogin string
	}
	tests := []struct {
		fixture, owner, repo, state string
		total                       string
		next, last                  int
		repoFullName                string
		issues                      []dcIssueWant
	}{
		{
			fixture: "issue/list-open.json", owner: "codeberg", repo: "Community", state: "open",
			total: "440", next: 2, last: 147, repoFullName: "Codeberg/Community",
			issues: []dcIssueWant{
				{number: 2969, userLogin: "gigahertz5288"},
				{number: 2966, userLogin: "personanon5"},
				{number: 2964, userLogin: "gallegonovato"},
			},
		},
		{
			fixture: "issue/list-closed.json", owner: "codeberg", repo: "Community", state: "closed",
			total: "2152", next: 2, last: 718, repoFullName: "Codeberg/Community",
			issues: []dcIssueWant{
				{number: 2968, labels: []string{"bug", "s/Forgejo", "upstream"}, closedAt: "2026-08-01T09:46:45+02:00", userLogin: "koru"},
				{number: 2967, closedAt: "2026-07-31T21:33:56+02:00", userLogin: "zhx02"},
				{number: 2965, closedAt: "2026-07-31T18:33:39+02:00", userLogin: "Bismyth"},
			},
		},
		{
			fixture: "issue/list-labelled.json", owner: "forgejo", repo: "forgejo", state: "open",
			total: "1590", next: 2, last: 530, repoFullName: "forgejo/forgejo",
			issues: []dcIssueWant{
				{number: 13731, labels: []string{"bug/confirmed", "code/packages", "test/present"}, isPull: true, userLogin: "trim21"},
				{number: 13729, labels: []string{"enhancement/feature", "forgejo/ui"}, userLogin: "andrewrk"},
				{number: 13728, labels: []string{"test/needed"}, assignee: "0xllx0", isPull: true, userLogin: "defnull"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.fixture, func(t *testing.T) {
			path := "/repos/" + tc.owner + "/" + tc.repo + "/issues"
			base := "https://codeberg.org/api/v1" + path + "?limit=3&state=" + tc.state
			c := dcServe(t, path, dcReply{
				header: map[string]string{
					"X-Total-Count": tc.total,
					"Link":          `<` + base + `&page=2>; rel="next",<` + base + `&page=` + itoaDC(tc.last) + `>; rel="last"`,
				},
				body: dcFixture(t, tc.fixture),
			})
			issues, resp, err := c.Issues.List(context.Background(), tc.owner, tc.repo,
				&IssueListOptions{State: StateType(tc.state), ListOptions: ListOptions{Page: 1, Limit: 3}})
			if err != nil {
				t.Fatal(err)
			}
			if resp.NextPage != tc.next || resp.LastPage != tc.last {
				t.Errorf("NextPage=%d LastPage=%d, want %d %d", resp.NextPage, resp.LastPage, tc.next, tc.last)
			}
			if n, ok := resp.TotalCount(); !ok || itoaDC(n) != tc.total {
				t.Errorf("TotalCount() = %d, %v; want %s", n, ok, tc.total)
			}
			if len(issues) != len(tc.issues) {
				t.Fatalf("%d issues, want %d", len(issues), len(tc.issues))
			}
			for i, want := range tc.issues {
				is := issues[i]
				if is == nil {
					t.Fatalf("issue %d is nil", i)
				}
				if is.Number != want.number || is.ID <= 0 || string(is.State) != tc.state || is.Title == "" {
					t.Errorf("issue %d: Number=%d ID=%d State=%q Title=%q", i, is.Number, is.ID, is.State, is.Title)
				}
				var names []string
				for _, l := range is.Labels {
					names = append(names, l.Name)
					if l.ID <= 0 || l.Color == "" {
						t.Errorf("#%d label %+v", is.Number, l)
					}
				}
				if !slices.Equal(names, want.labels) {
					t.Errorf("#%d labels = %q, want %q", is.Number, names, want.labels)
				}
				if want.assignee == "" {
					if is.Assignee != nil || is.Assignees != nil {
						t.Errorf("#%d null assignee decoded as %+v / %v", is.Number, is.Assignee, is.Assignees)
					}
				} else if is.Assignee == nil || is.Assignee.Login != want.assignee || len(is.Assignees) != 1 || is.Assignees[0].Login != want.assignee {
					t.Errorf("#%d assignee = %+v, assignees %v; want %s", is.Number, is.Assignee, is.Assignees, want.assignee)
				}
				if is.Milestone != nil {
					t.Errorf("#%d null milestone decoded as %+v", is.Number, is.Milestone)
				}
				if !is.DueDate.IsZero() {
					t.Errorf("#%d null due_date decoded as %v", is.Number, is.DueDate)
				}
				if want.closedAt == "" {
					if !is.ClosedAt.IsZero() {
						t.Errorf("#%d ClosedAt = %v, want zero", is.Number, is.ClosedAt)
					}
				} else if !is.ClosedAt.Equal(dcTime(t, want.closedAt)) {
					t.Errorf("#%d ClosedAt = %v, want %s", is.Number, is.ClosedAt, want.closedAt)
				}
				if want.isPull {
					if is.PullRequest == nil || is.PullRequest.Merged || !is.PullRequest.MergedAt.IsZero() ||
						!strings.HasSuffix(is.PullRequest.HTMLURL, "/pulls/"+itoaDC(int(is.Number))) {
						t.Errorf("#%d PullRequest = %+v", is.Number, is.PullRequest)
					}
				} else if is.PullRequest != nil {
					t.Errorf("#%d null pull_request decoded as %+v", is.Number, is.PullRequest)
				}
				if is.User == nil || is.User.Login != want.userLogin {
					t.Errorf("#%d User = %+v, want %s", is.Number, is.User, want.userLogin)
				}
				if is.Repository == nil || is.Repository.FullName != tc.repoFullName {
					t.Errorf("#%d Repository = %+v", is.Number, is.Repository)
				}
				if is.CreatedAt.IsZero() || is.UpdatedAt.Before(is.CreatedAt) {
					t.Errorf("#%d CreatedAt=%v UpdatedAt=%v", is.Number, is.CreatedAt, is.UpdatedAt)
				}
			}
		})
	}
}

func itoaDC(n int) string { return strconv.Itoa(n) }

func TestDecodeGetIssue(t *testing.T) {
	c := dcServe(t, "/repos/Codeberg/Community/issues/2966", dcReply{body: dcFixture(t, "issue/single.json")})
	is, _, err := c.Issues.Get(context.Background(), "Codeberg", "Community", 2966)
	if err != nil {
		t.Fatal(err)
	}
	if is.Number != 2966 || is.ID != 6557096 || is.State != "open" || is.Comments != 2 {
		t.Errorf("Number=%d ID=%d State=%q Comments=%d", is.Number, is.ID, is.State, is.Comments)
	}
	if is.Title != `Git HTTPS smart HTTP endpoint returns 403 "Bye" for all repositories` {
		t.Errorf("Title = %q", is.Title)
	}
	if is.HTMLURL != "https://codeberg.org/Codeberg/Community/issues/2966" || is.Body == "" {
		t.Errorf("HTMLURL=%q body %d bytes", is.HTMLURL, len(is.Body))
	}
	if is.User == nil || is.User.Login != "personanon5" {
		t.Errorf("User = %+v", is.User)
	}
	if !is.CreatedAt.Equal(dcTime(t, "2026-07-31T18:47:18+02:00")) || !is.UpdatedAt.Equal(dcTime(t, "2026-07-31T20:21:21+02:00")) {
		t.Errorf("CreatedAt=%v UpdatedAt=%v", is.CreatedAt, is.UpdatedAt)
	}
	if !is.ClosedAt.IsZero() || !is.DueDate.IsZero() || is.Milestone != nil || is.Assignee != nil || is.Assignees != nil || is.PullRequest != nil {
		t.Errorf("nulls not decoded as absent: %+v", is)
	}
	if is.Labels == nil || len(is.Labels) != 0 {
		t.Errorf("labels [] decoded as %v", is.Labels)
	}
	if is.Repository == nil || is.Repository.ID != 1 || is.Repository.Owner != "Codeberg" || is.Repository.Name != "Community" {
		t.Errorf("Repository = %+v", is.Repository)
	}
}

func TestDecodeUserGetCurrent(t *testing.T) {
	c := dcServe(t, "/user", dcReply{body: dcFixture(t, "user/user-single.json")})
	u, _, err := c.Users.GetCurrent(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if u.Login != "earl-warren" || u.ID != 73579 || u.FullName != "Earl Warren" || u.Visibility != "public" {
		t.Errorf("Login=%q ID=%d FullName=%q Visibility=%q", u.Login, u.ID, u.FullName, u.Visibility)
	}
	if u.FollowersCount != 47 || u.FollowingCount != 2 || u.StarredReposCount != 28 || u.IsAdmin {
		t.Errorf("counts %d/%d/%d IsAdmin=%v", u.FollowersCount, u.FollowingCount, u.StarredReposCount, u.IsAdmin)
	}
	if !u.Created.Equal(dcTime(t, "2022-11-26T18:56:24+01:00")) || !u.LastLogin.IsZero() {
		t.Errorf("Created=%v LastLogin=%v (want zero)", u.Created, u.LastLogin)
	}
}

func TestDecodeGeneralAPISettings(t *testing.T) {
	c := dcServe(t, "/settings/api", dcReply{body: dcFixture(t, "misc/settings-api.json")})
	s, _, err := c.Settings.GetAPI(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := GeneralAPISettings{MaxResponseItems: 50, DefaultPagingNum: 30, DefaultGitTreesPerPage: 1000, DefaultMaxBlobSize: 10485760}
	if *s != want {
		t.Errorf("settings = %+v, want %+v", *s, want)
	}
	if s.MaxResponseItems != CodebergMaxPageSize || s.DefaultPagingNum != DefaultPageSize {
		t.Errorf("Codeberg's limits no longer match CodebergMaxPageSize/DefaultPageSize: %+v", *s)
	}
}

// Captured error bodies become *APIError with every field as the file
// says, and the Response still carries the status.
func TestDecodeAPIErrorFixtures(t *testing.T) {
	tests := []struct {
		fixture string
		status  int
		path    string
		call    func(c *Client) (*Response, error)
		op      string
		message string
		errs    []string
	}{
		{
			fixture: "error/404-repo-not-found.json", status: 404, path: "/repos/forgejo/codeberg4s-no-such-repo", op: "repoGet",
			call: func(c *Client) (*Response, error) {
				r, resp, err := c.Repos.Get(context.Background(), "forgejo", "codeberg4s-no-such-repo")
				if r != nil {
					return resp, errors.New("a repository returned with the error")
				}
				return resp, err
			},
			message: "The target couldn't be found.",
		},
		{
			fixture: "error/404-user-not-found.json", status: 404, path: "/user", op: "userGetCurrent",
			call: func(c *Client) (*Response, error) {
				_, resp, err := c.Users.GetCurrent(context.Background())
				return resp, err
			},
			message: "user redirect does not exist [name: codeberg4s-no-such-user-xyz]",
		},
		{
			fixture: "error/401-org-teams.json", status: 401, path: "/user", op: "userGetCurrent",
			call: func(c *Client) (*Response, error) {
				_, resp, err := c.Users.GetCurrent(context.Background())
				return resp, err
			},
			message: "token is required",
		},
		{
			fixture: "error/422-invalid-sort.json", status: 422, path: "/repos/forgejo/forgejo/issues", op: "issueListIssues",
			call: func(c *Client) (*Response, error) {
				_, resp, err := c.Issues.List(context.Background(), "forgejo", "forgejo", &IssueListOptions{Sort: "bogus"})
				return resp, err
			},
			message: `Invalid sort mode: "bogus"`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.fixture, func(t *testing.T) {
			body := dcFixture(t, tc.fixture)
			// What the file says, read independently of the library.
			var file struct {
				Message string   `json:"message"`
				URL     string   `json:"url"`
				Errors  []string `json:"errors"`
			}
			if err := json.Unmarshal(body, &file); err != nil {
				t.Fatal(err)
			}
			if file.Message != tc.message {
				t.Fatalf("fixture message %q, table says %q", file.Message, tc.message)
			}
			c := dcServe(t, tc.path, dcReply{status: tc.status, body: body})
			resp, err := tc.call(c)
			var ae *APIError
			if !errors.As(err, &ae) {
				t.Fatalf("err = %v (%T), want *APIError", err, err)
			}
			if ae.StatusCode != tc.status || ae.Message != file.Message || ae.URL != file.URL || len(ae.Errors) != len(file.Errors) {
				t.Errorf("APIError{%d %q %q %q}, want {%d %q %q %q}", ae.StatusCode, ae.Message, ae.URL, ae.Errors,
					tc.status, file.Message, file.URL, file.Errors)
			}
			if ae.URL != "https://codeberg.org/api/swagger" {
				t.Errorf("URL = %q", ae.URL)
			}
			if ae.Call.Operation != tc.op || ae.Call.Method != "GET" || !strings.Contains(ae.Call.URL, "/api/v1"+tc.path) {
				t.Errorf("Call = %+v", ae.Call)
			}
			if resp == nil || resp.StatusCode != tc.status {
				t.Errorf("Response = %+v, want one carrying %d", resp, tc.status)
			}
			if s := ae.Error(); !strings.Contains(s, itoaDC(tc.status)) || !strings.Contains(s, file.Message) {
				t.Errorf("Error() = %q lacks the status or message", s)
			}
		})
	}
}

// Whatever the error body, the status survives: odd bodies give empty
// fields, never a decode failure.
func TestDecodeAPIErrorOddBodies(t *testing.T) {
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
		message     string
		url         string
		errs        []string
	}{
		{name: "router 404 in text/plain", status: 404, contentType: "text/plain; charset=utf-8", body: "404 page not found\n", message: "404 page not found"},
		{name: "text/plain without charset", status: 502, contentType: "text/plain", body: "  Bad Gateway  ", message: "Bad Gateway"},
		{name: "blank body", status: 500, body: ""},
		{name: "whitespace body", status: 503, body: " \n\t "},
		{name: "truncated JSON", status: 404, body: `{"message":"The target couldn't be fou`},
		{name: "JSON array", status: 400, body: `["bad","request"]`},
		{name: "JSON string", status: 400, body: `"bad request"`},
		{name: "HTML page", status: 502, contentType: "text/html", body: "<html><body>502 Bad Gateway</body></html>"},
		{name: "fields of the wrong kind", status: 422, body: `{"message":42,"url":["x"],"errors":"nope"}`},
		{name: "null fields", status: 422, body: `{"message":null,"url":null,"errors":null}`},
		{
			name: "errors array with odd elements", status: 422,
			body:    `{"message":"GetUserByName","url":"https://codeberg.org/api/swagger","errors":["user does not exist",3,null,"   ","  second  ",{"a":1}]}`,
			message: "GetUserByName", url: "https://codeberg.org/api/swagger", errs: []string{"user does not exist", "second"},
		},
		{name: "message is trimmed", status: 409, body: `{"message":"  sha mismatch \n"}`, message: "sha mismatch"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := dcServe(t, "/repos/o/r", dcReply{status: tc.status, contentType: tc.contentType, body: []byte(tc.body)})
			r, resp, err := c.Repos.Get(context.Background(), "o", "r")
			var ae *APIError
			if !errors.As(err, &ae) {
				t.Fatalf("err = %v (%T), want *APIError", err, err)
			}
			var de *DecodeError
			if errors.As(err, &de) || r != nil {
				t.Errorf("error body surfaced as a decode failure or a value: %v %v", err, r)
			}
			if ae.StatusCode != tc.status || ae.Message != tc.message || ae.URL != tc.url || !slices.Equal(ae.Errors, tc.errs) {
				t.Errorf("APIError{%d %q %q %q}, want {%d %q %q %q}", ae.StatusCode, ae.Message, ae.URL, ae.Errors,
					tc.status, tc.message, tc.url, tc.errs)
			}
			if resp == nil || resp.StatusCode != tc.status {
				t.Errorf("Response = %+v", resp)
			}
			if s := ae.Error(); !strings.Contains(s, itoaDC(tc.status)) {
				t.Errorf("Error() = %q lacks the status", s)
			}
		})
	}
}

// A 2xx body that does not fit the model is a *DecodeError naming where,
// with a bounded snippet of the body.
func TestDecodeErrorOnSuccess(t *testing.T) {
	big := `{"id":"not-a-number","description":"` + strings.Repeat("x", 100<<10) + `"}`
	bigUTF8 := `{"id":"not-a-number","description":"` + strings.Repeat("é", 50<<10) + `"}`
	tests := []struct {
		name     string
		body     string
		wantPath string
		altPath  string // also accepted: a better path the library may report one day
		wantErr  any    // a pointer to the JSON error type Unwrap must give
	}{
		{name: "string for an integer", body: `{"id":"not-a-number","full_name":"o/r"}`, wantPath: "$.id", wantErr: new(*json.UnmarshalTypeError)},
		{name: "nested field", body: `{"id":1,"owner":{"id":"x","login":"o"}}`, wantPath: "$.owner.id", wantErr: new(*json.UnmarshalTypeError)},
		{name: "array for a string", body: `{"full_name":["o","r"]}`, wantPath: "$.full_name", wantErr: new(*json.UnmarshalTypeError)},
		{name: "bad time", body: `{"created_at":"yesterday"}`, wantPath: "$", altPath: "$.created_at", wantErr: new(*time.ParseError)},
		{name: "100 kB body", body: big, wantPath: "$.id", wantErr: new(*json.UnmarshalTypeError)},
		{name: "100 kB multi-byte body", body: bigUTF8, wantPath: "$.id", wantErr: new(*json.UnmarshalTypeError)},
		{name: "invalid JSON", body: `{"id": 1,,}`, wantPath: "$", wantErr: new(*json.SyntaxError)},
		{name: "HTML from a proxy", body: "<html>login required</html>", wantPath: "$", wantErr: new(*json.SyntaxError)},
		{name: "truncated JSON", body: `{"id": 1, "full_name": "o/`, wantPath: "$", wantErr: nil},
		{name: "empty body", body: "", wantPath: "$", wantErr: nil},
		{name: "array for an object", body: `[{"id":1}]`, wantPath: "$", wantErr: new(*json.UnmarshalTypeError)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := dcServe(t, "/repos/o/r", dcReply{body: []byte(tc.body)})
			r, resp, err := c.Repos.Get(context.Background(), "o", "r")
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v (%T), want *DecodeError", err, err)
			}
			if r != nil {
				t.Errorf("a partly decoded value was returned: %+v", r)
			}
			if de.Path != tc.wantPath && (tc.altPath == "" || de.Path != tc.altPath) {
				t.Errorf("Path = %q, want %q", de.Path, tc.wantPath)
			}
			if tc.wantErr != nil && !errors.As(err, tc.wantErr) {
				t.Errorf("cause %T (%v) does not unwrap to %T", de.Err, de.Err, tc.wantErr)
			}
			if de.Err == nil {
				t.Error("no cause")
			}
			// The snippet is the start of the body, bounded (the strict
			// bound is TestDecodeSnippetAtMostMaxFragment).
			snip := strings.TrimSuffix(de.Snippet, "...")
			if !strings.HasPrefix(tc.body, snip) || !utf8.ValidString(de.Snippet) {
				t.Errorf("Snippet %q is not a valid prefix of the body", de.Snippet)
			}
			if n := utf8.RuneCountInString(de.Snippet); n > MaxFragment+len("...") || (len(tc.body) > 0 && n == 0) {
				t.Errorf("Snippet is %d characters", n)
			}
			if de.Call.Operation != "repoGet" || resp == nil || resp.StatusCode != 200 {
				t.Errorf("Call=%+v resp=%v", de.Call, resp)
			}
			if s := de.Error(); !strings.Contains(s, tc.wantPath) || utf8.RuneCountInString(s) > 4*MaxFragment {
				t.Errorf("Error() is %d characters or lacks the path: %.200q", utf8.RuneCountInString(s), s)
			}
		})
	}
}

// DecodeError.Snippet is documented as "at most MaxFragment characters".
func TestDecodeSnippetAtMostMaxFragment(t *testing.T) {
	body := `{"id":"not-a-number","description":"` + strings.Repeat("x", 100<<10) + `"}`
	c := dcServe(t, "/repos/o/r", dcReply{body: []byte(body)})
	_, _, err := c.Repos.Get(context.Background(), "o", "r")
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("err = %v, want *DecodeError", err)
	}
	if n := utf8.RuneCountInString(de.Snippet); n > MaxFragment {
		t.Errorf("Snippet is %d characters, want at most %d", n, MaxFragment)
	}
}

func TestDecodeListEnvelopeOnlyWhereMarked(t *testing.T) {
	cases := []struct {
		name    string
		body    string
		want    int
		wrapped bool // the operation is one the table marks as wrapped
		decode  bool // a decode error is expected
	}{
		{"bare array", `[{"id":1},{"id":2}]`, 2, true, false},
		{"Gitea's envelope", `{"runners":[{"id":1},{"id":2},{"id":3}],"total_count":3}`, 3, true, false},
		{"envelope without total", `{"jobs":[{"id":9}]}`, 1, true, false},
		{"empty envelope", `{"artifacts":[],"total_count":0}`, 0, true, false},
		{"two lists: no guessing", `{"a":[{"id":1}],"b":[{"id":2}]}`, 0, true, true},
		{"no list at all", `{"total_count":3}`, 0, true, true},
		{"an error object is not an empty list", `{"message":"maintenance","errors":[]}`, 0, true, true},
		{"a list beside another member", `{"runners":[],"note":"x"}`, 0, true, true},
		{"an object where an item was expected stays an error", `[1,2]`, 0, true, true},
		{"unmarked listing: envelope refused", `{"runners":[{"id":1}],"total_count":1}`, 0, false, true},
		{"unmarked listing: one-array error object refused", `{"message":"maintenance","errors":[]}`, 0, false, true},
		{"null list is empty", `null`, 0, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out []*User
			err := decodeJSON([]byte(tc.body), &out, tc.wrapped)
			if got := err != nil; got != tc.decode {
				t.Fatalf("err = %v, want error %v", err, tc.decode)
			}
			if !tc.decode && len(out) != tc.want {
				t.Fatalf("items = %d, want %d", len(out), tc.want)
			}
		})
	}
}

// A listing the table does not mark is never unwrapped: an object with one
// array member would otherwise end a walk short with a nil error.
func TestDecodeObjectWhereListExpectedIsDecodeError(t *testing.T) {
	for _, body := range []string{`{"message":"maintenance","errors":[]}`, `{"data":[{"id":1}]}`} {
		srv := tsNewServer(t, tsStep{status: 200, body: body, header: map[string]string{"Link": `<http://x/?page=2>; rel="next"`}})
		c, _ := tsClient(t, srv.URL, WithRetryPolicy(RetryOff()))
		var n int
		var err error
		for _, e := range c.Repos.ListForksIter(context.Background(), "o", "r", nil) {
			if e != nil {
				err = e
				break
			}
			n++
		}
		var de *DecodeError
		if !errors.As(err, &de) || n != 0 {
			t.Errorf("body %s: %d items, err %v; want no item and a *DecodeError", body, n, err)
		}
	}
}

// A 200 null where an object was expected is not a zero-valued model.
func TestDecodeNullObjectIsDecodeError(t *testing.T) {
	for _, body := range []string{`null`, ` null `, "null\n"} {
		srv := tsNewServer(t, tsStep{status: 200, body: body})
		c, _ := tsClient(t, srv.URL, WithRetryPolicy(RetryOff()))
		repo, _, err := c.Repos.Get(context.Background(), "o", "r")
		var de *DecodeError
		if !errors.As(err, &de) || repo != nil {
			t.Errorf("body %q: repo %v, err %v; want nil and a *DecodeError", body, repo, err)
		}
		var v Repository
		_, err = c.Do(context.Background(), &Request{Method: "GET", Path: "/x", Retry: RetryIdempotentOnly}, &v)
		if !errors.As(err, &de) {
			t.Errorf("Do with body %q: err %v, want a *DecodeError", body, err)
		}
	}
}

// The listings the table marks WrappedList decode Gitea's envelope end to
// end; they are the only ones (docs/HAZARDS.md §11).
func TestDecodeWrappedListingsFromTheTable(t *testing.T) {
	var wrapped []string
	for _, op := range operations {
		if op.wrapped {
			wrapped = append(wrapped, op.ID)
		}
	}
	want := []string{"ListActionArtifacts", "ListActionRunArtifacts", "ListActionRunJobs", "getAdminRunners", "getOrgRunners", "getRepoRunners", "getUserRunners"}
	if !slices.Equal(wrapped, want) {
		t.Fatalf("wrapped listings = %v, want %v", wrapped, want)
	}
	srv := tsNewServer(t, tsStep{status: 200, body: `{"runners":[{"id":1},{"id":2}],"total_count":2}`})
	c, _ := tsClient(t, srv.URL, WithRetryPolicy(RetryOff()))
	runners, _, err := c.Actions.ListRepoRunners(context.Background(), "o", "r", nil)
	if err != nil || len(runners) != 2 {
		t.Fatalf("ListRepoRunners: %d runners, err %v; want 2 from Gitea's envelope", len(runners), err)
	}
}
