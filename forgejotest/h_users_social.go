package forgejotest

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html"
	"image"
	_ "image/gif" // avatar formats Forgejo reads
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Blocking, avatars, renaming accounts.

// ---- blocking (Forgejo only)

type blockRec struct {
	blocker, blockee *user
	created          time.Time
}

type wBlockedUser struct {
	BlockID int64  `json:"block_id"`
	Created string `json:"created_at"`
}

func (a *accountsState) blocked(blocker, blockee *user) bool {
	return slices.ContainsFunc(a.blocks, func(b *blockRec) bool { return b.blocker == blocker && b.blockee == blockee })
}

// hBlock blocks (or unblocks) {username} for the caller or, with org, for
// {org} (its owners only). Both are idempotent 204s, for oneself too.
// Blocking undoes what Forgejo's BlockUser undoes that the fake models: the
// follows between the two, and the blocked user's collaborations on the
// blocker's repositories. The fake does not stop a blocked user from following,
// commenting or starring afterwards.
func hBlock(org, block bool) func(c *call) {
	return func(c *call) {
		blocker := c.user
		if org {
			if blocker = c.pathOrg(); blocker == nil || !c.isOrgOwner(blocker) {
				return
			}
		}
		target := c.pathUser("username")
		if target == nil {
			return
		}
		if !org && target.org != nil {
			c.fail(http.StatusUnprocessableEntity, target.login+" is an organization")
			return
		}
		if target == c.user {
			// Forgejo 15 takes blocking yourself as done already: 204, and
			// the block list stays empty (its BlockUser returns early for
			// one's own id). Unblocking yourself is the same no-op.
			c.empty(http.StatusNoContent)
			return
		}
		a := &c.st.accounts
		switch {
		case block && !a.blocked(blocker, target):
			a.blocks = append(a.blocks, &blockRec{blocker: blocker, blockee: target, created: c.now})
			blocker.following = slices.DeleteFunc(blocker.following, func(x *user) bool { return x == target })
			target.following = slices.DeleteFunc(target.following, func(x *user) bool { return x == blocker })
			for _, r := range c.st.reposInOrder {
				if r.owner == blocker {
					r.collaborators = slices.DeleteFunc(r.collaborators, func(x *collaborator) bool { return x.u == target })
				}
			}
		case !block:
			a.blocks = slices.DeleteFunc(a.blocks, func(b *blockRec) bool { return b.blocker == blocker && b.blockee == target })
		}
		c.empty(http.StatusNoContent)
	}
}

func hListBlocked(org bool) func(c *call) {
	return func(c *call) {
		blocker := c.user
		if org {
			if blocker = c.pathOrg(); blocker == nil || !c.isOrgOwner(blocker) {
				return
			}
		}
		var mine []*blockRec
		for _, b := range c.st.accounts.blocks {
			if b.blocker == blocker {
				mine = append(mine, b)
			}
		}
		out := []*wBlockedUser{}
		for _, b := range paginate(c, mine, pageTotalOnly) {
			out = append(out, &wBlockedUser{BlockID: b.blockee.id, Created: ts(b.created)})
		}
		c.json(http.StatusOK, out)
	}
}

// ---- avatars

// Forgejo's [avatar] defaults.
const (
	avatarMaxSize   = 1 << 20 // MAX_FILE_SIZE
	avatarMaxPixels = 4096    // MAX_WIDTH and MAX_HEIGHT
)

// hSetAvatar sets the caller's (or, with org, {org}'s) avatar from a
// base64 image: not base64 is a 400, not a PNG, JPEG or GIF (or too large)
// the 500 of UploadAvatar. The avatar URL changes to the image's hash.
func hSetAvatar(org bool) func(c *call) {
	return func(c *call) {
		u := c.user
		if org {
			if u = c.pathOrg(); u == nil || !c.isOrgOwner(u) {
				return
			}
		}
		data, ok := c.avatarImage()
		if !ok {
			return
		}
		sum := sha256.Sum256(append([]byte(strconv.FormatInt(u.id, 10)+"-"), data...))
		c.st.accounts.profile(u).avatar = hex.EncodeToString(sum[:])
		c.empty(http.StatusNoContent)
	}
}

