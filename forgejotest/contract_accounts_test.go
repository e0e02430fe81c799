package forgejotest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"slices"
	"strings"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// accountsArea is this area's part of the contract scenario: what bots and
// automation do to accounts and what a site administrator does.
func (s *scenario) accountsArea() {
	s.adminAccounts()
	s.accountKeys()
	s.accountEmails()
	s.accountSettingsAndApps()
	s.adminSite()
	s.accountAvatarsAndOrgs()
	s.packagesArea()
}

// packagesArea: the scenario cannot publish a package on both targets (the
// fake has no registry; see Server.AddPackage), so it checks the empty
// listing and the refusals.
func (s *scenario) packagesArea() {
	c2 := s.tg.c2
	u2 := s.tg.user2
	ps, resp, err := c2.Packages.List(s.ctx, u2, nil)
	s.must(err, "list packages")
	total, _ := resp.TotalCount()
	s.note("packages of user2: %d (total %d)", len(ps), total)
	_, _, err = s.tg.anon.Packages.List(s.ctx, u2, nil)
	e := s.apiErr(err, "packages anonymously")
	s.note("packages anonymously: %d %q", e.StatusCode, e.Message)
	check := func(what string, err error, title string) {
		s.t.Helper()
		e := s.apiErr(err, what)
		s.note("%s: %d", what, e.StatusCode)
		// Differs on purpose: Forgejo's ctx.Error sends the error alone,
		// Gitea 1.27 prefixes it with the step that failed.
		if want := map[bool]string{true: "package does not exist", false: title + ": package does not exist"}[s.tg.fake]; e.Message != want {
			s.t.Errorf("%s on %s: %q", what, s.tg.name, e.Message)
		}
	}
	_, _, err = c2.Packages.Get(s.ctx, u2, "generic", "nope", "1.0")
	check("a missing package", err, "GetVersionByNameAndVersion")
	_, _, err = c2.Packages.ListFiles(s.ctx, u2, "generic", "nope", "1.0")
	check("its files", err, "GetVersionByNameAndVersion")
	_, err = c2.Packages.Delete(s.ctx, u2, "generic", "nope", "1.0")
	check("deleting it", err, "GetVersionByNameAndVersion")
	_, err = c2.Packages.Link(s.ctx, u2, "generic", "nope", "some-repo")
	check("linking it", err, "GetPackageByName")
	_, err = c2.Packages.Unlink(s.ctx, u2, "generic", "nope")
	check("unlinking it", err, "GetPackageByName")
}

// uniq is a name no earlier run used, for things that outlive a failed run.
func uniq(prefix string) string { return fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano()%1e10) }

// send sends body as JSON with c and returns the error.
func (s *scenario) send(c *forgejo.Client, method, path string, body any) *forgejo.APIError {
	s.t.Helper()
	var out json.RawMessage
	_, err := c.Do(s.ctx, &forgejo.Request{Method: method, Path: path, Body: body}, &out)
	return s.apiErr(err, method+" "+path)
}

// clientFor builds a client for the target with extra options.
func (s *scenario) clientFor(opts ...forgejo.ClientOption) *forgejo.Client {
	s.t.Helper()
	c, err := forgejo.NewClient(append([]forgejo.ClientOption{forgejo.WithBaseURL(s.tg.url), forgejo.WithHTTPClient(s.tg.httpc),
		forgejo.WithRetryPolicy(FastRetry)}, opts...)...)
	s.must(err, "client")
	return c
}

