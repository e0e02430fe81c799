package forgejotest

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Deploy keys and tag protections: both are for repository administrators
// only (the routes' reqAdmin).

type deployKey struct {
	id          int64
	keyID       int64
	title       string
	content     string // "type base64 comment"
	fingerprint string
	readOnly    bool
	created     time.Time
}

type wDeployKey struct {
	ID          int64  `json:"id"`
	KeyID       int64  `json:"key_id"`
	Key         string `json:"key"`
	URL         string `json:"url"`
	Title       string `json:"title"`
	Fingerprint string `json:"fingerprint"`
	CreatedAt   string `json:"created_at"`
	ReadOnly    bool   `json:"read_only"`
	Repository  *wRepo `json:"repository,omitempty"`
}

func (c *call) deployKey(r *repo, k *deployKey, private bool) *wDeployKey {
	w := &wDeployKey{
		ID: k.id, KeyID: k.keyID, Key: k.content, URL: c.v.api(repoPath(r) + "/keys/" + strconv.FormatInt(k.id, 10)),
		Title: k.title, Fingerprint: k.fingerprint, CreatedAt: ts(k.created), ReadOnly: k.readOnly,
	}
	// Only the owner (and site administrators) see the repository, rendered
	// with the key's own access.
	if private && (c.user.isAdmin || c.user == r.owner) {
		w.Repository = c.v.repo(r, 0)
		w.Repository.Permissions = &wPermissions{Pull: true, Push: !k.readOnly}
	}
	return w
}

func hListDeployKeys(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	keyID, _ := strconv.ParseInt(c.q.Get("key_id"), 10, 64)
	fp := c.q.Get("fingerprint")
	var ks []*deployKey
	for _, k := range c.st.more.keys[r] {
		if (keyID == 0 || k.keyID == keyID) && (fp == "" || k.fingerprint == fp) {
			ks = append(ks, k)
		}
	}
	out := []*wDeployKey{}
	for _, k := range paginate(c, ks, pageTotalOnly) {
		out = append(out, c.deployKey(r, k, true))
	}
	c.json(http.StatusOK, out)
}

func (c *call) pathKey(r *repo) *deployKey {
	id, _ := c.pathInt("id")
	for _, k := range c.st.more.keys[r] {
		if k.id == id {
			return k
		}
	}
	c.notFound()
	return nil
}

func hGetDeployKey(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	if k := c.pathKey(r); k != nil {
		c.json(http.StatusOK, c.deployKey(r, k, true))
	}
}

func hCreateDeployKey(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	var body struct {
		Title    string `json:"title"`
		Key      string `json:"key"`
		ReadOnly bool   `json:"read_only"`
	}
	if !c.decode(&body) {
		return
	}
	switch {
	case strings.TrimSpace(body.Title) == "":
		c.fail(http.StatusUnprocessableEntity, "[Title]: Required")
		return
	case strings.TrimSpace(body.Key) == "":
		c.fail(http.StatusUnprocessableEntity, "[Key]: Required")
		return
	}
	// The same check as an account's key (h_users_keys.go), as
	// Forgejo's CheckPublicKeyString serves both.
	content, fp, msg := checkSSHKey(body.Key)
	if msg != "" {
		c.fail(http.StatusUnprocessableEntity, "Invalid key content: "+msg)
		return
	}
	for _, k := range c.st.more.keys[r] {
		switch {
		case k.fingerprint == fp:
			c.fail(http.StatusUnprocessableEntity, "This key has already been added to this repository")
			return
		case k.title == body.Title:
			c.fail(http.StatusUnprocessableEntity, "A key with the same name already exists")
			return
		}
	}
	// The same key on another repository shares its key_id, as Forgejo
	// keeps one public key row for them.
	keyID := int64(0)
	for _, ks := range c.st.more.keys {
		for _, k := range ks {
			if k.fingerprint == fp {
				keyID = k.keyID
			}
		}
	}
	if keyID == 0 {
		keyID = c.st.id("public_key")
	}
	k := &deployKey{id: c.st.id("deploy_key"), keyID: keyID, title: body.Title, content: content, fingerprint: fp, readOnly: body.ReadOnly, created: c.now}
	if c.st.more.keys == nil {
		c.st.more.keys = map[*repo][]*deployKey{}
	}
	c.st.more.keys[r] = append(c.st.more.keys[r], k)
	c.json(http.StatusCreated, c.deployKey(r, k, false))
}

// hDeleteDeployKey deletes a key; one that is not there is 204 all the same, as
// Forgejo's DeleteDeployKey ignores a missing key.
func hDeleteDeployKey(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	id, _ := c.pathInt("id")
	if ks := c.st.more.keys[r]; len(ks) > 0 {
		c.st.more.keys[r] = slices.DeleteFunc(ks, func(k *deployKey) bool { return k.id == id })
	}
	c.empty(http.StatusNoContent)
}

// ---- tag protections

type tagProtection struct {
	id      int64
	pattern string
	users   []*user
	teams   []*team
	created time.Time
	updated time.Time
}

