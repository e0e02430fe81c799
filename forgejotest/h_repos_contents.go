package forgejotest

import (
	"cmp"
	"encoding/base64"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Files, the git tree and tags. There is no git, but blob and tree ids are
// git's own, computed from the content, so they agree with a real server.

type wContentLinks struct {
	Self string `json:"self"`
	Git  string `json:"git"`
	HTML string `json:"html"`
}

type wContents struct {
	Name            string         `json:"name"`
	Path            string         `json:"path"`
	SHA             string         `json:"sha"`
	LastCommitSHA   string         `json:"last_commit_sha"`
	LastCommitWhen  string         `json:"last_commit_when"`
	Type            string         `json:"type"`
	Size            int64          `json:"size"`
	Encoding        *string        `json:"encoding"`
	Content         *string        `json:"content"`
	Target          *string        `json:"target"`
	URL             string         `json:"url"`
	HTMLURL         string         `json:"html_url"`
	GitURL          string         `json:"git_url"`
	DownloadURL     *string        `json:"download_url"`
	SubmoduleGitURL *string        `json:"submodule_git_url"`
	Links           *wContentLinks `json:"_links"`
}

type wFileCommit struct {
	URL       string         `json:"url"`
	SHA       string         `json:"sha"`
	Created   string         `json:"created"`
	HTMLURL   string         `json:"html_url"`
	Author    *wCommitUser   `json:"author"`
	Committer *wCommitUser   `json:"committer"`
	Parents   []*wCommitMeta `json:"parents"`
	Message   string         `json:"message"`
	Tree      *wCommitMeta   `json:"tree"`
}

type wFileResponse struct {
	Content      *wContents     `json:"content"`
	Commit       *wFileCommit   `json:"commit"`
	Verification *wVerification `json:"verification"`
}

type wGitEntry struct {
	Path string `json:"path"`
	Mode string `json:"mode"`
	Type string `json:"type"`
	Size int64  `json:"size"`
	SHA  string `json:"sha"`
	URL  string `json:"url"`
}

type wTree struct {
	SHA        string       `json:"sha"`
	URL        string       `json:"url"`
	Tree       []*wGitEntry `json:"tree"`
	Truncated  bool         `json:"truncated"`
	Page       int          `json:"page"`
	TotalCount int          `json:"total_count"`
}

type wTagCommit struct {
	URL     string `json:"url"`
	SHA     string `json:"sha"`
	Created string `json:"created"`
}

type wTag struct {
	Name                 string         `json:"name"`
	Message              string         `json:"message"`
	ID                   string         `json:"id"`
	Commit               *wTagCommit    `json:"commit"`
	ZipballURL           string         `json:"zipball_url"`
	TarballURL           string         `json:"tarball_url"`
	ArchiveDownloadCount map[string]int `json:"archive_download_count"`
}

func repoPath(r *repo) string { return "/repos/" + r.owner.login + "/" + r.name }

func escapeFilePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// contents renders one entry; withContent adds the base64 body of a file.
func (v view) contents(r *repo, ref, commitSHA string, when time.Time, e treeEntry, files map[string]string, withContent bool) *wContents {
	full := r.owner.login + "/" + r.name
	self := v.api(repoPath(r) + "/contents/" + escapeFilePath(e.path) + "?ref=" + url.QueryEscape(ref))
	w := &wContents{
		Name: e.name, Path: e.path, SHA: e.sha, LastCommitSHA: commitSHA, LastCommitWhen: ts(when),
		Type: "file", Size: e.size, URL: self,
		HTMLURL: v.html("/" + full + "/src/branch/" + ref + "/" + escapeFilePath(e.path)),
	}
	if e.dir {
		w.Type = "dir"
		w.GitURL = v.api(repoPath(r) + "/git/trees/" + e.sha)
		w.HTMLURL = v.html("/" + full + "/src/branch/" + ref + "/" + escapeFilePath(e.path))
	} else {
		w.GitURL = v.api(repoPath(r) + "/git/blobs/" + e.sha)
		dl := v.html("/" + full + "/raw/branch/" + ref + "/" + escapeFilePath(e.path))
		w.DownloadURL = &dl
		if withContent {
			enc, content := "base64", base64.StdEncoding.EncodeToString([]byte(files[e.path]))
			w.Encoding, w.Content = &enc, &content
		}
	}
	w.Links = &wContentLinks{Self: w.URL, Git: w.GitURL, HTML: w.HTMLURL}
	return w
}

// refFor reads ?ref, the default branch without one; it answers 404 itself.
func (c *call) refFor(r *repo) (ref, sha string, files map[string]string, when time.Time, ok bool) {
	ref = cmp.Or(c.q.Get("ref"), r.defaultBranch)
	sha, files, ok = r.resolveRef(ref)
	if !ok {
		c.failErrs(http.StatusNotFound, "GetCommit", "object does not exist [id: "+ref+", rel_path: ]")
		return "", "", nil, time.Time{}, false
	}
	if cm := r.commits[sha]; cm != nil {
		when = cm.when
	}
	return strings.TrimPrefix(strings.TrimPrefix(ref, "refs/heads/"), "refs/tags/"), sha, files, when, true
}

func entryOf(files map[string]string, p string) (treeEntry, bool) {
	if content, ok := files[p]; ok {
		return treeEntry{name: path.Base(p), path: p, sha: blobSHA(content), size: int64(len(content))}, true
	}
	if p != "" && isDir(files, p) {
		return treeEntry{name: path.Base(p), path: p, dir: true, sha: treeSHA(files, p)}, true
	}
	return treeEntry{}, false
}

func hGetContents(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	p := strings.Trim(c.p["filepath"], "/")
	if r.empty {
		if p == "" {
			c.json(http.StatusOK, []*wContents{})
			return
		}
		c.failErrs(http.StatusNotFound, "GetContentsOrList", "object does not exist [id: , rel_path: "+p+"]")
		return
	}
	ref, sha, files, when, ok := c.refFor(r)
	if !ok {
		return
	}
	if p == "" || isDir(files, p) {
		out := []*wContents{}
		for _, e := range dirEntries(files, p) {
			out = append(out, c.v.contents(r, ref, sha, when, e, files, false))
		}
		c.json(http.StatusOK, out)
		return
	}
	e, ok := entryOf(files, p)
	if !ok {
		c.failErrs(http.StatusNotFound, "GetContentsOrList", "object does not exist [id: "+sha+", rel_path: "+p+"]")
		return
	}
	c.json(http.StatusOK, c.v.contents(r, ref, sha, when, e, files, true))
}

func hGetRawFile(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	p := strings.Trim(c.p["filepath"], "/")
	_, _, files, _, ok := c.refFor(r)
	if !ok {
		return
	}
	content, ok := files[p]
	if !ok {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return
	}
	c.status, c.out = http.StatusOK, []byte(content)
	c.header.Set("Content-Type", "text/plain; charset=utf-8")
}

type fileBody struct {
	Content   *string `json:"content"`
	Message   string  `json:"message"`
	Branch    string  `json:"branch"`
	NewBranch string  `json:"new_branch"`
	SHA       string  `json:"sha"`
	FromPath  string  `json:"from_path"`
	Author    *struct {
		Name  string `json:"name"`
		Email string `json:"email"`
	} `json:"author"`
}

// fileTarget finds the branch a change applies to, creating new_branch
// from it when asked; it answers the error itself.
func (c *call) fileTarget(r *repo, b fileBody) (*branch, bool) {
	name := cmp.Or(b.Branch, r.defaultBranch)
	base := r.branch(name)
	if base == nil && !r.empty {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.", "branch does not exist [name: "+name+"]")
		return nil, false
	}
	if base == nil { // an empty repository: the first commit makes the branch
		base = &branch{name: name}
		r.branches = append(r.branches, base)
	}
	if b.NewBranch == "" || b.NewBranch == base.name {
		return base, true
	}
	if r.branch(b.NewBranch) != nil {
		c.fail(http.StatusUnprocessableEntity, "branch already exists [name: "+b.NewBranch+"]")
		return nil, false
	}
	nb := &branch{name: b.NewBranch, sha: base.sha, message: base.message, author: base.author, when: base.when}
	r.branches = append(r.branches, nb)
	return nb, true
}

func (c *call) fileResponse(r *repo, b *branch, cm *commit, p string, withContent bool) *wFileResponse {
	full := r.owner.login + "/" + r.name
	who := &wCommitUser{Name: c.user.login, Email: c.user.login + "@noreply." + c.v.host, Date: ts(cm.when)}
	fc := &wFileCommit{
		URL: c.v.api(repoPath(r) + "/git/commits/" + cm.sha), SHA: cm.sha, Created: ts(cm.when),
		HTMLURL: c.v.html("/" + full + "/commit/" + cm.sha), Author: who, Committer: who,
		Parents: []*wCommitMeta{}, Message: cm.message,
		Tree: &wCommitMeta{URL: c.v.api(repoPath(r) + "/git/trees/" + treeSHA(cm.files, "")), Sha: treeSHA(cm.files, ""), Created: ts(cm.when)},
	}
	if cm.parent != "" {
		fc.Parents = append(fc.Parents, &wCommitMeta{URL: c.v.api(repoPath(r) + "/git/commits/" + cm.parent), Sha: cm.parent, Created: ts(cm.when)})
	}
	out := &wFileResponse{Commit: fc, Verification: &wVerification{Reason: "gpg.error.not_signed_commit"}}
	if withContent {
		e, _ := entryOf(cm.files, p)
		out.Content = c.v.contents(r, b.name, cm.sha, cm.when, e, cm.files, true)
	}
	return out
}

func decodeContent(s string) (string, bool) {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return "", false
	}
	return string(raw), true
}