func (s *scenario) adminAccounts() {
	c1, c2 := s.tg.c1, s.tg.c2
	bot, pw := uniq("bot"), "Bot-contract-Passw0rd"
	hide := func(msg string) string { return strings.ReplaceAll(msg, bot, "BOT") }

	e := s.send(c2, "POST", "/admin/users", map[string]any{"username": bot, "email": bot + "@example.org", "password": pw})
	s.note("admin create user as user2: %d %q", e.StatusCode, e.Message)
	mcp := false
	u, resp, err := c1.Admin.CreateUser(s.ctx, forgejo.CreateUserRequest{Username: bot, Email: bot + "@example.org", Password: pw,
		FullName: "Contract Bot", MustChangePassword: &mcp})
	s.must(err, "admin create user")
	s.note("admin create user: %d login ok %v, email ok %v, full name %q, admin %v, active %v",
		resp.StatusCode, u.Login == bot, u.Email == bot+"@example.org", u.FullName, u.IsAdmin, u.Active)
	// A new account must change its password first: it may not use the
	// API until then (the flag defaults to true).
	_, _, err = c1.Admin.CreateUser(s.ctx, forgejo.CreateUserRequest{Username: "mcp-" + bot, Email: "mcp-" + bot + "@example.org", Password: pw})
	s.must(err, "create a user who must change their password")
	_, _, err = s.clientFor(forgejo.WithBasicAuth("mcp-"+bot, pw)).Users.GetCurrent(s.ctx)
	// The refusal is a bare {"message"}, without the swagger url.
	var refused *forgejo.APIError
	if !errors.As(err, &refused) {
		s.t.Fatalf("must change password: %v", err)
	}
	s.note("a user who must change their password: %d %q, url %q", refused.StatusCode, strings.ReplaceAll(refused.Message, s.tg.url, "ROOT"), refused.URL)
	_, err = c1.Admin.DeleteUser(s.ctx, "mcp-"+bot, nil)
	s.must(err, "delete them")
	e = s.send(c1, "POST", "/admin/users", map[string]any{"username": bot, "email": "other-" + bot + "@example.org", "password": pw})
	s.note("create them again: %d %q", e.StatusCode, hide(e.Message))
	e = s.send(c1, "POST", "/admin/users", map[string]any{"username": "other-" + bot, "email": bot + "@example.org", "password": pw})
	s.note("another with their address: %d %q", e.StatusCode, hide(e.Message))
	e = s.send(c1, "POST", "/admin/users", map[string]any{"username": "bad name!", "email": "x@example.org", "password": pw})
	s.note("a bad username: %d %q", e.StatusCode, e.Message)
	e = s.send(c1, "POST", "/admin/users", map[string]any{"username": "short-" + bot, "email": "short-" + bot + "@example.org", "password": "abc"})
	s.note("a short password: %d %q", e.StatusCode, e.Message)

	listed := false
	for x, err := range c1.Admin.ListUsersIter(s.ctx, nil) {
		s.must(err, "admin list users")
		listed = listed || x.Login == bot
	}
	found, _, err := c2.Users.Search(s.ctx, &forgejo.UserSearchOptions{Query: bot})
	s.must(err, "user search")
	s.note("admin lists the bot %v; user2's search finds %d", listed, len(found))
	_, err = c2.Admin.RunCronTask(s.ctx, "repo_health_check")
	e = s.apiErr(err, "cron as user2")
	s.note("run a cron task as user2: %d %q", e.StatusCode, e.Message)

	ed, resp, err := c1.Admin.EditUser(s.ctx, bot, forgejo.EditUserRequest{FullName: forgejo.Ptr("Bot Two"), Location: forgejo.Ptr("Mars"),
		Website: forgejo.Ptr("https://example.org/bot"), Description: forgejo.Ptr("beep")})
	s.must(err, "admin edit user")
	pub, _, err := c2.Users.Get(s.ctx, bot)
	s.must(err, "get the bot")
	s.note("admin edit: %d %q %q %q %q; user2 sees %q %q", resp.StatusCode, ed.FullName, ed.Location, ed.Website, ed.Description, pub.Location, pub.Description)
	// Differs on purpose: Forgejo wants source_id and login_name together,
	// Gitea 1.27 takes login_name alone.
	var out json.RawMessage
	_, err = c1.Do(s.ctx, &forgejo.Request{Method: "PATCH", Path: "/admin/users/" + bot, Body: map[string]any{"login_name": "x"}}, &out)
	if s.tg.fake == (err == nil) {
		s.t.Errorf("admin edit with login_name alone on %s: %v", s.tg.name, err)
	}

	s.tokens(bot, pw, hide)

	// A repository of theirs keeps them from being deleted.
	r, resp, err := c1.Admin.CreateRepo(s.ctx, bot, forgejo.CreateRepoRequest{Name: "bot-repo", AutoInit: true})
	s.must(err, "admin create repo")
	s.note("admin create repo for the bot: %d owner ok %v, empty %v", resp.StatusCode, r.Owner != nil && r.Owner.Login == bot, r.Empty)
	_, err = c2.Admin.DeleteUser(s.ctx, bot, nil)
	e = s.apiErr(err, "delete as user2")
	s.note("delete as user2: %d", e.StatusCode)
	_, err = c1.Admin.DeleteUser(s.ctx, bot, nil)
	e = s.apiErr(err, "delete with a repository")
	s.note("delete with a repository: %d, owns repositories %v", e.StatusCode, strings.Contains(e.Message, "still has ownership of repositories"))
	_, err = c1.Admin.DeleteUser(s.ctx, s.tg.user1, nil)
	e = s.apiErr(err, "delete yourself")
	s.note("delete yourself: %d %q", e.StatusCode, e.Message)

	// Rename, then purge.
	renamed := bot + "-r"
	resp, err = c1.Admin.RenameUser(s.ctx, bot, forgejo.RenameUserRequest{NewUsername: renamed})
	s.must(err, "rename")
	_, _, errOld := c1.Users.Get(s.ctx, bot)
	_, _, errNew := c1.Users.Get(s.ctx, renamed)
	moved, _, errRepo := c1.Repos.Get(s.ctx, renamed, "bot-repo")
	s.note("rename: %d, old name found %v, new name found %v, repository follows %v", resp.StatusCode, errOld == nil, errNew == nil,
		errRepo == nil && moved.Owner.Login == renamed)
	_, err = c1.Admin.RenameUser(s.ctx, renamed, forgejo.RenameUserRequest{NewUsername: s.tg.user2})
	e = s.apiErr(err, "rename to a taken name")
	s.note("rename to a taken name: %d", e.StatusCode)
	// Differs on purpose: Forgejo words the refusal with its translation,
	// Gitea 1.27 sends the error.
	if want := map[bool]string{true: "The username is already taken.", false: "user already exists [name: " + s.tg.user2 + "]"}[s.tg.fake]; e.Message != want {
		s.t.Errorf("rename to a taken name on %s: %q", s.tg.name, e.Message)
	}
	// What they filed elsewhere stays, by the Ghost user.
	ghostRepo := uniq("ghost")
	_, _, err = c1.Repos.Create(s.ctx, forgejo.CreateRepoRequest{Name: ghostRepo, AutoInit: true})
	s.must(err, "a repository for the bot's issue")
	_, _, err = s.clientFor(forgejo.WithBasicAuth(renamed, pw)).Issues.Create(s.ctx, s.tg.user1, ghostRepo, forgejo.CreateIssueRequest{Title: "by the bot"})
	s.must(err, "the bot files an issue")
	resp, err = c1.Admin.DeleteUser(s.ctx, renamed, &forgejo.AdminDeleteUserOptions{Purge: forgejo.Ptr(true)})
	s.must(err, "purge")
	_, _, err = c1.Users.Get(s.ctx, renamed)
	e = s.apiErr(err, "deleted user")
	_, _, errRepo = c1.Repos.Get(s.ctx, renamed, "bot-repo")
	s.note("purge: %d, then the user %d, the repository gone %v", resp.StatusCode, e.StatusCode, errRepo != nil)
	is, _, err := c1.Issues.Get(s.ctx, s.tg.user1, ghostRepo, 1)
	s.must(err, "the bot's issue")
	g := is.User
	s.note("their issue's poster: id %d login %q email %q avatar ok %v html ok %v created %s", g.ID, g.Login, g.Email,
		g.AvatarURL == s.tg.url+"/assets/img/avatar_default.png", g.HTMLURL == s.tg.url+"/Ghost", g.Created.UTC().Format(time.RFC3339))
	_, err = c1.Repos.Delete(s.ctx, s.tg.user1, ghostRepo)
	s.must(err, "delete the ghost repository")
}

