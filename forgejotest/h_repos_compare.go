package forgejotest

import (
	"encoding/hex"
	"net/http"
	"slices"
	"strings"
)

// hCompare is repoCompareDiff, GET /repos/{owner}/{repo}/compare/{basehead}:
// the commits of head since its merge base with base, newest first, as
// Forgejo lists them for a changelog. basehead is "base...head",
// "base..head" (the same list: histories here are linear), or a lone head
// compared with the default branch; base and head are branches, tags or
// commit ids (a prefix of at least 7 digits will do), head also
// "owner:branch" for a fork. Each commit carries its files (unless
// ?files=false) and line stats; Forgejo also sends every commit's files
// together as "files" (Gitea 1.27 does not).
func hCompare(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	bh := c.p["basehead"]
	base, head := r.defaultBranch, r.defaultBranch
	if b, h, ok := strings.Cut(bh, "..."); ok {
		base, head = b, h
	} else if b, h, ok := strings.Cut(bh, ".."); ok {
		base, head = b, h
	} else if bh != "" {
		head = bh
	}
	headRepo := r
	if owner, ref, ok := strings.Cut(head, ":"); ok {
		headRepo, head = c.forkOf(r, owner), ref
	}
	// Forgejo's parseCompareInfo: ctx.NotFound("BaseNotExist") and
	// ctx.NotFound("IsRefExist"), the string as the message (Gitea 1.27:
	// `ref "x" does not exist`).
	baseSHA, ok := r.commitOf(base)
	if !ok {
		c.fail(http.StatusNotFound, "BaseNotExist")
		return
	}
	var headSHA string
	if headRepo != nil {
		headSHA, ok = headRepo.commitOf(head)
	}
	if headRepo == nil || !ok {
		c.fail(http.StatusNotFound, "IsRefExist")
		return
	}
	known := func(sha string) *commit {
		if cm := headRepo.commits[sha]; cm != nil {
			return cm
		}
		return r.commits[sha]
	}
	inBase := map[string]bool{}
	for sha := baseSHA; sha != "" && !inBase[sha]; {
		inBase[sha] = true
		cm := known(sha)
		if cm == nil {
			break
		}
		sha = cm.parent
	}
	var list []*commit
	seen := map[string]bool{}
	for sha := headSHA; sha != "" && !inBase[sha] && !seen[sha]; {
		seen[sha] = true
		cm := known(sha)
		if cm == nil {
			break
		}
		list = append(list, cm)
		sha = cm.parent
	}
	withFiles := c.q.Get("files") != "false"
	commits := make([]*wCommit, 0, len(list))
	files := []*wCommitFile{}
	for _, cm := range list {
		var parent map[string]string
		if p := known(cm.parent); p != nil {
			parent = p.files
		}
		w := c.v.gitCommit(headRepo, cm, parent, withFiles)
		commits = append(commits, w)
		files = append(files, w.Files...)
	}
	c.json(http.StatusOK, map[string]any{"total_commits": len(commits), "commits": commits, "files": files})
}

// forkOf finds owner's repository in r's fork network (r itself, its parent,
// their forks) for a head written "owner:branch"; nil when there is none.
func (c *call) forkOf(r *repo, owner string) *repo {
	root := r
	for root.parent != nil {
		root = root.parent
	}
	var found *repo
	var walk func(x *repo)
	walk = func(x *repo) {
		if found == nil && strings.EqualFold(x.owner.login, owner) && canRead(c.user, x) {
			found = x
		}
		for _, f := range x.forks {
			walk(f)
		}
	}
	walk(root)
	return found
}

// commitOf resolves a branch, a tag, a commit id or a unique prefix of one
// (7 digits or more) to a commit id.
func (r *repo) commitOf(ref string) (string, bool) {
	if sha, _, ok := r.resolveRef(ref); ok && sha != "" {
		return sha, true
	}
	if len(ref) < 7 || len(ref) > 40 {
		return "", false
	}
	if _, err := hex.DecodeString(ref + strings.Repeat("0", len(ref)%2)); err != nil {
		return "", false
	}
	var match string
	for sha := range r.commits {
		if strings.HasPrefix(sha, strings.ToLower(ref)) {
			if match != "" {
				return "", false // ambiguous
			}
			match = sha
		}
	}
	return match, match != ""
}

// gitCommit renders a commit as the commit listings do: its files against
// parent (added, removed, then modified, each by path, as git reports them)
// and its line stats.
func (v view) gitCommit(r *repo, cm *commit, parent map[string]string, withFiles bool) *wCommit {
	full := r.owner.login + "/" + r.name
	who := cm.author
	if who == nil {
		who = r.owner
	}
	cu := &wCommitUser{Name: who.login, Email: who.login + "@noreply." + v.host, Date: ts(cm.when)}
	tree := treeSHA(cm.files, "")
	w := &wCommit{
		URL: v.api("/repos/" + full + "/git/commits/" + cm.sha), Sha: cm.sha, Created: ts(cm.when),
		HTMLURL: v.html("/" + full + "/commit/" + cm.sha),
		Commit: &wRepoCommit{
			URL: v.api("/repos/" + full + "/git/commits/" + cm.sha), Author: cu, Committer: cu, Message: cm.message,
			Tree:         &wCommitMeta{URL: v.api("/repos/" + full + "/git/trees/" + tree), Sha: tree, Created: ts(cm.when)},
			Verification: &wVerification{Reason: "gpg.error.not_signed_commit"},
		},
		Author: v.user(who), Committer: v.user(who), Parents: []*wCommitMeta{}, Stats: &wCommitStats{},
	}
	if cm.parent != "" {
		w.Parents = append(w.Parents, &wCommitMeta{URL: v.api("/repos/" + full + "/git/commits/" + cm.parent), Sha: cm.parent, Created: goZeroTime})
	}
	var added, removed, modified []string
	for _, p := range changedPaths(parent, cm.files) {
		old, had := parent[p]
		nw, has := cm.files[p]
		switch {
		case !had:
			added = append(added, p)
		case !has:
			removed = append(removed, p)
		default:
			modified = append(modified, p)
		}
		a, d := lineChanges(old, nw)
		w.Stats.Additions += a
		w.Stats.Deletions += d
	}
	w.Stats.Total = w.Stats.Additions + w.Stats.Deletions
	if withFiles {
		w.Files = []*wCommitFile{}
		for _, g := range []struct {
			status string
			paths  []string
		}{{"added", added}, {"removed", removed}, {"modified", modified}} {
			for _, p := range slices.Sorted(slices.Values(g.paths)) {
				w.Files = append(w.Files, &wCommitFile{Filename: p, Status: g.status})
			}
		}
	}
	return w
}

// hGetCommit is repoGetSingleCommit, GET .../git/commits/{sha}: one commit
// by id, prefix, branch or tag, with its files (unless ?files=false) and
// stats. A commit that is not there is Forgejo's ctx.NotFound(identifier):
// 404 with the identifier as the message (Gitea 1.27: "commit doesn't
// exist: X").
func hGetCommit(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	sha, ok := r.commitOf(c.p["sha"])
	cm := r.commits[sha]
	if !ok || cm == nil {
		c.fail(http.StatusNotFound, c.p["sha"])
		return
	}
	var parent map[string]string
	if p := r.commits[cm.parent]; p != nil {
		parent = p.files
	}
	c.json(http.StatusOK, c.v.gitCommit(r, cm, parent, c.q.Get("files") != "false"))
}