func commitMessage(given, verb, p string) string {
	if given != "" {
		if !strings.HasSuffix(given, "\n") {
			given += "\n"
		}
		return given
	}
	return verb + " " + p + "\n"
}

func hCreateFile(c *call) { c.changeFile("create") }
func hUpdateFile(c *call) { c.changeFile("update") }
func hDeleteFile(c *call) { c.changeFile("delete") }

// changeFile creates, updates or deletes one file with the sha guard of
// Forgejo: a stale sha answers 409 on update and 400 on delete.
func (c *call) changeFile(op string) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	p := strings.Trim(c.p["filepath"], "/")
	var b fileBody
	if !c.decode(&b) {
		return
	}
	var content string
	if op != "delete" {
		if b.Content == nil {
			c.fail(http.StatusUnprocessableEntity, "[Content]: Required")
			return
		}
		var ok bool
		if content, ok = decodeContent(*b.Content); !ok {
			c.fail(http.StatusUnprocessableEntity, "illegal base64 data")
			return
		}
	}
	if op != "create" && b.SHA == "" {
		c.fail(http.StatusUnprocessableEntity, "[SHA]: Required")
		return
	}
	br, ok := c.fileTarget(r, b)
	if !ok {
		return
	}
	files := r.files(br)
	from := cmp.Or(strings.Trim(b.FromPath, "/"), p)
	old, exists := files[from]
	switch {
	case op == "create" && exists:
		c.fail(http.StatusUnprocessableEntity, "repository file already exists [path: "+p+"]")
		return
	case op == "create" && isDir(files, p) && p != "":
		c.fail(http.StatusUnprocessableEntity, "file name conflicts with a directory [path: "+p+"]")
		return
	case op != "create" && !exists:
		c.failErrs(http.StatusNotFound, "repository file does not exist [path: "+from+"]")
		return
	case op == "update" && blobSHA(old) != b.SHA:
		c.fail(http.StatusConflict, "sha does not match [given: "+b.SHA+", expected: "+blobSHA(old)+"]")
		return
	case op == "delete" && blobSHA(old) != b.SHA:
		c.fail(http.StatusBadRequest, "sha does not match [given: "+b.SHA+", expected: "+blobSHA(old)+"]")
		return
	}
	verb := map[string]string{"create": "Add", "update": "Update", "delete": "Delete"}[op]
	before := br.sha
	cm := r.commitFiles(br, commitMessage(b.Message, verb, p), c.user, c.now, func(fs map[string]string) {
		switch op {
		case "delete":
			delete(fs, p)
		default:
			delete(fs, from)
			fs[p] = content
		}
	})
	var added, removed, modified []string
	switch {
	case op == "create":
		added = []string{p}
	case op == "delete":
		removed = []string{p}
	case from != p:
		added, removed = []string{p}, []string{from}
	default:
		modified = []string{p}
	}
	c.s.emitPush(c, r, br, before, cm, added, removed, modified)
	switch op {
	case "create":
		c.json(http.StatusCreated, c.fileResponse(r, br, cm, p, true))
	case "update":
		c.json(http.StatusOK, c.fileResponse(r, br, cm, p, true))
	default:
		c.json(http.StatusOK, c.fileResponse(r, br, cm, p, false))
	}
}

