package forgejotest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// SSH keys, GPG keys and access tokens.

// ---- SSH keys

type publicKey struct {
	id          int64
	owner       *user
	title       string
	content     string // "type base64[ comment]"
	fingerprint string // SHA256:…
	created     time.Time
}

type wPublicKey struct {
	ID          int64  `json:"id"`
	Key         string `json:"key"`
	URL         string `json:"url,omitempty"`
	Title       string `json:"title,omitempty"`
	Fingerprint string `json:"fingerprint,omitempty"`
	Created     string `json:"created_at"`
	Owner       *wUser `json:"user,omitempty"`
	ReadOnly    bool   `json:"read_only,omitempty"`
	KeyType     string `json:"key_type,omitempty"`
}

// publicKey renders k; its owner and a site administrator also see the
// owner (rendered as the owner sees themself) and the key type, as
// appendPrivateInformation adds them.
func (c *call) publicKey(k *publicKey) *wPublicKey {
	w := &wPublicKey{ID: k.id, Key: k.content, URL: c.v.api("/user/keys/" + strconv.FormatInt(k.id, 10)),
		Title: k.title, Fingerprint: k.fingerprint, Created: ts(k.created)}
	if c.user != nil && (c.user.isAdmin || c.user == k.owner) {
		self := c.v
		self.viewer = k.owner
		w.Owner, w.KeyType = self.user(k.owner), "user"
	}
	return w
}

// sshMinBits are Forgejo's default [ssh.minimum_key_sizes] (DSA is
// disabled: "key is not allowed"). MINIMUM_KEY_SIZE_CHECK is on by default.
var sshMinBits = map[string]int{"ed25519": 256, "ed25519-sk": 256, "ecdsa": 256, "ecdsa-sk": 256, "rsa": 3071}

// sshKeyTypes maps an OpenSSH algorithm name to the name the size check
// uses.
var sshKeyTypes = map[string]string{
	"ssh-ed25519": "ed25519", "sk-ssh-ed25519@openssh.com": "ed25519-sk",
	"ecdsa-sha2-nistp256": "ecdsa", "ecdsa-sha2-nistp384": "ecdsa", "ecdsa-sha2-nistp521": "ecdsa",
	"sk-ecdsa-sha2-nistp256@openssh.com": "ecdsa-sk", "ssh-rsa": "rsa", "ssh-dss": "dsa",
}

func sshString(b []byte) (s, rest []byte, ok bool) {
	if len(b) < 4 {
		return nil, nil, false
	}
	n := binary.BigEndian.Uint32(b)
	if uint64(len(b)-4) < uint64(n) {
		return nil, nil, false
	}
	return b[4 : 4+n], b[4+n:], true
}

// checkSSHKey is Forgejo's CheckPublicKeyString for the one-line OpenSSH
// format ("type base64 [comment]"), with the native parser: it returns the
// normalized content and the SHA256 fingerprint of the key, or the error
// that follows "Invalid key content: ". RFC 4716 and PEM keys are not
// read (the fake refuses them as unparsable).
func checkSSHKey(raw string) (content, fingerprint, errMsg string) {
	raw = strings.TrimSpace(raw)
	if strings.ContainsAny(raw, "\r\n") {
		return "", "", "key contains new line"
	}
	parts := strings.SplitN(raw, " ", 3)
	keyType, b64, comment := "", parts[0], ""
	if len(parts) > 1 {
		keyType, b64 = parts[0], parts[1]
	}
	if len(parts) > 2 {
		comment = strings.TrimSpace(parts[2])
	}
	blob, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return "", "", "extractTypeFromBase64Key: invalid key format: " + err.Error()
	}
	if len(blob) < 4 {
		// Forgejo wraps a nil error here, and says so.
		return "", "", "extractTypeFromBase64Key: invalid key format: %!w(<nil>)"
	}
	t, rest, ok := sshString(blob)
	if !ok {
		return "", "", fmt.Sprintf("extractTypeFromBase64Key: invalid key format: not enough length %d", binary.BigEndian.Uint32(blob))
	}
	if keyType == "" {
		keyType = string(t)
	} else if keyType != string(t) {
		return "", "", fmt.Sprintf("key type and content does not match: %s - %s", keyType, t)
	}
	bits, ok := sshKeyBits(keyType, rest)
	if !ok {
		return "", "", "invalid ssh public key: ssh: no key found"
	}
	kind := sshKeyTypes[keyType]
	minBits, allowed := sshMinBits[kind]
	switch {
	case !allowed:
		return "", "", "key is not allowed: " + kind
	case bits < minBits:
		return "", "", fmt.Sprintf("key length is not enough: got %d, needs %d", bits, minBits)
	}
	content = keyType + " " + b64
	if comment != "" {
		content += " " + comment
	}
	sum := sha256.Sum256(blob)
	return content, "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:]), ""
}

