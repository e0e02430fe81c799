package forgejotest

import (
	"fmt"
	"regexp"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
)

// The contract scenario's steps for PullRequestsService: reviews, review
// requests and files. Same rules as contract_test.go; runScenario calls them in order.

func (s *scenario) reviews() {
	c1, c2 := s.tg.c1, s.tg.c2
	_, _, err := c1.Repos.CreateBranch(s.ctx, s.owner, s.repo, forgejo.CreateBranchRepoRequest{NewBranchName: "feature"})
	s.must(err, "branch")
	_, _, err = c1.Repos.CreateFile(s.ctx, s.owner, s.repo, "feature.txt", forgejo.CreateFileRequest{Content: b64("f\n"), Message: "feature", Branch: "feature"})
	s.must(err, "commit on the branch")
	pr, _, err := c1.PullRequests.Create(s.ctx, s.owner, s.repo, forgejo.CreatePullRequestRequest{Head: "feature", Base: "main", Title: "Feature"})
	s.must(err, "pull request")
	_, _, err = c1.PullRequests.CreateReview(s.ctx, s.owner, s.repo, pr.Number, forgejo.CreatePullReviewRequest{Event: "APPROVED", Body: "self"})
	e := s.apiErr(err, "approve own")
	s.note("approve your own pull: %d", e.StatusCode)
	rv, resp, err := c2.PullRequests.CreateReview(s.ctx, s.owner, s.repo, pr.Number, forgejo.CreatePullReviewRequest{Event: "APPROVED", Body: "lgtm"})
	s.must(err, "approve")
	s.note("user2 approves: %d state %s body %q official %v", resp.StatusCode, rv.State, rv.Body, rv.Official)
	pend, _, err := c2.PullRequests.CreateReview(s.ctx, s.owner, s.repo, pr.Number, forgejo.CreatePullReviewRequest{Body: "pending"})
	s.must(err, "pending review")
	sub, _, err := c2.PullRequests.SubmitReview(s.ctx, s.owner, s.repo, pr.Number, pend.ID, forgejo.SubmitPullReviewRequest{Event: "COMMENT", Body: "a note"})
	s.must(err, "submit")
	s.note("pending then submitted: %s -> %s", pend.State, sub.State)
	rvs, _, err := c1.PullRequests.ListReviews(s.ctx, s.owner, s.repo, pr.Number, nil)
	s.must(err, "reviews")
	var st []string
	for _, r := range rvs {
		st = append(st, string(r.State))
	}
	s.note("reviews: %v", st)
	dis, _, err := c1.PullRequests.DismissReview(s.ctx, s.owner, s.repo, pr.Number, rv.ID, forgejo.DismissPullReviewRequest{Message: "stale"})
	s.must(err, "dismiss")
	s.note("dismissed: %v", dis.Dismissed)
	raw, _, err := c1.PullRequests.GetDiff(s.ctx, s.owner, s.repo, pr.Number, "diff", nil)
	s.must(err, "diff")
	s.note("diff mentions feature.txt: %v", strings.Contains(raw, "feature.txt"))
}

