package integration

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
)

// TestPullRequestLifecycle opens a pull request from a branch, reviews it
// (user2), updates it from its base, merges it and reads it back: the
// instance says state "closed", and EffectiveState must say merged. A
// second pull request is closed unmerged, for contrast.
func TestPullRequestLifecycle(t *testing.T) {
	c, u2 := admin(t), user2(t)
	owner, repo := need(t).admin, newGitRepo(t, c)
	reviewer := need(t).user2
	_, err := c.Repos.AddCollaborator(ctx(t), owner, repo, reviewer, forgejo.AddCollaboratorRequest{Permission: "write"})
	ok(t, "add reviewer as collaborator", err)

	// Two branches, one commit each.
	_, _, err = c.Repos.CreateFile(ctx(t), owner, repo, "pr.txt", forgejo.CreateFileRequest{
		Content: b64("line one\nline two\n"), Message: "the change", Branch: "main", NewBranch: "feature/pr",
	})
	ok(t, "branch feature/pr", err)
	_, _, err = c.Repos.CreateFile(ctx(t), owner, repo, "other.txt", forgejo.CreateFileRequest{
		Content: b64("other\n"), Message: "another change", Branch: "main", NewBranch: "feature/other",
	})
	ok(t, "branch feature/other", err)

	pr, resp, err := c.PullRequests.Create(ctx(t), owner, repo, forgejo.CreatePullRequestRequest{
		Head: "feature/pr", Base: "main", Title: "Add pr.txt", Body: "please merge",
	})
	ok(t, "create pull request", err)
	if pr.Number == 0 || pr.State != forgejo.StateOpen || pr.Merged || pr.EffectiveState() != forgejo.StateOpen || pr.IsMerged() ||
		pr.Head == nil || pr.Head.Ref != "feature/pr" || pr.Base == nil || pr.Base.Ref != "main" || status(resp) != http.StatusCreated {
		t.Fatalf("created pull request (%d) = %+v", status(resp), pr)
	}
	// The same head and base again is a conflict.
	_, _, err = c.PullRequests.Create(ctx(t), owner, repo, forgejo.CreatePullRequestRequest{Head: "feature/pr", Base: "main", Title: "again"})
	mustStatus(t, err, http.StatusConflict)
	other, _, err := c.PullRequests.Create(ctx(t), owner, repo, forgejo.CreatePullRequestRequest{Head: "feature/other", Base: "main", Title: "Other"})
	ok(t, "second pull request", err)

	got, _, err := c.PullRequests.Get(ctx(t), owner, repo, pr.Number)
	if err != nil || got.Title != "Add pr.txt" || got.Body != "please merge" || !got.Mergeable {
		t.Fatalf("get pull request = %+v, %v", got, err)
	}
	got, _, err = c.PullRequests.Edit(ctx(t), owner, repo, pr.Number, forgejo.EditPullRequestRequest{Body: forgejo.Ptr("please merge soon")})
	if err != nil || got.Body != "please merge soon" {
		t.Fatalf("edit pull request = %+v, %v", got, err)
	}
	open, _, err := c.PullRequests.List(ctx(t), owner, repo, &forgejo.PullRequestListOptions{State: "open"})
	if err != nil || len(open) != 2 {
		t.Fatalf("open pull requests = %d, %v", len(open), err)
	}
	byHead, _, err := c.PullRequests.GetByBaseHead(ctx(t), owner, repo, "main", "feature/pr")
	if err != nil || byHead.Number != pr.Number {
		t.Fatalf("pull request by base and head = %+v, %v", byHead, err)
	}
	commits, _, err := c.PullRequests.ListCommits(ctx(t), owner, repo, pr.Number, nil)
	if err != nil || len(commits) != 1 || commits[0].Commit == nil || commits[0].Commit.Message != "the change\n" {
		t.Fatalf("pull request commits = %v, %v", commits, err)
	}
	files, _, err := c.PullRequests.ListFiles(ctx(t), owner, repo, pr.Number, nil)
	if err != nil || len(files) != 1 || files[0].Filename != "pr.txt" || files[0].Status != "added" || files[0].Additions != 2 {
		t.Fatalf("pull request files = %+v, %v", files, err)
	}
	diff, _, err := c.PullRequests.GetDiff(ctx(t), owner, repo, pr.Number, "diff", nil)
	if err != nil || !strings.Contains(diff, "+line one") {
		t.Fatalf("pull request diff = %q, %v", diff, err)
	}
	patch, _, err := c.PullRequests.GetDiff(ctx(t), owner, repo, pr.Number, "patch", &forgejo.PullRequestGetDiffOptions{Binary: forgejo.Ptr(true)})
	if err != nil || !strings.Contains(patch, "Subject: [PATCH] the change") {
		t.Fatalf("pull request patch = %q, %v", patch, err)
	}
	resp, err = c.Issues.Pin(ctx(t), owner, repo, other.Number)
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("pin a pull request: %d, %v", status(resp), err)
	}
	pinned, _, err := c.PullRequests.ListPinned(ctx(t), owner, repo)
	if err != nil || len(pinned) != 1 || pinned[0].Number != other.Number {
		t.Fatalf("pinned pull requests = %v, %v", pinned, err)
	}
	merged, _, err := c.PullRequests.IsMerged(ctx(t), owner, repo, pr.Number)
	if err != nil || merged {
		t.Fatalf("is merged before merging = %v, %v", merged, err)
	}

	t.Run("reviews", func(t *testing.T) {
		reqs, resp, err := c.PullRequests.RequestReviewers(ctx(t), owner, repo, pr.Number, forgejo.PullReviewersRequest{Reviewers: []string{reviewer}})
		ok(t, "request review", err)
		if len(reqs) != 1 || reqs[0].State != forgejo.ReviewStateRequestReview || reqs[0].User == nil || reqs[0].User.Login != reviewer || status(resp) != http.StatusCreated {
			t.Fatalf("review requests (%d) = %+v", status(resp), reqs)
		}
		got, _, _ := c.PullRequests.Get(ctx(t), owner, repo, pr.Number)
		if len(got.RequestedReviewers) != 1 {
			t.Fatalf("requested reviewers = %v", logins(got.RequestedReviewers))
		}
		resp, err = c.PullRequests.RemoveReviewers(ctx(t), owner, repo, pr.Number, forgejo.PullReviewersRequest{Reviewers: []string{reviewer}})
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("cancel review request: %d, %v", status(resp), err)
		}

		rv, _, err := u2.PullRequests.CreateReview(ctx(t), owner, repo, pr.Number, forgejo.CreatePullReviewRequest{
			Event: forgejo.ReviewStateApproved, Body: "looks good",
			Comments: []*forgejo.CreatePullReviewComment{{Path: "pr.txt", Body: "nice line", NewPosition: 1}},
		})
		ok(t, "approve", err)
		if rv.State != forgejo.ReviewStateApproved || rv.Body != "looks good" || rv.CommentsCount != 1 || rv.User == nil || rv.User.Login != reviewer {
			t.Fatalf("review = %+v", rv)
		}
		list, _, err := c.PullRequests.ListReviews(ctx(t), owner, repo, pr.Number, nil)
		if err != nil || len(list) == 0 {
			t.Fatalf("reviews = %v, %v", list, err)
		}
		one, _, err := c.PullRequests.GetReview(ctx(t), owner, repo, pr.Number, rv.ID)
		if err != nil || one.ID != rv.ID || one.State != forgejo.ReviewStateApproved {
			t.Fatalf("get review = %+v, %v", one, err)
		}
		comments, _, err := c.PullRequests.ListReviewComments(ctx(t), owner, repo, pr.Number, rv.ID)
		if err != nil || len(comments) != 1 || comments[0].Body != "nice line" || comments[0].Path != "pr.txt" || comments[0].PullRequestReviewID != rv.ID {
			t.Fatalf("review comments = %+v, %v", comments, err)
		}
		dis, _, err := c.PullRequests.DismissReview(ctx(t), owner, repo, pr.Number, rv.ID, forgejo.DismissPullReviewRequest{Message: "stale"})
		if err != nil || !dis.Dismissed {
			t.Fatalf("dismiss = %+v, %v", dis, err)
		}
		und, _, err := c.PullRequests.UndismissReview(ctx(t), owner, repo, pr.Number, rv.ID)
		if err != nil || und.Dismissed {
			t.Fatalf("undismiss = %+v, %v", und, err)
		}

		// A pending review, then submitted as a comment.
		pending, _, err := u2.PullRequests.CreateReview(ctx(t), owner, repo, pr.Number, forgejo.CreatePullReviewRequest{Body: "thinking"})
		if err != nil || pending.State != forgejo.ReviewStatePending {
			t.Fatalf("pending review = %+v, %v", pending, err)
		}
		sub, _, err := u2.PullRequests.SubmitReview(ctx(t), owner, repo, pr.Number, pending.ID, forgejo.SubmitPullReviewRequest{Event: forgejo.ReviewStateComment, Body: "thought"})
		if err != nil || sub.State != forgejo.ReviewStateComment {
			t.Fatalf("submitted review = %+v, %v", sub, err)
		}
		// Another pending one, deleted.
		pending, _, err = u2.PullRequests.CreateReview(ctx(t), owner, repo, pr.Number, forgejo.CreatePullReviewRequest{Body: "never mind"})
		ok(t, "second pending review", err)
		resp, err = u2.PullRequests.DeleteReview(ctx(t), owner, repo, pr.Number, pending.ID)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete review: %d, %v", status(resp), err)
		}
		_, _, err = c.PullRequests.GetReview(ctx(t), owner, repo, pr.Number, pending.ID)
		mustStatus(t, err, http.StatusNotFound)
	})

	// Gitea re-checks a pull request in the background after every push
	// to its base or head, and a GET of the pull request during that check
	// can hang until the client gives up (HAZARDS.md). Reads of pull
	// requests from here on go through a client with a short per-attempt
	// timeout: a read is retried, so a hang costs seconds, not the test.
	reader := client(t, need(t).adminToken, forgejo.WithAttemptTimeout(5*time.Second),
		forgejo.WithRetryPolicy(forgejo.RetryPolicy{MaxAttempts: 4, BaseDelay: 10 * time.Millisecond, MaxDelay: 100 * time.Millisecond}))

	t.Run("merge", func(t *testing.T) {
		// Gitea refuses a merge while it checks the pull request with 405
		// "Please try again later" (HAZARDS.md). Try again, briefly.
		resp, err := retryLater(t, func() (*forgejo.Response, error) {
			return c.PullRequests.Merge(ctx(t), owner, repo, pr.Number, forgejo.MergePullRequestRequest{
				Style: forgejo.MergeStyleMerge, Title: "Merge the change", DeleteBranchAfterMerge: true,
			})
		})
		if err != nil || status(resp) != http.StatusOK {
			t.Fatalf("merge: %d, %v", status(resp), err)
		}
		// Merging twice is refused: 405 "The PR is already merged" on Gitea,
		// 405 with an empty message on Forgejo 15 (HAZARDS.md §22): branch
		// on the status.
		_, err = c.PullRequests.Merge(ctx(t), owner, repo, pr.Number, forgejo.MergePullRequestRequest{Style: forgejo.MergeStyleMerge})
		if ae := mustStatus(t, err, http.StatusMethodNotAllowed); !onForgejo(t) && !strings.Contains(ae.Message, "already merged") {
			t.Fatalf("second merge: %+v", ae)
		}
		is, _, err := reader.PullRequests.IsMerged(ctx(t), owner, repo, pr.Number)
		if err != nil || !is {
			t.Fatalf("is merged = %v, %v", is, err)
		}
		got, _, err := reader.PullRequests.Get(ctx(t), owner, repo, pr.Number)
		ok(t, "get merged", err)
		// The instance says "closed"; merge evidence must win.
		if got.State != forgejo.StateClosed || got.EffectiveState() != forgejo.StateMerged || !got.IsMerged() ||
			got.MergedAt.IsZero() || got.MergedBy == nil || got.MergedBy.Login != owner || got.MergeCommitSHA == "" {
			t.Fatalf("merged pull request: state %q, effective %q, merged_at %v, merged_by %v, merge commit %q",
				got.State, got.EffectiveState(), got.MergedAt, got.MergedBy, got.MergeCommitSHA)
		}
		closed, _, err := reader.PullRequests.List(ctx(t), owner, repo, &forgejo.PullRequestListOptions{State: "closed"})
		if err != nil || len(closed) != 1 || closed[0].State != forgejo.StateClosed || closed[0].EffectiveState() != forgejo.StateMerged {
			t.Fatalf("closed pull requests = %v, %v", closed, err)
		}
		// The issue view of the pull request says merged too.
		issue, _, err := reader.Issues.Get(ctx(t), owner, repo, pr.Number)
		if err != nil || issue.PullRequest == nil || !issue.PullRequest.Merged || issue.State != forgejo.StateClosed {
			t.Fatalf("issue view of the merged pull request = %+v, %v", issue.PullRequest, err)
		}
		byCommit, _, err := reader.PullRequests.GetByCommit(ctx(t), owner, repo, got.MergeCommitSHA)
		if err != nil || byCommit.Number != pr.Number {
			t.Fatalf("pull request of the merge commit = %+v, %v", byCommit, err)
		}
		// The head branch was deleted after the merge.
		_, _, err = reader.Repos.GetBranch(ctx(t), owner, repo, "feature/pr")
		mustStatus(t, err, http.StatusNotFound)
	})

	t.Run("update from base", func(t *testing.T) {
		// main moved with the merge: bring feature/other up to date with it.
		before, _, err := reader.Repos.GetBranch(ctx(t), owner, repo, "feature/other")
		ok(t, "feature/other", err)
		resp, err := retryLater(t, func() (*forgejo.Response, error) {
			return c.PullRequests.UpdateBranch(ctx(t), owner, repo, other.Number, &forgejo.PullRequestUpdateBranchOptions{Style: "merge"})
		})
		if err != nil || status(resp) != http.StatusOK {
			t.Fatalf("update: %d, %v", status(resp), err)
		}
		after, _, err := reader.Repos.GetBranch(ctx(t), owner, repo, "feature/other")
		ok(t, "feature/other after the update", err)
		head, _, err := reader.Repos.GetCommit(ctx(t), owner, repo, after.Commit.ID, &forgejo.RepoGetCommitOptions{Files: forgejo.Ptr(false), Stat: forgejo.Ptr(false)})
		if err != nil || after.Commit.ID == before.Commit.ID || len(head.Parents) != 2 {
			t.Fatalf("feature/other after the update: %s (was %s), %d parents, %v", after.Commit.ID, before.Commit.ID, len(head.Parents), err)
		}
	})

	t.Run("scheduled merge", func(t *testing.T) {
		// With a required status check missing, "merge when checks
		// succeed" schedules instead of merging; the schedule can be
		// cancelled.
		_, _, err := c.Repos.CreateBranchProtection(ctx(t), owner, repo, forgejo.CreateBranchProtectionRequest{
			RuleName: "main", EnableStatusCheck: true, StatusCheckContexts: []string{"it/required"},
		})
		ok(t, "protect main", err)
		cleanup(t, "protection", func(ctx context.Context) (*forgejo.Response, error) {
			return c.Repos.DeleteBranchProtection(ctx, owner, repo, "main")
		})
		resp, err := retryLater(t, func() (*forgejo.Response, error) {
			return c.PullRequests.Merge(ctx(t), owner, repo, other.Number, forgejo.MergePullRequestRequest{Style: forgejo.MergeStyleMerge, MergeWhenChecksSucceed: true})
		})
		if err != nil || status(resp) != http.StatusCreated {
			t.Fatalf("schedule merge: %d, %v", status(resp), err)
		}
		if is, _, _ := reader.PullRequests.IsMerged(ctx(t), owner, repo, other.Number); is {
			t.Fatal("a scheduled merge merged at once")
		}
		resp, err = c.PullRequests.CancelAutoMerge(ctx(t), owner, repo, other.Number)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("cancel scheduled merge: %d, %v", status(resp), err)
		}
		_, err = c.PullRequests.CancelAutoMerge(ctx(t), owner, repo, other.Number)
		mustStatus(t, err, http.StatusNotFound)
	})

	t.Run("closed unmerged", func(t *testing.T) {
		// Closed through the issue: the pull request answer is read back
		// with the reader (the update above started a background check).
		_, _, err := c.Issues.Edit(ctx(t), owner, repo, other.Number, forgejo.EditIssueRequest{State: forgejo.Ptr(forgejo.StateClosed)})
		ok(t, "close", err)
		got, _, err := reader.PullRequests.Get(ctx(t), owner, repo, other.Number)
		ok(t, "get closed", err)
		if got.State != forgejo.StateClosed || got.EffectiveState() != forgejo.StateClosed || got.IsMerged() || got.Merged {
			t.Fatalf("closed pull request: state %q, effective %q", got.State, got.EffectiveState())
		}
		is, _, err := reader.PullRequests.IsMerged(ctx(t), owner, repo, other.Number)
		if err != nil || is {
			t.Fatalf("closed pull request is merged = %v, %v", is, err)
		}
	})
}

// retryLater repeats a call Gitea refused with 405 "Please try again later"
// (a pull request being checked), for up to 30 s.
func retryLater(t *testing.T, call func() (*forgejo.Response, error)) (*forgejo.Response, error) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		resp, err := call()
		var ae *forgejo.APIError
		if !errors.As(err, &ae) || ae.StatusCode != http.StatusMethodNotAllowed || ae.Message != "Please try again later" || time.Now().After(deadline) {
			return resp, err
		}
	}
}
