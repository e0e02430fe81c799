package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

func getIssue(t *testing.T, srv *forgejotest.Server, n int64) *forgejo.Issue {
	t.Helper()
	is, _, err := srv.Client().Issues.Get(context.Background(), "alice", "proj", n)
	if err != nil {
		t.Fatal(err)
	}
	return is
}

func TestIssueLifecycle(t *testing.T) {
	srv, env := setup(t)
	srv.AddLabel("alice", "proj", "bug", "ee0701")
	srv.AddLabel("alice", "proj", "Question", "d876e3")
	srv.AddMilestone("alice", "proj", "v1.0")
	srv.AddUser("bob")
	dir := gitRepo(t, "origin", "git@example.org:alice/proj.git")
	in := inDir(dir)

	// Someone who cannot write to the repository: the labels are dropped,
	// and the user is told.
	r := cliWith(t, env, in, "issue", "create", "-t", "Drive-by", "--label", "bug")
	r.want(t, 0)
	if !strings.HasPrefix(r.stderr, "warning: the instance did not set the labels") {
		t.Errorf("%q", r.stderr)
	}
	env["FORGEJO_TOKEN"] = srv.AddUser("alice") // the owner, from here on

	// create with labels and assignees, the repository from the remote
	r = cliWith(t, env, in, "issue", "create", "-t", "It broke", "-b", "Steps", "--label", "bug", "-l", "question", "--assignee", "bob")
	r.want(t, 0)
	if r.stdout != "created issue #2 in alice/proj: "+srv.URL+"/alice/proj/issues/2\n" || r.stderr != "" {
		t.Errorf("%q", r.stdout)
	}
	is := getIssue(t, srv, 2)
	if got := strings.Join(labelNames(is.Labels), ","); got != "bug,Question" || len(is.Assignees) != 1 || is.Assignees[0].Login != "bob" {
		t.Errorf("labels %q assignees %v", got, is.Assignees)
	}
	r = cliWith(t, env, in, "issue", "create", "-t", "x", "--label", "nope")
	r.want(t, 1)
	if !strings.Contains(r.stderr, `alice/proj has no label "nope"; it has: bug, Question`) || srv.Count("issueCreateIssue") != 2 {
		t.Errorf("%q", r.stderr)
	}

	// comment, then view with and without comments
	r = cliWith(t, env, in, "issue", "comment", "2", "--body", "Me too")
	r.want(t, 0)
	if !strings.HasPrefix(r.stdout, "commented on issue #2 in alice/proj: ") {
		t.Errorf("%q", r.stdout)
	}
	r = cliWith(t, env, in, "issue", "view", "#2")
	r.want(t, 0)
	for _, s := range []string{"It broke #2\nopen issue, opened by alice", "  labels     bug, Question\n", "  assignees  bob\n", "  comments   1\n", "\nSteps\n"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("missing %q in\n%s", s, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "Me too") || r.stderr != "one comment; --comments shows them\n" {
		t.Errorf("comments shown without --comments: %q %q", r.stdout, r.stderr)
	}
	r = cliWith(t, env, in, "issue", "view", "2", "--comments")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "\n— alice commented on ") || !strings.HasSuffix(r.stdout, ":\nMe too\n") {
		t.Errorf("%s", r.stdout)
	}

	// edit
	r = cliWith(t, env, in, "issue", "edit", "2", "--title", "It broke badly", "--add-label", "bug", "--remove-label", "Question", "--milestone", "v1.0")
	r.want(t, 0)
	is = getIssue(t, srv, 2)
	if is.Title != "It broke badly" || strings.Join(labelNames(is.Labels), ",") != "bug" || is.Milestone == nil || is.Milestone.Title != "v1.0" || is.Body != "Steps" {
		t.Errorf("edited %+v labels %v", is, labelNames(is.Labels))
	}
	cliWith(t, env, in, "issue", "edit", "2", "--body", "").want(t, 0)
	if is = getIssue(t, srv, 2); is.Body != "" || is.Title != "It broke badly" {
		t.Errorf("body not cleared: %q", is.Body)
	}
	r = cliWith(t, env, in, "issue", "edit", "2", "--milestone", "v9")
	r.want(t, 1)
	if !strings.Contains(r.stderr, `has no milestone "v9"; it has: v1.0`) {
		t.Errorf("%q", r.stderr)
	}

	// close with a comment, reopen
	r = cliWith(t, env, in, "issue", "close", "2", "--comment", "Fixed")
	r.want(t, 0)
	if !strings.HasPrefix(r.stdout, "closed issue #2 in alice/proj") || getIssue(t, srv, 2).State != "closed" || getIssue(t, srv, 2).Comments != 2 {
		t.Errorf("%q", r.stdout)
	}
	r = cliWith(t, env, in, "issue", "reopen", "alice/proj", "2")
	r.want(t, 0)
	if !strings.HasPrefix(r.stdout, "reopened issue #2 in alice/proj") || getIssue(t, srv, 2).State != "open" {
		t.Errorf("%q", r.stdout)
	}

	// Usage errors send nothing.
	srv.ResetRequests()
	for _, args := range [][]string{
		{"issue", "view"}, {"issue", "view", "x"}, {"issue", "view", "1", "2", "3"},
		{"issue", "edit", "2"}, {"issue", "edit", "2", "--title", " "},
		{"issue", "comment", "2"}, {"issue", "close", "1", "--comment", ""},
		{"issue", "reopen", "1", "--comment", "x"},
		{"issue", "view", "1", "--json", "nope"}, {"issue", "view", "1", "--jq", ".["},
	} {
		r = cliWith(t, env, in, args...)
		r.want(t, 2)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("usage errors sent %d requests", n)
	}
	// Without a token, a write is refused by the instance.
	r = cliWith(t, map[string]string{"FORGEJO_URL": srv.URL}, in, "issue", "close", "1")
	r.want(t, 4)
	if !strings.Contains(r.stderr, "401") {
		t.Errorf("%q", r.stderr)
	}
}

