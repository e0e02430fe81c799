package forgejo

import (
	"context"
	"iter"
	"time"
)

// ListIssuesOptions filters issueListIssues. Only set fields are sent.
type ListIssuesOptions struct {
	ListOptions
	// State is "open" (the instance's default), "closed" or "all".
	State string
	// Labels are label names; an issue must carry all of them.
	Labels []string
	// Query searches titles and bodies (q).
	Query string
	// Type is "issues" or "pulls"; empty lists both, since Forgejo's issue
	// listing includes pull requests.
	Type string
	// Milestones are milestone names or ids.
	Milestones []string
	// Since and Before compare updated_at; usable as a sync cursor.
	Since, Before time.Time
	// CreatedBy, AssignedBy and MentionedBy are usernames. AssignedBy is
	// Forgejo's assigned_by, which filters by assignee.
	CreatedBy, AssignedBy, MentionedBy string
	// Sort is one of relevance, latest, oldest, recentupdate, leastupdate,
	// mostcomment, leastcomment, nearduedate, farduedate.
	Sort string
}

// ListIssues returns one page of a repository's issues, pull requests
// included unless Type says otherwise.
//
// GET /repos/{owner}/{repo}/issues (issueListIssues). Retry: IdempotentOnly
// (a read).
func (s *IssuesService) ListIssues(ctx context.Context, owner, repo string, opts *ListIssuesOptions) ([]*Issue, *Response, error) {
	req := newRequest(&opIssueListIssues, seg("owner", owner), seg("repo", repo))
	o := deref(opts)
	req.addQuery("state", o.State)
	req.addQueryList("labels", o.Labels)
	req.addQuery("q", o.Query)
	req.addQuery("type", o.Type)
	req.addQueryList("milestones", o.Milestones)
	req.addQueryTime("since", o.Since)
	req.addQueryTime("before", o.Before)
	req.addQuery("created_by", o.CreatedBy)
	req.addQuery("assigned_by", o.AssignedBy)
	req.addQuery("mentioned_by", o.MentionedBy)
	req.addQuery("sort", o.Sort)
	req.paging(s.client, o.ListOptions)
	var v []*Issue
	resp, err := s.client.call(ctx, req, &v)
	if err != nil {
		return nil, resp, err
	}
	return v, resp, nil
}

// ListIssuesIter walks every issue of a repository matching opts, starting
// at opts.Page; see [All]. opts is copied, never modified.
func (s *IssuesService) ListIssuesIter(ctx context.Context, owner, repo string, opts *ListIssuesOptions) iter.Seq2[*Issue, error] {
	o := deref(opts)
	return All(ctx, o.ListOptions, func(ctx context.Context, lo ListOptions) ([]*Issue, *Response, error) {
		page := o
		page.ListOptions = lo
		return s.ListIssues(ctx, owner, repo, &page)
	})
}

// GetIssue returns one issue (or pull request) by its number.
//
// GET /repos/{owner}/{repo}/issues/{index} (issueGetIssue). Retry:
// IdempotentOnly (a read).
func (s *IssuesService) GetIssue(ctx context.Context, owner, repo string, index int64) (*Issue, *Response, error) {
	req := newRequest(&opIssueGetIssue, seg("owner", owner), seg("repo", repo), num("index", index))
	v := new(Issue)
	resp, err := s.client.call(ctx, req, v)
	if err != nil {
		return nil, resp, err
	}
	return v, resp, nil
}

// CreateIssue files a new issue. A blank title is rejected before sending.
// If the call fails without an answer you cannot know whether the issue was
// filed: list before you file again.
//
// POST /repos/{owner}/{repo}/issues (issueCreateIssue). Retry: Never
// (creates an issue: a repeat after a lost response would file it twice).
func (s *IssuesService) CreateIssue(ctx context.Context, owner, repo string, body CreateIssueOption) (*Issue, *Response, error) {
	req := newRequest(&opIssueCreateIssue, seg("owner", owner), seg("repo", repo))
	if req.err == nil && isBlank(body.Title) {
		req.err = &ValidationError{Field: "title", Message: "must not be blank"}
	}
	req.jsonBody(body)
	v := new(Issue)
	resp, err := s.client.call(ctx, req, v)
	if err != nil {
		return nil, resp, err
	}
	return v, resp, nil
}

// EditIssue changes the fields of an issue that body sets; unset (nil)
// fields are not sent and stay as they are. The instance answers 201.
//
// PATCH /repos/{owner}/{repo}/issues/{index} (issueEditIssue). Retry: Never
// (a partial update: a repeat would re-apply it to an issue that may have
// moved on).
func (s *IssuesService) EditIssue(ctx context.Context, owner, repo string, index int64, body EditIssueOption) (*Issue, *Response, error) {
	req := newRequest(&opIssueEditIssue, seg("owner", owner), seg("repo", repo), num("index", index))
	req.jsonBody(body)
	v := new(Issue)
	resp, err := s.client.call(ctx, req, v)
	if err != nil {
		return nil, resp, err
	}
	return v, resp, nil
}
