package forgejotest

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// routeSpec is one row of the fake's route table.
type routeSpec struct {
	method, path, op string
	auth             bool
	h                func(c *call)
}

// uploadOps are the routes whose body is a file, streamed (readUpload).
var uploadOps = map[string]bool{
	"repoCreateReleaseAttachment":       true,
	"issueCreateIssueAttachment":        true,
	"issueCreateIssueCommentAttachment": true,
}

// routeTable lists every operation the fake implements, by operationId as the
// spec names them: one function per service of the library (ReposService:
// reposRoutes, IssuesService: issuesRoutes, …), each row naming its handler,
// which lives in the service's h_<service>*.go files.
func routeTable() []routeSpec {
	return slices.Concat(reposRoutes(), issuesRoutes(), pullsRoutes(), orgsRoutes(), usersRoutes(),
		adminRoutes(), actionsRoutes(), packagesRoutes(), notificationsRoutes(), miscRoutes(), settingsRoutes())
}

// reposRoutes are ReposService's operations. Handlers: h_repos.go (repositories,
// topics, forks, collaborators, watches, transfers), h_repos_branches.go,
// h_repos_contents.go (files, the tree, tags, issue templates), h_repos_compare.go,
// h_repos_git.go, h_repos_hooks.go, h_repos_keys.go, h_repos_mirrors.go,
// h_repos_releases.go, h_repos_statuses.go, h_repos_wiki.go; a repository's teams
// and an organization's repositories h_orgs.go, tracked times h_issues_times.go.
func reposRoutes() []routeSpec {
	const (
		pub  = false
		auth = true
		R    = "/repos/{owner}/{repo}"
	)
	return []routeSpec{
		// the current user's and a user's repositories, creating one
		{"GET", "/user/repos", "userCurrentListRepos", auth, hListUserRepos(true)},
		{"GET", "/users/{username}/repos", "userListRepos", pub, hListUserRepos(false)},
		{"POST", "/user/repos", "createCurrentUserRepo", auth, hCreateRepo},

		// repositories
		{"GET", R, "repoGet", pub, hGetRepo},
		{"PATCH", R, "repoEdit", auth, hEditRepo},
		{"DELETE", R, "repoDelete", auth, hDeleteRepo},
		{"GET", R + "/topics", "repoListTopics", pub, hListTopics},
		{"PUT", R + "/topics", "repoUpdateTopics", auth, hReplaceTopics},
		{"PUT", R + "/topics/{topic}", "repoAddTopic", auth, hAddTopic},
		{"DELETE", R + "/topics/{topic}", "repoDeleteTopic", auth, hDeleteTopic},
		{"GET", "/topics/search", "topicSearch", pub, hSearchTopics},
		{"GET", R + "/stargazers", "repoListStargazers", pub, hStargazers},
		{"GET", R + "/forks", "listForks", pub, hListForks},
		{"POST", R + "/forks", "createFork", auth, hCreateFork},
		{"GET", R + "/branches", "repoListBranches", pub, hListBranches},
		{"POST", R + "/branches", "repoCreateBranch", auth, hCreateBranch},
		{"GET", R + "/branches/{branch}", "repoGetBranch", pub, hGetBranch},
		{"DELETE", R + "/branches/{branch}", "repoDeleteBranch", auth, hDeleteBranch},

		// repositories: search, collaborators, branch protections, tags
		{"GET", "/repos/search", "repoSearch", pub, hSearchRepos},
		{"GET", R + "/collaborators", "repoListCollaborators", auth, hListCollaborators},
		{"GET", R + "/collaborators/{collaborator}", "repoCheckCollaborator", auth, hCheckCollaborator},
		{"PUT", R + "/collaborators/{collaborator}", "repoAddCollaborator", auth, hAddCollaborator},
		{"DELETE", R + "/collaborators/{collaborator}", "repoDeleteCollaborator", auth, hDeleteCollaborator},
		{"GET", R + "/collaborators/{collaborator}/permission", "repoGetRepoPermissions", auth, hCollaboratorPermission},
		{"GET", R + "/branch_protections", "repoListBranchProtection", auth, hListProtections},
		{"POST", R + "/branch_protections", "repoCreateBranchProtection", auth, hCreateProtection},
		{"GET", R + "/branch_protections/{name}", "repoGetBranchProtection", auth, hGetProtection},
		{"PATCH", R + "/branch_protections/{name}", "repoEditBranchProtection", auth, hEditProtection},
		{"DELETE", R + "/branch_protections/{name}", "repoDeleteBranchProtection", auth, hDeleteProtection},
		{"GET", R + "/tags", "repoListTags", pub, hListTags},
		{"POST", R + "/tags", "repoCreateTag", auth, hCreateTag},
		{"GET", R + "/tags/{tag}", "repoGetTag", pub, hGetTag},
		{"DELETE", R + "/tags/{tag}", "repoDeleteTag", auth, hDeleteTag},

		// contents and the git tree
		{"GET", R + "/contents", "repoGetContentsList", pub, hGetContents},
		{"GET", R + "/contents/{filepath}", "repoGetContents", pub, hGetContents},
		{"POST", R + "/contents/{filepath}", "repoCreateFile", auth, hCreateFile},
		{"PUT", R + "/contents/{filepath}", "repoUpdateFile", auth, hUpdateFile},
		{"DELETE", R + "/contents/{filepath}", "repoDeleteFile", auth, hDeleteFile},
		{"GET", R + "/raw/{filepath}", "repoGetRawFile", pub, hGetRawFile},
		{"GET", R + "/git/trees/{sha}", "GetTree", pub, hGetTree},
		{"GET", R + "/compare/{basehead}", "repoCompareDiff", pub, hCompare},
		{"GET", R + "/git/commits/{sha}", "repoGetSingleCommit", pub, hGetCommit},
		{"POST", R + "/statuses/{sha}", "repoCreateStatus", auth, hCreateStatus},
		{"GET", R + "/statuses/{sha}", "repoListStatuses", pub, hListStatuses("sha")},
		{"GET", R + "/commits/{ref}/statuses", "repoListStatusesByRef", pub, hListStatuses("ref")},
		{"GET", R + "/commits/{ref}/status", "repoGetCombinedStatusByRef", pub, hCombinedStatus},

		// releases and attachments
		{"GET", R + "/releases", "repoListReleases", pub, hListReleases},
		{"POST", R + "/releases", "repoCreateRelease", auth, hCreateRelease},
		{"GET", R + "/releases/latest", "repoGetLatestRelease", pub, hLatestRelease},
		{"GET", R + "/releases/tags/{tag}", "repoGetReleaseByTag", pub, hGetReleaseByTag},
		{"DELETE", R + "/releases/tags/{tag}", "repoDeleteReleaseByTag", auth, hDeleteReleaseByTag},
		{"GET", R + "/releases/{id}", "repoGetRelease", pub, hGetRelease},
		{"PATCH", R + "/releases/{id}", "repoEditRelease", auth, hEditRelease},
		{"DELETE", R + "/releases/{id}", "repoDeleteRelease", auth, hDeleteRelease},
		{"GET", R + "/releases/{id}/assets", "repoListReleaseAttachments", pub, hListAssets("release")},
		{"POST", R + "/releases/{id}/assets", "repoCreateReleaseAttachment", auth, hCreateAsset("release")},
		{"GET", R + "/releases/{id}/assets/{attachment_id}", "repoGetReleaseAttachment", pub, hGetAsset("release")},
		{"PATCH", R + "/releases/{id}/assets/{attachment_id}", "repoEditReleaseAttachment", auth, hEditAsset("release")},
		{"DELETE", R + "/releases/{id}/assets/{attachment_id}", "repoDeleteReleaseAttachment", auth, hDeleteAsset("release")},

		// hooks
		{"GET", R + "/hooks", "repoListHooks", auth, hListHooks("repo")},
		{"POST", R + "/hooks", "repoCreateHook", auth, hCreateHook("repo")},
		{"GET", R + "/hooks/{id}", "repoGetHook", auth, hGetHook("repo")},
		{"PATCH", R + "/hooks/{id}", "repoEditHook", auth, hEditHook("repo")},
		{"DELETE", R + "/hooks/{id}", "repoDeleteHook", auth, hDeleteHook("repo")},
		{"POST", R + "/hooks/{id}/tests", "repoTestHook", auth, hTestHook},

		// an organization's repositories, a repository's teams (h_orgs.go)
		{"GET", "/orgs/{org}/repos", "orgListRepos", pub, hListOrgRepos},
		{"POST", "/orgs/{org}/repos", "createOrgRepo", auth, hCreateOrgRepo},
		{"GET", R + "/teams", "repoListTeams", pub, hRepoTeams},
		{"GET", R + "/teams/{team}", "repoCheckTeam", pub, hRepoTeam},
		{"PUT", R + "/teams/{team}", "repoAddTeam", auth, hSetRepoTeam(true)},
		{"DELETE", R + "/teams/{team}", "repoDeleteTeam", auth, hSetRepoTeam(false)},

		// tracked times (h_issues_times.go)
		{"GET", R + "/times", "repoTrackedTimes", auth, hRepoTimes},
		{"GET", R + "/times/{user}", "userTrackedTimes", auth, hRepoUserTimes},

		// watches
		{"GET", R + "/subscription", "userCurrentCheckSubscription", auth, hCheckWatch},
		{"PUT", R + "/subscription", "userCurrentPutSubscription", auth, hWatch(true)},
		{"DELETE", R + "/subscription", "userCurrentDeleteSubscription", auth, hWatch(false)},
		{"GET", R + "/subscribers", "repoListSubscribers", pub, hListWatchers},

		// may a pin be added, reviewers
		{"GET", R + "/new_pin_allowed", "repoNewPinAllowed", pub, hNewPinAllowed},
		{"GET", R + "/reviewers", "repoGetReviewers", auth, hReviewers},

		// the wiki
		{"POST", R + "/wiki/new", "repoCreateWikiPage", auth, hCreateWikiPage},
		{"GET", R + "/wiki/page/{pageName}", "repoGetWikiPage", pub, hGetWikiPage},
		{"PATCH", R + "/wiki/page/{pageName}", "repoEditWikiPage", auth, hEditWikiPage},
		{"DELETE", R + "/wiki/page/{pageName}", "repoDeleteWikiPage", auth, hDeleteWikiPage},
		{"GET", R + "/wiki/pages", "repoGetWikiPages", pub, hListWikiPages},
		{"GET", R + "/wiki/revisions/{pageName}", "repoGetWikiPageRevisions", pub, hWikiRevisions},

		// deploy keys, tag protections
		{"GET", R + "/keys", "repoListKeys", auth, hListDeployKeys},
		{"POST", R + "/keys", "repoCreateKey", auth, hCreateDeployKey},
		{"GET", R + "/keys/{id}", "repoGetKey", auth, hGetDeployKey},
		{"DELETE", R + "/keys/{id}", "repoDeleteKey", auth, hDeleteDeployKey},
		{"GET", R + "/tag_protections", "repoListTagProtection", auth, hListTagProtections},
		{"POST", R + "/tag_protections", "repoCreateTagProtection", auth, hCreateTagProtection},
		{"GET", R + "/tag_protections/{id}", "repoGetTagProtection", auth, hGetTagProtection},
		{"PATCH", R + "/tag_protections/{id}", "repoEditTagProtection", auth, hEditTagProtection},
		{"DELETE", R + "/tag_protections/{id}", "repoDeleteTagProtection", auth, hDeleteTagProtection},

		// git data
		{"GET", R + "/git/refs", "repoListAllGitRefs", pub, hGitRefs},
		{"GET", R + "/git/refs/{ref}", "repoListGitRefs", pub, hGitRefs},
		{"GET", R + "/git/tags/{sha}", "GetAnnotatedTag", pub, hAnnotatedTag},
		{"GET", R + "/git/blobs/{sha}", "GetBlob", pub, hGetBlob},
		{"GET", R + "/git/blobs", "GetBlobs", pub, hGetBlobs},
		{"GET", R + "/commits", "repoGetAllCommits", pub, hListCommits},
		{"GET", "/repositories/{id}", "repoGetByID", auth, hRepoByID},
		{"GET", R + "/languages", "repoGetLanguages", pub, hLanguages},
		{"GET", R + "/media/{filepath}", "repoGetRawFileOrLFS", pub, hGetRawFile},
		{"GET", R + "/archive/{archive}", "repoGetArchive", pub, hArchive},
		{"GET", R + "/editorconfig/{filepath}", "repoGetEditorConfig", pub, hEditorConfig},
		{"GET", R + "/git/commits/{sha}.{diffType}", "repoDownloadCommitDiffOrPatch", pub, hCommitDiff},
		{"POST", R + "/contents", "repoChangeFiles", auth, hChangeFiles},
		{"PATCH", R + "/branches/{branch}", "repoUpdateBranch", auth, hRenameBranch},
		{"GET", R + "/git/notes/{sha}", "repoGetNote", pub, hGetNote},
		{"POST", R + "/git/notes/{sha}", "repoSetNote", auth, hSetNote},
		{"DELETE", R + "/git/notes/{sha}", "repoRemoveNote", auth, hRemoveNote},
		{"GET", R + "/issue_templates", "repoGetIssueTemplates", pub, hIssueTemplates},
		{"GET", R + "/issue_config", "repoGetIssueConfig", pub, hIssueConfig},
		{"GET", R + "/issue_config/validate", "repoValidateIssueConfig", pub, hValidateIssueConfig},
		{"POST", R + "/avatar", "repoUpdateAvatar", auth, hUpdateRepoAvatar},
		{"DELETE", R + "/avatar", "repoDeleteAvatar", auth, hDeleteRepoAvatar},
		{"POST", R + "/transfer", "repoTransfer", auth, hTransfer},
		{"POST", R + "/transfer/accept", "acceptRepoTransfer", auth, hAnswerTransfer(true)},
		{"POST", R + "/transfer/reject", "rejectRepoTransfer", auth, hAnswerTransfer(false)},

		// push mirrors
		{"GET", R + "/push_mirrors", "repoListPushMirrors", auth, hListPushMirrors},
		{"POST", R + "/push_mirrors", "repoAddPushMirror", auth, hAddPushMirror},
		{"GET", R + "/push_mirrors/{name}", "repoGetPushMirrorByRemoteName", auth, hGetPushMirror},
		{"DELETE", R + "/push_mirrors/{name}", "repoDeletePushMirror", auth, hDeletePushMirror},
		{"POST", R + "/push_mirrors-sync", "repoPushMirrorSync", auth, hSyncPushMirrors},
		{"POST", R + "/mirror-sync", "repoMirrorSync", auth, hMirrorSync},
	}
}

