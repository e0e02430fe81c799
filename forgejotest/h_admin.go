package forgejotest

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// The site administrator's routes (/admin/…). Every one is wrapped in
// adminOnly: anyone else gets Forgejo's 403 "user should be the site admin".

// individuals lists the accounts that are users, not organizations.
func (st *state) individuals() []*user {
	var out []*user
	for _, u := range st.usersInOrder {
		if u.org == nil {
			out = append(out, u)
		}
	}
	return out
}

// sortUsers orders users by Forgejo's ?sort= words; anything else
// (Forgejo accepts any word) is alphabetical.
func sortUsers(us []*user, sort string) {
	switch sort {
	case "newest", "recentupdate":
		slices.SortStableFunc(us, func(a, b *user) int { return cmp.Compare(b.id, a.id) })
	case "oldest", "leastupdate":
		slices.SortStableFunc(us, func(a, b *user) int { return cmp.Compare(a.id, b.id) })
	case "reversealphabetically":
		slices.SortStableFunc(us, func(a, b *user) int { return strings.Compare(strings.ToLower(b.login), strings.ToLower(a.login)) })
	default:
		slices.SortStableFunc(us, func(a, b *user) int { return strings.Compare(strings.ToLower(a.login), strings.ToLower(b.login)) })
	}
}

// hAdminListUsers is adminSearchUsers: individuals, filtered by login_name
// and source_id (every account of the fake is local: source 0).
func hAdminListUsers(c *call) {
	loginName := strings.TrimSpace(c.q.Get("login_name"))
	source := c.q.Get("source_id")
	var out []*user
	for _, u := range c.st.individuals() {
		if loginName != "" {
			p := c.st.accounts.profiles[u]
			if p == nil || !strings.EqualFold(p.loginName, loginName) {
				continue
			}
		}
		if source != "" && source != "0" {
			continue
		}
		out = append(out, u)
	}
	sortUsers(out, c.q.Get("sort"))
	c.json(http.StatusOK, c.users(paginate(c, out, pageLinked)))
}

func hAdminListOrgs(c *call) {
	orgs := c.st.allOrgs()
	sortUsers(orgs, "")
	c.json(http.StatusOK, c.orgs(paginate(c, orgs, pageLinked)))
}

// minPasswordLength is Forgejo's [security] MIN_PASSWORD_LENGTH.
const minPasswordLength = 8

// checkUsername is the binding of a form's username field.
func (c *call) checkUsername(field, name string) bool {
	switch {
	case strings.TrimSpace(name) == "":
		c.fail(http.StatusUnprocessableEntity, "["+field+"]: Required")
	case !usernameRE.MatchString(name) || usernameBadRunsRE.MatchString(name):
		c.fail(http.StatusUnprocessableEntity, "["+field+"]: invalid username")
	case len(name) > 40:
		c.fail(http.StatusUnprocessableEntity, "["+field+"]: MaxSize")
	default:
		return true
	}
	return false
}

