package forgejotest

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// The model of repositories beyond state.go: files and commits, tags,
// releases, collaborators and access, branch protections and hooks
// (organizations and teams: state_orgs.go). Every field is guarded by
// Server.mu.

// commit is a snapshot of every file of a branch, path to content.
type commit struct {
	sha     string
	parent  string
	message string
	author  *user
	when    time.Time
	files   map[string]string
}

type tag struct {
	name    string
	sha     string // the commit it points at
	message string // annotated when not empty
	tagger  *user
	when    time.Time
}

type release struct {
	id          int64
	repo        *repo
	tag         string
	target      string
	name        string
	body        string
	draft       bool
	prerelease  bool
	hideArchive bool
	author      *user
	created     time.Time
	published   time.Time
	assets      []*attachment
}

type attachment struct {
	id        int64
	uuid      string
	name      string
	size      int64
	external  string // an external asset's URL
	created   time.Time
	downloads int64
}

type hook struct {
	id            int64
	kind          string // forgejo, gitea, slack...
	url           string
	contentType   string // json or form
	secret        string
	method        string
	events        []string
	branchFilter  string
	authorization string
	active        bool
	created       time.Time
	updated       time.Time
	// defaultHook marks a hook of the site's made through POST
	// /admin/hooks: a default hook (a template for new repositories), not
	// a system hook, so GET /admin/hooks does not list it.
	defaultHook bool
}

type collaborator struct {
	u    *user
	perm string // read, write or admin
}

type protection struct {
	rule    string
	body    map[string]any // the options as last given, for echoing back
	created time.Time
	updated time.Time
}

// Permission levels, as Forgejo's access modes.
const (
	accessNone = iota
	accessRead
	accessWrite
	accessAdmin
	accessOwner
)

func accessOf(perm string) int {
	switch perm {
	case "read":
		return accessRead
	case "write":
		return accessWrite
	case "admin":
		return accessAdmin
	case "owner":
		return accessOwner
	}
	return accessNone
}

func accessName(a int) string {
	return [...]string{"none", "read", "write", "admin", "owner"}[a]
}

// userAccess is what u may do in r, whatever the token (access narrows
// it by the call's token): site administrators and the owner (or an
// owner of the owning organization) everything; teams and collaborators
// what they were given; anyone may read a public repository.
func userAccess(u *user, r *repo) int {
	a := accessNone
	if !r.private {
		a = accessRead
	}
	if u == nil {
		return a
	}
	if u.isAdmin || u == r.owner {
		return accessOwner
	}
	if o := r.owner.org; o != nil {
		for _, t := range o.teams {
			if slices.Contains(t.members, u) && (t.includesAll || slices.Contains(t.repos, r)) {
				a = max(a, accessOf(t.permission))
			}
		}
	}
	for _, c := range r.collaborators {
		if c.u == u {
			a = max(a, accessOf(c.perm))
		}
	}
	return a
}

// ---- git: blobs and trees hash as git hashes them, so a tree or a blob
// has the same id here as on a real server; commits are synthetic.

func gitHash(kind string, data []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "%s %d\x00", kind, len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

func blobSHA(content string) string { return gitHash("blob", []byte(content)) }

// treeEntry is one entry of a directory.
type treeEntry struct {
	name string
	path string
	dir  bool
	sha  string
	size int64
}

// dirEntries lists the directory dir ("" for the root) of files, in git's
// order, with each entry's id.
func dirEntries(files map[string]string, dir string) []treeEntry {
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	seen := map[string]bool{}
	var out []treeEntry
	for p, content := range files {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		name, _, isDir := strings.Cut(rest, "/")
		if seen[name] {
			continue
		}
		seen[name] = true
		e := treeEntry{name: name, path: prefix + name, dir: isDir}
		if isDir {
			e.sha = treeSHA(files, prefix+name)
		} else {
			e.sha, e.size = blobSHA(content), int64(len(content))
		}
		out = append(out, e)
	}
	// git sorts a directory's name as if it ended in "/".
	key := func(e treeEntry) string {
		if e.dir {
			return e.name + "/"
		}
		return e.name
	}
	slices.SortFunc(out, func(a, b treeEntry) int { return strings.Compare(key(a), key(b)) })
	return out
}

func treeSHA(files map[string]string, dir string) string {
	var buf []byte
	for _, e := range dirEntries(files, dir) {
		mode := "100644"
		if e.dir {
			mode = "40000"
		}
		raw, _ := hex.DecodeString(e.sha)
		buf = append(buf, mode+" "+e.name+"\x00"...)
		buf = append(buf, raw...)
	}
	return gitHash("tree", buf)
}

// isDir reports whether dir is a directory of files.
func isDir(files map[string]string, dir string) bool {
	if dir == "" {
		return true
	}
	for p := range files {
		if strings.HasPrefix(p, dir+"/") {
			return true
		}
	}
	return false
}

func (r *repo) addCommit(parent, message string, author *user, when time.Time, files map[string]string) *commit {
	cm := &commit{
		sha:    fakeSHA("commit", r.owner.login, r.name, parent, message, when.String(), fmt.Sprint(len(r.commits))),
		parent: parent, message: message, author: author, when: when, files: files,
	}
	r.commits[cm.sha] = cm
	return cm
}

// files is the snapshot at a branch's head; a branch made by the seed
// functions without files of its own sees the default branch's.
func (r *repo) files(b *branch) map[string]string {
	if cm := r.commits[b.sha]; cm != nil {
		return cm.files
	}
	if d := r.branch(r.defaultBranch); d != nil && d != b {
		if cm := r.commits[d.sha]; cm != nil {
			return cm.files
		}
	}
	return map[string]string{}
}

// commitFiles writes a new commit on b with the files changed by edit.
func (r *repo) commitFiles(b *branch, message string, author *user, now time.Time, edit func(files map[string]string)) *commit {
	files := maps.Clone(r.files(b))
	if files == nil {
		files = map[string]string{}
	}
	edit(files)
	cm := r.addCommit(b.sha, message, author, now, files)
	b.sha, b.message, b.author, b.when = cm.sha, message, author, now
	r.empty, r.updated = false, now
	return cm
}

// resolveRef finds a branch, a tag or a commit id.
func (r *repo) resolveRef(ref string) (sha string, files map[string]string, ok bool) {
	ref = strings.TrimPrefix(strings.TrimPrefix(ref, "refs/heads/"), "refs/tags/")
	if b := r.branch(ref); b != nil {
		return b.sha, r.files(b), true
	}
	if t := r.tag(ref); t != nil {
		if cm := r.commits[t.sha]; cm != nil {
			return t.sha, cm.files, true
		}
		return t.sha, map[string]string{}, true
	}
	if cm := r.commits[ref]; cm != nil {
		return cm.sha, cm.files, true
	}
	return "", nil, false
}

func (r *repo) tag(name string) *tag {
	for _, t := range r.tags {
		if t.name == name {
			return t
		}
	}
	return nil
}

func (r *repo) release(id int64) *release {
	for _, rel := range r.releases {
		if rel.id == id {
			return rel
		}
	}
	return nil
}

func (r *repo) releaseByTag(name string) *release {
	for _, rel := range r.releases {
		if rel.tag == name {
			return rel
		}
	}
	return nil
}
