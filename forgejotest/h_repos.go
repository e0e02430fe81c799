package forgejotest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
)

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

// rawList reads a JSON array whose elements are ids or names (label lists).
func rawList(raw []json.RawMessage) (ids []int64, names []string) {
	for _, r := range raw {
		var id int64
		if json.Unmarshal(r, &id) == nil {
			ids = append(ids, id)
			continue
		}
		var name string
		if json.Unmarshal(r, &name) == nil {
			names = append(names, name)
		}
	}
	return ids, names
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
