package forgejotest

import (
	"encoding/base64"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The wiki, a git repository of its own with one branch: each change is a
// commit holding a snapshot of every page (files "Title.md" at the root).
// Page names follow Forgejo's wiki service: a title's spaces become dashes
// in the web path ("Second Page" is "Second-Page"), and a title that has
// dashes of its own is marked with a trailing ".-" ("a-b" is "a-b.-"), so
// that the web path always maps back to one file.

type wiki struct {
	commits []*wikiCommit // oldest first
}

type wikiCommit struct {
	sha     string
	message string
	author  *user
	when    time.Time
	files   map[string]string // git path to content, after this commit
	changed string            // the one file this commit touched
}

type wWikiCommit struct {
	SHA       string       `json:"sha"`
	Author    *wCommitUser `json:"author"`
	Committer *wCommitUser `json:"commiter"` // sic, as Forgejo spells it
	Message   string       `json:"message"`
}

type wWikiPageMeta struct {
	Title      string       `json:"title"`
	HTMLURL    string       `json:"html_url"`
	SubURL     string       `json:"sub_url"`
	LastCommit *wWikiCommit `json:"last_commit"`
}

type wWikiPage struct {
	*wWikiPageMeta
	ContentBase64 string `json:"content_base64"`
	CommitCount   int    `json:"commit_count"`
	Sidebar       string `json:"sidebar"`
	Footer        string `json:"footer"`
}

// wikiReserved are the names Forgejo's wiki refuses for a page.
var wikiReserved = []string{"_pages", "_new", "_edit", "raw"}

// titleToWebPath is Forgejo's UserTitleToWebPath for a title without
// directories.
func titleToWebPath(title string) string {
	title = strings.TrimSpace(title)
	if title == "" || title == "." {
		return "unnamed"
	}
	if strings.Contains(title, "-") || strings.HasSuffix(title, ".md") {
		title += ".-"
	} else {
		title = strings.ReplaceAll(title, " ", "-")
	}
	return url.PathEscape(title)
}

// webPathToGitPath maps a web path (as a title gives it, or as a request
// names it) to the page's file.
func webPathToGitPath(web string) string {
	s, err := url.PathUnescape(web)
	if err != nil {
		s = web
	}
	if t, ok := strings.CutSuffix(s, ".-"); ok {
		s = t
	} else {
		s = strings.ReplaceAll(s, "-", " ")
	}
	return s + ".md"
}

// gitPathToWebPath is the inverse, for listing pages.
func gitPathToWebPath(p string) string {
	name := strings.TrimSuffix(p, ".md")
	if strings.Contains(name, "-") {
		return url.PathEscape(name + ".-")
	}
	return url.PathEscape(strings.ReplaceAll(name, " ", "-"))
}

// webPathTitle is the title a web path displays.
func webPathTitle(web string) string { return strings.TrimSuffix(webPathToGitPath(web), ".md") }

func (st *state) wikiOf(r *repo) *wiki {
	if st.more.wikis == nil {
		st.more.wikis = map[*repo]*wiki{}
	}
	w := st.more.wikis[r]
	if w == nil {
		w = &wiki{}
		st.more.wikis[r] = w
	}
	return w
}

func (w *wiki) head() map[string]string {
	if len(w.commits) == 0 {
		return map[string]string{}
	}
	return w.commits[len(w.commits)-1].files
}

// commit writes a new wiki commit with the files changed by edit.
func (w *wiki) commit(r *repo, u *user, now time.Time, message, changed string, edit func(files map[string]string)) {
	files := maps.Clone(w.head())
	edit(files)
	parent := ""
	if n := len(w.commits); n > 0 {
		parent = w.commits[n-1].sha
	}
	if !strings.HasSuffix(message, "\n") {
		message += "\n" // as git stores it
	}
	sha := fakeSHA("wiki", r.owner.login, r.name, parent, message, now.String(), strconv.Itoa(len(w.commits)))
	w.commits = append(w.commits, &wikiCommit{sha: sha, message: message, author: u, when: now, files: files, changed: changed})
}

// history is the commits that touched a file, newest first.
func (w *wiki) history(file string) []*wikiCommit {
	var out []*wikiCommit
	for i := len(w.commits) - 1; i >= 0; i-- {
		if w.commits[i].changed == file {
			out = append(out, w.commits[i])
		}
	}
	return out
}

func (v view) wikiCommit(cm *wikiCommit) *wWikiCommit {
	who := &wCommitUser{Name: cm.author.login, Email: cm.author.login + "@noreply." + v.host, Date: ts(cm.when)}
	return &wWikiCommit{SHA: cm.sha, Author: who, Committer: who, Message: cm.message}
}

func (c *call) wikiMeta(r *repo, w *wiki, web string) *wWikiPageMeta {
	m := &wWikiPageMeta{
		Title: webPathTitle(web), HTMLURL: c.v.html("/" + r.owner.login + "/" + r.name + "/wiki/" + web), SubURL: web,
	}
	if h := w.history(webPathToGitPath(web)); len(h) > 0 {
		m.LastCommit = c.v.wikiCommit(h[0])
	}
	return m
}

// wikiPage renders a page, or answers 404 itself.
func (c *call) wikiPage(r *repo, web string) *wWikiPage {
	w := c.st.wikiOf(r)
	if len(w.commits) == 0 {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.", "object does not exist [id: refs/heads/master, rel_path: ]")
		return nil
	}
	files := w.head()
	file := webPathToGitPath(web)
	content, ok := files[file]
	if !ok {
		c.notFound()
		return nil
	}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	return &wWikiPage{
		wWikiPageMeta: c.wikiMeta(r, w, web), ContentBase64: b64(content), CommitCount: len(w.history(file)),
		Sidebar: b64(files["_Sidebar.md"]), Footer: b64(files["_Footer.md"]),
	}
}

type wikiBody struct {
	Title         string `json:"title"`
	ContentBase64 string `json:"content_base64"`
	Message       string `json:"message"`
}

// wikiContent decodes content_base64; bad base64 is Forgejo's 400.
func (c *call) wikiContent(b wikiBody) (string, bool) {
	raw, err := base64.StdEncoding.DecodeString(b.ContentBase64)
	if err != nil {
		c.fail(http.StatusBadRequest, err.Error())
		return "", false
	}
	return string(raw), true
}

func hCreateWikiPage(c *call) {
	r := c.pathRepo()
	if r == nil || !c.notArchived(r) || !c.canWriteRepo(r) {
		return
	}
	var b wikiBody
	if !c.decode(&b) {
		return
	}
	if strings.TrimSpace(b.Title) == "" {
		// Forgejo formats a nil error here.
		c.fail(http.StatusBadRequest, "%!s(<nil>)")
		return
	}
	web := titleToWebPath(b.Title)
	if b.Message == "" {
		b.Message = fmt.Sprintf("Add %q", b.Title)
	}
	content, ok := c.wikiContent(b)
	if !ok {
		return
	}
	if slices.Contains(wikiReserved, web) {
		c.fail(http.StatusBadRequest, "wiki title is reserved: "+web)
		return
	}
	w := c.st.wikiOf(r)
	file := webPathToGitPath(web)
	if _, exists := w.head()[file]; exists {
		c.fail(http.StatusBadRequest, "wiki page already exists [title: "+file+"]")
		return
	}
	w.commit(r, c.user, c.now, b.Message, file, func(fs map[string]string) { fs[file] = content })
	if p := c.wikiPage(r, web); p != nil {
		c.json(http.StatusCreated, p)
	}
}

// hEditWikiPage rewrites a page under its (new) title, renaming it when
// the title differs; a page that is not there is created, as Forgejo's
// wiki service does.
func hEditWikiPage(c *call) {
	r := c.pathRepo()
	if r == nil || !c.notArchived(r) || !c.canWriteRepo(r) {
		return
	}
	var b wikiBody
	if !c.decode(&b) {
		return
	}
	// As Forgejo, a missing title is not "keep the name": it is the title
	// "unnamed", so that the page is renamed.
	old, web := c.p["pageName"], titleToWebPath(b.Title)
	if b.Message == "" {
		b.Message = fmt.Sprintf("Update %q", web)
	}
	content, ok := c.wikiContent(b)
	if !ok {
		return
	}
	w := c.st.wikiOf(r)
	oldFile, file := webPathToGitPath(old), webPathToGitPath(web)
	w.commit(r, c.user, c.now, b.Message, file, func(fs map[string]string) {
		delete(fs, oldFile)
		fs[file] = content
	})
	if p := c.wikiPage(r, web); p != nil {
		c.json(http.StatusOK, p)
	}
}

func hGetWikiPage(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if p := c.wikiPage(r, c.p["pageName"]); p != nil {
		c.json(http.StatusOK, p)
	}
}

func hDeleteWikiPage(c *call) {
	r := c.pathRepo()
	if r == nil || !c.notArchived(r) || !c.canWriteRepo(r) {
		return
	}
	web := c.p["pageName"]
	w := c.st.wikiOf(r)
	file := webPathToGitPath(web)
	if _, ok := w.head()[file]; !ok || len(w.commits) == 0 {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.", "file does not exist")
		return
	}
	w.commit(r, c.user, c.now, "Delete page '"+web+"'", file, func(fs map[string]string) { delete(fs, file) })
	c.empty(http.StatusNoContent)
}

// hListWikiPages lists the pages in git's order. As Forgejo, a limit of
// one or less means default_paging_num, the page size is not clamped to
// max_response_items, and X-Total-Count counts every file.
func hListWikiPages(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	w := c.st.wikiOf(r)
	if len(w.commits) == 0 {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.", "object does not exist [id: refs/heads/master, rel_path: ]")
		return
	}
	files := slices.Sorted(maps.Keys(w.head()))
	page, limit := max(c.formInt("page"), 1), c.formInt("limit")
	if limit <= 1 {
		limit = c.s.cfg.pagingNum
	}
	out := []*wWikiPageMeta{}
	for i, f := range files {
		if i < (page-1)*limit || i >= page*limit {
			continue
		}
		out = append(out, c.wikiMeta(r, w, gitPathToWebPath(f)))
	}
	c.header.Set("X-Total-Count", strconv.Itoa(len(files)))
	c.header.Set("Access-Control-Expose-Headers", "X-Total-Count")
	c.json(http.StatusOK, out)
}

// wikiRevisionsPerPage is Forgejo's [git] COMMITS_RANGE_SIZE default.
const wikiRevisionsPerPage = 50

func hWikiRevisions(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	w := c.st.wikiOf(r)
	if len(w.commits) == 0 {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.", "object does not exist [id: refs/heads/master, rel_path: ]")
		return
	}
	web := c.p["pageName"]
	if web == "" {
		web = "Home"
	}
	file := webPathToGitPath(web)
	if _, ok := w.head()[file]; !ok {
		c.notFound()
		return
	}
	h := w.history(file)
	page := max(c.formInt("page"), 1)
	start := min((page-1)*wikiRevisionsPerPage, len(h))
	out := struct {
		Commits []*wWikiCommit `json:"commits"`
		Count   int            `json:"count"`
	}{Commits: []*wWikiCommit{}, Count: len(h)}
	for _, cm := range h[start:min(start+wikiRevisionsPerPage, len(h))] {
		out.Commits = append(out.Commits, c.v.wikiCommit(cm))
	}
	c.header.Set("X-Total-Count", strconv.Itoa(len(h)))
	c.header.Set("Access-Control-Expose-Headers", "X-Total-Count")
	c.json(http.StatusOK, out)
}
