package webhook

import (
	"encoding/json"
	"net/http"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
)

// EventType is the precise kind of a delivery, as Forgejo sends it in the
// X-Forgejo-Event-Type header. Dispatch on it, not on X-Forgejo-Event (see
// [EventType.Family]): it tells the sub-events apart and is the only name a
// package event has.
//
// It is an open set: a value this package does not know parses into an
// [*UnknownEvent].
type EventType string

// The event types of Forgejo 15, with the payload type each parses into.
const (
	EventCreate EventType = "create" // *CreateEvent
	EventDelete EventType = "delete" // *DeleteEvent
	EventFork   EventType = "fork"   // *ForkEvent
	EventPush   EventType = "push"   // *PushEvent

	EventIssues         EventType = "issues"          // *IssuesEvent
	EventIssueAssign    EventType = "issue_assign"    // *IssuesEvent
	EventIssueLabel     EventType = "issue_label"     // *IssuesEvent
	EventIssueMilestone EventType = "issue_milestone" // *IssuesEvent
	EventIssueComment   EventType = "issue_comment"   // *IssueCommentEvent

	EventPullRequest              EventType = "pull_request"                // *PullRequestEvent
	EventPullRequestAssign        EventType = "pull_request_assign"         // *PullRequestEvent
	EventPullRequestLabel         EventType = "pull_request_label"          // *PullRequestEvent
	EventPullRequestMilestone     EventType = "pull_request_milestone"      // *PullRequestEvent
	EventPullRequestSync          EventType = "pull_request_sync"           // *PullRequestEvent
	EventPullRequestReviewRequest EventType = "pull_request_review_request" // *PullRequestEvent
	EventPullRequestComment       EventType = "pull_request_comment"        // *IssueCommentEvent

	EventPullRequestReviewApproved EventType = "pull_request_review_approved" // *PullRequestReviewEvent
	EventPullRequestReviewRejected EventType = "pull_request_review_rejected" // *PullRequestReviewEvent
	EventPullRequestReviewComment  EventType = "pull_request_review_comment"  // *PullRequestReviewEvent

	EventWiki       EventType = "wiki"       // *WikiEvent
	EventRepository EventType = "repository" // *RepositoryEvent
	EventRelease    EventType = "release"    // *ReleaseEvent
	EventPackage    EventType = "package"    // *PackageEvent

	EventActionRunFailure EventType = "action_run_failure" // *ActionRunEvent
	EventActionRunRecover EventType = "action_run_recover" // *ActionRunEvent
	EventActionRunSuccess EventType = "action_run_success" // *ActionRunEvent
)

// EventTypes lists every event type this package parses into a dedicated
// payload type, in the order of the table in the guide.
func EventTypes() []EventType {
	return []EventType{
		EventCreate, EventDelete, EventFork, EventPush,
		EventIssues, EventIssueAssign, EventIssueLabel, EventIssueMilestone, EventIssueComment,
		EventPullRequest, EventPullRequestAssign, EventPullRequestLabel, EventPullRequestMilestone,
		EventPullRequestSync, EventPullRequestReviewRequest, EventPullRequestComment,
		EventPullRequestReviewApproved, EventPullRequestReviewRejected, EventPullRequestReviewComment,
		EventWiki, EventRepository, EventRelease, EventPackage,
		EventActionRunFailure, EventActionRunRecover, EventActionRunSuccess,
	}
}

// legacyEventTypes maps the spellings that some Forgejo releases put in
// X-Forgejo-Event-Type for the Actions run events (their internal names) to
// the names of the hook API.
var legacyEventTypes = map[EventType]EventType{
	"action_run_hook_event_failure":    EventActionRunFailure,
	"action_run_success_after_failure": EventActionRunRecover,
	"action_run_hook_event_success":    EventActionRunSuccess,
}

