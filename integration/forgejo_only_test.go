package integration

//lint:file-ignore SA1019 the suite calls deprecated operations and reads deprecated fields on purpose: the route matrix covers every operation, and Gitea still sends Hook.config.

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
)

// TestForgejoOnlyRoutes calls, once each and in name order, the operations
// Gitea does not route (Forgejo's own: quota, flags, blocking, ActivityPub,
// runner registration, sync_fork, writing notes, review comments by id, …).
// It runs on either server, never skipping:
//
//   - On Gitea each must meet a router-level miss: a text/plain "404 page
//     not found", or an empty 405 with Allow; never an answer from a
//     handler, so that the route matrix says not-on-this-server rather than
//     not-yet-exercised. Writes among them are harmless for the same reason.
//   - On a Forgejo each operation its release serves (the library's version
//     knowledge, [forgejo.Client.Serves]) must reach a handler: any answer
//     but the router's miss, an error status included (the objects are
//     not all there). The ones that exist only behind a setting (quota,
//     repository flags, federation) may miss instead. Each operation the
//     release does not serve must miss as on Gitea. The writes really run
//     there: name order blocks before it unblocks and creates before it
//     deletes, and cleanups undo what could outlive the test.
//
// Gitea runs a route group's middleware (loading the organization, the pull
// request, …) before it finds out that no route matches, so the objects on
// the path must exist for the miss to show: the test makes an organization
// and a pull request with a review. A few Forgejo paths are taken by another
// Gitea route instead (GET …/actions/runners/jobs reaches Gitea's
// …/actions/runners/{runner_id}); those must fail as that route fails, and
// are recorded as not on this server with the reason.
func TestForgejoOnlyRoutes(t *testing.T) {
	forgejoServer := onForgejo(t)
	c, u2 := admin(t), user2(t)
	fx := shared(t)
	o, r, user := fx.owner, fx.repo, need(t).user2
	me, _, err := c.Users.GetCurrent(ctx(t))
	ok(t, "current user", err)
	repo, _, err := c.Repos.Get(ctx(t), o, r)
	ok(t, "fixture", err)
	uid, rid := me.ID, repo.ID
	org := newOrg(t, c)
	pr, _, err := c.PullRequests.Create(ctx(t), o, r, forgejo.CreatePullRequestRequest{Head: "feature/x", Base: "main", Title: "for the review routes"})
	ok(t, "pull request", err)
	cleanup(t, "pull request", func(ctx context.Context) (*forgejo.Response, error) { return c.Issues.Delete(ctx, o, r, pr.Number) })
	review, _, err := u2.PullRequests.CreateReview(ctx(t), o, r, pr.Number, forgejo.CreatePullReviewRequest{Event: forgejo.ReviewStateComment, Body: "a review"})
	ok(t, "review", err)
	runner := forgejo.RegisterRunnerRequest{Name: "it-runner"}
	quotaSubject := "size:all"
	activity := map[string]any{"@context": "https://www.w3.org/ns/activitystreams", "type": "Like"}

	known := map[string]forgejo.Operation{}
	for _, op := range forgejo.Operations() {
		known[op.ID] = op
	}
	if forgejoServer {
		// What the calls change on a Forgejo, undone whatever happened; an
		// undo that finds nothing to undo may be refused, which is fine.
		undo := func(what string, f func(context.Context) (*forgejo.Response, error)) {
			t.Cleanup(func() {
				c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				if _, err := f(c); err != nil {
					t.Logf("cleanup: %s: %v", what, err)
				}
			})
		}
		undo("user2's block", func(ctx context.Context) (*forgejo.Response, error) { return c.Users.Unblock(ctx, user) })
		undo("quota group g", func(ctx context.Context) (*forgejo.Response, error) { return c.Admin.DeleteQuotaGroup(ctx, "g") })
		undo("quota rule r", func(ctx context.Context) (*forgejo.Response, error) { return c.Admin.DeleteQuotaRule(ctx, "r") })
	}

	// call returns the error of one call; for the Bool operations, a true
	// answer is turned into an error (a miss reads as false).
	isFalse := func(b bool, _ *forgejo.Response, err error) error {
		if err == nil && b {
			return errors.New("answered true")
		}
		return err
	}
	// callsFor are the calls made with c: on a Forgejo, with the version
	// check for the operations its release serves, so that a path that
	// moved is sent where that release has it.
	callsFor := func(c *forgejo.Client) map[string]forgejoOnlyCall {
		return map[string]forgejoOnlyCall{
			"getActionsRun": func(ctx context.Context) error { _, _, err := c.Actions.GetCurrentRun(ctx); return err },
			"getNodeInfo":   func(ctx context.Context) error { _, _, err := c.Misc.GetNodeInfo(ctx); return err },
			"getSSHSigningKey": func(ctx context.Context) error {
				_, _, err := c.Misc.GetSSHSigningKey(ctx)
				return err
			},

			"activitypubInstanceActor": func(ctx context.Context) error { _, _, err := c.ActivityPub.GetInstanceActor(ctx); return err },
			"activitypubInstanceActorInbox": func(ctx context.Context) error {
				_, err := c.ActivityPub.SendToInstanceInbox(ctx, activity)
				return err
			},
			"activitypubInstanceActorOutbox": func(ctx context.Context) error { _, _, err := c.ActivityPub.GetInstanceOutbox(ctx); return err },
			"activitypubRepository":          func(ctx context.Context) error { _, _, err := c.ActivityPub.GetRepository(ctx, rid); return err },
			"activitypubRepositoryInbox": func(ctx context.Context) error {
				_, err := c.ActivityPub.SendToRepositoryInbox(ctx, rid, forgejo.ForgeLikeRequest{"type": "Like"})
				return err
			},
			"activitypubRepositoryOutbox": func(ctx context.Context) error {
				_, _, err := c.ActivityPub.GetRepositoryOutbox(ctx, rid)
				return err
			},
			"activitypubPerson": func(ctx context.Context) error { _, _, err := c.ActivityPub.GetPerson(ctx, uid); return err },
			"activitypubPersonActivityNote": func(ctx context.Context) error {
				_, _, err := c.ActivityPub.GetPersonActivityNote(ctx, uid, 1)
				return err
			},
			"activitypubPersonActivity": func(ctx context.Context) error { _, _, err := c.ActivityPub.GetPersonActivity(ctx, uid, 1); return err },
			"activitypubPersonInbox": func(ctx context.Context) error {
				_, err := c.ActivityPub.SendToPersonInbox(ctx, uid, activity)
				return err
			},
			"activitypubPersonFeed": func(ctx context.Context) error { _, _, err := c.ActivityPub.GetPersonOutbox(ctx, uid); return err },

			"registerAdminRunner": func(ctx context.Context) error { _, _, err := c.Actions.RegisterAdminRunner(ctx, runner); return err },
			"adminGetActionRunJobs": func(ctx context.Context) error {
				_, _, err := c.Actions.ListAdminRunnerJobs(ctx, &forgejo.ActionListAdminRunnerJobsOptions{Labels: []string{"x"}})
				return err
			},
			"adminGetRunnerRegistrationToken": func(ctx context.Context) error { _, _, err := c.Actions.GetAdminRegistrationToken(ctx); return err },
			"adminListQuotaGroups":            func(ctx context.Context) error { _, _, err := c.Admin.ListQuotaGroups(ctx); return err },
			"adminCreateQuotaGroup": func(ctx context.Context) error {
				_, _, err := c.Admin.CreateQuotaGroup(ctx, forgejo.CreateQuotaGroupRequest{Name: "g"})
				return err
			},
			"adminGetQuotaGroup":            func(ctx context.Context) error { _, _, err := c.Admin.GetQuotaGroup(ctx, "g"); return err },
			"adminDeleteQuotaGroup":         func(ctx context.Context) error { _, err := c.Admin.DeleteQuotaGroup(ctx, "g"); return err },
			"adminAddRuleToQuotaGroup":      func(ctx context.Context) error { _, err := c.Admin.AddQuotaGroupRule(ctx, "g", "r"); return err },
			"adminRemoveRuleFromQuotaGroup": func(ctx context.Context) error { _, err := c.Admin.RemoveQuotaGroupRule(ctx, "g", "r"); return err },
			"adminListUsersInQuotaGroup":    func(ctx context.Context) error { _, _, err := c.Admin.ListQuotaGroupUsers(ctx, "g"); return err },
			"adminAddUserToQuotaGroup":      func(ctx context.Context) error { _, err := c.Admin.AddQuotaGroupUser(ctx, "g", user); return err },
			"adminRemoveUserFromQuotaGroup": func(ctx context.Context) error {
				_, err := c.Admin.RemoveQuotaGroupUser(ctx, "g", user)
				return err
			},
			"adminListQuotaRules": func(ctx context.Context) error { _, _, err := c.Admin.ListQuotaRules(ctx); return err },
			"adminCreateQuotaRule": func(ctx context.Context) error {
				_, _, err := c.Admin.CreateQuotaRule(ctx, forgejo.CreateQuotaRuleRequest{Name: "r", Limit: 1, Subjects: []string{quotaSubject}})
				return err
			},
			"adminGetQuotaRule":    func(ctx context.Context) error { _, _, err := c.Admin.GetQuotaRule(ctx, "r"); return err },
			"adminDeleteQuotaRule": func(ctx context.Context) error { _, err := c.Admin.DeleteQuotaRule(ctx, "r"); return err },
			"adminEditQuotaRule": func(ctx context.Context) error {
				_, _, err := c.Admin.EditQuotaRule(ctx, "r", forgejo.EditQuotaRuleRequest{Limit: forgejo.Ptr[int64](2)})
				return err
			},
			"adminSearchRunJobs": func(ctx context.Context) error {
				_, _, err := c.Actions.ListAdminRunnerJobsDeprecated(ctx, &forgejo.ActionListAdminRunnerJobsDeprecatedOptions{Labels: []string{"x"}})
				return err
			},
			"adminGetRegistrationToken": func(ctx context.Context) error {
				_, _, err := c.Actions.GetAdminRegistrationTokenDeprecated(ctx)
				return err
			},
			"adminListUserEmails": func(ctx context.Context) error { _, _, err := c.Admin.ListUserEmails(ctx, user); return err },
			"adminDeleteUserEmails": func(ctx context.Context) error {
				_, err := c.Admin.DeleteUserEmails(ctx, user, forgejo.DeleteEmailRequest{Emails: []string{"nobody@example.com"}})
				return err
			},
			"adminGetUserQuota": func(ctx context.Context) error { _, _, err := c.Admin.GetUserQuota(ctx, user); return err },
			"adminSetUserQuotaGroups": func(ctx context.Context) error {
				_, err := c.Admin.SetUserQuotaGroups(ctx, user, forgejo.SetUserQuotaGroupsRequest{Groups: []string{"g"}})
				return err
			},
			"adminListUserAccessTokens": func(ctx context.Context) error { _, _, err := c.Admin.ListUserTokens(ctx, user, nil); return err },
			"adminCreateUserAccessToken": func(ctx context.Context) error {
				_, _, err := c.Admin.CreateUserToken(ctx, user, forgejo.CreateAccessTokenRequest{Name: "t", Scopes: []string{"read:user"}})
				return err
			},
			"adminDeleteUserAccessToken": func(ctx context.Context) error { _, err := c.Admin.DeleteUserToken(ctx, user, "t"); return err },

			"registerOrgRunner": func(ctx context.Context) error {
				_, _, err := c.Actions.RegisterOrgRunner(ctx, org, runner)
				return err
			},
			"orgSearchRunJobs": func(ctx context.Context) error {
				_, _, err := c.Actions.ListOrgRunnerJobs(ctx, org, &forgejo.ActionListOrgRunnerJobsOptions{Labels: []string{"x"}})
				return err
			},
			"orgGetRunnerRegistrationToken": func(ctx context.Context) error { _, _, err := c.Actions.GetOrgRegistrationToken(ctx, org); return err },
			"orgBlockUser":                  func(ctx context.Context) error { _, err := c.Orgs.BlockUser(ctx, org, user); return err },
			"orgUnblockUser":                func(ctx context.Context) error { _, err := c.Orgs.UnblockUser(ctx, org, user); return err },
			"orgListBlockedUsers":           func(ctx context.Context) error { _, _, err := c.Orgs.ListBlockedUsers(ctx, org, nil); return err },
			"orgGetQuota":                   func(ctx context.Context) error { _, _, err := c.Orgs.GetQuota(ctx, org); return err },
			"orgListQuotaArtifacts":         func(ctx context.Context) error { _, _, err := c.Orgs.ListQuotaArtifacts(ctx, org, nil); return err },
			"orgListQuotaAttachments":       func(ctx context.Context) error { _, _, err := c.Orgs.ListQuotaAttachments(ctx, org, nil); return err },
			"orgListQuotaPackages":          func(ctx context.Context) error { _, _, err := c.Orgs.ListQuotaPackages(ctx, org, nil); return err },
			"orgCheckQuota": func(ctx context.Context) error {
				return isFalse(c.Orgs.CheckQuota(ctx, org, &forgejo.OrgCheckQuotaOptions{Subject: quotaSubject}))
			},

			"registerRepoRunner": func(ctx context.Context) error {
				_, _, err := c.Actions.RegisterRepoRunner(ctx, o, r, runner)
				return err
			},
			"repoSearchRunJobs": func(ctx context.Context) error {
				_, _, err := c.Actions.ListRepoRunnerJobs(ctx, o, r, &forgejo.ActionListRepoRunnerJobsOptions{Labels: []string{"x"}})
				return err
			},
			"repoGetRunnerRegistrationToken": func(ctx context.Context) error {
				_, _, err := c.Actions.GetRepoRegistrationToken(ctx, o, r)
				return err
			},
			"CancelActionRun":      func(ctx context.Context) error { _, err := c.Actions.CancelRun(ctx, o, r, 1); return err },
			"repoGetActionRunLogs": func(ctx context.Context) error { _, _, err := c.Actions.GetRunLogs(ctx, o, r, 1); return err },
			"repoConvert":          func(ctx context.Context) error { _, _, err := c.Repos.ConvertMirror(ctx, o, r); return err },
			"repoListFlags":        func(ctx context.Context) error { _, _, err := c.Repos.ListFlags(ctx, o, r); return err },
			"repoReplaceAllFlags": func(ctx context.Context) error {
				_, err := c.Repos.ReplaceFlags(ctx, o, r, forgejo.ReplaceFlagsRequest{Flags: []string{"x"}})
				return err
			},
			"repoDeleteAllFlags": func(ctx context.Context) error { _, err := c.Repos.ClearFlags(ctx, o, r); return err },
			"repoCheckFlag":      func(ctx context.Context) error { return isFalse(c.Repos.IsFlagSet(ctx, o, r, "x")) },
			"repoAddFlag":        func(ctx context.Context) error { _, err := c.Repos.AddFlag(ctx, o, r, "x"); return err },
			"repoDeleteFlag":     func(ctx context.Context) error { _, err := c.Repos.RemoveFlag(ctx, o, r, "x"); return err },
			"GetBlobs": func(ctx context.Context) error {
				_, _, err := c.Repos.ListBlobs(ctx, o, r, &forgejo.RepoListBlobsOptions{SHAs: []string{fx.readmeSHA}})
				return err
			},
			"repoSetNote": func(ctx context.Context) error {
				_, _, err := c.Repos.SetNote(ctx, o, r, fx.mainSHA, forgejo.NoteRequest{Message: "note"})
				return err
			},
			"repoRemoveNote": func(ctx context.Context) error { _, err := c.Repos.DeleteNote(ctx, o, r, fx.mainSHA); return err },
			"repoCreatePullReviewComment": func(ctx context.Context) error {
				_, _, err := c.PullRequests.CreateReviewComment(ctx, o, r, pr.Number, review.ID, forgejo.CreatePullReviewCommentRequest{Body: "x", Path: "README.md", NewPosition: 1})
				return err
			},
			"repoGetPullReviewComment": func(ctx context.Context) error {
				_, _, err := c.PullRequests.GetReviewComment(ctx, o, r, pr.Number, review.ID, 1)
				return err
			},
			"repoDeletePullReviewComment": func(ctx context.Context) error {
				_, err := c.PullRequests.DeleteReviewComment(ctx, o, r, pr.Number, review.ID, 1)
				return err
			},
			"repoSyncForkDefaultInfo": func(ctx context.Context) error { _, _, err := c.Repos.GetForkSyncInfo(ctx, o, r); return err },
			"repoSyncForkDefault":     func(ctx context.Context) error { _, err := c.Repos.SyncFork(ctx, o, r); return err },
			"repoSyncForkBranchInfo": func(ctx context.Context) error {
				_, _, err := c.Repos.GetForkBranchSyncInfo(ctx, o, r, "main")
				return err
			},
			"repoSyncForkBranch": func(ctx context.Context) error { _, err := c.Repos.SyncForkBranch(ctx, o, r, "main"); return err },

			"registerUserRunner": func(ctx context.Context) error { _, _, err := c.Actions.RegisterUserRunner(ctx, runner); return err },
			"userSearchRunJobs": func(ctx context.Context) error {
				_, _, err := c.Actions.ListUserRunnerJobs(ctx, &forgejo.ActionListUserRunnerJobsOptions{Labels: []string{"x"}})
				return err
			},
			"userGetRunnerRegistrationToken": func(ctx context.Context) error { _, _, err := c.Actions.GetUserRegistrationToken(ctx); return err },
			"userCurrentActivityPubFollow": func(ctx context.Context) error {
				_, err := c.Users.FollowRemote(ctx, forgejo.APRemoteFollowRequest{Target: "https://example.com/u"})
				return err
			},
			"userBlockUser":            func(ctx context.Context) error { _, err := c.Users.Block(ctx, user); return err },
			"userUnblockUser":          func(ctx context.Context) error { _, err := c.Users.Unblock(ctx, user); return err },
			"userListBlockedUsers":     func(ctx context.Context) error { _, _, err := c.Users.ListBlockedUsers(ctx, nil); return err },
			"userGetQuota":             func(ctx context.Context) error { _, _, err := c.Users.GetQuota(ctx); return err },
			"userListQuotaArtifacts":   func(ctx context.Context) error { _, _, err := c.Users.ListQuotaArtifacts(ctx, nil); return err },
			"userListQuotaAttachments": func(ctx context.Context) error { _, _, err := c.Users.ListQuotaAttachments(ctx, nil); return err },
			"userListQuotaPackages":    func(ctx context.Context) error { _, _, err := c.Users.ListQuotaPackages(ctx, nil); return err },
			"userCheckQuota": func(ctx context.Context) error {
				return isFalse(c.Users.CheckQuota(ctx, &forgejo.UserCheckQuotaOptions{Subject: quotaSubject}))
			},
		}
	}
	calls := callsFor(c)

	// Paths Gitea routes elsewhere: the answer that shows it.
	const runnerByID = "runner with id 0: resource does not exist"
	shadowed := map[string]string{
		"adminGetActionRunJobs":           runnerByID,
		"adminGetRunnerRegistrationToken": runnerByID,
		"orgSearchRunJobs":                runnerByID,
		"orgGetRunnerRegistrationToken":   runnerByID,
		"repoSearchRunJobs":               runnerByID,
		"repoGetRunnerRegistrationToken":  runnerByID,
		"userSearchRunJobs":               runnerByID,
		"userGetRunnerRegistrationToken":  runnerByID,
		// Gitea's swagger has no such route; every path below
		// …/reviews/{id}/comments/ answers a JSON "not found".
		"repoGetPullReviewComment": "not found",
	}

	if forgejoServer {
		checked := client(t, need(t).adminToken, forgejo.WithVersionCheck())
		checkOnForgejo(t, checked, calls, callsFor(checked), known)
		return
	}
	for _, id := range slices.Sorted(maps.Keys(calls)) {
		call := calls[id]
		op, exists := known[id]
		if !exists {
			t.Errorf("%s: no such operation in the client", id)
			continue
		}
		err := call(ctx(t))
		var ae *forgejo.APIError
		if want, ok := shadowed[id]; ok {
			if ae2 := mustStatus(t, err, http.StatusNotFound); ae2.Message != want {
				t.Errorf("%s (%s %s): %d %q, want Gitea's other route to answer %q", id, op.Method, op.Path, ae2.StatusCode, ae2.Message, want)
			}
			matrix.markAbsent(id, "path taken by another Gitea route: 404 "+want)
			continue
		}
		switch {
		case err != nil && !errors.As(err, &ae):
			t.Errorf("%s (%s %s): %v, want a router-level miss", id, op.Method, op.Path, err)
		case routerMiss(err):
		case ae != nil:
			t.Errorf("%s (%s %s): the route exists on Gitea (%d %q): test it for real", id, op.Method, op.Path, ae.StatusCode, ae.Message)
		default: // a Bool operation that read false: only a miss is fine
		}
	}
	// Every miss reached the matrix as such.
	matrix.mu.Lock()
	defer matrix.mu.Unlock()
	for id := range calls {
		if st, _ := matrix.ops[id].state(); st != "not-on-this-server" {
			t.Errorf("%s: matrix state %s, want not-on-this-server", id, st)
		}
	}
}

