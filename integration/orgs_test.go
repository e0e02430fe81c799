package integration

//lint:file-ignore SA1019 the suite calls deprecated operations and reads deprecated fields on purpose: the route matrix covers every operation, and Gitea still sends Hook.config.

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo"
)

// newOrg creates an organization owned by the admin and deletes it when t
// ends (after its repositories, which cleanups registered later delete
// first).
func newOrg(t *testing.T, c *forgejo.Client) string {
	t.Helper()
	name := unique("org")
	o, resp, err := c.Orgs.Create(ctx(t), forgejo.CreateOrgRequest{Username: name, FullName: "Org " + name, Description: "made by the suite", Visibility: "public"})
	ok(t, "create org", err)
	if o.Name != name || o.FullName != "Org "+name || o.Visibility != "public" || status(resp) != http.StatusCreated {
		t.Fatalf("created org (%d) = %+v", status(resp), o)
	}
	cleanup(t, "org "+name, func(ctx context.Context) (*forgejo.Response, error) { return c.Orgs.Delete(ctx, name) })
	return name
}

func TestOrganizations(t *testing.T) {
	c, u2 := admin(t), user2(t)
	e := need(t)
	org := newOrg(t, c)

	got, _, err := c.Orgs.Get(ctx(t), org)
	if err != nil || got.Name != org || got.Description != "made by the suite" {
		t.Fatalf("get org = %+v, %v", got, err)
	}
	got, _, err = c.Orgs.Edit(ctx(t), org, forgejo.EditOrgRequest{Description: forgejo.Ptr("edited"), Location: forgejo.Ptr("Berlin"), Website: forgejo.Ptr("https://example.org")})
	if err != nil || got.Description != "edited" || got.Location != "Berlin" || got.Website != "https://example.org" {
		t.Fatalf("edit org = %+v, %v", got, err)
	}
	seen := false
	for o, err := range c.Orgs.ListAllIter(ctx(t), nil) {
		ok(t, "walk orgs", err)
		seen = seen || o.Name == org
	}
	if !seen {
		t.Fatalf("%s not among all organizations", org)
	}
	mine, _, err := c.Orgs.List(ctx(t), nil)
	if err != nil || !containsOrg(mine, org) {
		t.Fatalf("my orgs = %d, %v", len(mine), err)
	}
	theirs, _, err := c.Orgs.ListByUser(ctx(t), e.admin, &forgejo.ListOptions{Limit: 50})
	if err != nil || !containsOrg(theirs, org) {
		t.Fatalf("admin's orgs = %d, %v", len(theirs), err)
	}
	perms, _, err := c.Orgs.GetUserPermissions(ctx(t), e.admin, org)
	if err != nil || !perms.IsOwner || !perms.IsAdmin || !perms.CanCreateRepository {
		t.Fatalf("admin's permissions = %+v, %v", perms, err)
	}
	perms, _, err = c.Orgs.GetUserPermissions(ctx(t), e.user2, org)
	if err != nil || perms.IsOwner || perms.CanWrite {
		t.Fatalf("user2's permissions = %+v, %v", perms, err)
	}

	// Repositories: through the organization route and the deprecated one.
	r, resp, err := c.Repos.CreateInOrg(ctx(t), org, forgejo.CreateRepoRequest{Name: "service", Description: "org repo"})
	ok(t, "create org repo", err)
	cleanup(t, "org repo", func(ctx context.Context) (*forgejo.Response, error) { return c.Repos.Delete(ctx, org, "service") })
	if r.Owner == nil || r.Owner.Login != org || status(resp) != http.StatusCreated {
		t.Fatalf("org repo (%d) = %+v", status(resp), r)
	}
	_, _, err = c.Repos.CreateInOrgDeprecated(ctx(t), org, forgejo.CreateRepoRequest{Name: "legacy"})
	ok(t, "create org repo (deprecated route)", err)
	cleanup(t, "org repo", func(ctx context.Context) (*forgejo.Response, error) { return c.Repos.Delete(ctx, org, "legacy") })
	repos, resp, err := c.Repos.ListByOrg(ctx(t), org, nil)
	if err != nil || len(repos) != 2 {
		t.Fatalf("org repos = %d, %v", len(repos), err)
	}
	if n, ok := resp.TotalCount(); !ok || n != 2 {
		t.Fatalf("org repos X-Total-Count = %d (%v)", n, ok)
	}

	t.Run("members", func(t *testing.T) {
		members, _, err := c.Orgs.ListMembers(ctx(t), org, nil)
		if err != nil || len(members) != 1 || members[0].Login != e.admin {
			t.Fatalf("members = %v, %v", logins(members), err)
		}
		is, _, err := c.Orgs.IsMember(ctx(t), org, e.admin)
		if err != nil || !is {
			t.Fatalf("admin is member = %v, %v", is, err)
		}
		is, _, err = c.Orgs.IsMember(ctx(t), org, e.user2)
		if err != nil || is {
			t.Fatalf("user2 is member = %v, %v", is, err)
		}
		resp, err := c.Orgs.PublicizeMembership(ctx(t), org, e.admin)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("publicize: %d, %v", status(resp), err)
		}
		is, _, err = u2.Orgs.IsPublicMember(ctx(t), org, e.admin)
		if err != nil || !is {
			t.Fatalf("admin is public member = %v, %v", is, err)
		}
		public, _, err := u2.Orgs.ListPublicMembers(ctx(t), org, nil)
		if err != nil || !contains(logins(public), e.admin) {
			t.Fatalf("public members = %v, %v", logins(public), err)
		}
		resp, err = c.Orgs.ConcealMembership(ctx(t), org, e.admin)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("conceal: %d, %v", status(resp), err)
		}
		if is, _, _ = u2.Orgs.IsPublicMember(ctx(t), org, e.admin); is {
			t.Fatal("still a public member after concealing")
		}
	})

	t.Run("teams", func(t *testing.T) {
		teams, _, err := c.Orgs.ListTeams(ctx(t), org, nil)
		if err != nil || len(teams) != 1 || teams[0].Name != "Owners" || teams[0].Permission != "owner" {
			t.Fatalf("teams = %+v, %v", teams, err)
		}
		team, resp, err := c.Orgs.CreateTeam(ctx(t), org, forgejo.CreateTeamRequest{
			Name: "devs", Description: "developers", Permission: "write", Units: []string{"repo.code", "repo.issues", "repo.pulls"},
		})
		ok(t, "create team", err)
		cleanup(t, "team", func(ctx context.Context) (*forgejo.Response, error) { return c.Orgs.DeleteTeam(ctx, team.ID) })
		if team.Name != "devs" || team.ID == 0 || team.Organization == nil || team.Organization.Name != org || status(resp) != http.StatusCreated {
			t.Fatalf("team (%d) = %+v", status(resp), team)
		}
		got, _, err := c.Orgs.GetTeam(ctx(t), team.ID)
		if err != nil || got.Name != "devs" || got.Description != "developers" {
			t.Fatalf("get team = %+v, %v", got, err)
		}
		got, _, err = c.Orgs.EditTeam(ctx(t), team.ID, forgejo.EditTeamRequest{Name: "developers", Description: forgejo.Ptr("all of them")})
		if err != nil || got.Name != "developers" || got.Description != "all of them" {
			t.Fatalf("edit team = %+v, %v", got, err)
		}
		found, _, err := c.Orgs.SearchTeams(ctx(t), org, &forgejo.OrgSearchTeamsOptions{Query: "develop"})
		if err != nil || len(found) != 1 || found[0].ID != team.ID {
			t.Fatalf("team search = %+v, %v", found, err)
		}

		resp, err = c.Orgs.AddTeamMember(ctx(t), team.ID, e.user2)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("add team member: %d, %v", status(resp), err)
		}
		members, _, err := c.Orgs.ListTeamMembers(ctx(t), team.ID, nil)
		if err != nil || len(members) != 1 || members[0].Login != e.user2 {
			t.Fatalf("team members = %v, %v", logins(members), err)
		}
		m, _, err := c.Orgs.GetTeamMember(ctx(t), team.ID, e.user2)
		if err != nil || m.Login != e.user2 {
			t.Fatalf("team member = %+v, %v", m, err)
		}
		_, _, err = c.Orgs.GetTeamMember(ctx(t), team.ID, e.admin)
		mustStatus(t, err, http.StatusNotFound)
		is, _, err := c.Orgs.IsMember(ctx(t), org, e.user2)
		if err != nil || !is {
			t.Fatalf("user2 is an org member through the team = %v, %v", is, err)
		}
		myTeams, _, err := u2.Users.ListTeams(ctx(t), nil)
		if err != nil || len(myTeams) == 0 || !containsTeam(myTeams, team.ID) {
			t.Fatalf("user2's teams = %+v, %v", myTeams, err)
		}
		myOrgs, _, err := u2.Orgs.List(ctx(t), nil)
		if err != nil || !containsOrg(myOrgs, org) {
			t.Fatalf("user2's orgs = %d, %v", len(myOrgs), err)
		}

		resp, err = c.Orgs.AddTeamRepo(ctx(t), team.ID, org, "service")
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("add team repo: %d, %v", status(resp), err)
		}
		trepos, _, err := c.Orgs.ListTeamRepos(ctx(t), team.ID, nil)
		if err != nil || len(trepos) != 1 || trepos[0].Name != "service" {
			t.Fatalf("team repos = %v, %v", trepos, err)
		}
		tr, _, err := c.Orgs.GetTeamRepo(ctx(t), team.ID, org, "service")
		if err != nil || tr.Name != "service" {
			t.Fatalf("team repo = %+v, %v", tr, err)
		}
		// The same link, seen from the repository.
		rteams, _, err := c.Repos.ListTeams(ctx(t), org, "service")
		if err != nil || !containsTeam(rteams, team.ID) {
			t.Fatalf("repo teams = %+v, %v", rteams, err)
		}
		ct, _, err := c.Repos.GetTeam(ctx(t), org, "service", "developers")
		if err != nil || ct.ID != team.ID {
			t.Fatalf("check team = %+v, %v", ct, err)
		}
		resp, err = c.Repos.RemoveTeam(ctx(t), org, "service", "developers")
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("repo delete team: %d, %v", status(resp), err)
		}
		_, _, err = c.Repos.GetTeam(ctx(t), org, "service", "developers")
		mustStatus(t, err, http.StatusNotFound)
		resp, err = c.Repos.AddTeam(ctx(t), org, "legacy", "developers")
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("repo add team: %d, %v", status(resp), err)
		}
		resp, err = c.Orgs.RemoveTeamRepo(ctx(t), team.ID, org, "legacy")
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("remove team repo: %d, %v", status(resp), err)
		}
		if trepos, _, _ = c.Orgs.ListTeamRepos(ctx(t), team.ID, nil); len(trepos) != 0 {
			t.Fatalf("team repos after removals = %v", trepos)
		}
		feed, _, err := c.Orgs.ListTeamActivityFeeds(ctx(t), team.ID, nil)
		ok(t, "team feed", err)
		_ = feed // contents depend on timing; the call and its decoding are what is checked

		resp, err = c.Orgs.RemoveTeamMember(ctx(t), team.ID, e.user2)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("remove team member: %d, %v", status(resp), err)
		}
		// Back in, then out of the whole organization.
		_, err = c.Orgs.AddTeamMember(ctx(t), team.ID, e.user2)
		ok(t, "re-add", err)
		resp, err = c.Orgs.RemoveMember(ctx(t), org, e.user2)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete member: %d, %v", status(resp), err)
		}
		if is, _, _ = c.Orgs.IsMember(ctx(t), org, e.user2); is {
			t.Fatal("user2 still a member")
		}
		resp, err = c.Orgs.DeleteTeam(ctx(t), team.ID)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete team: %d, %v", status(resp), err)
		}
		_, _, err = c.Orgs.GetTeam(ctx(t), team.ID)
		mustStatus(t, err, http.StatusNotFound)
	})

	t.Run("labels", func(t *testing.T) {
		l, resp, err := c.Orgs.CreateLabel(ctx(t), org, forgejo.CreateLabelRequest{Name: "org-wide", Color: "#123456", Exclusive: false})
		ok(t, "create org label", err)
		if l.Name != "org-wide" || status(resp) != http.StatusCreated {
			t.Fatalf("org label (%d) = %+v", status(resp), l)
		}
		got, _, err := c.Orgs.GetLabel(ctx(t), org, l.ID)
		if err != nil || got.Name != "org-wide" {
			t.Fatalf("get org label = %+v, %v", got, err)
		}
		got, _, err = c.Orgs.EditLabel(ctx(t), org, l.ID, forgejo.EditLabelRequest{Description: forgejo.Ptr("for every repo")})
		if err != nil || got.Description != "for every repo" {
			t.Fatalf("edit org label = %+v, %v", got, err)
		}
		list, _, err := c.Orgs.ListLabels(ctx(t), org, nil)
		if err != nil || len(list) != 1 {
			t.Fatalf("org labels = %v, %v", list, err)
		}
		// An org label can label an issue of its repositories.
		n := newIssue(t, c, org, "service", "labelled with an org label")
		ls, _, err := c.Issues.AddLabelsToIssue(ctx(t), org, "service", n, forgejo.IssueLabelsRequest{Labels: forgejo.LabelIDs(l.ID)})
		if err != nil || len(ls) != 1 || ls[0].ID != l.ID {
			t.Fatalf("org label on an issue = %v, %v", ls, err)
		}
		resp, err = c.Orgs.DeleteLabel(ctx(t), org, l.ID)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete org label: %d, %v", status(resp), err)
		}
	})

	t.Run("hooks", func(t *testing.T) {
		h, resp, err := c.Orgs.CreateHook(ctx(t), org, forgejo.CreateHookRequest{
			Type: "gitea", Active: true, Events: []string{"repository"},
			Config: forgejo.HookConfig{"url": "http://hooks.invalid/org", "content_type": "json"},
		})
		ok(t, "create org hook", err)
		if h.ID == 0 || status(resp) != http.StatusCreated {
			t.Fatalf("org hook (%d) = %+v", status(resp), h)
		}
		list, _, err := c.Orgs.ListHooks(ctx(t), org, nil)
		if err != nil || len(list) != 1 {
			t.Fatalf("org hooks = %v, %v", list, err)
		}
		got, _, err := c.Orgs.GetHook(ctx(t), org, h.ID)
		if err != nil || got.Config["url"] != "http://hooks.invalid/org" {
			t.Fatalf("get org hook = %+v, %v", got, err)
		}
		got, _, err = c.Orgs.EditHook(ctx(t), org, h.ID, forgejo.EditHookRequest{Active: forgejo.Ptr(false)})
		if err != nil || got.Active {
			t.Fatalf("edit org hook = %+v, %v", got, err)
		}
		resp, err = c.Orgs.DeleteHook(ctx(t), org, h.ID)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete org hook: %d, %v", status(resp), err)
		}
	})

	t.Run("actions", func(t *testing.T) {
		resp, err := c.Actions.SetOrgSecret(ctx(t), org, "ORG_SECRET", forgejo.CreateOrUpdateSecretRequest{Data: "x"})
		if err != nil || status(resp) != http.StatusCreated {
			t.Fatalf("org secret: %d, %v", status(resp), err)
		}
		secrets, _, err := c.Actions.ListOrgSecrets(ctx(t), org, nil)
		if err != nil || len(secrets) != 1 || secrets[0].Name != "ORG_SECRET" {
			t.Fatalf("org secrets = %v, %v", secrets, err)
		}
		resp, err = c.Actions.DeleteOrgSecret(ctx(t), org, "ORG_SECRET")
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete org secret: %d, %v", status(resp), err)
		}
		_, err = c.Actions.CreateOrgVariable(ctx(t), org, "ORG_VAR", forgejo.CreateVariableRequest{Value: "a"})
		ok(t, "org variable", err)
		v, _, err := c.Actions.GetOrgVariable(ctx(t), org, "ORG_VAR")
		if err != nil || v.Data != "a" {
			t.Fatalf("org variable = %+v, %v", v, err)
		}
		_, err = c.Actions.UpdateOrgVariable(ctx(t), org, "ORG_VAR", forgejo.UpdateVariableRequest{Value: "b", Name: "ORG_VAR2"})
		ok(t, "update org variable", err)
		vars, _, err := c.Actions.ListOrgVariables(ctx(t), org, nil)
		if err != nil || len(vars) != 1 || vars[0].Name != "ORG_VAR2" || vars[0].Data != "b" {
			t.Fatalf("org variables = %+v, %v", vars, err)
		}
		resp, err = c.Actions.DeleteOrgVariable(ctx(t), org, "ORG_VAR2")
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete org variable: %d, %v", status(resp), err)
		}
		_, _, err = c.Actions.ListOrgRunners(ctx(t), org, nil)
		mustEnvelope(t, err, "runners")
	})

	t.Run("activity and avatar", func(t *testing.T) {
		feed, _, err := c.Orgs.ListActivityFeeds(ctx(t), org, nil)
		if err != nil || len(feed) == 0 {
			t.Fatalf("org feed = %d, %v", len(feed), err)
		}
		resp, err := c.Orgs.SetAvatar(ctx(t), org, forgejo.UpdateUserAvatarRequest{Image: pngImage(t)})
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("org avatar: %d, %v", status(resp), err)
		}
		resp, err = c.Orgs.DeleteAvatar(ctx(t), org)
		if err != nil || status(resp) != http.StatusNoContent {
			t.Fatalf("delete org avatar: %d, %v", status(resp), err)
		}
	})

	t.Run("delete with repositories", func(t *testing.T) {
		// An organization that still owns repositories cannot be deleted;
		// Gitea says so with a 500 (HAZARDS.md), which the client does not
		// repeat here (orgDelete is never retried).
		_, err := c.Orgs.Delete(ctx(t), org)
		if ae := mustStatus(t, err, http.StatusInternalServerError); !strings.Contains(ae.Message, "ownership of repositories") || ae.Call.Attempt != 1 {
			t.Fatalf("delete an org with repositories: %+v", ae)
		}
	})
}