// issuesRoutes are IssuesService's operations. Handlers: h_issues.go, labels
// h_issues_labels.go, tracked times and stopwatches h_issues_times.go,
// attachments h_repos_releases.go (the release assets' handlers).
func issuesRoutes() []routeSpec {
	const (
		pub  = false
		auth = true
		R    = "/repos/{owner}/{repo}"
		I    = R + "/issues/{index}"
	)
	return []routeSpec{
		// issues, comments, labels, milestones
		{"GET", R + "/issues", "issueListIssues", pub, hListIssues},
		{"POST", R + "/issues", "issueCreateIssue", auth, hCreateIssue},
		{"GET", I, "issueGetIssue", pub, hGetIssue},
		{"PATCH", I, "issueEditIssue", auth, hEditIssue},
		{"DELETE", I, "issueDelete", auth, hDeleteIssue},
		{"GET", I + "/comments", "issueGetComments", pub, hListComments},
		{"POST", I + "/comments", "issueCreateComment", auth, hCreateComment},
		{"GET", R + "/issues/comments", "issueGetRepoComments", pub, hListRepoComments},
		{"GET", R + "/issues/comments/{id}", "issueGetComment", pub, hGetComment},
		{"PATCH", R + "/issues/comments/{id}", "issueEditComment", auth, hEditComment},
		{"DELETE", R + "/issues/comments/{id}", "issueDeleteComment", auth, hDeleteComment},
		{"GET", I + "/labels", "issueGetLabels", pub, hIssueLabels},
		{"POST", I + "/labels", "issueAddLabel", auth, hSetIssueLabels(false)},
		{"PUT", I + "/labels", "issueReplaceLabels", auth, hSetIssueLabels(true)},
		{"DELETE", I + "/labels", "issueClearLabels", auth, hClearIssueLabels},
		{"DELETE", I + "/labels/{identifier}", "issueRemoveLabel", auth, hRemoveIssueLabel},
		{"GET", R + "/labels", "issueListLabels", pub, hListLabels},
		{"POST", R + "/labels", "issueCreateLabel", auth, hCreateLabel},
		{"GET", R + "/labels/{id}", "issueGetLabel", pub, hGetLabel},
		{"PATCH", R + "/labels/{id}", "issueEditLabel", auth, hEditLabel},
		{"DELETE", R + "/labels/{id}", "issueDeleteLabel", auth, hDeleteLabel},
		{"GET", R + "/milestones", "issueGetMilestonesList", pub, hListMilestones},
		{"POST", R + "/milestones", "issueCreateMilestone", auth, hCreateMilestone},
		{"GET", R + "/milestones/{id}", "issueGetMilestone", pub, hGetMilestone},
		{"PATCH", R + "/milestones/{id}", "issueEditMilestone", auth, hEditMilestone},
		{"DELETE", R + "/milestones/{id}", "issueDeleteMilestone", auth, hDeleteMilestone},

		// attachments (the release assets' handlers, h_repos_releases.go)
		{"GET", I + "/assets", "issueListIssueAttachments", pub, hListAssets("issue")},
		{"POST", I + "/assets", "issueCreateIssueAttachment", auth, hCreateAsset("issue")},
		{"GET", I + "/assets/{attachment_id}", "issueGetIssueAttachment", pub, hGetAsset("issue")},
		{"PATCH", I + "/assets/{attachment_id}", "issueEditIssueAttachment", auth, hEditAsset("issue")},
		{"DELETE", I + "/assets/{attachment_id}", "issueDeleteIssueAttachment", auth, hDeleteAsset("issue")},
		{"GET", R + "/issues/comments/{id}/assets", "issueListIssueCommentAttachments", pub, hListAssets("comment")},
		{"POST", R + "/issues/comments/{id}/assets", "issueCreateIssueCommentAttachment", auth, hCreateAsset("comment")},
		{"GET", R + "/issues/comments/{id}/assets/{attachment_id}", "issueGetIssueCommentAttachment", pub, hGetAsset("comment")},
		{"PATCH", R + "/issues/comments/{id}/assets/{attachment_id}", "issueEditIssueCommentAttachment", auth, hEditAsset("comment")},
		{"DELETE", R + "/issues/comments/{id}/assets/{attachment_id}", "issueDeleteIssueCommentAttachment", auth, hDeleteAsset("comment")},

		// issues: search, reactions, dependencies
		{"GET", "/repos/issues/search", "issueSearchIssues", pub, hSearchIssues},
		{"GET", I + "/reactions", "issueGetIssueReactions", pub, hListReactions(false)},
		{"POST", I + "/reactions", "issuePostIssueReaction", auth, hReact(true, false)},
		{"DELETE", I + "/reactions", "issueDeleteIssueReaction", auth, hReact(false, false)},
		{"GET", R + "/issues/comments/{id}/reactions", "issueGetCommentReactions", pub, hListReactions(true)},
		{"POST", R + "/issues/comments/{id}/reactions", "issuePostCommentReaction", auth, hReact(true, true)},
		{"DELETE", R + "/issues/comments/{id}/reactions", "issueDeleteCommentReaction", auth, hReact(false, true)},
		{"GET", I + "/dependencies", "issueListIssueDependencies", pub, hListDeps(false)},
		{"POST", I + "/dependencies", "issueCreateIssueDependencies", auth, hSetDep(false, true)},
		{"DELETE", I + "/dependencies", "issueRemoveIssueDependencies", auth, hSetDep(false, false)},
		{"GET", I + "/blocks", "issueListBlocks", pub, hListDeps(true)},
		{"POST", I + "/blocks", "issueCreateIssueBlocking", auth, hSetDep(true, true)},
		{"DELETE", I + "/blocks", "issueRemoveIssueBlocking", auth, hSetDep(true, false)},

		// tracked times and stopwatches
		{"GET", I + "/times", "issueTrackedTimes", auth, hIssueTimes},
		{"POST", I + "/times", "issueAddTime", auth, hAddTime},
		{"DELETE", I + "/times", "issueResetTime", auth, hResetTime},
		{"DELETE", I + "/times/{id}", "issueDeleteTime", auth, hDeleteTime},
		{"POST", I + "/stopwatch/start", "issueStartStopWatch", auth, hStopwatch("start")},
		{"POST", I + "/stopwatch/stop", "issueStopStopWatch", auth, hStopwatch("stop")},
		{"DELETE", I + "/stopwatch/delete", "issueDeleteStopWatch", auth, hStopwatch("delete")},
		{"POST", I + "/deadline", "issueEditIssueDeadline", auth, hSetDeadline},

		// subscriptions
		{"GET", I + "/subscriptions", "issueSubscriptions", pub, hIssueSubscribers},
		{"GET", I + "/subscriptions/check", "issueCheckSubscription", auth, hCheckIssueSubscription},
		{"PUT", I + "/subscriptions/{user}", "issueAddSubscription", auth, hSetIssueSubscription(true)},
		{"DELETE", I + "/subscriptions/{user}", "issueDeleteSubscription", auth, hSetIssueSubscription(false)},

		// pins, assignees, the timeline, the deprecated comment routes
		{"POST", I + "/pin", "pinIssue", auth, hPin(true)},
		{"DELETE", I + "/pin", "unpinIssue", auth, hPin(false)},
		{"PATCH", I + "/pin/{position}", "moveIssuePin", auth, hMovePin},
		{"GET", R + "/issues/pinned", "repoListPinnedIssues", pub, hListPinned(false)},
		{"GET", R + "/assignees", "repoGetAssignees", auth, hAssignees},
		{"GET", I + "/timeline", "issueGetCommentsAndTimeline", pub, hTimeline},
		{"PATCH", I + "/comments/{id}", "issueEditCommentDeprecated", auth, hEditComment},
		{"DELETE", I + "/comments/{id}", "issueDeleteCommentDeprecated", auth, hDeleteComment},
	}
}