func TestIssueListFilters(t *testing.T) {
	srv, env := setup(t)
	srv.AddUser("bob")
	srv.AddIssue("alice", "proj", forgejotest.IssueSpec{Title: "Crash on start", Author: "bob", Labels: []string{"bug"}})
	srv.AddIssue("alice", "proj", forgejotest.IssueSpec{Title: "Docs", Author: "alice", Labels: []string{"docs"}})
	srv.AddIssue("alice", "proj", forgejotest.IssueSpec{Title: "Crash on exit", Author: "alice", Labels: []string{"bug", "ui"}, Closed: true})
	srv.ResetRequests()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--label", "bug"}, "1"},
		{[]string{"--label", "bug", "--state", "all"}, "3,1"},
		{[]string{"-l", "bug", "-l", "ui", "-s", "all"}, "3"},
		{[]string{"--author", "bob"}, "1"},
		{[]string{"-A", "alice", "--state", "closed"}, "3"},
		{[]string{"--search", "crash", "--state", "all"}, "3,1"},
		{[]string{"--state", "all", "--limit", "2"}, "3,2"},
	} {
		args := append([]string{"issue", "list", "alice/proj", "--json", "number", "--jq", `map(.number|tostring)|join(",")`}, tc.args...)
		r := cli(t, env, args...)
		r.want(t, 0)
		if got := strings.TrimSpace(r.stdout); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.args, got, tc.want)
		}
	}
	r := cli(t, env, "issue", "list", "alice/proj", "--label", "bug", "--author", "bob", "--assignee", "carol", "--search", "x y", "-v")
	if !strings.Contains(r.stderr, "labels=bug") || !strings.Contains(r.stderr, "created_by=bob") || !strings.Contains(r.stderr, "assigned_by=carol") || !strings.Contains(r.stderr, "q=x%20y") {
		t.Errorf("query not sent:\n%s", r.stderr)
	}
}