// Family is the coarser, GitHub-style name Forgejo 15 sends in the
// X-Forgejo-Event header for this event type: "issues" for every issue
// sub-event, "pull_request" for most pull-request sub-events, "issue_comment"
// for comments on a pull request's conversation, "pull_request_approved",
// "pull_request_rejected" and "pull_request_comment" for reviews, and the
// empty string for package events (Forgejo has no family name for them) and
// for types this package does not know.
func (t EventType) Family() string {
	switch t {
	case EventCreate, EventDelete, EventFork, EventPush, EventIssues, EventIssueComment,
		EventPullRequest, EventWiki, EventRepository, EventRelease,
		EventActionRunFailure, EventActionRunRecover, EventActionRunSuccess:
		return string(t)
	case EventIssueAssign, EventIssueLabel, EventIssueMilestone:
		return string(EventIssues)
	case EventPullRequestAssign, EventPullRequestLabel, EventPullRequestMilestone,
		EventPullRequestSync, EventPullRequestReviewRequest:
		return string(EventPullRequest)
	case EventPullRequestComment:
		return string(EventIssueComment)
	case EventPullRequestReviewApproved:
		return "pull_request_approved"
	case EventPullRequestReviewRejected:
		return "pull_request_rejected"
	case EventPullRequestReviewComment:
		return "pull_request_comment"
	}
	return ""
}

// Known reports whether this package parses t into a dedicated payload type
// (anything else becomes an [*UnknownEvent]).
func (t EventType) Known() bool {
	_, ok := newEvent(t).(*UnknownEvent)
	return !ok
}

// Event is a parsed, verified delivery. Its dynamic type is one of the
// payload types of this package (*PushEvent, *IssuesEvent, ...; see the
// EventType constants) or *UnknownEvent; use a type switch, or register
// typed functions on a [Handler] with [On].
//
// Every event embeds a [Delivery], whose methods give the delivery ID, the
// event type and the bytes received.
type Event interface {
	// DeliveryID is the X-Forgejo-Delivery header in its canonical form
	// ([CanonicalDeliveryID]): a UUID, unique per delivery attempt Forgejo
	// creates.
	DeliveryID() string
	// EventType is the X-Forgejo-Event-Type header (or its fallback).
	EventType() EventType
	// RawBody is the request body exactly as received.
	RawBody() []byte
	// Payload is the JSON payload: the body of a JSON hook, the payload
	// field of a form hook. It is what the signature covers.
	Payload() []byte

	delivery() *Delivery
}

// Delivery is what every event carries about the request it came in: the
// headers, the bytes and how they were verified. It is embedded in every
// payload type; its methods are promoted.
//
// The byte slices it returns are the parser's; do not modify them.
type Delivery struct {
	id          string
	typ         EventType
	family      string
	contentType string
	body        []byte
	payload     []byte
	// header returns the request's header. It is a function rather than
	// the map so that printing a Delivery, or an event, by reflection shows
	// an address and not the header lines, among which Forgejo sends the
	// hook's authorization header (the rule of internal/secret: what fmt
	// reaches through an unexported field must not be the secret).
	header func() http.Header
	signed bool
}

// DeliveryID is the X-Forgejo-Delivery header (falling back to
// X-Gitea-Delivery, X-Gogs-Delivery and X-GitHub-Delivery), a UUID, in its
// canonical form ([CanonicalDeliveryID]); "" when the request had none.
// Forgejo creates a new one for each delivery task, including when a
// delivery is replayed from the hook's settings page.
func (d *Delivery) DeliveryID() string { return d.id }

// EventType is the event type the delivery was dispatched on.
func (d *Delivery) EventType() EventType { return d.typ }

// EventFamily is the X-Forgejo-Event header as sent (empty for package
// events); see [EventType.Family].
func (d *Delivery) EventFamily() string { return d.family }

// ContentType is "json" or "form", how the hook is configured to send, or
// "query" for a hook configured with the GET method, whose payload comes in
// the query parameter payload.
func (d *Delivery) ContentType() string { return d.contentType }