// pullsRoutes are PullRequestsService's operations. Handlers: h_pulls.go; pinned
// pull requests h_issues.go.
func pullsRoutes() []routeSpec {
	const (
		pub  = false
		auth = true
		R    = "/repos/{owner}/{repo}"
	)
	return []routeSpec{
		// pull requests
		{"GET", R + "/pulls", "repoListPullRequests", pub, hListPulls},
		{"POST", R + "/pulls", "repoCreatePullRequest", auth, hCreatePull},
		{"GET", R + "/pulls/{index}", "repoGetPullRequest", pub, hGetPull},
		{"PATCH", R + "/pulls/{index}", "repoEditPullRequest", auth, hEditPull},
		{"GET", R + "/pulls/{index}/merge", "repoPullRequestIsMerged", pub, hIsMerged},
		{"POST", R + "/pulls/{index}/merge", "repoMergePullRequest", auth, hMergePull},
		{"GET", R + "/pulls/{index}/reviews", "repoListPullReviews", pub, hListReviews},
		{"GET", R + "/pulls/{index}/commits", "repoGetPullRequestCommits", pub, hPullCommits},
		{"GET", R + "/pulls/{index}/files", "repoGetPullRequestFiles", pub, hPullFiles},

		{"POST", R + "/pulls/{index}/reviews", "repoCreatePullReview", auth, hCreateReview},
		{"GET", R + "/pulls/{index}/reviews/{id}", "repoGetPullReview", pub, hGetReview},
		{"POST", R + "/pulls/{index}/reviews/{id}", "repoSubmitPullReview", auth, hSubmitReview},
		{"DELETE", R + "/pulls/{index}/reviews/{id}", "repoDeletePullReview", auth, hDeleteReview},
		{"POST", R + "/pulls/{index}/reviews/{id}/dismissals", "repoDismissPullReview", auth, hDismissReview(true)},
		{"POST", R + "/pulls/{index}/reviews/{id}/undismissals", "repoUnDismissPullReview", auth, hDismissReview(false)},
		{"POST", R + "/pulls/{index}/requested_reviewers", "repoCreatePullReviewRequests", auth, hReviewRequests(true)},
		{"DELETE", R + "/pulls/{index}/requested_reviewers", "repoDeletePullReviewRequests", auth, hReviewRequests(false)},
		{"GET", R + "/pulls/{index}.{diffType}", "repoDownloadPullDiffOrPatch", pub, hPullDiff},

		// pinned pull requests (h_issues.go)
		{"GET", R + "/pulls/pinned", "repoListPinnedPullRequests", pub, hListPinned(true)},

		// the pull request of a commit or of a branch pair, auto-merge
		{"GET", R + "/commits/{sha}/pull", "repoGetCommitPullRequest", pub, hCommitPull},
		{"GET", R + "/pulls/{base}/{head}", "repoGetPullRequestByBaseHead", pub, hPullByBaseHead},
		{"DELETE", R + "/pulls/{index}/merge", "repoCancelScheduledAutoMerge", auth, hCancelAutoMerge},
	}
}

