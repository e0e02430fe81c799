package forgejotest

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Collaborators, branch protections, repository and issue search,
// reactions, dependencies, reviews and review requests, diffs.

// ---- collaborators

func hListCollaborators(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	us := make([]*user, 0, len(r.collaborators))
	for _, cl := range r.collaborators {
		us = append(us, cl.u)
	}
	c.json(http.StatusOK, c.users(paginate(c, us, pageLinked)))
}

func (r *repo) collaborator(u *user) *collaborator {
	for _, cl := range r.collaborators {
		if cl.u == u {
			return cl
		}
	}
	return nil
}

func hCheckCollaborator(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	u := c.st.user(c.p["collaborator"])
	if u == nil {
		c.failErrs(http.StatusUnprocessableEntity, "user does not exist [uid: 0, name: "+c.p["collaborator"]+"]")
		return
	}
	if r.collaborator(u) == nil {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return
	}
	c.empty(http.StatusNoContent)
}

func hAddCollaborator(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	var body struct {
		Permission *string `json:"permission"`
	}
	if !c.decode(&body) {
		return
	}
	u := c.st.user(c.p["collaborator"])
	if u == nil {
		c.failErrs(http.StatusUnprocessableEntity, "user does not exist [uid: 0, name: "+c.p["collaborator"]+"]")
		return
	}
	perm := "write"
	if body.Permission != nil {
		perm = *body.Permission
		if accessOf(perm) == accessNone || perm == "owner" {
			c.fail(http.StatusUnprocessableEntity, "[Permission]: In")
			return
		}
	}
	if u == r.owner {
		c.fail(http.StatusUnprocessableEntity, "user is the owner of the repository")
		return
	}
	if cl := r.collaborator(u); cl != nil {
		cl.perm = perm
	} else {
		r.collaborators = append(r.collaborators, &collaborator{u: u, perm: perm})
	}
	c.empty(http.StatusNoContent)
}

func hDeleteCollaborator(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	u := c.st.user(c.p["collaborator"])
	if u == nil {
		c.failErrs(http.StatusUnprocessableEntity, "user does not exist [uid: 0, name: "+c.p["collaborator"]+"]")
		return
	}
	r.collaborators = slices.DeleteFunc(r.collaborators, func(x *collaborator) bool { return x.u == u })
	c.empty(http.StatusNoContent)
}

func hCollaboratorPermission(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	u := c.pathUser("collaborator")
	if u == nil {
		return
	}
	a := access(u, r)
	if a == accessOwner && !u.isAdmin && u != r.owner {
		a = accessAdmin
	}
	name := accessName(a)
	if a == accessOwner {
		name = "owner"
		if u.isAdmin && u != r.owner {
			name = "admin"
		}
	}
	c.json(http.StatusOK, map[string]any{"permission": name, "role_name": name, "user": c.v.user(u)})
}

// ---- branch protections

type wProtection struct {
	BranchName                    string   `json:"branch_name"`
	RuleName                      string   `json:"rule_name"`
	EnablePush                    bool     `json:"enable_push"`
	EnablePushWhitelist           bool     `json:"enable_push_whitelist"`
	PushWhitelistUsernames        []string `json:"push_whitelist_usernames"`
	PushWhitelistTeams            []string `json:"push_whitelist_teams"`
	PushWhitelistDeployKeys       bool     `json:"push_whitelist_deploy_keys"`
	EnableMergeWhitelist          bool     `json:"enable_merge_whitelist"`
	MergeWhitelistUsernames       []string `json:"merge_whitelist_usernames"`
	MergeWhitelistTeams           []string `json:"merge_whitelist_teams"`
	EnableStatusCheck             bool     `json:"enable_status_check"`
	StatusCheckContexts           []string `json:"status_check_contexts"`
	RequiredApprovals             int64    `json:"required_approvals"`
	EnableApprovalsWhitelist      bool     `json:"enable_approvals_whitelist"`
	ApprovalsWhitelistUsernames   []string `json:"approvals_whitelist_username"`
	ApprovalsWhitelistTeams       []string `json:"approvals_whitelist_teams"`
	BlockOnRejectedReviews        bool     `json:"block_on_rejected_reviews"`
	BlockOnOfficialReviewRequests bool     `json:"block_on_official_review_requests"`
	BlockOnOutdatedBranch         bool     `json:"block_on_outdated_branch"`
	DismissStaleApprovals         bool     `json:"dismiss_stale_approvals"`
	IgnoreStaleApprovals          bool     `json:"ignore_stale_approvals"`
	RequireSignedCommits          bool     `json:"require_signed_commits"`
	ProtectedFilePatterns         string   `json:"protected_file_patterns"`
	UnprotectedFilePatterns       string   `json:"unprotected_file_patterns"`
	ApplyToAdmins                 bool     `json:"apply_to_admins"`
	Created                       string   `json:"created_at"`
	Updated                       string   `json:"updated_at"`
}