// sshKeyBits reads the key material after the algorithm name and returns
// the key's size in bits.
func sshKeyBits(keyType string, b []byte) (int, bool) {
	fields := func(n int) ([][]byte, bool) {
		var out [][]byte
		for range n {
			f, rest, ok := sshString(b)
			if !ok {
				return nil, false
			}
			out, b = append(out, f), rest
		}
		return out, len(b) == 0
	}
	switch keyType {
	case "ssh-ed25519":
		f, ok := fields(1)
		return 256, ok && len(f[0]) == 32
	case "sk-ssh-ed25519@openssh.com":
		f, ok := fields(2)
		return 256, ok && len(f[0]) == 32
	case "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521":
		f, ok := fields(2)
		if !ok || "ecdsa-sha2-"+string(f[0]) != keyType || len(f[1]) == 0 || f[1][0] != 4 {
			return 0, false
		}
		n, _ := strconv.Atoi(strings.TrimPrefix(string(f[0]), "nistp"))
		return n, true
	case "sk-ecdsa-sha2-nistp256@openssh.com":
		_, ok := fields(3)
		return 256, ok
	case "ssh-rsa":
		f, ok := fields(2)
		if !ok {
			return 0, false
		}
		return new(big.Int).SetBytes(f[1]).BitLen(), true
	case "ssh-dss":
		_, ok := fields(4)
		return 1024, ok
	}
	return 0, false
}

// keySubject is the user a key route creates or deletes for: the caller,
// or {username} for the administrator's routes.
func (c *call) keySubject(admin bool) *user {
	if admin {
		return c.pathUser("username")
	}
	return c.user
}

func hCreateKey(admin bool) func(c *call) {
	return func(c *call) {
		u := c.keySubject(admin)
		if u == nil {
			return
		}
		var b struct {
			Title string `json:"title"`
			Key   string `json:"key"`
		}
		if !c.decode(&b) {
			return
		}
		switch {
		case strings.TrimSpace(b.Title) == "":
			c.fail(http.StatusUnprocessableEntity, "[Title]: Required")
			return
		case len([]rune(b.Title)) > 50:
			c.fail(http.StatusUnprocessableEntity, "[Title]: MaxSize")
			return
		case strings.TrimSpace(b.Key) == "":
			c.fail(http.StatusUnprocessableEntity, "[Key]: Required")
			return
		}
		content, fp, msg := checkSSHKey(b.Key)
		if msg != "" {
			c.fail(http.StatusUnprocessableEntity, "Invalid key content: "+msg)
			return
		}
		for _, k := range c.st.accounts.keys {
			if k.fingerprint == fp {
				c.fail(http.StatusUnprocessableEntity, "Key content has been used as non-deploy key")
				return
			}
		}
		for _, k := range c.st.accounts.keys {
			if k.owner == u && k.title == b.Title {
				c.fail(http.StatusUnprocessableEntity, "Key title has been used")
				return
			}
		}
		k := &publicKey{id: c.st.id("key"), owner: u, title: b.Title, content: content, fingerprint: fp, created: c.now}
		c.st.accounts.keys = append(c.st.accounts.keys, k)
		c.json(http.StatusCreated, c.publicKey(k))
	}
}

// hListKeys lists a user's keys; ?fingerprint= finds keys by fingerprint
// instead (the caller's own route searches every user's keys, as Forgejo
// does).
func hListKeys(current bool) func(c *call) {
	return func(c *call) {
		u := c.subject(current)
		if u == nil {
			return
		}
		fp := c.q.Get("fingerprint")
		var ks []*publicKey
		for _, k := range c.st.accounts.keys {
			switch {
			case fp != "" && k.fingerprint == fp && (current || k.owner == u):
				ks = append(ks, k)
			case fp == "" && k.owner == u:
				ks = append(ks, k)
			}
		}
		if fp == "" {
			ks = paginate(c, ks, pageTotalOnly)
		} else {
			c.header.Set("X-Total-Count", strconv.Itoa(len(ks)))
			c.header.Set("Access-Control-Expose-Headers", "X-Total-Count")
		}
		out := []*wPublicKey{}
		for _, k := range ks {
			out = append(out, c.publicKey(k))
		}
		c.json(http.StatusOK, out)
	}
}

