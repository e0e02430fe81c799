package forgejotest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// The contract scenario's steps for AdminService: users, e-mail
// addresses, hooks, cron tasks and the rest of site administration. Same rules as contract_test.go; runScenario calls them in order.

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
	if s.tg.forgejo == (err == nil) {
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
	if want := map[bool]string{true: "The username is already taken.", false: "user already exists [name: " + s.tg.user2 + "]"}[s.tg.forgejo]; e.Message != want {
		s.t.Errorf("rename to a taken name on %s: %q", s.tg.name, e.Message)
	}
	// What they filed elsewhere: Forgejo's purge deletes it, Gitea keeps
	// it, by the Ghost user.
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
	if s.tg.forgejo {
		// Differs on purpose: Forgejo 15 purges the issues a user opened
		// in other people's repositories (404 afterwards); Gitea 1.27 keeps
		// them, posted by the Ghost user.
		if st := s.status(err); st != 404 {
			s.t.Errorf("a purged user's issue elsewhere on %s: %d, want 404", s.tg.name, st)
		}
	} else {
		s.must(err, "the bot's issue")
		g := is.User
		if got, want := fmt.Sprintf("id %d login %q email %q avatar ok %v html ok %v created %s", g.ID, g.Login, g.Email,
			g.AvatarURL == s.tg.url+"/assets/img/avatar_default.png", g.HTMLURL == s.tg.url+"/Ghost", g.Created.UTC().Format(time.RFC3339)),
			`id -1 login "Ghost" email "" avatar ok true html ok true created 1970-01-01T00:00:00Z`; got != want {
			s.t.Errorf("a purged user's issue on %s, poster: %s, want %s", s.tg.name, got, want)
		}
	}
	_, err = c1.Repos.Delete(s.ctx, s.tg.user1, ghostRepo)
	s.must(err, "delete the ghost repository")
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
	// Forgejo 15, as Gitea 1.27, makes the hooks /admin/hooks creates
	// "default" hooks and lists system ones only.
	s.note("system hook listed: %v", slices.ContainsFunc(hooks, func(x *forgejo.Hook) bool { return x.ID == h.ID }))
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