func TestJSONFieldsAndJQ(t *testing.T) {
	srv, env := setup(t)
	srv.AddIssue("alice", "proj", forgejotest.IssueSpec{Title: "One", Labels: []string{"bug"}})
	srv.AddIssue("alice", "proj", forgejotest.IssueSpec{Title: "Two"})

	// Selected fields only.
	r := cli(t, env, "issue", "list", "alice/proj", "--json", "number,title", "--json", "labels")
	r.want(t, 0)
	var got []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || len(got) != 2 || len(got[0]) != 3 || got[0]["title"] != "Two" || got[1]["labels"].([]any)[0].(map[string]any)["name"] != "bug" {
		t.Errorf("%v %s", err, r.stdout)
	}
	if r.stderr != "" {
		t.Errorf("stderr %q", r.stderr)
	}
	r = cli(t, env, "issue", "view", "alice/proj", "1", "--json", "title,state")
	r.want(t, 0)
	if r.stdout != "{\n  \"state\": \"open\",\n  \"title\": \"One\"\n}\n" {
		t.Errorf("%q", r.stdout)
	}

	// --json alone lists the fields, as gh does.
	for _, args := range [][]string{{"issue", "list", "alice/proj", "--json"}, {"issue", "view", "-R", "alice/proj", "1", "--json"}} {
		r = cli(t, env, args...)
		r.want(t, 2)
		if !strings.HasPrefix(r.stderr, "forgego: --json needs one or more comma-separated fields\n") || !strings.Contains(r.stderr, "The fields:\n  assets\n  assignee\n  assignees\n  body\n") || !strings.Contains(r.stderr, "\n  url\n") {
			t.Errorf("%v: %q", args, r.stderr)
		}
	}
	r = cli(t, env, "issue", "list", "alice/proj", "--json", "number,bogus")
	r.want(t, 2)
	if !strings.Contains(r.stderr, `unknown field "bogus"`) || !strings.Contains(r.stderr, "The fields: assets, assignee, assignees, body,") {
		t.Errorf("%q", r.stderr)
	}

	// --jq: strings raw, the rest as JSON, one a line; without --json on
	// every field.
	r = cli(t, env, "issue", "list", "alice/proj", "--jq", ".[] | .title, .number, [.labels[].name]")
	r.want(t, 0)
	if r.stdout != "Two\n2\n[]\nOne\n1\n[\"bug\"]\n" {
		t.Errorf("%q", r.stdout)
	}
	// --template: Go's text/template over the same JSON.
	r = cli(t, env, "issue", "list", "alice/proj", "--template", `{{range .}}#{{.number}} {{.title}} [{{join "," .labels}}] {{.closed_at}}{{"\n"}}{{end}}`)
	r.want(t, 0)
	if r.stdout != "#2 Two [] <no value>\n#1 One [bug] <no value>\n" {
		t.Errorf("--template %q", r.stdout)
	}
	r = cli(t, env, "issue", "view", "alice/proj", "1", "-T", `{{.user.login}}: {{json .labels | truncate 12}}`)
	if r.want(t, 0); r.stdout != "alice: [{\"color\":\"…" && r.stdout != srv.DefaultUser()+": [{\"color\":\"…" {
		t.Errorf("-T %q", r.stdout)
	}
	for _, args := range [][]string{
		{"issue", "list", "alice/proj", "--template", "{{.number"},
		{"issue", "list", "alice/proj", "--template", "{{.}}", "--jq", "."},
	} {
		cli(t, env, args...).want(t, 2)
	}
	r = cli(t, env, "issue", "view", "alice/proj", "1", "-q", ".nope.deeper")
	r.want(t, 0)
	if r.stdout != "null\n" {
		t.Errorf("%q", r.stdout)
	}
	r = cli(t, env, "issue", "view", "alice/proj", "1", "--jq", `error("boom")`)
	r.want(t, 1)
	if !strings.Contains(r.stderr, "--jq: ") || !strings.Contains(r.stderr, "boom") {
		t.Errorf("%q", r.stderr)
	}
	// The token never reaches the output, even through --jq.
	srv.AddIssue("alice", "proj", forgejotest.IssueSpec{Title: "token " + srv.Token()})
	r = cli(t, env, "issue", "list", "alice/proj", "--jq", ".[0].title")
	if strings.Contains(r.stdout, srv.Token()) || r.stdout != "token ***\n" {
		t.Errorf("%q", r.stdout)
	}
}
