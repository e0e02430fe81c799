package integration

//lint:file-ignore SA1019 the suite calls deprecated operations and reads deprecated fields on purpose: the route matrix covers every operation, and Gitea still sends Hook.config.

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo"
)

// TestAdminUsers manages a user through its life: create, find, edit, give
// it a key, a repository and an organization, rename it, delete it.
func TestAdminUsers(t *testing.T) {
	c := admin(t)
	name := unique("u")
	email := name + "@example.com"
	const password = "Forgego-IT-new-Passw0rd"
	u, resp, err := c.Admin.CreateUser(ctx(t), forgejo.CreateUserRequest{
		Username: name, Email: email, Password: password, FullName: "New User", Visibility: "public",
	})
	ok(t, "create user", err)
	current := name
	cleanup(t, "user", func(ctx context.Context) (*forgejo.Response, error) {
		return c.Admin.DeleteUser(ctx, current, &forgejo.AdminDeleteUserOptions{Purge: forgejo.Ptr(true)})
	})
	if u.Login != name || u.Email != email || u.FullName != "New User" || u.IsAdmin || status(resp) != http.StatusCreated {
		t.Fatalf("created user (%d) = %+v", status(resp), u)
	}
	_, _, err = c.Admin.CreateUser(ctx(t), forgejo.CreateUserRequest{Username: name, Email: "other-" + email, Password: password})
	mustStatus(t, err, http.StatusUnprocessableEntity)
	// Only site admins may.
	_, _, err = user2(t).Admin.CreateUser(ctx(t), forgejo.CreateUserRequest{Username: unique("x"), Email: unique("x") + "@example.com", Password: password})
	mustStatus(t, err, http.StatusForbidden)

	// login_name is the login at an external source: local users have none.
	found, _, err := c.Admin.ListUsers(ctx(t), &forgejo.AdminListUsersOptions{LoginName: name})
	if err != nil || len(found) != 0 {
		t.Fatalf("search by login name = %v, %v", logins(found), err)
	}
	// The spec's sort words (oldest, newest, …) are Forgejo's: Gitea wants
	// name, created, updated or id, and refuses the others (HAZARDS.md §18);
	// Forgejo takes them (and answers 200 to any word, HAZARDS.md §22).
	sorted, _, err := c.Admin.ListUsers(ctx(t), &forgejo.AdminListUsersOptions{Sort: "newest"})
	if onForgejo(t) {
		if err != nil || len(sorted) == 0 {
			t.Fatalf("sort=newest on Forgejo: %v, %v", logins(sorted), err)
		}
	} else if ae := mustStatus(t, err, http.StatusUnprocessableEntity); !strings.Contains(ae.Message, "Invalid sort mode") {
		t.Fatalf("sort=newest on Gitea: %+v", ae)
	}
	seen := false
	for x, err := range c.Admin.ListUsersIter(ctx(t), nil) {
		ok(t, "walk users", err)
		seen = seen || x.Login == name
	}
	if !seen {
		t.Fatalf("%s not in the user walk", name)
	}

	// MustChangePassword was left nil, so the server's default (true)
	// applies: the new user must change their password first, and the API
	// says so with 403.
	basic := client(t, "", forgejo.WithBasicAuth(name, password))
	_, _, err = basic.Users.GetCurrent(ctx(t))
	if ae := mustStatus(t, err, http.StatusForbidden); !strings.Contains(ae.Message, "must change your password") {
		t.Fatalf("first login: %+v", ae)
	}
	edited, _, err := c.Admin.EditUser(ctx(t), name, forgejo.EditUserRequest{
		FullName: forgejo.Ptr("Edited User"), Location: forgejo.Ptr("Paris"), MaxRepoCreation: forgejo.Ptr[int64](5), Restricted: forgejo.Ptr(true),
		MustChangePassword: forgejo.Ptr(false),
	})
	if err != nil || edited.FullName != "Edited User" || edited.Location != "Paris" || !edited.Restricted {
		t.Fatalf("edit user = %+v, %v", edited, err)
	}
	// Now the new user can log in with its password.
	me, _, err := basic.Users.GetCurrent(ctx(t))
	if err != nil || me.Login != name {
		t.Fatalf("new user's basic auth = %+v, %v", me, err)
	}

	k, resp, err := c.Admin.CreateUserKey(ctx(t), name, forgejo.CreateKeyRequest{Title: "admin-added", Key: sshKey(t, name)})
	ok(t, "add key", err)
	if k.Title != "admin-added" || status(resp) != http.StatusCreated {
		t.Fatalf("key (%d) = %+v", status(resp), k)
	}
	keys, _, err := c.Users.ListKeys(ctx(t), name, nil)
	if err != nil || len(keys) != 1 {
		t.Fatalf("user keys = %v, %v", keys, err)
	}
	resp, err = c.Admin.DeleteUserKey(ctx(t), name, k.ID)
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("delete key: %d, %v", status(resp), err)
	}

	r, resp, err := c.Admin.CreateRepo(ctx(t), name, forgejo.CreateRepoRequest{Name: "theirs", Private: true})
	ok(t, "create repo for the user", err)
	if r.Owner == nil || r.Owner.Login != name || !r.Private || status(resp) != http.StatusCreated {
		t.Fatalf("repo for the user (%d) = %+v", status(resp), r)
	}
	org, resp, err := c.Admin.CreateOrg(ctx(t), name, forgejo.CreateOrgRequest{Username: name + "-org"})
	ok(t, "create org for the user", err)
	cleanup(t, "user's org", func(ctx context.Context) (*forgejo.Response, error) { return c.Orgs.Delete(ctx, name+"-org") })
	if org.Name != name+"-org" || status(resp) != http.StatusCreated {
		t.Fatalf("org for the user (%d) = %+v", status(resp), org)
	}
	perms, _, err := c.Orgs.GetUserPermissions(ctx(t), name, name+"-org")
	if err != nil || !perms.IsOwner {
		t.Fatalf("the user owns its org = %+v, %v", perms, err)
	}
	orgs, _, err := c.Admin.ListOrgs(ctx(t), &forgejo.ListOptions{Limit: 50})
	if err != nil || len(orgs) == 0 {
		t.Fatalf("all orgs = %d, %v", len(orgs), err)
	}

	emails, _, err := c.Admin.SearchEmails(ctx(t), &forgejo.AdminSearchEmailsOptions{Query: name})
	if err != nil || len(emails) != 1 || emails[0].Email != email || emails[0].Username != name {
		t.Fatalf("email search = %+v, %v", emails, err)
	}
	all, resp, err := c.Admin.ListEmails(ctx(t), nil)
	if err != nil || len(all) == 0 {
		t.Fatalf("all emails = %d, %v", len(all), err)
	}
	if n, ok := resp.TotalCount(); !ok || n < 3 {
		t.Fatalf("all emails X-Total-Count = %d (%v)", n, ok)
	}

	renamed := name + "-r"
	resp, err = c.Admin.RenameUser(ctx(t), name, forgejo.RenameUserRequest{NewUsername: renamed})
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("rename user: %d, %v", status(resp), err)
	}
	current = renamed
	got, _, err := c.Users.Get(ctx(t), renamed)
	if err != nil || got.Login != renamed || got.ID != u.ID {
		t.Fatalf("renamed user = %+v, %v", got, err)
	}
	moved, _, err := c.Repos.Get(ctx(t), renamed, "theirs")
	if err != nil || moved.Owner.Login != renamed {
		t.Fatalf("the user's repository after the rename = %+v, %v", moved, err)
	}

	// The org must go first: a user who owns one cannot be deleted.
	_, err = c.Admin.DeleteUser(ctx(t), renamed, nil)
	if ae := mustStatus(t, err, http.StatusUnprocessableEntity); ae.Message == "" {
		t.Fatalf("delete a user who owns things: %+v", ae)
	}
	_, err = c.Orgs.Delete(ctx(t), name+"-org")
	ok(t, "delete the user's org", err)
	resp, err = c.Admin.DeleteUser(ctx(t), renamed, &forgejo.AdminDeleteUserOptions{Purge: forgejo.Ptr(true)})
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("delete user: %d, %v", status(resp), err)
	}
	_, _, err = c.Users.Get(ctx(t), renamed)
	mustStatus(t, err, http.StatusNotFound)
}

