// Package record computes a Go module's exported API as text, one line per
// exported identifier, in the manner of the Go project's api/*.txt, and
// compares it with the record committed in api/<module>.txt.
//
// It is standard library only: the packages are listed and compiled by `go
// list -export` (so the build cache answers), and their types are read from
// the compiler's export data with go/importer. That works the same for the
// root module and for the nested ones whose packages import third-party
// modules.
//
// Every module has a test calling [Check]; `go run ./internal/apirecord -w`
// from the repository root rewrites every record.
package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// UpdateCommand is what rewrites every record; failure messages name it.
const UpdateCommand = "go run ./internal/apirecord -w"

// RootModule is the module whose directory holds go.work and api/.
const RootModule = "codeberg.org/forgego/forgejo"

// Module is one module of the workspace.
type Module struct {
	Path string // module path
	Dir  string // absolute directory
	Top  string // the repository root: where go.work and api/ are
}

// RecordFile is the module's record: api/forgejo.txt for the root module,
// api/<dir with "-" for "/">.txt for the others (api/cmd-forgego.txt).
func (m Module) RecordFile() string {
	rel, err := filepath.Rel(m.Top, m.Dir)
	if err != nil || rel == "." {
		rel = "forgejo"
	}
	return filepath.Join(m.Top, "api", strings.ReplaceAll(filepath.ToSlash(rel), "/", "-")+".txt")
}

// FindModule returns the module that holds dir, and the repository root
// (the nearest directory above holding go.work); ok is false outside the
// repository: a module unpacked from its zip into the module cache.
func FindModule(dir string) (m Module, ok bool, err error) {
	dir, err = filepath.Abs(dir)
	if err != nil {
		return m, false, err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if m.Dir == "" {
			if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
				m.Dir, m.Path = d, modulePath(data)
				if strings.Contains(filepath.Base(d), "@") {
					// path@version: a module unpacked from its zip into the
					// module cache (the root's zip holds go.work and api/,
					// but not the modules go.work uses)
					return m, false, nil
				}
			}
		}
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil && m.Dir != "" {
			m.Top = d
			return m, true, nil
		}
		if filepath.Dir(d) == d {
			return m, false, nil
		}
	}
}

func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module"); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

type listed struct {
	ImportPath string
	Name       string
	GoFiles    []string
	Export     string
	Module     *struct{ Path string }
	Error      *struct{ Err string }
}

func goList(dir string, args ...string) ([]listed, error) {
	cmd := exec.Command("go", append([]string{"list", "-e", "-json=ImportPath,Name,GoFiles,Export,Module,Error"}, args...)...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("in %s: go list %s: %v\n%s", dir, strings.Join(args, " "), err, stderr.String())
	}
	var out []listed
	dec := json.NewDecoder(&stdout)
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// API returns the module's exported API, sorted: every package of the
// module that is not main, not internal and has non-test Go files.
func API(m Module) ([]string, error) {
	all, err := goList(m.Dir, "./...")
	if err != nil {
		return nil, err
	}
	var targets []string
	for _, p := range all {
		if p.Module == nil || p.Module.Path != m.Path || p.Name == "main" || len(p.GoFiles) == 0 || isInternal(p.ImportPath) {
			continue
		}
		if p.Error != nil {
			return nil, fmt.Errorf("%s: %s", p.ImportPath, p.Error.Err)
		}
		targets = append(targets, p.ImportPath)
	}
	if len(targets) == 0 {
		return nil, nil
	}
	pkgs, err := goList(m.Dir, append([]string{"-export"}, targets...)...)
	if err != nil {
		return nil, err
	}
	exports := map[string]string{}
	for _, p := range pkgs {
		if p.Error != nil {
			return nil, fmt.Errorf("%s: %s", p.ImportPath, p.Error.Err)
		}
		exports[p.ImportPath] = p.Export
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})
	var lines []string
	for _, path := range targets {
		pkg, err := imp.Import(path)
		if err != nil {
			return nil, fmt.Errorf("reading the export data of %s: %w", path, err)
		}
		lines = append(lines, packageAPI(pkg)...)
	}
	sort.Strings(lines)
	return slices.Compact(lines), nil
}