func (p *protection) view() *wProtection {
	w := &wProtection{
		PushWhitelistUsernames: []string{}, PushWhitelistTeams: []string{}, MergeWhitelistUsernames: []string{},
		MergeWhitelistTeams: []string{}, StatusCheckContexts: []string{}, ApprovalsWhitelistUsernames: []string{},
		ApprovalsWhitelistTeams: []string{},
	}
	b := p.body
	str := func(k string) string { s, _ := b[k].(string); return s }
	boolean := func(k string) bool { v, _ := b[k].(bool); return v }
	strs := func(k string) []string {
		out := []string{}
		if xs, ok := b[k].([]any); ok {
			for _, x := range xs {
				if s, ok := x.(string); ok {
					out = append(out, s)
				}
			}
		}
		return out
	}
	w.RuleName = p.rule
	// Forgejo names the branch only when the rule is not a glob.
	if !strings.ContainsAny(p.rule, "*?[]{}\\") {
		w.BranchName = p.rule
	}
	w.EnablePush, w.EnablePushWhitelist = boolean("enable_push"), boolean("enable_push_whitelist")
	w.PushWhitelistUsernames, w.PushWhitelistTeams = strs("push_whitelist_usernames"), strs("push_whitelist_teams")
	w.PushWhitelistDeployKeys = boolean("push_whitelist_deploy_keys")
	w.EnableMergeWhitelist, w.MergeWhitelistUsernames, w.MergeWhitelistTeams = boolean("enable_merge_whitelist"), strs("merge_whitelist_usernames"), strs("merge_whitelist_teams")
	w.EnableStatusCheck, w.StatusCheckContexts = boolean("enable_status_check"), strs("status_check_contexts")
	if n, ok := b["required_approvals"].(float64); ok {
		w.RequiredApprovals = int64(n)
	}
	w.EnableApprovalsWhitelist, w.ApprovalsWhitelistUsernames, w.ApprovalsWhitelistTeams = boolean("enable_approvals_whitelist"), strs("approvals_whitelist_username"), strs("approvals_whitelist_teams")
	w.BlockOnRejectedReviews, w.BlockOnOfficialReviewRequests, w.BlockOnOutdatedBranch = boolean("block_on_rejected_reviews"), boolean("block_on_official_review_requests"), boolean("block_on_outdated_branch")
	w.DismissStaleApprovals, w.IgnoreStaleApprovals, w.RequireSignedCommits = boolean("dismiss_stale_approvals"), boolean("ignore_stale_approvals"), boolean("require_signed_commits")
	w.ProtectedFilePatterns, w.UnprotectedFilePatterns, w.ApplyToAdmins = str("protected_file_patterns"), str("unprotected_file_patterns"), boolean("apply_to_admins")
	w.Created, w.Updated = ts(p.created), ts(p.updated)
	return w
}

func (r *repo) protection(name string) *protection {
	for _, p := range r.protections {
		if p.rule == name {
			return p
		}
	}
	return nil
}

func hListProtections(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	out := []*wProtection{}
	for _, p := range r.protections {
		out = append(out, p.view())
	}
	c.json(http.StatusOK, out)
}

func hGetProtection(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	if p := r.protection(c.p["name"]); p != nil {
		c.json(http.StatusOK, p.view())
		return
	}
	c.failErrs(http.StatusNotFound, "The target couldn't be found.")
}