// RawBody is the request body exactly as received (URL-encoded for a form
// hook).
func (d *Delivery) RawBody() []byte { return d.body }

// Payload is the JSON payload, the bytes the signature covers: the body of a
// JSON hook, the decoded payload field of a form hook.
func (d *Delivery) Payload() []byte { return d.payload }

// Header is the request's header. Do not modify it. It includes the hook's
// authorization header (Authorization) when one is configured; the
// Delivery itself never renders it (nor any other header) when printed or
// logged.
func (d *Delivery) Header() http.Header {
	if d.header == nil {
		return nil
	}
	return d.header()
}

// Signed reports whether the signature was checked and matched a secret. It
// is false only for a delivery accepted without signature (see
// [AllowUnsigned]).
func (d *Delivery) Signed() bool { return d.signed }

// Decode unmarshals the JSON payload into v, for fields this package does not
// model or for an [*UnknownEvent].
func (d *Delivery) Decode(v any) error { return json.Unmarshal(d.payload, v) }

func (d *Delivery) delivery() *Delivery { return d }

// Changes is what an "edited" action changed: the previous title, body or
// base branch. Only the fields that changed are set.
type Changes struct {
	Title *ChangeFrom `json:"title,omitempty"`
	Body  *ChangeFrom `json:"body,omitempty"`
	// Ref is set when a pull request's base branch changed.
	Ref *ChangeFrom `json:"ref,omitempty"`
}

// ChangeFrom holds the value before an edit.
type ChangeFrom struct {
	From string `json:"from"`
}

// Review is the review part of a review event: its kind (the event type
// again, e.g. "pull_request_review_approved") and its body text.
type Review struct {
	Type    string `json:"type"`
	Content string `json:"content"`
}

// zeroCommit reports whether sha is a run of zeros: the before of a push that
// creates a ref, the after of a push that deletes one (40 zeros for SHA-1
// repositories, 64 for SHA-256).
func zeroCommit(sha string) bool {
	return sha != "" && strings.Trim(sha, "0") == ""
}

// PushEvent is a push to a branch or tag (event type push). Creating a ref
// through the API sends one with Before all zeros and no commits; deleting a
// tag sends one with After all zeros. A hook test sends one for the branch's
// latest commit with Before == After.
type PushEvent struct {
	Delivery `json:"-"`

	// Ref is normally the full name (refs/heads/main, refs/tags/v1); a hook
	// test with ?ref= carries the short name as given.
	Ref          string                   `json:"ref"`
	Before       string                   `json:"before"`
	After        string                   `json:"after"`
	CompareURL   string                   `json:"compare_url"`
	Commits      []*forgejo.PayloadCommit `json:"commits"`
	TotalCommits int64                    `json:"total_commits"`
	HeadCommit   *forgejo.PayloadCommit   `json:"head_commit"`
	Repository   *forgejo.Repository      `json:"repository"`
	Pusher       *forgejo.User            `json:"pusher"`
	Sender       *forgejo.User            `json:"sender"`
}

// Branch is the branch name when Ref is a branch (refs/heads/ removed), and
// "" for a tag.
func (e *PushEvent) Branch() string {
	if b, ok := strings.CutPrefix(e.Ref, "refs/heads/"); ok {
		return b
	}
	if strings.HasPrefix(e.Ref, "refs/") {
		return ""
	}
	return e.Ref
}

// Tag is the tag name when Ref is a tag (refs/tags/ removed), else "".
func (e *PushEvent) Tag() string {
	t, _ := strings.CutPrefix(e.Ref, "refs/tags/")
	if t == e.Ref {
		return ""
	}
	return t
}

// Created reports whether the push created the ref (Before is all zeros).
func (e *PushEvent) Created() bool { return zeroCommit(e.Before) }

// Deleted reports whether the push deleted the ref (After is all zeros).
func (e *PushEvent) Deleted() bool { return zeroCommit(e.After) }

