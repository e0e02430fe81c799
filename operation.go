package forgejo

// This file describes operations: the metadata of one API operation as
// the operations table (internal/api/operations.go) states it, which the
// generated operations_gen.go fills in and Operations lists.

// Operation describes one API operation, as the operations table states it.
type Operation struct {
	// ID is the spec's operationId, used as CallContext.Operation.
	ID string
	// Method and Path are the HTTP method and the spec's path template
	// relative to the API root, such as "/repos/{owner}/{repo}".
	Method, Path string
	// Service and Name are the Go service and method, such as "Repos" and
	// "Get".
	Service, Name string
	// Retry is the operation's retry eligibility; RetryReason says why.
	Retry       RetryEligibility
	RetryReason string
	// Paging is how the operation pages.
	Paging PagingKind
	// Since is the first supported Forgejo release that serves the
	// operation, in any form ("11.0" when every supported release does);
	// Until is the last, "" while the newest release still serves it.
	// Earlier lists the releases that serve it under another operationId or
	// path. [WithVersionCheck] and [Client.Serves] judge by them.
	Since, Until string
	Earlier      []OperationForm
	// Scope is the token scope the operation requires, measured on Forgejo
	// 15.0.3 ([ScopeUnknown] for an operation newer than that). A token
	// without it is refused with a [*ScopeError].
	Scope ScopeRequirement

	wrapped bool // the listing may arrive wrapped (docs/HAZARDS.md §11)
}

// PagingKind is how an operation pages, as the operations table says.
type PagingKind int

const (
	// PagingNone: the operation takes no paging parameters.
	PagingNone PagingKind = iota
	// PagingPageLimit: page and limit, always sent together.
	PagingPageLimit
	// PagingPageOnly: page alone; the instance picks the size
	// (repoGetWikiPageRevisions).
	PagingPageOnly
	// PagingPagePerPage: page and per_page (GetTree ignores limit).
	PagingPagePerPage
)

// String names the kind as the operations table does.
func (k PagingKind) String() string {
	switch k {
	case PagingPageLimit:
		return "page+limit"
	case PagingPageOnly:
		return "page"
	case PagingPagePerPage:
		return "page+per_page"
	default:
		return "none"
	}
}

// OperationForm is how a run of older releases serves an operation: under
// another operationId (adminDeleteQuotaRule was adminDEleteQuotaRule in
// 11.0 and 13.0) or at another path (adminGetRunnerRegistrationToken was
// GET /admin/runners/registration-token before 15.0).
type OperationForm struct {
	// ID, Method and Path are the operationId, HTTP method and path
	// template those releases' specs give it.
	ID, Method, Path string
	// Since and Until are the first and last release of the run.
	Since, Until string
}

// secondForms are the hand-written methods that serve an operation of the
// table beside its own method, in another shape: Service.Name to the
// operation. [Client.Serves] knows them by name too.
var secondForms = map[string]*Operation{
	"Repos.LinkReleaseAsset": &opRepoCreateReleaseAttachment, // the external_url form of UploadReleaseAsset
}
