package forgejotest

import (
	"cmp"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Organizations, their members and teams, and organization labels.

type wOrg struct {
	ID                        int64  `json:"id"`
	Name                      string `json:"name"`
	FullName                  string `json:"full_name"`
	Email                     string `json:"email"`
	AvatarURL                 string `json:"avatar_url"`
	Description               string `json:"description"`
	Website                   string `json:"website"`
	Location                  string `json:"location"`
	Visibility                string `json:"visibility"`
	RepoAdminChangeTeamAccess bool   `json:"repo_admin_change_team_access"`
	Username                  string `json:"username"`
}

type wTeam struct {
	ID                      int64             `json:"id"`
	Name                    string            `json:"name"`
	Description             string            `json:"description"`
	Organization            *wOrg             `json:"organization"`
	IncludesAllRepositories bool              `json:"includes_all_repositories"`
	Permission              string            `json:"permission"`
	Units                   []string          `json:"units"`
	UnitsMap                map[string]string `json:"units_map"`
	CanCreateOrgRepo        bool              `json:"can_create_org_repo"`
}

func (v view) org(u *user) *wOrg {
	o := u.org
	return &wOrg{
		ID: u.id, Name: u.login, FullName: u.fullName, Email: o.email,
		AvatarURL:   v.st.accounts.orgAvatar(u, v.html("/avatars/"+fakeSHA("avatar", u.login)[:32])),
		Description: o.description, Website: o.website, Location: o.location, Visibility: o.visibility,
		RepoAdminChangeTeamAccess: o.adminTeamCheck, Username: u.login,
	}
}

func (v view) team(t *team) *wTeam {
	return &wTeam{
		ID: t.id, Name: t.name, Description: t.description, Organization: v.org(t.org),
		IncludesAllRepositories: t.includesAll, Permission: t.permission,
		Units: slices.Clone(t.units), UnitsMap: t.unitsMap, CanCreateOrgRepo: t.canCreateOrgRepo,
	}
}

func (c *call) orgs(us []*user) []*wOrg {
	out := make([]*wOrg, 0, len(us))
	for _, u := range us {
		out = append(out, c.v.org(u))
	}
	return out
}

func (c *call) teams(ts []*team) []*wTeam {
	out := make([]*wTeam, 0, len(ts))
	for _, t := range ts {
		out = append(out, c.v.team(t))
	}
	return out
}

// pathOrg finds {org}: a missing one is Forgejo's 404 GetOrgByName with the
// detail in errors.
func (c *call) pathOrg() *user {
	name := c.p["org"]
	u := c.st.user(name)
	if u == nil && c.redirectRenamed(name) { // a renamed organization (h_users_social.go)
		return nil
	}
	if u == nil || u.org == nil || !c.canSeeOrg(u) {
		c.failErrs(http.StatusNotFound, "GetOrgByName", "user redirect does not exist [name: "+strings.ToLower(name)+"]")
		return nil
	}
	return u
}

func (c *call) canSeeOrg(u *user) bool {
	return u.org.visibility != "private" || u.org.isMember(c.user) || (c.user != nil && c.user.isAdmin)
}

func (c *call) isOrgOwner(u *user) bool {
	if !u.org.isOwner(c.user) {
		c.fail(http.StatusForbidden, "Must be an organization owner")
		return false
	}
	return true
}

// isTeamOrgOwner is reqOrgOwnership on a /teams/{id} route: the team's
// organization must be the caller's. Forgejo 15 answers a member who is
// no owner 404 there, not the 403 of the /orgs/{org} routes (its check
// has a team and no organization in context).
func (c *call) isTeamOrgOwner(t *team) bool {
	if !t.org.org.isOwner(c.user) && !c.user.isAdmin {
		c.notFound()
		return false
	}
	return true
}

var orgNameRE = regexp.MustCompile(`^[\w][-.\w]*$`)

type orgBody struct {
	Username    *string `json:"username"`
	FullName    *string `json:"full_name"`
	Email       *string `json:"email"`
	Description *string `json:"description"`
	Website     *string `json:"website"`
	Location    *string `json:"location"`
	Visibility  *string `json:"visibility"`
	AdminCheck  *bool   `json:"repo_admin_change_team_access"`
}

func (c *call) applyOrg(u *user, b orgBody) bool {
	if b.Visibility != nil && *b.Visibility != "" {
		if !slices.Contains([]string{"public", "limited", "private"}, *b.Visibility) {
			c.fail(http.StatusUnprocessableEntity, "[Visibility]: In")
			return false
		}
		u.org.visibility = *b.Visibility
	}
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&u.fullName, b.FullName)
	set(&u.org.email, b.Email)
	set(&u.org.description, b.Description)
	set(&u.org.website, b.Website)
	set(&u.org.location, b.Location)
	if b.AdminCheck != nil {
		u.org.adminTeamCheck = *b.AdminCheck
	}
	return true
}

