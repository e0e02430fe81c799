package forgejo

import "context"

// ReplaceTopics replaces a repository's whole topic list with topics; an
// empty or nil list removes them all (nil is sent as []).
//
// Served by every supported release (Forgejo 11.0 and later).
//
// PUT /repos/{owner}/{repo}/topics (repoUpdateTopics). Token scope:
// write:repository. Retry: RetryAlways (states the repository's whole topic
// list; a repeat sets the same list).
func (s *ReposService) ReplaceTopics(ctx context.Context, owner, repo string, topics []string, opts ...RequestOption) (*Response, error) {
	req := newRequest(&opRepoUpdateTopics, seg("owner", owner), seg("repo", repo))
	if topics == nil {
		topics = []string{}
	}
	req.jsonBody(RepoTopicRequest{Topics: topics})
	req.with(opts)
	req.result = resultNone
	return s.client.call(ctx, req, nil)
}