func hAdminCreateUser(c *call) {
	var b struct {
		Username           string `json:"username"`
		Email              string `json:"email"`
		FullName           string `json:"full_name"`
		LoginName          string `json:"login_name"`
		Password           string `json:"password"`
		MustChangePassword *bool  `json:"must_change_password"`
		Restricted         *bool  `json:"restricted"`
		SourceID           int64  `json:"source_id"`
		Visibility         string `json:"visibility"`
		Created            string `json:"created_at"`
	}
	if !c.decode(&b) || !c.checkUsername("Username", b.Username) {
		return
	}
	switch {
	case strings.TrimSpace(b.Email) == "":
		c.fail(http.StatusUnprocessableEntity, "[Email]: Required")
		return
	case !validEmail(b.Email):
		c.fail(http.StatusUnprocessableEntity, "[Email]: Email")
		return
	case b.SourceID != 0:
		// The fake has no authentication sources.
		c.fail(http.StatusUnprocessableEntity, fmt.Sprintf("login source does not exist [id: %d]", b.SourceID))
		return
	case len(b.Password) < minPasswordLength:
		c.fail(http.StatusBadRequest, "PasswordIsRequired")
		return
	}
	switch c.st.nameProblem(b.Username, nil) {
	case "reserved":
		c.fail(http.StatusUnprocessableEntity, "name is reserved [name: "+b.Username+"]")
		return
	case "pattern":
		c.fail(http.StatusUnprocessableEntity, "name pattern is not allowed [pattern: "+b.Username+"]")
		return
	case "taken":
		c.fail(http.StatusUnprocessableEntity, "user already exists [name: "+b.Username+"]")
		return
	}
	if c.st.emailOwner(b.Email) != nil {
		c.fail(http.StatusUnprocessableEntity, "e-mail already in use [email: "+b.Email+"]")
		return
	}
	created := c.now
	if t, err := time.Parse(time.RFC3339, b.Created); err == nil {
		created = t
	}
	u := c.st.addUser(b.Username, created)
	u.fullName = b.FullName
	p := c.st.accounts.profile(u)
	p.email, p.password, p.loginName, p.mustChange = b.Email, b.Password, b.LoginName, true
	if b.MustChangePassword != nil {
		p.mustChange = *b.MustChangePassword
	}
	if b.Restricted != nil {
		p.restricted = *b.Restricted
	}
	if slices.Contains([]string{"public", "limited", "private"}, b.Visibility) {
		p.visibility = b.Visibility
	}
	c.json(http.StatusCreated, c.v.user(u))
}

// lastAdmin reports whether u is the only site administrator.
func (st *state) lastAdmin(u *user) bool {
	if !u.isAdmin {
		return false
	}
	for _, x := range st.individuals() {
		if x != u && x.isAdmin {
			return false
		}
	}
	return true
}

func hAdminEditUser(c *call) {
	u := c.pathUser("username")
	if u == nil {
		return
	}
	var b struct {
		SourceID           *int64  `json:"source_id"`
		LoginName          *string `json:"login_name"`
		Email              *string `json:"email"`
		FullName           *string `json:"full_name"`
		Password           *string `json:"password"`
		MustChangePassword *bool   `json:"must_change_password"`
		Website            *string `json:"website"`
		Location           *string `json:"location"`
		Description        *string `json:"description"`
		Pronouns           *string `json:"pronouns"`
		Active             *bool   `json:"active"`
		Admin              *bool   `json:"admin"`
		ProhibitLogin      *bool   `json:"prohibit_login"`
		Restricted         *bool   `json:"restricted"`
		Visibility         *string `json:"visibility"`
		HideEmail          *bool   `json:"hide_email"`
	}
	if !c.decode(&b) {
		return
	}
	if (b.SourceID != nil) != (b.LoginName != nil) {
		c.fail(http.StatusUnprocessableEntity, "source_id and login_name must be specified together")
		return
	}
	if b.Password != nil && *b.Password != "" && len(*b.Password) < minPasswordLength {
		c.fail(http.StatusBadRequest, fmt.Sprintf("password must be at least %d characters", minPasswordLength))
		return
	}
	if b.Email != nil {
		switch owner := c.st.emailOwner(*b.Email); {
		case !validEmail(*b.Email):
			c.fail(http.StatusBadRequest, "e-mail invalid [email: "+*b.Email+"]")
			return
		case owner != nil && owner != u:
			c.fail(http.StatusBadRequest, "e-mail already in use [email: "+*b.Email+"]")
			return
		}
	}
	if b.Admin != nil && !*b.Admin && c.st.lastAdmin(u) {
		c.fail(http.StatusBadRequest, fmt.Sprintf("can not delete the last admin user [uid: %d]", u.id))
		return
	}
	p := c.st.accounts.profile(u)
	if b.Email != nil && !strings.EqualFold(*b.Email, c.st.accounts.primaryEmail(u)) {
		// The new address becomes primary; the old one stays, secondary.
		old := c.st.accounts.primaryEmail(u)
		p.extra = slices.DeleteFunc(p.extra, func(x string) bool { return strings.EqualFold(x, *b.Email) })
		p.extra = append([]string{old}, p.extra...)
		p.email = *b.Email
	}
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	setB := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&p.loginName, b.LoginName)
	set(&u.fullName, b.FullName)
	if b.Password != nil && *b.Password != "" {
		p.password = *b.Password
	}
	setB(&p.mustChange, b.MustChangePassword)
	set(&p.website, b.Website)
	set(&p.location, b.Location)
	set(&p.description, b.Description)
	set(&p.pronouns, b.Pronouns)
	if b.Active != nil {
		p.inactive = !*b.Active
	}
	setB(&u.isAdmin, b.Admin)
	setB(&p.prohibitLogin, b.ProhibitLogin)
	setB(&p.restricted, b.Restricted)
	setB(&p.hideEmail, b.HideEmail)
	if b.Visibility != nil && slices.Contains([]string{"public", "limited", "private"}, *b.Visibility) {
		p.visibility = *b.Visibility
	}
	c.json(http.StatusOK, c.v.user(u))
}