func hCreateProtection(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	body := map[string]any{}
	if !c.decode(&body) {
		return
	}
	rule, _ := body["rule_name"].(string)
	if rule == "" {
		rule, _ = body["branch_name"].(string)
	}
	if rule == "" {
		c.fail(http.StatusUnprocessableEntity, "[RuleName]: Required")
		return
	}
	if r.protection(rule) != nil {
		c.fail(http.StatusForbidden, "Branch protection already exist")
		return
	}
	p := &protection{rule: rule, body: body, created: c.now, updated: c.now}
	r.protections = append(r.protections, p)
	c.json(http.StatusCreated, p.view())
}

func hEditProtection(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	p := r.protection(c.p["name"])
	if p == nil {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return
	}
	body := map[string]any{}
	if !c.decode(&body) {
		return
	}
	for k, v := range body {
		p.body[k] = v
	}
	p.updated = c.now
	c.json(http.StatusOK, p.view())
}

func hDeleteProtection(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	if r.protection(c.p["name"]) == nil {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return
	}
	r.protections = slices.DeleteFunc(r.protections, func(p *protection) bool { return p.rule == c.p["name"] })
	c.empty(http.StatusNoContent)
}

// ---- search

func hSearchRepos(c *call) {
	q := strings.ToLower(c.q.Get("q"))
	uid := int64(c.formInt("uid"))
	var out []*repo
	for _, r := range c.st.reposInOrder {
		if !canRead(c.user, r) {
			continue
		}
		if uid != 0 && r.owner.id != uid {
			continue
		}
		if q != "" && !strings.Contains(strings.ToLower(r.name), q) &&
			!(c.q.Get("includeDesc") == "true" && strings.Contains(strings.ToLower(r.description), q)) {
			continue
		}
		if c.q.Get("topic") == "true" && !slices.Contains(r.topics, q) {
			continue
		}
		out = append(out, r)
	}
	c.json(http.StatusOK, map[string]any{"ok": true, "data": c.repos(paginate(c, out, pageLinked))})
}

// hSearchIssues is /repos/issues/search: issues and pull requests of every
// repository the caller can read.
func hSearchIssues(c *call) {
	state := c.q.Get("state")
	kind := c.q.Get("type")
	text := strings.ToLower(c.q.Get("q"))
	labels := splitList(c.q.Get("labels"))
	owner := c.q.Get("owner")
	var out []*issue
	for _, r := range c.st.reposInOrder {
		if !canRead(c.user, r) || owner != "" && !strings.EqualFold(r.owner.login, owner) {
			continue
		}
		for _, is := range r.issues {
			if is == nil || !stateMatches(state, is.closed) {
				continue
			}
			if (kind == "issues" && is.pull != nil) || (kind == "pulls" && is.pull == nil) {
				continue
			}
			if text != "" && !strings.Contains(strings.ToLower(is.title), text) && !strings.Contains(strings.ToLower(is.body), text) {
				continue
			}
			if !issueHasLabels(is, labels) {
				continue
			}
			if c.q.Get("created") == "true" && is.poster != c.user {
				continue
			}
			if c.q.Get("assigned") == "true" && !slices.Contains(is.assignees, c.user) {
				continue
			}
			out = append(out, is)
		}
	}
	slices.SortStableFunc(out, func(a, b *issue) int { return cmp.Or(b.updated.Compare(a.updated), cmp.Compare(b.id, a.id)) })
	page := paginate(c, out, pageLinked)
	res := make([]*wIssue, 0, len(page))
	for _, is := range page {
		res = append(res, c.v.issue(is))
	}
	c.json(http.StatusOK, res)
}

// ---- reactions

var allowedReactions = []string{"+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"}

type wReaction struct {
	User      *wUser `json:"user"`
	Content   string `json:"content"`
	CreatedAt string `json:"created_at"`
}

func (c *call) reactionsOf(comment bool) (*[]*reaction, bool) {
	r := c.pathRepo()
	if r == nil {
		return nil, false
	}
	if comment {
		if cm := c.pathComment(r); cm != nil {
			return &cm.reactions, true
		}
		return nil, false
	}
	if is := c.pathIssue(r); is != nil {
		return &is.reactions, true
	}
	return nil, false
}

