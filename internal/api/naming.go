package api

// # Naming rules
//
// These are the rules every Op's Service and Method follow. They are written
// here once; TestNamingRules in the forgejo package checks each of them over
// the generated services (by reflection) and the table, rule by rule. A name
// that departs from a rule says why in its row's Renamed, and only there is
// the departure accepted.
//
// N1 Verb first. A method name is a verb from Verbs, then the noun. A new verb
// is added to Verbs deliberately, not by accident.
//
// N2 No stutter. The service's own resource (ServiceNouns) is never the noun
// after the verb: Issues.Get, Issues.Create, Repos.ListBranches, not
// Issues.GetIssue or Repos.GetRepo.
//
// N3 Collections are List. A GET that returns a slice, or that pages, is
// List…, or Search… when its route ends in /search. Its iterator is the same
// name with Iter appended (Repos.ListBranchesIter).
//
// N4 Get is one item. A Get… returns one value, never a slice.
//
// N5 Edit is the partial update. Every PATCH is Edit… and every Edit… is a
// PATCH. A PATCH that only renames, moves or marks takes that verb instead,
// with the reason in Renamed (Repos.RenameBranch, Issues.MovePin,
// Notifications.MarkThreadRead). Update… and Set… are never a PATCH: Update
// replaces a whole resource (a file, a variable, a pull request's branch),
// Set writes one whole value (a secret, an avatar, a note, a deadline).
//
// N6 Yes or no. A Bool operation (204 yes, 404 no) is Is…, and every Is… is a
// Bool operation. Check… is an evaluation the instance answers with a JSON
// boolean (Users.CheckQuota).
//
// N7 Verbs match HTTP methods. Get, List, Search, Is and Check are GETs;
// Delete, Remove and Clear are DELETEs; Create is a POST. Create and Delete
// are for things that get an identity of their own (an issue, a key, a
// webhook); Add and Remove attach and detach existing things (a collaborator,
// a label on an issue, a topic, a team member); Clear removes them all;
// Replace states the whole list.
//
// N8 Scopes. When one noun exists at several scopes, every form names its
// scope with one of ScopeWords: Actions.ListRepoSecrets, ListOrgSecrets,
// ListUserSecrets; Actions.ListAdminRunners for the instance-wide form. The
// service's own resource, listed for an owner, is ListBy<Scope>
// (Repos.ListByOrg, Orgs.ListByUser, Notifications.ListByRepo); listed for the
// authenticated user it is plain List (Repos.List, Orgs.List). In Users, a
// method about another noun takes a username when unqualified, and the
// authenticated user's form adds My (Users.ListFollowers,
// Users.ListMyFollowers); the authenticated user itself is Current
// (Users.GetCurrent).
//
// N9 Deprecated routes. When the same operation is served on two routes, the
// method of the route the spec deprecates ends in Deprecated
// (Repos.CreateInOrgDeprecated); every …Deprecated method is deprecated in
// the spec.
//
// N10 Streams. An operation whose result is file content (Stream in its row:
// raw files, media, archives, diffs and patches, Actions logs and artifacts)
// has a second method that streams it: Open, then the name without its
// leading Get or Download (Repos.GetRawFile → Repos.OpenRawFile,
// Actions.DownloadArtifact → Actions.OpenArtifact). It takes the same
// arguments and returns (io.ReadCloser, *Response, error); the caller closes
// the reader. Open… names nothing else.
//
// N11 Arguments. ctx comes first, then the path parameters in route order,
// then params, a pointer to the operation's query parameters when it has any
// (an options type named <stem><Method>Options, IssueListOptions, or
// *ListOptions when it only pages), then the request body by value, and last
// opts ...CallOption, the per-call options (Sudo, WithOTP, WithHeader, ...).
// Iterators take the same arguments and apply opts to every page.
//
// N12 The operationId stays findable. Every method's doc comment ends with
// "METHOD /path (operationId)"; Operations() lists every operationId with its
// Service and Name; docs/OPERATIONS.md, generated, indexes operationId →
// Service.Method.

// serviceByTag maps a spec tag to the service an operation of that tag
// belongs to unless its row moves it (pull requests and Actions are split
// out of the repository tag, for example). The table is grouped by tag.
var serviceByTag = map[string]string{
	"repository":    "Repos",
	"user":          "Users",
	"organization":  "Orgs",
	"issue":         "Issues",
	"admin":         "Admin",
	"miscellaneous": "Misc",
	"activitypub":   "ActivityPub",
	"notification":  "Notifications",
	"package":       "Packages",
	"settings":      "Settings",
}

// ServiceForTag returns the service that holds a spec tag's table group, or ""
// for a tag the table does not know. An operation's group is that of its
// first tag.
func ServiceForTag(tag string) string {
	return serviceByTag[tag]
}

// Services lists every service name: first the tag groups in table order,
// then the services split out of them.
func Services() []string {
	return []string{"Repos", "Users", "Orgs", "Issues", "Admin", "Misc", "ActivityPub", "Notifications", "Packages", "Settings", "PullRequests", "Actions"}
}

// ServiceNouns are the words naming each service's own resource (rule N2).
var ServiceNouns = map[string][]string{
	"Repos":         {"Repo", "Repos", "Repository", "Repositories"},
	"Users":         {"User", "Users"},
	"Orgs":          {"Org", "Orgs", "Organization", "Organizations"},
	"Issues":        {"Issue", "Issues"},
	"Admin":         {"Admin"},
	"Misc":          nil,
	"ActivityPub":   {"ActivityPub"},
	"Notifications": {"Notification", "Notifications"},
	"Packages":      {"Package", "Packages"},
	"Settings":      {"Settings"},
	"PullRequests":  {"Pull", "Pulls", "PullRequest", "PullRequests"},
	"Actions":       {"Action", "Actions"},
}

// ScopeWords name the scope of a noun that exists at several (rule N8).
var ScopeWords = []string{"Repo", "Org", "User", "Admin"}

// Verbs are the verbs a method name may start with (rule N1).
var Verbs = []string{
	// reads
	"Get", "List", "Search", "Is", "Check", "Open", "Download", "Compare", "Validate", "Render",
	// resources
	"Create", "Edit", "Delete", "Update", "Set", "Upload", "Generate", "Migrate", "Register",
	// attaching
	"Add", "Remove", "Replace", "Clear",
	// state changes
	"Rename", "Move", "Mark", "Sync", "Send", "Run", "Cancel", "Dispatch", "Merge", "Request",
	"Submit", "Dismiss", "Undismiss", "Transfer", "Accept", "Reject", "Test", "Verify", "Convert",
	"Apply", "Change", "Adopt", "Link", "Unlink", "Pin", "Unpin", "Start", "Stop",
	"Block", "Unblock", "Follow", "Unfollow", "Star", "Unstar", "Watch", "Unwatch",
	"Subscribe", "Unsubscribe", "Conceal", "Publicize",
}