func isInternal(path string) bool {
	for _, e := range strings.Split(path, "/") {
		if e == "internal" {
			return true
		}
	}
	return false
}

// packageAPI lists one package: a line per exported constant, variable,
// function, type, struct field, interface method and method (the promoted
// ones included: embedding changes a type's API too).
func packageAPI(pkg *types.Package) []string {
	w := &writer{pkg: pkg}
	prefix := "pkg " + pkg.Path() + ", "
	var out []string
	emit := func(s string) { out = append(out, prefix+s) }
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		if !token.IsExported(name) {
			continue
		}
		switch obj := scope.Lookup(name).(type) {
		case *types.Const:
			emit(fmt.Sprintf("const %s %s = %s", name, w.typ(obj.Type()), obj.Val().ExactString()))
		case *types.Var:
			emit(fmt.Sprintf("var %s %s", name, w.typ(obj.Type())))
		case *types.Func:
			emit("func " + name + w.sig(obj.Type().(*types.Signature)))
		case *types.TypeName:
			out = append(out, w.typeName(prefix, obj)...)
		}
	}
	return out
}

func (w *writer) typeName(prefix string, obj *types.TypeName) []string {
	var out []string
	emit := func(s string) { out = append(out, prefix+s) }
	name := obj.Name()
	if obj.IsAlias() {
		emit(fmt.Sprintf("type %s = %s", name, w.typ(types.Unalias(obj.Type()))))
		return out
	}
	named, ok := obj.Type().(*types.Named)
	if !ok {
		return out
	}
	tparams := w.tparams(named.TypeParams())
	switch u := named.Underlying().(type) {
	case *types.Struct:
		emit(fmt.Sprintf("type %s%s struct", name, tparams))
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			if !f.Exported() {
				continue
			}
			if f.Embedded() {
				emit(fmt.Sprintf("type %s struct, embedded %s", name, w.typ(f.Type())))
			} else {
				emit(fmt.Sprintf("type %s struct, %s %s", name, f.Name(), w.typ(f.Type())))
			}
		}
	case *types.Interface:
		emit(fmt.Sprintf("type %s%s interface", name, tparams))
		for i := 0; i < u.NumEmbeddeds(); i++ {
			e := u.EmbeddedType(i)
			if _, isNamed := types.Unalias(e).(*types.Named); isNamed || !isMethodless(e) {
				emit(fmt.Sprintf("type %s interface, embedded %s", name, w.typ(e)))
			} else {
				emit(fmt.Sprintf("type %s interface, constraint %s", name, w.typ(e)))
			}
		}
		unexported := false
		for i := 0; i < u.NumMethods(); i++ {
			m := u.Method(i)
			if !m.Exported() {
				unexported = true
				continue
			}
			emit(fmt.Sprintf("type %s interface, %s%s", name, m.Name(), w.sig(m.Type().(*types.Signature))))
		}
		if unexported {
			emit(fmt.Sprintf("type %s interface, unexported methods", name))
		}
		return out // an interface's methods are listed above, not as methods
	default:
		emit(fmt.Sprintf("type %s%s %s", name, tparams, w.typ(u)))
	}
	// Methods: the method set of *T (which holds T's); each labelled by
	// the receiver it needs.
	valueSet := types.NewMethodSet(named)
	ptrSet := types.NewMethodSet(types.NewPointer(named))
	recvArgs := ""
	if tp := named.TypeParams(); tp.Len() > 0 {
		names := make([]string, tp.Len())
		for i := range names {
			names[i] = tp.At(i).Obj().Name()
		}
		recvArgs = "[" + strings.Join(names, ", ") + "]"
	}
	for i := 0; i < ptrSet.Len(); i++ {
		sel := ptrSet.At(i)
		fn := sel.Obj().(*types.Func)
		if !fn.Exported() {
			continue
		}
		recv := "*" + name + recvArgs
		if valueSet.Lookup(fn.Pkg(), fn.Name()) != nil {
			recv = name + recvArgs
		}
		emit(fmt.Sprintf("method (%s) %s%s", recv, fn.Name(), w.sig(sel.Type().(*types.Signature))))
	}
	return out
}

