package webhook

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"log/slog"
	"net/http"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// The secrets every rendering below must hide: a hook secret and the value
// of a hook's authorization header. Both carry characters that JSON and %q
// escape, so that their escaped forms are checked too.
const (
	renderSecret = `hook-s3cr3t<&>"never-shown"`
	renderAuth   = `Bearer auth-t0ken<&>never-shown`
)

// secretFieldName is what a field holding a secret is called.
var secretFieldName = regexp.MustCompile(`(?i)secret|password|token|authorization|credential`)

// secretHoldingTypes enumerates the exported struct types of the package
// (its non-test files) that hold a secret: a field of type secret.Text, a
// field whose name says secret, password, token, authorization or
// credential, a header list (http.Header, []HeaderField: Forgejo sends the
// hook's authorization header among the others), the element type of a
// header list, or a field of a type so flagged (Handler holds a Parser,
// every event embeds a Delivery).
func secretHoldingTypes(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	structs := map[string]*ast.StructType{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if st, ok := ts.Type.(*ast.StructType); ok {
					structs[ts.Name.Name] = st
				}
			}
			return true
		})
	}
	typeText := func(e ast.Expr) string {
		var b bytes.Buffer
		var walk func(ast.Expr)
		walk = func(e ast.Expr) {
			switch x := e.(type) {
			case *ast.Ident:
				b.WriteString(x.Name)
			case *ast.StarExpr:
				b.WriteString("*")
				walk(x.X)
			case *ast.ArrayType:
				b.WriteString("[]")
				walk(x.Elt)
			case *ast.MapType:
				b.WriteString("map[")
				walk(x.Key)
				b.WriteString("]")
				walk(x.Value)
			case *ast.FuncType:
				// A function returning a header list holds one.
				b.WriteString("func()")
				if x.Results != nil {
					for _, r := range x.Results.List {
						walk(r.Type)
					}
				}
			case *ast.SelectorExpr:
				walk(x.X)
				b.WriteString(".")
				b.WriteString(x.Sel.Name)
			default:
				fmt.Fprintf(&b, "%T", e)
			}
		}
		walk(e)
		return b.String()
	}
	flagged := map[string]bool{}
	// The element types of header lists are header lines.
	for _, st := range structs {
		for _, f := range st.Fields.List {
			if tt := strings.TrimLeft(typeText(f.Type), "*[]"); strings.HasSuffix(typeText(f.Type), "HeaderField") {
				flagged[tt] = true
			}
		}
	}
	holds := func(f *ast.Field) bool {
		tt := typeText(f.Type)
		if strings.Contains(tt, "secret.Text") || strings.Contains(tt, "http.Header") || strings.Contains(tt, "HeaderField") {
			return true
		}
		for _, n := range f.Names {
			if secretFieldName.MatchString(n.Name) {
				return true
			}
		}
		return flagged[strings.TrimLeft(tt, "*[]")]
	}
	for changed := true; changed; {
		changed = false
		for name, st := range structs {
			if flagged[name] {
				continue
			}
			for _, f := range st.Fields.List {
				if holds(f) {
					flagged[name], changed = true, true
					break
				}
			}
		}
	}
	var out []string
	for name := range flagged {
		if ast.IsExported(name) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// renderHeader is a delivery's header with the hook's authorization header.
func renderDelivery(t *testing.T, typ EventType, payload string) Event {
	t.Helper()
	o := Build(typ, []byte(payload), BuildOptions{Secret: renderSecret, Authorization: renderAuth, DeliveryID: "d-render"})
	p := mustParser(t, WithSecret(renderSecret))
	ev, err := p.Parse(o.Body, o.HTTPHeader())
	if err != nil {
		t.Fatalf("%s: %v", typ, err)
	}
	return ev
}

// renderPayloads is one payload of each payload type, with its identifying
// keys.
var renderPayloads = map[EventType]string{
	EventPush:                      `{"ref":"refs/heads/main","before":"a","after":"b","commits":[]}`,
	EventCreate:                    `{"ref":"main","ref_type":"branch","sha":"a"}`,
	EventDelete:                    `{"ref":"main","ref_type":"branch","pusher_type":"user"}`,
	EventFork:                      `{"forkee":{"id":1},"repository":{"id":2}}`,
	EventIssues:                    `{"action":"opened","issue":{"id":1}}`,
	EventIssueComment:              `{"action":"created","issue":{"id":1},"comment":{"id":2}}`,
	EventPullRequest:               `{"action":"opened","pull_request":{"id":1}}`,
	EventPullRequestReviewApproved: `{"action":"reviewed","pull_request":{"id":1},"review":{"type":"pull_request_review_approved"}}`,
	EventRelease:                   `{"action":"published","release":{"id":1}}`,
	EventRepository:                `{"action":"created","repository":{"id":1},"organization":{"id":1}}`,
	EventWiki:                      `{"action":"created","page":"Home"}`,
	EventPackage:                   `{"action":"created","package":{"id":1}}`,
	EventActionRunFailure:          `{"action":"failure","run":{"id":1}}`,
	"hackathon":                    `{"action":"created"}`,
}

// secretRenderers builds one value of every secret-holding type, keyed by
// the type's name; a type may give several (a value and a pointer).
func secretRenderers(t *testing.T) map[string][]any {
	t.Helper()
	p := mustParser(t, WithSecret("other-secret", renderSecret))
	rt := NewRouter()
	h := must(NewHandler(p, rt, WithGuard(NewMemoryGuard(0))))
	bo := BuildOptions{Secret: renderSecret, Authorization: renderAuth, DeliveryID: "d"}
	out := Build(EventPush, []byte(renderPayloads[EventPush]), bo)
	hf := HeaderField{"Authorization", renderAuth}
	r := map[string][]any{
		"Parser":       {p, *p},
		"Handler":      {h},
		"Router":       {rt},
		"BuildOptions": {bo, &bo},
		"Outgoing":     {out, *out},
		"HeaderField":  {hf, &hf, []HeaderField{hf}},
	}
	push := renderDelivery(t, EventPush, renderPayloads[EventPush]).(*PushEvent)
	r["Delivery"] = []any{push.Delivery, &push.Delivery}
	// What a queue stores never has the authorization header (StoredHeader).
	sd := NewStoredDelivery(push, time.Unix(0, 0))
	q := NewMemoryQueue(4)
	if err := q.Enqueue(context.Background(), sd); err != nil {
		t.Fatal(err)
	}
	lease, err := q.Receive(context.Background(), "c", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	dl := DeadLetter{Delivery: sd, Reason: "r"}
	r["StoredDelivery"] = []any{sd, *sd}
	r["Lease"] = []any{lease, *lease}
	r["DeadLetter"] = []any{dl, &dl}
	r["MemoryQueue"] = []any{q}
	r["Worker"] = []any{must(NewWorker(q, rt))}
	for typ, payload := range renderPayloads {
		ev := renderDelivery(t, typ, payload)
		name := strings.TrimPrefix(fmt.Sprintf("%T", ev), "*webhook.")
		r[name] = append(r[name], ev)
	}
	return r
}

// hiddenForms are the forms of s no rendering may contain: s itself, its
// hex (either case), its JSON and Go-quoted escapes.
func hiddenForms(s string) []string {
	j, _ := json.Marshal(s)
	return []string{s, hex.EncodeToString([]byte(s)), strings.ToUpper(hex.EncodeToString([]byte(s))),
		strings.Trim(string(j), `"`), strings.Trim(fmt.Sprintf("%q", s), `"`), "never-shown"}
}

// renderings is every way a program prints or logs v.
func renderings(v any) map[string]string {
	r := map[string]string{}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X"} {
		r[verb] = fmt.Sprintf(verb, v)
	}
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("m", "v", v)
	r["slog text"] = buf.String()
	buf.Reset()
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("m", "v", v)
	r["slog json"] = buf.String()
	b, err := json.Marshal(v)
	r["json.Marshal"] = string(b)
	if err != nil {
		r["json.Marshal"] = "error: " + err.Error()
	}
	return r
}

// TestSecretsNeverRender enumerates the package's secret-holding types
// (secretHoldingTypes), requires an entry for each in secretRenderers, and
// renders every entry under every fmt verb, both slog handlers and
// json.Marshal: neither the hook secret nor the authorization header may
// show, in any of their encodings. A new type that holds a secret fails
// here until it has an entry (and renders masked).
func TestSecretsNeverRender(t *testing.T) {
	types := secretHoldingTypes(t)
	renderers := secretRenderers(t)
	for _, want := range []string{"Parser", "Handler", "BuildOptions", "Outgoing", "HeaderField", "Delivery", "PushEvent"} {
		if !contains(types, want) {
			t.Errorf("the enumeration misses %s: %v", want, types)
		}
	}
	vectors, failing := 0, 0
	for _, name := range types {
		vs, ok := renderers[name]
		if !ok {
			t.Errorf("%s holds a secret and has no entry in secretRenderers", name)
			continue
		}
		for i, v := range vs {
			for how, out := range renderings(v) {
				vectors++
				for _, s := range []string{renderSecret, renderAuth} {
					if leak := leaked(out, s); leak != "" {
						failing++
						t.Errorf("%s[%d] (%T) under %s shows %q: %s", name, i, v, how, leak, out)
						break
					}
				}
			}
		}
	}
	t.Logf("%d secret-holding types, %d renderings, %d showing a secret", len(types), vectors, failing)
}

func leaked(out, s string) string {
	for _, f := range hiddenForms(s) {
		if strings.Contains(out, f) {
			return f
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestSecretsStillWork: masking is for rendering only; the values stay
// usable.
func TestSecretsStillWork(t *testing.T) {
	bo := BuildOptions{Secret: renderSecret, Authorization: renderAuth}
	out := Build(EventPush, []byte(renderPayloads[EventPush]), bo)
	h := out.HTTPHeader()
	if h.Get("Authorization") != renderAuth || out.Header[0].Value != renderAuth || bo.Secret != renderSecret {
		t.Errorf("the values were changed: %v", h)
	}
	ev, err := mustParser(t, WithSecret(renderSecret)).Parse(out.Body, h)
	if err != nil || ev.(*PushEvent).Header().Get("Authorization") != renderAuth {
		t.Errorf("%v", err)
	}
	if got := fmt.Sprintf("%#v", bo); !strings.HasPrefix(got, `webhook.BuildOptions{Secret:"***"`) {
		t.Errorf("%%#v = %s", got)
	}
	if got := fmt.Sprint(HeaderField{"Content-Type", "application/json"}); got != "{Content-Type application/json}" {
		t.Errorf("a plain header renders %s", got)
	}
	var _ http.Header = h
}