func (s *scenario) reviewRequestsAndFiles() {
	c1, c2 := s.tg.c1, s.tg.c2
	_, _, err := c1.Repos.CreateBranch(s.ctx, s.owner, s.repo, forgejo.CreateBranchRepoRequest{NewBranchName: "files"})
	s.must(err, "branch")
	readme, _, err := c1.Repos.GetContents(s.ctx, s.owner, s.repo, "README.md", nil)
	s.must(err, "README")
	_, _, err = c1.Repos.UpdateFile(s.ctx, s.owner, s.repo, "README.md", forgejo.UpdateFileRequest{Branch: "files", SHA: readme.File.SHA,
		Content: b64("# " + s.repo + "\n\ncontract suite\nmore\n"), Message: "append to the readme"})
	s.must(err, "update on the branch")
	_, _, err = c1.Repos.CreateFile(s.ctx, s.owner, s.repo, "src/new.go", forgejo.CreateFileRequest{Branch: "files", Content: b64("package x\n\nvar A = 1\n"), Message: "add"})
	s.must(err, "add on the branch")
	_, _, err = c1.Repos.DeleteFile(s.ctx, s.owner, s.repo, "by-collab.txt", forgejo.DeleteFileRequest{Branch: "files", SHA: blobSHA("c"), Message: "remove"})
	s.must(err, "delete on the branch")
	pr, _, err := c1.PullRequests.Create(s.ctx, s.owner, s.repo, forgejo.CreatePullRequestRequest{Head: "files", Base: "main", Title: "Files"})
	s.must(err, "pull request")

	fs, resp, err := c1.PullRequests.ListFiles(s.ctx, s.owner, s.repo, pr.Number, nil)
	s.must(err, "files")
	var es []string
	for _, f := range fs {
		es = append(es, fmt.Sprintf("%s:%s:+%d-%d=%d prev %q raw %v contents %v", f.Filename, f.Status, f.Additions, f.Deletions, f.Changes, f.PreviousFilename,
			strings.HasSuffix(f.RawURL, "/"+f.Filename), strings.Contains(f.ContentsURL, "/contents/"+f.Filename+"?ref=")))
	}
	s.note("pull files: %v total %q", es, resp.Header.Get("X-Total-Count"))
	pg, _, err := c1.PullRequests.Get(s.ctx, s.owner, s.repo, pr.Number)
	s.must(err, "get the pull")
	s.note("pull stats: +%d -%d files %d", pg.Additions, pg.Deletions, pg.ChangedFiles)
	// The .patch is git format-patch's: a mail per commit (the fake's pull
	// request is one commit), each with its diffstat before the diff.
	patch, _, err := c1.PullRequests.GetDiff(s.ctx, s.owner, s.repo, pr.Number, "patch", nil)
	s.must(err, "patch")
	s.note("pull patch: mail %v, diffstat of the added file %v, its diff %v", strings.HasPrefix(patch, "From "),
		regexp.MustCompile(`(?m)^ src/new\.go +\| +3 \+\+\+$`).MatchString(patch), strings.Contains(patch, "\n--- /dev/null\n+++ b/src/new.go\n@@ -0,0 +1,3 @@\n+package x\n"))
	for _, pg := range []int{1, 2, 4} {
		opts := &forgejo.PullRequestListFilesOptions{}
		opts.Page, opts.Limit = pg, 2
		fs, resp, err = c1.PullRequests.ListFiles(s.ctx, s.owner, s.repo, pr.Number, opts)
		s.must(err, "files page")
		var ns []string
		for _, f := range fs {
			ns = append(ns, f.Filename)
		}
		s.note("pull files page %d limit 2: %v total %q link %q", pg, ns, resp.Header.Get("X-Total-Count"),
			strings.ReplaceAll(resp.Header.Get("Link"), s.tg.url+"/api/v1/repos/"+s.owner+"/"+s.repo, ""))
	}
	_, _, err = c1.PullRequests.ListFiles(s.ctx, s.owner, s.repo, 99999, nil)
	e := s.apiErr(err, "files of a missing pull")
	s.note("files of a missing pull: %d", e.StatusCode)

	// Review requests: user1 asks user2 (a write collaborator).
	rq, resp, err := c1.PullRequests.RequestReviewers(s.ctx, s.owner, s.repo, pr.Number, forgejo.PullReviewersRequest{Reviewers: []string{s.tg.user2}})
	s.must(err, "request a review")
	var st []string
	for _, r := range rq {
		st = append(st, fmt.Sprintf("%s:%v", r.State, r.User != nil && r.User.Login == s.tg.user2))
	}
	s.note("request review: %d %v", resp.StatusCode, st)
	got, _, err := c1.PullRequests.Get(s.ctx, s.owner, s.repo, pr.Number)
	s.must(err, "get the pull")
	var rr []string
	for _, u := range got.RequestedReviewers {
		rr = append(rr, u.Login)
	}
	s.note("requested reviewers: user2 %v count %d", len(rr) == 1 && rr[0] == s.tg.user2, len(rr))
	rvs, _, err := c1.PullRequests.ListReviews(s.ctx, s.owner, s.repo, pr.Number, nil)
	s.must(err, "reviews")
	st = nil
	for _, r := range rvs {
		st = append(st, string(r.State))
	}
	s.note("reviews after the request: %v", st)
	_, _, err = c1.PullRequests.RequestReviewers(s.ctx, s.owner, s.repo, pr.Number, forgejo.PullReviewersRequest{Reviewers: []string{s.tg.user2}})
	s.note("request again: ok %v", err == nil)
	_, _, err = c1.PullRequests.RequestReviewers(s.ctx, s.owner, s.repo, pr.Number, forgejo.PullReviewersRequest{Reviewers: []string{s.tg.user1}})
	e = s.apiErr(err, "request the author")
	s.note("request the author: %d", e.StatusCode)
	_, _, err = c1.PullRequests.RequestReviewers(s.ctx, s.owner, s.repo, pr.Number, forgejo.PullReviewersRequest{Reviewers: []string{"no-such-user-xyz"}})
	e = s.apiErr(err, "request a missing user")
	s.note("request a missing user: %d", e.StatusCode)
	_, err = c2.PullRequests.RemoveReviewers(s.ctx, s.owner, s.repo, pr.Number, forgejo.PullReviewersRequest{Reviewers: []string{s.tg.user2}})
	s.note("user2 removes own request: ok %v", err == nil)
	if err == nil {
		_, _, err = c1.PullRequests.RequestReviewers(s.ctx, s.owner, s.repo, pr.Number, forgejo.PullReviewersRequest{Reviewers: []string{s.tg.user2}})
		s.must(err, "request again")
	}
	resp, err = c1.PullRequests.RemoveReviewers(s.ctx, s.owner, s.repo, pr.Number, forgejo.PullReviewersRequest{Reviewers: []string{s.tg.user2}})
	s.must(err, "cancel the request")
	got, _, err = c1.PullRequests.Get(s.ctx, s.owner, s.repo, pr.Number)
	s.must(err, "get the pull")
	rvs, _, err = c1.PullRequests.ListReviews(s.ctx, s.owner, s.repo, pr.Number, nil)
	s.must(err, "reviews")
	s.note("cancel request: %d, requested reviewers %d, reviews %d", resp.StatusCode, len(got.RequestedReviewers), len(rvs))
}