// forgejoOnlyCall makes one call and returns its error; for the Bool
// operations, a true answer is turned into an error (a miss reads as false).
type forgejoOnlyCall func(ctx context.Context) error

// routerMiss reports whether err is the router's answer to a route it does
// not have: 404 text/plain "404 page not found", or an empty 405.
func routerMiss(err error) bool {
	var ae *forgejo.APIError
	if !errors.As(err, &ae) {
		return false
	}
	return ae.StatusCode == http.StatusNotFound && ae.Message == "404 page not found" ||
		ae.StatusCode == http.StatusMethodNotAllowed && ae.Message == ""
}

// behindSetting names the setting a Forgejo-only operation's route needs,
// "" when the route is there by default: quota, repository flags and
// federation are off in a default configuration, and their routes are then
// router-level misses.
func behindSetting(id string) string {
	switch {
	case strings.Contains(id, "Quota"):
		return "[quota] ENABLED"
	case strings.Contains(id, "Flag"):
		return "[repository] ENABLE_FLAGS"
	case strings.HasPrefix(id, "activitypub"), id == "getNodeInfo", id == "userCurrentActivityPubFollow":
		return "[federation] ENABLED"
	}
	return ""
}

// checkOnForgejo holds a Forgejo to the Forgejo-only operations: those its
// release serves reach a handler (or miss behind a setting that is off),
// the others miss as its router does.
//
// calls are made without the version check (an operation the release does
// not serve must reach its router and miss there), checkedCalls with it.
func checkOnForgejo(t *testing.T, checked *forgejo.Client, calls, checkedCalls map[string]forgejoOnlyCall, known map[string]forgejo.Operation) {
	t.Helper()
	_, version := serverInfo(t)
	for _, id := range slices.Sorted(maps.Keys(calls)) {
		op, exists := known[id]
		if !exists {
			t.Errorf("%s: no such operation in the client", id)
			continue
		}
		served, err := checked.Serves(ctx(t), id)
		if err != nil {
			t.Fatalf("Serves(%s): %v", id, err)
		}
		if served {
			err = checkedCalls[id](ctx(t))
		} else {
			err = calls[id](ctx(t))
		}
		miss := routerMiss(err)
		setting := behindSetting(id)
		switch {
		case !served && !miss:
			t.Errorf("%s (%s %s): Forgejo %s does not serve it, by the library's knowledge, yet it answered: %v", id, op.Method, op.Path, version, err)
		case !served:
			matrix.markAbsent(id, "not in Forgejo "+version)
		case miss && setting == "":
			t.Errorf("%s (%s %s): Forgejo %s serves it, by the library's knowledge, yet its router missed: %v", id, op.Method, op.Path, version, err)
		case miss:
			matrix.markAbsent(id, "needs "+setting+", off on this server")
		}
	}
}
