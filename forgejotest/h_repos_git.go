package forgejotest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Git data: references, annotated tags, blobs, the commit log, the
// repository by id and its languages.

type wGitObject struct {
	Type string `json:"type"`
	SHA  string `json:"sha"`
	URL  string `json:"url"`
}

type wReference struct {
	Ref    string      `json:"ref"`
	URL    string      `json:"url"`
	Object *wGitObject `json:"object"`
}

// annotatedTagSHA is the id of an annotated tag's object, as the tag
// listing shows it.
func annotatedTagSHA(r *repo, t *tag) string {
	return fakeSHA("tag", r.owner.login+"/"+r.name, t.name, t.message)
}

// gitRefs is every reference of r, sorted by name as git for-each-ref
// sorts them: branches, pull request heads, tags.
func (c *call) gitRefs(r *repo) []*wReference {
	var out []*wReference
	add := func(name, typ, sha string) {
		out = append(out, &wReference{
			Ref: name, URL: c.v.api(repoPath(r) + "/git/" + escapeFilePath(name)),
			Object: &wGitObject{Type: typ, SHA: sha, URL: c.v.api(repoPath(r) + "/git/" + typ + "s/" + url.PathEscape(sha))},
		})
	}
	for _, b := range r.branches {
		if b.sha != "" {
			add("refs/heads/"+b.name, "commit", b.sha)
		}
	}
	for _, is := range r.issues {
		if is != nil && is.pull != nil && is.pull.headSHA != "" {
			add("refs/pull/"+strconv.FormatInt(is.number, 10)+"/head", "commit", is.pull.headSHA)
		}
	}
	for _, t := range r.tags {
		if t.message != "" {
			add("refs/tags/"+t.name, "tag", annotatedTagSHA(r, t))
		} else {
			add("refs/tags/"+t.name, "commit", t.sha)
		}
	}
	slices.SortFunc(out, func(a, b *wReference) int { return strings.Compare(a.Ref, b.Ref) })
	return out
}

// hGitRefs lists references, all of them or those starting with
// refs/{ref}; none is 404. A filter that names exactly one reference
// still answers a list, as Gitea 1.27 does (old Gitea answered an object;
// the fake cannot know what Forgejo 15 does).
func hGitRefs(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	filter := ""
	if f := c.p["ref"]; f != "" {
		filter = "refs/" + f
	}
	var refs []*wReference
	for _, ref := range c.gitRefs(r) {
		if strings.HasPrefix(ref.Ref, filter) {
			refs = append(refs, ref)
		}
	}
	if len(refs) == 0 {
		c.notFound()
		return
	}
	c.json(http.StatusOK, refs)
}

type wAnnotatedTag struct {
	Tag                  string         `json:"tag"`
	SHA                  string         `json:"sha"`
	URL                  string         `json:"url"`
	Message              string         `json:"message"`
	Tagger               *wCommitUser   `json:"tagger"`
	Object               *wGitObject    `json:"object"`
	Verification         *wVerification `json:"verification"`
	ArchiveDownloadCount map[string]int `json:"archive_download_count"`
}

// hAnnotatedTag answers an annotated tag by its object id; anything else
// (a lightweight tag's commit, an unknown id) is Forgejo's 400.
func hAnnotatedTag(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	sha := c.p["sha"]
	for _, t := range r.tags {
		if t.message == "" || annotatedTagSHA(r, t) != sha {
			continue
		}
		c.json(http.StatusOK, &wAnnotatedTag{
			Tag: t.name, SHA: sha, URL: c.v.api(repoPath(r) + "/git/tags/" + sha), Message: t.message,
			Tagger:               &wCommitUser{Name: t.tagger.login, Email: t.tagger.login + "@noreply." + c.v.host, Date: ts(t.when)},
			Object:               &wGitObject{Type: "commit", SHA: t.sha, URL: c.v.api(repoPath(r) + "/git/commits/" + t.sha)},
			Verification:         &wVerification{Reason: "gpg.error.not_signed_commit"},
			ArchiveDownloadCount: map[string]int{"zip": 0, "tar_gz": 0},
		})
		return
	}
	c.fail(http.StatusBadRequest, "object does not exist [id: "+sha+", rel_path: ]")
}

