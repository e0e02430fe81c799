package webhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Forgejo's signature covers the payload, not the headers, so a captured
// delivery can be resent under another X-Forgejo-Event-Type with its
// signature still valid. checkShape is the one place that refuses a payload
// whose shape contradicts its event type. The rules come from the 146 real
// deliveries in testdata (Forgejo 15.0.3) and from Forgejo's payload types
// (modules/structs/hook.go); every real delivery passes them
// (TestCapturesParse) and TestEventTypeReplay replays each under every
// other type.

// identifyingKeys are the top-level keys that belong to some event types
// and not to others. A payload carrying one of them (with a value other
// than null) must be of a type that needs or may carry it.
var identifyingKeys = []string{
	"ref", "before", "after", "commits", "head_commit", "compare_url", "total_commits", "pusher",
	"sha", "ref_type", "pusher_type", "forkee",
	"issue", "comment", "pull_request", "review",
	"release", "page", "package", "run", "prior_status", "last_run",
}

// shape is what the payload of an event type must and may carry.
type shape struct {
	// need are top-level keys that must be present with a value other than
	// null.
	need []string
	// may are identifying keys the payload may carry besides need.
	may []string
	// actions, for the sub-events of a family that share a payload type,
	// are the action values of this event type; an action that belongs to
	// another member of the family contradicts it. An action no member
	// lists (a newer Forgejo's) is accepted.
	family  string
	actions []string
}

var pushKeys = []string{"before", "after", "commits", "head_commit", "compare_url", "total_commits", "pusher"}

var shapes = map[EventType]shape{
	EventPush:   {need: []string{"ref"}, may: pushKeys},
	EventCreate: {need: []string{"ref", "ref_type"}, may: []string{"sha"}},
	EventDelete: {need: []string{"ref", "ref_type"}, may: []string{"pusher_type"}},
	EventFork:   {need: []string{"forkee"}},

	EventIssues:         {need: []string{"issue"}, family: "issues", actions: []string{"opened", "edited", "closed", "reopened"}},
	EventIssueAssign:    {need: []string{"issue"}, family: "issues", actions: []string{"assigned", "unassigned"}},
	EventIssueLabel:     {need: []string{"issue"}, family: "issues", actions: []string{"label_updated", "label_cleared"}},
	EventIssueMilestone: {need: []string{"issue"}, family: "issues", actions: []string{"milestoned", "demilestoned"}},

	EventIssueComment:       {need: []string{"issue", "comment"}},
	EventPullRequestComment: {need: []string{"issue", "comment", "pull_request"}},

	EventPullRequest:              {need: []string{"pull_request"}, family: "pull_request", actions: []string{"opened", "edited", "closed", "reopened"}},
	EventPullRequestAssign:        {need: []string{"pull_request"}, family: "pull_request", actions: []string{"assigned", "unassigned"}},
	EventPullRequestLabel:         {need: []string{"pull_request"}, family: "pull_request", actions: []string{"label_updated", "label_cleared"}},
	EventPullRequestMilestone:     {need: []string{"pull_request"}, family: "pull_request", actions: []string{"milestoned", "demilestoned"}},
	EventPullRequestSync:          {need: []string{"pull_request"}, family: "pull_request", actions: []string{"synchronized"}},
	EventPullRequestReviewRequest: {need: []string{"pull_request"}, family: "pull_request", actions: []string{"review_requested", "review_request_removed"}},

	// The review's kind is also in review.type (checked in checkShape).
	EventPullRequestReviewApproved: {need: []string{"pull_request", "review"}},
	EventPullRequestReviewRejected: {need: []string{"pull_request", "review"}},
	EventPullRequestReviewComment:  {need: []string{"pull_request", "review"}},

	EventRelease: {need: []string{"release"}},
	// A repository payload has no identifying key of its own: it is the
	// one that carries none.
	EventRepository: {need: []string{"repository"}},
	EventWiki:       {need: []string{"page"}, may: []string{"comment"}},
	EventPackage:    {need: []string{"package"}},

	// No delivery of these was captured; the actions are Forgejo's
	// (HookActionFailure, HookActionRecover, HookActionSuccess).
	EventActionRunFailure: {need: []string{"run"}, may: []string{"prior_status", "last_run"}, family: "action_run", actions: []string{"failure"}},
	EventActionRunRecover: {need: []string{"run"}, may: []string{"prior_status", "last_run"}, family: "action_run", actions: []string{"recover"}},
	EventActionRunSuccess: {need: []string{"run"}, may: []string{"prior_status", "last_run"}, family: "action_run", actions: []string{"success"}},
}

// familyActions are the actions of each family's members together.
var familyActions = func() map[string][]string {
	m := map[string][]string{}
	for _, s := range shapes {
		if s.family != "" {
			m[s.family] = append(m[s.family], s.actions...)
		}
	}
	return m
}()

