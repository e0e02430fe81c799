package webhook

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"testing"
)

// withEventType returns h with every event type header set to t.
func withEventType(h http.Header, t EventType) http.Header {
	h = h.Clone()
	for _, name := range eventTypeHeaders {
		setHeaderFold(h, name, string(t))
	}
	return h
}

// indistinguishable are the pairs (delivered type, replayed-as type) of
// real deliveries whose payloads cannot tell the two apart; see the package
// documentation. Empty: every captured delivery is refused under every
// other known event type.
var indistinguishable = map[string]bool{}

// TestEventTypeReplay replays every real delivery in testdata under every
// other known event type, with its original signature (which still
// verifies: the body is unchanged). Each must be refused with
// ErrEventMismatch, unless the pair is listed in indistinguishable.
func TestEventTypeReplay(t *testing.T) {
	p := mustParser(t, WithSecret(testSecret))
	var vectors, rejected, accepted int
	acceptedPairs := map[string]int{}
	unknown := 0
	for _, c := range loadCaptures(t) {
		orig := EventType(c.header.Get("X-Forgejo-Event-Type"))
		if _, err := p.Parse(c.body, c.header); err != nil {
			t.Errorf("%s does not parse as itself: %v", c.name, err)
		}
		// Under a type this package does not know, every payload is
		// accepted as an *UnknownEvent: nothing says what it should hold.
		if ev, err := p.Parse(c.body, withEventType(c.header, "x_unknown")); err == nil {
			if _, ok := ev.(*UnknownEvent); ok {
				unknown++
			}
		}
		for _, typ := range EventTypes() {
			if typ == orig {
				continue
			}
			vectors++
			_, err := p.Parse(c.body, withEventType(c.header, typ))
			pair := fmt.Sprintf("%s as %s", orig, typ)
			switch {
			case errors.Is(err, ErrEventMismatch):
				rejected++
				var we *Error
				if !errors.As(err, &we) || we.StatusCode() != http.StatusBadRequest || we.EventType != typ {
					t.Errorf("%s: %v", c.name, err)
				}
			case err == nil:
				accepted++
				acceptedPairs[pair]++
				if !indistinguishable[pair] {
					t.Errorf("%s replayed as %s was accepted", c.name, typ)
				}
			default:
				t.Errorf("%s replayed as %s: %v", c.name, typ, err)
			}
		}
	}
	var pairs []string
	for p, n := range acceptedPairs {
		pairs = append(pairs, fmt.Sprintf("%s (%d)", p, n))
	}
	sort.Strings(pairs)
	t.Logf("%d replays: %d refused, %d accepted; accepted pairs: %v; %d accepted under an unknown type", vectors, rejected, accepted, pairs, unknown)
}

// TestEventShapeTable covers what the captures do not: the Actions run
// events, reviews without a type, actions no rule knows, and edge shapes.
func TestEventShapeTable(t *testing.T) {
	run := `"run":{"id":1},"prior_status":"running"`
	for _, v := range []struct {
		typ     EventType
		payload string
		refused bool
	}{
		{EventActionRunFailure, `{"action":"failure",` + run + `}`, false},
		{EventActionRunFailure, `{"action":"success",` + run + `}`, true},
		{EventActionRunRecover, `{"action":"failure",` + run + `}`, true},
		{EventActionRunSuccess, `{"action":"recover",` + run + `}`, true},
		{EventActionRunSuccess, `{"action":"failed",` + run + `}`, false}, // an action no rule knows
		{EventActionRunSuccess, `{"action":"success"}`, true},
		{EventPullRequestReviewApproved, `{"action":"reviewed","pull_request":{"id":1},"review":{"content":"x"}}`, false},
		{EventPullRequestReviewApproved, `{"action":"reviewed","pull_request":{"id":1},"review":{"type":"pull_request_review_rejected"}}`, true},
		{EventPullRequestReviewApproved, `{"action":"reviewed","pull_request":{"id":1},"review":null}`, true},
		{EventPullRequest, `{"action":"reviewed","pull_request":{"id":1},"review":{"type":"pull_request_review_approved"}}`, true},
		{EventIssueLabel, `{"action":"pinned","issue":{"id":1}}`, false}, // an action no rule knows
		{EventIssueLabel, `{"action":"opened","issue":{"id":1}}`, true},
		{EventIssues, `{"action":"opened","issue":{"id":1},"pull_request":{"id":1}}`, true},
		{EventPush, `{"ref":"refs/heads/main","commits":null}`, false},
		{EventPush, `{"ref":"main","ref_type":"branch","sha":"a"}`, true},
		{EventPush, `{"ref":null,"commits":[]}`, true},
		{EventCreate, `{"ref":"main","ref_type":"branch"}`, false},
		{EventDelete, `{"ref":"main","ref_type":"branch","sha":"a"}`, true},
		{EventRepository, `{"action":"created","repository":{"id":1},"page":"Home"}`, true},
		{EventWiki, `{"action":"created","page":"Home","comment":"msg"}`, false},
	} {
		_, err := Decode(v.typ, []byte(v.payload))
		if refused := errors.Is(err, ErrEventMismatch); refused != v.refused || (err != nil && !refused) {
			t.Errorf("%s %s: %v, want refused %v", v.typ, v.payload, err, v.refused)
		}
	}
}
