package forgejotest

// The repository and issue operations that bots and CI tools use beyond the
// core: tracked times and stopwatches (h_times.go), subscriptions, watches,
// pins and the timeline (h_watch.go), the wiki (h_wiki.go), deploy keys and
// tag protections (h_keys.go), git data (h_git.go) and the instance's
// templates, settings and markup rendering (h_misc.go).

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
