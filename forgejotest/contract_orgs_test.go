package forgejotest

import (
	"fmt"
	"slices"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
)

// The contract scenario's steps for OrgsService: organizations, members
// and teams. Same rules as contract_test.go; runScenario calls them in order.

func (s *scenario) orgsAndTeams() {
	c1, c2 := s.tg.c1, s.tg.c2
	name := "co" + strings.TrimPrefix(s.repo, "contract")
	s.org = name
	o, resp, err := c1.Orgs.Create(s.ctx, forgejo.CreateOrgRequest{Username: name, FullName: "Contract Org", Description: "d", Visibility: "public"})
	s.must(err, "create an organization")
	s.note("create org: %d full name %q visibility %s description %q", resp.StatusCode, o.FullName, o.Visibility, o.Description)
	_, _, err = c1.Orgs.Create(s.ctx, forgejo.CreateOrgRequest{Username: name})
	e := s.apiErr(err, "org again")
	s.note("org again: %d", e.StatusCode)
	got, _, err := s.tg.anon.Orgs.Get(s.ctx, name)
	s.must(err, "get the org anonymously")
	s.note("get org anonymously: %q", got.FullName)
	_, _, err = c1.Orgs.Get(s.ctx, name+"-missing")
	e = s.apiErr(err, "missing org")
	s.note("missing org: %d", e.StatusCode)
	// Differs on purpose: Forgejo answers GetOrgByName with the detail in
	// errors; Gitea 1.27 "not found".
	if s.tg.forgejo && e.Message != "GetOrgByName" {
		s.t.Errorf("missing org on the fake: %+v", e)
	}

	mine, _, err := c1.Orgs.List(s.ctx, nil)
	s.must(err, "my orgs")
	s.note("user1's orgs include it %v", slices.ContainsFunc(mine, func(o *forgejo.Organization) bool { return o.Name == name }))
	isM, _, err := c1.Orgs.IsMember(s.ctx, name, s.tg.user1)
	s.must(err, "is member")
	isM2, _, err := c1.Orgs.IsMember(s.ctx, name, s.tg.user2)
	s.must(err, "is member")
	s.note("user1 member %v, user2 member %v", isM, isM2)

	teams, _, err := c1.Orgs.ListTeams(s.ctx, name, nil)
	s.must(err, "teams")
	var tn []string
	for _, t := range teams {
		tn = append(tn, t.Name+":"+string(t.Permission)+fmt.Sprint(":", t.IncludesAllRepositories))
	}
	s.note("teams: %v", tn)
	t, resp, err := c1.Orgs.CreateTeam(s.ctx, name, forgejo.CreateTeamRequest{Name: "devs", Description: "developers", Permission: "write",
		Units: []string{"repo.code", "repo.issues", "repo.pulls", "repo.releases"}})
	s.must(err, "create a team")
	s.note("create team: %d %s includes all %v units %v org %v", resp.StatusCode, t.Name, t.IncludesAllRepositories, t.Units,
		t.Organization != nil && t.Organization.Name == name)
	// Differs on purpose: Forgejo keeps the permission asked for next to
	// the units ("write"); Gitea 1.27 reports "none" once units are given.
	if want := map[bool]string{true: "write", false: "none"}[s.tg.forgejo]; string(t.Permission) != want {
		s.t.Errorf("team permission on %s: %s, want %s", s.tg.name, t.Permission, want)
	}
	_, _, err = c1.Orgs.CreateTeam(s.ctx, name, forgejo.CreateTeamRequest{Name: "devs", Permission: "read", Units: []string{"repo.code"}})
	e = s.apiErr(err, "team again")
	s.note("team again: %d", e.StatusCode)
	resp, err = c1.Orgs.AddTeamMember(s.ctx, t.ID, s.tg.user2)
	s.must(err, "add a member")
	members, _, err := c1.Orgs.ListTeamMembers(s.ctx, t.ID, nil)
	s.must(err, "team members")
	isM2, _, err = c1.Orgs.IsMember(s.ctx, name, s.tg.user2)
	s.must(err, "is member")
	s.note("add team member: %d, team members %d, user2 now an org member %v", resp.StatusCode, len(members), isM2)

	repo, resp, err := c1.Repos.CreateInOrg(s.ctx, name, forgejo.CreateRepoRequest{Name: "org-repo", AutoInit: true})
	s.must(err, "org repository")
	s.note("create org repo: %d owner is the org %v", resp.StatusCode, repo.Owner.Login == name)
	resp, err = c1.Orgs.AddTeamRepo(s.ctx, t.ID, name, "org-repo")
	s.must(err, "team repo")
	trs, _, err := c1.Orgs.ListTeamRepos(s.ctx, t.ID, nil)
	s.must(err, "team repos")
	r2, _, err := c2.Repos.Get(s.ctx, name, "org-repo")
	s.must(err, "user2 sees the org repo")
	s.note("add team repo: %d, team repos %d, user2 permissions %+v", resp.StatusCode, len(trs), *r2.Permissions)
	_, _, err = c2.Repos.CreateFile(s.ctx, name, "org-repo", "by-user2.txt", forgejo.CreateFileRequest{Content: b64("x"), Message: "x"})
	s.note("user2 writes through the team: ok %v", err == nil)

	l, resp, err := c1.Orgs.CreateLabel(s.ctx, name, forgejo.CreateLabelRequest{Name: "org-bug", Color: "#aa0000"})
	s.must(err, "org label")
	ls, resp2, err := c1.Orgs.ListLabels(s.ctx, name, nil)
	s.must(err, "org labels")
	total, _ := resp2.TotalCount()
	s.note("org label: %d %s color %s; labels %d (total %d), url is the org's %v", resp.StatusCode, l.Name, l.Color, len(ls), total,
		strings.Contains(l.URL, "/orgs/"+name+"/labels/"))
	is, _, err := c1.Issues.Create(s.ctx, name, "org-repo", forgejo.CreateIssueRequest{Title: "with an org label", Labels: []int64{l.ID}})
	s.must(err, "issue with an org label")
	s.note("issue with the org label: labels %s", labelName(is.Labels))

	_, err = c2.Orgs.DeleteTeam(s.ctx, t.ID)
	e = s.apiErr(err, "user2 deletes the team")
	// Differs on purpose: on a /teams/{id} route Forgejo 15 answers a
	// member who is no owner 404, Gitea 1.27 403.
	if want := map[bool]int{true: 404, false: 403}[s.tg.forgejo]; e.StatusCode != want {
		s.t.Errorf("user2 deletes the team on %s: %d, want %d", s.tg.name, e.StatusCode, want)
	}
	resp, err = c1.Orgs.DeleteTeam(s.ctx, t.ID)
	s.must(err, "delete team")
	s.note("delete team: %d", resp.StatusCode)
}