func isMethodless(t types.Type) bool {
	i, ok := t.Underlying().(*types.Interface)
	return !ok || i.NumMethods() == 0
}

// writer prints types the way a reader of the API wants them: the
// package's own names unqualified, others by package name, parameter names
// left out (renaming a parameter changes no caller).
type writer struct {
	pkg *types.Package
}

func (w *writer) qualify(p *types.Package) string {
	if p == w.pkg {
		return ""
	}
	return p.Name()
}

func (w *writer) typ(t types.Type) string {
	var b strings.Builder
	w.write(&b, t)
	return b.String()
}

func (w *writer) write(b *strings.Builder, t types.Type) {
	switch t := t.(type) {
	case *types.Signature:
		b.WriteString("func")
		b.WriteString(w.sig(t))
	case *types.Pointer:
		b.WriteString("*")
		w.write(b, t.Elem())
	case *types.Slice:
		b.WriteString("[]")
		w.write(b, t.Elem())
	case *types.Array:
		fmt.Fprintf(b, "[%d]", t.Len())
		w.write(b, t.Elem())
	case *types.Map:
		b.WriteString("map[")
		w.write(b, t.Key())
		b.WriteString("]")
		w.write(b, t.Elem())
	case *types.Chan:
		switch t.Dir() {
		case types.SendOnly:
			b.WriteString("chan<- ")
		case types.RecvOnly:
			b.WriteString("<-chan ")
		default:
			b.WriteString("chan ")
		}
		w.write(b, t.Elem())
	case *types.Struct:
		b.WriteString("struct{")
		for i := 0; i < t.NumFields(); i++ {
			if i > 0 {
				b.WriteString("; ")
			}
			f := t.Field(i)
			if !f.Embedded() {
				b.WriteString(f.Name() + " ")
			}
			w.write(b, f.Type())
			if tag := t.Tag(i); tag != "" {
				fmt.Fprintf(b, " %q", tag)
			}
		}
		b.WriteString("}")
	case *types.Interface:
		b.WriteString("interface{")
		first := true
		sep := func() {
			if !first {
				b.WriteString("; ")
			}
			first = false
		}
		for i := 0; i < t.NumEmbeddeds(); i++ {
			sep()
			w.write(b, t.EmbeddedType(i))
		}
		for i := 0; i < t.NumExplicitMethods(); i++ {
			sep()
			m := t.ExplicitMethod(i)
			b.WriteString(m.Name() + w.sig(m.Type().(*types.Signature)))
		}
		b.WriteString("}")
	case *types.Union:
		for i := 0; i < t.Len(); i++ {
			if i > 0 {
				b.WriteString(" | ")
			}
			if t.Term(i).Tilde() {
				b.WriteString("~")
			}
			w.write(b, t.Term(i).Type())
		}
	case *types.Named:
		if p := t.Obj().Pkg(); p != nil {
			if q := w.qualify(p); q != "" {
				b.WriteString(q + ".")
			}
		}
		b.WriteString(t.Obj().Name())
		w.typeArgs(b, t.TypeArgs())
	case *types.Alias:
		if p := t.Obj().Pkg(); p != nil {
			if q := w.qualify(p); q != "" {
				b.WriteString(q + ".")
			}
		}
		b.WriteString(t.Obj().Name())
		w.typeArgs(b, t.TypeArgs())
	case *types.TypeParam:
		b.WriteString(t.Obj().Name())
	case *types.Tuple:
		w.tuple(b, t, false)
	default: // *types.Basic and anything new: go/types' own rendering
		b.WriteString(types.TypeString(t, w.qualify))
	}
}