type wTagProtection struct {
	ID                 int64    `json:"id"`
	NamePattern        string   `json:"name_pattern"`
	WhitelistUsernames []string `json:"whitelist_usernames"`
	WhitelistTeams     []string `json:"whitelist_teams"`
	CreatedAt          string   `json:"created_at"`
	UpdatedAt          string   `json:"updated_at"`
}

func tagProtectionJSON(p *tagProtection) *wTagProtection {
	w := &wTagProtection{ID: p.id, NamePattern: p.pattern, WhitelistUsernames: []string{}, WhitelistTeams: []string{},
		CreatedAt: ts(p.created), UpdatedAt: ts(p.updated)}
	for _, u := range p.users {
		w.WhitelistUsernames = append(w.WhitelistUsernames, u.login)
	}
	for _, t := range p.teams {
		w.WhitelistTeams = append(w.WhitelistTeams, t.name)
	}
	return w
}

// allowList resolves the users and (for an organization's repository) the
// teams of a tag protection; an unknown one is 422.
func (c *call) allowList(r *repo, logins, teams []string) ([]*user, []*team, bool) {
	var us []*user
	for _, l := range logins {
		u := c.st.user(l)
		if u == nil {
			c.fail(http.StatusUnprocessableEntity, "user does not exist [uid: 0, name: "+l+"]")
			return nil, nil, false
		}
		if !slices.Contains(us, u) {
			us = append(us, u)
		}
	}
	var ts []*team
	if o := r.owner.org; o != nil {
		for _, n := range teams {
			t := o.team(n)
			if t == nil {
				c.fail(http.StatusUnprocessableEntity, fmt.Sprintf("team does not exist [org_id: %d, team_id: 0, name: %s]", r.owner.id, n))
				return nil, nil, false
			}
			if !slices.Contains(ts, t) {
				ts = append(ts, t)
			}
		}
	}
	return us, ts, true
}

func hListTagProtections(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	out := []*wTagProtection{}
	for _, p := range c.st.more.tagProts[r] {
		out = append(out, tagProtectionJSON(p))
	}
	c.json(http.StatusOK, out)
}

func (c *call) pathTagProtection(r *repo) *tagProtection {
	id, _ := c.pathInt("id")
	for _, p := range c.st.more.tagProts[r] {
		if p.id == id {
			return p
		}
	}
	c.notFound()
	return nil
}

func hGetTagProtection(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	if p := c.pathTagProtection(r); p != nil {
		c.json(http.StatusOK, tagProtectionJSON(p))
	}
}

type tagProtectionBody struct {
	NamePattern        *string  `json:"name_pattern"`
	WhitelistUsernames []string `json:"whitelist_usernames"`
	WhitelistTeams     []string `json:"whitelist_teams"`
}

func hCreateTagProtection(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	var body tagProtectionBody
	if !c.decode(&body) || !c.notArchived(r) {
		return
	}
	pattern := ""
	if body.NamePattern != nil {
		pattern = strings.TrimSpace(*body.NamePattern)
	}
	switch {
	case pattern == "":
		c.fail(http.StatusBadRequest, "name_pattern are empty")
		return
	case len(body.WhitelistUsernames) == 0 && len(body.WhitelistTeams) == 0:
		c.fail(http.StatusBadRequest, "both whitelist_usernames and whitelist_teams are empty")
		return
	}
	for _, p := range c.st.more.tagProts[r] {
		if p.pattern == pattern {
			c.fail(http.StatusForbidden, "Tag protection already exist")
			return
		}
	}
	us, ts, ok := c.allowList(r, body.WhitelistUsernames, body.WhitelistTeams)
	if !ok {
		return
	}
	p := &tagProtection{id: c.st.id("tag_protection"), pattern: pattern, users: us, teams: ts, created: c.now, updated: c.now}
	if c.st.more.tagProts == nil {
		c.st.more.tagProts = map[*repo][]*tagProtection{}
	}
	c.st.more.tagProts[r] = append(c.st.more.tagProts[r], p)
	c.json(http.StatusCreated, tagProtectionJSON(p))
}

// hEditTagProtection changes what the body names: a blank pattern keeps
// the old one, a list given replaces the old one.
func hEditTagProtection(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	var body tagProtectionBody
	if !c.decode(&body) || !c.notArchived(r) {
		return
	}
	p := c.pathTagProtection(r)
	if p == nil {
		return
	}
	us, ts, ok := c.allowList(r, body.WhitelistUsernames, body.WhitelistTeams)
	if !ok {
		return
	}
	if body.NamePattern != nil {
		if pat := strings.TrimSpace(*body.NamePattern); pat != "" {
			p.pattern = pat
		}
	}
	if body.WhitelistUsernames != nil {
		p.users = us
	}
	if body.WhitelistTeams != nil {
		p.teams = ts
	}
	p.updated = c.now
	c.json(http.StatusOK, tagProtectionJSON(p))
}

func hDeleteTagProtection(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	p := c.pathTagProtection(r)
	if p == nil {
		return
	}
	c.st.more.tagProts[r] = slices.DeleteFunc(c.st.more.tagProts[r], func(x *tagProtection) bool { return x == p })
	c.empty(http.StatusNoContent)
}
