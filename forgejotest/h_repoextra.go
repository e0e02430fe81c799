package forgejotest

import (
	"cmp"
	"net/http"
	"strings"
)

// More of the repository that bots use: several files in one commit,
// renaming a branch, and finding the pull request of a commit or of a
// branch pair.

type wFilesResponse struct {
	Files        []*wContents   `json:"files"`
	Commit       *wFileCommit   `json:"commit"`
	Verification *wVerification `json:"verification"`
}

// hChangeFiles is repoChangeFiles: create, update and delete files in one
// commit. Every change is checked before anything is written; the errors
// are those of the one-file routes, except that a stale sha is 409 for a
// delete too (the multi-file route shares the update's handler) and that a
// missing sha is not checked. A deleted file's entry in files is null.
func hChangeFiles(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	var b struct {
		fileBody
		Files []struct {
			Operation string `json:"operation"`
			Path      string `json:"path"`
			Content   string `json:"content"`
			FromPath  string `json:"from_path"`
			SHA       string `json:"sha"`
		} `json:"files"`
	}
	if !c.decode(&b) {
		return
	}
	if len(b.Files) == 0 {
		c.fail(http.StatusUnprocessableEntity, "[Files]: Required")
		return
	}
	type change struct {
		op, path, from, content string
	}
	var changes []change
	for _, f := range b.Files {
		content, ok := decodeContent(f.Content)
		if !ok {
			c.fail(http.StatusUnprocessableEntity, "illegal base64 data")
			return
		}
		switch f.Operation {
		case "create", "update", "delete":
		default:
			c.fail(http.StatusUnprocessableEntity, "[Files.Operation]: In")
			return
		}
		p := strings.Trim(f.Path, "/")
		changes = append(changes, change{f.Operation, p, cmp.Or(strings.Trim(f.FromPath, "/"), p), content})
	}
	br, ok := c.fileTarget(r, b.fileBody)
	if !ok {
		return
	}
	files := r.files(br)
	for i, ch := range changes {
		old, exists := files[ch.from]
		sha := b.Files[i].SHA
		switch {
		case ch.op == "create" && exists:
			c.fail(http.StatusUnprocessableEntity, "repository file already exists [path: "+ch.path+"]")
			return
		case ch.op != "create" && !exists:
			c.failErrs(http.StatusNotFound, "repository file does not exist [path: "+ch.from+"]")
			return
		case ch.op != "create" && sha != "" && blobSHA(old) != sha:
			c.fail(http.StatusConflict, "sha does not match [given: "+sha+", expected: "+blobSHA(old)+"]")
			return
		}
	}
	msg := b.Message
	if msg == "" {
		// Forgejo's changeFilesCommitMessage: one line per operation.
		var lines []string
		for _, op := range []struct{ op, verb string }{{"create", "Add"}, {"update", "Update"}, {"delete", "Delete"}} {
			var ps []string
			for _, ch := range changes {
				if ch.op == op.op {
					ps = append(ps, ch.path)
				}
			}
			if len(ps) > 0 {
				lines = append(lines, op.verb+" "+strings.Join(ps, ", "))
			}
		}
		msg = strings.Join(lines, "\n")
	}
	before := br.sha
	var added, removed, modified []string
	cm := r.commitFiles(br, commitMessage(msg, "", ""), c.user, c.now, func(fs map[string]string) {
		for _, ch := range changes {
			switch {
			case ch.op == "delete":
				delete(fs, ch.path)
				removed = append(removed, ch.path)
			case ch.op == "create":
				fs[ch.path] = ch.content
				added = append(added, ch.path)
			case ch.from != ch.path:
				delete(fs, ch.from)
				fs[ch.path] = ch.content
				added, removed = append(added, ch.path), append(removed, ch.from)
			default:
				fs[ch.path] = ch.content
				modified = append(modified, ch.path)
			}
		}
	})
	c.s.emitPush(c, r, br, before, cm, added, removed, modified)
	out := &wFilesResponse{Verification: &wVerification{Reason: "gpg.error.not_signed_commit"}}
	for _, ch := range changes {
		if ch.op == "delete" {
			out.Files = append(out.Files, nil)
			continue
		}
		out.Files = append(out.Files, c.fileResponse(r, br, cm, ch.path, true).Content)
	}
	out.Commit = c.fileResponse(r, br, cm, "", false).Commit
	c.json(http.StatusCreated, out)
}

// hRenameBranch is repoUpdateBranch: renaming a branch, the default
// branch and the pull requests on it following.
func hRenameBranch(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	var b struct {
		Name string `json:"name"`
	}
	if !c.decode(&b) {
		return
	}
	if strings.TrimSpace(b.Name) == "" {
		c.fail(http.StatusUnprocessableEntity, "[Name]: Required")
		return
	}
	if r.empty {
		c.fail(http.StatusNotFound, "Git Repository is empty.")
		return
	}
	old := c.p["branch"]
	br := r.branch(old)
	switch {
	case old == b.Name || r.branch(b.Name) != nil:
		c.fail(http.StatusUnprocessableEntity, "Cannot rename a branch using the same name or rename to a branch that already exists.")
		return
	case br == nil:
		c.fail(http.StatusNotFound, "Branch doesn't exist.")
		return
	}
	br.name = b.Name
	if r.defaultBranch == old {
		r.defaultBranch = b.Name
	}
	for _, is := range r.issues {
		if is == nil || is.pull == nil || is.pull.merged {
			continue
		}
		if is.pull.base == old {
			is.pull.base = b.Name
		}
		if is.pull.head == old {
			is.pull.head = b.Name
		}
	}
	c.empty(http.StatusNoContent)
}

// hCommitPull is repoGetCommitPullRequest: the pull request whose merge
// made the commit (a head commit is not enough, as Forgejo's
// GetPullRequestByMergedCommit looks at merges only).
func hCommitPull(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	sha := c.p["sha"]
	for _, is := range r.issues {
		if is != nil && is.pull != nil && is.pull.merged && is.pull.mergeSHA == sha {
			c.json(http.StatusOK, c.v.pull(is, false))
			return
		}
	}
	c.fail(http.StatusNotFound, "pull request does not exist [id: 0, issue_id: 0, head_repo_id: 0, base_repo_id: 0, head_branch: , base_branch: ]")
}

// hPullByBaseHead is repoGetPullRequestByBaseHead: the first pull request
// from head (a branch, or "owner:branch" of this repository) into base,
// whatever its state.
func hPullByBaseHead(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	head := c.p["head"]
	if owner, br, ok := strings.Cut(head, ":"); ok {
		if name, _, ok := strings.Cut(owner, "/"); ok {
			owner = name
		}
		if !strings.EqualFold(owner, r.owner.login) {
			c.notFound()
			return
		}
		head = br
	}
	for _, is := range r.issues {
		if is != nil && is.pull != nil && is.pull.base == c.p["base"] && is.pull.head == head {
			c.json(http.StatusOK, c.v.pull(is, false))
			return
		}
	}
	c.notFound()
}