// CreateEvent is the creation of a branch or tag (event type create).
//
// A hook of type gitea receives Ref as the short name ("feature") where the
// forgejo type sends the full one ("refs/heads/feature").
type CreateEvent struct {
	Delivery `json:"-"`

	SHA string `json:"sha"`
	Ref string `json:"ref"`
	// RefType is "branch" or "tag".
	RefType    string              `json:"ref_type"`
	Repository *forgejo.Repository `json:"repository"`
	Sender     *forgejo.User       `json:"sender"`
}

// DeleteEvent is the deletion of a branch or tag (event type delete). Like
// [CreateEvent], Ref is the short name for hooks of type gitea.
type DeleteEvent struct {
	Delivery `json:"-"`

	Ref string `json:"ref"`
	// RefType is "branch" or "tag".
	RefType string `json:"ref_type"`
	// PusherType is "user".
	PusherType string              `json:"pusher_type"`
	Repository *forgejo.Repository `json:"repository"`
	Sender     *forgejo.User       `json:"sender"`
}

// ForkEvent is a repository being forked (event type fork).
//
// Note the direction, the opposite of GitHub's: Forkee is the original
// repository and Repository is the new fork.
type ForkEvent struct {
	Delivery `json:"-"`

	Forkee     *forgejo.Repository `json:"forkee"`
	Repository *forgejo.Repository `json:"repository"`
	Sender     *forgejo.User       `json:"sender"`
}

// IssuesEvent is something done to an issue: event types issues (Action
// opened, edited, closed, reopened), issue_assign (assigned, unassigned),
// issue_label (label_updated, label_cleared) and issue_milestone (milestoned,
// demilestoned). The issue's labels, assignees and milestone after the change
// are in Issue.
type IssuesEvent struct {
	Delivery `json:"-"`

	Action IssueAction `json:"action"`
	// Number is the issue's number in its repository.
	Number int64 `json:"number"`
	// Changes is set for Action edited.
	Changes    *Changes            `json:"changes,omitempty"`
	Issue      *forgejo.Issue      `json:"issue"`
	Repository *forgejo.Repository `json:"repository"`
	Sender     *forgejo.User       `json:"sender"`
	CommitID   string              `json:"commit_id"`
	// Label is the label added or removed, for Forgejo releases that send
	// it; Forgejo 15 does not (read Issue.Labels).
	Label *forgejo.Label `json:"label,omitempty"`
}

// IssueCommentEvent is a comment created, edited or deleted (Action) on an
// issue (event type issue_comment) or on a pull request's conversation
// (event type pull_request_comment, where IsPull is true and PullRequest is
// set). Review comments come as [*PullRequestReviewEvent] instead.
type IssueCommentEvent struct {
	Delivery `json:"-"`

	Action      CommentAction        `json:"action"`
	Issue       *forgejo.Issue       `json:"issue"`
	PullRequest *forgejo.PullRequest `json:"pull_request,omitempty"`
	Comment     *forgejo.Comment     `json:"comment"`
	// Changes is set for Action edited.
	Changes    *Changes            `json:"changes,omitempty"`
	Repository *forgejo.Repository `json:"repository"`
	Sender     *forgejo.User       `json:"sender"`
	IsPull     bool                `json:"is_pull"`
}

