package forgejotest

import (
	"cmp"
	"crypto/rand"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Accounts and administration: what bots and automation do to accounts.
// SSH keys, e-mail addresses, access tokens, settings, OAuth2 applications,
// blocking and avatars live here (h_users_*.go); the site administrator's
// routes in h_admin.go.

// accountsState is this area's part of the model, guarded by Server.mu. The
// zero value is ready: every map is made on first use. Per-user data is kept
// here, keyed by *user, rather than in the shared user struct.
type accountsState struct {
	profiles map[*user]*profile
	keys     []*publicKey   // every user's SSH keys, in creation order
	gpgKeys  []*gpgKey      // every user's GPG keys (h_users_gpg.go)
	tokens   []*accessToken // tokens created through the API, in creation order
	apps     []*oauthApp    // OAuth2 applications, in creation order
	blocks   []*blockRec    // in creation order
	sysHooks []*hook        // the site's system hooks
	crons    map[string]*cronRun
	packages []*pkg // seeded by Server.AddPackage (h_packages.go)
	// quotas (h_admin_quota.go)
	quotaRules  []*quotaRule
	quotaGroups []*quotaGroup
	// deleted are the accounts an administrator deleted: what they left
	// behind (issues, comments) shows the Ghost user.
	deleted map[*user]bool
	// redirects are the names renamed accounts had, lower-case.
	redirects map[string]*user
}

// profile is what an account has beyond the shared user struct.
type profile struct {
	email         string // primary address; "" is the fake's default, login@example.com
	extra         []string
	password      string // "" for accounts without one (those of AddUser)
	loginName     string
	mustChange    bool
	prohibitLogin bool
	restricted    bool
	inactive      bool
	visibility    string // "" is public
	website       string
	location      string
	description   string
	pronouns      string
	language      string
	theme         string
	diffStyle     string
	hideEmail     bool
	hideActivity  bool
	hidePronouns  bool
	unitHints     bool   // enable_repo_unit_hints: false for a new user on Forgejo 15, whose CreateUser leaves it unset
	avatar        string // hash of an uploaded avatar, "" for the default
}

// profile returns u's profile, creating it on first use.
func (a *accountsState) profile(u *user) *profile {
	if a.profiles == nil {
		a.profiles = map[*user]*profile{}
	}
	p := a.profiles[u]
	if p == nil {
		p = &profile{}
		a.profiles[u] = p
	}
	return p
}

// primaryEmail is u's primary address.
func (a *accountsState) primaryEmail(u *user) string {
	if p := a.profiles[u]; p != nil && p.email != "" {
		return p.email
	}
	return u.login + "@example.com"
}

// emailOwner finds who uses an address, as primary or extra, or nil.
func (st *state) emailOwner(addr string) *user {
	for _, u := range st.usersInOrder {
		if u.org != nil {
			continue
		}
		if strings.EqualFold(st.accounts.primaryEmail(u), addr) {
			return u
		}
		if p := st.accounts.profiles[u]; p != nil && slices.ContainsFunc(p.extra, func(e string) bool { return strings.EqualFold(e, addr) }) {
			return u
		}
	}
	return nil
}

// checkPassword finds the user whose login (or e-mail address) and password
// these are, for Basic authentication.
func (st *state) checkPassword(login, password string) *user {
	u := st.user(login)
	if u == nil {
		u = st.emailOwner(login)
	}
	if u == nil || password == "" {
		return nil
	}
	if p := st.accounts.profiles[u]; p != nil && p.password != "" && p.password == password {
		return u
	}
	return nil
}

// signInRefusal is what Forgejo's verifyAuthWithOptions answers (a 403
// with a bare {"message"}, on every route) to a signed-in account that may
// not use the API: deactivated or prohibited from signing in, or due to
// change its password (the default for an account an administrator
// creates). "" lets the request through.
func (st *state) signInRefusal(u *user, root string) string {
	p := st.accounts.profiles[u]
	switch {
	case p == nil:
		return ""
	case p.inactive || p.prohibitLogin:
		return "This account is prohibited from signing in, please contact your site administrator."
	case p.mustChange:
		// AppURL ends in "/", hence the double slash Forgejo sends.
		return "You must change your password. Change it at: " + root + "//user/change_password"
	}
	return ""
}

// decorate completes a rendered user with the profile: what everyone sees
// (location, website, description, pronouns, visibility, avatar) and what the
// user and site administrators see (address, flags), as convert.ToUser does
// for an "authed" viewer.
func (a *accountsState) decorate(viewer, u *user, w *wUser) {
	if a.deleted[u] {
		root := avatarBase(w.HTMLURL)
		*w = wUser{ID: -1, Login: "Ghost", AvatarURL: root + "assets/img/avatar_default.png", HTMLURL: root + "Ghost",
			LastLogin: epochTime, Created: epochTime, Visibility: "public", Username: "Ghost"}
		return
	}
	p := a.profiles[u]
	if p != nil {
		w.Location, w.Website, w.Description = p.location, p.website, p.description
		if !p.hidePronouns {
			w.Pronouns = p.pronouns
		}
		if p.visibility != "" {
			w.Visibility = p.visibility
		}
		if p.avatar != "" {
			w.AvatarURL = avatarBase(w.AvatarURL) + p.avatar
		}
	}
	if viewer == nil || (viewer != u && !viewer.isAdmin) || u.org != nil {
		return
	}
	w.Email = a.primaryEmail(u)
	w.IsAdmin = u.isAdmin
	w.Active = true
	if p != nil {
		w.Active = !p.inactive
		w.LoginName, w.ProhibitLogin, w.Restricted, w.Language = p.loginName, p.prohibitLogin, p.restricted, p.language
	}
}

// orgAvatar is the avatar URL of an organization, base its default.
func (a *accountsState) orgAvatar(u *user, base string) string {
	if p := a.profiles[u]; p != nil && p.avatar != "" {
		return avatarBase(base) + p.avatar
	}
	return base
}

func avatarBase(url string) string { return url[:strings.LastIndex(url, "/")+1] }

// ---- shared checks

// siteAdmin answers Forgejo's 403 unless the caller is a site administrator.
func (c *call) siteAdmin() bool {
	if c.user == nil || !c.user.isAdmin {
		c.fail(http.StatusForbidden, "user should be the site admin")
		return false
	}
	return true
}

// basicAuth reports whether the request authenticated with Basic
// credentials, as reqBasicOrRevProxyAuth wants.
func (c *call) basicAuth() bool {
	scheme, _, _ := strings.Cut(strings.TrimSpace(c.r.Header.Get("Authorization")), " ")
	return c.user != nil && strings.EqualFold(scheme, "basic")
}

// ---- e-mail addresses

type wEmail struct {
	Email    string `json:"email"`
	Verified bool   `json:"verified"`
	Primary  bool   `json:"primary"`
	UserID   int64  `json:"user_id"`
	Username string `json:"username"`
}

// emailsOf lists u's addresses, primary first. Every address is verified:
// Forgejo's default needs no confirmation (REGISTER_EMAIL_CONFIRM off).
// withUser fills user_id and username, as the administrator's listings do.
func (st *state) emailsOf(u *user, withUser bool) []*wEmail {
	out := []*wEmail{{Email: st.accounts.primaryEmail(u), Verified: true, Primary: true}}
	if p := st.accounts.profiles[u]; p != nil {
		for _, e := range p.extra {
			out = append(out, &wEmail{Email: e, Verified: true})
		}
	}
	if withUser {
		for _, e := range out {
			e.UserID, e.Username = u.id, u.login
		}
	}
	return out
}

// emailSubject is the user an e-mail route is about: the caller, or
// {username} for the administrator's routes.
func (c *call) emailSubject(admin bool) *user {
	if !admin {
		return c.user
	}
	return c.pathUser("username")
}

func hListEmails(admin bool) func(c *call) {
	return func(c *call) {
		if u := c.emailSubject(admin); u != nil {
			// Forgejo 15 names nobody on either route: the administrator's
			// listing of a user's addresses carries "user_id":0 and
			// "username":"" as the user's own does (only the site-wide
			// /admin/emails names the owner).
			c.json(http.StatusOK, c.st.emailsOf(u, false))
		}
	}
}

func hAddEmails(c *call) {
	var b struct {
		Emails []string `json:"emails"`
	}
	if !c.decode(&b) {
		return
	}
	if len(b.Emails) == 0 {
		c.fail(http.StatusUnprocessableEntity, "Email list empty")
		return
	}
	// All or nothing: the first bad address refuses the lot.
	for _, e := range b.Emails {
		if !validEmail(e) {
			c.fail(http.StatusUnprocessableEntity, "Email address \""+e+"\" invalid")
			return
		}
		if c.st.emailOwner(e) != nil {
			c.fail(http.StatusUnprocessableEntity, "Email address has been used: "+e)
			return
		}
	}
	p := c.st.accounts.profile(c.user)
	for _, e := range b.Emails {
		if !slices.ContainsFunc(p.extra, func(x string) bool { return strings.EqualFold(x, e) }) {
			p.extra = append(p.extra, e)
		}
	}
	c.json(http.StatusCreated, c.st.emailsOf(c.user, false))
}

func hDeleteEmails(admin bool) func(c *call) {
	return func(c *call) {
		u := c.emailSubject(admin)
		if u == nil {
			return
		}
		var b struct {
			Emails []string `json:"emails"`
		}
		if !c.decode(&b) {
			return
		}
		p := c.st.accounts.profile(u)
		for _, e := range b.Emails {
			if strings.EqualFold(e, c.st.accounts.primaryEmail(u)) {
				// ErrPrimaryEmailCannotDelete is no case of the handler's
				// switch: a 500.
				c.internalError("DeleteEmailAddresses: the primary email address of a user cannot be deleted [email: " + e + "]")
				return
			}
			// An address that is not there (never added, or deleted
			// already) is no error on Forgejo 15: 204, as if deleted.
			// Gitea 1.27 answers 404 "Email address does not exist".
		}
		for _, e := range b.Emails {
			p.extra = slices.DeleteFunc(p.extra, func(x string) bool { return strings.EqualFold(x, e) })
		}
		c.empty(http.StatusNoContent)
	}
}

// validEmail is Forgejo's ValidateEmail, simplified: one @, a local part of
// the allowed characters not starting with "-", a domain of DNS labels.
func validEmail(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || domain == "" || strings.HasPrefix(s, "-") || strings.Contains(domain, "@") {
		return false
	}
	for _, r := range local {
		if !(r < 128 && (isAlnum(r) || strings.ContainsRune(".!#$%&'*+-/=?^_`{|}~", r))) {
			return false
		}
	}
	for _, label := range strings.Split(domain, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(isAlnum(r) || r == '-') {
				return false
			}
		}
	}
	return true
}