func hCreateOrg(c *call) {
	var b orgBody
	if !c.decode(&b) {
		return
	}
	name := ""
	if b.Username != nil {
		name = *b.Username
	}
	switch {
	case strings.TrimSpace(name) == "":
		c.fail(http.StatusUnprocessableEntity, "[UserName]: Required")
		return
	case !orgNameRE.MatchString(name) || len(name) > 40:
		c.fail(http.StatusUnprocessableEntity, "[UserName]: invalid username")
		return
	case c.st.user(name) != nil:
		c.fail(http.StatusUnprocessableEntity, "user already exists [name: "+name+"]")
		return
	}
	u := c.st.addOrg(name, c.user, c.now)
	if !c.applyOrg(u, b) {
		c.st.removeUser(u)
		return
	}
	c.json(http.StatusCreated, c.v.org(u))
}

func hGetOrg(c *call) {
	if u := c.pathOrg(); u != nil {
		c.json(http.StatusOK, c.v.org(u))
	}
}

func hEditOrg(c *call) {
	u := c.pathOrg()
	if u == nil || !c.isOrgOwner(u) {
		return
	}
	var b orgBody
	if !c.decode(&b) {
		return
	}
	b.Username = nil
	if !c.applyOrg(u, b) {
		return
	}
	c.json(http.StatusOK, c.v.org(u))
}

func hDeleteOrg(c *call) {
	u := c.pathOrg()
	if u == nil || !c.isOrgOwner(u) {
		return
	}
	for _, r := range slices.Clone(c.st.reposInOrder) {
		if r.owner == u {
			c.st.deleteRepo(r)
		}
	}
	c.st.removeUser(u)
	c.empty(http.StatusNoContent)
}

func (st *state) removeUser(u *user) {
	delete(st.users, strings.ToLower(u.login))
	st.usersInOrder = slices.DeleteFunc(st.usersInOrder, func(x *user) bool { return x == u })
}

func (st *state) allOrgs() []*user {
	var out []*user
	for _, u := range st.usersInOrder {
		if u.org != nil {
			out = append(out, u)
		}
	}
	return out
}

func hListAllOrgs(c *call) {
	var out []*user
	for _, u := range c.st.allOrgs() {
		if c.canSeeOrg(u) {
			out = append(out, u)
		}
	}
	c.json(http.StatusOK, c.orgs(paginate(c, out, pageLinked)))
}

func hListMyOrgs(c *call) { c.listOrgsOf(c.user) }

func hListUserOrgs(c *call) {
	if u := c.pathUser("username"); u != nil {
		c.listOrgsOf(u)
	}
}

func (c *call) listOrgsOf(u *user) {
	var out []*user
	for _, o := range c.st.allOrgs() {
		if o.org.isMember(u) && (c.user == u || o.org.visibility == "public" || o.org.isMember(c.user)) {
			out = append(out, o)
		}
	}
	c.json(http.StatusOK, c.orgs(paginate(c, out, pageLinked)))
}

