package forgejotest

import (
	"cmp"
	"crypto/md5"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
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

// ---- git notes

// notesOf is r's notes, by commit id.
func (m *moreState) notesOf(r *repo) map[string]string {
	if m.notes == nil {
		m.notes = map[*repo]map[string]string{}
	}
	if m.notes[r] == nil {
		m.notes[r] = map[string]string{}
	}
	return m.notes[r]
}

// note answers the note on a commit (a ref or a commit id), with the
// commit; verification and files default to on.
func (c *call) note(r *repo, ref string) {
	sha, ok := r.commitOf(ref)
	cm := r.commits[sha]
	if !ok || cm == nil {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.", "object does not exist [id: "+ref+", rel_path: ]")
		return
	}
	msg, ok := c.st.more.notesOf(r)[sha]
	if !ok {
		c.failErrs(http.StatusNotFound, ref)
		return
	}
	var parent map[string]string
	if p := r.commits[cm.parent]; p != nil {
		parent = p.files
	}
	w := c.v.gitCommit(r, cm, parent, c.q.Get("files") != "false")
	if c.q.Get("verification") == "false" {
		w.Commit.Verification = nil
	}
	c.json(http.StatusOK, struct {
		Message string   `json:"message"`
		Commit  *wCommit `json:"commit"`
	}{msg, w})
}

func hGetNote(c *call) {
	if r := c.pathRepo(); r != nil {
		c.note(r, c.p["sha"])
	}
}

// hSetNote writes (or replaces) the note on a commit and answers it; the
// message is stored as git stores it, ending in a newline.
func hSetNote(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	var b struct {
		Message string `json:"message"`
	}
	if !c.decode(&b) {
		return
	}
	sha, ok := r.commitOf(c.p["sha"])
	if !ok {
		c.failErrs(http.StatusNotFound, c.p["sha"])
		return
	}
	if !strings.HasSuffix(b.Message, "\n") {
		b.Message += "\n"
	}
	c.st.more.notesOf(r)[sha] = b.Message
	c.note(r, sha)
}

func hRemoveNote(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	sha, ok := r.commitOf(c.p["sha"])
	notes := c.st.more.notesOf(r)
	if _, has := notes[sha]; !ok || !has {
		c.failErrs(http.StatusNotFound, c.p["sha"])
		return
	}
	delete(notes, sha)
	c.empty(http.StatusNoContent)
}

// ---- issue templates and the issue config

// templateDirs are where Forgejo looks for issue templates, in order.
var templateDirs = []string{
	".forgejo/ISSUE_TEMPLATE", ".forgejo/issue_template", ".gitea/ISSUE_TEMPLATE", ".gitea/issue_template",
	".github/ISSUE_TEMPLATE", ".github/issue_template", ".gitlab/ISSUE_TEMPLATE", ".gitlab/issue_template",
}

type wIssueTemplate struct {
	Name     string   `json:"name"`
	Title    string   `json:"title"`
	About    string   `json:"about"`
	Labels   []string `json:"labels"`
	Ref      string   `json:"ref"`
	Content  string   `json:"content"`
	Body     []any    `json:"body"`
	FileName string   `json:"file_name"`
}

// frontMatter splits a Markdown template into its "key: value" header
// and its content. Values are plain or quoted strings, or [a, b] lists;
// anything richer is not read.
func frontMatter(src string) (map[string]string, string, bool) {
	rest, ok := strings.CutPrefix(src, "---\n")
	if !ok {
		return nil, "", false
	}
	head, body, ok := strings.Cut(rest, "\n---")
	if !ok {
		return nil, "", false
	}
	body = strings.TrimPrefix(strings.TrimPrefix(body, "\r"), "\n")
	kv := map[string]string{}
	for _, l := range strings.Split(head, "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok || strings.HasPrefix(l, " ") {
			continue
		}
		kv[strings.TrimSpace(k)] = strings.Trim(strings.TrimSpace(v), `"'`)
	}
	return kv, body, true
}

