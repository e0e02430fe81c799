package forgejotest

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
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