func hUserOrgPermissions(c *call) {
	u := c.pathUser("username")
	if u == nil {
		return
	}
	o := c.pathOrg()
	if o == nil {
		return
	}
	owner := o.org.isOwner(u) && !u.isAdmin || slices.ContainsFunc(o.org.teams, func(t *team) bool {
		return t.permission == "owner" && slices.Contains(t.members, u)
	})
	best := accessNone
	create := owner
	for _, t := range o.org.teams {
		if slices.Contains(t.members, u) {
			best = max(best, accessOf(t.permission))
			create = create || t.canCreateOrgRepo
		}
	}
	if o.org.visibility == "public" {
		best = max(best, accessRead)
	}
	c.json(http.StatusOK, map[string]bool{
		"is_owner": owner, "is_admin": best >= accessAdmin, "can_write": best >= accessWrite,
		"can_read": best >= accessRead, "can_create_repository": create,
	})
}

func hCreateOrgRepo(c *call) {
	o := c.pathOrg()
	if o == nil {
		return
	}
	var body createRepoBody
	if !c.decode(&body) || !c.checkRepoName(body.Name) {
		return
	}
	can := o.org.isOwner(c.user) || slices.ContainsFunc(o.org.teams, func(t *team) bool {
		return t.canCreateOrgRepo && slices.Contains(t.members, c.user)
	})
	if !can {
		c.fail(http.StatusForbidden, "Given user is not allowed to create repository in organization.")
		return
	}
	c.createRepo(o, body)
}

func hListOrgRepos(c *call) {
	o := c.pathOrg()
	if o == nil {
		return
	}
	var rs []*repo
	for _, r := range c.st.reposInOrder {
		if r.owner == o && canRead(c.user, r) {
			rs = append(rs, r)
		}
	}
	c.json(http.StatusOK, c.repos(paginate(c, rs, pageLinked)))
}

// ---- members

func hListOrgMembers(public bool) func(c *call) {
	return func(c *call) {
		o := c.pathOrg()
		if o == nil {
			return
		}
		ms := o.org.members
		if public || !o.org.isMember(c.user) && !(c.user != nil && c.user.isAdmin) {
			ms = o.org.public
		}
		ms = slices.Clone(ms)
		slices.SortFunc(ms, func(a, b *user) int { return strings.Compare(strings.ToLower(a.login), strings.ToLower(b.login)) })
		c.json(http.StatusOK, c.users(paginate(c, ms, pageLinked)))
	}
}

func hIsOrgMember(c *call) {
	o := c.pathOrg()
	if o == nil {
		return
	}
	u := c.st.user(c.p["username"])
	if !o.org.isMember(c.user) && !c.user.isAdmin {
		// Outsiders are sent to the public membership check.
		c.header.Set("Location", c.s.URL+"/api/v1/orgs/"+url.PathEscape(o.login)+"/public_members/"+url.PathEscape(c.p["username"]))
		c.empty(http.StatusFound)
		return
	}
	if u != nil && o.org.isMember(u) {
		c.empty(http.StatusNoContent)
		return
	}
	c.failErrs(http.StatusNotFound, "The target couldn't be found.")
}

func hIsPublicMember(c *call) {
	o := c.pathOrg()
	if o == nil {
		return
	}
	u := c.st.user(c.p["username"])
	if u != nil && slices.Contains(o.org.public, u) {
		c.empty(http.StatusNoContent)
		return
	}
	c.failErrs(http.StatusNotFound, "The target couldn't be found.")
}