func splitYAMLList(v string) []string {
	v = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(v), "["), "]")
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.Trim(strings.TrimSpace(s), `"'`); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// hIssueTemplates lists the Markdown issue templates of the default
// branch (YAML issue forms are not read by the fake); a template without a
// name or about is left out, as Forgejo leaves out invalid ones. A ref
// naming a branch or a tag is given in full (refs/heads/main).
func hIssueTemplates(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	var out []*wIssueTemplate // null when there is none, as Forgejo
	b := r.branch(r.defaultBranch)
	if b == nil || r.empty {
		c.json(http.StatusOK, out)
		return
	}
	files := r.files(b)
	for _, dir := range templateDirs {
		for _, e := range dirEntries(files, dir) {
			if e.dir || !strings.HasSuffix(strings.ToLower(e.name), ".md") {
				continue
			}
			kv, body, ok := frontMatter(files[e.path])
			about := cmp.Or(kv["about"], kv["description"])
			if !ok || kv["name"] == "" || about == "" {
				continue
			}
			ref := kv["ref"]
			switch {
			case ref == "" || strings.HasPrefix(ref, "refs/"):
			case r.branch(ref) != nil:
				ref = "refs/heads/" + ref
			case r.tag(ref) != nil:
				ref = "refs/tags/" + ref
			}
			out = append(out, &wIssueTemplate{
				Name: kv["name"], Title: kv["title"], About: about, Labels: splitYAMLList(kv["labels"]), Ref: ref,
				Content: body, FileName: e.path,
			})
		}
	}
	c.json(http.StatusOK, out)
}

// issueConfig reads blank_issues_enabled from the first config.yaml or
// config.yml of the template directories; contact links are not read.
func issueConfig(r *repo) (blank bool, err string) {
	blank = true
	b := r.branch(r.defaultBranch)
	if b == nil || r.empty {
		return blank, ""
	}
	files := r.files(b)
	for _, dir := range templateDirs {
		for _, name := range []string{"config.yaml", "config.yml"} {
			src, ok := files[dir+"/"+name]
			if !ok {
				continue
			}
			for _, l := range strings.Split(src, "\n") {
				if v, ok := strings.CutPrefix(strings.TrimSpace(l), "blank_issues_enabled:"); ok {
					switch strings.TrimSpace(v) {
					case "true":
					case "false":
						blank = false
					default:
						return true, "config.yaml: blank_issues_enabled must be a boolean"
					}
				}
			}
			return blank, ""
		}
	}
	return blank, ""
}

func hIssueConfig(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	blank, _ := issueConfig(r)
	c.json(http.StatusOK, struct {
		BlankIssuesEnabled bool  `json:"blank_issues_enabled"`
		ContactLinks       []any `json:"contact_links"`
	}{blank, []any{}})
}

func hValidateIssueConfig(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	_, msg := issueConfig(r)
	c.json(http.StatusOK, struct {
		Valid   bool   `json:"valid"`
		Message string `json:"message"`
	}{msg == "", msg})
}

// ---- transfers

type transfer struct {
	doer, recipient *user
}

// moveRepo gives r to a new owner; the old name redirects to it, as
// Forgejo keeps a redirect.
func (st *state) moveRepo(r *repo, to *user) {
	old := strings.ToLower(r.owner.login) + "/" + strings.ToLower(r.name)
	delete(st.repos, old)
	if st.more.redirects == nil {
		st.more.redirects = map[string]*repo{}
	}
	st.more.redirects[old] = r
	r.owner = to
	st.repos[strings.ToLower(to.login)+"/"+strings.ToLower(r.name)] = r
}

// hTransfer is repoTransfer: a site administrator (or an owner giving the
// repository to themself, or to an organization they may create
// repositories in) moves it at once (202); anyone else starts a transfer
// the recipient accepts or rejects (201). The answer is the repository as
// it is then.
func hTransfer(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if r.owner.org != nil && !r.owner.org.isOwner(c.user) || r.owner.org == nil && c.user != r.owner && !c.user.isAdmin {
		c.fail(http.StatusForbidden, "user should be the owner of the repo")
		return
	}
	var b struct {
		NewOwner string  `json:"new_owner"`
		TeamIDs  []int64 `json:"team_ids"`
	}
	if !c.decode(&b) {
		return
	}
	if strings.TrimSpace(b.NewOwner) == "" {
		c.fail(http.StatusUnprocessableEntity, "[NewOwner]: Required")
		return
	}
	to := c.st.user(b.NewOwner)
	if to == nil || to.org != nil && to.org.visibility == "private" && !c.user.isAdmin && !to.org.isMember(c.user) {
		c.fail(http.StatusNotFound, "The new owner does not exist or cannot be found")
		return
	}
	if b.TeamIDs != nil && to.org == nil {
		c.fail(http.StatusUnprocessableEntity, "Teams can only be added to organization-owned repositories")
		return
	}
	if c.st.more.transfers[r] != nil {
		c.fail(http.StatusConflict, "repository is already being transferred [repo_id: "+strconv.FormatInt(r.id, 10)+"]")
		return
	}
	if other := c.st.repo(to.login, r.name); other != nil {
		c.fail(http.StatusUnprocessableEntity, "repository already exists [uname: "+to.login+", name: "+r.name+"]")
		return
	}
	direct := c.user.isAdmin || c.user == to || to.org != nil && to.org.isOwner(c.user)
	if direct {
		c.st.moveRepo(r, to)
		r.updated = c.now
		c.json(http.StatusAccepted, c.v.repo(r, 0))
		return
	}
	if c.st.more.transfers == nil {
		c.st.more.transfers = map[*repo]*transfer{}
	}
	c.st.more.transfers[r] = &transfer{doer: c.user, recipient: to}
	c.json(http.StatusCreated, c.v.repo(r, 0))
}

