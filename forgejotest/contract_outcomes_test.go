package forgejotest

import (
	"fmt"
	"io"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
)

// The contract for the outcomes a real program's scenario found the fake
// getting wrong (issue 23): a team without units, deleting a label that is
// not there, forking into an organization, a 51 MiB release asset. Same rules as contract_test.go;
// it runs after gaps(): s.org exists and user2 is a write collaborator.

func (s *scenario) outcomes() {
	s.teamUnits()
	s.missingLabelDelete()
	s.forkIntoOrg()
	s.bigAsset()
	s.compare()
	s.statuses()
	s.topicSearch()
	s.singleCommit()
}

func (s *scenario) teamUnits() {
	c := s.tg.c1
	// Below admin, units (or units_map) are required: 500, and the message
	// is shown to a site administrator (user1) only.
	_, _, err := c.Orgs.CreateTeam(s.ctx, s.org, forgejo.CreateTeamOption{Name: "nounits", Permission: "write"})
	e := s.apiErr(err, "team without units")
	s.note("team without units: %d %q", e.StatusCode, e.Message)
	_, _, err = c.Orgs.CreateTeam(s.ctx, s.org, forgejo.CreateTeamOption{Name: "nounits", Permission: "read", Units: []string{}})
	e = s.apiErr(err, "team with empty units")
	s.note("team with empty units: %d %q", e.StatusCode, e.Message)
	_, _, err = c.Orgs.CreateTeam(s.ctx, s.org, forgejo.CreateTeamOption{Name: "bad name!", Permission: "write"})
	e = s.apiErr(err, "bad team name without units")
	s.note("bad team name without units: %d %q", e.StatusCode, e.Message)
	teams, _, err := c.Orgs.ListTeams(s.ctx, s.org, nil)
	s.must(err, "teams")
	s.note("no team was made: %v", !strings.Contains(teamNames(teams), "nounits"))
	// An admin team needs none.
	t, resp, err := c.Orgs.CreateTeam(s.ctx, s.org, forgejo.CreateTeamOption{Name: "admins", Permission: "admin"})
	s.must(err, "admin team without units")
	s.note("admin team without units: %d permission %s units %d", resp.StatusCode, t.Permission, len(t.Units))
	_, err = c.Orgs.DeleteTeam(s.ctx, t.ID)
	s.must(err, "delete the admin team")
	// units_map alone is enough.
	t, resp, err = c.Orgs.CreateTeam(s.ctx, s.org, forgejo.CreateTeamOption{Name: "mapped", UnitsMap: map[string]string{"repo.code": "write"}})
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

func (s *scenario) missingLabelDelete() {
	c := s.tg.c1
	resp, err := c.Issues.DeleteLabel(s.ctx, s.owner, s.repo, 999999)
	s.must(err, "delete a missing label")
	s.note("delete a missing label: %d", resp.StatusCode)
	resp, err = c.Orgs.DeleteLabel(s.ctx, s.org, 999999)
	s.must(err, "delete a missing org label")
	s.note("delete a missing org label: %d", resp.StatusCode)
	_, err = c.Issues.DeleteLabel(s.ctx, s.owner, "no-such-repo-contract", 1)
	e := s.apiErr(err, "label of a missing repository")
	s.note("delete a label of a missing repository: %d", e.StatusCode)
	_, err = s.tg.anon.Issues.DeleteLabel(s.ctx, s.owner, s.repo, 999999)
	e = s.apiErr(err, "delete a label anonymously")
	s.note("delete a label anonymously: %d", e.StatusCode)
}

func (s *scenario) forkIntoOrg() {
	c := s.tg.c1
	f, resp, err := c.Repos.CreateFork(s.ctx, s.owner, s.repo, forgejo.CreateForkOption{Organization: s.org})
	s.must(err, "fork into the organization")
	s.note("fork into org: %d owner is the org %v fork %v parent %v", resp.StatusCode, f.Owner != nil && f.Owner.Login == s.org, f.Fork,
		f.Parent != nil && f.Parent.FullName == s.owner+"/"+s.repo)
	forks, _, err := c.Repos.ListForks(s.ctx, s.owner, s.repo, nil)
	s.must(err, "forks")
	var owners []string
	for _, x := range forks {
		owners = append(owners, x.Owner.Login)
	}
	s.note("forks: %d, the org's %v", len(forks), len(owners) == 1 && owners[0] == s.org)
	_, _, err = c.Repos.CreateFork(s.ctx, s.owner, s.repo, forgejo.CreateForkOption{Organization: s.org})
	e := s.apiErr(err, "fork into the organization again")
	s.note("fork into org again: %d %q", e.StatusCode, strings.NewReplacer(s.org, "ORG", s.owner+"/"+s.repo, "REPO", s.repo, "NAME").Replace(e.Message))
	_, _, err = c.Repos.CreateFork(s.ctx, s.owner, s.repo, forgejo.CreateForkOption{Organization: s.org, Name: "another-name"})
	e = s.apiErr(err, "fork into the organization again, renamed")
	s.note("fork into org again under another name: %d", e.StatusCode)

	_, _, err = c.Repos.CreateFork(s.ctx, s.owner, s.repo, forgejo.CreateForkOption{Organization: "no-such-org-contract"})
	e = s.apiErr(err, "fork into a missing org")
	// Differs on purpose: Forgejo 15 (Gitea 1.22's handler) answers an
	// organization that does not exist 422 "org does not exist"; Gitea
	// 1.27 404.
	if want := map[bool]int{true: 422, false: 404}[s.tg.fake]; e.StatusCode != want {
		s.t.Errorf("fork into a missing org on %s: %d, want %d", s.tg.name, e.StatusCode, want)
	}
	if isM, _, err := c.Orgs.IsMember(s.ctx, s.org, s.tg.user2); err == nil && !isM {
		_, _, err = s.tg.c2.Repos.CreateFork(s.ctx, s.owner, s.repo, forgejo.CreateForkOption{Organization: s.org})
		s.note("user2 (no member) forks into the org: %d", s.status(err))
	}

	resp, err = c.Repos.Delete(s.ctx, s.org, f.Name)
	s.must(err, "delete the fork")
	s.note("delete the fork: %d", resp.StatusCode)
}

// zeros is an endless reader of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// bigAsset uploads a 51 MiB release asset, past the 32 MiB the fake used to
// cut every body at and well within a default Forgejo's 2048 MiB.
func (s *scenario) bigAsset() {
	c := s.tg.c1
	rel, _, err := c.Repos.CreateRelease(s.ctx, s.owner, s.repo, forgejo.CreateReleaseOption{TagName: "v51.0.0", Name: "Big"})
	s.must(err, "release")
	const size = 51 << 20
	a, resp, err := c.Repos.UploadReleaseAsset(s.ctx, s.owner, s.repo, rel.ID, nil,
		forgejo.Upload{Name: "big.bin", Content: io.LimitReader(zeros{}, size), Size: size})
	s.must(err, "upload a 51 MiB asset")
	s.note("51 MiB release asset: %d name %s size %d", resp.StatusCode, a.Name, a.Size)
	got, _, err := c.Repos.GetReleaseAsset(s.ctx, s.owner, s.repo, rel.ID, a.ID)
	s.must(err, "get it")
	s.note("get it: size %d", got.Size)
	_, err = c.Repos.DeleteRelease(s.ctx, s.owner, s.repo, rel.ID)
	s.must(err, "delete the release")
}

// compare is repoCompareDiff, which changelog generators call: the commits
// of a branch since the default branch, newest first, with their files.
func (s *scenario) compare() {
	c := s.tg.c1
	_, _, err := c.Repos.CreateBranch(s.ctx, s.owner, s.repo, forgejo.CreateBranchRepoOption{NewBranchName: "cmp"})
	s.must(err, "branch")
	readme, _, err := c.Repos.GetContents(s.ctx, s.owner, s.repo, "README.md", &forgejo.RepoGetContentsOptions{Ref: "cmp"})
	s.must(err, "README")
	_, _, err = c.Repos.CreateFile(s.ctx, s.owner, s.repo, "cmp/one.txt", forgejo.CreateFileOptions{Branch: "cmp", Content: b64("1\n2\n"), Message: "Add one\n\nwith a body"})
	s.must(err, "add on the branch")
	_, _, err = c.Repos.UpdateFile(s.ctx, s.owner, s.repo, "README.md", forgejo.UpdateFileOptions{Branch: "cmp", SHA: readme.File.SHA,
		Content: b64("# changed\n"), Message: "Change the readme"})
	s.must(err, "update on the branch")
	desc := func(cmp *forgejo.Compare) string {
		var out []string
		for _, cm := range cmp.Commits {
			var fs []string
			for _, f := range cm.Files {
				fs = append(fs, f.Filename+":"+f.Status)
			}
			parents := 0
			if cm.Parents != nil {
				parents = len(cm.Parents)
			}
			out = append(out, fmt.Sprintf("%q files %v +%d-%d=%d parents %d author %v", cm.Commit.Message, fs,
				cm.Stats.Additions, cm.Stats.Deletions, cm.Stats.Total, parents, cm.Author != nil && cm.Author.Login == s.owner))
		}
		return fmt.Sprintf("total %d: %v", cmp.TotalCommits, out)
	}
	for _, bh := range []string{"main...cmp", "main..cmp", "cmp", "cmp...main", "main...main"} {
		cmp, resp, err := c.Repos.CompareCommits(s.ctx, s.owner, s.repo, bh)
		s.must(err, "compare "+bh)
		s.note("compare %s: %d %s", bh, resp.StatusCode, desc(cmp))
	}
	br, _, err := c.Repos.GetBranch(s.ctx, s.owner, s.repo, "main")
	s.must(err, "main")
	cmp, _, err := s.tg.anon.Repos.CompareCommits(s.ctx, s.owner, s.repo, br.Commit.ID+"...cmp")
	s.must(err, "compare from a commit id, anonymously")
	s.note("compare from main's commit id, anonymously: total %d", cmp.TotalCommits)
	for _, bh := range []string{"main...no-such-ref", "no-such-ref...cmp"} {
		_, _, err = c.Repos.CompareCommits(s.ctx, s.owner, s.repo, bh)
		e := s.apiErr(err, "compare "+bh)
		s.note("compare %s: %d", bh, e.StatusCode)
	}
	_, _, err = c.Repos.CompareCommits(s.ctx, s.owner, "no-such-repo-contract", "main...cmp")
	s.note("compare in a missing repository: %d", s.status(err))
}

// statuses are commit statuses, as CI systems report them.
func (s *scenario) statuses() {
	c := s.tg.c1
	br, _, err := c.Repos.GetBranch(s.ctx, s.owner, s.repo, "main")
	s.must(err, "main")
	sha := br.Commit.ID
	combined := func() string {
		s.t.Helper()
		cs, resp, err := s.tg.anon.Repos.GetCombinedStatus(s.ctx, s.owner, s.repo, "main", nil)
		s.must(err, "combined status")
		var ctxs []string
		for _, st := range cs.Statuses {
			ctxs = append(ctxs, st.Context+":"+string(st.Status))
		}
		return fmt.Sprintf("%s total %d %v sha ok %v repo ok %v url ok %v total header %q", cs.State, cs.TotalCount, ctxs, cs.SHA == sha,
			cs.Repository != nil && cs.Repository.FullName == s.owner+"/"+s.repo, strings.HasSuffix(cs.URL, "/commits/"+sha+"/status"), resp.Header.Get("X-Total-Count"))
	}
	st, resp, err := c.Repos.CreateStatus(s.ctx, s.owner, s.repo, sha, forgejo.CreateStatusOption{State: "pending", Context: "ci/build", Description: "building", TargetURL: "http://ci.example/1"})
	s.must(err, "create a status")
	s.note("create status: %d %s %s %q %s creator ok %v url ok %v", resp.StatusCode, st.Status, st.Context, st.Description, st.TargetURL,
		st.Creator != nil && st.Creator.Login == s.owner, strings.HasSuffix(st.URL, "/statuses/"+sha))
	s.note("combined after pending: %s", combined())
	_, _, err = c.Repos.CreateStatus(s.ctx, s.owner, s.repo, sha, forgejo.CreateStatusOption{State: "success", Context: "ci/build"})
	s.must(err, "success")
	s.note("combined after success: %s", combined())
	_, resp, err = s.tg.c2.Repos.CreateStatus(s.ctx, s.owner, s.repo, sha, forgejo.CreateStatusOption{State: "failure", Context: "ci/lint"})
	s.must(err, "user2 (write collaborator) reports a failure")
	s.note("user2 reports: %d; combined: %s", resp.StatusCode, combined())

	list, resp, err := c.Repos.ListStatusesBySHA(s.ctx, s.owner, s.repo, sha, nil)
	s.must(err, "list by sha")
	var all []string
	for _, x := range list {
		all = append(all, x.Context+":"+string(x.Status))
	}
	s.note("statuses by sha: %v total %q", sorted(all), resp.Header.Get("X-Total-Count"))
	byRef, _, err := c.Repos.ListStatuses(s.ctx, s.owner, s.repo, "main", nil)
	s.must(err, "list by ref")
	page, resp, err := c.Repos.ListStatuses(s.ctx, s.owner, s.repo, "main", &forgejo.RepoListStatusesOptions{ListOptions: forgejo.ListOptions{Page: 1, Limit: 1}})
	s.must(err, "a page")
	s.note("statuses by ref: %d; page 1 limit 1: %d total %q next %d", len(byRef), len(page), resp.Header.Get("X-Total-Count"), resp.NextPage)
	failed, _, err := c.Repos.ListStatuses(s.ctx, s.owner, s.repo, "main", &forgejo.RepoListStatusesOptions{State: "failure"})
	s.must(err, "filter by state")
	s.note("statuses in state failure: %d", len(failed))
	none, _, err := c.Repos.ListStatusesBySHA(s.ctx, s.owner, s.repo, strings.Repeat("0", 40), nil)
	s.must(err, "statuses of an unknown commit")
	s.note("statuses of an unknown commit: %d", len(none))

	_, _, err = s.tg.anon.Repos.CreateStatus(s.ctx, s.owner, s.repo, sha, forgejo.CreateStatusOption{State: "success"})
	s.note("create a status anonymously: %d", s.status(err))
	_, _, err = c.Repos.CreateStatus(s.ctx, s.owner, s.repo, "deadbeef", forgejo.CreateStatusOption{State: "success"})
	e := s.apiErr(err, "status of a missing commit")
	s.note("status of a missing commit: %d %q", e.StatusCode, e.Message)
	// Differs on purpose: for a ref without statuses Forgejo answers an
	// empty combined status; Gitea 1.27 "pending" with the sha.
	cs, _, err := c.Repos.GetCombinedStatus(s.ctx, s.owner, s.repo, "cmp", nil)
	s.must(err, "combined status without statuses")
	s.note("combined without statuses: total %d", cs.TotalCount)
	if want := map[bool]forgejo.CommitStatusState{true: "", false: "pending"}[s.tg.fake]; cs.State != want {
		s.t.Errorf("combined without statuses on %s: %q, want %q", s.tg.name, cs.State, want)
	}
}

// topicSearch is the instance's topic search, by a keyword no other run
// uses (the real server keeps every topic it has seen).
func (s *scenario) topicSearch() {
	c := s.tg.c1
	kw := "k" + s.repo[len(s.repo)-8:]
	resp, err := c.Repos.ReplaceTopics(s.ctx, s.owner, s.repo, []string{kw + "-alpha", kw + "-beta"})
	s.must(err, "topics")
	s.note("set two new topics: %d", resp.StatusCode)
	search := func(q string, o forgejo.ListOptions) string {
		s.t.Helper()
		ts, resp, err := s.tg.anon.Repos.SearchTopics(s.ctx, &forgejo.RepoSearchTopicsOptions{Query: q, ListOptions: o})
		s.must(err, "search topics")
		var out []string
		for _, t := range ts {
			out = append(out, fmt.Sprintf("%s:%d:%v", strings.TrimPrefix(t.TopicName, kw), t.RepoCount, t.ID > 0 && !t.Created.IsZero()))
		}
		return fmt.Sprintf("%v total %q link %v", out, resp.Header.Get("X-Total-Count"), linkSent(resp))
	}
	s.note("search %s: %s", "kw", search(kw, forgejo.ListOptions{}))
	s.note("search %s page 1 limit 1: %s", "kw", search(kw, forgejo.ListOptions{Page: 1, Limit: 1}))
	s.note("search %s-BETA: %s", "kw", search(strings.ToUpper(kw)+"-BETA", forgejo.ListOptions{}))
	s.note("search nothing: %s", search(kw+"-zzz", forgejo.ListOptions{}))
	_, err = c.Repos.RemoveTopic(s.ctx, s.owner, s.repo, kw+"-alpha")
	s.must(err, "remove a topic")
	s.note("remove one, then search: %s", search(kw, forgejo.ListOptions{}))
}

// singleCommit is repoGetSingleCommit, after compare() made branch cmp.
func (s *scenario) singleCommit() {
	c := s.tg.c1
	br, _, err := c.Repos.GetBranch(s.ctx, s.owner, s.repo, "cmp")
	s.must(err, "cmp")
	sha := br.Commit.ID
	desc := func(cm *forgejo.Commit) string {
		var fs []string
		for _, f := range cm.Files {
			fs = append(fs, f.Filename+":"+f.Status)
		}
		return fmt.Sprintf("%q files %v (nil %v) +%d-%d=%d parents %d sha ok %v url ok %v", cm.Commit.Message, fs, cm.Files == nil,
			cm.Stats.Additions, cm.Stats.Deletions, cm.Stats.Total, len(cm.Parents), cm.SHA == sha, strings.HasSuffix(cm.URL, "/git/commits/"+sha))
	}
	for _, ref := range []string{sha, sha[:10], "cmp"} {
		cm, resp, err := s.tg.anon.Repos.GetCommit(s.ctx, s.owner, s.repo, ref, nil)
		s.must(err, "get a commit")
		s.note("get commit by %s: %d %s", map[string]string{sha: "id", sha[:10]: "prefix", "cmp": "branch"}[ref], resp.StatusCode, desc(cm))
	}
	cm, _, err := c.Repos.GetCommit(s.ctx, s.owner, s.repo, sha, &forgejo.RepoGetCommitOptions{Files: forgejo.Ptr(false)})
	s.must(err, "without files")
	s.note("get commit without files: %s", desc(cm))
	for _, ref := range []string{strings.Repeat("0", 40), "no-such-ref"} {
		_, _, err = c.Repos.GetCommit(s.ctx, s.owner, s.repo, ref, nil)
		s.note("get a missing commit: %d", s.status(err))
	}
}
