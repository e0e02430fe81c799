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

	wrapped bool // the listing may arrive wrapped (docs/HAZARDS.md §11)
}