// hAnswerTransfer accepts (202) or rejects (200) a pending transfer; only
// the recipient (or a site administrator) may.
func hAnswerTransfer(accept bool) func(c *call) {
	return func(c *call) {
		r := c.pathRepo()
		if r == nil {
			return
		}
		t := c.st.more.transfers[r]
		if t == nil {
			c.notFound()
			return
		}
		may := c.user.isAdmin || c.user == t.recipient || t.recipient.org != nil && t.recipient.org.isOwner(c.user)
		if !may {
			c.fail(http.StatusForbidden, "permission denied")
			return
		}
		delete(c.st.more.transfers, r)
		if !accept {
			c.json(http.StatusOK, c.v.repo(r, 0))
			return
		}
		c.st.moveRepo(r, t.recipient)
		r.updated = c.now
		c.json(http.StatusAccepted, c.v.repo(r, 0))
	}
}

// redirectRepo answers a request that names a repository by an old name
// with Forgejo's 307 to the same path under the new one, or reports false
// when the name leads nowhere.
func (c *call) redirectRepo(owner, name string) bool {
	to := c.st.more.redirects[strings.ToLower(owner)+"/"+strings.ToLower(name)]
	if to == nil || c.st.repo(to.owner.login, to.name) != to || !canRead(c.user, to) {
		return false
	}
	p := strings.Replace(c.r.URL.EscapedPath(), url.PathEscape(owner)+"/"+url.PathEscape(name), url.PathEscape(to.owner.login)+"/"+url.PathEscape(to.name), 1)
	if c.r.URL.RawQuery != "" {
		p += "?" + c.r.URL.RawQuery
	}
	c.header.Set("Location", p)
	c.empty(http.StatusTemporaryRedirect)
	return true
}

// ---- repository avatars

// repoAvatarURL is a repository's avatar_url: "" without one.
func (st *state) repoAvatarURL(root string, r *repo) string {
	if a := st.more.avatars[r]; a != "" {
		return root + "/repo-avatars/" + a
	}
	return ""
}

// hUpdateRepoAvatar sets a repository's avatar from a base64 image (PNG,
// JPEG or GIF): bad base64 is 400; what is no image, or too large, is
// Forgejo's 500.
func hUpdateRepoAvatar(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	data, ok := c.avatarImage() // h_users_social.go
	if !ok {
		return
	}
	if c.st.more.avatars == nil {
		c.st.more.avatars = map[*repo]string{}
	}
	c.st.more.avatars[r] = fmt.Sprintf("%d-%x", r.id, md5.Sum(data))
	c.empty(http.StatusNoContent)
}

func hDeleteRepoAvatar(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canAdminRepo(r) {
		return
	}
	delete(c.st.more.avatars, r)
	c.empty(http.StatusNoContent)
}

// hCancelAutoMerge is repoCancelScheduledAutoMerge. The fake merges at
// once and never schedules a merge, so there is never one to cancel: 404
// for every pull request, as Forgejo answers one without a schedule.
func hCancelAutoMerge(c *call) {
	r := c.pathRepo()
	if r == nil || !c.notArchived(r) {
		return
	}
	is := c.pathIssue(r)
	if is == nil {
		return
	}
	if is.pull == nil {
		c.notFound()
		return
	}
	c.notFound()
}
