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
// Replace states the whole list. An issue's labels follow go-github (rule N13 below):
// RemoveLabelsForIssue clears them.
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
// opts ...RequestOption, the per-call options (Sudo, OTP, Header, ...).
// Iterators take the same arguments and apply opts to every page.
//
// N12 The operationId stays findable. Every method's doc comment ends with
// "METHOD /path (operationId)"; Operations() lists every operationId with its
// Service and Name; docs/OPERATIONS.md, generated, indexes operationId →
// Service.Method.
//
// N13 go-github's names. Where go-github (github.com/google/go-github) has
// the same operation in a service of the same name (its IssuesService,
// RepositoriesService, PullRequestsService, OrganizationsService,
// UsersService, ActionsService, AdminService), the method has go-github's
// service and name, so that a program ported from it, or a go-github user's
// first guess, finds it: a repository's labels are Issues.ListLabels,
// GetLabel, CreateLabel, EditLabel and DeleteLabel; an issue's labels
// Issues.ListLabelsByIssue, AddLabelsToIssue, RemoveLabelForIssue,
// ReplaceLabelsForIssue and RemoveLabelsForIssue (the DELETE of the whole set
// is go-github's Remove…, not Clear…); a repository's assignees
// Issues.ListAssignees; a collaborator's permission Repos.GetPermissionLevel.
// GoGitHub lists every such operation with go-github's Service.Method; a
// method that keeps another name says why in its row's Renamed (a go-github
// name that would break N1 to N12, say).

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

