package forgejotest

import (
	"crypto/md5"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Repositories: create (for the current user; organizations' in h_orgs.go),
// get, edit, delete, list and search, topics, stars and forks,
// collaborators, watches, transfers and avatars. The rest of the Repos
// service is in h_repos_*.go: branches, contents (files, the tree, tags,
// issue templates), compare, git data, hooks, deploy keys, push mirrors,
// releases, commit statuses and the wiki.

func hGetRepo(c *call) {
	if r := c.pathRepo(); r != nil {
		c.json(http.StatusOK, c.v.repo(r, 0))
	}
}

func hEditRepo(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	var body struct {
		Name          *string `json:"name"`
		Description   *string `json:"description"`
		Website       *string `json:"website"`
		Private       *bool   `json:"private"`
		Archived      *bool   `json:"archived"`
		DefaultBranch *string `json:"default_branch"`
	}
	if !c.decode(&body) {
		return
	}
	if body.Name != nil && *body.Name != r.name {
		if !c.checkRepoName(*body.Name) {
			return
		}
		if other := c.st.repo(r.owner.login, *body.Name); other != nil && other != r {
			c.fail(http.StatusUnprocessableEntity, "repo name is already taken [name: "+*body.Name+"]")
			return
		}
		delete(c.st.repos, strings.ToLower(r.owner.login)+"/"+strings.ToLower(r.name))
		r.name = *body.Name
		c.st.repos[strings.ToLower(r.owner.login)+"/"+strings.ToLower(r.name)] = r
	}
	if body.Description != nil {
		r.description = *body.Description
	}
	if body.Website != nil {
		r.website = *body.Website
	}
	if body.Private != nil {
		r.private = *body.Private
	}
	if body.Archived != nil {
		r.archived = *body.Archived
	}
	if body.DefaultBranch != nil && (r.empty || r.branch(*body.DefaultBranch) != nil) {
		r.defaultBranch = *body.DefaultBranch
	}
	r.updated = c.now
	c.json(http.StatusOK, c.v.repo(r, 0))
}

func hDeleteRepo(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	c.st.deleteRepo(r)
	c.empty(http.StatusNoContent)
}

// ---- topics

var topicRE = regexp.MustCompile(`^[a-z0-9][-.a-z0-9]*$`)

const maxTopics = 25

func validTopic(t string) bool { return len(t) <= 35 && topicRE.MatchString(t) }

func hListTopics(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	c.json(http.StatusOK, map[string][]string{"topics": paginate(c, r.topics, pageTotalOnly)})
}

// The topic errors carry no url, unlike every other Forgejo error body.
func (c *call) topicError(invalid any, msg string) {
	c.json(http.StatusUnprocessableEntity, map[string]any{"invalidTopics": invalid, "message": msg})
}

func hReplaceTopics(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	var body struct {
		Topics []string `json:"topics"`
	}
	if !c.decode(&body) {
		return
	}
	var topics, invalid []string
	for _, t := range body.Topics {
		t = strings.ToLower(strings.TrimSpace(t))
		switch {
		case t == "" || slices.Contains(topics, t):
		case !validTopic(t):
			invalid = append(invalid, t)
		default:
			topics = append(topics, t)
		}
	}
	if len(invalid) > 0 {
		c.topicError(invalid, "Topic names are invalid")
		return
	}
	if len(topics) > maxTopics {
		c.topicError(nil, "Exceeding maximum number of topics per repo")
		return
	}
	slices.Sort(topics)
	for _, t := range r.topics {
		c.st.touchTopic(t, c.now)
	}
	r.topics = append([]string{}, topics...)
	for _, t := range r.topics {
		c.st.touchTopic(t, c.now)
	}
	c.empty(http.StatusNoContent)
}

func hAddTopic(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	t := strings.ToLower(strings.TrimSpace(c.p["topic"]))
	switch {
	case !validTopic(t):
		c.topicError(t, "Topic name is invalid")
	case slices.Contains(r.topics, t):
		c.empty(http.StatusNoContent)
	case len(r.topics) >= maxTopics:
		c.topicError(nil, "Exceeding maximum number of topics per repo")
	default:
		r.topics = append(r.topics, t)
		slices.Sort(r.topics)
		c.st.touchTopic(t, c.now)
		c.empty(http.StatusNoContent)
	}
}

func hDeleteTopic(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	t := strings.ToLower(strings.TrimSpace(c.p["topic"]))
	if !validTopic(t) {
		c.topicError(t, "Topic name is invalid")
		return
	}
	i := slices.Index(r.topics, t)
	if i < 0 {
		c.notFound()
		return
	}
	r.topics = slices.Delete(r.topics, i, i+1)
	c.st.touchTopic(t, c.now)
	c.empty(http.StatusNoContent)
}

// ---- stargazers and forks: no Link, and a lone limit returns everything

func hStargazers(c *call) {
	if r := c.pathRepo(); r != nil {
		c.json(http.StatusOK, c.users(paginate(c, r.stargazers, pageLoneLimitAll)))
	}
}

func hListForks(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	var visible []*repo
	for _, f := range r.forks {
		if canRead(c.user, f) {
			visible = append(visible, f)
		}
	}
	c.json(http.StatusOK, c.repos(paginate(c, visible, pageLoneLimitAll)))
}

// hCreateFork forks into the caller's account or an organization the
// caller is a member of; Forgejo answers 202.
func hCreateFork(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	var body struct {
		Organization string `json:"organization"`
		Name         string `json:"name"`
	}
	if !c.decode(&body) {
		return
	}
	forker := c.user
	if body.Organization != "" {
		// Forgejo's handler: an organization that does not exist is 422
		// (Gitea 1.27: 404), one the caller is no member of 403.
		o := c.st.user(body.Organization)
		if o == nil || o.org == nil {
			c.fail(http.StatusUnprocessableEntity, "org does not exist [id: 0, name: "+body.Organization+"]")
			return
		}
		if !o.org.isMember(c.user) {
			c.fail(http.StatusForbidden, "User is no Member of Organisation '"+o.login+"'")
			return
		}
		forker = o
	}
	name := body.Name
	if name == "" {
		name = r.name
	}
	if !c.checkRepoName(name) {
		return
	}
	for _, f := range r.forks {
		if f.owner == forker {
			c.fail(http.StatusConflict, "repository is already forked by user [uname: "+forker.login+", repo path: "+r.owner.login+"/"+r.name+", fork path: "+f.owner.login+"/"+f.name+"]")
			return
		}
	}
	if c.st.repo(forker.login, name) != nil {
		c.fail(http.StatusConflict, "The repository with the same name already exists.")
		return
	}
	f := c.st.addRepo(forker, name, false, r.defaultBranch, c.now)
	f.description, f.parent, f.empty = r.description, r, r.empty
	for _, b := range r.branches {
		cp := *b
		f.branches = append(f.branches, &cp)
	}
	for k, cm := range r.commits {
		f.commits[k] = cm
	}
	for _, t := range r.tags {
		cp := *t
		f.tags = append(f.tags, &cp)
	}
	r.forks = append(r.forks, f)
	c.json(http.StatusAccepted, c.v.repo(f, 0))
}

// ---- the instance's topics: Forgejo keeps a topic once a repository has
// had it, with its repository count (0 once none has it any more).

type topicRec struct {
	id      int64
	name    string
	created time.Time
	updated time.Time
}

// touchTopic records that a topic was added to or removed from a
// repository.
func (st *state) touchTopic(name string, now time.Time) {
	if st.topics == nil {
		st.topics = map[string]*topicRec{}
	}
	if t := st.topics[name]; t != nil {
		t.updated = now
		return
	}
	st.topics[name] = &topicRec{id: st.id("topic"), name: name, created: now, updated: now}
}

type wTopic struct {
	ID        int64  `json:"id"`
	Name      string `json:"topic_name"`
	RepoCount int    `json:"repo_count"`
	Created   string `json:"created"`
	Updated   string `json:"updated"`
}

// hSearchTopics is topicSearch: the topics whose name contains q, the most
// used first (then the oldest), paged with X-Total-Count and no Link.
func hSearchTopics(c *call) {
	q := strings.ToLower(strings.TrimSpace(c.q.Get("q")))
	count := map[string]int{}
	for _, r := range c.st.reposInOrder {
		for _, t := range r.topics {
			count[t]++
		}
	}
	var found []*topicRec
	for _, t := range c.st.topics {
		if strings.Contains(t.name, q) {
			found = append(found, t)
		}
	}
	slices.SortFunc(found, func(a, b *topicRec) int {
		if d := count[b.name] - count[a.name]; d != 0 {
			return d
		}
		return int(a.id - b.id)
	})
	out := []*wTopic{}
	for _, t := range paginate(c, found, pageTotalOnly) {
		out = append(out, &wTopic{ID: t.id, Name: t.name, RepoCount: count[t.name], Created: ts(t.created), Updated: ts(t.updated)})
	}
	c.json(http.StatusOK, map[string]any{"topics": out})
}

func hListUserRepos(current bool) func(c *call) {
	return func(c *call) {
		u := c.subject(current)
		if u == nil {
			return
		}
		var rs []*repo
		for _, r := range c.st.reposInOrder {
			if r.owner == u && canRead(c.user, r) {
				rs = append(rs, r)
			}
		}
		c.json(http.StatusOK, c.repos(paginate(c, rs, pageLinked)))
	}
}

var repoNameRE = regexp.MustCompile(`^[-.\w]+$`)

// checkRepoName validates as Forgejo's binding does, answering 422.
func (c *call) checkRepoName(name string) bool {
	switch {
	case strings.TrimSpace(name) == "":
		c.fail(http.StatusUnprocessableEntity, "[Name]: Required")
	case !repoNameRE.MatchString(name):
		c.fail(http.StatusUnprocessableEntity, "[Name]: AlphaDashDot")
	case len(name) > 100:
		c.fail(http.StatusUnprocessableEntity, "[Name]: MaxSize")
	case name == "." || name == ".." || strings.HasSuffix(strings.ToLower(name), ".git") || strings.HasSuffix(strings.ToLower(name), ".wiki"):
		c.fail(http.StatusUnprocessableEntity, "name is invalid [name: "+name+"]")
	default:
		return true
	}
	return false
}

func hCreateRepo(c *call) {
	var body createRepoBody
	if !c.decode(&body) || !c.checkRepoName(body.Name) {
		return
	}
	c.createRepo(c.user, body)
}

// createRepoBody is the body of the three routes that create a repository
// (the caller's, an organization's, an administrator's for anyone).
type createRepoBody struct {
	Name          string `json:"name"`
	Description   string `json:"description"`
	Private       bool   `json:"private"`
	AutoInit      bool   `json:"auto_init"`
	DefaultBranch string `json:"default_branch"`
	Readme        string `json:"readme"`
	Gitignores    string `json:"gitignores"`
	License       string `json:"license"`
}

// readmeTemplates are the README templates a Forgejo ships: only "Default",
// which is "# {Name}\n\n{Description}", no final newline.
var readmeTemplates = []string{"Default"}

// createRepo makes the repository of a create request and answers 201, in
// Forgejo's order: an unknown README template is 400 (checked only with
// auto_init, where an empty one means "Default"), a taken name 409, and an
// unknown .gitignore or license template 500, with nothing created (Forgejo
// fails to write the initial commit and rolls the repository back). With
// auto_init the default branch starts with one commit, "Initial commit",
// holding README.md, .gitignore (each template of the comma-separated
// gitignores under a "# ---> NAME" line) and LICENSE (the template with its
// year and owner filled in); without it readme, gitignores and license are
// ignored, as Forgejo ignores them.
func (c *call) createRepo(owner *user, body createRepoBody) {
	var gitignore, license string
	if body.AutoInit {
		if body.Readme == "" {
			body.Readme = "Default"
		}
		if !slices.Contains(readmeTemplates, body.Readme) {
			c.fail(http.StatusBadRequest, fmt.Sprintf("readme template does not exist, available templates: %v", readmeTemplates))
			return
		}
	}
	if c.st.repo(owner.login, body.Name) != nil {
		c.fail(http.StatusConflict, "The repository with the same name already exists.")
		return
	}
	if body.AutoInit {
		if body.Gitignores != "" {
			var b strings.Builder
			for name := range strings.SplitSeq(body.Gitignores, ",") {
				src, ok := gitignoreTemplates[name]
				if !ok {
					c.internalError("initRepository: prepareRepoCommit: GetRepoInitFile[" + name + "]: file does not exist")
					return
				}
				b.WriteString("# ---> " + name + "\n" + src + "\n")
			}
			gitignore = b.String()
		}
		if body.License != "" {
			src, ok := licenseTemplates[body.License]
			if !ok {
				c.internalError("initRepository: prepareRepoCommit: getLicense[" + body.License + "]: GetRepoInitFile[" + body.License + "]: file does not exist")
				return
			}
			license = strings.NewReplacer("<year>", strconv.Itoa(c.now.Year()), "<owner>", owner.login).Replace(src)
		}
	}
	r := c.st.addRepo(owner, body.Name, body.AutoInit, body.DefaultBranch, c.now)
	r.description, r.private = body.Description, body.Private
	if body.AutoInit {
		for _, cm := range r.commits {
			cm.files["README.md"] = "# " + body.Name + "\n\n" + body.Description
			if gitignore != "" {
				cm.files[".gitignore"] = gitignore
			}
			if license != "" {
				cm.files["LICENSE"] = license
			}
		}
	}
	c.json(http.StatusCreated, c.v.repo(r, 0))
	c.s.emitRepo(c, r, "created")
}

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

// ---- repository watches

// watchers is r's watchers. A repository of a user starts watched by its
// owner (Forgejo makes the creator watch what they create); one of an
// organization starts unwatched, as the fake does not know who created it.
func (st *state) watchers(r *repo) []*user {
	m := &st.more
	if !m.watchInit[r] {
		if m.watchInit == nil {
			m.watchInit, m.repoWatch, m.watchSince = map[*repo]bool{}, map[*repo][]*user{}, map[*repo]map[*user]time.Time{}
		}
		m.watchInit[r] = true
		if r.owner.org == nil {
			m.repoWatch[r] = []*user{r.owner}
			m.watchSince[r] = map[*user]time.Time{r.owner: r.created}
		}
	}
	return m.repoWatch[r]
}

type wWatchInfo struct {
	Subscribed    bool   `json:"subscribed"`
	Ignored       bool   `json:"ignored"`
	Reason        any    `json:"reason"`
	CreatedAt     string `json:"created_at"`
	URL           string `json:"url"`
	RepositoryURL string `json:"repository_url"`
}

// watchCount is r's watchers_count.
func (st *state) watchCount(r *repo) int { return len(st.watchers(r)) }

func (st *state) setWatch(r *repo, u *user, on bool, now time.Time) {
	ws := st.watchers(r)
	has := slices.Contains(ws, u)
	switch {
	case on && !has:
		st.more.repoWatch[r] = append(ws, u)
		if st.more.watchSince[r] == nil {
			st.more.watchSince[r] = map[*user]time.Time{}
		}
		st.more.watchSince[r][u] = now
	case !on && has:
		st.more.repoWatch[r] = removeUser(ws, u)
	}
}

func (c *call) repoWatchInfo(r *repo) *wWatchInfo {
	return &wWatchInfo{
		Subscribed: true, CreatedAt: ts(r.created), URL: c.v.api(repoPath(r) + "/subscription"),
		RepositoryURL: c.v.api(repoPath(r)),
	}
}

// hCheckWatch answers the caller's watch: 200 with a WatchInfo, or 404 when
// not watching.
func hCheckWatch(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if !slices.Contains(c.st.watchers(r), c.user) {
		c.notFound()
		return
	}
	c.json(http.StatusOK, c.repoWatchInfo(r))
}

// hWatch watches (200 with the WatchInfo) or unwatches (204); both are
// idempotent.
func hWatch(on bool) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil {
			return
		}
		c.st.setWatch(r, c.user, on, c.now)
		if on {
			c.json(http.StatusOK, c.repoWatchInfo(r))
			return
		}
		c.empty(http.StatusNoContent)
	}
}