func hListReactions(comment bool) func(c *call) {
	return func(c *call) {
		rs, ok := c.reactionsOf(comment)
		if !ok {
			return
		}
		out := []*wReaction{}
		for _, x := range *rs {
			out = append(out, &wReaction{User: c.v.user(x.u), Content: x.content, CreatedAt: ts(x.created)})
		}
		if !comment {
			out = paginate(c, out, pageLinked)
		}
		c.json(http.StatusOK, out)
	}
}

func hReact(add, comment bool) func(c *call) {
	return func(c *call) {
		rs, ok := c.reactionsOf(comment)
		if !ok {
			return
		}
		var body struct {
			Content string `json:"content"`
		}
		if !c.decode(&body) {
			return
		}
		if !slices.Contains(allowedReactions, body.Content) {
			c.fail(http.StatusForbidden, "'"+body.Content+"' is not an allowed reaction")
			return
		}
		i := slices.IndexFunc(*rs, func(x *reaction) bool { return x.u == c.user && x.content == body.Content })
		switch {
		case add && i >= 0:
			x := (*rs)[i]
			c.json(http.StatusOK, &wReaction{User: c.v.user(x.u), Content: x.content, CreatedAt: ts(x.created)})
		case add:
			x := &reaction{u: c.user, content: body.Content, created: c.now}
			*rs = append(*rs, x)
			c.json(http.StatusCreated, &wReaction{User: c.v.user(x.u), Content: x.content, CreatedAt: ts(x.created)})
		default:
			if i >= 0 {
				*rs = slices.Delete(*rs, i, i+1)
			}
			c.empty(http.StatusOK)
		}
	}
}

// ---- dependencies: is depends on every issue that blocks it

func (st *state) dependencies(is *issue) []*issue {
	var out []*issue
	for _, r := range st.reposInOrder {
		for _, x := range r.issues {
			if x != nil && slices.Contains(x.blocks, is) {
				out = append(out, x)
			}
		}
	}
	return out
}

func hListDeps(blocks bool) func(c *call) {
	return func(c *call) {
		_, is := c.pathRepoIssue()
		if is == nil {
			return
		}
		list := c.st.dependencies(is)
		if blocks {
			list = is.blocks
		}
		page := paginate(c, list, pageTotalOnly)
		out := make([]*wIssue, 0, len(page))
		for _, x := range page {
			out = append(out, c.v.issue(x))
		}
		c.json(http.StatusOK, out)
	}
}

func hSetDep(blocks, add bool) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil {
			return
		}
		is := c.pathIssue(r)
		if is == nil || !c.canWriteRepo(r) {
			return
		}
		var body struct {
			Owner string `json:"owner"`
			Repo  string `json:"repo"`
			Index int64  `json:"index"`
		}
		if !c.decode(&body) {
			return
		}
		or := c.st.repo(cmp.Or(body.Owner, r.owner.login), cmp.Or(body.Repo, r.name))
		var other *issue
		if or != nil && canRead(c.user, or) {
			other = or.issue(body.Index)
		}
		if other == nil {
			c.failErrs(http.StatusNotFound, "The target couldn't be found.")
			return
		}
		blocker, blocked := other, is // is depends on other
		if blocks {
			blocker, blocked = is, other
		}
		if add {
			if blocker == blocked {
				c.fail(http.StatusUnprocessableEntity, "an issue cannot depend on itself")
				return
			}
			if !slices.Contains(blocker.blocks, blocked) {
				blocker.blocks = append(blocker.blocks, blocked)
			}
		} else {
			blocker.blocks = slices.DeleteFunc(blocker.blocks, func(x *issue) bool { return x == blocked })
		}
		if add {
			c.json(http.StatusCreated, c.v.issue(other))
		} else {
			c.json(http.StatusOK, c.v.issue(other))
		}
	}
}

// ---- pull request reviews and review requests

