package forgejotest

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// Quotas (Forgejo only): rules limit the size of subjects, groups gather
// rules, users belong to groups. The fake behaves as a Forgejo with
// [quota] ENABLED = true (without it Forgejo's router answers 404) and
// [quota.default] TOTAL = -1: a user in no group has no limit.
//
// What counts as used: every repository the fake reports at its Size
// (25 KiB), release and issue attachments of the owner's repositories, and
// the files of the owner's packages. LFS, artifacts and wikis are not
// modelled and count zero.

type quotaRule struct {
	name     string
	limit    int64 // -1: unlimited
	subjects []string
}

type quotaGroup struct {
	name  string
	rules []*quotaRule
	users []*user
}

type wQuotaRule struct {
	Name     string   `json:"name,omitempty"`
	Limit    int64    `json:"limit"`
	Subjects []string `json:"subjects"`
}

type wQuotaGroup struct {
	Name  string        `json:"name,omitempty"`
	Rules []*wQuotaRule `json:"rules"`
}

// quotaSubjects are Forgejo's limit subjects.
var quotaSubjects = []string{"none", "size:all", "size:repos:all", "size:repos:public", "size:repos:private",
	"size:git:all", "size:git:lfs", "size:assets:all", "size:assets:attachments:all", "size:assets:attachments:issues",
	"size:assets:attachments:releases", "size:assets:artifacts", "size:assets:packages:all", "size:assets:wiki"}

func (r *quotaRule) render(withName bool) *wQuotaRule {
	w := &wQuotaRule{Limit: r.limit, Subjects: slices.Clone(r.subjects)}
	if w.Subjects == nil {
		w.Subjects = []string{}
	}
	if withName {
		w.Name = r.name
	}
	return w
}

func (g *quotaGroup) render(withName bool) *wQuotaGroup {
	w := &wQuotaGroup{Rules: []*wQuotaRule{}}
	if withName {
		w.Name = g.name
	}
	for _, r := range g.rules {
		w.Rules = append(w.Rules, r.render(withName))
	}
	return w
}

func (a *accountsState) quotaRule(name string) *quotaRule {
	for _, r := range a.quotaRules {
		if r.name == name {
			return r
		}
	}
	return nil
}

func (a *accountsState) quotaGroup(name string) *quotaGroup {
	for _, g := range a.quotaGroups {
		if g.name == name {
			return g
		}
	}
	return nil
}

// pathQuotaGroup and pathQuotaRule are the assignments: a missing one is
// the generic 404.
func (c *call) pathQuotaGroup() *quotaGroup {
	if g := c.st.accounts.quotaGroup(c.p["quotagroup"]); g != nil {
		return g
	}
	c.notFound()
	return nil
}

func (c *call) pathQuotaRule() *quotaRule {
	if r := c.st.accounts.quotaRule(c.p["quotarule"]); r != nil {
		return r
	}
	c.notFound()
	return nil
}

// checkSubjects answers ParseLimitSubject's 422 for the first unknown
// subject.
func (c *call) checkSubjects(subjects []string) bool {
	for _, s := range subjects {
		if !slices.Contains(quotaSubjects, s) {
			c.fail(http.StatusUnprocessableEntity, "unrecognized quota limit subject: [subject: "+s+"]")
			return false
		}
	}
	return true
}

type quotaRuleBody struct {
	Name     string   `json:"name"`
	Limit    *int64   `json:"limit"`
	Subjects []string `json:"subjects"`
}

func hListQuotaRules(c *call) {
	out := []*wQuotaRule{}
	for _, r := range sortedByName(c.st.accounts.quotaRules, func(r *quotaRule) string { return r.name }) {
		out = append(out, r.render(true))
	}
	c.json(http.StatusOK, out)
}

func sortedByName[T any](xs []T, name func(T) string) []T {
	out := slices.Clone(xs)
	slices.SortStableFunc(out, func(a, b T) int { return strings.Compare(name(a), name(b)) })
	return out
}

