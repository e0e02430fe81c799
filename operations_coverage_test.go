package forgejo

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/internal/api"
)

// serverVerb is the method the table's Verb override sends where the spec
// names another (internal/api: SpecWrong with its evidence).
var serverVerb = func() map[string]string {
	m := map[string]string{}
	for _, row := range api.Operations {
		if row.Verb != "" {
			m[row.ID] = row.Verb
		}
	}
	return m
}()

// This file proves the coverage of the whole API: every operation of the
// pinned spec maps to exactly one method of its service (and every method to
// an operation), the table the client exposes agrees with the curated one,
// and every method's doc comment states its retry eligibility and reason.

// gnSpecOp is an operation of the pinned spec.
type gnSpecOp struct{ verb, path string }

func gnSpecOps(t *testing.T) map[string]gnSpecOp {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(api.Spec, &doc); err != nil {
		t.Fatal(err)
	}
	ops := map[string]gnSpecOp{}
	for path, item := range doc.Paths {
		for verb, raw := range item {
			var op struct {
				ID string `json:"operationId"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatal(err)
			}
			if _, dup := ops[op.ID]; dup || op.ID == "" {
				t.Fatalf("operationId %q is missing or repeated", op.ID)
			}
			ops[op.ID] = gnSpecOp{strings.ToUpper(verb), path}
		}
	}
	return ops
}

func TestGnEverySpecOperationHasExactlyOneMethod(t *testing.T) {
	spec := gnSpecOps(t)
	table := Operations()
	if len(table) != len(spec) || len(spec) != 506 {
		t.Errorf("Operations() has %d entries, the spec %d operations; want 506 of 506", len(table), len(spec))
	}
	if !slices.IsSortedFunc(table, func(a, b Operation) int { return strings.Compare(a.ID, b.ID) }) {
		t.Error("Operations() is not sorted by ID")
	}
	c, err := NewClient()
	if err != nil {
		t.Fatal(err)
	}
	ctxType := reflect.TypeFor[context.Context]()
	respType := reflect.TypeFor[*Response]()
	errType := reflect.TypeFor[error]()
	ids := map[string]bool{}
	methods := map[string]string{} // Service.Name -> ID
	for _, op := range table {
		if ids[op.ID] {
			t.Errorf("%s appears twice in Operations()", op.ID)
		}
		ids[op.ID] = true
		s, ok := spec[op.ID]
		if !ok {
			t.Errorf("%s is in Operations() but not in the spec", op.ID)
			continue
		}
		if (op.Method != s.verb && op.Method != serverVerb[op.ID]) || op.Path != s.path {
			t.Errorf("%s: %s %s, the spec says %s %s", op.ID, op.Method, op.Path, s.verb, s.path)
		}
		key := op.Service + "." + op.Name
		if other, dup := methods[key]; dup {
			t.Errorf("%s and %s both map to %s", other, op.ID, key)
		}
		methods[key] = op.ID
		svc := reflect.ValueOf(c).Elem().FieldByName(op.Service)
		if !svc.IsValid() || svc.Kind() != reflect.Pointer {
			t.Errorf("%s: no service Client.%s", op.ID, op.Service)
			continue
		}
		m, ok := svc.Type().MethodByName(op.Name)
		if !ok {
			t.Errorf("%s: no method %s", op.ID, key)
			continue
		}
		mt := m.Type // receiver first
		if mt.NumIn() < 2 || mt.In(1) != ctxType {
			t.Errorf("%s: %s does not take a context.Context first", op.ID, key)
		}
		n := mt.NumOut()
		if n < 2 || mt.Out(n-1) != errType || mt.Out(n-2) != respType {
			t.Errorf("%s: %s does not return (..., *Response, error)", op.ID, key)
		}
		if op.Paging != PagingNone {
			if _, ok := svc.Type().MethodByName(op.Name + "Iter"); !ok {
				t.Errorf("%s: paginated %s has no Iter variant", op.ID, key)
			}
		}
	}
	for id := range spec {
		if !ids[id] {
			t.Errorf("spec operation %s has no entry in Operations()", id)
		}
	}
	// The other way round: every exported method of a service is an
	// operation, the Iter variant of a paginated one, or the Open variant of
	// a file-content one.
	streams := map[string]bool{}
	for _, row := range api.Operations {
		if row.Stream {
			streams[row.Service+"."+gnStreamName(row.Method)] = true
		}
	}
	cv := reflect.ValueOf(c).Elem()
	for i := range cv.NumField() {
		f := cv.Type().Field(i)
		if !f.IsExported() || !strings.HasSuffix(f.Type.String(), "Service") {
			continue
		}
		for j := range f.Type.NumMethod() {
			name := f.Type.Method(j).Name
			if _, ok := methods[f.Name+"."+name]; ok {
				continue
			}
			if streams[f.Name+"."+name] {
				continue
			}
			if _, ok := secondForms[f.Name+"."+name]; ok {
				continue
			}
			if compositeMethods[f.Name+"."+name] {
				continue
			}
			if base, ok := strings.CutSuffix(name, "Iter"); ok {
				if id, ok := methods[f.Name+"."+base]; ok && gnOp(table, id).Paging != PagingNone {
					continue
				}
			}
			t.Errorf("%s.%s is not an operation of the table", f.Name, name)
		}
	}
}

// compositeMethods are the service methods that are no one operation but
// a task built of several (dispatch and find the run, wait, follow a log,
// download to a writer), each documenting the operations it calls.
var compositeMethods = map[string]bool{
	"Actions.RunWorkflow":        true,
	"Actions.WaitRun":            true,
	"Actions.WaitJob":            true,
	"Actions.FollowJobLog":       true,
	"Actions.DownloadArtifactTo": true,
	"Actions.FindRunArtifact":    true,
}

// gnStreamName is the name of a file-content operation's streaming form
// (rule N10 of internal/api/naming.go): Open, then the method's name
// without its leading Get or Download.
func gnStreamName(method string) string {
	for _, verb := range []string{"Get", "Download"} {
		if rest, ok := strings.CutPrefix(method, verb); ok && rest != "" {
			return "Open" + rest
		}
	}
	return "Open" + method
}

func gnOp(table []Operation, id string) Operation {
	for _, op := range table {
		if op.ID == id {
			return op
		}
	}
	return Operation{}
}

func TestGnTableMatchesTheCuratedTable(t *testing.T) {
	table := map[string]Operation{}
	for _, op := range Operations() {
		table[op.ID] = op
	}
	retry := map[api.Retry]RetryEligibility{api.Idempotent: RetryIdempotentOnly, api.Never: RetryNever, api.Always: RetryAlways}
	paging := map[api.Paging]PagingKind{api.NoPaging: PagingNone, api.PageLimit: PagingPageLimit, api.PageOnly: PagingPageOnly, api.PagePerPage: PagingPagePerPage}
	always := 0
	for _, row := range api.Operations {
		op, ok := table[row.ID]
		if !ok {
			t.Errorf("%s: missing from Operations()", row.ID)
			continue
		}
		want, ok := retry[row.Retry]
		if !ok || op.Retry != want {
			t.Errorf("%s: Retry %v, the curated table says %v", row.ID, op.Retry, row.Retry)
		}
		reason := row.Why
		if reason == "" {
			reason = "a read"
		}
		if op.RetryReason != reason {
			t.Errorf("%s: RetryReason %q, the curated table says %q", row.ID, op.RetryReason, reason)
		}
		if op.Paging != paging[row.Paging] || op.Service != row.Service || op.Name != row.Method {
			t.Errorf("%s: %s.%s paging %v; the curated table says %s.%s paging %v", row.ID, op.Service, op.Name, op.Paging, row.Service, row.Method, row.Paging)
		}
		if op.Retry == RetryAlways {
			always++
		}
	}
	if len(api.Operations) != len(table) {
		t.Errorf("%d curated rows, %d operations", len(api.Operations), len(table))
	}
	t.Logf("%d of %d operations are AlwaysRetry", always, len(table))
}

// TestGnDocCommentsStateRetry reads the package's sources: every method of
// the table, generated or hand-written, ends its doc comment with
// "METHOD /path (operationId). Token scope: … Retry: Eligibility (reason)."
func TestGnDocCommentsStateRetry(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Doc == nil {
				continue
			}
			recv := fd.Recv.List[0].Type
			if star, ok := recv.(*ast.StarExpr); ok {
				recv = star.X
			}
			if id, ok := recv.(*ast.Ident); ok {
				docs[strings.TrimSuffix(id.Name, "Service")+"."+fd.Name.Name] = strings.Join(strings.Fields(fd.Doc.Text()), " ")
			}
		}
	}
	for _, op := range Operations() {
		doc, ok := docs[op.Service+"."+op.Name]
		if !ok {
			t.Errorf("%s: %s.%s has no doc comment", op.ID, op.Service, op.Name)
			continue
		}
		want := fmt.Sprintf("%s %s (%s). %s Retry: %s (%s).", op.Method, op.Path, op.ID, scopeSentence(op.Scope), op.Retry, op.RetryReason)
		if !strings.HasSuffix(doc, want) {
			t.Errorf("%s: the doc comment of %s.%s does not end with %q:\n%s", op.ID, op.Service, op.Name, want, doc)
		}
	}
}

// scopeSentence is the token-scope sentence a method's doc comment states.
func scopeSentence(r ScopeRequirement) string {
	var s []string
	for _, sc := range r.Scopes {
		s = append(s, string(sc))
	}
	switch r.Rule {
	case ScopeNone:
		return "Token scope: none."
	case ScopeAllOf:
		if len(s) == 1 {
			return "Token scope: " + s[0] + "."
		}
		return "Token scopes: " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1] + ", all of them."
	case ScopeByOwner:
		return "Token scope: " + s[0] + " for a user's repository, " + s[1] + " for an organization's."
	}
	return "Token scope: not measured (the operation is newer than Forgejo 15.0)."
}