func (c *call) keyByID() *publicKey {
	id, _ := c.pathInt("id")
	for _, k := range c.st.accounts.keys {
		if k.id == id {
			return k
		}
	}
	return nil
}

// hGetKey answers any user's key by id, as Forgejo does; only the owner
// and administrators see whose it is.
func hGetKey(c *call) {
	k := c.keyByID()
	if k == nil {
		c.notFound()
		return
	}
	c.json(http.StatusOK, c.publicKey(k))
}

// hDeleteKey deletes a key as DeletePublicKey does: the doer (the caller,
// or {username} on the administrator's route) must own it or be an
// administrator.
func hDeleteKey(admin bool) func(c *call) {
	return func(c *call) {
		doer := c.keySubject(admin)
		if doer == nil {
			return
		}
		k := c.keyByID()
		if k == nil {
			c.notFound()
			return
		}
		if !doer.isAdmin && doer != k.owner {
			c.fail(http.StatusForbidden, "You do not have access to this key")
			return
		}
		c.st.accounts.keys = slices.DeleteFunc(c.st.accounts.keys, func(x *publicKey) bool { return x == k })
		c.empty(http.StatusNoContent)
	}
}

// ---- access tokens

type accessToken struct {
	id      int64
	owner   *user
	name    string
	sha     string
	scopes  []string // normalized
	repos   []*repo  // a repository-restricted token's (scopes.go), nil for any
	created time.Time
}

type wAccessToken struct {
	ID             int64        `json:"id"`
	Name           string       `json:"name"`
	SHA1           string       `json:"sha1"`
	TokenLastEight string       `json:"token_last_eight"`
	Scopes         []string     `json:"scopes"`
	Repositories   []*wRepoMeta `json:"repositories"`
}

func (t *accessToken) render(withSecret bool) *wAccessToken {
	w := &wAccessToken{ID: t.id, Name: t.name, TokenLastEight: t.sha[len(t.sha)-8:], Scopes: slices.Clone(t.scopes), Repositories: renderTokenRepos(t.repos)}
	if withSecret {
		w.SHA1 = t.sha
	}
	return w
}

// scopeCategories are the categories of Forgejo's token scopes, in the
// order its normalized scope lists them.
var scopeCategories = []string{"activitypub", "admin", "misc", "notification", "organization", "package", "issue", "repository", "user"}

// normalizeScopes is AccessTokenScope.Normalize: write implies read, "all"
// is every write scope, "public-only" comes first, and the result names
// each category once, in Forgejo's order.
func normalizeScopes(in []string) ([]string, string) {
	level := map[string]int{} // 1 read, 2 write
	publicOnly := false
	for _, raw := range strings.Split(strings.Join(in, ","), ",") {
		s := strings.TrimSpace(raw)
		switch {
		case s == "":
			continue
		case s == "all":
			for _, cat := range scopeCategories {
				level[cat] = 2
			}
			continue
		case s == "public-only":
			publicOnly = true
			continue
		case s == "sudo":
			// Accepted and dropped, as Forgejo 15 does: alone it leaves
			// no scope, refused "access token must have a scope".
			continue
		}
		mode, cat, ok := strings.Cut(s, ":")
		if !ok || !slices.Contains(scopeCategories, cat) || (mode != "read" && mode != "write") {
			return nil, "invalid access token scope: " + s
		}
		if mode == "write" {
			level[cat] = 2
		} else {
			level[cat] = max(level[cat], 1)
		}
	}
	var out []string
	if publicOnly {
		out = append(out, "public-only")
	}
	all := true
	for _, cat := range scopeCategories {
		all = all && level[cat] == 2
	}
	if all {
		return append(out, "all"), ""
	}
	for _, cat := range scopeCategories {
		switch level[cat] {
		case 2:
			out = append(out, "write:"+cat)
		case 1:
			out = append(out, "read:"+cat)
		}
	}
	return out, ""
}