func hCreateQuotaRule(c *call) {
	var b quotaRuleBody
	if !c.decode(&b) {
		return
	}
	switch {
	case strings.TrimSpace(b.Name) == "":
		c.fail(http.StatusUnprocessableEntity, "[Name]: Required")
		return
	case b.Limit == nil:
		c.fail(http.StatusUnprocessableEntity, "[Limit]: Required")
		return
	case !c.checkSubjects(b.Subjects):
		return
	case c.st.accounts.quotaRule(b.Name) != nil:
		c.fail(http.StatusConflict, "rule already exists: [name: "+b.Name+"]")
		return
	}
	r := &quotaRule{name: b.Name, limit: *b.Limit, subjects: slices.Clone(b.Subjects)}
	c.st.accounts.quotaRules = append(c.st.accounts.quotaRules, r)
	c.json(http.StatusCreated, r.render(true))
}

func hGetQuotaRule(c *call) {
	if r := c.pathQuotaRule(); r != nil {
		c.json(http.StatusOK, r.render(true))
	}
}

func hEditQuotaRule(c *call) {
	r := c.pathQuotaRule()
	if r == nil {
		return
	}
	var b struct {
		Limit    *int64    `json:"limit"`
		Subjects *[]string `json:"subjects"`
	}
	if !c.decode(&b) {
		return
	}
	if b.Subjects != nil && !c.checkSubjects(*b.Subjects) {
		return
	}
	if b.Limit != nil {
		r.limit = *b.Limit
	}
	if b.Subjects != nil {
		r.subjects = slices.Clone(*b.Subjects)
	}
	c.json(http.StatusOK, r.render(true))
}

// hDeleteQuotaRule deletes a rule and takes it out of every group.
func hDeleteQuotaRule(c *call) {
	r := c.pathQuotaRule()
	if r == nil {
		return
	}
	a := &c.st.accounts
	a.quotaRules = slices.DeleteFunc(a.quotaRules, func(x *quotaRule) bool { return x == r })
	for _, g := range a.quotaGroups {
		g.rules = slices.DeleteFunc(g.rules, func(x *quotaRule) bool { return x == r })
	}
	c.empty(http.StatusNoContent)
}

func hListQuotaGroups(c *call) {
	out := []*wQuotaGroup{}
	for _, g := range sortedByName(c.st.accounts.quotaGroups, func(g *quotaGroup) string { return g.name }) {
		out = append(out, g.render(true))
	}
	c.json(http.StatusOK, out)
}

// hCreateQuotaGroup creates a group and its rules: a rule named that
// exists already joins as it is (its limit and subjects in the request are
// ignored), a new one is created (limit 0 when none is given).
func hCreateQuotaGroup(c *call) {
	var b struct {
		Name  string          `json:"name"`
		Rules []quotaRuleBody `json:"rules"`
	}
	if !c.decode(&b) {
		return
	}
	a := &c.st.accounts
	switch {
	case strings.TrimSpace(b.Name) == "":
		c.fail(http.StatusUnprocessableEntity, "[Name]: Required")
		return
	case a.quotaGroup(b.Name) != nil:
		c.fail(http.StatusConflict, "group already exists: [name: "+b.Name+"]")
		return
	}
	// Validate every new rule first: the transaction is all or nothing.
	for _, rb := range b.Rules {
		if a.quotaRule(rb.Name) == nil && !c.checkSubjects(rb.Subjects) {
			return
		}
	}
	g := &quotaGroup{name: b.Name}
	for _, rb := range b.Rules {
		r := a.quotaRule(rb.Name)
		if r == nil {
			r = &quotaRule{name: rb.Name, subjects: slices.Clone(rb.Subjects)}
			if rb.Limit != nil {
				r.limit = *rb.Limit
			}
			a.quotaRules = append(a.quotaRules, r)
		}
		if !slices.Contains(g.rules, r) {
			g.rules = append(g.rules, r)
		}
	}
	a.quotaGroups = append(a.quotaGroups, g)
	c.json(http.StatusCreated, g.render(true))
}

func hGetQuotaGroup(c *call) {
	if g := c.pathQuotaGroup(); g != nil {
		c.json(http.StatusOK, g.render(true))
	}
}

func hDeleteQuotaGroup(c *call) {
	g := c.pathQuotaGroup()
	if g == nil {
		return
	}
	c.st.accounts.quotaGroups = slices.DeleteFunc(c.st.accounts.quotaGroups, func(x *quotaGroup) bool { return x == g })
	c.empty(http.StatusNoContent)
}