func hSetPublicMember(public bool) func(c *call) {
	return func(c *call) {
		o := c.pathOrg()
		if o == nil {
			return
		}
		if !c.orgMember(o.org) {
			return
		}
		u := c.pathUser("username")
		if u == nil {
			return
		}
		if u != c.user && !o.org.isOwner(c.user) {
			c.fail(http.StatusForbidden, "Cannot publicize another member")
			return
		}
		if !o.org.isMember(u) {
			c.fail(http.StatusNotFound, "The target couldn't be found.")
			return
		}
		o.org.public = slices.DeleteFunc(o.org.public, func(x *user) bool { return x == u })
		if public {
			o.org.public = append(o.org.public, u)
		}
		c.empty(http.StatusNoContent)
	}
}

func hRemoveOrgMember(c *call) {
	o := c.pathOrg()
	if o == nil || !c.isOrgOwner(o) {
		return
	}
	u := c.pathUser("username")
	if u == nil {
		return
	}
	o.org.removeMember(u)
	c.empty(http.StatusNoContent)
}

func (o *org) removeMember(u *user) {
	drop := func(x *user) bool { return x == u }
	o.members = slices.DeleteFunc(o.members, drop)
	o.public = slices.DeleteFunc(o.public, drop)
	for _, t := range o.teams {
		t.members = slices.DeleteFunc(t.members, drop)
	}
}

func (o *org) addMember(u *user) {
	if !slices.Contains(o.members, u) {
		o.members = append(o.members, u)
	}
}

// ---- teams

type teamBody struct {
	Name             *string           `json:"name"`
	Description      *string           `json:"description"`
	Permission       *string           `json:"permission"`
	IncludesAll      *bool             `json:"includes_all_repositories"`
	CanCreateOrgRepo *bool             `json:"can_create_org_repo"`
	Units            []string          `json:"units"`
	UnitsMap         map[string]string `json:"units_map"`
}

var teamNameRE = regexp.MustCompile(`^[-.\w]+$`)

func (c *call) applyTeam(t *team, b teamBody) bool {
	if b.Name != nil {
		if !teamNameRE.MatchString(*b.Name) || len(*b.Name) > 255 {
			c.fail(http.StatusUnprocessableEntity, "[Name]: AlphaDashDot")
			return false
		}
		if other := t.org.org.team(*b.Name); other != nil && other != t {
			c.fail(http.StatusUnprocessableEntity, "team already exists [org_id: "+strconv.FormatInt(t.org.id, 10)+", name: "+*b.Name+"]")
			return false
		}
		t.name = *b.Name
	}
	if b.Description != nil {
		t.description = *b.Description
	}
	if b.Permission != nil && t.permission != "owner" {
		if !slices.Contains([]string{"read", "write", "admin"}, *b.Permission) {
			c.fail(http.StatusUnprocessableEntity, "[Permission]: In")
			return false
		}
		t.permission = *b.Permission
	}
	if b.IncludesAll != nil {
		t.includesAll = *b.IncludesAll
	}
	if b.CanCreateOrgRepo != nil {
		t.canCreateOrgRepo = *b.CanCreateOrgRepo
	}
	switch {
	case len(b.UnitsMap) > 0:
		t.unitsMap = b.UnitsMap
		t.units = slices.Sorted(func(yield func(string) bool) {
			for k := range b.UnitsMap {
				if !yield(k) {
					return
				}
			}
		})
	case b.Units != nil:
		t.units = slices.Clone(b.Units)
		t.unitsMap = unitsMap(t.units, t.permission)
	}
	if t.permission == "admin" || t.permission == "owner" {
		if len(t.units) == 0 { // Forgejo gives an admin team every unit
			t.units = allUnits()
		}
		t.unitsMap = unitsMap(t.units, t.permission)
	}
	return true
}

