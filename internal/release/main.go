// Command release builds the module zips of a forgego release into a
// directory laid out as a GOPROXY, and moves the nested modules'
// requirement of the root module from one release to the next. It is a
// module of its own because it needs golang.org/x/mod, and the core module
// stays standard-library only. Run it from the repository root:
//
//	go run ./internal/release proxy -o DIR [-rev HEAD]
//	go run ./internal/release bump v0.2.0
//	go run ./internal/release version
//
// proxy writes, for every module of the release (every module that go.work
// uses, except the tools under internal/), DIR/<module>/@v/<version>.zip,
// .mod, .info and list, from the committed tree at -rev (what a tag there
// would publish; uncommitted changes are not in it), at the version the
// nested modules require of the root. Then
//
//	GOWORK=off GOPROXY=file://DIR,https://proxy.golang.org GONOSUMDB=codeberg.org/forgego \
//		go install codeberg.org/forgego/forgejo/cmd/forgego@<version>
//
// installs the CLI as a user would (scripts/release-dryrun.sh does that).
//
// bump sets every nested module's requirement of the root (and of any
// other module of the release it requires: the CLI requires forgeredis),
// and the go.work replaces that let the workspace read that version's
// go.mod files before they are published, to the given version. version prints the version the nested
// modules require, after checking that they all agree with go.work.
package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	modzip "golang.org/x/mod/zip"
)

// rootPath is the core module; every other module of the release requires it.
const rootPath = "codeberg.org/forgego/forgejo"

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "proxy":
		err = cmdProxy(os.Args[2:])
	case "bump":
		if len(os.Args) != 3 {
			usage()
		}
		err = cmdBump(os.Args[2])
	case "version":
		var w *workspace
		if w, err = loadWorkspace(); err == nil {
			fmt.Println(w.version)
		}
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: go run ./internal/release proxy -o DIR [-rev REV] | bump vX.Y.Z | version")
	os.Exit(2)
}

// mod is one module of the release: its directory relative to the
// repository root ("" for the root) and its path.
type mod struct {
	dir, path string
}

type workspace struct {
	top     string // the repository root (where go.work is)
	mods    []mod  // the root first
	version string // the root version every nested module requires
}

