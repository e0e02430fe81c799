package forgejotest

import (
	"context"
	"net/http"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// A stopwatch books the time it ran, measured by the server's clock;
// starting one on another issue stops the running one first.
func TestStopwatchBooksTime(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	srv := NewServer(t, WithClock(clk))
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	a := srv.AddIssue(owner, "demo", IssueSpec{Title: "a"})
	b := srv.AddIssue(owner, "demo", IssueSpec{Title: "b"})
	ctx, c := context.Background(), srv.Client()

	if _, err := c.Issues.StartStopwatch(ctx, owner, "demo", a); err != nil {
		t.Fatal(err)
	}
	clk.Advance(90 * time.Second)
	ws, _, err := c.Users.ListStopwatches(ctx, nil)
	if err != nil || len(ws) != 1 || ws[0].Seconds != 90 || ws[0].Duration != "1 minute 30 seconds" || ws[0].IssueIndex != a {
		t.Fatalf("stopwatches after 90s: %+v, %v", ws, err)
	}
	clk.Advance(3600 * time.Second)
	if _, err := c.Issues.StartStopwatch(ctx, owner, "demo", b); err != nil {
		t.Fatal(err)
	}
	times, _, err := c.Issues.ListTrackedTimes(ctx, owner, "demo", a, nil)
	if err != nil || len(times) != 1 || times[0].Time != 3690 {
		t.Fatalf("issue a's times after starting on b: %+v, %v", times, err)
	}
	ws, _, _ = c.Users.ListStopwatches(ctx, nil)
	if len(ws) != 1 || ws[0].IssueIndex != b {
		t.Fatalf("one stopwatch, on b: %+v", ws)
	}
	for sec, want := range map[int64]string{90: "1 minute 30 seconds", 2*3600 + 60 + 5: "2 hours 1 minute", 59: "59 seconds",
		3*86400 + 4*3600: "3 days 4 hours", 9 * 86400: "1 week 2 days", 400 * 86400: "1 year 1 month"} {
		if got := secToTime(sec); got != want {
			t.Errorf("secToTime(%d) = %q, want %q", sec, got, want)
		}
	}
}

// Who may track time: the poster and writers; a reader who lists times
// sees their own, and asking for someone else's is 403.
func TestTrackedTimePermissions(t *testing.T) {
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	tokB := srv.AddUser("bob")
	srv.AddUser("carol")
	n := srv.AddIssue(owner, "demo", IssueSpec{Title: "by owner"})
	mine := srv.AddIssue(owner, "demo", IssueSpec{Title: "by bob", Author: "bob"})
	ctx, c, bob := context.Background(), srv.Client(), srv.Client(forgejo.WithToken(tokB))

	_, _, err := bob.Issues.AddTrackedTime(ctx, owner, "demo", n, forgejo.AddTimeRequest{Time: 60})
	if statusOf(t, err) != http.StatusForbidden {
		t.Errorf("a reader on another's issue: %v", err)
	}
	if _, _, err := bob.Issues.AddTrackedTime(ctx, owner, "demo", mine, forgejo.AddTimeRequest{Time: 60}); err != nil {
		t.Errorf("the poster: %v", err)
	}
	if _, _, err := c.Issues.AddTrackedTime(ctx, owner, "demo", mine, forgejo.AddTimeRequest{Time: 30, UserName: "carol"}); err != nil {
		t.Errorf("the owner books for carol: %v", err)
	}
	times, _, err := bob.Issues.ListTrackedTimes(ctx, owner, "demo", mine, nil)
	if err != nil || len(times) != 1 || times[0].UserName != "bob" {
		t.Errorf("bob sees his own: %+v, %v", times, err)
	}
	_, _, err = bob.Issues.ListTrackedTimes(ctx, owner, "demo", mine, &forgejo.IssueListTrackedTimesOptions{User: "carol"})
	if statusOf(t, err) != http.StatusForbidden {
		t.Errorf("bob asks for carol's: %v", err)
	}
	all, resp, err := c.Repos.ListTrackedTimes(ctx, owner, "demo", &forgejo.RepoListTrackedTimesOptions{ListOptions: forgejo.ListOptions{Page: 1, Limit: 1}})
	total, _ := resp.TotalCount()
	if err != nil || len(all) != 1 || total != 2 {
		t.Errorf("the owner pages all times: %d (total %d), %v", len(all), total, err)
	}
	// A deleted issue's times are gone from the listings across repositories.
	if _, err := c.Issues.Delete(ctx, owner, "demo", mine); err != nil {
		t.Fatal(err)
	}
	if left, _, _ := bob.Users.ListTrackedTimes(ctx, nil); len(left) != 0 {
		t.Errorf("bob's times after the issue went: %+v", left)
	}
}

// Three pins per repository and kind; a fourth is Forgejo's 500.
func TestPinLimit(t *testing.T) {
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	ctx, c := context.Background(), srv.Client()
	for _, n := range srv.AddIssues(owner, "demo", 3) {
		if _, err := c.Issues.Pin(ctx, owner, "demo", n); err != nil {
			t.Fatal(err)
		}
	}
	allowed, _, err := c.Repos.GetNewPinAllowed(ctx, owner, "demo")
	if err != nil || allowed.Issues || !allowed.PullRequests {
		t.Errorf("pins allowed with three pinned: %+v, %v", allowed, err)
	}
	n := srv.AddIssue(owner, "demo", IssueSpec{Title: "fourth"})
	if _, err := c.Issues.Pin(ctx, owner, "demo", n); statusOf(t, err) != http.StatusInternalServerError {
		t.Errorf("a fourth pin: %v", err)
	}
	if _, err := c.Issues.MovePin(ctx, owner, "demo", 1, 9); err != nil {
		t.Fatal(err)
	}
	ps, _, _ := c.Issues.ListPinned(ctx, owner, "demo")
	if len(ps) != 3 || ps[2].Number != 1 || ps[2].PinOrder != 3 {
		t.Errorf("moved past the end: %+v", ps)
	}
}

func TestTimelinePaging(t *testing.T) {
	srv := NewServer(t)
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	n := srv.AddIssue(owner, "demo", IssueSpec{Title: "x", Comments: []CommentSpec{{Body: "one"}, {Body: "two"}, {Body: "three"}}})
	ctx, c := context.Background(), srv.Client()
	if _, err := c.Issues.Pin(ctx, owner, "demo", n); err != nil {
		t.Fatal(err)
	}
	all, resp, err := c.Issues.ListTimeline(ctx, owner, "demo", n, nil)
	total, _ := resp.TotalCount()
	if err != nil || len(all) != 4 || total != 4 || all[3].Type != "pin" || all[0].Body != "one" {
		t.Fatalf("timeline: %d (total %d), %v", len(all), total, err)
	}
	page, resp, err := c.Issues.ListTimeline(ctx, owner, "demo", n, &forgejo.IssueListTimelineOptions{ListOptions: forgejo.ListOptions{Page: 2, Limit: 3}})
	total, _ = resp.TotalCount()
	if err != nil || len(page) != 1 || total != 1 {
		t.Errorf("page 2 of 3: %d (total header %d, the page's length), %v", len(page), total, err)
	}
}
