package forgejotest

import (
	"bufio"
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/webhook"
)

// receiver is a bot's endpoint: a webhook.Handler that verifies the
// signature and keeps every event it accepted.
type receiver struct {
	mu     sync.Mutex
	events []webhook.Event
	url    string
}

func newReceiver(t *testing.T, secret string) *receiver {
	t.Helper()
	p, err := webhook.NewParser(webhook.WithSecret(secret))
	if err != nil {
		t.Fatal(err)
	}
	rc := &receiver{}
	r := webhook.NewRouter()
	h, err := webhook.NewHandler(p, r, webhook.WithErrorFunc(func(_ *http.Request, err error) { t.Errorf("the handler refused a delivery: %v", err) }))
	if err != nil {
		t.Fatal(err)
	}
	r.HandleDefault(func(_ context.Context, e webhook.Event) error {
		rc.mu.Lock()
		defer rc.mu.Unlock()
		rc.events = append(rc.events, e)
		return nil
	})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	rc.url = ts.URL + "/hook"
	return rc
}

func (rc *receiver) take() []webhook.Event {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	out := rc.events
	rc.events = nil
	return out
}

// TestDeliveriesEndToEnd: changes made through the client reach a bot's
// handler as signed deliveries whose typed events match the changes.
func TestDeliveriesEndToEnd(t *testing.T) {
	ctx := context.Background()
	const secret = "bot-secret"
	srv := NewServer(t)
	me := srv.DefaultUser()
	srv.AddRepo(me, "bot")
	c := srv.Client()
	rc := newReceiver(t, secret)
	_, _, err := c.Repos.CreateHook(ctx, me, "bot", forgejo.CreateHookRequest{
		Type: forgejo.HookTypeForgejo, Active: true,
		Config: forgejo.HookConfig{"url": rc.url, "content_type": "json", "secret": secret},
		Events: []string{"issues", "issue_comment", "push", "create", "release", "pull_request"},
	})
	if err != nil {
		t.Fatal(err)
	}
	wait := func() []webhook.Event {
		t.Helper()
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := srv.WaitDeliveries(wctx); err != nil {
			t.Fatal(err)
		}
		return rc.take()
	}

	is, _, err := c.Issues.Create(ctx, me, "bot", forgejo.CreateIssueRequest{Title: "It broke"})
	if err != nil {
		t.Fatal(err)
	}
	evs := wait()
	if len(evs) != 1 {
		t.Fatalf("after opening an issue: %d events", len(evs))
	}
	ie, ok := evs[0].(*webhook.IssuesEvent)
	if !ok || ie.Action != "opened" || ie.Number != is.Number || ie.Issue.Title != "It broke" || ie.Repository.FullName != me+"/bot" || ie.Sender.Login != me {
		t.Fatalf("opened: %#v", evs[0])
	}

	_, _, err = c.Issues.Edit(ctx, me, "bot", is.Number, forgejo.EditIssueRequest{Title: forgejo.Ptr("It broke badly"), State: forgejo.Ptr(forgejo.StateClosed)})
	if err != nil {
		t.Fatal(err)
	}
	evs = wait()
	if len(evs) != 2 {
		t.Fatalf("after editing and closing: %d events", len(evs))
	}
	if e := evs[0].(*webhook.IssuesEvent); e.Action != "edited" || e.Changes == nil || e.Changes.Title == nil || e.Changes.Title.From != "It broke" {
		t.Errorf("edited: %+v", e)
	}
	if e := evs[1].(*webhook.IssuesEvent); e.Action != "closed" || e.Issue.State != "closed" {
		t.Errorf("closed: %+v", e)
	}

	if _, _, err := c.Issues.CreateComment(ctx, me, "bot", is.Number, forgejo.CreateIssueCommentRequest{Body: "on it"}); err != nil {
		t.Fatal(err)
	}
	evs = wait()
	if ce, ok := evs[0].(*webhook.IssueCommentEvent); len(evs) != 1 || !ok || ce.Action != "created" || ce.Comment.Body != "on it" || ce.Issue.Number != is.Number {
		t.Errorf("comment: %#v", evs)
	}

	l, _, err := c.Issues.CreateLabel(ctx, me, "bot", forgejo.CreateLabelRequest{Name: "bug", Color: "ee0701"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Issues.AddLabelsToIssue(ctx, me, "bot", is.Number, forgejo.IssueLabelsRequest{Labels: forgejo.LabelIDs(l.ID)}); err != nil {
		t.Fatal(err)
	}
	evs = wait()
	if le, ok := evs[0].(*webhook.IssuesEvent); len(evs) != 1 || !ok || le.EventType() != webhook.EventIssueLabel || le.Action != "label_updated" || len(le.Issue.Labels) != 1 {
		t.Errorf("label: %#v", evs)
	}

	fr, _, err := c.Repos.CreateFile(ctx, me, "bot", "docs/bot.md", forgejo.CreateFileRequest{Content: base64.StdEncoding.EncodeToString([]byte("hello\n")), Message: "Add the bot's page"})
	if err != nil {
		t.Fatal(err)
	}
	evs = wait()
	pe, ok := evs[0].(*webhook.PushEvent)
	if len(evs) != 1 || !ok || pe.Ref != "refs/heads/main" || pe.After != fr.Commit.SHA || len(pe.Commits) != 1 || !slices.Equal(pe.Commits[0].Added, []string{"docs/bot.md"}) {
		t.Errorf("push: %#v", evs)
	}
	// Forgejo 15 sends "verification": null in a contents-API push.
	if !strings.Contains(string(pe.Payload()), `"verification":null`) || pe.Commits[0].Verification != nil {
		t.Errorf("push commit verification: %s", pe.Payload())
	}

	rel, _, err := c.Repos.CreateRelease(ctx, me, "bot", forgejo.CreateReleaseRequest{TagName: "v1.0.0", Name: "One"})
	if err != nil {
		t.Fatal(err)
	}
	evs = wait()
	// A release that creates its tag sends push (the tag) and create
	// first, as Forgejo 15 does.
	if len(evs) != 3 {
		t.Fatalf("release: %#v", evs)
	}
	if tp, ok := evs[0].(*webhook.PushEvent); !ok || tp.Tag() != "v1.0.0" || !tp.Created() || len(tp.Commits) != 0 || tp.HeadCommit == nil || tp.HeadCommit.Verification != nil {
		t.Errorf("release's tag push: %#v", evs[0])
	}
	if ce, ok := evs[1].(*webhook.CreateEvent); !ok || ce.Ref != "refs/tags/v1.0.0" || ce.RefType != "tag" || ce.SHA == "" {
		t.Errorf("release's tag create: %#v", evs[1])
	}
	if re, ok := evs[2].(*webhook.ReleaseEvent); !ok || re.Action != webhook.ReleasePublished || re.Release.ID != rel.ID || re.Release.TagName != "v1.0.0" {
		t.Errorf("release: %#v", evs)
	}
	// A release on an existing tag sends the release only.
	if _, _, err := c.Repos.CreateRelease(ctx, me, "bot", forgejo.CreateReleaseRequest{TagName: "v1.0.0", Name: "again"}); err == nil {
		t.Error("a second release on one tag was accepted")
	}

	srv.AddBranch(me, "bot", "feature")
	pr, _, err := c.PullRequests.Create(ctx, me, "bot", forgejo.CreatePullRequestRequest{Head: "feature", Base: "main", Title: "Feature"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.PullRequests.Merge(ctx, me, "bot", pr.Number, forgejo.MergePullRequestRequest{Style: "merge"}); err != nil {
		t.Fatal(err)
	}
	evs = wait()
	if len(evs) != 2 {
		t.Fatalf("after opening and merging a pull request: %d events", len(evs))
	}
	if e, ok := evs[0].(*webhook.PullRequestEvent); !ok || e.Action != "opened" || e.PullRequest.Number != pr.Number {
		t.Errorf("pull opened: %#v", evs[0])
	}
	if e, ok := evs[1].(*webhook.PullRequestEvent); !ok || e.Action != "closed" || !e.PullRequest.Merged {
		t.Errorf("pull merged: %#v", evs[1])
	}

	// Every delivery carries Forgejo's header set, as captured.
	want := capturedHeaderNames(t, "../webhook/testdata/055-issues-opened.headers.txt")
	for _, d := range srv.Deliveries() {
		var got []string
		for k := range d.Header {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("delivery %s headers %v, want %v", d.Event, got, want)
		}
		if !d.Done || d.Err != "" || d.Status != http.StatusOK {
			t.Errorf("delivery %s: done %v status %d err %q", d.Event, d.Done, d.Status, d.Err)
		}
	}
}

func capturedHeaderNames(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, _, _ := strings.Cut(sc.Text(), ":")
		switch name {
		case "Host", "User-Agent", "Content-Length", "Accept-Encoding", "":
			continue // added by Go's HTTP client, not by Forgejo
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// TestDeliveryFailureIsRecorded: a receiver that is down or refuses does
// not fail the API call; the attempt is recorded.
func TestDeliveryFailureIsRecorded(t *testing.T) {
	ctx := context.Background()
	srv := NewServer(t)
	me := srv.DefaultUser()
	srv.AddRepo(me, "down")
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) }))
	defer refusing.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	goneURL := gone.URL
	gone.Close()
	for _, u := range []string{refusing.URL, goneURL} {
		if _, _, err := srv.Client().Repos.CreateHook(ctx, me, "down", forgejo.CreateHookRequest{
			Type: forgejo.HookTypeGitea, Active: true, Config: forgejo.HookConfig{"url": u, "content_type": "form"}, Events: []string{"issues"},
		}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := srv.Client().Issues.Create(ctx, me, "down", forgejo.CreateIssueRequest{Title: "x"}); err != nil {
		t.Fatalf("the API call failed with the receivers: %v", err)
	}
	if err := srv.WaitDeliveries(ctx); err != nil {
		t.Fatal(err)
	}
	ds := srv.Deliveries()
	if len(ds) != 2 || ds[0].Status != 500 || ds[0].Err == "" || ds[1].Status != 0 || ds[1].Err == "" {
		t.Fatalf("deliveries %+v", ds)
	}
	if ct := ds[0].Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" || !strings.HasPrefix(string(ds[0].Body), "payload=") {
		t.Errorf("form delivery: %q %.40s", ct, ds[0].Body)
	}
}