func hListWatchers(c *call) {
	if r := c.pathRepo(); r != nil {
		c.json(http.StatusOK, c.users(paginate(c, c.st.watchers(r), pageLoneLimitAll)))
	}
}

// hListWatched lists the repositories a user watches, in the order the
// repositories were created: private ones only to the user themself, as
// Forgejo's GetWatchedRepos (not even to a site administrator).
func hListWatched(current bool) func(c *call) {
	return func(c *call) {
		u := c.subject(current)
		if u == nil {
			return
		}
		var rs []*repo
		for _, r := range c.st.reposInOrder {
			if (!r.private || c.user == u && canRead(u, r)) && slices.Contains(c.st.watchers(r), u) {
				rs = append(rs, r)
			}
		}
		c.json(http.StatusOK, c.repos(paginate(c, rs, pageTotalOnly)))
	}
}

// ---- transfers

type transfer struct {
	doer, recipient *user
}

// moveRepo gives r to a new owner; the old name redirects to it, as
// Forgejo keeps a redirect.
func (st *state) moveRepo(r *repo, to *user) {
	old := strings.ToLower(r.owner.login) + "/" + strings.ToLower(r.name)
	delete(st.repos, old)
	if st.more.redirects == nil {
		st.more.redirects = map[string]*repo{}
	}
	st.more.redirects[old] = r
	r.owner = to
	st.repos[strings.ToLower(to.login)+"/"+strings.ToLower(r.name)] = r
}