// PullRequestEvent is something done to a pull request: event types
// pull_request (Action opened, edited, closed, reopened; a merge is closed
// with PullRequest.Merged true), pull_request_assign (assigned, unassigned),
// pull_request_label (label_updated, label_cleared), pull_request_milestone
// (milestoned, demilestoned), pull_request_sync (synchronized: new commits on
// the head branch) and pull_request_review_request (review_requested,
// review_request_removed, with RequestedReviewer set).
type PullRequestEvent struct {
	Delivery `json:"-"`

	Action IssueAction `json:"action"`
	// Number is the pull request's number in its repository.
	Number int64 `json:"number"`
	// Changes is set for Action edited (Changes.Ref when the base branch
	// changed).
	Changes           *Changes             `json:"changes,omitempty"`
	PullRequest       *forgejo.PullRequest `json:"pull_request"`
	RequestedReviewer *forgejo.User        `json:"requested_reviewer"`
	Repository        *forgejo.Repository  `json:"repository"`
	Sender            *forgejo.User        `json:"sender"`
	CommitID          string               `json:"commit_id"`
	// Review is nil for these event types; reviews come as
	// [*PullRequestReviewEvent].
	Review *Review `json:"review"`
	// Label is the label added or removed, for Forgejo releases that send
	// it; Forgejo 15 does not (read PullRequest.Labels).
	Label *forgejo.Label `json:"label,omitempty"`
}

// PullRequestReviewEvent is a review submitted on a pull request: event
// types pull_request_review_approved, pull_request_review_rejected (changes
// requested) and pull_request_review_comment. Action is always "reviewed";
// the kind is the event type, Review.Type and [PullRequestReviewEvent.State].
// Inline comments of the review produce no separate delivery.
type PullRequestReviewEvent struct {
	Delivery `json:"-"`

	Action            IssueAction          `json:"action"`
	Number            int64                `json:"number"`
	PullRequest       *forgejo.PullRequest `json:"pull_request"`
	RequestedReviewer *forgejo.User        `json:"requested_reviewer"`
	Repository        *forgejo.Repository  `json:"repository"`
	Sender            *forgejo.User        `json:"sender"`
	CommitID          string               `json:"commit_id"`
	// Review holds the review's kind and body text.
	Review *Review `json:"review"`
}

// State is the review's state in the API's terms: forgejo.ReviewStateApproved,
// forgejo.ReviewStateRequestChanges or forgejo.ReviewStateComment, from the
// review's type (or, when absent, the event type); "" if neither says.
func (e *PullRequestReviewEvent) State() forgejo.ReviewStateType {
	kind := EventType("")
	if e.Review != nil {
		kind = EventType(e.Review.Type)
	}
	if kind == "" {
		kind = e.typ
	}
	switch kind {
	case EventPullRequestReviewApproved:
		return forgejo.ReviewStateApproved
	case EventPullRequestReviewRejected:
		return forgejo.ReviewStateRequestChanges
	case EventPullRequestReviewComment:
		return forgejo.ReviewStateComment
	}
	return ""
}

// ReleaseEvent is a release published, updated or deleted (Action; event
// type release). Deleting a tag also sends one with Action deleted, since
// Forgejo keeps a release record for every tag; creating a draft sends
// nothing until it is published.
type ReleaseEvent struct {
	Delivery `json:"-"`

	Action     ReleaseAction       `json:"action"`
	Release    *forgejo.Release    `json:"release"`
	Repository *forgejo.Repository `json:"repository"`
	Sender     *forgejo.User       `json:"sender"`
}

// RepositoryEvent is a repository created or deleted (Action; event type
// repository). It goes to user, organization and system hooks.
// Organization is the owner, a user for user-owned repositories.
type RepositoryEvent struct {
	Delivery `json:"-"`

	Action       RepositoryAction    `json:"action"`
	Repository   *forgejo.Repository `json:"repository"`
	Organization *forgejo.User       `json:"organization"`
	Sender       *forgejo.User       `json:"sender"`
}

// WikiEvent is a wiki page created, edited or deleted (Action; event type
// wiki).
type WikiEvent struct {
	Delivery `json:"-"`

	Action     WikiAction          `json:"action"`
	Repository *forgejo.Repository `json:"repository"`
	Sender     *forgejo.User       `json:"sender"`
	// Page is the page's name after the change.
	Page string `json:"page"`
	// Comment is the commit message of the change.
	Comment string `json:"comment"`
}