func hQuotaGroupRule(add bool) func(c *call) {
	return func(c *call) {
		g := c.pathQuotaGroup()
		if g == nil {
			return
		}
		r := c.pathQuotaRule()
		if r == nil {
			return
		}
		has := slices.Contains(g.rules, r)
		switch {
		case add && has:
			c.fail(http.StatusConflict, "rule already in group: [group: "+g.name+", rule: "+r.name+"]")
			return
		case add:
			g.rules = append(g.rules, r)
		case !has:
			c.notFound()
			return
		default:
			g.rules = slices.DeleteFunc(g.rules, func(x *quotaRule) bool { return x == r })
		}
		c.empty(http.StatusNoContent)
	}
}

func hQuotaGroupUsers(c *call) {
	if g := c.pathQuotaGroup(); g != nil {
		c.json(http.StatusOK, c.users(g.users))
	}
}

func hQuotaGroupUser(add bool) func(c *call) {
	return func(c *call) {
		g := c.pathQuotaGroup()
		if g == nil {
			return
		}
		u := c.pathUser("username")
		if u == nil {
			return
		}
		has := slices.Contains(g.users, u)
		switch {
		case add && has:
			c.fail(http.StatusConflict, "user already in group: [group: "+g.name+", userID: "+strconv.FormatInt(u.id, 10)+"]")
			return
		case add:
			g.users = append(g.users, u)
		case !has:
			c.notFound()
			return
		default:
			g.users = slices.DeleteFunc(g.users, func(x *user) bool { return x == u })
		}
		c.empty(http.StatusNoContent)
	}
}

// hSetUserQuotaGroups makes {username} a member of exactly the groups
// named; an unknown one refuses the lot.
func hSetUserQuotaGroups(c *call) {
	u := c.pathUser("username")
	if u == nil {
		return
	}
	var b struct {
		Groups *[]string `json:"groups"`
	}
	if !c.decode(&b) {
		return
	}
	if b.Groups == nil {
		c.fail(http.StatusUnprocessableEntity, "[Groups]: Required")
		return
	}
	a := &c.st.accounts
	var want []*quotaGroup
	for _, name := range *b.Groups {
		g := a.quotaGroup(name)
		if g == nil {
			c.fail(http.StatusUnprocessableEntity, "group not found: [group: "+name+"]")
			return
		}
		want = append(want, g)
	}
	for _, g := range a.quotaGroups {
		in := slices.Contains(g.users, u)
		switch wanted := slices.Contains(want, g); {
		case wanted && !in:
			g.users = append(g.users, u)
		case !wanted && in:
			g.users = slices.DeleteFunc(g.users, func(x *user) bool { return x == u })
		}
	}
	c.empty(http.StatusNoContent)
}

// ---- what an account uses

type quotaUsed struct {
	reposPublic, reposPrivate, lfs  int64
	issueAttachments, releaseAttach int64
	artifacts, packages             int64
}

// repoBytes is what one repository counts: the 25 KiB the fake reports as
// its size.
const repoBytes = 25 << 10

func (st *state) quotaUsedBy(u *user) quotaUsed {
	var q quotaUsed
	for _, r := range st.reposInOrder {
		if r.owner != u {
			continue
		}
		if r.private {
			q.reposPrivate += repoBytes
		} else {
			q.reposPublic += repoBytes
		}
		for _, is := range r.issues {
			if is == nil {
				continue
			}
			for _, a := range is.assets {
				q.issueAttachments += a.size
			}
			for _, cm := range is.comments {
				for _, a := range cm.assets {
					q.issueAttachments += a.size
				}
			}
		}
		for _, rel := range r.releases {
			for _, a := range rel.assets {
				q.releaseAttach += a.size
			}
		}
	}
	for _, p := range st.accounts.packages {
		if p.owner != u {
			continue
		}
		for _, v := range p.versions {
			for _, f := range v.files {
				q.packages += int64(len(f.data))
			}
		}
	}
	return q
}

// sizeOf is Used.CalculateFor: the bytes a subject covers.
func (q quotaUsed) sizeOf(subject string) int64 {
	repos := q.reposPublic + q.reposPrivate
	attach := q.issueAttachments + q.releaseAttach
	assets := attach + q.artifacts + q.packages
	switch subject {
	case "size:all":
		return repos + q.lfs + assets
	case "size:repos:all":
		return repos
	case "size:repos:public":
		return q.reposPublic
	case "size:repos:private":
		return q.reposPrivate
	case "size:git:all":
		return repos + q.lfs
	case "size:git:lfs":
		return q.lfs
	case "size:assets:all":
		return assets
	case "size:assets:attachments:all":
		return attach
	case "size:assets:attachments:issues":
		return q.issueAttachments
	case "size:assets:attachments:releases":
		return q.releaseAttach
	case "size:assets:artifacts":
		return q.artifacts
	case "size:assets:packages:all":
		return q.packages
	}
	return 0
}

