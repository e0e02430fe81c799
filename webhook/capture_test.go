package webhook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// testSecret is the secret of every hook of the capture in testdata (public
// test data; see testdata/INDEX.md).
const testSecret = "forgego-webhook-secret"

// capture is one delivery of testdata: NNN-<type>-<action>.json or .form
// with its NNN-<type>-<action>.headers.txt.
//
// The .headers.txt format is one "Name: value" line per header in the order
// received, exactly as sent (an empty value leaves "Name: " with its trailing
// space). loadCapture reads it without any script: split each line at the
// first colon, drop one space after it.
type capture struct {
	name    string // file name without extension
	body    []byte // raw body
	lines   []HeaderField
	header  http.Header // canonical keys, as net/http's server builds it
	payload []byte      // the JSON (the body, or the form's payload field)
	form    bool
}

func loadCapture(t testing.TB, bodyPath string) capture {
	t.Helper()
	ext := filepath.Ext(bodyPath)
	base := strings.TrimSuffix(bodyPath, ext)
	body, err := os.ReadFile(bodyPath)
	if err != nil {
		t.Fatal(err)
	}
	hb, err := os.ReadFile(base + ".headers.txt")
	if err != nil {
		t.Fatal(err)
	}
	c := capture{name: filepath.Base(base), body: body, header: http.Header{}, payload: body, form: ext == ".form"}
	sc := bufio.NewScanner(bytes.NewReader(hb))
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" {
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("%s.headers.txt: line %q has no colon", base, line)
		}
		value = strings.TrimPrefix(value, " ")
		c.lines = append(c.lines, HeaderField{name, value})
		c.header.Add(name, value)
	}
	if c.form {
		q, err := url.ParseQuery(string(body))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		c.payload = []byte(q.Get("payload"))
	}
	return c
}