// orgsRoutes are OrgsService's operations. Handlers: h_orgs.go, hooks
// h_repos_hooks.go, blocks, avatars and renames h_users_social.go, quotas
// h_admin_quota.go.
func orgsRoutes() []routeSpec {
	const (
		pub  = false
		auth = true
	)
	rows := []routeSpec{
		// hooks
		{"GET", "/orgs/{org}/hooks", "orgListHooks", auth, hListHooks("org")},
		{"POST", "/orgs/{org}/hooks", "orgCreateHook", auth, hCreateHook("org")},
		{"GET", "/orgs/{org}/hooks/{id}", "orgGetHook", auth, hGetHook("org")},
		{"PATCH", "/orgs/{org}/hooks/{id}", "orgEditHook", auth, hEditHook("org")},
		{"DELETE", "/orgs/{org}/hooks/{id}", "orgDeleteHook", auth, hDeleteHook("org")},

		// organizations, members, teams, organization labels
		{"GET", "/orgs", "orgGetAll", pub, hListAllOrgs},
		{"POST", "/orgs", "orgCreate", auth, hCreateOrg},
		{"GET", "/orgs/{org}", "orgGet", pub, hGetOrg},
		{"PATCH", "/orgs/{org}", "orgEdit", auth, hEditOrg},
		{"DELETE", "/orgs/{org}", "orgDelete", auth, hDeleteOrg},
		{"GET", "/user/orgs", "orgListCurrentUserOrgs", auth, hListMyOrgs},
		{"GET", "/users/{username}/orgs", "orgListUserOrgs", pub, hListUserOrgs},
		{"GET", "/users/{username}/orgs/{org}/permissions", "orgGetUserPermissions", auth, hUserOrgPermissions},
		{"GET", "/orgs/{org}/members", "orgListMembers", pub, hListOrgMembers(false)},
		{"GET", "/orgs/{org}/members/{username}", "orgIsMember", auth, hIsOrgMember},
		{"DELETE", "/orgs/{org}/members/{username}", "orgDeleteMember", auth, hRemoveOrgMember},
		{"GET", "/orgs/{org}/public_members", "orgListPublicMembers", pub, hListOrgMembers(true)},
		{"GET", "/orgs/{org}/public_members/{username}", "orgIsPublicMember", pub, hIsPublicMember},
		{"PUT", "/orgs/{org}/public_members/{username}", "orgPublicizeMember", auth, hSetPublicMember(true)},
		{"DELETE", "/orgs/{org}/public_members/{username}", "orgConcealMember", auth, hSetPublicMember(false)},
		{"GET", "/orgs/{org}/teams", "orgListTeams", auth, hListOrgTeams},
		{"POST", "/orgs/{org}/teams", "orgCreateTeam", auth, hCreateTeam},
		{"GET", "/orgs/{org}/teams/search", "teamSearch", auth, hSearchTeams},
		{"GET", "/teams/{id}", "orgGetTeam", auth, hGetTeam},
		{"PATCH", "/teams/{id}", "orgEditTeam", auth, hEditTeam},
		{"DELETE", "/teams/{id}", "orgDeleteTeam", auth, hDeleteTeam},
		{"GET", "/teams/{id}/members", "orgListTeamMembers", auth, hTeamMembers},
		{"GET", "/teams/{id}/members/{username}", "orgListTeamMember", auth, hTeamMember},
		{"PUT", "/teams/{id}/members/{username}", "orgAddTeamMember", auth, hSetTeamMember(true)},
		{"DELETE", "/teams/{id}/members/{username}", "orgRemoveTeamMember", auth, hSetTeamMember(false)},
		{"GET", "/teams/{id}/repos", "orgListTeamRepos", auth, hTeamRepos},
		{"GET", "/teams/{id}/repos/{org}/{repo}", "orgListTeamRepo", auth, hTeamRepo},
		{"PUT", "/teams/{id}/repos/{org}/{repo}", "orgAddTeamRepository", auth, hSetTeamRepo(true)},
		{"DELETE", "/teams/{id}/repos/{org}/{repo}", "orgRemoveTeamRepository", auth, hSetTeamRepo(false)},
		{"GET", "/orgs/{org}/labels", "orgListLabels", pub, hListOrgLabels},
		{"POST", "/orgs/{org}/labels", "orgCreateLabel", auth, hCreateOrgLabel},
		{"GET", "/orgs/{org}/labels/{id}", "orgGetLabel", pub, hGetOrgLabel},
		{"PATCH", "/orgs/{org}/labels/{id}", "orgEditLabel", auth, hEditOrgLabel},
		{"DELETE", "/orgs/{org}/labels/{id}", "orgDeleteLabel", auth, hDeleteOrgLabel},
	}
	return append(rows, []routeSpec{
		// blocking (Forgejo only)
		{"PUT", "/orgs/{org}/block/{username}", "orgBlockUser", auth, hBlock(true, true)},
		{"PUT", "/orgs/{org}/unblock/{username}", "orgUnblockUser", auth, hBlock(true, false)},
		{"GET", "/orgs/{org}/list_blocked", "orgListBlockedUsers", auth, hListBlocked(true)},

		// avatars, renaming an organization
		{"POST", "/orgs/{org}/avatar", "orgUpdateAvatar", auth, hSetAvatar(true)},
		{"DELETE", "/orgs/{org}/avatar", "orgDeleteAvatar", auth, hDeleteAvatar(true)},
		{"POST", "/orgs/{org}/rename", "renameOrg", auth, hRenameOrg},

		// quotas (h_admin_quota.go)
		{"GET", "/orgs/{org}/quota", "orgGetQuota", auth, hGetQuota(true)},
		{"GET", "/orgs/{org}/quota/check", "orgCheckQuota", auth, hCheckQuota(true)},
		{"GET", "/orgs/{org}/quota/artifacts", "orgListQuotaArtifacts", auth, hQuotaArtifacts(true)},
		{"GET", "/orgs/{org}/quota/attachments", "orgListQuotaAttachments", auth, hQuotaAttachments(true)},
		{"GET", "/orgs/{org}/quota/packages", "orgListQuotaPackages", auth, hQuotaPackages(true)},
	}...)
}

