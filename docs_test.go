package forgejo

import (
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// docPackages are the packages whose documentation users read.
var docPackages = []string{".", "./webhook", "./forgejotest"}

// TestDocCommentsStartWithTheirName checks go's convention over every
// exported identifier of the user-facing packages: a doc comment starts with
// the name it documents ("Get returns…"); a type's may start with an article
// first ("A Client…"), as golint allows. An identifier without a doc comment
// fails too, unless it sits in a documented const or var group.
func TestDocCommentsStartWithTheirName(t *testing.T) {
	for _, dir := range docPackages {
		p := docPackage(t, dir)
		check := func(kind, name, text string, articles bool) {
			t.Helper()
			if !docStartsWith(text, name, articles) {
				first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
				want := name[strings.LastIndexByte(name, '.')+1:]
				t.Errorf("%s: %s %s: doc comment does not start with %q: %q", dir, kind, name, want, first)
			}
		}
		values := func(vs []*doc.Value) {
			for _, v := range vs {
				grouped := v.Decl.Lparen.IsValid()
				if grouped && v.Doc != "" {
					continue // the group's comment documents its names
				}
				for _, spec := range v.Decl.Specs {
					vs := spec.(*ast.ValueSpec)
					var names []string
					for _, n := range vs.Names {
						if n.IsExported() {
							names = append(names, n.Name)
						}
					}
					if len(names) == 0 {
						continue
					}
					text := v.Doc
					if grouped {
						text = vs.Doc.Text()
					}
					ok := false
					for _, n := range names {
						ok = ok || docStartsWith(text, n, false)
					}
					if !ok {
						first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
						t.Errorf("%s: %s: doc comment does not start with its name: %q", dir, strings.Join(names, ", "), first)
					}
				}
			}
		}
		values(p.Consts)
		values(p.Vars)
		for _, f := range p.Funcs {
			check("func", f.Name, f.Doc, false)
		}
		for _, typ := range p.Types {
			check("type", typ.Name, typ.Doc, true)
			values(typ.Consts)
			values(typ.Vars)
			for _, f := range typ.Funcs {
				check("func", f.Name, f.Doc, false)
			}
			for _, m := range typ.Methods {
				check("method", typ.Name+"."+m.Name, m.Doc, false)
			}
		}
	}
}

// docStartsWith reports whether text starts with name (the part after the
// last dot for a method), followed by a non-identifier character; with
// articles, "A ", "An " or "The " may come first.
func docStartsWith(text, name string, articles bool) bool {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	if articles {
		for _, a := range []string{"A ", "An ", "The "} {
			if rest, ok := strings.CutPrefix(text, a); ok && docStartsWith(rest, name, false) {
				return true
			}
		}
	}
	rest, ok := strings.CutPrefix(text, name)
	if !ok || rest == "" {
		return false
	}
	r := []rune(rest)[0]
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
}

// docPackage parses one package directory, without its tests, as go doc sees
// it (the files the build selects).
func docPackage(t *testing.T, dir string) *doc.Package {
	t.Helper()
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, bp.ImportPath)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDocsHaveNoContributorText reads what `go doc -all` shows of each
// user-facing package and fails on text meant for the repository's
// contributors: source file names, paths into docs/ or internal/, issue
// numbers, and notes that cite the observation records kept outside the
// repository. Such notes belong in a // comment inside the code or in
// CONTRIBUTING.md. Quoted text (an example path, an example title) and URLs
// are not judged.
func TestDocsHaveNoContributorText(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go doc needs the go command: %v", err)
	}
	quoted := regexp.MustCompile(`"[^"\n]*"|https?://\S+`)
	bad := regexp.MustCompile(`\b[A-Za-z0-9_]+\.go\b|\bdocs/|\binternal/|\b[Ii]ssues? #?\d+|observations`)
	for _, dir := range docPackages {
		out, err := exec.Command(goTool, "doc", "-all", dir).CombinedOutput()
		if err != nil {
			t.Fatalf("go doc -all %s: %v\n%s", dir, err, out)
		}
		for i, line := range strings.Split(string(out), "\n") {
			if m := bad.FindString(quoted.ReplaceAllString(line, `""`)); m != "" {
				t.Errorf("go doc -all %s, line %d: %q in %q", dir, i+1, m, strings.TrimSpace(line))
			}
		}
	}
}

// TestErrorsInOnePlace: every exported error type (a type with an Error
// method) and sentinel (a variable named Err…) of the package is declared
// in errors.go, with its methods, and the package documentation lists each
// of them.
func TestErrorsInOnePlace(t *testing.T) {
	bp, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	var names []string
	errorTypes := map[string]bool{} // exported types with an Error method
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Name.Name == "Error" {
				typ := fd.Recv.List[0].Type
				if st, ok := typ.(*ast.StarExpr); ok {
					typ = st.X
				}
				if id, ok := typ.(*ast.Ident); ok && id.IsExported() {
					errorTypes[id.Name] = true
				}
			}
		}
	}
	for _, f := range files {
		name := filepath.Base(fset.File(f.Pos()).Name())
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Name.IsExported() {
				typ := fd.Recv.List[0].Type
				if st, ok := typ.(*ast.StarExpr); ok {
					typ = st.X
				}
				if id, ok := typ.(*ast.Ident); ok && errorTypes[id.Name] && name != "errors.go" {
					t.Errorf("method %s.%s of an error type is declared in %s, not errors.go", id.Name, fd.Name.Name, name)
				}
			}
			gd, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if errorTypes[s.Name.Name] {
						names = append(names, "*"+s.Name.Name)
						if name != "errors.go" {
							t.Errorf("error type %s is declared in %s, not errors.go", s.Name.Name, name)
						}
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if gd.Tok == token.VAR && n.IsExported() && strings.HasPrefix(n.Name, "Err") {
							names = append(names, n.Name)
							if name != "errors.go" {
								t.Errorf("sentinel %s is declared in %s, not errors.go", n.Name, name)
							}
						}
					}
				}
			}
		}
	}
	if len(names) < 23 {
		t.Fatalf("found %d errors: %v", len(names), names)
	}
	p, err := doc.NewFromFiles(fset, files, bp.ImportPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !strings.Contains(p.Doc, "\n  - ["+n+"]: ") {
			t.Errorf("the package documentation's error list does not have a line for [%s]", n)
		}
	}
}

// TestCommentsCiteNoTracker reads the // comments of the package's
// hand-written files, tests included, and fails on a citation a reader of
// the repository cannot resolve: an issue number, a section of an issue,
// a naming rule without the file that states it, or the observation
// records and tools kept outside the repository. A comment states the fact
// itself. A section of a file in the repository ("HAZARDS.md §11") or of an
// RFC ("RFC 8288 §3") resolves. Examples are not judged: their output
// comments are what they print.
func TestCommentsCiteNoTracker(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	bad := regexp.MustCompile(`\b[Ii]ssues? #?\d+|\(N\d+\)|codeberg4s|observations|§`)
	resolvable := regexp.MustCompile(`(\.md|RFC \d+)( §[\d.]+)((,| and) §[\d.]+)*`)
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_gen.go") || strings.HasSuffix(name, "_gen_test.go") || strings.HasPrefix(name, "example") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, group := range f.Comments {
			text := strings.Join(strings.Fields(group.Text()), " ")
			if m := bad.FindString(resolvable.ReplaceAllString(text, "$1")); m != "" {
				t.Errorf("%s: the comment cites %q: %q", fset.Position(group.Pos()), m, text)
			}
		}
	}
	if checked < 50 {
		t.Fatalf("checked %d files", checked)
	}
}