type wBlob struct {
	Content  string `json:"content"`
	Encoding string `json:"encoding"`
	URL      string `json:"url"`
	SHA      string `json:"sha"`
	Size     int64  `json:"size"`
}

// findBlob finds a blob of any commit by its id (git's own, computed from
// the content).
func (c *call) findBlob(r *repo, sha string) (*wBlob, bool) {
	sha = strings.ToLower(strings.TrimSpace(sha))
	for _, cm := range r.commits {
		for _, content := range cm.files {
			if blobSHA(content) == sha {
				return &wBlob{
					Content: base64.StdEncoding.EncodeToString([]byte(content)), Encoding: "base64",
					URL: c.v.api(repoPath(r) + "/git/blobs/" + sha), SHA: sha, Size: int64(len(content)),
				}, true
			}
		}
	}
	return nil, false
}

// hGetBlob answers a blob, base64; an unknown id is Forgejo's 400.
func hGetBlob(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if b, ok := c.findBlob(r, c.p["sha"]); ok {
		c.json(http.StatusOK, b)
		return
	}
	c.fail(http.StatusBadRequest, "object does not exist [id: "+c.p["sha"]+", rel_path: ]")
}

// hGetBlobs answers the blobs of a comma-separated list of ids, in that
// order; one unknown id fails the whole request, as Forgejo's
// GetBlobsBySHA.
func hGetBlobs(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	shas := c.q.Get("shas")
	if shas == "" {
		c.fail(http.StatusBadRequest, "shas not provided")
		return
	}
	out := []*wBlob{}
	for _, sha := range strings.Split(shas, ",") {
		b, ok := c.findBlob(r, sha)
		if !ok {
			c.fail(http.StatusBadRequest, "object does not exist [id: "+sha+", rel_path: ]")
			return
		}
		out = append(out, b)
	}
	c.json(http.StatusOK, out)
}

// commitsRangeSize is Forgejo's [git] COMMITS_RANGE_SIZE default: the
// commit log's largest page.
const commitsRangeSize = 50

// touches reports whether cm changed p (a file, or anything below a
// directory p) against its parent.
func touches(r *repo, cm *commit, p string) bool {
	var parent map[string]string
	if pc := r.commits[cm.parent]; pc != nil {
		parent = pc.files
	}
	for _, f := range changedPaths(parent, cm.files) {
		if f == p || strings.HasPrefix(f, p+"/") {
			return true
		}
	}
	return false
}