func hCreateTeam(c *call) {
	o := c.pathOrg()
	if o == nil || !c.isOrgOwner(o) {
		return
	}
	var b teamBody
	if !c.decode(&b) {
		return
	}
	if b.Name == nil || strings.TrimSpace(*b.Name) == "" {
		c.fail(http.StatusUnprocessableEntity, "[Name]: Required")
		return
	}
	if !teamNameRE.MatchString(*b.Name) || len(*b.Name) > 255 {
		c.fail(http.StatusUnprocessableEntity, "[Name]: AlphaDashDot")
		return
	}
	// Below admin, Forgejo needs the units (units or units_map) and refuses
	// a team without them with a 500, before it looks for a team of the same
	// name.
	if (b.Permission == nil || *b.Permission != "admin") && len(b.UnitsMap) == 0 && len(b.Units) == 0 {
		c.internalError("units permission should not be empty")
		return
	}
	t := &team{org: o, permission: "read", units: []string{}, unitsMap: map[string]string{}}
	if b.Permission == nil && len(b.UnitsMap) == 0 {
		b.Permission = new("read")
	}
	if len(b.UnitsMap) > 0 && b.Permission == nil {
		best := "read"
		for _, p := range b.UnitsMap {
			if accessOf(p) > accessOf(best) && p != "owner" {
				best = p
			}
		}
		b.Permission = &best
	}
	if !c.applyTeam(t, b) {
		return
	}
	t.id = c.st.id("team")
	o.org.teams = append(o.org.teams, t)
	c.json(http.StatusCreated, c.v.team(t))
}

func hListOrgTeams(c *call) {
	o := c.pathOrg()
	if o == nil {
		return
	}
	c.json(http.StatusOK, c.teams(paginate(c, o.org.teams, pageLinked)))
}

func hSearchTeams(c *call) {
	o := c.pathOrg()
	if o == nil || !c.orgMember(o.org) {
		return
	}
	q := strings.ToLower(c.q.Get("q"))
	var ts []*team
	for _, t := range o.org.teams {
		if strings.Contains(strings.ToLower(t.name), q) || c.q.Get("include_desc") != "false" && q != "" && strings.Contains(strings.ToLower(t.description), q) {
			ts = append(ts, t)
		}
	}
	c.json(http.StatusOK, map[string]any{"data": c.teams(paginate(c, ts, pageLinked)), "ok": true})
}

func hListMyTeams(c *call) {
	var ts []*team
	for _, o := range c.st.allOrgs() {
		for _, t := range o.org.teams {
			if slices.Contains(t.members, c.user) {
				ts = append(ts, t)
			}
		}
	}
	c.json(http.StatusOK, c.teams(paginate(c, ts, pageLinked)))
}

// pathTeam finds {id}; only members of its organization see it.
func (c *call) pathTeam() *team {
	id, _ := c.pathInt("id")
	t := c.st.teamByID(id)
	if t == nil || !(t.org.org.isMember(c.user) || c.user.isAdmin) {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return nil
	}
	return t
}

func hGetTeam(c *call) {
	if t := c.pathTeam(); t != nil {
		c.json(http.StatusOK, c.v.team(t))
	}
}

func hEditTeam(c *call) {
	t := c.pathTeam()
	if t == nil || !c.isTeamOrgOwner(t) {
		return
	}
	var b teamBody
	if !c.decode(&b) {
		return
	}
	if t.permission == "owner" {
		b.Name, b.Permission = nil, nil // the Owners team keeps its name and rights
	}
	cp := *t
	if !c.applyTeam(&cp, b) {
		return
	}
	*t = cp
	c.json(http.StatusOK, c.v.team(t))
}

func hDeleteTeam(c *call) {
	t := c.pathTeam()
	if t == nil || !c.isTeamOrgOwner(t) {
		return
	}
	if t.permission == "owner" {
		c.fail(http.StatusUnprocessableEntity, "the owner team cannot be deleted")
		return
	}
	o := t.org.org
	o.teams = slices.DeleteFunc(o.teams, func(x *team) bool { return x == t })
	// Members the team was the only way in for leave the organization.
	for _, u := range t.members {
		if !slices.ContainsFunc(o.teams, func(x *team) bool { return slices.Contains(x.members, u) }) {
			o.removeMember(u)
		}
	}
	c.empty(http.StatusNoContent)
}