// TestAdminCreateUserMustChangePasswordFalse: the server defaults
// must_change_password to true, so false has to be sent explicitly, which
// CreateUserOption.MustChangePassword (a *bool) allows.
func TestAdminCreateUserMustChangePasswordFalse(t *testing.T) {
	c := admin(t)
	name := unique("u")
	const password = "Forgego-IT-new-Passw0rd"
	_, _, err := c.Admin.CreateUser(ctx(t), forgejo.CreateUserRequest{Username: name, Email: name + "@example.com", Password: password, MustChangePassword: forgejo.Ptr(false)})
	ok(t, "create user", err)
	cleanup(t, "user", func(ctx context.Context) (*forgejo.Response, error) { return c.Admin.DeleteUser(ctx, name, nil) })
	_, _, err = client(t, "", forgejo.WithBasicAuth(name, password)).Users.GetCurrent(ctx(t))
	ok(t, "login of a user created with MustChangePassword false", err)
}

func TestAdminSite(t *testing.T) {
	c := admin(t)

	crons, _, err := c.Admin.ListCronTasks(ctx(t), &forgejo.ListOptions{Limit: 50})
	ok(t, "cron list", err)
	byName := map[string]*forgejo.Cron{}
	for _, cr := range crons {
		byName[cr.Name] = cr
	}
	if byName["delete_inactive_accounts"] == nil && byName["repo_health_check"] == nil && len(crons) == 0 {
		t.Fatalf("cron tasks = %v", crons)
	}
	task := "update_mirrors"
	before := byName[task]
	if before == nil {
		t.Fatalf("no %s task among %d", task, len(crons))
	}
	resp, err := c.Admin.RunCronTask(ctx(t), task)
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("cron run: %d, %v", status(resp), err)
	}
	_, err = c.Admin.RunCronTask(ctx(t), "no_such_task")
	mustStatus(t, err, http.StatusNotFound)

	unadopted, _, err := c.Admin.ListUnadoptedRepos(ctx(t), nil)
	switch {
	case err == nil && len(unadopted) == 0:
	case onForgejo(t) && forgejo.StatusCode(err) == http.StatusInternalServerError && strings.Contains(err.Error(), "no such file or directory"):
		// Forgejo 15 answers 500 "lstat <APP_DATA>/repos: no such file or
		// directory" until the first repository exists (HAZARDS.md §22):
		// order dependent, a server bug.
	default:
		t.Fatalf("unadopted = %v, %v", unadopted, err)
	}
	_, _, err = c.Actions.ListAdminRunners(ctx(t), nil)
	mustEnvelope(t, err, "runners")

	h, resp, err := c.Admin.CreateHook(ctx(t), forgejo.CreateHookRequest{
		Type: "gitea", Active: true, Events: []string{"push"},
		Config: forgejo.HookConfig{"url": "http://hooks.invalid/system", "content_type": "json", "is_system_webhook": "true"},
	})
	ok(t, "create system hook", err)
	cleanup(t, "system hook", func(ctx context.Context) (*forgejo.Response, error) { return c.Admin.DeleteHook(ctx, h.ID) })
	if h.ID == 0 || status(resp) != http.StatusCreated {
		t.Fatalf("system hook (%d) = %+v", status(resp), h)
	}
	hooks, _, err := c.Admin.ListHooks(ctx(t), nil)
	if err != nil || len(hooks) == 0 {
		t.Fatalf("system hooks = %v, %v", hooks, err)
	}
	got, _, err := c.Admin.GetHook(ctx(t), h.ID)
	if err != nil || got.Config["url"] != "http://hooks.invalid/system" {
		t.Fatalf("get system hook = %+v, %v", got, err)
	}
	got, _, err = c.Admin.EditHook(ctx(t), h.ID, forgejo.EditHookRequest{Events: []string{"push", "create"}})
	if err != nil || len(got.Events) != 2 {
		t.Fatalf("edit system hook = %+v, %v", got, err)
	}
	resp, err = c.Admin.DeleteHook(ctx(t), h.ID)
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("delete system hook: %d, %v", status(resp), err)
	}
	_, _, err = c.Admin.GetHook(ctx(t), h.ID)
	mustStatus(t, err, http.StatusNotFound)

}