// hGetTree answers the git tree of a commit, a branch or a tree id, with
// Forgejo's paging (per_page up to 1000). Forgejo 15 calls a page
// truncated whenever the tree has more entries than a page holds, the last
// page too (Gitea 1.27: only while entries follow); a page past the end is
// not.
func hGetTree(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	ref := c.p["sha"]
	sha, files, ok := r.resolveRef(ref)
	dir := ""
	if !ok {
		// a tree id of some commit
		for _, cm := range r.commits {
			if d, found := findTree(cm.files, ref); found {
				sha, files, dir, ok = ref, cm.files, d, true
				break
			}
		}
	}
	if !ok {
		c.fail(http.StatusBadRequest, "sha not found [sha: "+ref+"]")
		return
	}
	var entries []treeEntry
	var walk func(d string)
	walk = func(d string) {
		for _, e := range dirEntries(files, d) {
			entries = append(entries, e)
			if e.dir && c.q.Get("recursive") == "true" {
				walk(e.path)
			}
		}
	}
	walk(dir)
	perPage := c.formInt("per_page")
	if perPage <= 0 || perPage > 1000 {
		perPage = 1000
	}
	page := max(c.formInt("page"), 1)
	start := min((page-1)*perPage, len(entries))
	end := min(start+perPage, len(entries))
	out := &wTree{SHA: sha, URL: c.v.api(repoPath(r) + "/git/trees/" + sha), Tree: []*wGitEntry{},
		Truncated: start < len(entries) && len(entries) > perPage, Page: page, TotalCount: len(entries)}
	for _, e := range entries[start:end] {
		p := e.path
		if dir != "" {
			p = strings.TrimPrefix(p, dir+"/")
		}
		ge := &wGitEntry{Path: p, Mode: "100644", Type: "blob", Size: e.size, SHA: e.sha, URL: c.v.api(repoPath(r) + "/git/blobs/" + e.sha)}
		if e.dir {
			ge.Mode, ge.Type, ge.URL = "040000", "tree", c.v.api(repoPath(r)+"/git/trees/"+e.sha)
		}
		out.Tree = append(out.Tree, ge)
	}
	c.json(http.StatusOK, out)
}