func hTeamMembers(c *call) {
	t := c.pathTeam()
	if t == nil {
		return
	}
	ms := slices.Clone(t.members)
	slices.SortFunc(ms, func(a, b *user) int { return cmp.Compare(strings.ToLower(a.login), strings.ToLower(b.login)) })
	c.json(http.StatusOK, c.users(paginate(c, ms, pageLinked)))
}

func hTeamMember(c *call) {
	t := c.pathTeam()
	if t == nil {
		return
	}
	u := c.pathUser("username")
	if u == nil {
		return
	}
	if !slices.Contains(t.members, u) {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return
	}
	c.json(http.StatusOK, c.v.user(u))
}

func hSetTeamMember(add bool) func(c *call) {
	return func(c *call) {
		t := c.pathTeam()
		if t == nil || !c.isTeamOrgOwner(t) {
			return
		}
		u := c.pathUser("username")
		if u == nil {
			return
		}
		if u.org != nil {
			c.fail(http.StatusUnprocessableEntity, "an organization cannot be a team member")
			return
		}
		has := slices.Contains(t.members, u)
		switch {
		case add && !has:
			t.members = append(t.members, u)
			t.org.org.addMember(u)
		case !add && has:
			if t.permission == "owner" && len(t.members) == 1 {
				c.fail(http.StatusUnprocessableEntity, "the last owner cannot be removed")
				return
			}
			t.members = slices.DeleteFunc(t.members, func(x *user) bool { return x == u })
		}
		c.empty(http.StatusNoContent)
	}
}

func (st *state) teamRepos(t *team) []*repo {
	if !t.includesAll {
		return t.repos
	}
	var rs []*repo
	for _, r := range st.reposInOrder {
		if r.owner == t.org {
			rs = append(rs, r)
		}
	}
	return rs
}

func hTeamRepos(c *call) {
	if t := c.pathTeam(); t != nil {
		c.json(http.StatusOK, c.repos(paginate(c, c.st.teamRepos(t), pageLinked)))
	}
}

// teamPathRepo finds /teams/{id}/repos/{org}/{repo}.
func (c *call) teamPathRepo(t *team) *repo {
	r := c.st.repo(c.p["org"], c.p["repo"])
	if r == nil || r.owner != t.org {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return nil
	}
	return r
}

func hTeamRepo(c *call) {
	t := c.pathTeam()
	if t == nil {
		return
	}
	r := c.teamPathRepo(t)
	if r == nil {
		return
	}
	if !slices.Contains(c.st.teamRepos(t), r) {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return
	}
	c.json(http.StatusOK, c.v.repo(r, 0))
}

func hSetTeamRepo(add bool) func(c *call) {
	return func(c *call) {
		t := c.pathTeam()
		if t == nil || !c.isOrgOwner(t.org) {
			return
		}
		r := c.teamPathRepo(t)
		if r == nil {
			return
		}
		t.repos = slices.DeleteFunc(t.repos, func(x *repo) bool { return x == r })
		if add {
			t.repos = append(t.repos, r)
		}
		c.empty(http.StatusNoContent)
	}
}

// ---- /repos/{owner}/{repo}/teams

func hRepoTeams(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if r.owner.org == nil {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return
	}
	var ts []*team
	for _, t := range r.owner.org.teams {
		if slices.Contains(c.st.teamRepos(t), r) {
			ts = append(ts, t)
		}
	}
	c.json(http.StatusOK, c.teams(ts))
}

func (c *call) repoTeam(r *repo) *team {
	if r.owner.org == nil {
		c.fail(http.StatusMethodNotAllowed, "repo is not owned by an organization")
		return nil
	}
	t := r.owner.org.team(c.p["team"])
	if t == nil {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
	}
	return t
}