// hAdminDeleteUser deletes an individual: not an organization, not the
// caller, not the last administrator, and (unless ?purge=true, which
// deletes them, and the issues they opened elsewhere) owning no repositories
// and in no organization.
func hAdminDeleteUser(c *call) {
	u := c.pathUser("username")
	if u == nil {
		return
	}
	purge := c.q.Get("purge") == "true" || c.q.Get("purge") == "1"
	var orgs []*user
	for _, o := range c.st.allOrgs() {
		if o.org.isMember(u) {
			orgs = append(orgs, o)
		}
	}
	hasRepos := slices.ContainsFunc(c.st.reposInOrder, func(r *repo) bool { return r.owner == u })
	switch {
	case u.org != nil:
		c.fail(http.StatusUnprocessableEntity, u.login+" is an organization not a user")
		return
	case u == c.user:
		c.fail(http.StatusUnprocessableEntity, "you cannot delete yourself")
		return
	case !purge && hasRepos:
		c.fail(http.StatusUnprocessableEntity, fmt.Sprintf("user still has ownership of repositories [uid: %d]", u.id))
		return
	case !purge && c.st.accounts.ownsPackages(u):
		c.fail(http.StatusUnprocessableEntity, fmt.Sprintf("user still has ownership of packages [uid: %d]", u.id))
		return
	case !purge && len(orgs) > 0:
		c.fail(http.StatusUnprocessableEntity, fmt.Sprintf("user still has membership of organizations [uid: %d]", u.id))
		return
	case c.st.lastAdmin(u):
		c.fail(http.StatusUnprocessableEntity, fmt.Sprintf("can not delete the last admin user [uid: %d]", u.id))
		return
	}
	if purge {
		// Forgejo 15 purges what the user opened in other people's
		// repositories too: their issue answers 404 afterwards. Gitea 1.27
		// keeps it, posted by the Ghost user, as both do for a deletion
		// without purge.
		for _, r := range c.st.reposInOrder {
			for _, is := range r.issues {
				if is != nil && is.poster == u {
					c.st.deleteIssue(is)
				}
			}
		}
	}
	c.st.deleteAccount(u)
	c.empty(http.StatusNoContent)
}

