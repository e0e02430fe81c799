package forgejo

import (
	"context"
	"iter"
)

// Get returns one repository.
//
// GET /repos/{owner}/{repo} (repoGet). Retry: IdempotentOnly (a read).
func (s *ReposService) Get(ctx context.Context, owner, repo string) (*Repository, *Response, error) {
	req := newRequest(&opRepoGet, seg("owner", owner), seg("repo", repo))
	v := new(Repository)
	resp, err := s.client.call(ctx, req, v)
	if err != nil {
		return nil, resp, err
	}
	return v, resp, nil
}

// ListTopics returns one page of a repository's topic names. The instance
// wraps them as {"topics": [...]}; this returns the names.
//
// GET /repos/{owner}/{repo}/topics (repoListTopics). Retry: IdempotentOnly
// (a read).
func (s *ReposService) ListTopics(ctx context.Context, owner, repo string, opts *ListOptions) ([]string, *Response, error) {
	req := newRequest(&opRepoListTopics, seg("owner", owner), seg("repo", repo))
	req.paging(s.client, deref(opts))
	var v topicNames
	resp, err := s.client.call(ctx, req, &v)
	if err != nil {
		return nil, resp, err
	}
	return v.Topics, resp, nil
}

// ListTopicsIter walks every topic of a repository; see [All].
func (s *ReposService) ListTopicsIter(ctx context.Context, owner, repo string, opts *ListOptions) iter.Seq2[string, error] {
	return All(ctx, deref(opts), func(ctx context.Context, o ListOptions) ([]string, *Response, error) {
		return s.ListTopics(ctx, owner, repo, &o)
	})
}

// topicNames is the envelope repoListTopics answers with.
type topicNames struct {
	Topics []string `json:"topics"`
}

// UpdateTopics replaces a repository's whole topic list with topics (an
// empty list removes them all).
//
// PUT /repos/{owner}/{repo}/topics (repoUpdateTopics). Retry: AlwaysRetry
// (states the whole topic list: N attempts leave the list one attempt
// would).
func (s *ReposService) UpdateTopics(ctx context.Context, owner, repo string, topics []string) (*Response, error) {
	req := newRequest(&opRepoUpdateTopics, seg("owner", owner), seg("repo", repo))
	if topics == nil {
		topics = []string{}
	}
	req.jsonBody(RepoTopicOptions{Topics: topics})
	req.result = resultNone
	return s.client.call(ctx, req, nil)
}