// TestPackages publishes a generic package through Gitea's package
// registry (not part of the REST API, so plain HTTP), then reads, links,
// unlinks and deletes it through the client.
func TestPackages(t *testing.T) {
	c := admin(t)
	e := need(t)
	owner, name, version := e.admin, unique("pkg"), "1.0.0"
	const content = "hello, package\n"
	req, err := http.NewRequestWithContext(ctx(t), http.MethodPut, e.url+"/api/packages/"+owner+"/generic/"+name+"/"+version+"/hello.txt", strings.NewReader(content))
	ok(t, "request", err)
	req.Header.Set("Authorization", "token "+e.adminToken)
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := http.DefaultClient.Do(req)
	ok(t, "publish", err)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("publish answered %d", resp.StatusCode)
	}
	cleanup(t, "package", func(ctx context.Context) (*forgejo.Response, error) {
		return c.Packages.Delete(ctx, owner, "generic", name, version)
	})

	p, _, err := c.Packages.Get(ctx(t), owner, "generic", name, version)
	if err != nil || p.Name != name || p.Version != version || p.Type != "generic" || p.Owner == nil || p.Owner.Login != owner || p.Repository != nil {
		t.Fatalf("package = %+v, %v", p, err)
	}
	files, _, err := c.Packages.ListFiles(ctx(t), owner, "generic", name, version)
	if err != nil || len(files) != 1 || files[0].Name != "hello.txt" || files[0].Size != int64(len(content)) || files[0].SHA256 == "" {
		t.Fatalf("package files = %+v, %v", files, err)
	}
	list, _, err := c.Packages.List(ctx(t), owner, &forgejo.PackageListOptions{Type: "generic", Query: name})
	if err != nil || len(list) != 1 || list[0].ID != p.ID {
		t.Fatalf("packages = %+v, %v", list, err)
	}

	repo := newRepo(t, c)
	r, err := c.Packages.Link(ctx(t), owner, "generic", name, repo)
	if err != nil || status(r) != http.StatusCreated {
		t.Fatalf("link: %d, %v", status(r), err)
	}
	p, _, err = c.Packages.Get(ctx(t), owner, "generic", name, version)
	if err != nil || p.Repository == nil || p.Repository.Name != repo {
		t.Fatalf("linked package = %+v, %v", p, err)
	}
	r, err = c.Packages.Unlink(ctx(t), owner, "generic", name)
	if err != nil || status(r) != http.StatusNoContent {
		t.Fatalf("unlink: %d, %v", status(r), err)
	}
	r, err = c.Packages.Delete(ctx(t), owner, "generic", name, version)
	if err != nil || status(r) != http.StatusNoContent {
		t.Fatalf("delete: %d, %v", status(r), err)
	}
	_, _, err = c.Packages.Get(ctx(t), owner, "generic", name, version)
	if ae := mustStatus(t, err, http.StatusNotFound); !strings.Contains(ae.Message, "package does not exist") {
		t.Fatalf("deleted package: %+v", ae)
	}
}