// deleteAccount removes an individual and everything that is theirs or
// points at them.
func (st *state) deleteAccount(u *user) {
	for _, r := range slices.Clone(st.reposInOrder) {
		if r.owner == u {
			st.deleteRepo(r)
		}
	}
	for _, o := range st.allOrgs() {
		o.org.removeMember(u)
	}
	for tok, owner := range st.tokens {
		if owner == u {
			delete(st.tokens, tok)
		}
	}
	for _, x := range st.usersInOrder {
		x.following = slices.DeleteFunc(x.following, func(y *user) bool { return y == u })
	}
	for _, r := range st.reposInOrder {
		r.stargazers = slices.DeleteFunc(r.stargazers, func(y *user) bool { return y == u })
		r.collaborators = slices.DeleteFunc(r.collaborators, func(x *collaborator) bool { return x.u == u })
	}
	a := &st.accounts
	a.keys = slices.DeleteFunc(a.keys, func(k *publicKey) bool { return k.owner == u })
	a.gpgKeys = slices.DeleteFunc(a.gpgKeys, func(k *gpgKey) bool { return k.owner == u })
	a.tokens = slices.DeleteFunc(a.tokens, func(t *accessToken) bool { return t.owner == u })
	a.apps = slices.DeleteFunc(a.apps, func(x *oauthApp) bool { return x.owner == u })
	a.packages = slices.DeleteFunc(a.packages, func(p *pkg) bool { return p.owner == u })
	for _, g := range a.quotaGroups {
		g.users = slices.DeleteFunc(g.users, func(x *user) bool { return x == u })
	}
	a.blocks = slices.DeleteFunc(a.blocks, func(b *blockRec) bool { return b.blocker == u || b.blockee == u })
	delete(a.profiles, u)
	if a.deleted == nil {
		a.deleted = map[*user]bool{}
	}
	a.deleted[u] = true
	for name, x := range a.redirects {
		if x == u {
			delete(a.redirects, name)
		}
	}
	st.notifications = slices.DeleteFunc(st.notifications, func(n *notification) bool { return n.user == u })
	st.removeUser(u)
}

// hAdminRenameUser renames an individual. Forgejo words its refusals with
// the site's translations (Gitea 1.27 sends the errors themselves).
func hAdminRenameUser(c *call) {
	u := c.pathUser("username")
	if u == nil {
		return
	}
	var b struct {
		NewName string `json:"new_username"`
	}
	if !c.decode(&b) {
		return
	}
	if strings.TrimSpace(b.NewName) == "" {
		c.fail(http.StatusUnprocessableEntity, "[NewName]: Required")
		return
	}
	if u.org != nil {
		c.fail(http.StatusUnprocessableEntity, u.login+" is an organization not a user")
		return
	}
	if b.NewName == u.login {
		c.empty(http.StatusNoContent)
		return
	}
	switch c.st.nameProblem(b.NewName, u) {
	case "taken":
		c.fail(http.StatusUnprocessableEntity, "The username is already taken.")
		return
	case "reserved":
		c.fail(http.StatusUnprocessableEntity, `The username "`+b.NewName+`" is reserved.`)
		return
	case "pattern":
		c.fail(http.StatusUnprocessableEntity, `The pattern "`+b.NewName+`" is not allowed in a username.`)
		return
	case "chars":
		c.fail(http.StatusUnprocessableEntity, `The username "`+b.NewName+`" contains invalid characters.`)
		return
	}
	c.st.renameUser(u, b.NewName)
	c.empty(http.StatusNoContent)
}

// hAdminCreateOrg creates an organization owned by {username}, as orgCreate
// does for the caller.
func hAdminCreateOrg(c *call) {
	u := c.pathUser("username")
	if u == nil {
		return
	}
	if u.org != nil {
		c.fail(http.StatusUnprocessableEntity, u.login+" is an organization not a user")
		return
	}
	admin := c.user
	c.user = u // hCreateOrg makes the caller the owner
	defer func() { c.user = admin }()
	hCreateOrg(c)
}

// hAdminCreateRepo creates a repository owned by {username} (a user or an
// organization).
func hAdminCreateRepo(c *call) {
	u := c.pathUser("username")
	if u == nil {
		return
	}
	var b createRepoBody
	if !c.decode(&b) || !c.checkRepoName(b.Name) {
		return
	}
	c.createRepo(u, b)
}

