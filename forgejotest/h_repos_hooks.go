package forgejotest

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Repository, organization and user hooks. Creating one makes the fake
// deliver events to it; see deliveries.go.

type wHook struct {
	ID                  int64             `json:"id"`
	Type                string            `json:"type"`
	BranchFilter        string            `json:"branch_filter"`
	Config              map[string]string `json:"config"`
	Events              []string          `json:"events"`
	AuthorizationHeader string            `json:"authorization_header"`
	Active              bool              `json:"active"`
	UpdatedAt           string            `json:"updated_at"`
	CreatedAt           string            `json:"created_at"`
}

func (v view) hook(h *hook) *wHook {
	return &wHook{
		ID: h.id, Type: h.kind, BranchFilter: h.branchFilter,
		Config: map[string]string{"url": h.url, "content_type": h.contentType},
		Events: slices.Clone(h.events), AuthorizationHeader: h.authorization, Active: h.active,
		UpdatedAt: ts(h.updated), CreatedAt: ts(h.created),
	}
}

// hookTypes are the hook types Forgejo accepts.
var hookTypes = []string{"forgejo", "dingtalk", "discord", "gitea", "gogs", "msteams", "slack", "telegram", "feishu", "wechatwork", "packagist", "matrix", "sourcehut_builds"}

// hookOwner resolves which hooks a route manages: a repository's (admin),
// an organization's (owner) or the current user's. It answers the error.
func (c *call) hookOwner(scope string) (*[]*hook, bool) {
	switch scope {
	case "repo":
		r := c.pathRepo()
		if r == nil || !c.canAdminRepo(r) {
			return nil, false
		}
		return &r.hooks, true
	case "org":
		o := c.pathOrg()
		if o == nil || !c.isOrgOwner(o) {
			return nil, false
		}
		return &o.hooks, true
	case "admin": // system hooks; adminOnly has checked the caller
		return &c.st.accounts.sysHooks, true
	default:
		return &c.user.hooks, true
	}
}

func (c *call) pathHook(hs []*hook) *hook {
	id, _ := c.pathInt("id")
	for _, h := range hs {
		if h.id == id {
			return h
		}
	}
	c.failErrs(http.StatusNotFound, "The target couldn't be found.")
	return nil
}

type hookBody struct {
	Type          *string           `json:"type"`
	Config        map[string]string `json:"config"`
	Events        []string          `json:"events"`
	BranchFilter  *string           `json:"branch_filter"`
	Authorization *string           `json:"authorization_header"`
	Active        *bool             `json:"active"`
}

func validHookURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// applyConfig sets url, content_type and secret as given.
func (c *call) applyConfig(h *hook, cfg map[string]string, create bool) bool {
	if create {
		for _, name := range []string{"url", "content_type"} {
			if _, ok := cfg[name]; !ok {
				c.fail(http.StatusUnprocessableEntity, "Missing config option: "+name)
				return false
			}
		}
	}
	if ct, ok := cfg["content_type"]; ok {
		if ct != "json" && ct != "form" {
			c.fail(http.StatusUnprocessableEntity, "Invalid content type")
			return false
		}
		h.contentType = ct
	}
	if u, ok := cfg["url"]; ok {
		if !validHookURL(u) {
			c.fail(http.StatusUnprocessableEntity, "Invalid url")
			return false
		}
		h.url = u
	}
	if sec, ok := cfg["secret"]; ok {
		h.secret = sec
	}
	if m, ok := cfg["http_method"]; ok {
		h.method = strings.ToUpper(m)
	}
	return true
}

func hCreateHook(scope string) func(c *call) {
	return func(c *call) {
		hs, ok := c.hookOwner(scope)
		if !ok {
			return
		}
		var b hookBody
		if !c.decode(&b) {
			return
		}
		if b.Type == nil || !slices.Contains(hookTypes, *b.Type) {
			c.fail(http.StatusUnprocessableEntity, "Invalid hook type: "+cmp.Or(ptrStr(b.Type), ""))
			return
		}
		h := &hook{kind: *b.Type, method: "POST", active: b.Active != nil && *b.Active, created: c.now, updated: c.now}
		if !c.applyConfig(h, b.Config, true) {
			return
		}
		h.events = expandEvents(b.Events)
		if b.BranchFilter != nil {
			h.branchFilter = *b.BranchFilter
		}
		if b.Authorization != nil {
			h.authorization = *b.Authorization
		}
		h.id = c.st.id("hook")
		h.defaultHook = scope == "admin"
		*hs = append(*hs, h)
		c.json(http.StatusCreated, c.v.hook(h))
	}
}

