package forgejotest

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
)

func hVersion(c *call) {
	c.json(http.StatusOK, map[string]string{"version": c.s.cfg.version})
}

func hAPISettings(c *call) {
	c.json(http.StatusOK, struct {
		MaxResponseItems       int `json:"max_response_items"`
		DefaultPagingNum       int `json:"default_paging_num"`
		DefaultGitTreesPerPage int `json:"default_git_trees_per_page"`
		DefaultMaxBlobSize     int `json:"default_max_blob_size"`
	}{c.s.cfg.maxItems, c.s.cfg.pagingNum, 1000, 10485760})
}

func hCurrentUser(c *call) { c.json(http.StatusOK, c.v.user(c.user)) }

func hGetUser(c *call) {
	if u := c.pathUser("username"); u != nil {
		c.json(http.StatusOK, c.v.user(u))
	}
}

// subject is the user a /user/… or /users/{username}/… route is about.
func (c *call) subject(current bool) *user {
	if current {
		return c.user
	}
	return c.pathUser("username")
}

func (c *call) users(us []*user) []*wUser {
	out := make([]*wUser, 0, len(us))
	for _, u := range us {
		out = append(out, c.v.user(u))
	}
	return out
}

func hListFollowers(current bool) func(c *call) {
	return func(c *call) {
		u := c.subject(current)
		if u == nil {
			return
		}
		var followers []*user
		for _, f := range c.st.usersInOrder {
			if slices.Contains(f.following, u) {
				followers = append(followers, f)
			}
		}
		c.json(http.StatusOK, c.users(paginate(c, followers, pageLinked)))
	}
}

func hListFollowing(current bool) func(c *call) {
	return func(c *call) {
		u := c.subject(current)
		if u == nil {
			return
		}
		c.json(http.StatusOK, c.users(paginate(c, u.following, pageLinked)))
	}
}

func hCheckFollowing(current bool) func(c *call) {
	return func(c *call) {
		u := c.subject(current)
		if u == nil {
			return
		}
		param := "target"
		if current {
			param = "username"
		}
		target := c.pathUser(param)
		if target == nil {
			return
		}
		if slices.Contains(u.following, target) {
			c.empty(http.StatusNoContent)
			return
		}
		c.notFound()
	}
}

// hFollow follows (or unfollows) a user; both are idempotent 204s.
func hFollow(follow bool) func(c *call) {
	return func(c *call) {
		target := c.pathUser("username")
		if target == nil {
			return
		}
		u := c.user
		has := slices.Contains(u.following, target)
		switch {
		case follow && !has && target != u:
			u.following = append(u.following, target)
		case !follow && has:
			u.following = slices.DeleteFunc(u.following, func(x *user) bool { return x == target })
		}
		c.empty(http.StatusNoContent)
	}
}

func hListStarred(current bool) func(c *call) {
	return func(c *call) {
		u := c.subject(current)
		if u == nil {
			return
		}
		var visible []*repo
		for _, r := range u.starred {
			if canRead(c.user, r) {
				visible = append(visible, r)
			}
		}
		c.json(http.StatusOK, c.repos(paginate(c, visible, pageLinked)))
	}
}

func (c *call) repos(rs []*repo) []*wRepo {
	out := make([]*wRepo, 0, len(rs))
	for _, r := range rs {
		out = append(out, c.v.repo(r, 0))
	}
	return out
}

func hCheckStar(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if slices.Contains(c.user.starred, r) {
		c.empty(http.StatusNoContent)
		return
	}
	c.notFound()
}

// hStar stars (or unstars) a repository; both are idempotent 204s.
func hStar(star bool) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil {
			return
		}
		u := c.user
		has := slices.Contains(u.starred, r)
		switch {
		case star && !has:
			u.starred = append(u.starred, r)
			r.stargazers = append(r.stargazers, u)
		case !star && has:
			u.starred = slices.DeleteFunc(u.starred, func(x *repo) bool { return x == r })
			r.stargazers = slices.DeleteFunc(r.stargazers, func(x *user) bool { return x == u })
		}
		c.empty(http.StatusNoContent)
	}
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
	var body struct {
		Name          string `json:"name"`
		Description   string `json:"description"`
		Private       bool   `json:"private"`
		AutoInit      bool   `json:"auto_init"`
		DefaultBranch string `json:"default_branch"`
	}
	if !c.decode(&body) || !c.checkRepoName(body.Name) {
		return
	}
	if c.st.repo(c.user.login, body.Name) != nil {
		c.fail(http.StatusConflict, "The repository with the same name already exists.")
		return
	}
	c.createRepo(c.user, body.Name, body.Description, body.Private, body.AutoInit, body.DefaultBranch)
}

// createRepo makes the repository of a create request and answers 201.
func (c *call) createRepo(owner *user, name, description string, private, autoInit bool, defaultBranch string) {
	r := c.st.addRepo(owner, name, autoInit, defaultBranch, c.now)
	r.description, r.private = description, private
	if autoInit {
		// auto_init's README is "# name\n\ndescription", no final newline.
		for _, cm := range r.commits {
			cm.files["README.md"] = "# " + name + "\n\n" + description
		}
	}
	c.json(http.StatusCreated, c.v.repo(r, 0))
	c.s.emitRepo(c, r, "created")
}