func loadCaptures(t testing.TB) []capture {
	t.Helper()
	var files []string
	for _, pat := range []string{"testdata/*.json", "testdata/*.form"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	var cs []capture
	for _, f := range files {
		cs = append(cs, loadCapture(t, f))
	}
	return cs
}

// contentType is the hook's content type: "form" for the .form captures.
func (c capture) contentType() string {
	if c.form {
		return "form"
	}
	return "json"
}

func mustParser(t testing.TB, opts ...ParserOption) *Parser {
	t.Helper()
	p, err := NewParser(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// path walks a decoded JSON value along a dotted path; "#" is a slice's
// length.
func path(v any, p string) any {
	for part := range strings.SplitSeq(p, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[part]
		case []any:
			if part == "#" {
				return float64(len(x))
			}
			var i int
			if _, err := fmt.Sscan(part, &i); err != nil || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// same compares a typed value with the value the file holds.
func same(typed, file any) bool {
	// Open enums are named string types (forgejo.StateType, …): compare
	// them as the strings they are.
	if v := reflect.ValueOf(typed); v.IsValid() && v.Kind() == reflect.String {
		typed = v.String()
	}
	switch f := file.(type) {
	case nil:
		switch tv := typed.(type) {
		case string:
			return tv == ""
		case int64:
			return tv == 0
		case bool:
			return !tv
		}
		return typed == nil
	case float64:
		switch tv := typed.(type) {
		case int64:
			return float64(tv) == f
		case int:
			return float64(tv) == f
		}
	case string:
		s, ok := typed.(string)
		return ok && s == f
	case bool:
		b, ok := typed.(bool)
		return ok && b == f
	}
	return false
}

func labelNames(ls []*forgejo.Label) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Name)
	}
	return out
}

func fileLabelNames(v any) []string {
	var out []string
	if ls, ok := v.([]any); ok {
		for _, l := range ls {
			if s, ok := path(l, "name").(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// fieldChecks lists, for an event, the fields a program reads, as pairs of
// the typed value and the dotted path of the same value in the file.
type check struct {
	path  string
	typed any
}

func userChecks(prefix string, u *forgejo.User) []check {
	if u == nil {
		return []check{{prefix, nil}}
	}
	return []check{{prefix + ".id", u.ID}, {prefix + ".login", u.Login}, {prefix + ".email", u.Email}}
}

func repoChecks(prefix string, r *forgejo.Repository) []check {
	if r == nil {
		return []check{{prefix, nil}}
	}
	cs := []check{
		{prefix + ".id", r.ID}, {prefix + ".name", r.Name}, {prefix + ".full_name", r.FullName},
		{prefix + ".html_url", r.HTMLURL}, {prefix + ".clone_url", r.CloneURL},
		{prefix + ".default_branch", r.DefaultBranch}, {prefix + ".private", r.Private}, {prefix + ".fork", r.Fork},
	}
	return append(cs, userChecks(prefix+".owner", r.Owner)...)
}

func commitChecks(prefix string, c *forgejo.PayloadCommit) []check {
	if c == nil {
		return []check{{prefix, nil}}
	}
	cs := []check{{prefix + ".id", c.ID}, {prefix + ".message", c.Message}, {prefix + ".url", c.URL}}
	if c.Author != nil {
		cs = append(cs, check{prefix + ".author.name", c.Author.Name}, check{prefix + ".author.email", c.Author.Email}, check{prefix + ".author.username", c.Author.Username})
	}
	return cs
}

func issueChecks(prefix string, is *forgejo.Issue) []check {
	if is == nil {
		return []check{{prefix, nil}}
	}
	cs := []check{
		{prefix + ".id", is.ID}, {prefix + ".number", is.Number}, {prefix + ".title", is.Title},
		{prefix + ".body", is.Body}, {prefix + ".state", is.State}, {prefix + ".html_url", is.HTMLURL},
		{prefix + ".labels.#", int64(len(is.Labels))}, {prefix + ".assignees.#", int64(len(is.Assignees))},
	}
	if is.Milestone != nil {
		cs = append(cs, check{prefix + ".milestone.title", is.Milestone.Title})
	}
	if is.Repository != nil {
		cs = append(cs, check{prefix + ".repository.full_name", is.Repository.FullName})
	}
	return append(cs, userChecks(prefix+".user", is.User)...)
}

func prChecks(prefix string, pr *forgejo.PullRequest) []check {
	if pr == nil {
		return []check{{prefix, nil}}
	}
	cs := []check{
		{prefix + ".id", pr.ID}, {prefix + ".number", pr.Number}, {prefix + ".title", pr.Title},
		{prefix + ".body", pr.Body}, {prefix + ".state", pr.State}, {prefix + ".merged", pr.Merged},
		{prefix + ".html_url", pr.HTMLURL}, {prefix + ".labels.#", int64(len(pr.Labels))},
		{prefix + ".requested_reviewers.#", int64(len(pr.RequestedReviewers))},
	}
	if pr.Base != nil {
		cs = append(cs, check{prefix + ".base.ref", pr.Base.Ref}, check{prefix + ".base.sha", pr.Base.SHA})
		if pr.Base.Repo != nil {
			cs = append(cs, check{prefix + ".base.repo.full_name", pr.Base.Repo.FullName})
		}
	}
	if pr.Head != nil {
		cs = append(cs, check{prefix + ".head.ref", pr.Head.Ref}, check{prefix + ".head.sha", pr.Head.SHA})
		if pr.Head.Repo != nil {
			cs = append(cs, check{prefix + ".head.repo.full_name", pr.Head.Repo.FullName})
		}
	}
	if pr.Milestone != nil {
		cs = append(cs, check{prefix + ".milestone.title", pr.Milestone.Title})
	}
	return append(cs, userChecks(prefix+".user", pr.User)...)
}

func changesChecks(ch *Changes) []check {
	if ch == nil {
		return []check{{"changes", nil}}
	}
	var cs []check
	for name, c := range map[string]*ChangeFrom{"title": ch.Title, "body": ch.Body, "ref": ch.Ref} {
		if c == nil {
			cs = append(cs, check{"changes." + name, nil})
		} else {
			cs = append(cs, check{"changes." + name + ".from", c.From})
		}
	}
	return cs
}

// checksFor returns the checks for a parsed event, and the label names it
// carries (compared separately, as lists).
func checksFor(t *testing.T, ev Event) (cs []check, labels []string, labelsPath string) {
	switch e := ev.(type) {
	case *PushEvent:
		cs = []check{
			{"ref", e.Ref}, {"before", e.Before}, {"after", e.After}, {"compare_url", e.CompareURL},
			{"total_commits", e.TotalCommits}, {"commits.#", int64(len(e.Commits))},
		}
		for i, c := range e.Commits {
			cs = append(cs, commitChecks(fmt.Sprintf("commits.%d", i), c)...)
		}
		cs = append(cs, commitChecks("head_commit", e.HeadCommit)...)
		cs = append(cs, repoChecks("repository", e.Repository)...)
		cs = append(cs, userChecks("pusher", e.Pusher)...)
		cs = append(cs, userChecks("sender", e.Sender)...)
	case *CreateEvent:
		cs = []check{{"sha", e.SHA}, {"ref", e.Ref}, {"ref_type", e.RefType}}
		cs = append(cs, repoChecks("repository", e.Repository)...)
		cs = append(cs, userChecks("sender", e.Sender)...)
	case *DeleteEvent:
		cs = []check{{"ref", e.Ref}, {"ref_type", e.RefType}, {"pusher_type", e.PusherType}}
		cs = append(cs, repoChecks("repository", e.Repository)...)
		cs = append(cs, userChecks("sender", e.Sender)...)
	case *ForkEvent:
		cs = append(repoChecks("forkee", e.Forkee), repoChecks("repository", e.Repository)...)
		cs = append(cs, userChecks("sender", e.Sender)...)
	case *IssuesEvent:
		cs = []check{{"action", e.Action}, {"number", e.Number}, {"commit_id", e.CommitID}}
		cs = append(cs, changesChecks(e.Changes)...)
		cs = append(cs, issueChecks("issue", e.Issue)...)
		cs = append(cs, repoChecks("repository", e.Repository)...)
		cs = append(cs, userChecks("sender", e.Sender)...)
		if e.Issue != nil {
			labels, labelsPath = labelNames(e.Issue.Labels), "issue.labels"
		}
	case *IssueCommentEvent:
		cs = []check{{"action", e.Action}, {"is_pull", e.IsPull}}
		if e.Comment != nil {
			cs = append(cs, check{"comment.id", e.Comment.ID}, check{"comment.body", e.Comment.Body}, check{"comment.html_url", e.Comment.HTMLURL})
			cs = append(cs, userChecks("comment.user", e.Comment.User)...)
		} else {
			cs = append(cs, check{"comment", nil})
		}
		cs = append(cs, changesChecks(e.Changes)...)
		cs = append(cs, issueChecks("issue", e.Issue)...)
		cs = append(cs, prChecks("pull_request", e.PullRequest)...)
		cs = append(cs, repoChecks("repository", e.Repository)...)
		cs = append(cs, userChecks("sender", e.Sender)...)
	case *PullRequestEvent:
		cs = []check{{"action", e.Action}, {"number", e.Number}, {"commit_id", e.CommitID}}
		if e.Review != nil {
			cs = append(cs, check{"review.type", e.Review.Type})
		} else {
			cs = append(cs, check{"review", nil})
		}
		cs = append(cs, changesChecks(e.Changes)...)
		cs = append(cs, prChecks("pull_request", e.PullRequest)...)
		cs = append(cs, userChecks("requested_reviewer", e.RequestedReviewer)...)
		cs = append(cs, repoChecks("repository", e.Repository)...)
		cs = append(cs, userChecks("sender", e.Sender)...)
		if e.PullRequest != nil {
			labels, labelsPath = labelNames(e.PullRequest.Labels), "pull_request.labels"
		}
	case *PullRequestReviewEvent:
		cs = []check{{"action", e.Action}, {"number", e.Number}, {"commit_id", e.CommitID}}
		if e.Review == nil {
			t.Errorf("review event without review")
		} else {
			cs = append(cs, check{"review.type", e.Review.Type}, check{"review.content", e.Review.Content})
		}
		cs = append(cs, prChecks("pull_request", e.PullRequest)...)
		cs = append(cs, userChecks("requested_reviewer", e.RequestedReviewer)...)
		cs = append(cs, repoChecks("repository", e.Repository)...)
		cs = append(cs, userChecks("sender", e.Sender)...)
	case *ReleaseEvent:
		cs = []check{{"action", e.Action}}
		if r := e.Release; r != nil {
			cs = append(cs, check{"release.id", r.ID}, check{"release.tag_name", r.TagName}, check{"release.name", r.Name},
				check{"release.body", r.Body}, check{"release.draft", r.Draft}, check{"release.prerelease", r.Prerelease},
				check{"release.target_commitish", r.TargetCommitish}, check{"release.assets.#", int64(len(r.Assets))})
			cs = append(cs, userChecks("release.author", r.Author)...)
		} else {
			cs = append(cs, check{"release", nil})
		}
		cs = append(cs, repoChecks("repository", e.Repository)...)
		cs = append(cs, userChecks("sender", e.Sender)...)
	case *RepositoryEvent:
		cs = []check{{"action", e.Action}}
		cs = append(cs, repoChecks("repository", e.Repository)...)
		cs = append(cs, userChecks("organization", e.Organization)...)
		cs = append(cs, userChecks("sender", e.Sender)...)
	case *WikiEvent:
		cs = []check{{"action", e.Action}, {"page", e.Page}, {"comment", e.Comment}}
		cs = append(cs, repoChecks("repository", e.Repository)...)
		cs = append(cs, userChecks("sender", e.Sender)...)
	case *PackageEvent:
		cs = []check{{"action", e.Action}}
		if p := e.Package; p != nil {
			cs = append(cs, check{"package.id", p.ID}, check{"package.name", p.Name}, check{"package.type", p.Type},
				check{"package.version", p.Version}, check{"package.html_url", p.HTMLURL})
			cs = append(cs, userChecks("package.owner", p.Owner)...)
			cs = append(cs, userChecks("package.creator", p.Creator)...)
		} else {
			cs = append(cs, check{"package", nil})
		}
		cs = append(cs, repoChecks("repository", e.Repository)...)
		cs = append(cs, userChecks("organization", e.Organization)...)
		cs = append(cs, userChecks("sender", e.Sender)...)
	default:
		t.Errorf("unexpected payload type %T", ev)
	}
	return cs, labels, labelsPath
}

// TestCapturesParse parses every captured delivery (JSON and form, every
// hook type) with the hook's secret, and checks that it lands in its payload
// type with the fields a program reads equal to the file's.
func TestCapturesParse(t *testing.T) {
	cs := loadCaptures(t)
	if len(cs) < 146 {
		t.Fatalf("%d captures in testdata, want at least 146", len(cs))
	}
	p := mustParser(t, WithSecret(testSecret))
	perType := map[EventType]int{}
	perContent := map[string]int{}
	for _, c := range cs {
		t.Run(c.name, func(t *testing.T) {
			ev, err := p.Parse(c.body, c.header)
			if err != nil {
				t.Fatal(err)
			}
			wantType := EventType(c.header.Get("X-Forgejo-Event-Type"))
			if ev.EventType() != wantType || !strings.HasPrefix(c.name[4:], string(wantType)+"-") {
				t.Fatalf("event type %q, header %q, file %s", ev.EventType(), wantType, c.name)
			}
			if !wantType.Known() {
				t.Fatalf("event type %q not known", wantType)
			}
			perType[wantType]++
			perContent[c.contentType()]++
			d := ev.delivery()
			if ev.DeliveryID() != c.header.Get("X-Forgejo-Delivery") || ev.DeliveryID() == "" {
				t.Errorf("delivery ID %q", ev.DeliveryID())
			}
			if d.EventFamily() != c.header.Get("X-Forgejo-Event") {
				t.Errorf("family %q, header %q", d.EventFamily(), c.header.Get("X-Forgejo-Event"))
			}
			if wantType.Family() != c.header.Get("X-Forgejo-Event") {
				t.Errorf("%s.Family() = %q, header says %q", wantType, wantType.Family(), c.header.Get("X-Forgejo-Event"))
			}
			if !bytes.Equal(ev.RawBody(), c.body) || !bytes.Equal(ev.Payload(), c.payload) {
				t.Errorf("raw body or payload not the bytes received")
			}
			if !d.Signed() || d.ContentType() != c.contentType() {
				t.Errorf("signed %v, content type %q", d.Signed(), d.ContentType())
			}

			var file map[string]any
			if err := json.Unmarshal(c.payload, &file); err != nil {
				t.Fatal(err)
			}
			// The file name's action part is the action, or the ref type, or none.
			if a, ok := file["action"].(string); ok && !strings.HasSuffix(c.name, "-"+a) {
				t.Errorf("action %q not in the file name", a)
			}
			checks, labels, labelsPath := checksFor(t, ev)
			nonZero := 0
			for _, ch := range checks {
				fv := path(file, ch.path)
				if !same(ch.typed, fv) {
					t.Errorf("%s: typed %#v, file %#v", ch.path, ch.typed, fv)
				}
				if fv != nil && fv != "" && fv != false && fv != float64(0) {
					nonZero++
				}
			}
			if nonZero < 5 {
				t.Errorf("only %d non-zero fields checked", nonZero)
			}
			if labelsPath != "" {
				if got, want := labels, fileLabelNames(path(file, labelsPath)); strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("labels %q, file %q", got, want)
				}
			}
			// Every event but package has a repository; every event has a sender.
			if _, ok := ev.(*PackageEvent); !ok && path(file, "repository.id") == nil {
				t.Errorf("no repository in the file")
			}
			if path(file, "sender.login") == nil {
				t.Errorf("no sender in the file")
			}
		})
	}
	t.Logf("%d deliveries: %v; by content type %v", len(cs), perType, perContent)
	if perContent["form"] < 10 {
		t.Errorf("%d form deliveries, want 10", perContent["form"])
	}
}

// TestCapturesSpotValues pins a few values read by hand from the files, so
// that the generic comparison above cannot pass by reading nothing.
func TestCapturesSpotValues(t *testing.T) {
	p := mustParser(t, WithSecret(testSecret))
	parse := func(file string) Event {
		t.Helper()
		c := loadCapture(t, "testdata/"+file)
		ev, err := p.Parse(c.body, c.header)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		return ev
	}

	push := parse("007-push-none.json").(*PushEvent)
	if push.Ref != "refs/heads/main" || push.Branch() != "main" || push.Tag() != "" || push.Repository.FullName != "forgego-admin/hooks-demo" ||
		push.Sender.Login != "forgego-admin" || len(push.Commits) != 1 || push.TotalCommits != 1 || push.HeadCommit.ID != push.Commits[0].ID ||
		push.Created() || push.Deleted() {
		t.Errorf("007 push: %+v", push)
	}
	if push.Commits[0].Timestamp.IsZero() || push.Repository.Owner.Login != "forgego-admin" {
		t.Errorf("007 push commit timestamp or owner not decoded")
	}
	formPush := parse("010-push-none.form").(*PushEvent)
	if formPush.After != push.After || formPush.ContentType() != "form" {
		t.Errorf("010 form push after %q, want %q", formPush.After, push.After)
	}
	created := parse("019-push-none.json").(*PushEvent)
	if !created.Created() || len(created.Commits) != 0 {
		t.Errorf("019 push creating a branch: created %v, %d commits", created.Created(), len(created.Commits))
	}
	tagDel := parse("037-push-none.json").(*PushEvent)
	if !tagDel.Deleted() || tagDel.Tag() != "v0.1.0" {
		t.Errorf("037 push deleting a tag: deleted %v, tag %q", tagDel.Deleted(), tagDel.Tag())
	}
	if pt := parse("152-push-none.json").(*PushEvent); pt.Ref != "feature" || pt.Branch() != "feature" {
		t.Errorf("152 hook test with ref: ref %q branch %q", pt.Ref, pt.Branch())
	}

	cr := parse("013-create-branch.json").(*CreateEvent)
	crGitea := parse("014-create-branch.json").(*CreateEvent)
	if cr.RefType != "branch" || !strings.HasPrefix(cr.Ref, "refs/heads/") || crGitea.Ref != strings.TrimPrefix(cr.Ref, "refs/heads/") || cr.SHA == "" {
		t.Errorf("013/014 create: %q %q %q", cr.RefType, cr.Ref, crGitea.Ref)
	}
	del := parse("043-delete-tag.json").(*DeleteEvent)
	if del.RefType != "tag" || del.PusherType != "user" {
		t.Errorf("043 delete: %+v", del)
	}
	fork := parse("074-fork-none.json").(*ForkEvent)
	if fork.Forkee.FullName != "forgego-admin/hooks-demo" || fork.Repository.FullName != "forgego-user2/hooks-demo" || !fork.Repository.Fork {
		t.Errorf("074 fork: forkee %q repository %q", fork.Forkee.FullName, fork.Repository.FullName)
	}

	issue := parse("055-issues-opened.json").(*IssuesEvent)
	if issue.Action != "opened" || issue.Number != 1 || issue.Issue.Number != 1 || issue.Issue.Title == "" {
		t.Errorf("055 issue: %+v", issue)
	}
	if e := parse("075-issues-edited.json").(*IssuesEvent); e.Changes == nil || e.Changes.Title == nil || e.Changes.Title.From != "First issue" {
		t.Errorf("075 changes: %+v", e.Changes)
	}
	lbl := parse("081-issue_label-label_updated.json").(*IssuesEvent)
	if lbl.EventType() != EventIssueLabel || lbl.EventFamily() != "issues" || lbl.Action != "label_updated" || len(lbl.Issue.Labels) == 0 || lbl.Issue.Labels[0].Name == "" {
		t.Errorf("081 label: %+v", lbl.Issue.Labels)
	}
	// A quirk of Forgejo 15: label_cleared carries the issue as it was
	// before the labels were removed.
	if e := parse("084-issue_label-label_cleared.json").(*IssuesEvent); strings.Join(labelNames(e.Issue.Labels), ",") != "feature" {
		t.Errorf("084 label_cleared labels %v, want the labels before clearing [feature]", labelNames(e.Issue.Labels))
	}
	if e := parse("085-issue_milestone-milestoned.json").(*IssuesEvent); e.Issue.Milestone == nil || e.Issue.Milestone.Title == "" {
		t.Errorf("085 milestone missing")
	}
	com := parse("087-issue_comment-created.json").(*IssueCommentEvent)
	if com.Action != "created" || com.IsPull || com.Comment.Body != "a comment" || com.Issue.Number != 1 {
		t.Errorf("087 comment: %+v", com.Comment)
	}
	prc := parse("112-pull_request_comment-created.json").(*IssueCommentEvent)
	if !prc.IsPull || prc.PullRequest == nil || prc.PullRequest.Number != 3 || prc.EventFamily() != "issue_comment" {
		t.Errorf("112 PR conversation comment: is_pull %v", prc.IsPull)
	}

	pr := parse("093-pull_request-opened.json").(*PullRequestEvent)
	if pr.Number != 3 || pr.PullRequest.Number != 3 || pr.PullRequest.Head.Ref != "feature" || pr.PullRequest.Base.Ref != "main" || pr.Review != nil {
		t.Errorf("093 PR: %+v", pr.PullRequest)
	}
	if e := parse("116-pull_request-closed.json").(*PullRequestEvent); !e.PullRequest.Merged || e.PullRequest.MergedAt.IsZero() {
		t.Errorf("116 merge: merged %v", e.PullRequest.Merged)
	}
	if e := parse("096-pull_request-closed.json").(*PullRequestEvent); e.PullRequest.Merged {
		t.Errorf("096 close without merge says merged")
	}
	if e := parse("105-pull_request_review_request-review_requested.json").(*PullRequestEvent); e.RequestedReviewer == nil || e.RequestedReviewer.Login != "forgego-user2" {
		t.Errorf("105 requested reviewer: %+v", e.RequestedReviewer)
	}
	if e := parse("120-pull_request-edited.json").(*PullRequestEvent); e.Changes == nil || e.Changes.Ref == nil || e.Changes.Ref.From != "base2" {
		t.Errorf("120 base change: %+v", e.Changes)
	}
	for file, state := range map[string]forgejo.ReviewStateType{
		"108-pull_request_review_comment-reviewed.json":  forgejo.ReviewStateComment,
		"109-pull_request_review_rejected-reviewed.json": forgejo.ReviewStateRequestChanges,
		"111-pull_request_review_approved-reviewed.json": forgejo.ReviewStateApproved,
	} {
		rv := parse(file).(*PullRequestReviewEvent)
		if rv.State() != state || rv.Action != "reviewed" || rv.Review.Content == "" || rv.PullRequest.Number != 3 {
			t.Errorf("%s: state %q, review %+v", file, rv.State(), rv.Review)
		}
	}

	rel := parse("124-release-published.json").(*ReleaseEvent)
	if rel.Action != "published" || rel.Release.TagName == "" || rel.Release.Author.Login != "forgego-admin" {
		t.Errorf("124 release: %+v", rel.Release)
	}
	repo := parse("144-repository-created.json").(*RepositoryEvent)
	if repo.Repository.FullName != "forgego-hooks-org/org-demo" || repo.Organization.Login != "forgego-hooks-org" {
		t.Errorf("144 repository: %q org %q", repo.Repository.FullName, repo.Organization.Login)
	}
	wiki := parse("135-wiki-edited.json").(*WikiEvent)
	if wiki.Page != "unnamed" || wiki.Comment != "edit Second" {
		t.Errorf("135 wiki: %+v", wiki)
	}
	pkg := parse("136-package-created.json").(*PackageEvent)
	if pkg.EventFamily() != "" || pkg.Package.Name != "demo-pkg" || pkg.Package.Version != "1.0.0" || pkg.Package.Type != "generic" || pkg.Repository != nil {
		t.Errorf("136 package: %+v", pkg.Package)
	}
}

// TestCaptureHeadersAreBuild rebuilds every captured delivery with Build
// and compares the header lines (after Host, User-Agent, Content-Length and
// before Accept-Encoding, which Go's client adds) and the body byte for byte.
func TestCaptureHeadersAreBuild(t *testing.T) {
	for _, c := range loadCaptures(t) {
		t.Run(c.name, func(t *testing.T) {
			typ := EventType(c.header.Get("X-Forgejo-Event-Type"))
			out := Build(typ, c.payload, BuildOptions{Secret: testSecret, Form: c.form, DeliveryID: c.header.Get("X-Forgejo-Delivery")})
			var want []HeaderField
			for _, l := range c.lines {
				switch l.Name {
				case "Host", "User-Agent", "Content-Length", "Accept-Encoding":
				default:
					want = append(want, l)
				}
			}
			if fmt.Sprint(out.Header) != fmt.Sprint(want) {
				t.Errorf("headers\n got %v\nwant %v", out.Header, want)
			}
			if !bytes.Equal(out.Body, c.body) {
				t.Errorf("body differs from the capture")
			}
			wire := []string{"Host", "User-Agent", "Content-Length"}
			for i, name := range wire {
				if c.lines[i].Name != name {
					t.Errorf("capture line %d is %s, want %s", i, c.lines[i].Name, name)
				}
			}
		})
	}
}

// lost lists the keys of file that do not survive a decode into the typed
// event and an encode back, and the values that change (a null read as a
// zero value is not a change).
func lost(at string, file, typed any, out *[]string) {
	switch f := file.(type) {
	case map[string]any:
		tm, _ := typed.(map[string]any)
		for k, v := range f {
			tv, ok := tm[k]
			if !ok {
				if k == "username" {
					continue // deprecated duplicate of login, not in forgejo.User
				}
				*out = append(*out, at+"."+k)
				continue
			}
			lost(at+"."+k, v, tv, out)
		}
	case []any:
		ts, _ := typed.([]any)
		if len(ts) != len(f) {
			*out = append(*out, at+" (length)")
			return
		}
		for i := range f {
			lost(fmt.Sprintf("%s.%d", at, i), f[i], ts[i], out)
		}
	case nil:
		// null decodes as a zero value or nil.
	default:
		if fmt.Sprint(f) != fmt.Sprint(typed) {
			// Times are re-encoded with time.Time's layout; compare parsed.
			if fs, ok := f.(string); ok {
				if ts, ok := typed.(string); ok && sameTime(fs, ts) {
					return
				}
			}
			*out = append(*out, fmt.Sprintf("%s: %v -> %v", at, f, typed))
		}
	}
}

func sameTime(a, b string) bool {
	ta, err1 := time.Parse(time.RFC3339Nano, a)
	tb, err2 := time.Parse(time.RFC3339Nano, b)
	return err1 == nil && err2 == nil && ta.Equal(tb)
}

// TestCapturesLoseNothing checks that the payload types, built on the API
// models, keep every key and value of every capture.
func TestCapturesLoseNothing(t *testing.T) {
	p := mustParser(t, WithSecret(testSecret))
	for _, c := range loadCaptures(t) {
		ev, err := p.Parse(c.body, c.header)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		re, err := json.Marshal(ev)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var file, typed any
		if err := json.Unmarshal(c.payload, &file); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(re, &typed); err != nil {
			t.Fatal(err)
		}
		var out []string
		lost("", file, typed, &out)
		if len(out) > 0 {
			sort.Strings(out)
			t.Errorf("%s: lost %d: %v", c.name, len(out), out[:min(len(out), 10)])
		}
	}
}
