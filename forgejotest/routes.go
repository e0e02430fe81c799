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
// spec names them. Each area keeps its rows next to its handlers.
func routeTable() []routeSpec {
	return slices.Concat(coreRoutes(), actionsRoutes(), accountRoutes(), repoMoreRoutes())
}

// coreRoutes are the areas the fake has implemented longest.
func coreRoutes() []routeSpec {
	const (
		pub  = false
		auth = true
		R    = "/repos/{owner}/{repo}"
	)
	return []routeSpec{
		// miscellaneous, settings
		{"GET", "/version", "getVersion", pub, hVersion},
		{"GET", "/settings/api", "getGeneralAPISettings", pub, hAPISettings},

		// users, follows, stars, the current user's repositories
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

		// issues, comments, labels, milestones
		{"GET", R + "/issues", "issueListIssues", pub, hListIssues},
		{"POST", R + "/issues", "issueCreateIssue", auth, hCreateIssue},
		{"GET", R + "/issues/{index}", "issueGetIssue", pub, hGetIssue},
		{"PATCH", R + "/issues/{index}", "issueEditIssue", auth, hEditIssue},
		{"DELETE", R + "/issues/{index}", "issueDelete", auth, hDeleteIssue},
		{"GET", R + "/issues/{index}/comments", "issueGetComments", pub, hListComments},
		{"POST", R + "/issues/{index}/comments", "issueCreateComment", auth, hCreateComment},
		{"GET", R + "/issues/comments", "issueGetRepoComments", pub, hListRepoComments},
		{"GET", R + "/issues/comments/{id}", "issueGetComment", pub, hGetComment},
		{"PATCH", R + "/issues/comments/{id}", "issueEditComment", auth, hEditComment},
		{"DELETE", R + "/issues/comments/{id}", "issueDeleteComment", auth, hDeleteComment},
		{"GET", R + "/issues/{index}/labels", "issueGetLabels", pub, hIssueLabels},
		{"POST", R + "/issues/{index}/labels", "issueAddLabel", auth, hSetIssueLabels(false)},
		{"PUT", R + "/issues/{index}/labels", "issueReplaceLabels", auth, hSetIssueLabels(true)},
		{"DELETE", R + "/issues/{index}/labels", "issueClearLabels", auth, hClearIssueLabels},
		{"DELETE", R + "/issues/{index}/labels/{identifier}", "issueRemoveLabel", auth, hRemoveIssueLabel},
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

		// repositories: search, organization repositories, collaborators,
		// branch protections, tags
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
		{"GET", R + "/issues/{index}/assets", "issueListIssueAttachments", pub, hListAssets("issue")},
		{"POST", R + "/issues/{index}/assets", "issueCreateIssueAttachment", auth, hCreateAsset("issue")},
		{"GET", R + "/issues/{index}/assets/{attachment_id}", "issueGetIssueAttachment", pub, hGetAsset("issue")},
		{"PATCH", R + "/issues/{index}/assets/{attachment_id}", "issueEditIssueAttachment", auth, hEditAsset("issue")},
		{"DELETE", R + "/issues/{index}/assets/{attachment_id}", "issueDeleteIssueAttachment", auth, hDeleteAsset("issue")},
		{"GET", R + "/issues/comments/{id}/assets", "issueListIssueCommentAttachments", pub, hListAssets("comment")},
		{"POST", R + "/issues/comments/{id}/assets", "issueCreateIssueCommentAttachment", auth, hCreateAsset("comment")},
		{"GET", R + "/issues/comments/{id}/assets/{attachment_id}", "issueGetIssueCommentAttachment", pub, hGetAsset("comment")},
		{"PATCH", R + "/issues/comments/{id}/assets/{attachment_id}", "issueEditIssueCommentAttachment", auth, hEditAsset("comment")},
		{"DELETE", R + "/issues/comments/{id}/assets/{attachment_id}", "issueDeleteIssueCommentAttachment", auth, hDeleteAsset("comment")},

		// issues: search, reactions, dependencies
		{"GET", "/repos/issues/search", "issueSearchIssues", pub, hSearchIssues},
		{"GET", R + "/issues/{index}/reactions", "issueGetIssueReactions", pub, hListReactions(false)},
		{"POST", R + "/issues/{index}/reactions", "issuePostIssueReaction", auth, hReact(true, false)},
		{"DELETE", R + "/issues/{index}/reactions", "issueDeleteIssueReaction", auth, hReact(false, false)},
		{"GET", R + "/issues/comments/{id}/reactions", "issueGetCommentReactions", pub, hListReactions(true)},
		{"POST", R + "/issues/comments/{id}/reactions", "issuePostCommentReaction", auth, hReact(true, true)},
		{"DELETE", R + "/issues/comments/{id}/reactions", "issueDeleteCommentReaction", auth, hReact(false, true)},
		{"GET", R + "/issues/{index}/dependencies", "issueListIssueDependencies", pub, hListDeps(false)},
		{"POST", R + "/issues/{index}/dependencies", "issueCreateIssueDependencies", auth, hSetDep(false, true)},
		{"DELETE", R + "/issues/{index}/dependencies", "issueRemoveIssueDependencies", auth, hSetDep(false, false)},
		{"GET", R + "/issues/{index}/blocks", "issueListBlocks", pub, hListDeps(true)},
		{"POST", R + "/issues/{index}/blocks", "issueCreateIssueBlocking", auth, hSetDep(true, true)},
		{"DELETE", R + "/issues/{index}/blocks", "issueRemoveIssueBlocking", auth, hSetDep(true, false)},

		// hooks
		{"GET", R + "/hooks", "repoListHooks", auth, hListHooks("repo")},
		{"POST", R + "/hooks", "repoCreateHook", auth, hCreateHook("repo")},
		{"GET", R + "/hooks/{id}", "repoGetHook", auth, hGetHook("repo")},
		{"PATCH", R + "/hooks/{id}", "repoEditHook", auth, hEditHook("repo")},
		{"DELETE", R + "/hooks/{id}", "repoDeleteHook", auth, hDeleteHook("repo")},
		{"POST", R + "/hooks/{id}/tests", "repoTestHook", auth, hTestHook},
		{"GET", "/orgs/{org}/hooks", "orgListHooks", auth, hListHooks("org")},
		{"POST", "/orgs/{org}/hooks", "orgCreateHook", auth, hCreateHook("org")},
		{"GET", "/orgs/{org}/hooks/{id}", "orgGetHook", auth, hGetHook("org")},
		{"PATCH", "/orgs/{org}/hooks/{id}", "orgEditHook", auth, hEditHook("org")},
		{"DELETE", "/orgs/{org}/hooks/{id}", "orgDeleteHook", auth, hDeleteHook("org")},
		{"GET", "/user/hooks", "userListHooks", auth, hListHooks("user")},
		{"POST", "/user/hooks", "userCreateHook", auth, hCreateHook("user")},
		{"GET", "/user/hooks/{id}", "userGetHook", auth, hGetHook("user")},
		{"PATCH", "/user/hooks/{id}", "userEditHook", auth, hEditHook("user")},
		{"DELETE", "/user/hooks/{id}", "userDeleteHook", auth, hDeleteHook("user")},

		// organizations, members, teams, organization labels
		{"GET", "/orgs", "orgGetAll", pub, hListAllOrgs},
		{"POST", "/orgs", "orgCreate", auth, hCreateOrg},
		{"GET", "/orgs/{org}", "orgGet", pub, hGetOrg},
		{"PATCH", "/orgs/{org}", "orgEdit", auth, hEditOrg},
		{"DELETE", "/orgs/{org}", "orgDelete", auth, hDeleteOrg},
		{"GET", "/user/orgs", "orgListCurrentUserOrgs", auth, hListMyOrgs},
		{"GET", "/users/{username}/orgs", "orgListUserOrgs", pub, hListUserOrgs},
		{"GET", "/users/{username}/orgs/{org}/permissions", "orgGetUserPermissions", auth, hUserOrgPermissions},
		{"GET", "/orgs/{org}/repos", "orgListRepos", pub, hListOrgRepos},
		{"POST", "/orgs/{org}/repos", "createOrgRepo", auth, hCreateOrgRepo},
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
		{"GET", "/user/teams", "userListTeams", auth, hListMyTeams},
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
		{"GET", R + "/teams", "repoListTeams", pub, hRepoTeams},
		{"GET", R + "/teams/{team}", "repoCheckTeam", pub, hRepoTeam},
		{"PUT", R + "/teams/{team}", "repoAddTeam", auth, hSetRepoTeam(true)},
		{"DELETE", R + "/teams/{team}", "repoDeleteTeam", auth, hSetRepoTeam(false)},
		{"GET", "/orgs/{org}/labels", "orgListLabels", pub, hListOrgLabels},
		{"POST", "/orgs/{org}/labels", "orgCreateLabel", auth, hCreateOrgLabel},
		{"GET", "/orgs/{org}/labels/{id}", "orgGetLabel", pub, hGetOrgLabel},
		{"PATCH", "/orgs/{org}/labels/{id}", "orgEditLabel", auth, hEditOrgLabel},
		{"DELETE", "/orgs/{org}/labels/{id}", "orgDeleteLabel", auth, hDeleteOrgLabel},

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