// loadWorkspace reads go.work and every module it uses, and checks the
// invariants of a release: no module replaces the root, every nested
// module requires the same version of it, and go.work's replace names
// exactly that version.
func loadWorkspace() (*workspace, error) {
	top, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(top, "go.work"))
	if err != nil {
		return nil, fmt.Errorf("run from the repository root: %w", err)
	}
	wf, err := modfile.ParseWork("go.work", data, nil)
	if err != nil {
		return nil, err
	}
	w := &workspace{top: top}
	var problems []string
	files := map[string]*modfile.File{} // by directory, nested modules only
	for _, u := range wf.Use {
		dir := path.Clean(filepath.ToSlash(u.Path))
		if dir == "." {
			dir = ""
		}
		if dir == "internal" || strings.HasPrefix(dir, "internal/") {
			continue // tools of this repository, never released
		}
		gomod := filepath.Join(top, filepath.FromSlash(dir), "go.mod")
		data, err := os.ReadFile(gomod)
		if err != nil {
			return nil, err
		}
		mf, err := modfile.Parse(gomod, data, nil)
		if err != nil {
			return nil, err
		}
		m := mod{dir: dir, path: mf.Module.Mod.Path}
		if (dir == "") != (m.path == rootPath) {
			return nil, fmt.Errorf("%s: module %s: expected the root module at the top of the repository", gomod, m.path)
		}
		if dir != "" && m.path != rootPath+"/"+dir {
			problems = append(problems, fmt.Sprintf("%s: module path %s does not match its directory (tags would be %s/vX.Y.Z)", gomod, m.path, dir))
		}
		for _, r := range mf.Replace {
			if r.Old.Path == rootPath {
				problems = append(problems, fmt.Sprintf("%s: replaces %s (the workspace, go.work, joins the modules; a nested go.mod requires a released version)", gomod, rootPath))
			}
		}
		if dir != "" {
			v := ""
			for _, r := range mf.Require {
				if r.Mod.Path == rootPath {
					v = r.Mod.Version
				}
			}
			switch {
			case v == "":
				problems = append(problems, fmt.Sprintf("%s: does not require %s", gomod, rootPath))
			case w.version == "":
				w.version = v
			case v != w.version:
				problems = append(problems, fmt.Sprintf("%s: requires %s %s, another module requires %s: every nested module requires the same release (go run ./internal/release bump VERSION)", gomod, rootPath, v, w.version))
			}
		}
		if dir == "" {
			w.mods = slices.Insert(w.mods, 0, m)
		} else {
			w.mods = append(w.mods, m)
			files[dir] = mf
		}
	}
	// A nested module that requires another one of the release (the CLI
	// requires forgeredis) requires it at the release's version too, and
	// go.work replaces it with its directory at exactly that version.
	dirOf := map[string]string{}
	for _, m := range w.mods[min(1, len(w.mods)):] {
		dirOf[m.path] = m.dir
	}
	siblings := map[string]bool{}
	for _, m := range w.mods {
		mf := files[m.dir]
		if mf == nil {
			continue
		}
		for _, r := range mf.Require {
			if _, ok := dirOf[r.Mod.Path]; ok {
				siblings[r.Mod.Path] = true
				if r.Mod.Version != w.version {
					problems = append(problems, fmt.Sprintf("%s/go.mod: requires %s %s, not the release's %s (go run ./internal/release bump %s)", m.dir, r.Mod.Path, r.Mod.Version, w.version, w.version))
				}
			}
		}
	}
	for sib := range siblings {
		ok := false
		for _, r := range wf.Replace {
			if r.Old.Path == sib && r.Old.Version == w.version && path.Clean(r.New.Path) == dirOf[sib] {
				ok = true
			}
		}
		if !ok {
			problems = append(problems, fmt.Sprintf("go.work: does not replace %s %s with ./%s (go run ./internal/release bump %s)", sib, w.version, dirOf[sib], w.version))
		}
	}
	if len(w.mods) == 0 || w.mods[0].dir != "" {
		return nil, errors.New("go.work does not use the root module (use .)")
	}
	if w.version != "" && (!semver.IsValid(w.version) || semver.Canonical(w.version) != w.version || semver.Build(w.version) != "") {
		problems = append(problems, fmt.Sprintf("the nested modules require %s %s, which is not a release version vX.Y.Z[-pre]", rootPath, w.version))
	}
	replaced := ""
	for _, r := range wf.Replace {
		if r.Old.Path == rootPath {
			replaced = r.Old.Version
			if r.New.Path != "./" && r.New.Path != "." {
				problems = append(problems, fmt.Sprintf("go.work: replaces %s with %s, not with ./", rootPath, r.New.Path))
			}
		}
	}
	if replaced != w.version {
		problems = append(problems, fmt.Sprintf("go.work: replaces %s %q, but the nested modules require %q: the replace must name that version exactly (go run ./internal/release bump %s)", rootPath, replaced, w.version, w.version))
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "\n"))
	}
	return w, nil
}