// hListCommits is the commit log from sha (a branch, tag or commit; the
// default branch without one), newest first, optionally only the commits
// that touched path; stat, verification and files may be turned off. It
// pages with Link and X-Total-Count, the page clamped to 50 as well, and
// sends Forgejo's X-Page, X-PerPage, X-Total, X-PageCount and X-HasMore.
// An empty repository is 409.
func hListCommits(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	if r.empty {
		c.fail(http.StatusConflict, "Git Repository is empty.")
		return
	}
	ref := cmp.Or(c.q.Get("sha"), r.defaultBranch)
	head, ok := r.commitOf(ref)
	if !ok {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.", "object does not exist [id: "+ref+", rel_path: ]")
		return
	}
	p := strings.Trim(c.q.Get("path"), "/")
	not := map[string]bool{}
	for _, n := range c.q["not"] {
		if sha, ok := r.commitOf(n); ok {
			not[sha] = true
		}
	}
	var list []*commit
	seen := map[string]bool{}
	for sha := head; sha != "" && !seen[sha]; {
		seen[sha] = true
		cm := r.commits[sha]
		if cm == nil {
			break
		}
		if !not[sha] && (p == "" || touches(r, cm, p)) {
			list = append(list, cm)
		}
		sha = cm.parent
	}
	if p != "" && len(list) == 0 {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.", "object does not exist [id: "+head+", rel_path: "+p+"]")
		return
	}
	// paginate's page size, bound by the commit log's own limit too.
	size := c.formInt("limit")
	if size <= 0 {
		size = c.s.cfg.pagingNum
	}
	size = min(size, c.s.cfg.maxItems, commitsRangeSize)
	pageN := max(c.formInt("page"), 1)
	start := min((pageN-1)*size, len(list))
	page := list[start:min(start+size, len(list))]
	pages := (len(list) + size - 1) / size
	c.header.Set("X-Total-Count", strconv.Itoa(len(list)))
	expose := "X-Total-Count"
	if links := c.links(len(list), size, pageN); links != "" {
		c.header.Set("Link", links)
		expose = "Link, " + expose
	}
	c.header.Set("X-Page", strconv.Itoa(pageN))
	c.header.Set("X-PerPage", strconv.Itoa(size))
	c.header.Set("X-Total", strconv.Itoa(len(list)))
	c.header.Set("X-PageCount", strconv.Itoa(pages))
	c.header.Set("X-HasMore", strconv.FormatBool(pageN < pages))
	c.header.Set("Access-Control-Expose-Headers", expose+", X-Page, X-PerPage, X-Total, X-PageCount, X-HasMore")
	out := make([]*wCommit, 0, len(page))
	for _, cm := range page {
		var parent map[string]string
		if pc := r.commits[cm.parent]; pc != nil {
			parent = pc.files
		}
		w := c.v.gitCommit(r, cm, parent, c.q.Get("files") != "false")
		if c.q.Get("stat") == "false" {
			w.Stats = nil
		}
		if c.q.Get("verification") == "false" {
			w.Commit.Verification = nil
		}
		out = append(out, w)
	}
	c.json(http.StatusOK, out)
}

// hRepoByID is a repository by its id; one the caller may not read is
// 404, as one that is not there.
func hRepoByID(c *call) {
	id, _ := c.pathInt("id")
	for _, r := range c.st.reposInOrder {
		if r.id == id && canRead(c.user, r) {
			c.json(http.StatusOK, c.v.repo(r, 0))
			return
		}
	}
	c.notFound()
}

// languageOf maps a file to its linguist language, for the few
// programming and markup languages the fake knows (data and prose, such
// as YAML, JSON and Markdown, do not count, as in Forgejo's statistics).
func languageOf(p string) string {
	base := path.Base(p)
	if base == "Makefile" {
		return "Makefile"
	}
	if base == "Dockerfile" {
		return "Dockerfile"
	}
	return map[string]string{
		".go": "Go", ".py": "Python", ".js": "JavaScript", ".mjs": "JavaScript", ".ts": "TypeScript",
		".rs": "Rust", ".c": "C", ".h": "C", ".cc": "C++", ".cpp": "C++", ".hpp": "C++", ".java": "Java",
		".kt": "Kotlin", ".rb": "Ruby", ".php": "PHP", ".sh": "Shell", ".bash": "Shell", ".lua": "Lua",
		".html": "HTML", ".htm": "HTML", ".css": "CSS", ".scss": "SCSS", ".vue": "Vue", ".swift": "Swift",
		".cs": "C#", ".zig": "Zig", ".hs": "Haskell", ".ex": "Elixir", ".erl": "Erlang", ".pl": "Perl",
	}[path.Ext(base)]
}

// skippedForLanguages is what Forgejo's statistics leave out: dot files,
// vendored code and documentation.
func skippedForLanguages(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if strings.HasPrefix(part, ".") || part == "vendor" || part == "node_modules" || part == "docs" || part == "doc" {
			return true
		}
	}
	base := strings.ToLower(path.Base(p))
	return strings.HasPrefix(base, "readme") || strings.HasPrefix(base, "license") || strings.HasPrefix(base, "changelog")
}

