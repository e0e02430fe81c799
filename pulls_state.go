package forgejo

// This file hand-writes what the spec gets wrong about pull request state:
// a merged pull request reports state "closed", so the state alone cannot
// tell merged from closed unmerged. Merge evidence wins.

// StateMerged is the state [PullRequest.EffectiveState] reports for a merged
// pull request. The instance never sends it: it says "closed".
const StateMerged StateType = "merged"

// EffectiveState returns the pull request's state with merge evidence first:
// [StateMerged] when Merged is set or MergedAt is known (a merged pull
// request reports "closed", and listings omit merged_by), else State as the
// instance sent it ("open", "closed", or a value this version does not
// know). A nil pull request has no state: "".
func (pr *PullRequest) EffectiveState() StateType {
	switch {
	case pr == nil:
		return ""
	case pr.Merged || !pr.MergedAt.IsZero():
		return StateMerged
	}
	return pr.State
}

// IsMerged reports whether the pull request is merged, by the same evidence
// as EffectiveState.
func (pr *PullRequest) IsMerged() bool { return pr.EffectiveState() == StateMerged }