type review struct {
	id        int64
	pull      *issue
	reviewer  *user
	state     string // PENDING, APPROVED, REQUEST_CHANGES, COMMENT, REQUEST_REVIEW
	body      string
	commit    string
	dismissed bool
	submitted time.Time
	updated   time.Time
}

type wReview struct {
	ID                int64   `json:"id"`
	User              *wUser  `json:"user"`
	Team              *wTeam  `json:"team"`
	State             string  `json:"state"`
	Body              string  `json:"body"`
	CommitID          string  `json:"commit_id"`
	Stale             bool    `json:"stale"`
	Official          bool    `json:"official"`
	Dismissed         bool    `json:"dismissed"`
	CodeCommentsCount int     `json:"comments_count"`
	Submitted         *string `json:"submitted_at"`
	Updated           string  `json:"updated_at"`
	HTMLURL           string  `json:"html_url"`
	HTMLPullURL       string  `json:"pull_request_url"`
}

func (v view) review(rv *review) *wReview {
	is := rv.pull
	w := &wReview{
		ID: rv.id, User: v.user(rv.reviewer), State: rv.state, Body: rv.body, CommitID: rv.commit,
		Official: canWrite(rv.reviewer, is.repo) && rv.state != "COMMENT" && rv.state != "PENDING", Dismissed: rv.dismissed,
		Submitted: nts(rv.submitted), Updated: ts(rv.updated),
		HTMLURL:     v.html(issuePath(is) + "#issuecomment-" + strconv.FormatInt(rv.id, 10)),
		HTMLPullURL: v.html(issuePath(is)),
	}
	if w.Submitted == nil {
		s := goZeroTime
		w.Submitted = &s
	}
	return w
}

func (c *call) reviewsOf(is *issue) []*review {
	var out []*review
	for _, rv := range c.st.reviews {
		if rv.pull == is && (rv.state != "PENDING" || rv.reviewer == c.user) {
			out = append(out, rv)
		}
	}
	return out
}

func hListReviews(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	is := c.pathPull(r)
	if is == nil {
		return
	}
	page := paginate(c, c.reviewsOf(is), pageTotalOnly)
	out := make([]*wReview, 0, len(page))
	for _, rv := range page {
		out = append(out, c.v.review(rv))
	}
	c.json(http.StatusOK, out)
}

var reviewEvents = map[string]string{"APPROVED": "APPROVED", "APPROVE": "APPROVED", "REQUEST_CHANGES": "REQUEST_CHANGES", "COMMENT": "COMMENT", "PENDING": "PENDING", "": "PENDING"}

// submitReview checks and applies an event; it answers the error itself.
func (c *call) submitReview(rv *review, event, body string) bool {
	state, ok := reviewEvents[strings.ToUpper(event)]
	if !ok {
		c.fail(http.StatusUnprocessableEntity, "Unknown review event: "+event)
		return false
	}
	if rv.reviewer == rv.pull.poster && (state == "APPROVED" || state == "REQUEST_CHANGES") {
		c.fail(http.StatusUnprocessableEntity, map[string]string{"APPROVED": "approve your own pull is not allowed", "REQUEST_CHANGES": "reject your own pull is not allowed"}[state])
		return false
	}
	if (state == "REQUEST_CHANGES" || state == "COMMENT") && strings.TrimSpace(body) == "" {
		c.fail(http.StatusUnprocessableEntity, "review event "+state+" requires a body")
		return false
	}
	rv.state, rv.body, rv.updated = state, body, c.now
	if state != "PENDING" {
		rv.submitted = c.now
		c.st.removeReviewRequest(rv.pull, rv.reviewer)
	}
	return true
}

func hCreateReview(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	is := c.pathPull(r)
	if is == nil {
		return
	}
	var body struct {
		Event    string `json:"event"`
		Body     string `json:"body"`
		CommitID string `json:"commit_id"`
	}
	if !c.decode(&body) {
		return
	}
	rv := &review{pull: is, reviewer: c.user, commit: cmp.Or(body.CommitID, is.pull.headSHA)}
	if !c.submitReview(rv, body.Event, body.Body) {
		return
	}
	rv.id = c.st.id("review")
	c.st.reviews = append(c.st.reviews, rv)
	c.json(http.StatusOK, c.v.review(rv))
	c.s.emitReview(c, rv)
}

