package webhook

// The action values of Forgejo 15's payloads (modules/structs/hook.go), one
// open string type per payload family, as [EventType] is: a value a newer
// Forgejo sends that is not listed here still parses, and compares unequal
// to every constant. Push, create, delete and fork payloads have no action.

// IssueAction is the Action of an [IssuesEvent], a [PullRequestEvent] and
// a [PullRequestReviewEvent] (Forgejo's HookIssueAction, shared by issues
// and pull requests). Which event type sends which value is in the
// package documentation (issues: opened, edited, closed, reopened;
// issue_assign: assigned, unassigned; ...).
type IssueAction string

// The IssueAction values Forgejo 15 sends.
const (
	IssueOpened               IssueAction = "opened"
	IssueClosed               IssueAction = "closed" // a merge too: PullRequest.Merged is then true
	IssueReopened             IssueAction = "reopened"
	IssueEdited               IssueAction = "edited"
	IssueAssigned             IssueAction = "assigned"
	IssueUnassigned           IssueAction = "unassigned"
	IssueLabelUpdated         IssueAction = "label_updated"
	IssueLabelCleared         IssueAction = "label_cleared"
	IssueSynchronized         IssueAction = "synchronized" // pull_request_sync: new commits on the head branch
	IssueMilestoned           IssueAction = "milestoned"
	IssueDemilestoned         IssueAction = "demilestoned"
	IssueReviewed             IssueAction = "reviewed" // every review event
	IssueReviewRequested      IssueAction = "review_requested"
	IssueReviewRequestRemoved IssueAction = "review_request_removed"
)

// CommentAction is the Action of an [IssueCommentEvent] (issue_comment,
// pull_request_comment).
type CommentAction string

// The CommentAction values Forgejo 15 sends.
const (
	CommentCreated CommentAction = "created"
	CommentEdited  CommentAction = "edited"
	CommentDeleted CommentAction = "deleted"
)

// ReleaseAction is the Action of a [ReleaseEvent].
type ReleaseAction string

// The ReleaseAction values Forgejo 15 sends.
const (
	ReleasePublished ReleaseAction = "published"
	ReleaseUpdated   ReleaseAction = "updated"
	ReleaseDeleted   ReleaseAction = "deleted"
)

// RepositoryAction is the Action of a [RepositoryEvent].
type RepositoryAction string

// The RepositoryAction values Forgejo 15 sends.
const (
	RepositoryCreated RepositoryAction = "created"
	RepositoryDeleted RepositoryAction = "deleted"
)

// WikiAction is the Action of a [WikiEvent].
type WikiAction string

// The WikiAction values Forgejo 15 sends.
const (
	WikiCreated WikiAction = "created"
	WikiEdited  WikiAction = "edited"
	WikiDeleted WikiAction = "deleted"
)

// PackageAction is the Action of a [PackageEvent].
type PackageAction string

// The PackageAction values Forgejo 15 sends.
const (
	PackageCreated PackageAction = "created"
	PackageDeleted PackageAction = "deleted"
)

// RunAction is the Action of an [ActionRunEvent]: one per event type
// (action_run_failure, action_run_recover, action_run_success).
type RunAction string

// The RunAction values Forgejo 15 sends.
const (
	RunFailure RunAction = "failure"
	RunRecover RunAction = "recover" // a success after a failure
	RunSuccess RunAction = "success"
)
