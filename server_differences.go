package forgejo

import (
	"context"
	"strings"
)

// This file holds the answers in which Forgejo and Gitea differ and the
// client gives callers one way to read both (docs/HAZARDS.md §10, §22, §23):
// a stale file sha, "no signing key", the event of a dispatched run, how a
// finished run or job ended, a run's workflow and ref, and the default of
// a listing filter.

// differenceMatch reports whether the APIError e is what the sentinel
// target (ErrStaleFile, ErrNoSigningKey) stands for, judged by the
// operation and its answer rather than by status alone; ok is false when
// target is neither. APIError.Is asks it.
func differenceMatch(target error, e *APIError) (match, ok bool) {
	switch target {
	case ErrStaleFile:
		sha := strings.Contains(strings.ToLower(e.Message), "sha does not match")
		switch e.Call.Operation {
		case opRepoUpdateFile.ID:
			return e.StatusCode == 409 || (e.StatusCode == 422 && sha), true
		case opRepoDeleteFile.ID:
			return e.StatusCode == 409 || ((e.StatusCode == 400 || e.StatusCode == 422) && sha), true
		}
		return false, true
	case ErrNoSigningKey:
		switch e.Call.Operation {
		case opGetSigningKey.ID, opGetSSHSigningKey.ID, opRepoSigningKey.ID:
			return e.StatusCode == 404, true
		}
		return false, true
	}
	return false, false
}

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

// Outcome returns the run's status with Gitea's way of reporting an end
// read: Gitea reports every finished run as "completed" and says how it
// ended in Conclusion (success, failure, cancelled, skipped), where Forgejo
// reports that in Status itself. So Outcome is Conclusion when Status is
// "completed" and Conclusion is set, and Status otherwise.
func (r *ActionRun) Outcome() ActionStatus {
	if r == nil {
		return ""
	}
	return outcome(r.Status, r.Conclusion)
}

// Outcome returns the job's status with Gitea's way of reporting an end
// read, as [ActionRun.Outcome] does for a run.
func (j *ActionRunJob) Outcome() ActionStatus {
	if j == nil {
		return ""
	}
	return outcome(j.Status, j.Conclusion)
}

func outcome(status, conclusion ActionStatus) ActionStatus {
	if strings.EqualFold(string(status), "completed") && conclusion != "" {
		return conclusion
	}
	return status
}

// workflowPath splits Gitea's run path ("ci.yml@refs/heads/main") into the
// workflow file and the ref; ok is false when path is not of that form.
func workflowPath(path string) (workflow, ref string, ok bool) {
	workflow, ref, ok = strings.Cut(path, "@")
	return workflow, ref, ok && workflow != "" && ref != ""
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
// GET /signing-key.gpg (getSigningKey). Token scope: none. Retry:
// RetryIdempotentOnly (a read).
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
// GET /signing-key.ssh (getSSHSigningKey). Token scope: none. Retry:
// RetryIdempotentOnly (a read).
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
// GET /repos/{owner}/{repo}/signing-key.gpg (repoSigningKey). Token scope:
// read:repository. Retry: RetryIdempotentOnly (a read).
func (s *ReposService) GetSigningKey(ctx context.Context, owner, repo string, opts ...RequestOption) (string, *Response, error) {
	return s.client.signingKey(ctx, newRequest(&opRepoSigningKey, seg("owner", owner), seg("repo", repo)), opts)
}