// TestOrganizationRename renames an organization: Gitea has the route.
func TestOrganizationRename(t *testing.T) {
	c := admin(t)
	org := unique("org")
	_, _, err := c.Orgs.Create(ctx(t), forgejo.CreateOrgRequest{Username: org})
	ok(t, "create", err)
	renamed := org + "-new"
	cleanup(t, "renamed org", func(ctx context.Context) (*forgejo.Response, error) { return c.Orgs.Delete(ctx, renamed) })
	resp, err := c.Orgs.Rename(ctx(t), org, forgejo.RenameOrgRequest{NewName: renamed})
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("rename org: %d, %v", status(resp), err)
	}
	got, _, err := c.Orgs.Get(ctx(t), renamed)
	if err != nil || got.Name != renamed {
		t.Fatalf("renamed org = %+v, %v", got, err)
	}
	resp, err = c.Orgs.Delete(ctx(t), renamed)
	if err != nil || status(resp) != http.StatusNoContent {
		t.Fatalf("delete org: %d, %v", status(resp), err)
	}
	_, _, err = c.Orgs.Get(ctx(t), renamed)
	mustStatus(t, err, http.StatusNotFound)
}

func containsOrg(orgs []*forgejo.Organization, name string) bool {
	for _, o := range orgs {
		if o.Name == name {
			return true
		}
	}
	return false
}

func containsTeam(teams []*forgejo.Team, id int64) bool {
	for _, x := range teams {
		if x.ID == id {
			return true
		}
	}
	return false
}