// usersRoutes are UsersService's operations. Handlers: h_users.go, h_users_*.go
// (accounts, SSH keys and tokens, GPG keys, blocks and avatars), hooks
// h_repos_hooks.go, watched repositories h_repos.go, times and stopwatches
// h_issues_times.go, quotas h_admin_quota.go.
func usersRoutes() []routeSpec {
	const (
		pub  = false
		auth = true
	)
	rows := []routeSpec{
		// users, follows, stars
		{"GET", "/user", "userGetCurrent", auth, hCurrentUser},
		{"GET", "/users/{username}", "userGet", pub, hGetUser},
		{"GET", "/user/followers", "userCurrentListFollowers", auth, hListFollowers(true)},
		{"GET", "/user/following", "userCurrentListFollowing", auth, hListFollowing(true)},
		{"GET", "/users/{username}/followers", "userListFollowers", auth, hListFollowers(false)},
		{"GET", "/users/{username}/following", "userListFollowing", auth, hListFollowing(false)},
		{"GET", "/user/following/{username}", "userCurrentCheckFollowing", auth, hCheckFollowing(true)},
		{"GET", "/users/{username}/following/{target}", "userCheckFollowing", auth, hCheckFollowing(false)},
		{"PUT", "/user/following/{username}", "userCurrentPutFollow", auth, hFollow(true)},
		{"DELETE", "/user/following/{username}", "userCurrentDeleteFollow", auth, hFollow(false)},
		{"GET", "/user/starred", "userCurrentListStarred", auth, hListStarred(true)},
		{"GET", "/users/{username}/starred", "userListStarred", auth, hListStarred(false)},
		{"GET", "/user/starred/{owner}/{repo}", "userCurrentCheckStarring", auth, hCheckStar},
		{"PUT", "/user/starred/{owner}/{repo}", "userCurrentPutStar", auth, hStar(true)},
		{"DELETE", "/user/starred/{owner}/{repo}", "userCurrentDeleteStar", auth, hStar(false)},

		// hooks
		{"GET", "/user/hooks", "userListHooks", auth, hListHooks("user")},
		{"POST", "/user/hooks", "userCreateHook", auth, hCreateHook("user")},
		{"GET", "/user/hooks/{id}", "userGetHook", auth, hGetHook("user")},
		{"PATCH", "/user/hooks/{id}", "userEditHook", auth, hEditHook("user")},
		{"DELETE", "/user/hooks/{id}", "userDeleteHook", auth, hDeleteHook("user")},

		// teams (h_orgs.go)
		{"GET", "/user/teams", "userListTeams", auth, hListMyTeams},

		// tracked times and stopwatches (h_issues_times.go)
		{"GET", "/user/times", "userCurrentTrackedTimes", auth, hMyTimes},
		{"GET", "/user/stopwatches", "userGetStopWatches", auth, hMyStopwatches},

		// watched repositories (h_repos.go)
		{"GET", "/user/subscriptions", "userCurrentListSubscriptions", auth, hListWatched(true)},
		{"GET", "/users/{username}/subscriptions", "userListSubscriptions", pub, hListWatched(false)},
	}
	return append(rows, []routeSpec{
		// SSH keys
		{"GET", "/user/keys", "userCurrentListKeys", auth, hListKeys(true)},
		{"POST", "/user/keys", "userCurrentPostKey", auth, hCreateKey(false)},
		{"GET", "/user/keys/{id}", "userCurrentGetKey", auth, hGetKey},
		{"DELETE", "/user/keys/{id}", "userCurrentDeleteKey", auth, hDeleteKey(false)},
		{"GET", "/users/{username}/keys", "userListKeys", auth, hListKeys(false)},

		// GPG keys (h_users_gpg.go: parsed, signatures not verified)
		{"GET", "/user/gpg_keys", "userCurrentListGPGKeys", auth, hListGPGKeys(true)},
		{"POST", "/user/gpg_keys", "userCurrentPostGPGKey", auth, hCreateGPGKey},
		{"GET", "/user/gpg_keys/{id}", "userCurrentGetGPGKey", auth, hGetGPGKey},
		{"DELETE", "/user/gpg_keys/{id}", "userCurrentDeleteGPGKey", auth, hDeleteGPGKey},
		{"GET", "/users/{username}/gpg_keys", "userListGPGKeys", auth, hListGPGKeys(false)},
		{"GET", "/user/gpg_key_token", "getVerificationToken", auth, hGPGToken},
		{"POST", "/user/gpg_key_verify", "userVerifyGPGKey", auth, hVerifyGPGKey},

		// e-mail addresses
		{"GET", "/user/emails", "userListEmails", auth, hListEmails(false)},
		{"POST", "/user/emails", "userAddEmail", auth, hAddEmails},
		{"DELETE", "/user/emails", "userDeleteEmail", auth, hDeleteEmails(false)},

		// access tokens: the self-or-admin and Basic checks are the handlers'
		{"GET", "/users/{username}/tokens", "userGetTokens", pub, hListTokens(false)},
		{"POST", "/users/{username}/tokens", "userCreateToken", pub, hCreateToken(false)},
		{"DELETE", "/users/{username}/tokens/{token}", "userDeleteAccessToken", pub, hDeleteToken(false)},

		// settings, search
		{"GET", "/user/settings", "getUserSettings", auth, hGetSettings},
		{"PATCH", "/user/settings", "updateUserSettings", auth, hEditSettings},
		{"GET", "/users/search", "userSearch", pub, hSearchUsers},
		{"GET", "/users/{username}/heatmap", "userGetHeatmapData", pub, hHeatmap},

		// OAuth2 applications
		{"GET", "/user/applications/oauth2", "userGetOAuth2Applications", auth, hListApps},
		{"POST", "/user/applications/oauth2", "userCreateOAuth2Application", auth, hCreateApp},
		{"GET", "/user/applications/oauth2/{id}", "userGetOAuth2Application", auth, hGetApp},
		{"PATCH", "/user/applications/oauth2/{id}", "userUpdateOAuth2Application", auth, hEditApp},
		{"DELETE", "/user/applications/oauth2/{id}", "userDeleteOAuth2Application", auth, hDeleteApp},

		// blocking (Forgejo only)
		{"PUT", "/user/block/{username}", "userBlockUser", auth, hBlock(false, true)},
		{"PUT", "/user/unblock/{username}", "userUnblockUser", auth, hBlock(false, false)},
		{"GET", "/user/list_blocked", "userListBlockedUsers", auth, hListBlocked(false)},

		// avatars
		{"POST", "/user/avatar", "userUpdateAvatar", auth, hSetAvatar(false)},
		{"DELETE", "/user/avatar", "userDeleteAvatar", auth, hDeleteAvatar(false)},

		// quotas (h_admin_quota.go)
		{"GET", "/user/quota", "userGetQuota", auth, hGetQuota(false)},
		{"GET", "/user/quota/check", "userCheckQuota", auth, hCheckQuota(false)},
		{"GET", "/user/quota/artifacts", "userListQuotaArtifacts", auth, hQuotaArtifacts(false)},
		{"GET", "/user/quota/attachments", "userListQuotaAttachments", auth, hQuotaAttachments(false)},
		{"GET", "/user/quota/packages", "userListQuotaPackages", auth, hQuotaPackages(false)},
	}...)
}