func (w *writer) typeArgs(b *strings.Builder, args *types.TypeList) {
	if args.Len() == 0 {
		return
	}
	b.WriteString("[")
	for i := 0; i < args.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		w.write(b, args.At(i))
	}
	b.WriteString("]")
}

func (w *writer) tparams(tp *types.TypeParamList) string {
	if tp.Len() == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < tp.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(tp.At(i).Obj().Name() + " ")
		w.write(&b, tp.At(i).Constraint())
	}
	b.WriteString("]")
	return b.String()
}

func (w *writer) tuple(b *strings.Builder, t *types.Tuple, variadic bool) {
	b.WriteString("(")
	for i := 0; i < t.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		typ := t.At(i).Type()
		if variadic && i == t.Len()-1 {
			b.WriteString("...")
			typ = typ.(*types.Slice).Elem()
		}
		w.write(b, typ)
	}
	b.WriteString(")")
}

// sig prints a signature after the name: type parameters, parameters,
// results.
func (w *writer) sig(s *types.Signature) string {
	var b strings.Builder
	b.WriteString(w.tparams(s.TypeParams()))
	w.tuple(&b, s.Params(), s.Variadic())
	switch r := s.Results(); r.Len() {
	case 0:
	case 1:
		b.WriteString(" ")
		w.write(&b, r.At(0).Type())
	default:
		b.WriteString(" ")
		w.tuple(&b, r, false)
	}
	return b.String()
}

// Header is the first lines of every record file.
func Header(m Module) string {
	return "# The exported API of module " + m.Path + ": one line per exported identifier.\n" +
		"# Generated by `" + UpdateCommand + "` (from the repository root); do not edit.\n" +
		"# Every module's test fails when its API differs from this file, so every API change is a reviewed diff of it.\n"
}

// Format is the content of a record file.
func Format(m Module, lines []string) []byte {
	var b bytes.Buffer
	b.WriteString(Header(m))
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	return b.Bytes()
}

// Read reads a record file's lines (comments and blank lines left out).
func Read(file string) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := strings.TrimRight(sc.Text(), " \r")
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		lines = append(lines, l)
	}
	return lines, sc.Err()
}

// key is what names a line's identifier, so that a line whose signature
// changed is reported as changed rather than as one removal and one
// addition: "pkg P, func F", "pkg P, method (*T) M" (by name: a receiver
// change is a change), "pkg P, type T", "pkg P, type T struct, F".
func key(line string) string {
	pkg, rest, ok := strings.Cut(line, ", ")
	if !ok {
		return line
	}
	pkg += ", "
	word, rest, _ := strings.Cut(rest, " ")
	switch word {
	case "const", "var":
		name, _, _ := strings.Cut(rest, " ")
		return pkg + word + " " + name
	case "func":
		return pkg + word + " " + identPrefix(rest)
	case "method":
		// "(*T) M(...)" or "(T[K, V]) M(...)"
		recv, after, _ := strings.Cut(rest, ") ")
		recv = strings.TrimPrefix(strings.TrimPrefix(recv, "("), "*")
		recv, _, _ = strings.Cut(recv, "[")
		return pkg + "method (" + recv + ") " + identPrefix(after)
	case "type":
		name := identPrefix(rest)
		if _, member, ok := strings.Cut(rest, ", "); ok {
			// a member: "F T", "embedded X", "M(...)"
			if m, ok := strings.CutPrefix(member, "embedded "); ok {
				return pkg + "type " + name + ", embedded " + m
			}
			if m, ok := strings.CutPrefix(member, "constraint "); ok {
				return pkg + "type " + name + ", constraint " + m
			}
			return pkg + "type " + name + ", " + identPrefix(member)
		}
		return pkg + "type " + name
	}
	return line
}

func identPrefix(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127)
	})
	if i < 0 {
		return s
	}
	return s[:i]
}

