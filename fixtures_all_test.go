package forgejo

import (
	"bufio"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// This file decodes every body captured from codeberg.org
// (testdata/codeberg, see its INDEX.md) through the operation that produced
// it, the error bodies included: the generated models must accept what a
// real instance sends, not only what the spec says.

// gnFixtureCall calls an operation for a fixture and returns its result.
type gnFixtureCall func(ctx context.Context, c *Client) (any, error)

func gnDrop[T any](v T, _ *Response, err error) (any, error) { return v, err }

// gnFixtureCalls maps every fixture to the call that fetched it (the
// arguments of INDEX.md's request).
var gnFixtureCalls = map[string]gnFixtureCall{
	"version/version.json": func(ctx context.Context, c *Client) (any, error) { return gnDrop(c.Misc.GetVersion(ctx)) },
	"user/user-single.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Users.Get(ctx, "earl-warren"))
	},
	"user/user-single-org-shaped.json": func(ctx context.Context, c *Client) (any, error) { return gnDrop(c.Users.Get(ctx, "forgejo")) },
	"user/user-repos-list.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.ListByUser(ctx, "earl-warren", &ListOptions{Page: 1, Limit: 3}))
	},
	"user/user-search.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Users.Search(ctx, &UserSearchOptions{Query: "earl", ListOptions: ListOptions{Page: 1, Limit: 3}}))
	},
	"repository/repo-single.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.Get(ctx, "forgejo", "forgejo"))
	},
	"repository/repo-single-community.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.Get(ctx, "codeberg", "Community"))
	},
	"repository/branches-list.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.ListBranches(ctx, "forgejo", "forgejo", &ListOptions{Limit: 3}))
	},
	"repository/branch-single.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.GetBranch(ctx, "forgejo", "forgejo", "forgejo"))
	},
	"repository/tags-list.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.ListTags(ctx, "forgejo", "forgejo", &ListOptions{Limit: 3}))
	},
	"repository/releases-list.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.ListReleases(ctx, "forgejo", "forgejo", &RepoListReleasesOptions{ListOptions: ListOptions{Limit: 2}}))
	},
	"repository/release-latest.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.GetLatestRelease(ctx, "forgejo", "forgejo"))
	},
	"repository/topics.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.ListTopics(ctx, "forgejo", "forgejo", nil))
	},
	"repository/contents-file.json": func(ctx context.Context, c *Client) (any, error) {
		v, _, err := c.Repos.GetContents(ctx, "forgejo", "forgejo", "README.md", nil)
		if err == nil && (v.File == nil || v.IsDir() || v.File.Type != "file" || v.File.Content == "") {
			err = errors.New("a file answer did not decode as a file with content")
		}
		return v, err
	},
	// Fetched as /contents/ (the root through the wildcard route): the
	// union answers an array, as GetContentsList does.
	"repository/contents-dir.json": func(ctx context.Context, c *Client) (any, error) {
		return gnContentsDir(ctx, c, "forgejo", "forgejo")
	},
	"repository/contents-dir-small.json": func(ctx context.Context, c *Client) (any, error) {
		return gnContentsDir(ctx, c, "codeberg", "Community")
	},
	"repository/search.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.Search(ctx, &RepoSearchOptions{Query: "forgejo", ListOptions: ListOptions{Limit: 3}}))
	},
	"repository/commits-list.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.ListCommits(ctx, "forgejo", "forgejo", &RepoListCommitsOptions{ListOptions: ListOptions{Limit: 2}}))
	},
	"repository/git-commit-single.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.GetCommit(ctx, "forgejo", "forgejo", "647de8b3279b0ce6e9721cc651e431981725edf1", nil))
	},
	"repository/languages.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.ListLanguages(ctx, "forgejo", "forgejo"))
	},
	"repository/forks-list.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.ListForks(ctx, "forgejo", "forgejo", &ListOptions{Page: 1, Limit: 2}))
	},
	"repository/stargazers-list.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.ListStargazers(ctx, "forgejo", "forgejo", &ListOptions{Page: 1, Limit: 3}))
	},
	"repository/git-tree.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.GetTree(ctx, "codeberg", "Community", "main", &RepoGetTreeOptions{ListOptions: ListOptions{Limit: 5}}))
	},
	"issue/list-open.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Issues.List(ctx, "codeberg", "Community", &IssueListOptions{State: "open", ListOptions: ListOptions{Limit: 3}}))
	},
	"issue/list-closed.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Issues.List(ctx, "codeberg", "Community", &IssueListOptions{State: "closed", ListOptions: ListOptions{Limit: 3}}))
	},
	"issue/list-labelled.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Issues.List(ctx, "forgejo", "forgejo", &IssueListOptions{State: "open", ListOptions: ListOptions{Page: 1, Limit: 3}}))
	},
	"issue/single.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Issues.Get(ctx, "codeberg", "Community", 2966))
	},
	"issue/comments-list.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Issues.ListComments(ctx, "codeberg", "Community", 2966, nil))
	},
	"issue/labels-repo.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Issues.ListLabels(ctx, "codeberg", "Community", &IssueListLabelsOptions{ListOptions: ListOptions{Page: 1, Limit: 5}}))
	},
	"issue/milestones-list.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Issues.ListMilestones(ctx, "forgejo", "forgejo", &IssueListMilestonesOptions{State: "all", ListOptions: ListOptions{Page: 1, Limit: 3}}))
	},
	"issue/search.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Issues.Search(ctx, &IssueSearchOptions{State: "open", ListOptions: ListOptions{Page: 1, Limit: 3}}))
	},
	"pull/list-all.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.PullRequests.List(ctx, "forgejo", "forgejo", &PullRequestListOptions{State: "all", ListOptions: ListOptions{Limit: 3}}))
	},
	"pull/list-closed.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.PullRequests.List(ctx, "forgejo", "forgejo", &PullRequestListOptions{State: "closed", ListOptions: ListOptions{Limit: 3}}))
	},
	"pull/single-merged.json": func(ctx context.Context, c *Client) (any, error) {
		return gnPull(ctx, c, 13726, StateMerged)
	},
	"pull/single-open.json": func(ctx context.Context, c *Client) (any, error) {
		return gnPull(ctx, c, 13731, StateOpen)
	},
	"pull/reviews-list.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.PullRequests.ListReviews(ctx, "forgejo", "forgejo", 13726, nil))
	},
	"pull/commits-list.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.PullRequests.ListCommits(ctx, "forgejo", "forgejo", 13726, &PullRequestListCommitsOptions{ListOptions: ListOptions{Page: 1, Limit: 2}}))
	},
	"pull/files-list.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.PullRequests.ListFiles(ctx, "forgejo", "forgejo", 13726, &PullRequestListFilesOptions{ListOptions: ListOptions{Page: 1, Limit: 3}}))
	},
	"organization/org-single.json": func(ctx context.Context, c *Client) (any, error) { return gnDrop(c.Orgs.Get(ctx, "forgejo")) },
	"organization/org-repos-list.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.ListByOrg(ctx, "forgejo", &ListOptions{Page: 1, Limit: 3}))
	},
	"organization/org-labels-list.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Orgs.ListLabels(ctx, "forgejo", &OrgListLabelsOptions{ListOptions: ListOptions{Page: 1, Limit: 3}}))
	},
	"organization/org-list.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Orgs.ListAll(ctx, &ListOptions{Page: 1, Limit: 3}))
	},
	"misc/settings-api.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Settings.GetAPI(ctx))
	},
	"misc/settings-repository.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Settings.GetRepository(ctx))
	},
	"misc/settings-attachment.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Settings.GetAttachment(ctx))
	},
	"misc/gitignore-templates.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Misc.ListGitignoreTemplates(ctx))
	},
	"error/404-repo-not-found.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.Get(ctx, "forgejo", "codeberg4s-no-such-repo"))
	},
	"error/404-user-not-found.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Users.Get(ctx, "codeberg4s-no-such-user-xyz"))
	},
	"error/401-org-teams.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Orgs.ListTeams(ctx, "forgejo", nil))
	},
	"error/422-invalid-sort.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Repos.Search(ctx, &RepoSearchOptions{Query: "a", Sort: "bogus", ListOptions: ListOptions{Page: 1, Limit: 2}}))
	},
	"notification/list-synthetic.json": func(ctx context.Context, c *Client) (any, error) {
		return gnDrop(c.Notifications.List(ctx, nil))
	},
}

