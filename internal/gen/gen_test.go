package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/internal/api"
)

// TestGeneratedFilesAreCurrent is the stale-generation check that runs with
// the tests: what the generator would write now must be what is committed.
// CI also runs `go generate ./... && git diff --exit-code`.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	files, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range sortedKeys(files) {
		old, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Errorf("%s: %v (run go generate ./...)", name, err)
			continue
		}
		if !bytes.Equal(old, files[name]) {
			t.Errorf("%s is stale: run go generate ./... from the repository root", name)
		}
	}
}

func TestGenerationIsDeterministic(t *testing.T) {
	root := filepath.Join("..", "..")
	a, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	b, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for name := range a {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

func TestRefusesAnIncompleteTable(t *testing.T) {
	spec, err := parseSpec(api.Spec)
	if err != nil {
		t.Fatal(err)
	}
	m, err := buildModels(spec)
	if err != nil {
		t.Fatal(err)
	}
	saved := api.Operations
	defer func() { api.Operations = saved }()

	mutate := func(f func(rows []api.Op) []api.Op) error {
		api.Operations = f(append([]api.Op(nil), saved...))
		_, err := buildOps(spec, m)
		return err
	}
	find := func(rows []api.Op, id string) int {
		for i, r := range rows {
			if r.ID == id {
				return i
			}
		}
		t.Fatalf("%s not in the table", id)
		return -1
	}
	cases := map[string]struct {
		f    func(rows []api.Op) []api.Op
		want string
	}{
		"a PUT without Retry": {func(rows []api.Op) []api.Op {
			rows[find(rows, "repoUpdateTopics")].Retry = 0
			return rows
		}, "repoUpdateTopics (PUT /repos/{owner}/{repo}/topics): Retry must be stated"},
		"a DELETE without Why": {func(rows []api.Op) []api.Op {
			rows[find(rows, "repoDeleteTopic")].Why = ""
			return rows
		}, "repoDeleteTopic (DELETE /repos/{owner}/{repo}/topics/{topic}): Why is empty"},
		"a spec operation without a row": {func(rows []api.Op) []api.Op {
			i := find(rows, "repoGet")
			return append(rows[:i], rows[i+1:]...)
		}, "spec operation repoGet (GET /repos/{owner}/{repo}) has no row"},
		"a row without a spec operation": {func(rows []api.Op) []api.Op {
			return append(rows, api.Op{ID: "repoTeleport", Service: "Repos", Method: "Teleport", Retry: api.Never, Why: "moves a repository"})
		}, "table row repoTeleport has no operation in the spec"},
	}
	for name, tc := range cases {
		err := mutate(tc.f)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", name, err, tc.want)
		}
	}
	if err := mutate(func(rows []api.Op) []api.Op { return rows }); err != nil {
		t.Errorf("the real table: %v", err)
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{
		"full_name": "FullName", "html_url": "HTMLURL", "id": "ID", "open_pr_counter": "OpenPrCounter",
		"uuid": "Uuid", "is_2fa_enabled": "Is2FAEnabled", "status-types": "StatusTypes", "includeDesc": "IncludeDesc",
		"_links": "Links", "@context": "Context", "ScheduleID": "ScheduleID", "MergeTitleField": "MergeTitleField",
		"redirect_uris": "RedirectURIs", "team_ids": "TeamIDs", "ok": "OK", "sha256": "SHA256", "Do": "Do",
	} {
		if got := exported(in); got != want {
			t.Errorf("exported(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"owner": "owner", "user-id": "userID", "attachment_id": "attachmentID", "type": "typ", "pageName": "pageName",
	} {
		if got := unexported(in); got != want {
			t.Errorf("unexported(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDocs(t *testing.T) {
	for _, c := range []struct{ name, raw, want string }{
		{"Repository", "Repository represents a repository", "Repository represents a repository."},
		{"ServerVersion", "ServerVersion wraps the version of the server", "ServerVersion wraps the version of the server."},
		{"Milestone", "Milestone milestone is a collection of issues on one repository", "Milestone is a collection of issues on one repository."},
		{"Hook", "Hook a hook is a web hook when one repository changed", "Hook is a web hook when one repository changed."},
		{"Attachment", "Attachment a generic attachment", "Attachment is a generic attachment."},
		{"CreateIssueOption", "CreateIssueOption options to create one issue", "CreateIssueOption holds the options to create one issue."},
		{"StopWatch", "StopWatch represent a running stopwatch", "StopWatch represents a running stopwatch."},
		{"ChangeFileOperation", "ChangeFileOperation for creating, updating or deleting a file", "ChangeFileOperation is used for creating, updating or deleting a file."},
		{"CreateQuotaGroupOptions", "CreateQutaGroupOptions represents the options for creating a quota group", "CreateQuotaGroupOptions represents the options for creating a quota group."},
		{"Duration", "A Duration represents the elapsed time", "Duration represents the elapsed time."},
		{"StateType", "StateType issue state type", "StateType is the issue state type."},
	} {
		if got := typeDoc(c.name, c.raw); got != c.want {
			t.Errorf("typeDoc(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
	for _, c := range []struct{ method, summary, want string }{
		{"Get", "Get a repository", "Get gets a repository."},
		{"Search", "Search for repositories", "Search searches for repositories."},
		{"ChangeFiles", "Modify multiple files in a repository", "ChangeFiles modifies multiple files in a repository."},
		{"GetVersion", "Returns the version of the running application", "GetVersion returns the version of the running application."},
		{"CurrentCheckStarring", "Whether the authenticated is starring the repo", "CurrentCheckStarring reports whether the authenticated is starring the repo."},
		{"CurrentListStarred", "The repos that the authenticated user has starred", "CurrentListStarred returns the repos that the authenticated user has starred."},
	} {
		if got := methodSentence(c.method, c.summary); got != c.want {
			t.Errorf("methodSentence(%q) = %q, want %q", c.summary, got, c.want)
		}
	}
	if got := cleanText("Line one\nLine two\nend"); got != "Line one. Line two end." {
		t.Errorf("cleanText = %q", got)
	}
}

// TestEverySpecEnumIsTyped: every enumeration the spec states on a
// parameter or a property is a named type, and the check notices one that
// is not (a query, a path parameter and a property taken out of the tables).
func TestEverySpecEnumIsTyped(t *testing.T) {
	spec, err := parseSpec(api.Spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkSpecEnums(spec); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		table map[string]string
		key   string
	}{
		{queryEnums, "issueListIssues.sort"},
		{pathEnums, "repoDownloadPullDiffOrPatch.diffType"},
		{fieldEnums, "CreateHookOption.type"},
	} {
		typ := c.table[c.key]
		delete(c.table, c.key)
		err := checkSpecEnums(spec)
		c.table[c.key] = typ
		if err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("without the entry %s, checkSpecEnums = %v, want an error naming it", c.key, err)
		}
	}
}