func isAlnum(r rune) bool {
	return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
}

// ---- user settings

type wUserSettings struct {
	FullName            string `json:"full_name"`
	Website             string `json:"website"`
	Description         string `json:"description"`
	Location            string `json:"location"`
	Pronouns            string `json:"pronouns"`
	Language            string `json:"language"`
	Theme               string `json:"theme"`
	DiffViewStyle       string `json:"diff_view_style"`
	HideEmail           bool   `json:"hide_email"`
	HidePronouns        bool   `json:"hide_pronouns"`
	HideActivity        bool   `json:"hide_activity"`
	EnableRepoUnitHints bool   `json:"enable_repo_unit_hints"`
}

// defaultTheme is Forgejo's [ui] DEFAULT_THEME.
const defaultTheme = "forgejo-auto"

func (c *call) settings(u *user) *wUserSettings {
	p := c.st.accounts.profile(u)
	return &wUserSettings{
		FullName: u.fullName, Website: p.website, Description: p.description, Location: p.location,
		Pronouns: p.pronouns, Language: p.language, Theme: cmp.Or(p.theme, defaultTheme), DiffViewStyle: p.diffStyle,
		HideEmail: p.hideEmail, HidePronouns: p.hidePronouns, HideActivity: p.hideActivity, EnableRepoUnitHints: p.unitHints,
	}
}