func gnContentsDir(ctx context.Context, c *Client, owner, repo string) (any, error) {
	v, _, err := c.Repos.GetContents(ctx, owner, repo, "dir", nil)
	if err != nil {
		return nil, err
	}
	if !v.IsDir() || len(v.Dir) == 0 || v.Dir[0].Name == "" {
		return nil, errors.New("a directory answer did not decode as entries")
	}
	list, _, err := c.Repos.ListContents(ctx, owner, repo, nil)
	if err == nil && len(list) != len(v.Dir) {
		err = errors.New("GetContentsList and GetContents disagree on the directory")
	}
	return list, err
}

func gnPull(ctx context.Context, c *Client, index int64, want StateType) (any, error) {
	pr, _, err := c.PullRequests.Get(ctx, "forgejo", "forgejo", index)
	if err == nil && pr.EffectiveState() != want {
		err = errors.New("EffectiveState() = " + string(pr.EffectiveState()) + ", want " + string(want))
	}
	return pr, err
}

// gnFixtureIndex reads INDEX.md: fixture file -> request path and status.
func gnFixtureIndex(t *testing.T) map[string]struct {
	path   string
	status int
} {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "codeberg", "INDEX.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]struct {
		path   string
		status int
	}{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "|")
		if len(cols) < 5 || !strings.HasPrefix(strings.TrimSpace(cols[1]), "`") {
			continue
		}
		file := strings.Trim(strings.TrimSpace(cols[1]), "`")
		req := strings.Trim(strings.TrimSpace(cols[2]), "`")
		path, _, _ := strings.Cut(req, "?")
		status, _ := strconv.Atoi(strings.TrimSpace(cols[3]))
		if status == 0 {
			status = http.StatusOK // the hand-written notification list
			path = ""
		}
		out[file] = struct {
			path   string
			status int
		}{path, status}
	}
	return out
}