// Diff is how the computed API differs from the record.
type Diff struct {
	Added, Removed []string    // whole lines
	Changed        [][2]string // record line, current line
}

// Empty reports whether the API is the recorded one.
func (d Diff) Empty() bool { return len(d.Added)+len(d.Removed)+len(d.Changed) == 0 }

// Compare tells which identifiers were added, removed or changed.
func Compare(recorded, current []string) Diff {
	var d Diff
	old := map[string][]string{}
	for _, l := range recorded {
		old[key(l)] = append(old[key(l)], l)
	}
	cur := map[string][]string{}
	for _, l := range current {
		cur[key(l)] = append(cur[key(l)], l)
	}
	inRecord := map[string]bool{}
	for _, l := range recorded {
		inRecord[l] = true
	}
	inCurrent := map[string]bool{}
	for _, l := range current {
		inCurrent[l] = true
	}
	var gone, fresh []string
	for _, l := range recorded {
		if !inCurrent[l] {
			gone = append(gone, l)
		}
	}
	for _, l := range current {
		if !inRecord[l] {
			fresh = append(fresh, l)
		}
	}
	// A key with exactly one line gone and one new line is a change.
	paired := map[string]bool{}
	for _, l := range gone {
		k := key(l)
		if n := countIn(gone, k); n == 1 && countIn(fresh, k) == 1 {
			for _, c := range fresh {
				if key(c) == k {
					d.Changed = append(d.Changed, [2]string{l, c})
					paired[l], paired[c] = true, true
				}
			}
		}
	}
	for _, l := range gone {
		if !paired[l] {
			d.Removed = append(d.Removed, l)
		}
	}
	for _, l := range fresh {
		if !paired[l] {
			d.Added = append(d.Added, l)
		}
	}
	return d
}

func countIn(lines []string, k string) int {
	n := 0
	for _, l := range lines {
		if key(l) == k {
			n++
		}
	}
	return n
}

// String reports the difference naming each identifier and the command
// that records the change.
func (d Diff) String() string {
	var b strings.Builder
	for _, l := range d.Added {
		fmt.Fprintf(&b, "added:   %s\n", l)
	}
	for _, l := range d.Removed {
		fmt.Fprintf(&b, "removed: %s\n", l)
	}
	for _, c := range d.Changed {
		fmt.Fprintf(&b, "changed: %s\n     was: %s\n", c[1], c[0])
	}
	return b.String()
}

// TB is the part of testing.TB that Check uses.
type TB interface {
	Helper()
	Skipf(format string, args ...any)
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
}

// Check fails t when the exported API of the module holding dir differs
// from its record, naming every identifier added, removed or changed and
// the command that updates the record. It skips outside the repository (a
// module unpacked from its zip into the module cache, as when a user runs
// `go test all`).
func Check(t TB, dir string) {
	t.Helper()
	m, ok, err := FindModule(dir)
	if err != nil {
		t.Fatalf("api record: %v", err)
	}
	if !ok {
		t.Skipf("api record: %s is not inside the forgego repository (no go.work above it)", dir)
	}
	file := m.RecordFile()
	recorded, err := Read(file)
	if errors.Is(err, os.ErrNotExist) {
		t.Fatalf("api record: no record of module %s at %s: run `%s` from the repository root and commit api/", m.Path, file, UpdateCommand)
	} else if err != nil {
		t.Fatalf("api record: %v", err)
	}
	current, err := API(m)
	if err != nil {
		t.Fatalf("api record: computing the API of %s: %v", m.Path, err)
	}
	if d := Compare(recorded, current); !d.Empty() {
		rel, _ := filepath.Rel(m.Top, file)
		t.Errorf("the exported API of module %s differs from its record %s:\n%s\n"+
			"If the change is intended, update the record with\n\n\t%s\n\n"+
			"from the repository root (%s), and commit %s with the change, so that the API change is reviewed.",
			m.Path, rel, d, UpdateCommand, m.Top, rel)
	}
}