// avatarImage reads an avatar upload's base64 image, answering what Forgejo
// answers: not base64 is a 400; too large, no PNG, JPEG or GIF, or too many
// pixels is UploadAvatar's 500. Users, organizations and repositories
// share it.
func (c *call) avatarImage() ([]byte, bool) {
	var b struct {
		Image string `json:"image"`
	}
	if !c.decode(&b) {
		return nil, false
	}
	data, err := base64.StdEncoding.DecodeString(b.Image)
	if err != nil {
		c.fail(http.StatusBadRequest, err.Error())
		return nil, false
	}
	if len(data) > avatarMaxSize {
		c.internalError("UploadAvatar: image is too large")
		return nil, false
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	switch {
	case err != nil:
		c.internalError("UploadAvatar: image.DecodeConfig: " + err.Error())
		return nil, false
	case cfg.Width > avatarMaxPixels:
		c.internalError(fmt.Sprintf("UploadAvatar: image width is too large: %d > %d", cfg.Width, avatarMaxPixels))
		return nil, false
	case cfg.Height > avatarMaxPixels:
		c.internalError(fmt.Sprintf("UploadAvatar: image height is too large: %d > %d", cfg.Height, avatarMaxPixels))
		return nil, false
	}
	return data, true
}

func hDeleteAvatar(org bool) func(c *call) {
	return func(c *call) {
		u := c.user
		if org {
			if u = c.pathOrg(); u == nil || !c.isOrgOwner(u) {
				return
			}
		}
		if p := c.st.accounts.profiles[u]; p != nil {
			p.avatar = ""
		}
		c.empty(http.StatusNoContent)
	}
}

// ---- account names

var (
	usernameRE        = regexp.MustCompile(`^[\da-zA-Z][-.\w]*$`)
	usernameBadRunsRE = regexp.MustCompile(`[-._]{2,}|[-._]$`)
)

// reservedNames and reservedPatterns are Forgejo's IsUsableUsername lists.
var (
	reservedNames = []string{".", "..", ".well-known", "admin", "api", "assets", "attachments", "avatar", "avatars",
		"captcha", "commits", "debug", "devtest", "error", "explore", "favicon.ico", "ghost", "issues", "login",
		"manifest.json", "metrics", "milestones", "new", "notifications", "org", "pulls", "raw", "repo",
		"repo-avatars", "robots.txt", "search", "serviceworker.js", "ssh_info", "swagger.v1.json", "user", "v2",
		"gitea-actions", "forgejo-actions"}
	reservedPatterns = []string{".keys", ".gpg", ".rss", ".atom", ".png"}
)

// nameProblem says why name cannot name an account ("" when it can):
// "chars", "reserved", "pattern" or "taken" (by another account than u).
func (st *state) nameProblem(name string, u *user) string {
	lower := strings.ToLower(name)
	switch {
	case !usernameRE.MatchString(name) || usernameBadRunsRE.MatchString(name):
		return "chars"
	case slices.Contains(reservedNames, lower):
		return "reserved"
	case slices.ContainsFunc(reservedPatterns, func(p string) bool { return strings.HasSuffix(lower, p) }):
		return "pattern"
	}
	if other := st.user(name); other != nil && other != u {
		return "taken"
	}
	return ""
}

// renameUser renames an account (user or organization) and re-keys what
// the model finds by name: the account and its repositories. The old name
// redirects to the account until another account takes it, as Forgejo's
// user_redirect does.
func (st *state) renameUser(u *user, name string) {
	if st.accounts.redirects == nil {
		st.accounts.redirects = map[string]*user{}
	}
	st.accounts.redirects[strings.ToLower(u.login)] = u
	delete(st.accounts.redirects, strings.ToLower(name))
	if p := st.accounts.profile(u); p.email == "" {
		p.email = st.accounts.primaryEmail(u) // an address does not follow a rename
	}
	delete(st.users, strings.ToLower(u.login))
	for _, r := range st.reposInOrder {
		if r.owner == u {
			delete(st.repos, strings.ToLower(u.login)+"/"+strings.ToLower(r.name))
		}
	}
	u.login = name
	st.users[strings.ToLower(name)] = u
	for _, r := range st.reposInOrder {
		if r.owner == u {
			st.repos[strings.ToLower(name)+"/"+strings.ToLower(r.name)] = r
		}
	}
}

// redirectRenamed answers, for a path naming an account by a name it had
// before a rename, Forgejo's RedirectToUser: a 307 to the same path with
// the current name (the client follows it). It reports whether it did.
func (c *call) redirectRenamed(name string) bool {
	u := c.st.accounts.redirects[strings.ToLower(name)]
	if u == nil {
		return false
	}
	loc := strings.Replace(c.r.URL.EscapedPath(), url.PathEscape(name), url.PathEscape(u.login), 1)
	if c.r.URL.RawQuery != "" {
		loc += "?" + c.r.URL.RawQuery
	}
	c.header.Set("Location", loc)
	c.header.Set("Content-Type", "text/html; charset=utf-8")
	c.status, c.out = http.StatusTemporaryRedirect, []byte("<a href=\""+html.EscapeString(loc)+"\">Temporary Redirect</a>.\n\n")
	return true
}

// hRenameOrg renames {org} (its owners only) as Forgejo's org.Rename does:
// a name that is taken, reserved or invalid is a 422 carrying the error.
func hRenameOrg(c *call) {
	o := c.pathOrg()
	if o == nil || !c.isOrgOwner(o) {
		return
	}
	var b struct {
		NewName string `json:"new_name"`
	}
	if !c.decode(&b) {
		return
	}
	if strings.TrimSpace(b.NewName) == "" {
		c.fail(http.StatusUnprocessableEntity, "[NewName]: Required")
		return
	}
	if b.NewName == o.login {
		c.empty(http.StatusNoContent)
		return
	}
	switch c.st.nameProblem(b.NewName, o) {
	case "chars":
		c.fail(http.StatusUnprocessableEntity, "name is invalid ["+b.NewName+"]: must be valid alpha or numeric or dash(-_) or dot characters")
		return
	case "reserved":
		c.fail(http.StatusUnprocessableEntity, "name is reserved [name: "+b.NewName+"]")
		return
	case "pattern":
		c.fail(http.StatusUnprocessableEntity, "name pattern is not allowed [pattern: "+b.NewName+"]")
		return
	case "taken":
		c.fail(http.StatusUnprocessableEntity, "user already exists [name: "+b.NewName+"]")
		return
	}
	c.st.renameUser(o, b.NewName)
	c.empty(http.StatusNoContent)
}

// ---- heatmap

type wHeatmap struct {
	Timestamp     int64 `json:"timestamp"`
	Contributions int64 `json:"contributions"`
}

// activityTimes are the moments u did something Forgejo records as an
// action the fake can see in its model: creating a repository of their
// own, an issue or a pull request, a comment, a release, a merge.
func (st *state) activityTimes(u *user) []time.Time {
	var out []time.Time
	for _, r := range st.reposInOrder {
		if r.owner == u {
			out = append(out, r.created)
		}
		for _, is := range r.issues {
			if is == nil {
				continue
			}
			if is.poster == u {
				out = append(out, is.created)
			}
			for _, cm := range is.comments {
				if cm.poster == u {
					out = append(out, cm.created)
				}
			}
			if is.pull != nil && is.pull.merged && is.pull.mergedBy == u {
				out = append(out, is.pull.mergedAt)
			}
		}
		for _, rel := range r.releases {
			if rel.author == u && !rel.draft {
				out = append(out, rel.published)
			}
		}
	}
	return out
}

// hHeatmap is Forgejo's heatmap: the user's actions of the last year
// counted in 15-minute buckets, oldest first; nothing for someone else
// (but an administrator) when the user hides their activity.
func hHeatmap(c *call) {
	u := c.pathUser("username")
	if u == nil {
		return
	}
	out := []*wHeatmap{}
	if p := c.st.accounts.profiles[u]; p != nil && p.hideActivity && (c.user == nil || (c.user != u && !c.user.isAdmin)) {
		c.json(http.StatusOK, out)
		return
	}
	counts := map[int64]int64{}
	since := c.now.Unix() - 365*24*3600
	for _, t := range c.st.activityTimes(u) {
		if s := t.Unix(); s > since {
			counts[s/900*900]++
		}
	}
	for ts, n := range counts {
		out = append(out, &wHeatmap{Timestamp: ts, Contributions: n})
	}
	slices.SortFunc(out, func(a, b *wHeatmap) int { return int(a.Timestamp - b.Timestamp) })
	c.json(http.StatusOK, out)
}

// ---- unadopted repositories

// hAdopt answers adminAdoptRepository and adminDeleteUnadoptedRepository:
// Forgejo acts only on a directory without a repository, and the fake has
// no disk, so after the owner's lookup every one is the 404 Forgejo sends
// for a repository that exists or a directory that does not.
func hAdopt(c *call) {
	if c.pathUser("owner") == nil {
		return
	}
	c.notFound()
}
