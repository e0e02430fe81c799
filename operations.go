package forgejo

import "slices"

// The operations table: one Operation per API operation this client covers,
// with its retry eligibility and reason. The generator of the whole API
// replaces this hand-written slice with the full table.
var (
	opGetVersion = Operation{ID: "getVersion", Method: "GET", Path: "/version",
		Service: "Misc", Name: "GetVersion", Retry: IdempotentOnly, RetryReason: "a read"}
	opGetGeneralAPISettings = Operation{ID: "getGeneralAPISettings", Method: "GET", Path: "/settings/api",
		Service: "Settings", Name: "GetGeneralAPISettings", Retry: IdempotentOnly, RetryReason: "a read"}
	opRepoGet = Operation{ID: "repoGet", Method: "GET", Path: "/repos/{owner}/{repo}",
		Service: "Repos", Name: "Get", Retry: IdempotentOnly, RetryReason: "a read"}
	opRepoListTopics = Operation{ID: "repoListTopics", Method: "GET", Path: "/repos/{owner}/{repo}/topics",
		Service: "Repos", Name: "ListTopics", Retry: IdempotentOnly, RetryReason: "a read", Paging: PagingPageLimit}
	opRepoUpdateTopics = Operation{ID: "repoUpdateTopics", Method: "PUT", Path: "/repos/{owner}/{repo}/topics",
		Service: "Repos", Name: "UpdateTopics", Retry: AlwaysRetry,
		RetryReason: "states the whole topic list: N attempts leave the list one attempt would"}
	opIssueListIssues = Operation{ID: "issueListIssues", Method: "GET", Path: "/repos/{owner}/{repo}/issues",
		Service: "Issues", Name: "ListIssues", Retry: IdempotentOnly, RetryReason: "a read", Paging: PagingPageLimit}
	opIssueGetIssue = Operation{ID: "issueGetIssue", Method: "GET", Path: "/repos/{owner}/{repo}/issues/{index}",
		Service: "Issues", Name: "GetIssue", Retry: IdempotentOnly, RetryReason: "a read"}
	opIssueCreateIssue = Operation{ID: "issueCreateIssue", Method: "POST", Path: "/repos/{owner}/{repo}/issues",
		Service: "Issues", Name: "CreateIssue", Retry: Never,
		RetryReason: "creates an issue: a repeat after a lost response would file it twice"}
	opIssueEditIssue = Operation{ID: "issueEditIssue", Method: "PATCH", Path: "/repos/{owner}/{repo}/issues/{index}",
		Service: "Issues", Name: "EditIssue", Retry: Never,
		RetryReason: "a partial update: a repeat would re-apply it to an issue that may have moved on"}
	opNotifyReadThread = Operation{ID: "notifyReadThread", Method: "PATCH", Path: "/notifications/threads/{id}",
		Service: "Notifications", Name: "ReadThread", Retry: AlwaysRetry,
		RetryReason: "marks one thread read: the end state is the same however often it is sent"}
	opUserGetCurrent = Operation{ID: "userGetCurrent", Method: "GET", Path: "/user",
		Service: "Users", Name: "GetCurrent", Retry: IdempotentOnly, RetryReason: "a read"}
)

var operations = []*Operation{
	&opGetVersion, &opGetGeneralAPISettings, &opRepoGet, &opRepoListTopics, &opRepoUpdateTopics,
	&opIssueListIssues, &opIssueGetIssue, &opIssueCreateIssue, &opIssueEditIssue,
	&opNotifyReadThread, &opUserGetCurrent,
}

// Operations returns the table of every operation the client covers, in a
// fresh slice the caller may keep: operationId, HTTP method, path template,
// Go service and method, retry eligibility with its reason, and paging.
func Operations() []Operation {
	out := make([]Operation, 0, len(operations))
	for _, op := range operations {
		out = append(out, *op)
	}
	slices.SortFunc(out, func(a, b Operation) int {
		if a.ID < b.ID {
			return -1
		}
		if a.ID > b.ID {
			return 1
		}
		return 0
	})
	return out
}
