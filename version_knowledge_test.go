package forgejo

import (
	"bufio"
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// tsvRow is one row of internal/api/versions/operations-by-version.tsv.
type tsvRow struct {
	id, method, path string
	in               map[string]bool // release line ("11.0", ..., "pinned") -> in that spec
}

func readVersionsTSV(t *testing.T) (rows []tsvRow, lines []string) {
	t.Helper()
	f, err := os.Open(filepath.Join("internal", "api", "versions", "operations-by-version.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var cols []string
	for sc.Scan() {
		rec := strings.Split(sc.Text(), "\t")
		if cols == nil {
			for _, c := range rec[3:] {
				if strings.HasPrefix(c, "pinned-") {
					c = "pinned"
				} else if v, ok := ParseVersion(c); ok {
					c = strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor)
				}
				cols = append(cols, c)
			}
			lines = cols
			continue
		}
		r := tsvRow{id: rec[0], method: rec[1], path: rec[2], in: map[string]bool{}}
		for i, c := range cols {
			r.in[c] = rec[3+i] == "1"
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows, lines
}

// idServedBy reports whether the table says release rel's spec carries
// operationId id: as a row's own ID where no earlier form of another ID
// covers rel, or as an earlier form's ID.
func idServedBy(table []Operation, id, rel string) bool {
	for i := range table {
		op := &table[i]
		if op.ID == id && op.servedBy(rel) {
			other := false
			for _, f := range op.Earlier {
				if f.ID != id && inRange(rel, f.Since, f.Until) {
					other = true
				}
			}
			if !other {
				return true
			}
		}
		for _, f := range op.Earlier {
			if f.ID == id && inRange(rel, f.Since, f.Until) {
				return true
			}
		}
	}
	return false
}

// TestOperationsVersionsAgreeWithTSV: for every operationId of the shared
// table (507: the pinned 506 and the misspelt adminDEleteQuotaRule) and
// every release, Operations() says the release's spec carries it exactly
// when the TSV does.
func TestOperationsVersionsAgreeWithTSV(t *testing.T) {
	rows, lines := readVersionsTSV(t)
	if len(rows) != 507 {
		t.Fatalf("%d TSV rows, want 507", len(rows))
	}
	if strings.Join(lines, ",") != strings.Join(knownReleases, ",")+",pinned" {
		t.Fatalf("TSV columns %v, knownReleases %v", lines, knownReleases)
	}
	table := Operations()
	byID := map[string]*Operation{}
	for i := range table {
		byID[table[i].ID] = &table[i]
	}
	for _, r := range rows {
		op := byID[r.id]
		if op == nil && r.in["pinned"] {
			t.Errorf("%s: in the pinned spec but not in Operations()", r.id)
			continue
		}
		for _, rel := range knownReleases {
			if got := idServedBy(table, r.id, rel); got != r.in[rel] {
				t.Errorf("%s on %s: the table says %v, the TSV %v", r.id, rel, got, r.in[rel])
			}
		}
		if op == nil {
			continue // a retired ID: only an earlier form, checked above
		}
		if op.Path != r.path && serverVerb[op.ID] == "" && op.Method != r.method {
			t.Errorf("%s: %s %s, the TSV says %s %s", r.id, op.Method, op.Path, r.method, r.path)
		}
		// Since is the first release serving the call in any form.
		first := ""
		for _, rel := range knownReleases {
			if op.servedBy(rel) {
				first = rel
				break
			}
		}
		if first != op.Since {
			t.Errorf("%s: Since %q, first serving release %q", op.ID, op.Since, first)
		}
	}
}

// TestPathChangedOperations pins how the three operations whose path
// changed under the same operationId are handled per release.
func TestPathChangedOperations(t *testing.T) {
	cases := []struct {
		op       *Operation
		major    int
		wantPath string // "" = the pinned path
	}{
		{&opAdminGetRunnerRegistrationToken, 11, "/admin/runners/registration-token"},
		{&opAdminGetRunnerRegistrationToken, 12, "/admin/runners/registration-token"},
		{&opAdminGetRunnerRegistrationToken, 14, "/admin/runners/registration-token"},
		{&opAdminGetRunnerRegistrationToken, 15, ""},
		{&opAdminGetRunnerRegistrationToken, 16, ""},
		{&opDispatchWorkflow, 11, ""}, // {workflowname}: the same URL
		{&opDispatchWorkflow, 15, ""},
		{&opIssueRemoveLabel, 11, ""}, // {id}: the same URL
		{&opIssueRemoveLabel, 13, ""},
	}
	for _, tc := range cases {
		served, form := tc.op.availability(tc.major, 0)
		if !served {
			t.Errorf("%s on %d.0: not served", tc.op.ID, tc.major)
			continue
		}
		got := ""
		if form != nil && !sameRoute(form.Path, tc.op.Path) {
			got = form.Path
		}
		if got != tc.wantPath {
			t.Errorf("%s on %d.0: sends %q, want %q", tc.op.ID, tc.major, got, tc.wantPath)
		}
	}
}

// TestAdmitEveryOperation runs the version check's decision for every
// operation against each known release, a release between two (12.0), an
// older Forgejo (7.0), a newer one (17.0), Gitea and an unparseable
// version: an operation is refused exactly when the release is known not
// to serve it.
func TestAdmitEveryOperation(t *testing.T) {
	versions := []struct {
		raw    string
		expect func(op *Operation) bool // served
	}{
		{"7.0.5+gitea-1.21.0", func(op *Operation) bool { return op.servedBy("11.0") }},
		{"11.0.15+gitea-1.22.0", func(op *Operation) bool { return op.servedBy("11.0") }},
		{"12.0.4+gitea-1.22.0", func(op *Operation) bool { return op.servedBy("11.0") || op.servedBy("13.0") }},
		{"13.0.5+gitea-1.22.0", func(op *Operation) bool { return op.servedBy("13.0") }},
		{"14.0.5+gitea-1.22.0", func(op *Operation) bool { return op.servedBy("14.0") }},
		{"15.0.3+gitea-1.22.0", func(op *Operation) bool { return op.servedBy("15.0") }},
		{"16.0.0-dev-539-4695780d41+gitea-1.22.0", func(op *Operation) bool { return true }},
		{"17.0.0-dev-38-abcdef01+gitea-1.22.0", func(op *Operation) bool { return true }},
		{"1.27.3", func(*Operation) bool { return true }},
		{"4695780d41+gitea-1.22.0", func(*Operation) bool { return true }},
	}
	refused15 := 0
	for _, v := range versions {
		c, err := NewClient(WithVersionCheck())
		if err != nil {
			t.Fatal(err)
		}
		c.versions.done, c.versions.sv = true, parseServerVersion(v.raw)
		for _, op := range operations {
			r := &request{op: op}
			c.admit(context.Background(), r)
			var ue *UnsupportedOperationError
			refused := errors.As(r.err, &ue)
			if r.err != nil && !refused {
				t.Errorf("%s on %s: %v", op.ID, v.raw, r.err)
			}
			if want := v.expect(op); refused == want {
				t.Errorf("%s on %s: refused %v, want served %v", op.ID, v.raw, refused, want)
			}
			if refused && (ue.Operation != op.ID || ue.Since != op.Since || ue.ServerVersion != v.raw || !errors.Is(r.err, ErrUnsupportedOperation)) {
				t.Errorf("%s on %s: %+v", op.ID, v.raw, ue)
			}
			if refused && strings.HasPrefix(v.raw, "15.") {
				refused15++
			}
		}
	}
	if refused15 != 15 {
		t.Errorf("Forgejo 15.0.3: %d operations refused, want the 15 the observations list", refused15)
	}
}

// TestVersionDocsAgree: every operation's doc comment (generated or
// hand-written) states the release it needs, as Since says.
func TestVersionDocsAgree(t *testing.T) {
	fset := token.NewFileSet()
	docs := map[string]string{} // "ReposService.Get" -> doc
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Doc == nil {
				continue
			}
			docs[recvTypeName(fd)+"."+fd.Name.Name] = strings.Join(strings.Fields(fd.Doc.Text()), " ")
		}
	}
	for _, op := range Operations() {
		doc, ok := docs[op.Service+"Service."+op.Name]
		if !ok {
			t.Errorf("%s: no doc comment for %sService.%s", op.ID, op.Service, op.Name)
			continue
		}
		want := "Forgejo " + op.Since + " and later"
		if op.Until != "" {
			want = "Forgejo " + op.Since + "–" + op.Until
		}
		if !strings.Contains(doc, want) {
			t.Errorf("%s (%s.%s): doc does not say %q", op.ID, op.Service, op.Name, want)
		}
	}
}

func recvTypeName(fd *ast.FuncDecl) string {
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// TestVersionsTableAgrees: docs/VERSIONS.md's totals are what the table
// says each release serves.
func TestVersionsTableAgrees(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("docs", "VERSIONS.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\| \*\*all\*\* \|(.*)$`).FindStringSubmatch(string(data))
	if m == nil {
		t.Fatal("no totals row in docs/VERSIONS.md")
	}
	var got []string
	for _, cell := range strings.Split(m[1], "|") {
		if c := strings.Trim(strings.TrimSpace(cell), "*"); c != "" {
			got = append(got, c)
		}
	}
	var want []string
	for _, rel := range knownReleases {
		n := 0
		for _, op := range operations {
			if op.servedBy(rel) {
				n++
			}
		}
		want = append(want, strconv.Itoa(n))
	}
	want = append(want, strconv.Itoa(len(operations)))
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("docs/VERSIONS.md totals %v, the table %v", got, want)
	}
}