// tokenSubject resolves {username} for the token routes. The user's own
// routes check, in Forgejo's order, reqSelfOrAdmin and (to create or
// delete) reqBasicOrRevProxyAuth: a token cannot mint tokens. The
// administrator's routes (Forgejo 16) need neither.
func (c *call) tokenSubject(admin, needBasic bool) *user {
	u := c.pathUser("username")
	if u == nil || admin {
		return u
	}
	if c.user == nil || (c.user != u && !c.user.isAdmin) {
		c.fail(http.StatusForbidden, "doer should be the site admin or be same as the contextUser")
		return nil
	}
	// Forgejo 15 lists tokens for a token-authenticated caller (observed;
	// Gitea 1.27 answers 401 "auth required"), but creating and deleting
	// want a password: a token gets 401 "auth method not allowed" (Gitea
	// 1.27: "auth required").
	if needBasic && !c.basicAuth() {
		c.fail(http.StatusUnauthorized, "auth method not allowed")
		return nil
	}
	return u
}

func (a *accountsState) tokensOf(u *user, st *state) []*accessToken {
	var out []*accessToken
	for _, t := range a.tokens {
		if t.owner == u && st.tokens[t.sha] == u {
			out = append(out, t)
		}
	}
	return out
}

func hListTokens(admin bool) func(c *call) {
	return func(c *call) {
		u := c.tokenSubject(admin, false)
		if u == nil {
			return
		}
		out := []*wAccessToken{}
		for _, t := range paginate(c, c.st.accounts.tokensOf(u, c.st), pageTotalOnly) {
			out = append(out, t.render(false))
		}
		c.json(http.StatusOK, out)
	}
}

func hCreateToken(admin bool) func(c *call) {
	return func(c *call) {
		u := c.tokenSubject(admin, true)
		if u == nil {
			return
		}
		var b struct {
			Name         string        `json:"name"`
			Scopes       []string      `json:"scopes"`
			Repositories *[]repoTarget `json:"repositories"`
		}
		if !c.decode(&b) {
			return
		}
		if strings.TrimSpace(b.Name) == "" {
			c.fail(http.StatusUnprocessableEntity, "[Name]: Required")
			return
		}
		for _, t := range c.st.accounts.tokensOf(u, c.st) {
			if t.name == b.Name {
				c.fail(http.StatusBadRequest, "access token name has been used already")
				return
			}
		}
		scopes, msg := normalizeScopes(b.Scopes)
		switch {
		case msg != "":
			c.fail(http.StatusBadRequest, "invalid access token scope provided: "+msg)
			return
		case len(scopes) == 0:
			c.fail(http.StatusBadRequest, "access token must have a scope")
			return
		}
		repos, ok := c.tokenRepositories(u, b.Repositories, scopes)
		if !ok {
			return
		}
		// The token is a real one: it authenticates from now on.
		t := &accessToken{id: c.st.id("token"), owner: u, name: b.Name, sha: c.st.newToken(u), scopes: scopes, repos: repos, created: c.now}
		c.st.accounts.tokens = append(c.st.accounts.tokens, t)
		c.json(http.StatusCreated, t.render(true))
	}
}

// hDeleteToken deletes a token named by id or, failing that, by name (a
// name two tokens share is a 422); the token stops authenticating.
func hDeleteToken(admin bool) func(c *call) {
	return func(c *call) {
		u := c.tokenSubject(admin, true)
		if u == nil {
			return
		}
		ref := c.p["token"]
		mine := c.st.accounts.tokensOf(u, c.st)
		var target *accessToken
		if id, err := strconv.ParseInt(ref, 0, 64); err == nil && id != 0 {
			for _, t := range mine {
				if t.id == id {
					target = t
				}
			}
		} else {
			var named []*accessToken
			for _, t := range mine {
				if t.name == ref {
					named = append(named, t)
				}
			}
			if len(named) > 1 {
				c.fail(http.StatusUnprocessableEntity, "multiple matches for token name '"+ref+"'")
				return
			}
			if len(named) == 1 {
				target = named[0]
			}
		}
		if target == nil {
			c.notFound()
			return
		}
		delete(c.st.tokens, target.sha)
		c.st.accounts.tokens = slices.DeleteFunc(c.st.accounts.tokens, func(x *accessToken) bool { return x == target })
		c.empty(http.StatusNoContent)
	}
}
