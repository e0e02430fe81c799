package forgejotest

import (
	"slices"
	"strings"
	"time"
)

// The model of organizations and teams. Every field is guarded by Server.mu.

type org struct {
	description    string
	website        string
	location       string
	email          string
	visibility     string
	adminTeamCheck bool
	members        []*user
	public         []*user
	teams          []*team
	labels         []*label
}

type team struct {
	id               int64
	org              *user
	name             string
	description      string
	permission       string // read, write, admin or owner
	includesAll      bool
	canCreateOrgRepo bool
	units            []string
	unitsMap         map[string]string
	members          []*user
	repos            []*repo
}

func (o *org) isMember(u *user) bool { return u != nil && slices.Contains(o.members, u) }

func (o *org) isOwner(u *user) bool {
	if u == nil {
		return false
	}
	if u.isAdmin {
		return true
	}
	for _, t := range o.teams {
		if t.permission == "owner" && slices.Contains(t.members, u) {
			return true
		}
	}
	return false
}

func (o *org) team(name string) *team {
	for _, t := range o.teams {
		if strings.EqualFold(t.name, name) {
			return t
		}
	}
	return nil
}

func (st *state) addOrg(name string, creator *user, now time.Time) *user {
	u := st.addUser(name, now)
	u.org = &org{visibility: "public"}
	owners := &team{id: st.id("team"), org: u, name: "Owners", permission: "owner", includesAll: true, canCreateOrgRepo: true,
		units: allUnits(), unitsMap: unitsMap(allUnits(), "owner")}
	if creator != nil {
		owners.members = []*user{creator}
		u.org.members = []*user{creator}
	}
	u.org.teams = []*team{owners}
	return u
}

func (st *state) teamByID(id int64) *team {
	for _, u := range st.usersInOrder {
		if u.org == nil {
			continue
		}
		for _, t := range u.org.teams {
			if t.id == id {
				return t
			}
		}
	}
	return nil
}

func allUnits() []string {
	return []string{"repo.code", "repo.issues", "repo.ext_issues", "repo.wiki", "repo.ext_wiki", "repo.pulls", "repo.releases", "repo.projects", "repo.packages", "repo.actions"}
}

func unitsMap(units []string, perm string) map[string]string {
	m := map[string]string{}
	for _, u := range units {
		m[u] = perm
	}
	return m
}