func (c *call) pathReview(is *issue) *review {
	id, _ := c.pathInt("id")
	for _, rv := range c.reviewsOf(is) {
		if rv.id == id {
			return rv
		}
	}
	c.failErrs(http.StatusNotFound, "The target couldn't be found.")
	return nil
}

func (c *call) reviewRoute() (*repo, *issue, *review) {
	r := c.pathRepo()
	if r == nil {
		return nil, nil, nil
	}
	is := c.pathPull(r)
	if is == nil {
		return nil, nil, nil
	}
	rv := c.pathReview(is)
	return r, is, rv
}

func hGetReview(c *call) {
	if _, _, rv := c.reviewRoute(); rv != nil {
		c.json(http.StatusOK, c.v.review(rv))
	}
}

func hSubmitReview(c *call) {
	_, _, rv := c.reviewRoute()
	if rv == nil {
		return
	}
	var body struct {
		Event string `json:"event"`
		Body  string `json:"body"`
	}
	if !c.decode(&body) {
		return
	}
	if rv.state != "PENDING" {
		c.fail(http.StatusUnprocessableEntity, "only a pending review can be submitted")
		return
	}
	if strings.ToUpper(body.Event) == "PENDING" || body.Event == "" {
		c.fail(http.StatusUnprocessableEntity, "Unknown review event: "+body.Event)
		return
	}
	if !c.submitReview(rv, body.Event, body.Body) {
		return
	}
	c.json(http.StatusOK, c.v.review(rv))
	c.s.emitReview(c, rv)
}

func hDismissReview(dismiss bool) func(c *call) {
	return func(c *call) {
		r, _, rv := c.reviewRoute()
		if rv == nil {
			return
		}
		if !canAdmin(c.user, r) {
			c.fail(http.StatusForbidden, "Must be repo admin")
			return
		}
		if rv.state != "APPROVED" && rv.state != "REQUEST_CHANGES" {
			c.fail(http.StatusForbidden, "not need to dismiss this review because it's type is not Approve or change request")
			return
		}
		rv.dismissed = dismiss
		c.json(http.StatusOK, c.v.review(rv))
	}
}

func hDeleteReview(c *call) {
	r, _, rv := c.reviewRoute()
	if rv == nil {
		return
	}
	if rv.reviewer != c.user && !canAdmin(c.user, r) {
		c.fail(http.StatusForbidden, "Must be repo admin")
		return
	}
	c.st.reviews = slices.DeleteFunc(c.st.reviews, func(x *review) bool { return x == rv })
	c.empty(http.StatusNoContent)
}

func (st *state) removeReviewRequest(is *issue, u *user) {
	is.pull.requested = slices.DeleteFunc(is.pull.requested, func(x *user) bool { return x == u })
}

func hReviewRequests(add bool) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil {
			return
		}
		is := c.pathPull(r)
		if is == nil {
			return
		}
		var body struct {
			Reviewers []string `json:"reviewers"`
		}
		if !c.decode(&body) {
			return
		}
		var us []*user
		for _, l := range body.Reviewers {
			if strings.TrimSpace(l) == "" {
				continue
			}
			u := c.st.user(l)
			if u == nil {
				// As Gitea 1.27 does (404, not the 422 of other user lists).
				c.failErrs(http.StatusNotFound, "The target couldn't be found.", "User '"+l+"' not exist")
				return
			}
			if !slices.Contains(us, u) {
				us = append(us, u)
			}
		}
		var out []*wReview
		for _, u := range us {
			if add && u == is.poster {
				c.fail(http.StatusUnprocessableEntity, "the poster cannot be a reviewer")
				return
			}
		}
		for _, u := range us {
			c.st.removeReviewRequest(is, u)
			if add {
				is.pull.requested = append(is.pull.requested, u)
				rv := &review{id: c.st.id("review"), pull: is, reviewer: u, state: "REQUEST_REVIEW", updated: c.now}
				c.st.reviews = append(c.st.reviews, rv)
				out = append(out, c.v.review(rv))
			} else {
				c.st.reviews = slices.DeleteFunc(c.st.reviews, func(x *review) bool {
					return x.pull == is && x.reviewer == u && x.state == "REQUEST_REVIEW"
				})
			}
		}
		if add {
			if out == nil {
				out = []*wReview{}
			}
			c.json(http.StatusCreated, out)
			return
		}
		c.empty(http.StatusNoContent)
	}
}

