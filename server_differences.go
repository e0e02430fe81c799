package forgejo

import (
	"context"
	"strings"
)

// This file holds the answers in which Forgejo and Gitea differ and the
// client gives callers one way to read both (docs/HAZARDS.md §10, §22):
// a stale file sha, "no signing key", the event of a dispatched run, and
// the default of a listing filter.

// ErrStaleFile matches, with errors.Is, the refusal of a file update or
// delete whose sha is no longer the file's: "the file changed under you".
// Forgejo answers 409 to the update and 400 to the delete, Gitea 422 to
// both, all with "sha does not match [given: ..., expected: ...]". It
// matches an [*APIError] of Repos.UpdateFile with 409, or with 422 and that
// message, and of Repos.DeleteFile with 409, or with 400 or 422 and that
// message. Read the file again and retry with its new sha.
var ErrStaleFile error = &callSentinel{
	msg: "forgejo: the file's sha is stale (it changed since it was read)",
	match: func(e *APIError) bool {
		sha := strings.Contains(strings.ToLower(e.Message), "sha does not match")
		switch e.Call.Operation {
		case opRepoUpdateFile.ID:
			return e.StatusCode == 409 || (e.StatusCode == 422 && sha)
		case opRepoDeleteFile.ID:
			return e.StatusCode == 409 || ((e.StatusCode == 400 || e.StatusCode == 422) && sha)
		}
		return false
	},
}

// ErrNoSigningKey is what Misc.GetSigningKey, Misc.GetSSHSigningKey and
// Repos.GetSigningKey return when the instance has no signing key: Forgejo
// answers 200 with an empty body, Gitea (and Forgejo for the SSH key)
// 404. errors.Is(err, ErrNoSigningKey) is true for both; the 404 also
// stays an [*APIError] (errors.Is(err, ErrNotFound) holds).
var ErrNoSigningKey error = &callSentinel{
	msg: "forgejo: the instance has no signing key",
	match: func(e *APIError) bool {
		switch e.Call.Operation {
		case opGetSigningKey.ID, opGetSSHSigningKey.ID, opRepoSigningKey.ID:
			return e.StatusCode == 404
		}
		return false
	},
}

// callSentinel is an error that errors.Is matches against an APIError by
// its operation and answer, rather than by status alone.
type callSentinel struct {
	msg   string
	match func(*APIError) bool
}

func (s *callSentinel) Error() string { return s.msg }

// matchAPIError is what APIError.Is asks of a sentinel that is not a
// status.
func (s *callSentinel) matchAPIError(e *APIError) bool { return s.match(e) }

// EventName returns the event that started the run: TriggerEvent when
// the server filled it, else Event. Forgejo 15 leaves Event empty for a
// dispatched run and fills TriggerEvent ("workflow_dispatch"); Gitea fills
// Event.
func (r *ActionRun) EventName() string {
	if r == nil {
		return ""
	}
	if r.TriggerEvent != "" {
		return r.TriggerEvent
	}
	return r.Event
}

// orDefault is a query value, or the table's default when it is empty
// (api.Op.Defaults).
func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// signingKey reads a signing key, mapping "no key" to ErrNoSigningKey.
func (c *Client) signingKey(ctx context.Context, req *request, opts []RequestOption) (string, *Response, error) {
	req.with(opts)
	req.result = resultText
	var v string
	resp, err := c.call(ctx, req, &v)
	if noResult(resp, err) {
		return "", resp, err // a 304 is not "no key": the copy held is current
	}
	if strings.TrimSpace(v) == "" {
		return "", resp, ErrNoSigningKey
	}
	return v, resp, nil
}

// GetSigningKey returns the instance's default GPG signing key, ASCII
// armored. When the instance has none it returns [ErrNoSigningKey]:
// Forgejo answers an empty 200 there and Gitea a 404 (which also stays an
// [*APIError]).
//
// Served by every supported release (Forgejo 11.0 and later).
//
// GET /signing-key.gpg (getSigningKey). Retry: RetryIdempotentOnly (a read).
func (s *MiscService) GetSigningKey(ctx context.Context, opts ...RequestOption) (string, *Response, error) {
	return s.client.signingKey(ctx, newRequest(&opGetSigningKey), opts)
}

// GetSSHSigningKey returns the instance's default SSH signing key, in
// OpenSSH authorized-key format. When the instance has none it returns
// [ErrNoSigningKey] (Forgejo answers 404 "The target couldn't be found.",
// which also stays an [*APIError]).
//
// Forgejo 13.0 and later: with [WithVersionCheck], an older server refuses
// it before sending ([UnsupportedOperationError]).
//
// GET /signing-key.ssh (getSSHSigningKey). Retry: RetryIdempotentOnly (a read).
func (s *MiscService) GetSSHSigningKey(ctx context.Context, opts ...RequestOption) (string, *Response, error) {
	return s.client.signingKey(ctx, newRequest(&opGetSSHSigningKey), opts)
}

// GetSigningKey returns the GPG key that signs a repository's commits,
// ASCII armored. When there is none it returns [ErrNoSigningKey]: Forgejo
// answers an empty 200 there and Gitea a 404 (which also stays an
// [*APIError]).
//
// Served by every supported release (Forgejo 11.0 and later).
//
// GET /repos/{owner}/{repo}/signing-key.gpg (repoSigningKey). Retry:
// RetryIdempotentOnly (a read).
func (s *ReposService) GetSigningKey(ctx context.Context, owner, repo string, opts ...RequestOption) (string, *Response, error) {
	return s.client.signingKey(ctx, newRequest(&opRepoSigningKey, seg("owner", owner), seg("repo", repo)), opts)
}