// findTree finds the directory whose tree id is sha.
func findTree(files map[string]string, sha string) (string, bool) {
	if treeSHA(files, "") == sha {
		return "", true
	}
	seen := map[string]bool{}
	for p := range files {
		for d := path.Dir(p); d != "." && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			if treeSHA(files, d) == sha {
				return d, true
			}
		}
	}
	return "", false
}

// ---- tags

func (v view) tag(r *repo, t *tag) *wTag {
	full := r.owner.login + "/" + r.name
	id, msg, when := t.sha, t.message, t.when
	if cm := r.commits[t.sha]; cm != nil && t.message == "" {
		// A lightweight tag's message is its commit's, without the
		// trailing newline on Forgejo 15 (Gitea 1.27 keeps it).
		msg, when = strings.TrimRight(cm.message, "\n"), cm.when
	}
	if t.message != "" {
		id = fakeSHA("tag", full, t.name, t.message)
	}
	return &wTag{
		Name: t.name, Message: msg, ID: id,
		Commit:     &wTagCommit{URL: v.api(repoPath(r) + "/git/commits/" + t.sha), SHA: t.sha, Created: ts(when)},
		ZipballURL: v.html("/" + full + "/archive/" + t.name + ".zip"), TarballURL: v.html("/" + full + "/archive/" + t.name + ".tar.gz"),
		ArchiveDownloadCount: map[string]int{"zip": 0, "tar_gz": 0},
	}
}