// adminRoutes are AdminService's operations, all for site administrators
// (adminOnly). Handlers: h_admin.go, quotas h_admin_quota.go, keys and tokens
// h_users_keys.go, e-mail addresses h_users_accounts.go, hooks
// h_repos_hooks.go, unadopted repositories h_users_social.go.
func adminRoutes() []routeSpec {
	const auth = true
	return []routeSpec{
		// site administration (h_admin.go)
		{"GET", "/admin/users", "adminSearchUsers", auth, adminOnly(hAdminListUsers)},
		{"POST", "/admin/users", "adminCreateUser", auth, adminOnly(hAdminCreateUser)},
		{"PATCH", "/admin/users/{username}", "adminEditUser", auth, adminOnly(hAdminEditUser)},
		{"DELETE", "/admin/users/{username}", "adminDeleteUser", auth, adminOnly(hAdminDeleteUser)},
		{"POST", "/admin/users/{username}/rename", "adminRenameUser", auth, adminOnly(hAdminRenameUser)},
		{"POST", "/admin/users/{username}/orgs", "adminCreateOrg", auth, adminOnly(hAdminCreateOrg)},
		{"POST", "/admin/users/{username}/repos", "adminCreateRepo", auth, adminOnly(hAdminCreateRepo)},
		{"POST", "/admin/users/{username}/keys", "adminCreatePublicKey", auth, adminOnly(hCreateKey(true))},
		{"DELETE", "/admin/users/{username}/keys/{id}", "adminDeleteUserPublicKey", auth, adminOnly(hDeleteKey(true))},
		{"GET", "/admin/users/{username}/emails", "adminListUserEmails", auth, adminOnly(hListEmails(true))},
		{"DELETE", "/admin/users/{username}/emails", "adminDeleteUserEmails", auth, adminOnly(hDeleteEmails(true))},
		{"GET", "/admin/users/{username}/tokens", "adminListUserAccessTokens", auth, adminOnly(hListTokens(true))},
		{"POST", "/admin/users/{username}/tokens", "adminCreateUserAccessToken", auth, adminOnly(hCreateToken(true))},
		{"DELETE", "/admin/users/{username}/tokens/{token}", "adminDeleteUserAccessToken", auth, adminOnly(hDeleteToken(true))},
		{"GET", "/admin/orgs", "adminGetAllOrgs", auth, adminOnly(hAdminListOrgs)},
		{"GET", "/admin/emails", "adminGetAllEmails", auth, adminOnly(hAdminEmails(false))},
		{"GET", "/admin/emails/search", "adminSearchEmails", auth, adminOnly(hAdminEmails(true))},
		{"GET", "/admin/hooks", "adminListHooks", auth, adminOnly(hListHooks("admin"))},
		{"POST", "/admin/hooks", "adminCreateHook", auth, adminOnly(hCreateHook("admin"))},
		{"GET", "/admin/hooks/{id}", "adminGetHook", auth, adminOnly(hGetHook("admin"))},
		{"PATCH", "/admin/hooks/{id}", "adminEditHook", auth, adminOnly(hEditHook("admin"))},
		{"DELETE", "/admin/hooks/{id}", "adminDeleteHook", auth, adminOnly(hDeleteHook("admin"))},
		{"GET", "/admin/cron", "adminCronList", auth, adminOnly(hCronList)},
		{"POST", "/admin/cron/{task}", "adminCronRun", auth, adminOnly(hCronRun)},
		{"GET", "/admin/unadopted", "adminUnadoptedList", auth, adminOnly(hUnadopted)},
		{"POST", "/admin/unadopted/{owner}/{repo}", "adminAdoptRepository", auth, adminOnly(hAdopt)},
		{"DELETE", "/admin/unadopted/{owner}/{repo}", "adminDeleteUnadoptedRepository", auth, adminOnly(hAdopt)},

		// quotas (h_admin_quota.go)
		{"GET", "/admin/quota/groups", "adminListQuotaGroups", auth, adminOnly(hListQuotaGroups)},
		{"POST", "/admin/quota/groups", "adminCreateQuotaGroup", auth, adminOnly(hCreateQuotaGroup)},
		{"GET", "/admin/quota/groups/{quotagroup}", "adminGetQuotaGroup", auth, adminOnly(hGetQuotaGroup)},
		{"DELETE", "/admin/quota/groups/{quotagroup}", "adminDeleteQuotaGroup", auth, adminOnly(hDeleteQuotaGroup)},
		{"PUT", "/admin/quota/groups/{quotagroup}/rules/{quotarule}", "adminAddRuleToQuotaGroup", auth, adminOnly(hQuotaGroupRule(true))},
		{"DELETE", "/admin/quota/groups/{quotagroup}/rules/{quotarule}", "adminRemoveRuleFromQuotaGroup", auth, adminOnly(hQuotaGroupRule(false))},
		{"GET", "/admin/quota/groups/{quotagroup}/users", "adminListUsersInQuotaGroup", auth, adminOnly(hQuotaGroupUsers)},
		{"PUT", "/admin/quota/groups/{quotagroup}/users/{username}", "adminAddUserToQuotaGroup", auth, adminOnly(hQuotaGroupUser(true))},
		{"DELETE", "/admin/quota/groups/{quotagroup}/users/{username}", "adminRemoveUserFromQuotaGroup", auth, adminOnly(hQuotaGroupUser(false))},
		{"GET", "/admin/quota/rules", "adminListQuotaRules", auth, adminOnly(hListQuotaRules)},
		{"POST", "/admin/quota/rules", "adminCreateQuotaRule", auth, adminOnly(hCreateQuotaRule)},
		{"GET", "/admin/quota/rules/{quotarule}", "adminGetQuotaRule", auth, adminOnly(hGetQuotaRule)},
		{"PATCH", "/admin/quota/rules/{quotarule}", "adminEditQuotaRule", auth, adminOnly(hEditQuotaRule)},
		{"DELETE", "/admin/quota/rules/{quotarule}", "adminDeleteQuotaRule", auth, adminOnly(hDeleteQuotaRule)},
		{"GET", "/admin/users/{username}/quota", "adminGetUserQuota", auth, adminOnly(hAdminUserQuota)},
		{"POST", "/admin/users/{username}/quota/groups", "adminSetUserQuotaGroups", auth, adminOnly(hSetUserQuotaGroups)},
	}
}