// hLanguages is the default branch's bytes per language, computed at once
// (Forgejo computes them in the background after a push, so a real server
// may answer {} for a while).
func hLanguages(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	out := map[string]int64{}
	if b := r.branch(r.defaultBranch); b != nil && !r.empty {
		files := r.files(b)
		for _, p := range slices.Sorted(maps.Keys(files)) {
			if lang := languageOf(p); lang != "" && !skippedForLanguages(p) {
				out[lang] += int64(len(files[p]))
			}
		}
	}
	c.json(http.StatusOK, out)
}

// hArchive is repoGetArchive: the files of a ref as a .zip or .tar.gz
// under a "<repo>/" directory, as git archive --prefix writes them, named
// "<repo>-<ref>.<format>". The fake writes no git bundle: .bundle is
// refused as an unknown format.
func hArchive(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	name := c.p["archive"]
	var ref, format string
	for _, f := range []string{".tar.gz", ".zip"} {
		if base, ok := strings.CutSuffix(name, f); ok {
			ref, format = base, f
			break
		}
	}
	if format == "" {
		c.fail(http.StatusBadRequest, "unknown format: "+name)
		return
	}
	sha, files, ok := r.resolveRef(ref)
	if !ok || r.empty {
		c.fail(http.StatusNotFound, "unrecognized repository reference: "+ref)
		return
	}
	var when time.Time
	if cm := r.commits[sha]; cm != nil {
		when = cm.when
	}
	// git archive writes the tree depth first, in git's order: the
	// prefix directory, then each entry, a directory before its content.
	type entry struct {
		name string
		dir  bool
		body string
	}
	prefix := r.name + "/"
	list := []entry{{name: prefix, dir: true}}
	var walk func(dir string)
	walk = func(dir string) {
		for _, e := range dirEntries(files, dir) {
			if e.dir {
				list = append(list, entry{name: prefix + e.path + "/", dir: true})
				walk(e.path)
				continue
			}
			list = append(list, entry{name: prefix + e.path, body: files[e.path]})
		}
	}
	walk("")
	var buf bytes.Buffer
	if format == ".zip" {
		zw := zip.NewWriter(&buf)
		for _, e := range list {
			h := &zip.FileHeader{Name: e.name, Modified: when}
			if e.dir {
				h.SetMode(fs.ModeDir | 0o755)
				_, _ = zw.CreateHeader(h)
				continue
			}
			h.Method = zip.Deflate
			h.SetMode(0o644)
			w, _ := zw.CreateHeader(h)
			_, _ = io.WriteString(w, e.body)
		}
		_ = zw.Close()
	} else {
		gz := gzip.NewWriter(&buf)
		tw := tar.NewWriter(gz)
		_ = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeXGlobalHeader, Name: "pax_global_header", PAXRecords: map[string]string{"comment": sha}})
		for _, e := range list {
			if e.dir {
				_ = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: e.name, Mode: 0o755, ModTime: when})
				continue
			}
			_ = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: e.name, Mode: 0o644, Size: int64(len(e.body)), ModTime: when})
			_, _ = io.WriteString(tw, e.body)
		}
		_ = tw.Close()
		_ = gz.Close()
	}
	// Forgejo 15 serves an archive with the type of its format and names
	// it twice, quoted and RFC 5987-encoded (Gitea 1.27:
	// application/octet-stream, the bare name).
	ctype := map[string]string{".zip": "application/zip", ".tar.gz": "application/gzip"}[format]
	c.header.Set("Content-Type", cmp.Or(ctype, "application/octet-stream"))
	refName := strings.ReplaceAll(strings.TrimPrefix(strings.TrimPrefix(ref, "refs/heads/"), "refs/tags/"), "/", "-")
	fname := r.name + "-" + refName + format
	c.header.Set("Content-Disposition", `attachment; filename="`+strings.ReplaceAll(fname, `"`, `\"`)+`"; filename*=UTF-8''`+url.PathEscape(fname))
	c.status, c.out = http.StatusOK, buf.Bytes()
}