// hTransfer is repoTransfer: a site administrator (or an owner giving the
// repository to themself, or to an organization they may create
// repositories in) moves it at once (202); anyone else starts a transfer
// the recipient accepts or rejects (201). The answer is the repository as
// it is then.
func hTransfer(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if r.owner.org != nil && !r.owner.org.isOwner(c.user) || r.owner.org == nil && c.user != r.owner && !c.user.isAdmin {
		c.fail(http.StatusForbidden, "user should be the owner of the repo")
		return
	}
	var b struct {
		NewOwner string  `json:"new_owner"`
		TeamIDs  []int64 `json:"team_ids"`
	}
	if !c.decode(&b) {
		return
	}
	if strings.TrimSpace(b.NewOwner) == "" {
		c.fail(http.StatusUnprocessableEntity, "[NewOwner]: Required")
		return
	}
	to := c.st.user(b.NewOwner)
	if to == nil || to.org != nil && to.org.visibility == "private" && !c.user.isAdmin && !to.org.isMember(c.user) {
		c.fail(http.StatusNotFound, "The new owner does not exist or cannot be found")
		return
	}
	if b.TeamIDs != nil && to.org == nil {
		c.fail(http.StatusUnprocessableEntity, "Teams can only be added to organization-owned repositories")
		return
	}
	if c.st.more.transfers[r] != nil {
		c.fail(http.StatusConflict, "repository is already being transferred [repo_id: "+strconv.FormatInt(r.id, 10)+"]")
		return
	}
	if other := c.st.repo(to.login, r.name); other != nil {
		c.fail(http.StatusUnprocessableEntity, "repository already exists [uname: "+to.login+", name: "+r.name+"]")
		return
	}
	direct := c.user.isAdmin || c.user == to || to.org != nil && to.org.isOwner(c.user)
	if direct {
		c.st.moveRepo(r, to)
		r.updated = c.now
		c.json(http.StatusAccepted, c.v.repo(r, 0))
		return
	}
	if c.st.more.transfers == nil {
		c.st.more.transfers = map[*repo]*transfer{}
	}
	c.st.more.transfers[r] = &transfer{doer: c.user, recipient: to}
	c.json(http.StatusCreated, c.v.repo(r, 0))
}

