package forgejotest

import (
	"cmp"
	"net/http"
	"slices"
	"strings"
)

// Branches (list, create, rename, delete) and branch protections.

// ---- branches

func sortedBranches(r *repo) []*branch {
	bs := slices.Clone(r.branches)
	slices.SortFunc(bs, func(a, b *branch) int { return strings.Compare(a.name, b.name) })
	return bs
}

func hListBranches(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	page := paginate(c, sortedBranches(r), pageLinked)
	out := make([]*wBranch, 0, len(page))
	for _, b := range page {
		out = append(out, c.v.branch(r, b))
	}
	c.json(http.StatusOK, out)
}

func hGetBranch(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	b := r.branch(c.p["branch"])
	if b == nil {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.", "branch does not exist [name: "+c.p["branch"]+"]")
		return
	}
	c.json(http.StatusOK, c.v.branch(r, b))
}

func hCreateBranch(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	var body struct {
		New    string `json:"new_branch_name"`
		OldRef string `json:"old_ref_name"`
		Old    string `json:"old_branch_name"`
	}
	if !c.decode(&body) {
		return
	}
	if strings.TrimSpace(body.New) == "" {
		c.fail(http.StatusUnprocessableEntity, "[NewBranchName]: Required")
		return
	}
	if r.empty {
		c.fail(http.StatusNotFound, "Git Repository is empty.")
		return
	}
	from := cmp.Or(strings.TrimPrefix(body.OldRef, "refs/heads/"), body.Old, r.defaultBranch)
	old := r.branch(from)
	if old == nil {
		c.fail(http.StatusNotFound, "The old branch does not exist")
		return
	}
	if r.branch(body.New) != nil {
		c.fail(http.StatusConflict, "The branch already exists.")
		return
	}
	b := &branch{name: body.New, sha: old.sha, message: old.message, author: old.author, when: old.when}
	r.branches = append(r.branches, b)
	c.json(http.StatusCreated, c.v.branch(r, b))
}

func hDeleteBranch(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	name := c.p["branch"]
	switch {
	case name == r.defaultBranch:
		c.fail(http.StatusForbidden, "can not delete default branch")
	case r.branch(name) == nil:
		c.fail(http.StatusNotFound, "Branch doesn't exist.")
	default:
		r.branches = slices.DeleteFunc(r.branches, func(b *branch) bool { return b.name == name })
		c.empty(http.StatusNoContent)
	}
}

// hRenameBranch is repoUpdateBranch: renaming a branch, the default
// branch and the pull requests on it following.
func hRenameBranch(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	var b struct {
		Name string `json:"name"`
	}
	if !c.decode(&b) {
		return
	}
	if strings.TrimSpace(b.Name) == "" {
		c.fail(http.StatusUnprocessableEntity, "[Name]: Required")
		return
	}
	if r.empty {
		c.fail(http.StatusNotFound, "Git Repository is empty.")
		return
	}
	old := c.p["branch"]
	br := r.branch(old)
	switch {
	case old == b.Name || r.branch(b.Name) != nil:
		c.fail(http.StatusUnprocessableEntity, "Cannot rename a branch using the same name or rename to a branch that already exists.")
		return
	case br == nil:
		c.fail(http.StatusNotFound, "Branch doesn't exist.")
		return
	}
	br.name = b.Name
	if r.defaultBranch == old {
		r.defaultBranch = b.Name
	}
	for _, is := range r.issues {
		if is == nil || is.pull == nil || is.pull.merged {
			continue
		}
		if is.pull.base == old {
			is.pull.base = b.Name
		}
		if is.pull.head == old {
			is.pull.head = b.Name
		}
	}
	c.empty(http.StatusNoContent)
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
