package forgejotest

import (
	"cmp"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Packages: the fake has no registry to upload to, so packages are seeded
// with [Server.AddPackage]; the API then lists, reads, deletes and links
// them as Forgejo does.

type pkg struct {
	id       int64
	owner    *user
	typ      string
	name     string
	repo     *repo // linked repository, or nil
	versions []*pkgVersion
}

type pkgVersion struct {
	id      int64
	pkg     *pkg
	version string
	creator *user
	created time.Time
	files   []*pkgFile
}

type pkgFile struct {
	id   int64
	name string
	data []byte
}

// packageTypes are the types Forgejo's registry serves.
var packageTypes = []string{"alpine", "arch", "cargo", "chef", "composer", "conan", "conda", "container", "cran", "debian",
	"generic", "go", "helm", "maven", "npm", "nuget", "pub", "pypi", "rpm", "rubygems", "swift", "vagrant"}

// PackageSpec describes one seeded package version for [Server.AddPackage].
type PackageSpec struct {
	// Owner is the user or organization the package belongs to; a missing
	// user is created.
	Owner string
	// Type is the registry type: "generic", "npm", "container"…
	Type    string
	Name    string
	Version string
	// Creator is who published the version (default: the owner).
	Creator string
	// Files are the version's files, by name.
	Files map[string][]byte
	// Created is when the version was published (default: now).
	Created time.Time
}

// AddPackage publishes a package version as a registry upload would, so
// that the packages API (listPackages, getPackage, listPackageFiles,
// deletePackage, linkPackage, unlinkPackage) has something to answer
// about. Another version of an existing package joins it. It fails the
// test on an unknown type, a blank name or version, or a version that
// exists.
func (s *Server) AddPackage(spec PackageSpec) {
	if s.tb != nil {
		s.tb.Helper()
	}
	if !slices.Contains(packageTypes, spec.Type) || spec.Name == "" || spec.Version == "" || spec.Owner == "" {
		s.fatalf("AddPackage: want an owner, a known type, a name and a version, got %+v", spec)
		return
	}
	s.mu.Lock()
	now := s.now()
	if !spec.Created.IsZero() {
		now = spec.Created
	}
	st := s.st
	owner := st.addUser(spec.Owner, now)
	creator := owner
	if spec.Creator != "" {
		creator = st.addUser(spec.Creator, now)
	}
	p := st.accounts.findPackage(owner, spec.Type, spec.Name)
	if p == nil {
		p = &pkg{id: st.id("package"), owner: owner, typ: spec.Type, name: spec.Name}
		st.accounts.packages = append(st.accounts.packages, p)
	}
	dup := slices.ContainsFunc(p.versions, func(v *pkgVersion) bool { return strings.EqualFold(v.version, spec.Version) })
	if !dup {
		v := &pkgVersion{id: st.id("package_version"), pkg: p, version: spec.Version, creator: creator, created: now}
		names := make([]string, 0, len(spec.Files))
		for n := range spec.Files {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			v.files = append(v.files, &pkgFile{id: st.id("package_file"), name: n, data: slices.Clone(spec.Files[n])})
		}
		p.versions = append(p.versions, v)
	}
	s.mu.Unlock()
	if dup {
		s.fatalf("AddPackage: %s/%s/%s %s already exists", spec.Owner, spec.Type, spec.Name, spec.Version)
	}
}

// findPackage finds a package by owner, type and name (names are
// case-insensitive, as Forgejo's lower_name).
func (a *accountsState) findPackage(owner *user, typ, name string) *pkg {
	for _, p := range a.packages {
		if p.owner == owner && p.typ == typ && strings.EqualFold(p.name, name) {
			return p
		}
	}
	return nil
}

type wPackage struct {
	ID         int64  `json:"id"`
	Owner      *wUser `json:"owner"`
	Repository *wRepo `json:"repository"`
	Creator    *wUser `json:"creator"`
	Type       string `json:"type"`
	Name       string `json:"name"`
	Version    string `json:"version"`
	HTMLURL    string `json:"html_url"`
	CreatedAt  string `json:"created_at"`
}

// wPackageFile is Forgejo's PackageFile, "Size" capitalized as it sends it.
type wPackageFile struct {
	ID     int64  `json:"id"`
	Size   int64  `json:"Size"`
	Name   string `json:"name"`
	MD5    string `json:"md5"`
	SHA1   string `json:"sha1"`
	SHA256 string `json:"sha256"`
	SHA512 string `json:"sha512"`
}

func (c *call) pkgVersion(v *pkgVersion) *wPackage {
	p := v.pkg
	w := &wPackage{ID: v.id, Owner: c.v.user(p.owner), Creator: c.v.user(v.creator), Type: p.typ, Name: p.name, Version: v.version,
		HTMLURL:   c.v.html("/" + url.PathEscape(p.owner.login) + "/-/packages/" + p.typ + "/" + url.PathEscape(p.name) + "/" + url.PathEscape(v.version)),
		CreatedAt: ts(v.created)}
	if p.repo != nil && slices.Contains(c.st.reposInOrder, p.repo) && canRead(c.user, p.repo) {
		w.Repository = c.v.repo(p.repo, 0)
	}
	return w
}

func hexSum(sum []byte) string { return hex.EncodeToString(sum) }

func renderFile(f *pkgFile) *wPackageFile {
	m, s1, s256, s512 := md5.Sum(f.data), sha1.Sum(f.data), sha256.Sum256(f.data), sha512.Sum512(f.data)
	return &wPackageFile{ID: f.id, Size: int64(len(f.data)), Name: f.name, MD5: hexSum(m[:]), SHA1: hexSum(s1[:]),
		SHA256: hexSum(s256[:]), SHA512: hexSum(s512[:])}
}

// packageAccess is Forgejo's DeterminePackageAccessMode, simplified: the
// owner, an organization's owners and site administrators write; anyone
// who may see the owner reads.
func (c *call) packageAccess(owner *user) (read, write bool) {
	switch {
	case c.user != nil && (c.user.isAdmin || c.user == owner):
		return true, true
	case owner.org != nil:
		return c.canSeeOrg(owner), owner.org.isOwner(c.user)
	}
	return true, false
}

// packageOwner resolves {owner} and checks reqPackageAccess.
func (c *call) packageOwner(write bool) *user {
	owner := c.pathUser("owner")
	if owner == nil {
		return nil
	}
	r, w := c.packageAccess(owner)
	if !r || (write && !w) {
		c.fail(http.StatusForbidden, "user should have specific permission or be a site admin")
		return nil
	}
	return owner
}

// pathPackageVersion finds {type}/{name}/{version} of owner.
func (c *call) pathPackageVersion(owner *user) *pkgVersion {
	if p := c.st.accounts.findPackage(owner, c.p["type"], c.p["name"]); p != nil {
		for _, v := range p.versions {
			if strings.EqualFold(v.version, c.p["version"]) {
				return v
			}
		}
	}
	c.fail(http.StatusNotFound, "package does not exist")
	return nil
}

// hListPackages lists the owner's package versions, newest first, filtered
// by ?type= and by ?q= in the name.
func hListPackages(c *call) {
	owner := c.packageOwner(false)
	if owner == nil {
		return
	}
	typ, q := c.q.Get("type"), strings.ToLower(c.q.Get("q"))
	var vs []*pkgVersion
	for _, p := range c.st.accounts.packages {
		if p.owner != owner || (typ != "" && p.typ != typ) || !strings.Contains(strings.ToLower(p.name), q) {
			continue
		}
		vs = append(vs, p.versions...)
	}
	slices.SortStableFunc(vs, func(a, b *pkgVersion) int {
		return cmp.Or(b.created.Compare(a.created), cmp.Compare(b.id, a.id))
	})
	out := []*wPackage{}
	for _, v := range paginate(c, vs, pageLinked) {
		out = append(out, c.pkgVersion(v))
	}
	c.json(http.StatusOK, out)
}

func hGetPackage(c *call) {
	if owner := c.packageOwner(false); owner != nil {
		if v := c.pathPackageVersion(owner); v != nil {
			c.json(http.StatusOK, c.pkgVersion(v))
		}
	}
}

func hListPackageFiles(c *call) {
	if owner := c.packageOwner(false); owner != nil {
		if v := c.pathPackageVersion(owner); v != nil {
			out := []*wPackageFile{}
			for _, f := range v.files {
				out = append(out, renderFile(f))
			}
			c.json(http.StatusOK, out)
		}
	}
}

// hDeletePackage removes a version; a package left without versions goes
// too, as Forgejo's RemovePackageVersion does.
func hDeletePackage(c *call) {
	owner := c.packageOwner(true)
	if owner == nil {
		return
	}
	v := c.pathPackageVersion(owner)
	if v == nil {
		return
	}
	p := v.pkg
	p.versions = slices.DeleteFunc(p.versions, func(x *pkgVersion) bool { return x == v })
	if len(p.versions) == 0 {
		c.st.accounts.packages = slices.DeleteFunc(c.st.accounts.packages, func(x *pkg) bool { return x == p })
	}
	c.empty(http.StatusNoContent)
}

// pathPackage finds {type}/{name} of owner, answering GetPackageByName's
// 404.
func (c *call) pathPackage(owner *user) *pkg {
	p := c.st.accounts.findPackage(owner, c.p["type"], c.p["name"])
	if p == nil {
		c.fail(http.StatusNotFound, "package does not exist")
	}
	return p
}

// hLinkPackage links a package to a repository of the same owner the
// caller may write to; a package linked already is a 400.
func hLinkPackage(c *call) {
	owner := c.packageOwner(true)
	if owner == nil {
		return
	}
	p := c.pathPackage(owner)
	if p == nil {
		return
	}
	r := c.st.repo(owner.login, c.p["repo_name"])
	if r == nil {
		c.fail(http.StatusNotFound, fmt.Sprintf("repository does not exist [id: 0, uid: %d, owner_name: , name: %s]", owner.id, strings.ToLower(c.p["repo_name"])))
		return
	}
	switch {
	case p.repo != nil && slices.Contains(c.st.reposInOrder, p.repo):
		c.fail(http.StatusBadRequest, "invalid argument")
		return
	case !canWrite(c.user, r):
		c.fail(http.StatusForbidden, "permission denied")
		return
	}
	p.repo = r
	c.empty(http.StatusCreated)
}

func hUnlinkPackage(c *call) {
	owner := c.packageOwner(true)
	if owner == nil {
		return
	}
	p := c.pathPackage(owner)
	if p == nil {
		return
	}
	if p.repo != nil && slices.Contains(c.st.reposInOrder, p.repo) && !canWrite(c.user, p.repo) {
		c.fail(http.StatusForbidden, "permission denied")
		return
	}
	p.repo = nil
	c.empty(http.StatusNoContent)
}

// ownsPackages reports whether u has packages (which keep an account from
// being deleted).
func (a *accountsState) ownsPackages(u *user) bool {
	return slices.ContainsFunc(a.packages, func(p *pkg) bool { return p.owner == u })
}