func hGetSettings(c *call) { c.json(http.StatusOK, c.settings(c.user)) }

func hEditSettings(c *call) {
	var b struct {
		FullName            *string `json:"full_name"`
		Website             *string `json:"website"`
		Description         *string `json:"description"`
		Location            *string `json:"location"`
		Pronouns            *string `json:"pronouns"`
		Language            *string `json:"language"`
		Theme               *string `json:"theme"`
		DiffViewStyle       *string `json:"diff_view_style"`
		HideEmail           *bool   `json:"hide_email"`
		HidePronouns        *bool   `json:"hide_pronouns"`
		HideActivity        *bool   `json:"hide_activity"`
		EnableRepoUnitHints *bool   `json:"enable_repo_unit_hints"`
	}
	if !c.decode(&b) {
		return
	}
	// The binding's size limits, in the order of the form's fields.
	for _, f := range []struct {
		name string
		v    *string
		max  int
	}{{"FullName", b.FullName, 100}, {"Website", b.Website, 255}, {"Description", b.Description, 255}, {"Location", b.Location, 50}} {
		if f.v != nil && len([]rune(*f.v)) > f.max {
			c.fail(http.StatusUnprocessableEntity, "["+f.name+"]: MaxSize")
			return
		}
	}
	p := c.st.accounts.profile(c.user)
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&c.user.fullName, b.FullName)
	set(&p.website, b.Website)
	set(&p.description, b.Description)
	set(&p.location, b.Location)
	set(&p.pronouns, b.Pronouns)
	set(&p.language, b.Language)
	set(&p.theme, b.Theme)
	set(&p.diffStyle, b.DiffViewStyle)
	setB := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	setB(&p.hideEmail, b.HideEmail)
	setB(&p.hidePronouns, b.HidePronouns)
	setB(&p.hideActivity, b.HideActivity)
	if b.EnableRepoUnitHints != nil {
		p.unitHints = *b.EnableRepoUnitHints
	}
	c.json(http.StatusOK, c.settings(c.user))
}

