package forgejotest

import (
	"slices"
	"time"
)

// The repository and issue operations that bots and CI tools use beyond the
// core: tracked times and stopwatches (h_times.go), subscriptions, watches,
// pins and the timeline (h_watch.go), the wiki (h_wiki.go), deploy keys and
// tag protections (h_keys.go), git data (h_git.go) and the instance's
// templates, settings and markup rendering (h_misc.go).

// moreState is this area's part of the model, guarded by Server.mu. Its zero
// value is ready: every map is made on first write. Data hangs off the
// shared model by pointer (*repo, *issue, *user), so nothing is added to the
// shared structs; what belongs to a deleted repository or issue stays here
// unreachable, and the listings that span repositories skip it (alive).
type moreState struct {
	times       []*trackedTime            // every tracked time, in id order (soft-deleted ones too)
	stopwatches map[*user]*stopwatch      // at most one running per user, as Forgejo
	issueWatch  map[*issue]map[*user]bool // explicit issue subscriptions (true) and unsubscriptions (false)
	repoWatch   map[*repo][]*user         // watchers, in watch order
	watchInit   map[*repo]bool            // repoWatch holds the creator's automatic watch
	watchSince  map[*repo]map[*user]time.Time
	events      map[*issue][]*issueEvent // timeline events other than comments
	pins        map[*issue]int           // pin order, 1-based, per repository and kind
	wikis       map[*repo]*wiki
	keys        map[*repo][]*deployKey
	tagProts    map[*repo][]*tagProtection
	pushMirrors map[*repo][]*pushMirror
	notes       map[*repo]map[string]string // git notes, by commit id
	transfers   map[*repo]*transfer         // pending transfers
	redirects   map[string]*repo            // old "owner/name" (lower case) of transferred repositories
	avatars     map[*repo]string            // avatar file names
}

// alive reports whether is still exists: its repository is not deleted and
// it was not deleted from it.
func (st *state) alive(is *issue) bool {
	if is == nil || is.repo == nil {
		return false
	}
	r := is.repo
	if st.repo(r.owner.login, r.name) != r {
		return false
	}
	return r.issue(is.number) == is
}

// issueEvent is a timeline entry that is not a comment: Forgejo stores them
// as comments of other types, with ids from the same sequence.
type issueEvent struct {
	id      int64
	kind    string // Forgejo's comment type name: pin, add_time_manual, close...
	doer    *user
	content string
	time    *trackedTime
	created time.Time
}

// addEvent records a timeline event on is.
func (st *state) addEvent(is *issue, kind string, doer *user, content string, tt *trackedTime, now time.Time) {
	if st.more.events == nil {
		st.more.events = map[*issue][]*issueEvent{}
	}
	st.more.events[is] = append(st.more.events[is], &issueEvent{id: st.id("comment"), kind: kind, doer: doer, content: content, time: tt, created: now})
}