// hAnswerTransfer accepts (202) or rejects (200) a pending transfer; only
// the recipient (or a site administrator) may.
func hAnswerTransfer(accept bool) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil {
			return
		}
		t := c.st.more.transfers[r]
		if t == nil {
			c.notFound()
			return
		}
		may := c.user.isAdmin || c.user == t.recipient || t.recipient.org != nil && t.recipient.org.isOwner(c.user)
		if !may {
			// Forgejo 15 passes no error to its 403 and formats the nil:
			// the message is "%!s(<nil>)" (Gitea 1.27: "permission
			// denied").
			c.fail(http.StatusForbidden, "%!s(<nil>)")
			return
		}
		delete(c.st.more.transfers, r)
		if !accept {
			c.json(http.StatusOK, c.v.repo(r, 0))
			return
		}
		c.st.moveRepo(r, t.recipient)
		r.updated = c.now
		c.json(http.StatusAccepted, c.v.repo(r, 0))
	}
}

// redirectRepo answers a request that names a repository by an old name
// with Forgejo's 307 to the same path under the new one, or reports false
// when the name leads nowhere.
func (c *call) redirectRepo(owner, name string) bool {
	to := c.st.more.redirects[strings.ToLower(owner)+"/"+strings.ToLower(name)]
	if to == nil || c.st.repo(to.owner.login, to.name) != to || !canRead(c.user, to) {
		return false
	}
	p := strings.Replace(c.r.URL.EscapedPath(), url.PathEscape(owner)+"/"+url.PathEscape(name), url.PathEscape(to.owner.login)+"/"+url.PathEscape(to.name), 1)
	if c.r.URL.RawQuery != "" {
		p += "?" + c.r.URL.RawQuery
	}
	c.header.Set("Location", p)
	c.empty(http.StatusTemporaryRedirect)
	return true
}

// ---- repository avatars

// repoAvatarURL is a repository's avatar_url: "" without one.
func (st *state) repoAvatarURL(root string, r *repo) string {
	if a := st.more.avatars[r]; a != "" {
		return root + "/repo-avatars/" + a
	}
	return ""
}

// hUpdateRepoAvatar sets a repository's avatar from a base64 image (PNG,
// JPEG or GIF): bad base64 is 400; what is no image, or too large, is
// Forgejo's 500.
func hUpdateRepoAvatar(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	data, ok := c.avatarImage() // h_users_social.go
	if !ok {
		return
	}
	if c.st.more.avatars == nil {
		c.st.more.avatars = map[*repo]string{}
	}
	c.st.more.avatars[r] = fmt.Sprintf("%d-%x", r.id, md5.Sum(data))
	c.empty(http.StatusNoContent)
}

func hDeleteRepoAvatar(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	delete(c.st.more.avatars, r)
	c.empty(http.StatusNoContent)
}