// editorconfigGlob turns an EditorConfig section name into a regular
// expression over a path from the repository's root: * (not /), **, ?,
// [...], {a,b}; a name without a slash matches in any directory.
func editorconfigGlob(sel string) (*regexp.Regexp, error) {
	var b strings.Builder
	if !strings.Contains(sel, "/") {
		b.WriteString("(?:^|.*/)")
	} else {
		b.WriteString("^")
		sel = strings.TrimPrefix(sel, "/")
	}
	depth := 0
	for i := 0; i < len(sel); i++ {
		switch ch := sel[i]; ch {
		case '*':
			if i+1 < len(sel) && sel[i+1] == '*' {
				b.WriteString(".*")
				i++
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		case '[':
			j := strings.IndexByte(sel[i:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := sel[i+1 : i+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + class + "]")
			i += j
		case '{':
			depth++
			b.WriteString("(?:")
		case '}':
			if depth > 0 {
				depth--
				b.WriteString(")")
			} else {
				b.WriteString(`\}`)
			}
		case ',':
			if depth > 0 {
				b.WriteString("|")
			} else {
				b.WriteString(",")
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(ch)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// hEditorConfig is repoGetEditorConfig: the EditorConfig definition of a
// file of the root directory (Forgejo's route takes one path segment) from
// the root .editorconfig of a ref (the default branch without ?ref), later
// sections overriding earlier ones; no .editorconfig, or none of its
// sections matching, is 404.
func hEditorConfig(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	_, _, files, _, ok := c.refFor(r)
	if !ok {
		return
	}
	src, ok := files[".editorconfig"]
	if !ok {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.", "object does not exist [id: , rel_path: .editorconfig]")
		return
	}
	target := strings.Trim(c.p["filepath"], "/")
	if strings.Contains(target, "/") {
		// Forgejo's route takes one segment ({filename}): a file in a
		// directory is no route at all.
		c.status, c.out = http.StatusNotFound, []byte("404 page not found\n")
		c.header.Set("Content-Type", "text/plain; charset=utf-8")
		return
	}
	props := map[string]string{}
	matched := false
	var re *regexp.Regexp
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case line[0] == '[' && strings.HasSuffix(line, "]"):
			re, _ = editorconfigGlob(line[1 : len(line)-1])
			if re != nil && re.MatchString(target) {
				matched = true
			} else {
				re = nil
			}
		case re != nil:
			if k, v, ok := strings.Cut(line, "="); ok {
				props[strings.ToLower(strings.TrimSpace(k))] = strings.ToLower(strings.TrimSpace(v))
			}
		}
	}
	if !matched {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.")
		return
	}
	// The fields editorconfig-core-go's Definition sends; the others
	// (tab_width, trim_trailing_whitespace, insert_final_newline) it
	// keeps out of JSON.
	c.json(http.StatusOK, struct {
		Charset     string `json:"charset,omitempty"`
		IndentStyle string `json:"indent_style,omitempty"`
		IndentSize  string `json:"indent_size,omitempty"`
		EndOfLine   string `json:"end_of_line,omitempty"`
	}{props["charset"], props["indent_style"], props["indent_size"], props["end_of_line"]})
}

// diffOp is one line of an edit script: ' ' kept, '-' deleted, '+' added.
type diffOp struct {
	kind byte
	line string // with its terminator, if it has one
}

// editScript is a shortest edit from a to b by their longest common
// subsequence, deletions before additions where both are possible, as git
// prints them.
func editScript(a, b []string) []diffOp {
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []diffOp
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out = append(out, diffOp{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, diffOp{'-', a[i]})
			i++
		default:
			out = append(out, diffOp{'+', b[j]})
			j++
		}
	}
	return out
}

// hunkSide is one side of a hunk header ("-a,b") as git writes it: ",1"
// left out, an empty side numbered from the line before.
func hunkSide(start, n int) string {
	switch n {
	case 0:
		return strconv.Itoa(start-1) + ",0"
	case 1:
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(n)
}

// unifiedHunks writes the hunks from old to nw with three lines of
// context, and git's "\ No newline at end of file" after a last line
// without one.
func unifiedHunks(sb *strings.Builder, old, nw string) {
	const context = 3
	ops := editScript(splitKeep(old), splitKeep(nw))
	for start := 0; start < len(ops); {
		// Find the next change, then extend the hunk while changes come
		// within twice the context.
		first := start
		for first < len(ops) && ops[first].kind == ' ' {
			first++
		}
		if first == len(ops) {
			return
		}
		from := max(first-context, start)
		end := first
		for k := first; k < len(ops); k++ {
			if ops[k].kind != ' ' {
				end = k
			} else if k-end > 2*context {
				break
			}
		}
		to := min(end+context+1, len(ops))
		// Line numbers at the hunk's start.
		aLine, bLine := 1, 1
		for _, op := range ops[:from] {
			if op.kind != '+' {
				aLine++
			}
			if op.kind != '-' {
				bLine++
			}
		}
		var na, nb int
		for _, op := range ops[from:to] {
			if op.kind != '+' {
				na++
			}
			if op.kind != '-' {
				nb++
			}
		}
		sb.WriteString("@@ -" + hunkSide(aLine, na) + " +" + hunkSide(bLine, nb) + " @@\n")
		for _, op := range ops[from:to] {
			sb.WriteByte(op.kind)
			sb.WriteString(op.line)
			if !strings.HasSuffix(op.line, "\n") {
				sb.WriteString("\n\\ No newline at end of file\n")
			}
		}
		start = to
	}
}

// commitDiff is git diff between two snapshots: files in path order,
// git's headers, blob ids abbreviated to seven digits.
func commitDiff(parent, files map[string]string) string {
	var sb strings.Builder
	for _, p := range changedPaths(parent, files) {
		old, had := parent[p]
		nw, has := files[p]
		sb.WriteString("diff --git a/" + p + " b/" + p + "\n")
		switch {
		case !had:
			sb.WriteString("new file mode 100644\nindex 0000000.." + blobSHA(nw)[:7] + "\n--- /dev/null\n+++ b/" + p + "\n")
		case !has:
			sb.WriteString("deleted file mode 100644\nindex " + blobSHA(old)[:7] + "..0000000\n--- a/" + p + "\n+++ /dev/null\n")
		default:
			sb.WriteString("index " + blobSHA(old)[:7] + ".." + blobSHA(nw)[:7] + " 100644\n--- a/" + p + "\n+++ b/" + p + "\n")
		}
		unifiedHunks(&sb, old, nw)
	}
	return sb.String()
}

// diffStat is what git format-patch writes between its "---" and the diff
// (its default --stat --summary, at the mail width of 72 columns): a line
// per changed file in path order with the count and a +/- graph, the
// totals, then a create or delete line per added or removed file.
func diffStat(parent, files map[string]string) string {
	type row struct {
		name     string
		add, del int
	}
	var rows []row
	var summary strings.Builder
	maxLen, maxChange, adds, dels := 0, 0, 0, 0
	for _, p := range changedPaths(parent, files) {
		old, had := parent[p]
		nw, has := files[p]
		r := row{name: p}
		r.add, r.del = lineChanges(old, nw)
		rows = append(rows, r)
		maxLen, maxChange = max(maxLen, len(p)), max(maxChange, r.add+r.del)
		adds, dels = adds+r.add, dels+r.del
		switch {
		case !had:
			summary.WriteString(" create mode 100644 " + p + "\n")
		case !has:
			summary.WriteString(" delete mode 100644 " + p + "\n")
		}
	}
	if len(rows) == 0 {
		return " 0 files changed\n"
	}
	// git's show_stats: the name gets what it needs, the graph what is
	// left of the width, at least 6 and at most 3/8 of it when both do
	// not fit.
	const width = 72
	numWidth := len(strconv.Itoa(maxChange))
	graphWidth, nameWidth := maxChange, maxLen
	if nameWidth+numWidth+6+graphWidth > width {
		if graphWidth > width*3/8-numWidth-6 {
			graphWidth = max(width*3/8-numWidth-6, 6)
		}
		if nameWidth > width-numWidth-6-graphWidth {
			nameWidth = width - numWidth - 6 - graphWidth
		} else {
			graphWidth = width - numWidth - 6 - nameWidth
		}
	}
	scale := func(n int) int {
		if n == 0 {
			return 0
		}
		return 1 + n*(graphWidth-1)/maxChange
	}
	var sb strings.Builder
	for _, r := range rows {
		name, prefix := r.name, ""
		if len(name) > nameWidth {
			prefix = "..."
			name = name[len(name)-max(nameWidth-3, 0):]
			if i := strings.IndexByte(name, '/'); i >= 0 {
				name = name[i:]
			}
		}
		add, del := r.add, r.del
		if graphWidth < maxChange {
			total := scale(add + del)
			if total < 2 && add > 0 && del > 0 {
				total = 2
			}
			if add < del {
				add = scale(add)
				del = total - add
			} else {
				del = scale(del)
				add = total - del
			}
		}
		sep := ""
		if r.add+r.del > 0 {
			sep = " "
		}
		fmt.Fprintf(&sb, " %s%-*s | %*d%s%s%s\n", prefix, nameWidth-len(prefix), name, numWidth, r.add+r.del, sep,
			strings.Repeat("+", add), strings.Repeat("-", del))
	}
	plural := func(n int, one, many string) string {
		if n == 1 {
			return fmt.Sprintf(one, n)
		}
		return fmt.Sprintf(many, n)
	}
	sb.WriteString(plural(len(rows), " %d file changed", " %d files changed"))
	if adds > 0 || dels == 0 {
		sb.WriteString(plural(adds, ", %d insertion(+)", ", %d insertions(+)"))
	}
	if dels > 0 || adds == 0 {
		sb.WriteString(plural(dels, ", %d deletion(-)", ", %d deletions(-)"))
	}
	sb.WriteString("\n" + summary.String())
	return sb.String()
}

// formatPatch is the mail git format-patch --no-signature writes for the
// commit sha by author at when, from parent to files: the mail header, the
// subject, the body ("" or ending in a newline), the diffstat and the diff.
func formatPatch(host, sha string, author *user, when time.Time, subject, body string, parent, files map[string]string) string {
	// git's mail date: RFC 2822, the day of the month unpadded.
	return "From " + sha + " Mon Sep 17 00:00:00 2001\nFrom: " + author.login + " <" + author.login + "@noreply." + host + ">\nDate: " +
		when.UTC().Format("Mon, 2 Jan 2006 15:04:05 -0700") + "\nSubject: [PATCH] " + subject + "\n\n" + body + "---\n" +
		diffStat(parent, files) + "\n" + commitDiff(parent, files)
}

// hCommitDiff is repoDownloadCommitDiffOrPatch: a commit against its
// parent as git diff writes it (renames are shown as a deletion and an
// addition, not as git diff -M would), or as a patch: what git
// format-patch --no-signature writes, the mail header, the message, the
// diffstat and the diff.
func hCommitDiff(c *call) {
	r := c.pathRepo()
	if r == nil {
		return
	}
	sha, ok := r.commitOf(c.p["sha"])
	cm := r.commits[sha]
	if !ok || cm == nil {
		c.failErrs(http.StatusNotFound, "The target couldn't be found.", "object does not exist [id: "+c.p["sha"]+", rel_path: ]")
		return
	}
	var parent map[string]string
	if p := r.commits[cm.parent]; p != nil {
		parent = p.files
	}
	var diff string
	switch c.p["diffType"] {
	case "diff":
		diff = commitDiff(parent, cm.files)
	case "patch":
		subject, rest, _ := strings.Cut(strings.TrimRight(cm.message, "\n"), "\n")
		body := ""
		if rest = strings.TrimSpace(rest); rest != "" {
			body = rest + "\n"
		}
		diff = formatPatch(c.v.host, cm.sha, cm.author, cm.when, subject, body, parent, cm.files)
	default:
		c.notFound()
		return
	}
	c.status, c.out = http.StatusOK, []byte(diff)
	c.header.Set("Content-Type", "text/plain; charset=utf-8")
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