// repoMoreRoutes are this area's rows of the route table.
func repoMoreRoutes() []routeSpec {
	const (
		pub  = false
		auth = true
		R    = "/repos/{owner}/{repo}"
		I    = R + "/issues/{index}"
	)
	return []routeSpec{
		// tracked times and stopwatches
		{"GET", I + "/times", "issueTrackedTimes", auth, hIssueTimes},
		{"POST", I + "/times", "issueAddTime", auth, hAddTime},
		{"DELETE", I + "/times", "issueResetTime", auth, hResetTime},
		{"DELETE", I + "/times/{id}", "issueDeleteTime", auth, hDeleteTime},
		{"GET", R + "/times", "repoTrackedTimes", auth, hRepoTimes},
		{"GET", R + "/times/{user}", "userTrackedTimes", auth, hRepoUserTimes},
		{"GET", "/user/times", "userCurrentTrackedTimes", auth, hMyTimes},
		{"POST", I + "/stopwatch/start", "issueStartStopWatch", auth, hStopwatch("start")},
		{"POST", I + "/stopwatch/stop", "issueStopStopWatch", auth, hStopwatch("stop")},
		{"DELETE", I + "/stopwatch/delete", "issueDeleteStopWatch", auth, hStopwatch("delete")},
		{"GET", "/user/stopwatches", "userGetStopWatches", auth, hMyStopwatches},
		{"POST", I + "/deadline", "issueEditIssueDeadline", auth, hSetDeadline},

		// issue subscriptions, repository watches
		{"GET", I + "/subscriptions", "issueSubscriptions", pub, hIssueSubscribers},
		{"GET", I + "/subscriptions/check", "issueCheckSubscription", auth, hCheckIssueSubscription},
		{"PUT", I + "/subscriptions/{user}", "issueAddSubscription", auth, hSetIssueSubscription(true)},
		{"DELETE", I + "/subscriptions/{user}", "issueDeleteSubscription", auth, hSetIssueSubscription(false)},
		{"GET", R + "/subscription", "userCurrentCheckSubscription", auth, hCheckWatch},
		{"PUT", R + "/subscription", "userCurrentPutSubscription", auth, hWatch(true)},
		{"DELETE", R + "/subscription", "userCurrentDeleteSubscription", auth, hWatch(false)},
		{"GET", R + "/subscribers", "repoListSubscribers", pub, hListWatchers},
		{"GET", "/user/subscriptions", "userCurrentListSubscriptions", auth, hListWatched(true)},
		{"GET", "/users/{username}/subscriptions", "userListSubscriptions", pub, hListWatched(false)},

		// pins, assignees, reviewers, the timeline, the deprecated comment routes
		{"POST", I + "/pin", "pinIssue", auth, hPin(true)},
		{"DELETE", I + "/pin", "unpinIssue", auth, hPin(false)},
		{"PATCH", I + "/pin/{position}", "moveIssuePin", auth, hMovePin},
		{"GET", R + "/issues/pinned", "repoListPinnedIssues", pub, hListPinned(false)},
		{"GET", R + "/pulls/pinned", "repoListPinnedPullRequests", pub, hListPinned(true)},
		{"GET", R + "/new_pin_allowed", "repoNewPinAllowed", pub, hNewPinAllowed},
		{"GET", R + "/assignees", "repoGetAssignees", auth, hAssignees},
		{"GET", R + "/reviewers", "repoGetReviewers", auth, hReviewers},
		{"GET", I + "/timeline", "issueGetCommentsAndTimeline", pub, hTimeline},
		{"PATCH", I + "/comments/{id}", "issueEditCommentDeprecated", auth, hEditComment},
		{"DELETE", I + "/comments/{id}", "issueDeleteCommentDeprecated", auth, hDeleteComment},

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
		{"GET", R + "/commits/{sha}/pull", "repoGetCommitPullRequest", pub, hCommitPull},
		{"GET", R + "/pulls/{base}/{head}", "repoGetPullRequestByBaseHead", pub, hPullByBaseHead},
		{"GET", R + "/git/notes/{sha}", "repoGetNote", pub, hGetNote},
		{"POST", R + "/git/notes/{sha}", "repoSetNote", auth, hSetNote},
		{"DELETE", R + "/git/notes/{sha}", "repoRemoveNote", auth, hRemoveNote},
		{"GET", R + "/issue_templates", "repoGetIssueTemplates", pub, hIssueTemplates},
		{"GET", R + "/issue_config", "repoGetIssueConfig", pub, hIssueConfig},
		{"GET", R + "/issue_config/validate", "repoValidateIssueConfig", pub, hValidateIssueConfig},
		{"POST", R + "/avatar", "repoUpdateAvatar", auth, hUpdateRepoAvatar},
		{"DELETE", R + "/avatar", "repoDeleteAvatar", auth, hDeleteRepoAvatar},
		{"DELETE", R + "/pulls/{index}/merge", "repoCancelScheduledAutoMerge", auth, hCancelAutoMerge},
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

		// settings, templates, markup
		{"GET", "/settings/attachment", "getGeneralAttachmentSettings", pub, hAttachmentSettings},
		{"GET", "/settings/repository", "getGeneralRepositorySettings", pub, hRepositorySettings},
		{"GET", "/settings/ui", "getGeneralUISettings", pub, hUISettings},
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

// removeUser drops u from us, keeping the order.
func removeUser(us []*user, u *user) []*user {
	return slices.DeleteFunc(us, func(x *user) bool { return x == u })
}