// actionsRoutes are ActionsService's operations. Handlers: h_actions.go
// (secrets, variables, runners), h_actions_runs.go (runs, jobs, tasks, logs,
// artifacts, dispatch).
func actionsRoutes() []routeSpec {
	const (
		pub  = false
		auth = true
		R    = "/repos/{owner}/{repo}/actions"
		O    = "/orgs/{org}/actions"
		U    = "/user/actions"
		A    = "/admin/actions"
	)
	return []routeSpec{
		// secrets
		{"GET", R + "/secrets", "repoListActionsSecrets", auth, hListSecrets(repoScope)},
		{"PUT", R + "/secrets/{secretname}", "updateRepoSecret", auth, hPutSecret(repoScope)},
		{"DELETE", R + "/secrets/{secretname}", "deleteRepoSecret", auth, hDeleteSecret(repoScope)},
		{"GET", O + "/secrets", "orgListActionsSecrets", auth, hListSecrets(orgScope)},
		{"PUT", O + "/secrets/{secretname}", "updateOrgSecret", auth, hPutSecret(orgScope)},
		{"DELETE", O + "/secrets/{secretname}", "deleteOrgSecret", auth, hDeleteSecret(orgScope)},
		{"PUT", U + "/secrets/{secretname}", "updateUserSecret", auth, hPutSecret(userScope)},
		{"DELETE", U + "/secrets/{secretname}", "deleteUserSecret", auth, hDeleteSecret(userScope)},

		// variables
		{"GET", R + "/variables", "getRepoVariablesList", auth, hListVariables(repoScope)},
		{"GET", R + "/variables/{variablename}", "getRepoVariable", auth, hGetVariable(repoScope)},
		{"POST", R + "/variables/{variablename}", "createRepoVariable", auth, hCreateVariable(repoScope)},
		{"PUT", R + "/variables/{variablename}", "updateRepoVariable", auth, hUpdateVariable(repoScope)},
		{"DELETE", R + "/variables/{variablename}", "deleteRepoVariable", auth, hDeleteVariable(repoScope)},
		{"GET", O + "/variables", "getOrgVariablesList", auth, hListVariables(orgScope)},
		{"GET", O + "/variables/{variablename}", "getOrgVariable", auth, hGetVariable(orgScope)},
		{"POST", O + "/variables/{variablename}", "createOrgVariable", auth, hCreateVariable(orgScope)},
		{"PUT", O + "/variables/{variablename}", "updateOrgVariable", auth, hUpdateVariable(orgScope)},
		{"DELETE", O + "/variables/{variablename}", "deleteOrgVariable", auth, hDeleteVariable(orgScope)},
		{"GET", U + "/variables", "getUserVariablesList", auth, hListVariables(userScope)},
		{"GET", U + "/variables/{variablename}", "getUserVariable", auth, hGetVariable(userScope)},
		{"POST", U + "/variables/{variablename}", "createUserVariable", auth, hCreateVariable(userScope)},
		{"PUT", U + "/variables/{variablename}", "updateUserVariable", auth, hUpdateVariable(userScope)},
		{"DELETE", U + "/variables/{variablename}", "deleteUserVariable", auth, hDeleteVariable(userScope)},

		// runners, registration tokens, jobs waiting for a runner
		{"GET", R + "/runners", "getRepoRunners", auth, hListRunners(repoScope)},
		{"POST", R + "/runners", "registerRepoRunner", auth, hRegisterRunner(repoScope)},
		{"GET", R + "/runners/registration-token", "repoGetRunnerRegistrationToken", auth, hRegistrationToken(repoScope)},
		{"GET", R + "/runners/jobs", "repoSearchRunJobs", auth, synced(hSearchRunJobs(repoScope))},
		{"GET", R + "/runners/{runner_id}", "getRepoRunner", auth, hGetRunner(repoScope)},
		{"DELETE", R + "/runners/{runner_id}", "deleteRepoRunner", auth, hDeleteRunner(repoScope)},
		{"GET", O + "/runners", "getOrgRunners", auth, hListRunners(orgScope)},
		{"POST", O + "/runners", "registerOrgRunner", auth, hRegisterRunner(orgScope)},
		{"GET", O + "/runners/registration-token", "orgGetRunnerRegistrationToken", auth, hRegistrationToken(orgScope)},
		{"GET", O + "/runners/jobs", "orgSearchRunJobs", auth, synced(hSearchRunJobs(orgScope))},
		{"GET", O + "/runners/{runner_id}", "getOrgRunner", auth, hGetRunner(orgScope)},
		{"DELETE", O + "/runners/{runner_id}", "deleteOrgRunner", auth, hDeleteRunner(orgScope)},
		{"GET", U + "/runners", "getUserRunners", auth, hListRunners(userScope)},
		{"POST", U + "/runners", "registerUserRunner", auth, hRegisterRunner(userScope)},
		{"GET", U + "/runners/registration-token", "userGetRunnerRegistrationToken", auth, hRegistrationToken(userScope)},
		{"GET", U + "/runners/jobs", "userSearchRunJobs", auth, synced(hSearchRunJobs(userScope))},
		{"GET", U + "/runners/{runner_id}", "getUserRunner", auth, hGetRunner(userScope)},
		{"DELETE", U + "/runners/{runner_id}", "deleteUserRunner", auth, hDeleteRunner(userScope)},
		{"GET", A + "/runners", "getAdminRunners", auth, hListRunners(adminScope)},
		{"POST", A + "/runners", "registerAdminRunner", auth, hRegisterRunner(adminScope)},
		{"GET", A + "/runners/registration-token", "adminGetRunnerRegistrationToken", auth, hRegistrationToken(adminScope)},
		{"GET", A + "/runners/jobs", "adminGetActionRunJobs", auth, synced(hSearchRunJobs(adminScope))},
		{"GET", A + "/runners/{runner_id}", "getAdminRunner", auth, hGetRunner(adminScope)},
		{"DELETE", A + "/runners/{runner_id}", "deleteAdminRunner", auth, hDeleteRunner(adminScope)},
		// The routes Forgejo 15 deprecated, at their older paths.
		{"GET", "/admin/runners/registration-token", "adminGetRegistrationToken", auth, hRegistrationToken(adminScope)},
		{"GET", "/admin/runners/jobs", "adminSearchRunJobs", auth, synced(hSearchRunJobs(adminScope))},

		// runs, jobs, tasks, logs, artifacts, dispatch; each first brings the
		// attached runners' runs up to the time (h_actions_runner.go)
		{"GET", R + "/runs", "ListActionRuns", pub, synced(hListRuns)},
		{"GET", R + "/runs/{run_id}", "ActionRun", pub, synced(hGetRun)},
		{"DELETE", R + "/runs/{run_id}", "DeleteActionRun", auth, synced(hDeleteRun)},
		{"POST", R + "/runs/{run_id}/cancel", "CancelActionRun", auth, synced(hCancelRun)},
		{"GET", R + "/runs/{run_id}/jobs", "ListActionRunJobs", pub, synced(hListRunJobs)},
		{"GET", R + "/runs/{run_id}/logs", "repoGetActionRunLogs", pub, synced(hRunLogs)},
		{"GET", R + "/runs/{run_id}/artifacts", "ListActionRunArtifacts", pub, synced(hListArtifacts(true))},
		{"GET", R + "/jobs/{job_id}/logs", "repoGetActionJobLogs", pub, synced(hJobLogs)},
		{"GET", R + "/tasks", "ListActionTasks", pub, synced(hListTasks)},
		{"GET", R + "/artifacts", "ListActionArtifacts", pub, synced(hListArtifacts(false))},
		{"GET", R + "/artifacts/{artifact_id}", "GetActionArtifact", pub, synced(hGetArtifact)},
		{"DELETE", R + "/artifacts/{artifact_id}", "DeleteActionArtifact", auth, synced(hDeleteArtifact)},
		{"GET", R + "/artifacts/{artifact_id}/zip", "DownloadActionArtifact", pub, synced(hDownloadArtifact)},
		{"POST", R + "/workflows/{workflowfilename}/dispatches", "DispatchWorkflow", auth, synced(hDispatchWorkflow)},
		{"GET", "/actions/run", "getActionsRun", pub, synced(hCurrentRun)},
	}
}