func hListHooks(scope string) func(c *call) {
	return func(c *call) {
		hs, ok := c.hookOwner(scope)
		if !ok {
			return
		}
		listed := *hs
		if scope == "admin" {
			// Forgejo 15 lists the site's system hooks only, and the
			// hooks /admin/hooks creates are default hooks: created 201,
			// found by id, never listed (as on Gitea 1.27).
			listed = slices.DeleteFunc(slices.Clone(listed), func(h *hook) bool { return h.defaultHook })
		}
		page := paginate(c, listed, pageLinked)
		out := make([]*wHook, 0, len(page))
		for _, h := range page {
			out = append(out, c.v.hook(h))
		}
		c.json(http.StatusOK, out)
	}
}

func hGetHook(scope string) func(c *call) {
	return func(c *call) {
		if hs, ok := c.hookOwner(scope); ok {
			if h := c.pathHook(*hs); h != nil {
				c.json(http.StatusOK, c.v.hook(h))
			}
		}
	}
}

func hEditHook(scope string) func(c *call) {
	return func(c *call) {
		hs, ok := c.hookOwner(scope)
		if !ok {
			return
		}
		h := c.pathHook(*hs)
		if h == nil {
			return
		}
		var b hookBody
		if !c.decode(&b) {
			return
		}
		cp := *h
		if !c.applyConfig(&cp, b.Config, false) {
			return
		}
		if b.Events != nil {
			cp.events = expandEvents(b.Events)
		}
		if b.BranchFilter != nil {
			cp.branchFilter = *b.BranchFilter
		}
		if b.Authorization != nil {
			cp.authorization = *b.Authorization
		}
		if b.Active != nil {
			cp.active = *b.Active
		}
		cp.updated = c.now
		*h = cp
		c.json(http.StatusOK, c.v.hook(h))
	}
}

func hDeleteHook(scope string) func(c *call) {
	return func(c *call) {
		hs, ok := c.hookOwner(scope)
		if !ok {
			return
		}
		if h := c.pathHook(*hs); h != nil {
			*hs = slices.DeleteFunc(*hs, func(x *hook) bool { return x == h })
			c.empty(http.StatusNoContent)
		}
	}
}

// hTestHook delivers a push of the head commit of the default branch (or
// ?ref) to the one hook, active or not, as Forgejo's test button does.
func hTestHook(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	h := c.pathHook(r.hooks)
	if h == nil {
		return
	}
	b := r.branch(cmp.Or(strings.TrimPrefix(c.q.Get("ref"), "refs/heads/"), r.defaultBranch))
	if b == nil {
		b = &branch{name: r.defaultBranch, author: r.owner, when: c.now}
	}
	c.s.deliverTo(c, []*hook{h}, r, "push", c.pushPayload(r, b, b.sha, r.commits[b.sha], nil, nil, nil))
	c.empty(http.StatusNoContent)
}

func ptrStr(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// expandEvents stores a hook's events as Forgejo answers them: "issues"
// and "pull_request" switch on their sub-events too, nothing given means
// push; sorted, as the fake has no map order to imitate.
func expandEvents(given []string) []string {
	set := map[string]bool{}
	for _, e := range given {
		set[e] = true
		switch e {
		case "issues":
			for _, x := range []string{"issue_assign", "issue_label", "issue_milestone", "issue_comment"} {
				set[x] = true
			}
		case "pull_request":
			for _, x := range []string{"pull_request_assign", "pull_request_label", "pull_request_milestone", "pull_request_comment",
				"pull_request_review_approved", "pull_request_review_rejected", "pull_request_review_comment", "pull_request_sync", "pull_request_review_request"} {
				set[x] = true
			}
		}
	}
	if len(set) == 0 {
		set["push"] = true
	}
	out := make([]string, 0, len(set))
	for e := range set {
		out = append(out, e)
	}
	slices.Sort(out)
	return out
}