func (s *scenario) publicMembers() {
	c1, c2 := s.tg.c1, s.tg.c2
	logins := func() []string {
		us, _, err := s.tg.anon.Orgs.ListPublicMembers(s.ctx, s.org, nil)
		s.must(err, "public members")
		var out []string
		for _, u := range us {
			out = append(out, u.Login)
		}
		return sorted(out)
	}
	pub, resp, err := c1.Orgs.IsPublicMember(s.ctx, s.org, s.tg.user1)
	s.must(err, "is public member")
	s.note("creator public at first %v (%d), public members %v", pub, resp.StatusCode, logins())
	resp, err = c1.Orgs.PublicizeMembership(s.ctx, s.org, s.tg.user1)
	s.must(err, "publicize")
	pub, _, err = c2.Orgs.IsPublicMember(s.ctx, s.org, s.tg.user1)
	s.must(err, "is public member")
	s.note("publicize: %d, now public %v, public members %v", resp.StatusCode, pub, logins())
	_, err = c2.Orgs.PublicizeMembership(s.ctx, s.org, s.tg.user1)
	e := s.apiErr(err, "publicize someone else")
	s.note("user2 publicizes user1: %d", e.StatusCode)
	isM, _, err := c1.Orgs.IsMember(s.ctx, s.org, s.tg.user2)
	s.must(err, "is member")
	_, err = c2.Orgs.PublicizeMembership(s.ctx, s.org, s.tg.user2)
	s.note("user2 (member %v) publicizes self: %d", isM, s.status(err))
	pub, _, err = c1.Orgs.IsPublicMember(s.ctx, s.org, s.tg.user2)
	s.must(err, "user2 public")
	s.note("user2 public %v", pub)
	if pub {
		_, err = c2.Orgs.ConcealMembership(s.ctx, s.org, s.tg.user2)
		s.must(err, "user2 conceals")
	}
	resp, err = c1.Orgs.ConcealMembership(s.ctx, s.org, s.tg.user1)
	s.must(err, "conceal")
	pub, _, err = c1.Orgs.IsPublicMember(s.ctx, s.org, s.tg.user1)
	s.must(err, "is public member")
	s.note("conceal: %d, now public %v, public members %v", resp.StatusCode, pub, logins())
}