func cmdProxy(args []string) error {
	fs := flag.NewFlagSet("proxy", flag.ExitOnError)
	out := fs.String("o", "", "the directory to write the GOPROXY layout into (created; existing files of these versions are replaced)")
	rev := fs.String("rev", "HEAD", "the git revision to build the zips from")
	fs.Parse(args)
	if *out == "" || fs.NArg() != 0 {
		usage()
	}
	w, err := loadWorkspace()
	if err != nil {
		return err
	}
	start := time.Now()
	files, err := gitArchive(w.top, *rev)
	if err != nil {
		return err
	}
	when, err := commitTime(w.top, *rev)
	if err != nil {
		return err
	}
	// Every go.mod in the tree belongs to a module of the release or to a
	// tool under internal/: a new module that go.work forgets fails here.
	for name := range files {
		if path.Base(name) != "go.mod" {
			continue
		}
		dir := path.Dir(name)
		if dir == "." {
			dir = ""
		}
		known := dir == "internal" || strings.HasPrefix(dir, "internal/")
		for _, m := range w.mods {
			known = known || m.dir == dir
		}
		if !known {
			return fmt.Errorf("%s: a module that go.work does not use (add it: go work use ./%s)", name, dir)
		}
	}
	for _, m := range w.mods {
		n, size, err := writeModule(*out, m, w.version, when, files)
		if err != nil {
			return fmt.Errorf("%s@%s: %w", m.path, w.version, err)
		}
		fmt.Printf("%s@%s: %d files, %d bytes zipped\n", m.path, w.version, n, size)
	}
	fmt.Printf("release: %d modules at %s from %s in %s\n", len(w.mods), w.version, *rev, time.Since(start).Round(time.Millisecond))
	return nil
}

// gitArchive returns the files of the tree at rev, as git archive sees
// them (committed content, export-ignore honoured, no line-ending
// conversion), keyed by slash path.
func gitArchive(top, rev string) (map[string]*zip.File, error) {
	cmd := exec.Command("git", "-c", "core.autocrlf=input", "-c", "core.eol=lf", "archive", "--format=zip", rev)
	cmd.Dir = top
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git archive %s: %v: %s", rev, err, stderr.String())
	}
	zr, err := zip.NewReader(bytes.NewReader(stdout.Bytes()), int64(stdout.Len()))
	if err != nil {
		return nil, err
	}
	files := make(map[string]*zip.File, len(zr.File))
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, "/") {
			files[f.Name] = f
		}
	}
	return files, nil
}

func commitTime(top, rev string) (time.Time, error) {
	cmd := exec.Command("git", "log", "-1", "--format=%cI", rev)
	cmd.Dir = top
	out, err := cmd.Output()
	if err != nil {
		return time.Time{}, fmt.Errorf("git log %s: %w", rev, err)
	}
	return time.Parse(time.RFC3339, strings.TrimSpace(string(out)))
}

// writeModule writes one module's .zip, .mod, .info and list the way the
// go command fetches them from a proxy. A nested module without a LICENSE
// gets the root's, as the go command does when it serves a module from a
// subdirectory of a repository.
func writeModule(out string, m mod, version string, when time.Time, files map[string]*zip.File) (n int, size int64, err error) {
	prefix := ""
	if m.dir != "" {
		prefix = m.dir + "/"
	}
	var list []modzip.File
	haveLicense := false
	for name, f := range files {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		rel := strings.TrimPrefix(name, prefix)
		list = append(list, archived{rel, f})
		haveLicense = haveLicense || rel == "LICENSE"
	}
	if !haveLicense && m.dir != "" {
		if f, ok := files["LICENSE"]; ok {
			list = append(list, archived{"LICENSE", f})
		}
	}
	gomod, ok := files[prefix+"go.mod"]
	if !ok {
		return 0, 0, fmt.Errorf("no %sgo.mod at this revision", prefix)
	}
	modData, err := readAll(gomod)
	if err != nil {
		return 0, 0, err
	}

	escPath, err := module.EscapePath(m.path)
	if err != nil {
		return 0, 0, err
	}
	escVers, err := module.EscapeVersion(version)
	if err != nil {
		return 0, 0, err
	}
	dir := filepath.Join(out, filepath.FromSlash(escPath), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, 0, err
	}
	var buf bytes.Buffer
	mv := module.Version{Path: m.path, Version: version}
	if err := modzip.Create(&buf, mv, list); err != nil {
		return 0, 0, err
	}
	// Count what the zip holds (Create leaves out submodules and vendored
	// packages) rather than what was offered.
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		return 0, 0, err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    string
	}{version, when.UTC().Format(time.RFC3339)})
	if err != nil {
		return 0, 0, err
	}
	for _, f := range []struct {
		ext  string
		data []byte
	}{{".zip", buf.Bytes()}, {".mod", modData}, {".info", append(info, '\n')}} {
		if err := os.WriteFile(filepath.Join(dir, escVers+f.ext), f.data, 0o644); err != nil {
			return 0, 0, err
		}
	}
	// list: every version in this directory, one a line.
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, 0, err
	}
	var versions []string
	for _, e := range entries {
		if v, ok := strings.CutSuffix(e.Name(), ".info"); ok {
			versions = append(versions, v)
		}
	}
	semver.Sort(versions)
	if err := os.WriteFile(filepath.Join(dir, "list"), []byte(strings.Join(versions, "\n")+"\n"), 0o644); err != nil {
		return 0, 0, err
	}
	return len(zr.File), int64(buf.Len()), nil
}