func sortedTags(r *repo) []*tag {
	ts := slices.Clone(r.tags)
	slices.SortStableFunc(ts, func(a, b *tag) int { return b.when.Compare(a.when) })
	return ts
}

func hListTags(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	page := paginate(c, sortedTags(r), pageLinked)
	out := make([]*wTag, 0, len(page))
	for _, t := range page {
		out = append(out, c.v.tag(r, t))
	}
	c.json(http.StatusOK, out)
}

func hGetTag(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	t := r.tag(c.p["tag"])
	if t == nil {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return
	}
	c.json(http.StatusOK, c.v.tag(r, t))
}

// addTag creates a tag at target (a branch, tag or commit; the default
// branch when empty); it answers the error itself.
func (c *call) addTag(r *repo, name, target, message string) *tag {
	sha, _, ok := r.resolveRef(cmp.Or(target, r.defaultBranch))
	if !ok {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.", "target does not exist [name: "+target+"]")
		return nil
	}
	if r.tag(name) != nil {
		c.fail(http.StatusConflict, "tag exist")
		return nil
	}
	t := &tag{name: name, sha: sha, message: message, tagger: c.user, when: c.now}
	r.tags = append(r.tags, t)
	c.s.emitTagCreated(c, r, t)
	return t
}

func hCreateTag(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	var body struct {
		TagName string `json:"tag_name"`
		Target  string `json:"target"`
		Message string `json:"message"`
	}
	if !c.decode(&body) {
		return
	}
	if strings.TrimSpace(body.TagName) == "" {
		c.fail(http.StatusUnprocessableEntity, "[TagName]: Required")
		return
	}
	if r.empty {
		c.fail(http.StatusNotFound, "Git Repository is empty.")
		return
	}
	if t := c.addTag(r, body.TagName, body.Target, body.Message); t != nil {
		c.json(http.StatusCreated, c.v.tag(r, t))
	}
}

func hDeleteTag(c *call) {
	r := c.pathRepo()
	if r == nil || !c.canWriteRepo(r) {
		return
	}
	name := c.p["tag"]
	t := r.tag(name)
	if t == nil {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return
	}
	if rel := r.releaseByTag(name); rel != nil && !rel.draft {
		c.fail(http.StatusConflict, "a tag attached to a release cannot be deleted directly")
		return
	}
	r.tags = slices.DeleteFunc(r.tags, func(x *tag) bool { return x == t })
	c.empty(http.StatusNoContent)
}

var _ = strconv.Itoa

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
			// Forgejo 15's change files looks the path up in the tree and
			// hands the git error on: a 500 (Gitea 1.27 a 404 "repository
			// file does not exist"). The message is git's ErrNotExist.
			c.internalError("object does not exist [id: , rel_path: " + ch.from + "]")
			return
		case ch.op != "create" && sha != "" && blobSHA(old) != sha:
			c.fail(http.StatusConflict, "sha does not match [given: "+sha+", expected: "+blobSHA(old)+"]")
			return
		case ch.op != "create" && sha == "":
			// An update or delete must say which blob it replaces: 422 on
			// Forgejo 15 (Gitea 1.27 takes it without).
			c.fail(http.StatusUnprocessableEntity, "a SHA or commit ID must be proved when updating a file")
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