// reviewTypes are the review.type values of the review events: their event
// types.
var reviewTypes = []EventType{EventPullRequestReviewApproved, EventPullRequestReviewRejected, EventPullRequestReviewComment}

// checkShape returns what in payload contradicts the event type t, or ""
// when nothing does: for a type without rules (an unknown one), and for a
// payload that is not a JSON object at all, which decoding reports as
// malformed.
func checkShape(t EventType, payload []byte) string {
	s, ok := shapes[t]
	if !ok {
		return ""
	}
	top, ok := topLevel(payload)
	if !ok {
		return ""
	}
	has := func(k string) bool {
		v, ok := top[k]
		return ok && string(v) != "null"
	}
	action := func() string {
		var a string
		_ = json.Unmarshal(top["action"], &a)
		return a
	}
	review := func() EventType {
		var r struct {
			Type EventType `json:"type"`
		}
		_ = json.Unmarshal(top["review"], &r)
		return r.Type
	}
	return shapeProblem(t, s, has, action, review)
}

// shapeProblem is checkShape's rule, on what the payload holds: has says
// whether a top-level key is present with a value other than null, action
// is the action's string value and review the review's type ("" when there
// is none or it is not a string).
func shapeProblem(t EventType, s shape, has func(string) bool, action func() string, review func() EventType) string {
	for _, k := range s.need {
		if !has(k) {
			return fmt.Sprintf("a %s payload has %q; this one has none", t, k)
		}
	}
	for _, k := range identifyingKeys {
		if has(k) && !slices.Contains(s.need, k) && !slices.Contains(s.may, k) {
			return fmt.Sprintf("a %s payload has no %q; this one has", t, k)
		}
	}
	if s.family != "" {
		action := action()
		if slices.Contains(familyActions[s.family], action) && !slices.Contains(s.actions, action) {
			return fmt.Sprintf("action %q is not one of %s (%s)", clean(action), t, strings.Join(s.actions, ", "))
		}
	}
	if slices.Contains(reviewTypes, t) {
		if rt := review(); slices.Contains(reviewTypes, rt) && rt != t {
			return fmt.Sprintf("the review's type is %s", rt)
		}
	}
	return ""
}

// shapeKeys are the top-level keys checkShape reads.
var shapeKeys = func() map[string]bool {
	m := map[string]bool{"action": true, "review": true}
	for _, k := range identifyingKeys {
		m[k] = true
	}
	for _, s := range shapes {
		for _, k := range append(s.need, s.may...) {
			m[k] = true
		}
	}
	return m
}()

// topLevel returns the raw values of payload's top-level keys that
// checkShape reads, as decoding into a map[string]json.RawMessage would give
// them (the last of a repeated key wins), without decoding the rest: the
// values are skipped, not copied. ok is false when payload is not a valid
// JSON object (or null, which decodes as no keys). A key written with an
// escape sends the scan to encoding/json, which decodes it.
func topLevel(payload []byte) (map[string]json.RawMessage, bool) {
	if !json.Valid(payload) {
		return nil, false
	}
	top := make(map[string]json.RawMessage, 8)
	i := skipSpace(payload, 0)
	switch {
	case i < len(payload) && payload[i] == 'n':
		return top, true // null decodes into a map as no keys
	case i >= len(payload) || payload[i] != '{':
		return nil, false
	}
	i = skipSpace(payload, i+1)
	for i < len(payload) && payload[i] != '}' {
		// A key: valid JSON, so a string.
		end := skipString(payload, i)
		key := payload[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return slowTopLevel(payload)
		}
		i = skipSpace(payload, end)
		i = skipSpace(payload, i+1) // the colon
		vEnd := skipValue(payload, i)
		if shapeKeys[string(key)] {
			top[string(key)] = payload[i:vEnd]
		}
		i = skipSpace(payload, vEnd)
		if i < len(payload) && payload[i] == ',' {
			i = skipSpace(payload, i+1)
		}
	}
	return top, true
}

// slowTopLevel is topLevel through encoding/json.
func slowTopLevel(payload []byte) (map[string]json.RawMessage, bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal(payload, &top) != nil {
		return nil, false
	}
	return top, true
}

// The skip functions read JSON already known to be valid (json.Valid).

func skipSpace(p []byte, i int) int {
	for i < len(p) && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at p[i] ('"').
func skipString(p []byte, i int) int {
	for i++; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++ // the escaped byte; \uXXXX's hex digits need no care
		case '"':
			return i + 1
		}
	}
	return len(p)
}

// skipValue returns the index after the value starting at p[i].
func skipValue(p []byte, i int) int {
	if i >= len(p) {
		return i
	}
	switch p[i] {
	case '"':
		return skipString(p, i)
	case '{', '[':
		depth := 0
		for ; i < len(p); i++ {
			switch p[i] {
			case '"':
				i = skipString(p, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(p)
	default: // a number, true, false or null
		for i < len(p) && !strings.ContainsRune(" \t\n\r,}]", rune(p[i])) {
			i++
		}
		return i
	}
}