// hAdminEmails lists every individual's addresses (or, search, those whose
// address, login or full name contains q), ordered by address.
func hAdminEmails(search bool) func(c *call) {
	return func(c *call) {
		q := ""
		if search {
			q = strings.ToLower(strings.TrimSpace(c.q.Get("q")))
		}
		var out []*wEmail
		for _, u := range c.st.individuals() {
			for _, e := range c.st.emailsOf(u, true) {
				if q == "" || strings.Contains(strings.ToLower(e.Email), q) || strings.Contains(strings.ToLower(u.login), q) ||
					strings.Contains(strings.ToLower(u.fullName), q) {
					out = append(out, e)
				}
			}
		}
		slices.SortStableFunc(out, func(a, b *wEmail) int { return strings.Compare(strings.ToLower(a.Email), strings.ToLower(b.Email)) })
		c.json(http.StatusOK, paginate(c, out, pageLinked))
	}
}

// ---- cron tasks

type cronRun struct {
	name     string
	schedule string
	every    time.Duration // 0 for @midnight
	prev     time.Time
	runs     int64
}

type wCron struct {
	Name      string `json:"name"`
	Schedule  string `json:"schedule"`
	Next      string `json:"next"`
	Prev      string `json:"prev"`
	ExecTimes int64  `json:"exec_times"`
}

// defaultCrons are the tasks a default Forgejo schedules.
var defaultCrons = []struct {
	name, schedule string
	every          time.Duration
}{
	{"archive_cleanup", "@midnight", 0},
	{"cancel_abandoned_jobs", "@every 6h", 6 * time.Hour},
	{"check_repo_stats", "@midnight", 0},
	{"cleanup_actions", "@midnight", 0},
	{"cleanup_hook_task_table", "@midnight", 0},
	{"cleanup_packages", "@midnight", 0},
	{"deleted_branches_cleanup", "@midnight", 0},
	{"repo_health_check", "@midnight", 0},
	{"stop_endless_tasks", "@every 30m", 30 * time.Minute},
	{"stop_zombie_tasks", "@every 5m", 5 * time.Minute},
	{"sync_external_users", "@midnight", 0},
	{"update_mirrors", "@every 10m", 10 * time.Minute},
}

func (a *accountsState) cronTasks() []*cronRun {
	if a.crons == nil {
		a.crons = map[string]*cronRun{}
		for _, d := range defaultCrons {
			a.crons[d.name] = &cronRun{name: d.name, schedule: d.schedule, every: d.every}
		}
	}
	out := make([]*cronRun, 0, len(a.crons))
	for _, t := range a.crons {
		out = append(out, t)
	}
	slices.SortFunc(out, func(x, y *cronRun) int { return strings.Compare(x.name, y.name) })
	return out
}

func (t *cronRun) next(now time.Time) time.Time {
	if t.every == 0 {
		return now.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
	}
	return now.UTC().Truncate(t.every).Add(t.every)
}

func hCronList(c *call) {
	out := []*wCron{}
	for _, t := range paginate(c, c.st.accounts.cronTasks(), pageTotalOnly) {
		out = append(out, &wCron{Name: t.name, Schedule: t.schedule, Next: ts(t.next(c.now)), Prev: ts(t.prev), ExecTimes: t.runs})
	}
	c.json(http.StatusOK, out)
}

// hCronRun runs a task now: it counts one more execution.
func hCronRun(c *call) {
	c.st.accounts.cronTasks()
	t := c.st.accounts.crons[c.p["task"]]
	if t == nil {
		c.notFound()
		return
	}
	t.runs++
	t.prev = c.now
	c.empty(http.StatusNoContent)
}

// hUnadopted lists repository directories without a repository: the fake
// has no disk, so there are none.
func hUnadopted(c *call) {
	c.json(http.StatusOK, paginate(c, []string{}, pageTotalOnly))
}