func readAll(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// archived is one file of the git archive under its path in the module.
type archived struct {
	name string
	f    *zip.File
}

func (a archived) Path() string                 { return a.name }
func (a archived) Lstat() (os.FileInfo, error)  { return a.f.FileInfo(), nil }
func (a archived) Open() (io.ReadCloser, error) { return a.f.Open() }

// cmdBump moves every nested module's requirement of the root, and the
// go.work replace, to version.
func cmdBump(version string) error {
	if !semver.IsValid(version) || semver.Canonical(version) != version || semver.Build(version) != "" {
		return fmt.Errorf("%q is not a release version vX.Y.Z[-pre]", version)
	}
	top, err := os.Getwd()
	if err != nil {
		return err
	}
	data, err := os.ReadFile(filepath.Join(top, "go.work"))
	if err != nil {
		return fmt.Errorf("run from the repository root: %w", err)
	}
	wf, err := modfile.ParseWork("go.work", data, nil)
	if err != nil {
		return err
	}
	run := func(dir string, args ...string) error {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: go %s: %w", dir, strings.Join(args, " "), err)
		}
		return nil
	}
	// The modules of the release, and which of them a nested module
	// requires (the root, and siblings such as forgeredis).
	type nested struct {
		dir  string
		reqs []string
	}
	dirOf := map[string]string{rootPath: "."}
	var mods []nested
	required := map[string]bool{rootPath: true}
	var parsed []*modfile.File
	for _, u := range wf.Use {
		dir := path.Clean(filepath.ToSlash(u.Path))
		if dir == "." || dir == "internal" || strings.HasPrefix(dir, "internal/") {
			continue
		}
		gomod := filepath.Join(top, filepath.FromSlash(dir), "go.mod")
		data, err := os.ReadFile(gomod)
		if err != nil {
			return err
		}
		mf, err := modfile.Parse(gomod, data, nil)
		if err != nil {
			return err
		}
		dirOf[mf.Module.Mod.Path] = dir
		mods = append(mods, nested{dir: dir})
		parsed = append(parsed, mf)
	}
	for i, mf := range parsed {
		for _, r := range mf.Require {
			if _, ok := dirOf[r.Mod.Path]; ok {
				mods[i].reqs = append(mods[i].reqs, r.Mod.Path)
				required[r.Mod.Path] = true
			}
		}
	}
	var gowork []string
	for _, r := range wf.Replace {
		if _, ok := dirOf[r.Old.Path]; ok {
			gowork = append(gowork, "-dropreplace="+r.Old.Path+"@"+r.Old.Version)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(required)) {
		gowork = append(gowork, "-replace="+p+"@"+version+"=./"+strings.TrimPrefix(dirOf[p], "."))
	}
	cmd := exec.Command("go", append([]string{"work", "edit"}, gowork...)...)
	cmd.Dir = top
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go work edit: %w", err)
	}
	for _, m := range mods {
		args := []string{"mod", "edit"}
		for _, p := range m.reqs {
			args = append(args, "-require="+p+"@"+version)
		}
		if err := run(filepath.Join(top, filepath.FromSlash(m.dir)), args...); err != nil {
			return err
		}
		fmt.Printf("%s: requires %s at %s\n", m.dir, strings.Join(m.reqs, ", "), version)
	}
	_, err = loadWorkspace()
	return err
}