type wReviewPayload struct {
	Action      string `json:"action"`
	Number      int64  `json:"number"`
	PullRequest *wPull `json:"pull_request"`
	Repository  *wRepo `json:"repository"`
	Sender      *wUser `json:"sender"`
	CommitID    string `json:"commit_id"`
	Review      any    `json:"review"`
}

func (s *Server) emitReview(c *call, rv *review) {
	var t string
	switch rv.state {
	case "APPROVED":
		t = "pull_request_review_approved"
	case "REQUEST_CHANGES":
		t = "pull_request_review_rejected"
	case "COMMENT":
		t = "pull_request_review_comment"
	default:
		return
	}
	v := c.payloadView()
	is := rv.pull
	s.emit(c, is.repo, eventType(t), "", &wReviewPayload{Action: "reviewed", Number: is.number, PullRequest: v.pull(is, false),
		Repository: v.repo(is.repo, 0), Sender: c.sender(), CommitID: rv.commit,
		Review: map[string]string{"type": t, "content": rv.body}})
}

// ---- diff and patch

func hPullDiff(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	n, err := strconv.ParseInt(c.p["index"], 10, 64)
	is := r.issue(n)
	if err != nil || is == nil || is.pull == nil {
		c.notFound()
		return
	}
	diff := c.pullDiff(r, is)
	switch c.p["diffType"] {
	case "diff":
	case "patch":
		diff = "From " + is.pull.headSHA + " Mon Sep 17 00:00:00 2001\nFrom: " + is.poster.login + " <" + is.poster.login + "@noreply." + c.v.host + ">\nDate: " +
			is.created.UTC().Format(time.RFC1123Z) + "\nSubject: [PATCH] " + is.title + "\n\n---\n" + diff
	default:
		c.notFound()
		return
	}
	c.status, c.out = http.StatusOK, []byte(diff)
	c.header.Set("Content-Type", "text/plain; charset=utf-8")
}

// pullDiff is a unified diff of the files that differ between the head
// and base branches, or of the pull request's synthetic file when the
// branches carry no files of their own.
func (c *call) pullDiff(r *repo, is *issue) string {
	base, head := pullTrees(r, is)
	paths := changedPaths(base, head)
	if len(paths) == 0 {
		f := pullFile(is)
		return "diff --git a/" + f + " b/" + f + "\nnew file mode 100644\n--- /dev/null\n+++ b/" + f + "\n@@ -0,0 +1 @@\n+" + is.title + "\n"
	}
	var sb strings.Builder
	for _, p := range paths {
		old, hadOld := base[p]
		nw, hasNew := head[p]
		sb.WriteString("diff --git a/" + p + " b/" + p + "\n")
		from, to := "a/"+p, "b/"+p
		switch {
		case !hadOld:
			sb.WriteString("new file mode 100644\n")
			from = "/dev/null"
		case !hasNew:
			sb.WriteString("deleted file mode 100644\n")
			to = "/dev/null"
		}
		sb.WriteString("index " + blobSHA(old)[:7] + ".." + blobSHA(nw)[:7] + "\n--- " + from + "\n+++ " + to + "\n")
		ol, nl := lines(old), lines(nw)
		sb.WriteString("@@ -" + hunkRange(len(ol)) + " +" + hunkRange(len(nl)) + " @@\n")
		for _, l := range ol {
			sb.WriteString("-" + l + "\n")
		}
		for _, l := range nl {
			sb.WriteString("+" + l + "\n")
		}
	}
	return sb.String()
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func hunkRange(n int) string {
	if n == 0 {
		return "0,0"
	}
	if n == 1 {
		return "1"
	}
	return "1," + strconv.Itoa(n)
}
