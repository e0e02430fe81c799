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

// routeTable lists every operation the fake implements, by operationId as the
// spec names them.
func routeTable() []routeSpec {
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
		{"GET", R + "/pulls/{index}/reviews", "repoListPullReviews", pub, hPullReviews},
		{"GET", R + "/pulls/{index}/commits", "repoGetPullRequestCommits", pub, hPullCommits},
		{"GET", R + "/pulls/{index}/files", "repoGetPullRequestFiles", pub, hPullFiles},

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
		out = append(out, &route{method: s.method, tmpl: compileTemplate(s.path), op: s.op, auth: s.auth, h: s.h})
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

// pathUser finds the user named by a path parameter; a missing one is
// Forgejo's 404 "user redirect does not exist".
func (c *call) pathUser(param string) *user {
	name := c.p[param]
	if u := c.st.user(name); u != nil {
		return u
	}
	c.fail(http.StatusNotFound, "user redirect does not exist [name: "+strings.ToLower(name)+"]")
	return nil
}

// pathRepo finds {owner}/{repo}: a missing owner is 404 GetUserByName with
// the detail in errors (as Codeberg answers), a missing or private
// repository the generic 404.
func (c *call) pathRepo() *repo {
	owner := c.p["owner"]
	if c.st.user(owner) == nil {
		c.failErrs(http.StatusNotFound, "GetUserByName", "user redirect does not exist [name: "+strings.ToLower(owner)+"]")
		return nil
	}
	r := c.st.repo(owner, c.p["repo"])
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