func TestGnEveryCapturedBodyDecodesThroughItsOperation(t *testing.T) {
	index := gnFixtureIndex(t)
	files, err := filepath.Glob(filepath.Join("testdata", "codeberg", "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 51 || len(index) != 51 || len(gnFixtureCalls) != 51 {
		t.Fatalf("%d fixture files, %d in INDEX.md, %d calls; want 51 of each", len(files), len(index), len(gnFixtureCalls))
	}
	for _, file := range files {
		rel := filepath.ToSlash(strings.TrimPrefix(file, filepath.Join("testdata", "codeberg")+string(filepath.Separator)))
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			call, ok := gnFixtureCalls[rel]
			if !ok {
				t.Fatal("no operation mapped to this fixture")
			}
			meta := index[rel]
			body, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var paths []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				paths = append(paths, r.URL.EscapedPath())
				mu.Unlock()
				w.Header().Set("Content-Type", "application/json;charset=utf-8")
				w.WriteHeader(meta.status)
				_, _ = w.Write(body)
			}))
			defer srv.Close()
			c := gnClient(t, srv.URL, nil)
			v, err := call(context.Background(), c)
			if meta.status >= 300 {
				var ae *APIError
				if !errors.As(err, &ae) || ae.StatusCode != meta.status || ae.Message == "" {
					t.Fatalf("err = %v, want an *APIError %d with the body's message", err, meta.status)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if rv := reflect.ValueOf(v); !rv.IsValid() || rv.IsZero() || (rv.Kind() == reflect.Slice && rv.Len() == 0) {
					t.Fatalf("decoded to an empty %T", v)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if meta.path != "" && !strings.HasSuffix(rel, "contents-dir.json") && !strings.HasSuffix(rel, "contents-dir-small.json") {
				if len(paths) == 0 || paths[0] != "/api/v1"+meta.path {
					t.Errorf("requested %v, the capture was of %s", paths, meta.path)
				}
			}
		})
	}
}
