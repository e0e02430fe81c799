// Command gen generates the forgejo package's API surface from the pinned
// spec and the curated operations table (both in internal/api): the models
// (models_gen.go), one file of methods per service (repos_gen.go, ...), the
// operations table (operations_gen.go), a test per operation
// (*_gen_test.go), and the coverage table of README.md.
//
// Run it from the repository root, through the go:generate line in
// generate.go:
//
//	go generate ./...
//
// It refuses to run when the table and the spec disagree: a spec operation
// without a row, a row without a spec operation, or a write (PUT, DELETE,
// POST, PATCH) whose row does not state Never or Always with a reason.
//
// With -check it writes nothing and fails when a generated file is stale.
// The output depends only on the spec and the table, so it is the same on
// every machine.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"codeberg.org/forgego/forgejo/internal/api"
)

func main() {
	root := flag.String("root", ".", "the repository root (where go.mod is)")
	check := flag.Bool("check", false, "write nothing; fail if a generated file is out of date")
	flag.Parse()
	if err := run(*root, *check); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(root string, check bool) error {
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !bytes.Contains(mod, []byte("module codeberg.org/forgego/forgejo\n")) {
		return fmt.Errorf("%s is not the forgego repository root (run from there, or pass -root)", root)
	}
	files, err := generate(root)
	if err != nil {
		return err
	}
	var stale []string
	for _, name := range sortedKeys(files) {
		path := filepath.Join(root, name)
		old, _ := os.ReadFile(path)
		if bytes.Equal(old, files[name]) {
			continue
		}
		stale = append(stale, name)
		if !check {
			if err := os.WriteFile(path, files[name], 0o644); err != nil {
				return err
			}
		}
	}
	if check && len(stale) > 0 {
		return fmt.Errorf("stale generated files (run go generate ./...): %s", strings.Join(stale, ", "))
	}
	if !check {
		// Files this generator wrote for services that no longer exist are
		// removed; anything else is left alone.
		matches, _ := filepath.Glob(filepath.Join(root, "*_gen*.go"))
		for _, p := range matches {
			base := filepath.Base(p)
			if _, ok := files[base]; ok || !(strings.HasSuffix(base, "_gen.go") || strings.HasSuffix(base, "_gen_test.go")) {
				continue
			}
			if data, err := os.ReadFile(p); err == nil && bytes.HasPrefix(data, []byte(header)) {
				if err := os.Remove(p); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// generate returns every generated file by its path relative to root,
// formatted.
func generate(root string) (map[string][]byte, error) {
	spec, err := parseSpec(api.Spec)
	if err != nil {
		return nil, err
	}
	if err := checkPathTables(spec); err != nil {
		return nil, err
	}
	if err := loadVersions(spec); err != nil { // versions.go
		return nil, err
	}
	if err := addGiteaFields(spec); err != nil { // gitea_fields.go
		return nil, err
	}
	m, err := buildModels(spec)
	if err != nil {
		return nil, err
	}
	ops, err := buildOps(spec, m)
	if err != nil {
		return nil, err
	}
	if err := loadScopes(ops); err != nil { // scopes.go
		return nil, err
	}
	secrets, err := collectSecrets(m) // emit_secrets.go
	if err != nil {
		return nil, err
	}
	modelsSrc := emitModels(m)
	if err := checkNullWhenZero(); err != nil {
		return nil, err
	}
	src := map[string]string{
		"models_gen.go":       modelsSrc,
		"secrets_gen.go":      emitSecrets(secrets),
		"secrets_gen_test.go": emitSecretSamples(secrets),
		"operations_gen.go":   emitTable(ops),
		// Reflection-free decoders (emit_decoders.go).
		"decoders_gen.go":      emitDecoders(m),
		"decoders_gen_test.go": emitDecoderTests(m),
	}
	groups := byService(ops)
	for _, svc := range api.Services() {
		if len(groups[svc]) == 0 {
			continue
		}
		src[serviceFile[svc]+"_gen.go"] = emitService(m, svc, groups[svc])
		src[serviceFile[svc]+"_gen_test.go"] = emitTests(m, svc, groups[svc])
	}
	out := map[string][]byte{}
	var errs []error
	for name, code := range src {
		formatted, err := format.Source([]byte(code))
		if err != nil {
			// A generator bug: keep the unformatted source for a look.
			dump := filepath.Join(os.TempDir(), "forgego-gen-"+name)
			_ = os.WriteFile(dump, []byte(code), 0o644)
			errs = append(errs, fmt.Errorf("%s does not format (unformatted source in %s): %w", name, dump, err))
			continue
		}
		out[name] = formatted
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if err := checkCollisions(root, out); err != nil {
		return nil, err
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		return nil, err
	}
	updated, err := updateReadme(string(readme), ops)
	if err != nil {
		return nil, err
	}
	if updated, err = updateReadmeReleases(updated, ops); err != nil { // emit_versions.go
		return nil, err
	}
	out["README.md"] = []byte(updated)
	out[filepath.Join("docs", "OPERATIONS.md")] = []byte(emitIndex(m, ops))
	out[filepath.Join("docs", "VERSIONS.md")] = []byte(emitVersions(ops)) // emit_versions.go
	return out, nil
}

// checkCollisions fails when a generated top-level name is also declared by
// a hand-written file of the package (tests included), which would break
// the build in a less readable way.
func checkCollisions(root string, gen map[string][]byte) error {
	fset := token.NewFileSet()
	declared := func(name string, src []byte) (map[string]bool, error) {
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		names := map[string]bool{}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[d.Name.Name] = true
				} else {
					names[recvName(d)+"."+d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.Name != "_" {
								names[n.Name] = true
							}
						}
					}
				}
			}
		}
		return names, nil
	}
	owner := map[string]string{}
	for _, name := range sortedKeys(gen) {
		names, err := declared(name, gen[name])
		if err != nil {
			return err
		}
		for n := range names {
			owner[n] = name
		}
	}
	hand, _ := filepath.Glob(filepath.Join(root, "*.go"))
	sort.Strings(hand)
	var clashes []string
	for _, p := range hand {
		base := filepath.Base(p)
		if _, generated := gen[base]; generated || strings.Contains(base, "_gen") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		names, err := declared(base, src)
		if err != nil {
			continue // a file being edited by someone else; the build will say
		}
		for n := range names {
			if g, ok := owner[n]; ok {
				clashes = append(clashes, fmt.Sprintf("%s declares %s, also generated in %s", base, n, g))
			}
		}
	}
	if len(clashes) > 0 {
		sort.Strings(clashes)
		return fmt.Errorf("generated names collide with hand-written ones:\n\t%s", strings.Join(clashes, "\n\t"))
	}
	return nil
}

func recvName(d *ast.FuncDecl) string {
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}