// tokens: a password mints tokens, a token does not; a minted token
// authenticates until it is deleted.
func (s *scenario) tokens(bot, pw string, hide func(string) string) {
	basic := s.clientFor(forgejo.WithBasicAuth(bot, pw))
	me, _, err := basic.Users.GetCurrent(s.ctx)
	s.must(err, "basic auth")
	s.note("basic auth with the password: login ok %v", me.Login == bot)

	tok, resp, err := basic.Users.CreateToken(s.ctx, bot, forgejo.CreateAccessTokenRequest{Name: "ci",
		Scopes: []string{"read:repository", "write:repository", "read:user"}})
	s.must(err, "create token")
	s.note("create token: %d name %q scopes %v, sha1 length %d, last eight ok %v", resp.StatusCode, tok.Name, tok.Scopes,
		len(tok.SHA1), strings.HasSuffix(tok.SHA1, tok.TokenLastEight))
	byToken := s.clientFor(forgejo.WithToken(tok.SHA1))
	me, _, err = byToken.Users.GetCurrent(s.ctx)
	s.must(err, "the new token")
	s.note("the new token authenticates: %v", me.Login == bot)

	all, _, err := basic.Users.CreateToken(s.ctx, bot, forgejo.CreateAccessTokenRequest{Name: "everything", Scopes: []string{"all"}})
	s.must(err, "token with all")
	s.note("token with scope all: %v", all.Scopes)
	for _, tc := range []struct {
		what string
		body map[string]any
	}{
		{"the same name", map[string]any{"name": "ci", "scopes": []string{"read:user"}}},
		{"a bad scope", map[string]any{"name": "bad", "scopes": []string{"read:everything"}}},
		{"no scope", map[string]any{"name": "none"}},
		{"no name", map[string]any{"scopes": []string{"read:user"}}},
	} {
		e := s.send(basic, "POST", "/users/"+bot+"/tokens", tc.body)
		s.note("token with %s: %d %q", tc.what, e.StatusCode, hide(e.Message))
	}
	e := s.send(byToken, "POST", "/users/"+bot+"/tokens", map[string]any{"name": "minted", "scopes": []string{"read:user"}})
	s.note("a token without write:user mints a token: %d", e.StatusCode)
	// Differs on purpose: Gitea 1.27 words the scope refusal anew
	// ("…scope(s), required=[write:user], token scope=…").
	if s.tg.fake != (e.Message == "token does not have at least one of required scope(s): [write:user]") {
		s.t.Errorf("scope refusal on %s: %q", s.tg.name, e.Message)
	}
	e = s.send(s.clientFor(forgejo.WithToken(all.SHA1)), "POST", "/users/"+bot+"/tokens", map[string]any{"name": "minted", "scopes": []string{"read:user"}})
	s.note("a token with scope all mints a token: %d %q", e.StatusCode, e.Message)
	set, _, err := byToken.Users.GetSettings(s.ctx)
	s.must(err, "read:user reads settings")
	e = s.send(byToken, "PATCH", "/user/settings", map[string]any{"location": "nowhere"})
	s.note("a token with read:user reads settings %v, edits them: %d", set != nil, e.StatusCode)
	e = s.send(s.tg.c2, "POST", "/users/"+bot+"/tokens", map[string]any{"name": "minted", "scopes": []string{"read:user"}})
	s.note("user2 mints one for the bot: %d %q", e.StatusCode, e.Message)

	ts, resp, err := basic.Users.ListTokens(s.ctx, bot, nil)
	s.must(err, "list tokens")
	var names []string
	for _, t := range ts {
		names = append(names, t.Name)
		if t.SHA1 != "" {
			s.t.Errorf("a listed token shows its secret on %s", s.tg.name)
		}
	}
	slices.Sort(names)
	s.note("list tokens: %d %v", resp.StatusCode, names)
	// Differs on purpose: Forgejo 15 lists tokens for a token (observed),
	// Gitea 1.27 wants Basic authentication.
	_, _, err = byToken.Users.ListTokens(s.ctx, bot, nil)
	if s.tg.fake != (err == nil) {
		s.t.Errorf("list tokens with a token on %s: %v", s.tg.name, err)
	}

	resp, err = basic.Users.DeleteToken(s.ctx, bot, "ci")
	s.must(err, "delete token by name")
	_, _, err = byToken.Users.GetCurrent(s.ctx)
	e = s.apiErr(err, "deleted token")
	s.note("delete token by name: %d, then it authenticates: %d", resp.StatusCode, e.StatusCode)
	resp, err = basic.Users.DeleteToken(s.ctx, bot, fmt.Sprint(all.ID))
	s.must(err, "delete token by id")
	_, err = basic.Users.DeleteToken(s.ctx, bot, "ci")
	e = s.apiErr(err, "delete it again")
	s.note("delete token by id: %d; a missing one: %d", resp.StatusCode, e.StatusCode)
}

