package forgejotest

import (
	"net/http"
	"slices"
	"strings"
)

// Users: the current user, profiles, follows, stars. Accounts (e-mail
// addresses, settings, OAuth2 applications, search) are in
// h_users_accounts.go, SSH keys and access tokens in h_users_keys.go, GPG
// keys in h_users_gpg.go, blocks, avatars and renames in h_users_social.go.

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

// badCredentials is the 401 message for credentials that name nobody.
// Forgejo 15 says which token it could not find, echoing it as sent
// ("access token does not exist [sha: …]"); clients must keep it out of
// their logs. Other credentials get the generic refusal.
func badCredentials(r *http.Request) string {
	scheme, cred, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	switch strings.ToLower(scheme) {
	case "token", "bearer":
		return "access token does not exist [sha: " + strings.TrimSpace(cred) + "]"
	}
	return "invalid username, password or token"
}