// ---- user search

// hSearchUsers is /users/search: individuals (no organizations) whose login
// or full name contains q, or whose id is uid, in ?sort= order (default
// alphabetical), in Forgejo's {"ok","data"} envelope.
func hSearchUsers(c *call) {
	q := strings.ToLower(strings.TrimSpace(c.q.Get("q")))
	uid := int64(c.formInt("uid"))
	var found []*user
	for _, u := range c.st.usersInOrder {
		if u.org != nil {
			continue
		}
		if uid > 0 && u.id != uid {
			continue
		}
		if p := c.st.accounts.profiles[u]; p != nil && p.visibility == "private" && c.user != u && (c.user == nil || !c.user.isAdmin) {
			continue
		}
		if p := c.st.accounts.profiles[u]; p != nil && p.visibility == "limited" && c.user == nil {
			continue
		}
		if q == "" || strings.Contains(strings.ToLower(u.login), q) || strings.Contains(strings.ToLower(u.fullName), q) {
			found = append(found, u)
		}
	}
	sortUsers(found, c.q.Get("sort"))
	c.json(http.StatusOK, struct {
		OK   bool     `json:"ok"`
		Data []*wUser `json:"data"`
	}{true, c.users(paginate(c, found, pageLinked))})
}

// ---- OAuth2 applications

type oauthApp struct {
	id           int64
	owner        *user
	name         string
	clientID     string
	redirectURIs []string
	confidential bool
	created      time.Time
}

type wOAuthApp struct {
	ID                 int64    `json:"id"`
	Name               string   `json:"name"`
	ClientID           string   `json:"client_id"`
	ClientSecret       string   `json:"client_secret"`
	RedirectURIs       []string `json:"redirect_uris"`
	ConfidentialClient bool     `json:"confidential_client"`
	Created            string   `json:"created"`
}