func hRepoTeam(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	t := c.repoTeam(r)
	if t == nil {
		return
	}
	if !slices.Contains(c.st.teamRepos(t), r) {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return
	}
	c.json(http.StatusOK, c.v.team(t))
}

func hSetRepoTeam(add bool) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil || !c.canAdminRepo(r) {
			return
		}
		t := c.repoTeam(r)
		if t == nil {
			return
		}
		has := slices.Contains(c.st.teamRepos(t), r)
		switch {
		case add && has:
			c.fail(http.StatusUnprocessableEntity, "team '"+t.name+"' is already added to repo")
			return
		case !add && !has:
			c.fail(http.StatusUnprocessableEntity, "team '"+t.name+"' was not added to repo")
			return
		}
		t.repos = slices.DeleteFunc(t.repos, func(x *repo) bool { return x == r })
		if add {
			t.repos = append(t.repos, r)
		}
		c.empty(http.StatusNoContent)
	}
}

// ---- organization labels

func hListOrgLabels(c *call) {
	o := c.pathOrg()
	if o == nil {
		return
	}
	ls := slices.Clone(o.org.labels)
	slices.SortFunc(ls, func(a, b *label) int {
		return cmp.Or(strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)), cmp.Compare(a.id, b.id))
	})
	c.json(http.StatusOK, c.v.labels(paginate(c, ls, pageTotalOnly)))
}

func (c *call) orgLabel(o *user) *label {
	id, _ := c.pathInt("id")
	for _, l := range o.org.labels {
		if l.id == id {
			return l
		}
	}
	c.notFound()
	return nil
}

func hGetOrgLabel(c *call) {
	if o := c.pathOrg(); o != nil {
		if l := c.orgLabel(o); l != nil {
			c.json(http.StatusOK, c.v.label(l))
		}
	}
}

func hCreateOrgLabel(c *call) {
	o := c.pathOrg()
	if o == nil || !c.isOrgOwner(o) {
		return
	}
	var body labelBody
	if !c.decode(&body) {
		return
	}
	switch {
	case body.Name == nil || strings.TrimSpace(*body.Name) == "":
		c.fail(http.StatusUnprocessableEntity, "[Name]: Required")
		return
	case body.Color == nil || *body.Color == "":
		c.fail(http.StatusUnprocessableEntity, "[Color]: Required")
		return
	}
	l := &label{id: c.st.id("label"), org: o}
	if !c.applyLabel(l, body) {
		return
	}
	o.org.labels = append(o.org.labels, l)
	c.json(http.StatusCreated, c.v.label(l))
}

func hEditOrgLabel(c *call) {
	o := c.pathOrg()
	if o == nil || !c.isOrgOwner(o) {
		return
	}
	l := c.orgLabel(o)
	if l == nil {
		return
	}
	c.editLabel(l)
}

func hDeleteOrgLabel(c *call) {
	o := c.pathOrg()
	if o == nil || !c.isOrgOwner(o) {
		return
	}
	// As for a repository's labels: a missing one is 204 too.
	id, _ := c.pathInt("id")
	i := slices.IndexFunc(o.org.labels, func(x *label) bool { return x.id == id })
	if i < 0 {
		c.empty(http.StatusNoContent)
		return
	}
	l := o.org.labels[i]
	o.org.labels = slices.DeleteFunc(o.org.labels, func(x *label) bool { return x == l })
	for _, r := range c.st.reposInOrder {
		for _, is := range r.issues {
			if is != nil {
				is.labels = slices.DeleteFunc(is.labels, func(x *label) bool { return x == l })
			}
		}
	}
	c.empty(http.StatusNoContent)
}

// orgMember is Forgejo's reqOrgMembership: the caller must be a member of
// the organization or a site admin, or it answers 403 itself.
func (c *call) orgMember(o *org) bool {
	if o.isMember(c.user) || c.user != nil && c.user.isAdmin {
		return true
	}
	c.fail(http.StatusForbidden, "Must be an organization member")
	return false
}