// packagesRoutes are PackagesService's operations. Handlers: h_packages.go.
func packagesRoutes() []routeSpec {
	const pub, auth = false, true
	return []routeSpec{
		// Anyone may list a user's packages on Forgejo 15 (Gitea 1.27 wants
		// a token: 401 "token is required").
		{"GET", "/packages/{owner}", "listPackages", pub, hListPackages},
		{"GET", "/packages/{owner}/{type}/{name}/{version}", "getPackage", auth, hGetPackage},
		{"DELETE", "/packages/{owner}/{type}/{name}/{version}", "deletePackage", auth, hDeletePackage},
		{"GET", "/packages/{owner}/{type}/{name}/{version}/files", "listPackageFiles", auth, hListPackageFiles},
		{"POST", "/packages/{owner}/{type}/{name}/-/link/{repo_name}", "linkPackage", auth, hLinkPackage},
		{"POST", "/packages/{owner}/{type}/{name}/-/unlink", "unlinkPackage", auth, hUnlinkPackage},
	}
}

// notificationsRoutes are NotificationsService's operations. Handlers:
// h_notifications.go.
func notificationsRoutes() []routeSpec {
	const (
		auth = true
		R    = "/repos/{owner}/{repo}"
	)
	return []routeSpec{
		// notifications
		{"GET", "/notifications", "notifyGetList", auth, hListNotifications(false)},
		{"PUT", "/notifications", "notifyReadList", auth, hReadNotifications(false)},
		{"GET", "/notifications/new", "notifyNewAvailable", auth, hNewNotifications},
		{"GET", "/notifications/threads/{id}", "notifyGetThread", auth, hGetThread},
		{"PATCH", "/notifications/threads/{id}", "notifyReadThread", auth, hReadThread},
		{"GET", R + "/notifications", "notifyGetRepoList", auth, hListNotifications(true)},
		{"PUT", R + "/notifications", "notifyReadRepoList", auth, hReadNotifications(true)},
	}
}

// miscRoutes are MiscService's operations. Handlers: h_misc.go.
func miscRoutes() []routeSpec {
	const (
		pub  = false
		auth = true
	)
	return []routeSpec{
		// the version
		{"GET", "/version", "getVersion", pub, hVersion},

		// templates, markup
		{"GET", "/label/templates", "listLabelTemplates", pub, hLabelTemplates},
		{"GET", "/label/templates/{name}", "getLabelTemplateInfo", pub, hLabelTemplate},
		{"GET", "/gitignore/templates", "listGitignoresTemplates", pub, hGitignoreTemplates},
		{"GET", "/gitignore/templates/{name}", "getGitignoreTemplateInfo", pub, hGitignoreTemplate},
		{"GET", "/licenses", "listLicenseTemplates", pub, hLicenseTemplates},
		{"GET", "/licenses/{name}", "getLicenseTemplateInfo", pub, hLicenseTemplate},
		{"POST", "/markdown", "renderMarkdown", auth, hMarkdown},
		{"POST", "/markdown/raw", "renderMarkdownRaw", auth, hMarkdownRaw},
		{"POST", "/markup", "renderMarkup", auth, hMarkup},
	}
}

// settingsRoutes are SettingsService's operations. Handlers: h_settings.go.
func settingsRoutes() []routeSpec {
	const pub = false
	return []routeSpec{
		// settings
		{"GET", "/settings/api", "getGeneralAPISettings", pub, hAPISettings},
		{"GET", "/settings/attachment", "getGeneralAttachmentSettings", pub, hAttachmentSettings},
		{"GET", "/settings/repository", "getGeneralRepositorySettings", pub, hRepositorySettings},
		{"GET", "/settings/ui", "getGeneralUISettings", pub, hUISettings},
	}
}

func buildRoutes() []*route {
	specs := routeTable()
	out := make([]*route, 0, len(specs))
	for _, s := range specs {
		out = append(out, &route{method: s.method, tmpl: compileTemplate(s.path), op: s.op, auth: s.auth, upload: uploadOps[s.op], h: s.h})
	}
	return out
}

// ImplementedOperations lists the operationIds the fake answers, sorted.
func ImplementedOperations() []string {
	var ops []string
	for _, s := range routeTable() {
		ops = append(ops, s.op)
	}
	slices.Sort(ops)
	return ops
}

// ---- lookups shared by handlers; each answers the error itself and
// returns nil when the thing is missing.

// pathRepoIssue finds the path's repository and its issue {index}; the
// issue is nil when either is missing (the error answered).
func (c *call) pathRepoIssue() (*repo, *issue) {
	r := c.pathRepo()
	if r == nil {
		return nil, nil
	}
	return r, c.pathIssue(r)
}

// pathUser finds the user named by a path parameter; a missing one is
// Forgejo's 404 "user redirect does not exist".
func (c *call) pathUser(param string) *user {
	name := c.p[param]
	if u := c.st.user(name); u != nil {
		return u
	}
	if c.redirectRenamed(name) { // a renamed account (h_users_social.go)
		return nil
	}
	c.fail(http.StatusNotFound, "user redirect does not exist [name: "+strings.ToLower(name)+"]")
	return nil
}

// pathRepo finds {owner}/{repo}: a missing owner is 404 GetUserByName with
// the detail in errors (as Codeberg answers), a missing or private
// repository the generic 404.
func (c *call) pathRepo() *repo {
	owner := c.p["owner"]
	if c.st.user(owner) == nil && c.redirectRenamed(owner) {
		return nil
	}
	if c.st.user(owner) == nil {
		c.failErrs(http.StatusNotFound, "GetUserByName", "user redirect does not exist [name: "+strings.ToLower(owner)+"]")
		return nil
	}
	r := c.st.repo(owner, c.p["repo"])
	if r == nil && c.redirectRepo(owner, c.p["repo"]) {
		return nil
	}
	if r == nil || !canRead(c.user, r) {
		c.notFound()
		return nil
	}
	return r
}

func (c *call) pathInt(param string) (int64, bool) {
	n, err := strconv.ParseInt(c.p[param], 10, 64)
	if err != nil || n < 1 {
		return 0, false
	}
	return n, true
}

// pathIssue finds {index} in r, issues and pull requests alike.
func (c *call) pathIssue(r *repo) *issue {
	n, ok := c.pathInt("index")
	if !ok {
		c.notFound()
		return nil
	}
	is := r.issue(n)
	if is == nil {
		c.notFound()
		return nil
	}
	return is
}

// canWriteRepo answers 403 (or 423 for an archived repository) unless the
// caller may write to r.
func (c *call) canWriteRepo(r *repo) bool {
	if !canWrite(c.user, r) {
		c.fail(http.StatusForbidden, "user should have a permission to write to a repo")
		return false
	}
	return c.notArchived(r)
}

// canAdminRepo answers 403 unless the caller administers r.
func (c *call) canAdminRepo(r *repo) bool {
	if !canAdmin(c.user, r) {
		c.fail(http.StatusForbidden, "user should be an owner or a collaborator with admin write of a repository")
		return false
	}
	return true
}

func (c *call) notArchived(r *repo) bool {
	if r.archived {
		c.fail(http.StatusLocked, "repo is archived")
		return false
	}
	return true
}

// adminOnly wraps an administration handler with reqSiteAdmin.
func adminOnly(h func(c *call)) func(c *call) {
	return func(c *call) {
		if c.siteAdmin() {
			h(c)
		}
	}
}
