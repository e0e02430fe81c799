package forgejotest

import (
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Push mirrors, as Forgejo's mirror.go: administrators register remotes
// the repository is pushed to. The fake pushes nowhere: a sync only marks
// the mirrors updated. It has no pull mirrors either, so mirror-sync is
// always "not a mirror".

type pushMirror struct {
	remoteName   string
	address      string
	interval     time.Duration
	syncOnCommit bool
	branchFilter string
	created      time.Time
	lastUpdate   time.Time
}

type wPushMirror struct {
	RepoName      string  `json:"repo_name"`
	RemoteName    string  `json:"remote_name"`
	RemoteAddress string  `json:"remote_address"`
	Created       string  `json:"created"`
	LastUpdate    *string `json:"last_update"`
	LastError     string  `json:"last_error"`
	Interval      string  `json:"interval"`
	SyncOnCommit  bool    `json:"sync_on_commit"`
	PublicKey     string  `json:"public_key"`
	BranchFilter  string  `json:"branch_filter"`
}

func (m *moreState) pushMirrorsOf(r *repo) []*pushMirror {
	if m.pushMirrors == nil {
		m.pushMirrors = map[*repo][]*pushMirror{}
	}
	return m.pushMirrors[r]
}

func pushMirrorJSON(r *repo, m *pushMirror) *wPushMirror {
	return &wPushMirror{
		RepoName: r.name, RemoteName: m.remoteName, RemoteAddress: m.address, Created: ts(m.created),
		LastUpdate: nts(m.lastUpdate), Interval: m.interval.String(), SyncOnCommit: m.syncOnCommit, BranchFilter: m.branchFilter,
	}
}

func hListPushMirrors(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	out := []*wPushMirror{}
	for _, m := range paginate(c, c.st.more.pushMirrorsOf(r), pageLinked) {
		out = append(out, pushMirrorJSON(r, m))
	}
	c.json(http.StatusOK, out)
}

func hGetPushMirror(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	for _, m := range c.st.more.pushMirrorsOf(r) {
		if m.remoteName == c.p["name"] {
			c.json(http.StatusOK, pushMirrorJSON(r, m))
			return
		}
	}
	c.fail(http.StatusNotFound, "%!s(<nil>)") // Forgejo formats a nil error here
}

// mirrorAddressAllowed is Forgejo's check of a push mirror's address:
// http, https or ssh, and (ALLOW_LOCALNETWORKS being false) not a loopback,
// private, link-local or unspecified address.
func mirrorAddressAllowed(raw string) (status int, msg string) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return http.StatusBadRequest, "Invalid Url "
	}
	switch u.Scheme {
	case "http", "https", "ssh":
	default:
		return http.StatusBadRequest, "Invalid mirror protocol"
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return http.StatusUnauthorized, "Permission denied"
	}
	if ip := net.ParseIP(host); ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified()) {
		return http.StatusUnauthorized, "Permission denied"
	}
	return 0, ""
}

func hAddPushMirror(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) || !c.notArchived(r) {
		return
	}
	var b struct {
		RemoteAddress  string `json:"remote_address"`
		RemoteUsername string `json:"remote_username"`
		RemotePassword string `json:"remote_password"`
		Interval       string `json:"interval"`
		SyncOnCommit   bool   `json:"sync_on_commit"`
		BranchFilter   string `json:"branch_filter"`
		UseSSH         bool   `json:"use_ssh"`
	}
	if !c.decode(&b) {
		return
	}
	iv, err := time.ParseDuration(b.Interval)
	switch {
	case err != nil:
		c.fail(http.StatusBadRequest, err.Error())
		return
	case iv != 0 && iv < 10*time.Minute: // [mirror] MIN_INTERVAL
		c.fail(http.StatusBadRequest, "%!s(<nil>)") // Forgejo formats a nil error here
		return
	case b.UseSSH && (b.RemoteUsername != "" || b.RemotePassword != ""):
		c.fail(http.StatusBadRequest, "'use_ssh' is mutually exclusive with 'remote_username' and 'remote_passoword'")
		return
	}
	if st, msg := mirrorAddressAllowed(b.RemoteAddress); st != 0 {
		c.fail(st, msg)
		return
	}
	// The stored address keeps the user name, never the password.
	addr := b.RemoteAddress
	if u, err := url.Parse(addr); err == nil {
		if b.RemoteUsername != "" {
			u.User = url.User(b.RemoteUsername)
		} else if u.User != nil {
			u.User = url.User(u.User.Username())
		}
		addr = u.String()
	}
	var suffix [5]byte
	if _, err := rand.Read(suffix[:]); err != nil {
		panic("forgejotest: no randomness: " + err.Error())
	}
	m := &pushMirror{remoteName: "remote_mirror_" + hex.EncodeToString(suffix[:]), address: addr, interval: iv,
		syncOnCommit: b.SyncOnCommit, branchFilter: b.BranchFilter, created: c.now}
	list := c.st.more.pushMirrorsOf(r) // makes the map
	c.st.more.pushMirrors[r] = append(list, m)
	c.json(http.StatusOK, pushMirrorJSON(r, m))
}

// hDeletePushMirror deletes by remote name; a name that is not there is
// 204 all the same, as Forgejo deletes without looking.
func hDeletePushMirror(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) || !c.notArchived(r) {
		return
	}
	list := c.st.more.pushMirrorsOf(r) // makes the map
	c.st.more.pushMirrors[r] = slices.DeleteFunc(list, func(m *pushMirror) bool { return m.remoteName == c.p["name"] })
	c.empty(http.StatusNoContent)
}

func hSyncPushMirrors(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) || !c.notArchived(r) {
		return
	}
	for _, m := range c.st.more.pushMirrorsOf(r) {
		m.lastUpdate = c.now
	}
	c.empty(http.StatusOK)
}

func hMirrorSync(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	c.fail(http.StatusBadRequest, "Repository is not a mirror")
}