// covers reports whether a rule's subject also limits subject: size:all
// covers everything, an :all subject its branch.
func covers(ruleSubject, subject string) bool {
	if ruleSubject == subject || ruleSubject == "size:all" {
		return true
	}
	switch ruleSubject {
	case "size:repos:all":
		return strings.HasPrefix(subject, "size:repos:")
	case "size:git:all":
		return strings.HasPrefix(subject, "size:repos:") || subject == "size:git:lfs"
	case "size:assets:all":
		return strings.HasPrefix(subject, "size:assets:")
	case "size:assets:attachments:all":
		return strings.HasPrefix(subject, "size:assets:attachments:")
	}
	return false
}

// quotaAllows evaluates u's groups for subject: a group allows when one of
// its rules covering the subject allows (unlimited, or the rule's subjects
// use less than its limit); u may go on when one group allows, or when no
// rule covers the subject at all.
func (st *state) quotaAllows(u *user, subject string) bool {
	used := st.quotaUsedBy(u)
	found := false
	for _, g := range st.accounts.quotaGroups {
		if !slices.Contains(g.users, u) {
			continue
		}
		for _, r := range g.rules {
			if !slices.ContainsFunc(r.subjects, func(s string) bool { return covers(s, subject) }) {
				continue
			}
			found = true
			if r.limit == -1 {
				return true
			}
			var sum int64
			for _, s := range r.subjects {
				sum += used.sizeOf(s)
			}
			if sum < r.limit {
				return true
			}
		}
	}
	return !found
}

type wQuotaInfo struct {
	Used struct {
		Size struct {
			Repos struct {
				Public  int64 `json:"public"`
				Private int64 `json:"private"`
			} `json:"repos"`
			Git struct {
				LFS int64 `json:"LFS"`
			} `json:"git"`
			Assets struct {
				Attachments struct {
					Issues   int64 `json:"issues"`
					Releases int64 `json:"releases"`
				} `json:"attachments"`
				Artifacts int64 `json:"artifacts"`
				Packages  struct {
					All int64 `json:"all"`
				} `json:"packages"`
			} `json:"assets"`
		} `json:"size"`
	} `json:"used"`
	Groups []*wQuotaGroup `json:"groups"`
}

// quotaInfo renders u's usage and groups; names are shown to
// administrators only, as Forgejo's ToQuotaInfo(withNames) does.
func (c *call) quotaInfo(u *user, withNames bool) *wQuotaInfo {
	q := c.st.quotaUsedBy(u)
	w := &wQuotaInfo{Groups: []*wQuotaGroup{}}
	s := &w.Used.Size
	s.Repos.Public, s.Repos.Private, s.Git.LFS = q.reposPublic, q.reposPrivate, q.lfs
	s.Assets.Attachments.Issues, s.Assets.Attachments.Releases = q.issueAttachments, q.releaseAttach
	s.Assets.Artifacts, s.Assets.Packages.All = q.artifacts, q.packages
	for _, g := range sortedByName(c.st.accounts.quotaGroups, func(g *quotaGroup) string { return g.name }) {
		if slices.Contains(g.users, u) {
			w.Groups = append(w.Groups, g.render(withNames))
		}
	}
	return w
}

// quotaSubject is the user or organization a /user/quota or
// /orgs/{org}/quota route is about (an organization's owners only).
func (c *call) quotaSubject(org bool) *user {
	if !org {
		return c.user
	}
	o := c.pathOrg()
	if o == nil || !c.isOrgOwner(o) {
		return nil
	}
	return o
}

func hGetQuota(org bool) func(c *call) {
	return func(c *call) {
		if u := c.quotaSubject(org); u != nil {
			c.json(http.StatusOK, c.quotaInfo(u, false))
		}
	}
}

func hAdminUserQuota(c *call) {
	if u := c.pathUser("username"); u != nil {
		c.json(http.StatusOK, c.quotaInfo(u, true))
	}
}