func (a *oauthApp) render(secret string) *wOAuthApp {
	uris := slices.Clone(a.redirectURIs)
	if uris == nil {
		uris = []string{}
	}
	return &wOAuthApp{ID: a.id, Name: a.name, ClientID: a.clientID, ClientSecret: secret, RedirectURIs: uris,
		ConfidentialClient: a.confidential, Created: ts(a.created)}
}

type appBody struct {
	Name               string   `json:"name"`
	RedirectURIs       []string `json:"redirect_uris"`
	ConfidentialClient bool     `json:"confidential_client"`
}

// decodeApp reads an application's form with its binding: name and
// redirect_uris are Required.
func (c *call) decodeApp() (appBody, bool) {
	var b appBody
	if !c.decode(&b) {
		return b, false
	}
	switch {
	case strings.TrimSpace(b.Name) == "":
		c.fail(http.StatusUnprocessableEntity, "[Name]: Required")
		return b, false
	case len(b.RedirectURIs) == 0:
		c.fail(http.StatusUnprocessableEntity, "[RedirectURIs]: Required")
		return b, false
	}
	return b, true
}

// clientSecret is a new secret in Forgejo's format ("gto_" and 52 base32
// characters); only its hash would be stored, so it is shown once.
func clientSecret() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	raw := make([]byte, 52)
	if _, err := rand.Read(raw); err != nil {
		panic("forgejotest: no randomness: " + err.Error())
	}
	for i := range raw {
		raw[i] = alphabet[int(raw[i])%len(alphabet)]
	}
	return "gto_" + string(raw)
}

func newUUID() string {
	h := randomHex(16)
	b := []byte(h)
	b[12] = '4' // version 4
	b[16] = "89ab"[int(b[16])%4]
	s := string(b)
	return s[:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:]
}

func hCreateApp(c *call) {
	b, ok := c.decodeApp()
	if !ok {
		return
	}
	a := &oauthApp{id: c.st.id("oauth2"), owner: c.user, name: b.Name, clientID: newUUID(),
		redirectURIs: b.RedirectURIs, confidential: b.ConfidentialClient, created: c.now}
	c.st.accounts.apps = append(c.st.accounts.apps, a)
	c.json(http.StatusCreated, a.render(clientSecret()))
}

func hListApps(c *call) {
	var mine []*oauthApp
	for _, a := range c.st.accounts.apps {
		if a.owner == c.user {
			mine = append(mine, a)
		}
	}
	out := []*wOAuthApp{}
	for _, a := range paginate(c, mine, pageTotalOnly) {
		out = append(out, a.render(""))
	}
	c.json(http.StatusOK, out)
}

// pathApp finds the caller's application {id}; another's is a 404 too.
func (c *call) pathApp() *oauthApp {
	id, _ := c.pathInt("id")
	for _, a := range c.st.accounts.apps {
		if a.id == id && a.owner == c.user {
			return a
		}
	}
	c.notFound()
	return nil
}

func hGetApp(c *call) {
	if a := c.pathApp(); a != nil {
		c.json(http.StatusOK, a.render(""))
	}
}

// hEditApp replaces the application's name, URIs and confidentiality and,
// as Forgejo does, regenerates its secret.
func hEditApp(c *call) {
	a := c.pathApp()
	if a == nil {
		return
	}
	b, ok := c.decodeApp()
	if !ok {
		return
	}
	a.name, a.redirectURIs, a.confidential = b.Name, b.RedirectURIs, b.ConfidentialClient
	c.json(http.StatusOK, a.render(clientSecret()))
}

func hDeleteApp(c *call) {
	a := c.pathApp()
	if a == nil {
		return
	}
	c.st.accounts.apps = slices.DeleteFunc(c.st.accounts.apps, func(x *oauthApp) bool { return x == a })
	c.empty(http.StatusNoContent)
}
