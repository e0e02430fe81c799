package integration

import (
	"net/http"
	"testing"

	"codeberg.org/forgego/forgejo"
)

// TestNotifications makes notifications for user2 by mentioning it, lists
// them, and marks them read three ways: one thread, one repository, all.
// The mark-read answers are 205 with a body, which the client ignores.
func TestNotifications(t *testing.T) {
	c, u2 := admin(t), user2(t)
	owner, repo := need(t).admin, newRepo(t, c)
	user := need(t).user2
	mention := func(title string) int64 {
		t.Helper()
		is, _, err := c.Issues.Create(ctx(t), owner, repo, forgejo.CreateIssueRequest{Title: title, Body: "what do you think, @" + user + "?"})
		ok(t, "issue", err)
		return is.Number
	}
	// Start from nothing unread, whatever other tests left.
	_, err := u2.Notifications.MarkRead(ctx(t))
	ok(t, "mark all read first", err)

	n1 := mention("first mention")
	count, _, err := u2.Notifications.GetNewCount(ctx(t))
	if err != nil || count.New != 1 {
		t.Fatalf("new notifications = %+v, %v", count, err)
	}
	threads, resp, err := u2.Notifications.ListByRepo(ctx(t), owner, repo, nil)
	ok(t, "repo notifications", err)
	if len(threads) != 1 || !threads[0].Unread || threads[0].Subject == nil || threads[0].Subject.Title != "first mention" ||
		threads[0].Subject.Type != forgejo.NotifySubjectIssue || threads[0].Subject.State != forgejo.StateOpen ||
		threads[0].Repository == nil || threads[0].Repository.Name != repo {
		t.Fatalf("repo notifications = %+v", threads)
	}
	if n, ok := resp.TotalCount(); ok && n != 1 {
		t.Fatalf("repo notifications X-Total-Count = %d", n)
	}
	id := threads[0].ID
	all, _, err := u2.Notifications.List(ctx(t), &forgejo.NotificationListOptions{SubjectType: []forgejo.NotifySubjectFilter{forgejo.NotifySubjectFilterIssue}})
	if err != nil || len(all) == 0 || all[0].ID != id {
		t.Fatalf("notifications = %+v, %v", all, err)
	}
	th, _, err := u2.Notifications.GetThread(ctx(t), id)
	if err != nil || th.ID != id || !th.Unread || th.Subject.Title != "first mention" {
		t.Fatalf("thread = %+v, %v", th, err)
	}
	// Notifications need a token.
	_, _, err = client(t, "").Notifications.GetThread(ctx(t), id)
	mustStatus(t, err, http.StatusUnauthorized)

	// One thread.
	resp, err = u2.Notifications.MarkThreadRead(ctx(t), id)
	if err != nil || status(resp) != http.StatusResetContent {
		t.Fatalf("mark thread read: %d, %v", status(resp), err)
	}
	th, _, err = u2.Notifications.GetThread(ctx(t), id)
	if err != nil || th.Unread {
		t.Fatalf("thread after marking it read = %+v, %v", th, err)
	}
	if unread, _, _ := u2.Notifications.ListByRepo(ctx(t), owner, repo, nil); len(unread) != 0 {
		t.Fatalf("unread after marking the thread = %d", len(unread))
	}
	read, _, err := u2.Notifications.ListByRepo(ctx(t), owner, repo, &forgejo.NotificationListByRepoOptions{All: forgejo.Ptr(true)})
	if err != nil || len(read) != 1 || read[0].Unread {
		t.Fatalf("all repo notifications = %+v, %v", read, err)
	}

	// One repository.
	mention("second mention")
	if unread, _, _ := u2.Notifications.ListByRepo(ctx(t), owner, repo, nil); len(unread) != 1 {
		t.Fatalf("unread after the second mention = %d", len(unread))
	}
	resp, err = u2.Notifications.MarkRepoRead(ctx(t), owner, repo)
	if err != nil || status(resp) != http.StatusResetContent {
		t.Fatalf("mark repository read: %d, %v", status(resp), err)
	}
	if unread, _, _ := u2.Notifications.ListByRepo(ctx(t), owner, repo, nil); len(unread) != 0 {
		t.Fatalf("unread after marking the repository = %d", len(unread))
	}

	// Everything.
	mention("third mention")
	// A comment on the first issue notifies its participant again.
	_, _, err = c.Issues.CreateComment(ctx(t), owner, repo, n1, forgejo.CreateIssueCommentRequest{Body: "ping @" + user})
	ok(t, "comment", err)
	if count, _, _ = u2.Notifications.GetNewCount(ctx(t)); count.New != 2 {
		t.Fatalf("new notifications before marking all = %+v", count)
	}
	resp, err = u2.Notifications.MarkRead(ctx(t))
	if err != nil || status(resp) != http.StatusResetContent {
		t.Fatalf("mark all read: %d, %v", status(resp), err)
	}
	if count, _, _ = u2.Notifications.GetNewCount(ctx(t)); count.New != 0 {
		t.Fatalf("new notifications after marking all = %+v", count)
	}
}