// PackageEvent is a package version created or deleted (Action; event type
// package). It has no X-Forgejo-Event family name, and no repository: it
// goes to the owner's hooks and to system hooks, never to repository hooks.
type PackageEvent struct {
	Delivery `json:"-"`

	Action PackageAction `json:"action"`
	// Repository is the repository the package is linked to, usually nil.
	Repository   *forgejo.Repository `json:"repository"`
	Package      *forgejo.Package    `json:"package"`
	Organization *forgejo.User       `json:"organization"`
	Sender       *forgejo.User       `json:"sender"`
}

// ActionRunEvent is the outcome of a Forgejo Actions run: event types
// action_run_failure, action_run_recover (a success after a failure) and
// action_run_success.
//
// No delivery of these was captured (they need a runner); the shape follows
// Forgejo's ActionPayload: the run, the status before it completed, and the
// previous run of the same workflow.
type ActionRunEvent struct {
	Delivery `json:"-"`

	// Action is the event type's own: failure (action_run_failure),
	// recover (action_run_recover) or success (action_run_success).
	Action RunAction          `json:"action"`
	Run    *forgejo.ActionRun `json:"run"`
	// PriorStatus is the run's status before it completed.
	PriorStatus string `json:"prior_status"`
	// LastRun is the previous run of the same workflow, nil for the first.
	LastRun *forgejo.ActionRun `json:"last_run,omitempty"`
}

// UnknownEvent is a delivery whose event type this package does not model
// (a newer Forgejo's, or a Gitea-only one). It is verified like any other;
// the payload is in [Delivery.Payload] and [Delivery.Decode] unmarshals it.
// The fields most payloads share are filled when present and well-formed.
type UnknownEvent struct {
	Delivery `json:"-"`

	Action     string              `json:"-"`
	Repository *forgejo.Repository `json:"-"`
	Sender     *forgejo.User       `json:"-"`
}

// decodeLenient fills the common fields of an unknown event, ignoring any
// that do not decode.
func (e *UnknownEvent) decodeLenient() {
	var top map[string]json.RawMessage
	if json.Unmarshal(e.payload, &top) != nil {
		return
	}
	var action string
	if json.Unmarshal(top["action"], &action) == nil {
		e.Action = action
	}
	var repo forgejo.Repository
	if raw, ok := top["repository"]; ok && string(raw) != "null" && json.Unmarshal(raw, &repo) == nil {
		e.Repository = &repo
	}
	var sender forgejo.User
	if raw, ok := top["sender"]; ok && string(raw) != "null" && json.Unmarshal(raw, &sender) == nil {
		e.Sender = &sender
	}
}

// newEvent returns a zero value of the payload type for t.
func newEvent(t EventType) Event {
	switch t {
	case EventPush:
		return &PushEvent{}
	case EventCreate:
		return &CreateEvent{}
	case EventDelete:
		return &DeleteEvent{}
	case EventFork:
		return &ForkEvent{}
	case EventIssues, EventIssueAssign, EventIssueLabel, EventIssueMilestone:
		return &IssuesEvent{}
	case EventIssueComment, EventPullRequestComment:
		return &IssueCommentEvent{}
	case EventPullRequest, EventPullRequestAssign, EventPullRequestLabel, EventPullRequestMilestone,
		EventPullRequestSync, EventPullRequestReviewRequest:
		return &PullRequestEvent{}
	case EventPullRequestReviewApproved, EventPullRequestReviewRejected, EventPullRequestReviewComment:
		return &PullRequestReviewEvent{}
	case EventRelease:
		return &ReleaseEvent{}
	case EventRepository:
		return &RepositoryEvent{}
	case EventWiki:
		return &WikiEvent{}
	case EventPackage:
		return &PackageEvent{}
	case EventActionRunFailure, EventActionRunRecover, EventActionRunSuccess:
		return &ActionRunEvent{}
	}
	return &UnknownEvent{}
}