func (s *scenario) teamSearch() {
	c := s.tg.c1
	_, _, err := c.Orgs.CreateTeam(s.ctx, s.org, forgejo.CreateTeamRequest{Name: "qa", Description: "testers and owners of quality", Permission: "read", Units: []string{"repo.code"}})
	s.must(err, "team")
	search := func(q string, desc bool, cl *forgejo.Client) ([]string, *forgejo.Response, error) {
		ts, resp, err := cl.Orgs.SearchTeams(s.ctx, s.org, &forgejo.OrgSearchTeamsOptions{Query: q, IncludeDesc: forgejo.Ptr(desc)})
		var out []string
		for _, t := range ts {
			out = append(out, t.Name)
		}
		return sorted(out), resp, err
	}
	for _, tc := range []struct {
		q    string
		desc bool
	}{{"own", false}, {"own", true}, {"QA", false}, {"", false}, {"zzz", false}} {
		ns, resp, err := search(tc.q, tc.desc, c)
		s.must(err, "search teams")
		s.note("search teams %q desc %v: %v total %q", tc.q, tc.desc, ns, resp.Header.Get("X-Total-Count"))
	}
	ns, _, err := search("own", false, s.tg.c2)
	s.note("search teams by user2: %d %v", s.status(err), ns)
}

func (s *scenario) teamUnits() {
	c := s.tg.c1
	// Below admin, units (or units_map) are required: 500, and the message
	// is shown to a site administrator (user1) only.
	_, _, err := c.Orgs.CreateTeam(s.ctx, s.org, forgejo.CreateTeamRequest{Name: "nounits", Permission: "write"})
	e := s.apiErr(err, "team without units")
	s.note("team without units: %d %q", e.StatusCode, e.Message)
	_, _, err = c.Orgs.CreateTeam(s.ctx, s.org, forgejo.CreateTeamRequest{Name: "nounits", Permission: "read", Units: []string{}})
	e = s.apiErr(err, "team with empty units")
	s.note("team with empty units: %d %q", e.StatusCode, e.Message)
	_, _, err = c.Orgs.CreateTeam(s.ctx, s.org, forgejo.CreateTeamRequest{Name: "bad name!", Permission: "write"})
	e = s.apiErr(err, "bad team name without units")
	s.note("bad team name without units: %d %q", e.StatusCode, e.Message)
	teams, _, err := c.Orgs.ListTeams(s.ctx, s.org, nil)
	s.must(err, "teams")
	s.note("no team was made: %v", !strings.Contains(teamNames(teams), "nounits"))
	// An admin team needs none.
	t, resp, err := c.Orgs.CreateTeam(s.ctx, s.org, forgejo.CreateTeamRequest{Name: "admins", Permission: "admin"})
	s.must(err, "admin team without units")
	s.note("admin team without units: %d permission %s units %d", resp.StatusCode, t.Permission, len(t.Units))
	_, err = c.Orgs.DeleteTeam(s.ctx, t.ID)
	s.must(err, "delete the admin team")
	// units_map alone is enough.
	t, resp, err = c.Orgs.CreateTeam(s.ctx, s.org, forgejo.CreateTeamRequest{Name: "mapped", UnitsMap: map[string]string{"repo.code": "write"}})
	s.must(err, "team with units_map only")
	s.note("team with units_map only: %d units %v", resp.StatusCode, t.Units)
	_, err = c.Orgs.DeleteTeam(s.ctx, t.ID)
	s.must(err, "delete the mapped team")
}

func teamNames(ts []*forgejo.Team) string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return strings.Join(out, ",")
}