// GoGitHub maps an operationId to the Service.Method go-github names the same
// operation (rule N13). A row whose method differs says why in Renamed.
var GoGitHub = map[string]string{
	// IssuesService
	"issueListIssues":             "Issues.ListByRepo",
	"issueGetIssue":               "Issues.Get",
	"issueCreateIssue":            "Issues.Create",
	"issueEditIssue":              "Issues.Edit",
	"repoGetAssignees":            "Issues.ListAssignees",
	"issueGetComments":            "Issues.ListComments",
	"issueGetRepoComments":        "Issues.ListComments",
	"issueGetComment":             "Issues.GetComment",
	"issueCreateComment":          "Issues.CreateComment",
	"issueEditComment":            "Issues.EditComment",
	"issueDeleteComment":          "Issues.DeleteComment",
	"issueGetCommentsAndTimeline": "Issues.ListIssueTimeline",
	"issueListLabels":             "Issues.ListLabels",
	"issueGetLabel":               "Issues.GetLabel",
	"issueCreateLabel":            "Issues.CreateLabel",
	"issueEditLabel":              "Issues.EditLabel",
	"issueDeleteLabel":            "Issues.DeleteLabel",
	"issueGetLabels":              "Issues.ListLabelsByIssue",
	"issueAddLabel":               "Issues.AddLabelsToIssue",
	"issueRemoveLabel":            "Issues.RemoveLabelForIssue",
	"issueReplaceLabels":          "Issues.ReplaceLabelsForIssue",
	"issueClearLabels":            "Issues.RemoveLabelsForIssue",
	"issueGetMilestonesList":      "Issues.ListMilestones",
	"issueGetMilestone":           "Issues.GetMilestone",
	"issueCreateMilestone":        "Issues.CreateMilestone",
	"issueEditMilestone":          "Issues.EditMilestone",
	"issueDeleteMilestone":        "Issues.DeleteMilestone",

	// RepositoriesService
	"repoGet":                       "Repos.Get",
	"repoGetByID":                   "Repos.GetByID",
	"repoEdit":                      "Repos.Edit",
	"repoDelete":                    "Repos.Delete",
	"orgListRepos":                  "Repos.ListByOrg",
	"userListRepos":                 "Repos.ListByUser",
	"repoListBranches":              "Repos.ListBranches",
	"repoGetBranch":                 "Repos.GetBranch",
	"repoUpdateBranch":              "Repos.RenameBranch",
	"repoGetBranchProtection":       "Repos.GetBranchProtection",
	"repoListCollaborators":         "Repos.ListCollaborators",
	"repoCheckCollaborator":         "Repos.IsCollaborator",
	"repoAddCollaborator":           "Repos.AddCollaborator",
	"repoDeleteCollaborator":        "Repos.RemoveCollaborator",
	"repoGetRepoPermissions":        "Repos.GetPermissionLevel",
	"repoListHooks":                 "Repos.ListHooks",
	"repoGetHook":                   "Repos.GetHook",
	"repoCreateHook":                "Repos.CreateHook",
	"repoEditHook":                  "Repos.EditHook",
	"repoDeleteHook":                "Repos.DeleteHook",
	"repoTestHook":                  "Repos.TestHook",
	"repoListKeys":                  "Repos.ListKeys",
	"repoGetKey":                    "Repos.GetKey",
	"repoCreateKey":                 "Repos.CreateKey",
	"repoDeleteKey":                 "Repos.DeleteKey",
	"repoListReleases":              "Repos.ListReleases",
	"repoGetRelease":                "Repos.GetRelease",
	"repoGetLatestRelease":          "Repos.GetLatestRelease",
	"repoGetReleaseByTag":           "Repos.GetReleaseByTag",
	"repoCreateRelease":             "Repos.CreateRelease",
	"repoEditRelease":               "Repos.EditRelease",
	"repoDeleteRelease":             "Repos.DeleteRelease",
	"repoListReleaseAttachments":    "Repos.ListReleaseAssets",
	"repoGetReleaseAttachment":      "Repos.GetReleaseAsset",
	"repoEditReleaseAttachment":     "Repos.EditReleaseAsset",
	"repoDeleteReleaseAttachment":   "Repos.DeleteReleaseAsset",
	"repoCreateReleaseAttachment":   "Repos.UploadReleaseAsset",
	"repoGetContents":               "Repos.GetContents",
	"repoCreateFile":                "Repos.CreateFile",
	"repoUpdateFile":                "Repos.UpdateFile",
	"repoDeleteFile":                "Repos.DeleteFile",
	"listForks":                     "Repos.ListForks",
	"createFork":                    "Repos.CreateFork",
	"repoCreateStatus":              "Repos.CreateStatus",
	"repoListStatusesByRef":         "Repos.ListStatuses",
	"repoGetCombinedStatusByRef":    "Repos.GetCombinedStatus",
	"repoGetAllCommits":             "Repos.ListCommits",
	"repoGetSingleCommit":           "Repos.GetCommit",
	"repoDownloadCommitDiffOrPatch": "Repos.GetCommitRaw",
	"repoCompareDiff":               "Repos.CompareCommits",
	"repoListTags":                  "Repos.ListTags",
	"repoListTeams":                 "Repos.ListTeams",
	"repoGetLanguages":              "Repos.ListLanguages",
	"repoListTopics":                "Repos.ListAllTopics",
	"repoUpdateTopics":              "Repos.ReplaceAllTopics",

	// PullRequestsService
	"repoListPullRequests":         "PullRequests.List",
	"repoGetPullRequest":           "PullRequests.Get",
	"repoCreatePullRequest":        "PullRequests.Create",
	"repoEditPullRequest":          "PullRequests.Edit",
	"repoMergePullRequest":         "PullRequests.Merge",
	"repoPullRequestIsMerged":      "PullRequests.IsMerged",
	"repoGetPullRequestFiles":      "PullRequests.ListFiles",
	"repoGetPullRequestCommits":    "PullRequests.ListCommits",
	"repoDownloadPullDiffOrPatch":  "PullRequests.GetRaw",
	"repoUpdatePullRequest":        "PullRequests.UpdateBranch",
	"repoListPullReviews":          "PullRequests.ListReviews",
	"repoGetPullReview":            "PullRequests.GetReview",
	"repoCreatePullReview":         "PullRequests.CreateReview",
	"repoSubmitPullReview":         "PullRequests.SubmitReview",
	"repoDismissPullReview":        "PullRequests.DismissReview",
	"repoGetPullReviewComments":    "PullRequests.ListReviewComments",
	"repoCreatePullReviewRequests": "PullRequests.RequestReviewers",
	"repoDeletePullReviewRequests": "PullRequests.RemoveReviewers",

	// OrganizationsService
	"orgGet":              "Orgs.Get",
	"orgEdit":             "Orgs.Edit",
	"orgDelete":           "Orgs.Delete",
	"orgGetAll":           "Orgs.ListAll",
	"orgListMembers":      "Orgs.ListMembers",
	"orgIsMember":         "Orgs.IsMember",
	"orgIsPublicMember":   "Orgs.IsPublicMember",
	"orgDeleteMember":     "Orgs.RemoveMember",
	"orgPublicizeMember":  "Orgs.PublicizeMembership",
	"orgConcealMember":    "Orgs.ConcealMembership",
	"orgListHooks":        "Orgs.ListHooks",
	"orgGetHook":          "Orgs.GetHook",
	"orgCreateHook":       "Orgs.CreateHook",
	"orgEditHook":         "Orgs.EditHook",
	"orgDeleteHook":       "Orgs.DeleteHook",
	"orgListBlockedUsers": "Orgs.ListBlockedUsers",
	"orgBlockUser":        "Orgs.BlockUser",
	"orgUnblockUser":      "Orgs.UnblockUser",

	// UsersService
	"userGet":                 "Users.Get",
	"userListFollowers":       "Users.ListFollowers",
	"userListFollowing":       "Users.ListFollowing",
	"userCheckFollowing":      "Users.IsFollowing",
	"userCurrentPutFollow":    "Users.Follow",
	"userCurrentDeleteFollow": "Users.Unfollow",
	"userListKeys":            "Users.ListKeys",
	"userCurrentGetKey":       "Users.GetKey",
	"userCurrentPostKey":      "Users.CreateKey",
	"userCurrentDeleteKey":    "Users.DeleteKey",
	"userListGPGKeys":         "Users.ListGPGKeys",
	"userCurrentGetGPGKey":    "Users.GetGPGKey",
	"userCurrentPostGPGKey":   "Users.CreateGPGKey",
	"userCurrentDeleteGPGKey": "Users.DeleteGPGKey",
	"userListEmails":          "Users.ListEmails",
	"userAddEmail":            "Users.AddEmails",
	"userDeleteEmail":         "Users.DeleteEmails",
	"userListBlockedUsers":    "Users.ListBlockedUsers",
	"userBlockUser":           "Users.BlockUser",
	"userUnblockUser":         "Users.UnblockUser",

	// ActionsService
	"ListActionArtifacts":    "Actions.ListArtifacts",
	"GetActionArtifact":      "Actions.GetArtifact",
	"DownloadActionArtifact": "Actions.DownloadArtifact",
	"DeleteActionArtifact":   "Actions.DeleteArtifact",
	"repoListActionsSecrets": "Actions.ListRepoSecrets",
	"orgListActionsSecrets":  "Actions.ListOrgSecrets",
	"updateRepoSecret":       "Actions.CreateOrUpdateRepoSecret",
	"updateOrgSecret":        "Actions.CreateOrUpdateOrgSecret",
	"deleteRepoSecret":       "Actions.DeleteRepoSecret",
	"deleteOrgSecret":        "Actions.DeleteOrgSecret",
	"getRepoVariablesList":   "Actions.ListRepoVariables",
	"getRepoVariable":        "Actions.GetRepoVariable",
	"createRepoVariable":     "Actions.CreateRepoVariable",
	"updateRepoVariable":     "Actions.UpdateRepoVariable",
	"deleteRepoVariable":     "Actions.DeleteRepoVariable",
	"getOrgVariablesList":    "Actions.ListOrgVariables",
	"getOrgVariable":         "Actions.GetOrgVariable",
	"createOrgVariable":      "Actions.CreateOrgVariable",
	"updateOrgVariable":      "Actions.UpdateOrgVariable",
	"deleteOrgVariable":      "Actions.DeleteOrgVariable",

	// AdminService
	"adminCreateUser": "Admin.CreateUser",
	"adminDeleteUser": "Admin.DeleteUser",
	"adminCreateOrg":  "Admin.CreateOrg",
}
