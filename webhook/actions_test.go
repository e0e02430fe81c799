package webhook

import (
	"slices"
	"testing"
)

// knownActions are the action constants of each payload type: Forgejo
// 15.0.3's values (modules/structs/hook.go, the reference table).
var knownActions = map[string][]string{
	"*webhook.IssuesEvent": {string(IssueOpened), string(IssueClosed), string(IssueReopened), string(IssueEdited), string(IssueAssigned),
		string(IssueUnassigned), string(IssueLabelUpdated), string(IssueLabelCleared), string(IssueSynchronized), string(IssueMilestoned),
		string(IssueDemilestoned), string(IssueReviewed), string(IssueReviewRequested), string(IssueReviewRequestRemoved)},
	"*webhook.IssueCommentEvent": {string(CommentCreated), string(CommentEdited), string(CommentDeleted)},
	"*webhook.ReleaseEvent":      {string(ReleasePublished), string(ReleaseUpdated), string(ReleaseDeleted)},
	"*webhook.RepositoryEvent":   {string(RepositoryCreated), string(RepositoryDeleted)},
	"*webhook.WikiEvent":         {string(WikiCreated), string(WikiEdited), string(WikiDeleted)},
	"*webhook.PackageEvent":      {string(PackageCreated), string(PackageDeleted)},
	"*webhook.ActionRunEvent":    {string(RunFailure), string(RunRecover), string(RunSuccess)},
}

func init() {
	knownActions["*webhook.PullRequestEvent"] = knownActions["*webhook.IssuesEvent"]
	knownActions["*webhook.PullRequestReviewEvent"] = knownActions["*webhook.IssuesEvent"]
}

// TestActionsTyped: every captured delivery's action is one of its payload
// type's constants, and the constants are the values the shape rules (and
// Forgejo's action_run events) use.
func TestActionsTyped(t *testing.T) {
	p := mustParser(t, WithSecret(testSecret))
	seen := map[string]bool{}
	for _, c := range loadCaptures(t) {
		ev, err := p.Parse(c.body, c.header)
		if err != nil {
			continue
		}
		var action string
		switch e := ev.(type) {
		case *IssuesEvent:
			action = string(e.Action)
		case *IssueCommentEvent:
			action = string(e.Action)
		case *PullRequestEvent:
			action = string(e.Action)
		case *PullRequestReviewEvent:
			action = string(e.Action)
		case *ReleaseEvent:
			action = string(e.Action)
		case *RepositoryEvent:
			action = string(e.Action)
		case *WikiEvent:
			action = string(e.Action)
		case *PackageEvent:
			action = string(e.Action)
		default:
			continue
		}
		typ := typeName(ev)
		if !slices.Contains(knownActions[typ], action) {
			t.Errorf("%s: action %q is no constant of %s", c.name, action, typ)
		}
		seen[typ+" "+action] = true
	}
	for typ, s := range shapes {
		for _, a := range s.actions {
			if !slices.Contains(knownActions[typeName(newEvent(typ))], a) {
				t.Errorf("%s: shape action %q has no constant", typ, a)
			}
		}
	}
	// Typed comparisons read as the issue asks.
	ev, err := Decode(EventIssues, []byte(`{"action":"opened","issue":{"number":1}}`))
	if err != nil || ev.(*IssuesEvent).Action != IssueOpened {
		t.Errorf("%v %v", ev, err)
	}
	run, err := Decode(EventActionRunRecover, []byte(`{"action":"recover","run":{"id":1}}`))
	if err != nil || run.(*ActionRunEvent).Action != RunRecover {
		t.Errorf("%v %v", run, err)
	}
	t.Logf("%d payload type/action pairs captured", len(seen))
}

func typeName(ev Event) string {
	switch ev.(type) {
	case *IssuesEvent:
		return "*webhook.IssuesEvent"
	case *IssueCommentEvent:
		return "*webhook.IssueCommentEvent"
	case *PullRequestEvent:
		return "*webhook.PullRequestEvent"
	case *PullRequestReviewEvent:
		return "*webhook.PullRequestReviewEvent"
	case *ReleaseEvent:
		return "*webhook.ReleaseEvent"
	case *RepositoryEvent:
		return "*webhook.RepositoryEvent"
	case *WikiEvent:
		return "*webhook.WikiEvent"
	case *PackageEvent:
		return "*webhook.PackageEvent"
	case *ActionRunEvent:
		return "*webhook.ActionRunEvent"
	}
	return ""
}