// hCheckQuota answers whether the account may still store more of
// ?subject=, a JSON boolean.
func hCheckQuota(org bool) func(c *call) {
	return func(c *call) {
		u := c.quotaSubject(org)
		if u == nil {
			return
		}
		subject := c.q.Get("subject")
		if !slices.Contains(quotaSubjects, subject) {
			c.fail(http.StatusUnprocessableEntity, "unrecognized quota limit subject: [subject: "+subject+"]")
			return
		}
		c.json(http.StatusOK, c.st.quotaAllows(u, subject))
	}
}

type wQuotaContainer struct {
	Type    string `json:"type"`
	APIURL  string `json:"api_url"`
	HTMLURL string `json:"html_url"`
}

type wQuotaAttachment struct {
	Name        string           `json:"name"`
	Size        int64            `json:"size"`
	APIURL      string           `json:"api_url"`
	ContainedIn *wQuotaContainer `json:"contained_in"`
}

type wQuotaPackage struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Version string `json:"version"`
	Size    int64  `json:"size"`
	HTMLURL string `json:"html_url"`
}

// hQuotaAttachments lists the attachments counting towards the quota:
// those of the account's repositories' releases, then issues.
func hQuotaAttachments(org bool) func(c *call) {
	return func(c *call) {
		u := c.quotaSubject(org)
		if u == nil {
			return
		}
		var out []*wQuotaAttachment
		for _, r := range c.st.reposInOrder {
			if r.owner != u {
				continue
			}
			rp := repoPath(r)
			for _, rel := range r.releases {
				id := strconv.FormatInt(rel.id, 10)
				in := &wQuotaContainer{Type: "release", APIURL: c.v.api(rp + "/releases/" + id),
					HTMLURL: c.v.html("/" + r.owner.login + "/" + r.name + "/releases/tag/" + rel.tag)}
				for _, a := range rel.assets {
					out = append(out, &wQuotaAttachment{Name: a.name, Size: a.size,
						APIURL: c.v.api(rp + "/releases/" + id + "/assets/" + strconv.FormatInt(a.id, 10)), ContainedIn: in})
				}
			}
			for _, is := range r.issues {
				if is == nil {
					continue
				}
				n := strconv.FormatInt(is.number, 10)
				in := &wQuotaContainer{Type: "issue", APIURL: c.v.api(rp + "/issues/" + n), HTMLURL: c.v.html(issuePath(is))}
				for _, a := range is.assets {
					out = append(out, &wQuotaAttachment{Name: a.name, Size: a.size,
						APIURL: c.v.api(rp + "/issues/" + n + "/assets/" + strconv.FormatInt(a.id, 10)), ContainedIn: in})
				}
				for _, cm := range is.comments {
					for _, a := range cm.assets {
						out = append(out, &wQuotaAttachment{Name: a.name, Size: a.size,
							APIURL: c.v.api(rp + "/issues/comments/" + strconv.FormatInt(cm.id, 10) + "/assets/" + strconv.FormatInt(a.id, 10)), ContainedIn: in})
					}
				}
			}
		}
		c.json(http.StatusOK, paginate(c, out, pageTotalOnly))
	}
}

func hQuotaPackages(org bool) func(c *call) {
	return func(c *call) {
		u := c.quotaSubject(org)
		if u == nil {
			return
		}
		var out []*wQuotaPackage
		for _, p := range c.st.accounts.packages {
			if p.owner != u {
				continue
			}
			for _, v := range p.versions {
				var size int64
				for _, f := range v.files {
					size += int64(len(f.data))
				}
				out = append(out, &wQuotaPackage{Name: p.name, Type: p.typ, Version: v.version, Size: size,
					HTMLURL: c.pkgVersion(v).HTMLURL})
			}
		}
		slices.SortStableFunc(out, func(a, b *wQuotaPackage) int { return cmp.Compare(b.Size, a.Size) })
		c.json(http.StatusOK, paginate(c, out, pageTotalOnly))
	}
}

// hQuotaArtifacts: the fake's Actions artifacts are not counted; the list
// is empty.
func hQuotaArtifacts(org bool) func(c *call) {
	return func(c *call) {
		if c.quotaSubject(org) != nil {
			c.json(http.StatusOK, paginate(c, []struct{}{}, pageTotalOnly))
		}
	}
}