// sshKey is a fresh ed25519 public key in authorized_keys form and its
// SHA256 fingerprint, computed here from the wire format.
func sshKey(comment string) (line, fingerprint string) {
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	var blob []byte
	for _, f := range [][]byte{[]byte("ssh-ed25519"), pub} {
		blob = binary.BigEndian.AppendUint32(blob, uint32(len(f)))
		blob = append(blob, f...)
	}
	sum := sha256.Sum256(blob)
	return "ssh-ed25519 " + base64.StdEncoding.EncodeToString(blob) + " " + comment,
		"SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

func (s *scenario) accountKeys() {
	c1, c2 := s.tg.c1, s.tg.c2
	// Leftovers of a failed run on the same server.
	old, _, err := c2.Users.ListMyKeys(s.ctx, nil)
	s.must(err, "list my keys")
	for _, k := range old {
		if k.Title == "contract" || k.Title == "by admin" {
			_, err = c2.Users.DeleteKey(s.ctx, k.ID)
			s.must(err, "delete a leftover key")
		}
	}
	keys, resp, err := c2.Users.ListMyKeys(s.ctx, nil)
	s.must(err, "list my keys")
	total, _ := resp.TotalCount()
	s.note("user2's keys: %d (total %d)", len(keys), total)
	_, _, err = c2.Users.GetKey(s.ctx, 987654321)
	e := s.apiErr(err, "missing key")
	s.note("a missing key: %d", e.StatusCode)
	_, err = c2.Users.DeleteKey(s.ctx, 987654321)
	e = s.apiErr(err, "delete a missing key")
	s.note("delete a missing key: %d", e.StatusCode)
	e = s.send(c2, "POST", "/user/keys", map[string]any{"key": "ssh-ed25519 AAAA"})
	s.note("a key without a title: %d %q", e.StatusCode, e.Message)

	line, fp := sshKey("contract@example")
	k, resp, err := c2.Users.CreateKey(s.ctx, forgejo.CreateKeyRequest{Title: "contract", Key: line})
	s.must(err, "add a key")
	s.note("add a key: %d fingerprint ok %v title %q type %q owner ok %v, key kept %v, url ok %v", resp.StatusCode, k.Fingerprint == fp,
		k.Title, k.KeyType, k.User != nil && k.User.Login == s.tg.user2, k.Key == line || k.Key+" contract@example" == line,
		strings.HasSuffix(k.URL, fmt.Sprintf("/api/v1/user/keys/%d", k.ID)))
	_, _, err = c2.Users.CreateKey(s.ctx, forgejo.CreateKeyRequest{Title: "again", Key: line})
	e = s.apiErr(err, "the same key")
	s.note("the same key: %d %q", e.StatusCode, e.Message)
	other, _ := sshKey("")
	_, _, err = c2.Users.CreateKey(s.ctx, forgejo.CreateKeyRequest{Title: "contract", Key: other})
	e = s.apiErr(err, "the same title")
	s.note("the same title: %d %q", e.StatusCode, e.Message)
	for _, junk := range []string{"ssh-ed25519 bm90IGEga2V5", "ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIA==", "not base64 at all!"} {
		_, _, err = c2.Users.CreateKey(s.ctx, forgejo.CreateKeyRequest{Title: "junk", Key: junk})
		e = s.apiErr(err, "junk")
		s.note("junk key %q: %d %q", junk, e.StatusCode, e.Message)
	}
	// Anyone may read it by id; only the owner and admins see whose it is.
	seen, _, err := c1.Users.ListKeys(s.ctx, s.tg.user2, &forgejo.UserListKeysOptions{Fingerprint: fp})
	s.must(err, "find by fingerprint")
	byID, _, err := s.tg.c1.Users.GetKey(s.ctx, k.ID)
	s.must(err, "get the key")
	s.note("found by fingerprint %d, owner shown %v; by id, owner shown to an admin %v", len(seen), len(seen) == 1 && seen[0].User != nil, byID.User != nil)
	resp, err = c1.Users.DeleteKey(s.ctx, k.ID)
	s.must(err, "admin deletes user2's key")
	k2, resp2, err := c1.Admin.CreateUserKey(s.ctx, s.tg.user2, forgejo.CreateKeyRequest{Title: "by admin", Key: other})
	s.must(err, "admin adds a key")
	mine, _, err := c2.Users.ListMyKeys(s.ctx, nil)
	s.must(err, "user2's keys")
	_, err = s.tg.c2.Admin.DeleteUserKey(s.ctx, s.tg.user2, k2.ID)
	e = s.apiErr(err, "user2 on the admin route")
	s.note("admin deletes user2's key: %d; admin adds one: %d, user2 has %d; user2 on the admin route: %d", resp.StatusCode, resp2.StatusCode, len(mine), e.StatusCode)
	resp, err = c2.Users.DeleteKey(s.ctx, k2.ID)
	s.must(err, "user2 deletes it")
	_, err = c1.Admin.DeleteUserKey(s.ctx, s.tg.user2, k2.ID)
	e = s.apiErr(err, "deleted key")
	s.note("user2 deletes it: %d; the admin then: %d", resp.StatusCode, e.StatusCode)
}

func (s *scenario) accountEmails() {
	c1, c2 := s.tg.c1, s.tg.c2
	before, _, err := c2.Users.ListEmails(s.ctx)
	s.must(err, "list emails")
	primaries := 0
	for _, e := range before {
		if e.Primary {
			primaries++
		}
	}
	addr := uniq("contract") + "@example.org"
	hide := func(msg string) string { return strings.ReplaceAll(msg, addr, "ADDR") }
	after, resp, err := c2.Users.AddEmails(s.ctx, forgejo.CreateEmailRequest{Emails: []string{addr}})
	s.must(err, "add an email")
	var added *forgejo.Email
	for _, e := range after {
		if e.Email == addr {
			added = e
		}
	}
	s.note("emails: %d primary; add one: %d, now %d more, listed %v verified %v primary %v", primaries, resp.StatusCode,
		len(after)-len(before), added != nil, added != nil && added.Verified, added != nil && added.Primary)
	for _, tc := range []struct {
		what   string
		emails []string
	}{{"again", []string{addr}}, {"an invalid one", []string{"not-an-address"}}, {"none", []string{}}} {
		e := s.send(c2, "POST", "/user/emails", map[string]any{"emails": tc.emails})
		s.note("add %s: %d %q", tc.what, e.StatusCode, hide(e.Message))
	}
	found, _, err := c1.Admin.SearchEmails(s.ctx, &forgejo.AdminSearchEmailsOptions{Query: addr})
	s.must(err, "admin search emails")
	var whose []string
	for _, e := range found {
		whose = append(whose, fmt.Sprintf("%s primary %v id ok %v", strings.ReplaceAll(e.Username, s.tg.user2, "USER2"), e.Primary, e.UserID > 0))
	}
	listed := false
	for e, err := range c1.Admin.ListEmailsIter(s.ctx, nil) {
		s.must(err, "admin list emails")
		listed = listed || e.Email == addr
	}
	s.note("admin search finds %v; admin list has it %v", whose, listed)
	resp, err = c2.Users.DeleteEmails(s.ctx, forgejo.DeleteEmailRequest{Emails: []string{addr}})
	s.must(err, "delete an email")
	_, err = c2.Users.DeleteEmails(s.ctx, forgejo.DeleteEmailRequest{Emails: []string{addr}})
	e := s.apiErr(err, "delete it again")
	s.note("delete it: %d; again: %d %q", resp.StatusCode, e.StatusCode, hide(e.Message))
	if s.tg.fake {
		// adminListUserEmails and adminDeleteUserEmails are Forgejo's.
		mine, _, err := c1.Admin.ListUserEmails(s.ctx, s.tg.user2)
		s.must(err, "admin lists user2's emails")
		if len(mine) != len(before) || mine[0].Username != s.tg.user2 {
			s.t.Errorf("admin lists user2's emails: %+v", mine)
		}
	}
}

func (s *scenario) accountSettingsAndApps() {
	c1, c2 := s.tg.c1, s.tg.c2
	set, _, err := c2.Users.GetSettings(s.ctx)
	s.must(err, "settings")
	s.note("settings: hide_email %v hide_activity %v diff style %q", set.HideEmail, set.HideActivity, set.DiffViewStyle)
	// Differs on purpose: the default theme is Forgejo's "forgejo-auto",
	// and enable_repo_unit_hints (true by default) is Forgejo's alone.
	if want := map[bool]string{true: "forgejo-auto", false: "gitea-auto"}[s.tg.fake]; set.Theme != want || set.EnableRepoUnitHints != s.tg.fake {
		s.t.Errorf("default theme and unit hints on %s: %q %v", s.tg.name, set.Theme, set.EnableRepoUnitHints)
	}
	ed, resp, err := c2.Users.EditSettings(s.ctx, forgejo.UserSettingsRequest{Location: forgejo.Ptr("Contract City"), Description: forgejo.Ptr("about me"),
		HideActivity: forgejo.Ptr(true)})
	s.must(err, "edit settings")
	u, _, err := c1.Users.Get(s.ctx, s.tg.user2)
	s.must(err, "user2")
	s.note("edit settings: %d %q %q hide_activity %v; the profile shows %q %q", resp.StatusCode, ed.Location, ed.Description, ed.HideActivity, u.Location, u.Description)
	_, _, err = c2.Users.EditSettings(s.ctx, forgejo.UserSettingsRequest{Location: &set.Location, Description: &set.Description, HideActivity: &set.HideActivity})
	s.must(err, "restore settings")

	app, resp, err := c2.Users.CreateOAuth2App(s.ctx, forgejo.CreateOAuth2ApplicationRequest{Name: forgejo.Ptr("contract app"),
		RedirectURIs: []string{"https://example.org/cb"}, ConfidentialClient: forgejo.Ptr(true)})
	s.must(err, "create oauth2 app")
	s.note("oauth2 app: %d %q %v confidential %v, secret sent %v, client id length %d", resp.StatusCode, app.Name, app.RedirectURIs,
		app.ConfidentialClient, app.ClientSecret != "", len(app.ClientID))
	e := s.send(c2, "POST", "/user/applications/oauth2", map[string]any{"redirect_uris": []string{"https://example.org/cb"}})
	s.note("oauth2 app without a name: %d %q", e.StatusCode, e.Message)
	apps, _, err := c2.Users.ListOAuth2Apps(s.ctx, nil)
	s.must(err, "list apps")
	listed := slices.ContainsFunc(apps, func(a *forgejo.OAuth2Application) bool { return a.ID == app.ID && a.ClientSecret == "" })
	got, _, err := c2.Users.GetOAuth2App(s.ctx, app.ID)
	s.must(err, "get app")
	_, _, err = c1.Users.GetOAuth2App(s.ctx, app.ID)
	e = s.apiErr(err, "another's app")
	s.note("listed without its secret %v; got %q secret %q; user1 gets it: %d", listed, got.Name, got.ClientSecret, e.StatusCode)
	up, resp, err := c2.Users.EditOAuth2App(s.ctx, app.ID, forgejo.CreateOAuth2ApplicationRequest{Name: forgejo.Ptr("renamed app"),
		RedirectURIs: []string{"https://example.org/a", "https://example.org/b"}})
	s.must(err, "edit app")
	s.note("edit app: %d %q %v confidential %v, new secret %v, same client %v", resp.StatusCode, up.Name, up.RedirectURIs, up.ConfidentialClient,
		up.ClientSecret != "" && up.ClientSecret != app.ClientSecret, up.ClientID == app.ClientID)
	resp, err = c2.Users.DeleteOAuth2App(s.ctx, app.ID)
	s.must(err, "delete app")
	_, _, err = c2.Users.GetOAuth2App(s.ctx, app.ID)
	e = s.apiErr(err, "deleted app")
	s.note("delete app: %d, then %d", resp.StatusCode, e.StatusCode)

	// GPG: nothing to list, a verification token, refusals.
	gk, _, err := c2.Users.ListMyGPGKeys(s.ctx, nil)
	s.must(err, "gpg keys")
	gk2, _, err := c1.Users.ListGPGKeys(s.ctx, s.tg.user2, nil)
	s.must(err, "user2's gpg keys")
	tok, resp, err := c2.Users.GetGPGKeyToken(s.ctx)
	s.must(err, "gpg token")
	s.note("gpg keys %d and %d; token %d length %d", len(gk), len(gk2), resp.StatusCode, len(tok))
	e = s.send(c2, "POST", "/user/gpg_keys", map[string]any{"armored_public_key": "not a key"})
	s.note("add a gpg key that is none: %d %q", e.StatusCode, e.Message)
	_, _, err = c2.Users.GetGPGKey(s.ctx, 987654321)
	e = s.apiErr(err, "missing gpg key")
	resp, err = c2.Users.DeleteGPGKey(s.ctx, 987654321)
	s.must(err, "delete a missing gpg key")
	s.note("a missing gpg key: %d; deleting it: %d", e.StatusCode, resp.StatusCode)
	// Differs on purpose: Forgejo trims the key id's zeros and answers a
	// 404 for what is left empty; Gitea 1.27 goes on to a 422.
	_, _, err = c2.Users.VerifyGPGKey(s.ctx, forgejo.VerifyGPGKeyRequest{KeyID: "0000"})
	if e := s.apiErr(err, "verify key 0"); e.StatusCode != map[bool]int{true: 404, false: 422}[s.tg.fake] {
		s.t.Errorf("verify key 0000 on %s: %+v", s.tg.name, e)
	}
}

func (s *scenario) adminSite() {
	c1 := s.tg.c1
	tasks, _, err := c1.Admin.ListCronTasks(s.ctx, nil)
	s.must(err, "cron list")
	find := func(ts []*forgejo.Cron, name string) *forgejo.Cron {
		for _, t := range ts {
			if t.Name == name {
				return t
			}
		}
		return nil
	}
	health, mirrors := find(tasks, "repo_health_check"), find(tasks, "update_mirrors")
	if health == nil || mirrors == nil {
		s.t.Fatalf("cron tasks on %s: %+v", s.tg.name, tasks)
	}
	s.note("cron: repo_health_check %q, update_mirrors %q", health.Schedule, mirrors.Schedule)
	resp, err := c1.Admin.RunCronTask(s.ctx, "repo_health_check")
	s.must(err, "run cron")
	// The run may be asynchronous: wait for it to count.
	var runs int64
	for range 50 {
		tasks, _, err = c1.Admin.ListCronTasks(s.ctx, nil)
		s.must(err, "cron list")
		if runs = find(tasks, "repo_health_check").ExecTimes; runs > health.ExecTimes {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	_, err = c1.Admin.RunCronTask(s.ctx, "no_such_task")
	e := s.apiErr(err, "missing task")
	s.note("run repo_health_check: %d, one more run %v; a missing task: %d", resp.StatusCode, runs == health.ExecTimes+1, e.StatusCode)

	h, resp, err := c1.Admin.CreateHook(s.ctx, forgejo.CreateHookRequest{Type: forgejo.HookTypeGitea, Active: true,
		Config: forgejo.HookConfig{"url": "http://127.0.0.1:9/system", "content_type": "json"}, Events: []string{"push"}})
	s.must(err, "admin hook")
	s.note("system hook: %d type %s active %v events %v", resp.StatusCode, h.Type, h.Active, h.Events)
	ed, _, err := c1.Admin.EditHook(s.ctx, h.ID, forgejo.EditHookRequest{Active: forgejo.Ptr(false)})
	s.must(err, "edit system hook")
	got, _, err := c1.Admin.GetHook(s.ctx, h.ID)
	s.must(err, "get system hook")
	hooks, _, err := c1.Admin.ListHooks(s.ctx, nil)
	s.must(err, "list system hooks")
	_, _, err = s.tg.c2.Admin.ListHooks(s.ctx, nil)
	e = s.apiErr(err, "system hooks as user2")
	s.note("edit: active %v, get: active %v; user2 lists them: %d", ed.Active, got.Active, e.StatusCode)
	// Differs on purpose: Forgejo lists the hooks /admin/hooks creates;
	// Gitea 1.27 makes them "default" hooks and lists system ones only.
	if listed := slices.ContainsFunc(hooks, func(x *forgejo.Hook) bool { return x.ID == h.ID }); listed != s.tg.fake {
		s.t.Errorf("system hook listed on %s: %v", s.tg.name, listed)
	}
	resp, err = c1.Admin.DeleteHook(s.ctx, h.ID)
	s.must(err, "delete system hook")
	_, _, err = c1.Admin.GetHook(s.ctx, h.ID)
	e = s.apiErr(err, "deleted system hook")
	s.note("delete system hook: %d, then %d", resp.StatusCode, e.StatusCode)

	names, resp, err := c1.Admin.ListUnadoptedRepos(s.ctx, nil)
	s.must(err, "unadopted")
	_, err = c1.Admin.AdoptRepo(s.ctx, s.tg.user1, s.repo)
	e = s.apiErr(err, "adopt an adopted repository")
	_, err = c1.Admin.DeleteUnadoptedRepo(s.ctx, s.tg.user1, "no-such-dir-contract")
	e2 := s.apiErr(err, "delete a missing directory")
	s.note("unadopted: %d, %d found; adopt a repository that exists: %d; delete a directory that does not: %d", resp.StatusCode, len(names), e.StatusCode, e2.StatusCode)

	// Heatmaps count what the user did; hidden activity is hidden from
	// others.
	hm, resp, err := s.tg.anon.Users.ListHeatmap(s.ctx, s.tg.user2)
	s.must(err, "heatmap")
	var sum int64
	for _, h := range hm {
		sum += h.Contributions
	}
	_, _, err = s.tg.c2.Users.EditSettings(s.ctx, forgejo.UserSettingsRequest{HideActivity: forgejo.Ptr(true)})
	s.must(err, "hide activity")
	hidden, _, err := s.tg.anon.Users.ListHeatmap(s.ctx, s.tg.user2)
	s.must(err, "hidden heatmap")
	own, _, err := s.tg.c2.Users.ListHeatmap(s.ctx, s.tg.user2)
	s.must(err, "own heatmap")
	_, _, err = s.tg.c2.Users.EditSettings(s.ctx, forgejo.UserSettingsRequest{HideActivity: forgejo.Ptr(false)})
	s.must(err, "show activity")
	s.note("user2's heatmap: %d, contributions %v; hidden: %d buckets for anyone, %v for themself", resp.StatusCode, sum > 0, len(hidden), len(own) == len(hm))
}

// pngImage is a small PNG of one colour.
func pngImage(n int) string {
	img := image.NewGray(image.Rect(0, 0, n, n))
	for i := range img.Pix {
		img.Pix[i] = byte(n)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

func (s *scenario) accountAvatarsAndOrgs() {
	c1, c2 := s.tg.c1, s.tg.c2
	me, _, err := c2.Users.GetCurrent(s.ctx)
	s.must(err, "user2")
	resp, err := c2.Users.SetAvatar(s.ctx, forgejo.UpdateUserAvatarRequest{Image: pngImage(8)})
	s.must(err, "set avatar")
	with, _, err := c2.Users.GetCurrent(s.ctx)
	s.must(err, "user2")
	e := s.send(c2, "POST", "/user/avatar", map[string]any{"image": "%%% not base64"})
	s.note("set avatar: %d, url changed %v; not base64: %d", resp.StatusCode, with.AvatarURL != me.AvatarURL, e.StatusCode)
	resp, err = c2.Users.DeleteAvatar(s.ctx)
	s.must(err, "delete avatar")
	without, _, err := c2.Users.GetCurrent(s.ctx)
	s.must(err, "user2")
	s.note("delete avatar: %d, url changed again %v", resp.StatusCode, without.AvatarURL != with.AvatarURL)

	name := uniq("acct-org")
	o, resp, err := c1.Admin.CreateOrg(s.ctx, s.tg.user2, forgejo.CreateOrgRequest{Username: name, FullName: "Accounts Org"})
	s.must(err, "admin create org")
	owner, _, err := c2.Orgs.IsMember(s.ctx, name, s.tg.user2)
	s.must(err, "user2 is a member")
	listed := false
	for x, err := range c1.Admin.ListOrgsIter(s.ctx, nil) {
		s.must(err, "admin list orgs")
		listed = listed || x.Name == name
	}
	s.note("admin create org for user2: %d %q, user2 a member %v, admin lists it %v", resp.StatusCode, o.FullName, owner, listed)
	_, err = c1.Orgs.Rename(s.ctx, name, forgejo.RenameOrgRequest{NewName: s.tg.user1})
	e = s.apiErr(err, "rename org to a taken name")
	s.note("rename org to a taken name: %d %q", e.StatusCode, strings.ReplaceAll(e.Message, s.tg.user1, "USER1"))
	newName := name + "-r"
	resp, err = c2.Orgs.Rename(s.ctx, name, forgejo.RenameOrgRequest{NewName: newName})
	s.must(err, "rename org")
	_, _, errOld := c1.Orgs.Get(s.ctx, name)
	got, _, errNew := c1.Orgs.Get(s.ctx, newName)
	s.note("rename org: %d, old found %v, new found %v", resp.StatusCode, errOld == nil, errNew == nil && got.Name == newName)
	resp, err = c2.Orgs.SetAvatar(s.ctx, newName, forgejo.UpdateUserAvatarRequest{Image: pngImage(4)})
	s.must(err, "org avatar")
	after, _, err := c1.Orgs.Get(s.ctx, newName)
	s.must(err, "org")
	resp2, err := c2.Orgs.DeleteAvatar(s.ctx, newName)
	s.must(err, "delete org avatar")
	s.note("org avatar: %d, url changed %v; delete: %d", resp.StatusCode, after.AvatarURL != got.AvatarURL, resp2.StatusCode)
	r, resp, err := c1.Admin.CreateRepo(s.ctx, newName, forgejo.CreateRepoRequest{Name: "admin-made"})
	s.must(err, "admin create org repo")
	s.note("admin create repo for the org: %d owner ok %v", resp.StatusCode, r.Owner != nil && r.Owner.Login == newName)
	_, err = c1.Repos.Delete(s.ctx, newName, "admin-made")
	s.must(err, "delete org repo")
	_, err = c1.Orgs.Delete(s.ctx, newName)
	s.must(err, "delete org")

	if s.tg.fake {
		s.forgejoOnlyAccounts()
	}
}

// forgejoOnlyAccounts checks, on the fake only, routes Gitea 1.27 lacks:
// blocking and the administrator's token routes (Forgejo 16).
func (s *scenario) forgejoOnlyAccounts() {
	c1, c2 := s.tg.c1, s.tg.c2
	_, err := c2.Users.Follow(s.ctx, s.tg.user1)
	s.must(err, "follow")
	resp, err := c1.Users.Block(s.ctx, s.tg.user2)
	s.must(err, "block")
	follows, _, err := c2.Users.IsFollowedByMe(s.ctx, s.tg.user1)
	s.must(err, "following")
	blocked, _, err := c1.Users.ListBlockedUsers(s.ctx, nil)
	s.must(err, "blocked")
	if resp.StatusCode != 204 || follows || len(blocked) != 1 {
		s.t.Errorf("block: %d, still following %v, blocked %+v", resp.StatusCode, follows, blocked)
	}
	_, err = c1.Users.Block(s.ctx, s.tg.user1)
	if e := s.apiErr(err, "block yourself"); e.StatusCode != 400 {
		s.t.Errorf("block yourself: %+v", e)
	}
	_, err = c1.Users.Unblock(s.ctx, s.tg.user2)
	s.must(err, "unblock")
	tok, _, err := c1.Admin.CreateUserToken(s.ctx, s.tg.user2, forgejo.CreateAccessTokenRequest{Name: "by-admin", Scopes: []string{"read:user"}})
	s.must(err, "admin creates a token")
	ts, _, err := c1.Admin.ListUserTokens(s.ctx, s.tg.user2, nil)
	s.must(err, "admin lists tokens")
	_, err = c1.Admin.DeleteUserToken(s.ctx, s.tg.user2, "by-admin")
	s.must(err, "admin deletes the token")
	if len(ts) != 1 || ts[0].ID != tok.ID {
		s.t.Errorf("admin token routes: %+v", ts)
	}

	// Quotas, through the typed client. (CreateQuotaRuleOptions.Limit is
	// omitempty in the client: a limit of 0 cannot be sent, and Forgejo
	// then answers "[Limit]: Required".)
	rule, _, err := c1.Admin.CreateQuotaRule(s.ctx, forgejo.CreateQuotaRuleRequest{Name: "contract-1g", Limit: 1 << 30, Subjects: []string{"size:repos:all"}})
	s.must(err, "quota rule")
	g, _, err := c1.Admin.CreateQuotaGroup(s.ctx, forgejo.CreateQuotaGroupRequest{Name: "contract", Rules: []*forgejo.CreateQuotaRuleRequest{{Name: rule.Name}}})
	s.must(err, "quota group")
	_, err = c1.Admin.AddQuotaGroupUser(s.ctx, g.Name, s.tg.user2)
	s.must(err, "quota group user")
	q, _, err := c2.Users.GetQuota(s.ctx)
	s.must(err, "user2's quota")
	ok, _, err := c2.Users.CheckQuota(s.ctx, &forgejo.UserCheckQuotaOptions{Subject: "size:repos:all"})
	s.must(err, "check quota")
	if len(q.Groups) != 1 || len(q.Groups[0].Rules) != 1 || q.Groups[0].Rules[0].Limit != 1<<30 || !ok {
		s.t.Errorf("user2's quota: %+v, ok %v", q, ok)
	}
	_, err = c1.Admin.DeleteQuotaGroup(s.ctx, g.Name)
	s.must(err, "delete quota group")
	_, err = c1.Admin.DeleteQuotaRule(s.ctx, rule.Name)
	s.must(err, "delete quota rule")
}
