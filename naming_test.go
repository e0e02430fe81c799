package forgejo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"codeberg.org/forgego/forgejo/internal/api"
)

// TestNamingRules checks every naming rule of internal/api/naming.go (N1 to
// N13) over the real services: the generated table (Operations()) for the
// operationId, HTTP method and route of each method, reflection over
// Client's services for the method itself, and the curated table for its
// response kind, its streaming flag and its Renamed. A rule broken by a row
// with a Renamed reason is accepted; a Renamed that breaks no rule is an
// error, so that the exceptions stay the exceptions.
func TestNamingRules(t *testing.T) {
	c, err := NewClient()
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]api.Op{}
	for _, row := range api.Operations {
		rows[row.ID] = row
	}
	deprecated := nmDeprecated(t)
	verbs := map[string]bool{}
	for _, v := range api.Verbs {
		verbs[v] = true
	}
	ctxType := reflect.TypeFor[context.Context]()
	callOpts := reflect.TypeFor[[]RequestOption]()
	readCloser := reflect.TypeFor[io.ReadCloser]()
	respType := reflect.TypeFor[*Response]()
	errType := reflect.TypeFor[error]()
	stems := map[string]string{
		"Repos": "Repo", "Users": "User", "Orgs": "Org", "Issues": "Issue", "Admin": "Admin",
		"Misc": "Misc", "ActivityPub": "ActivityPub", "Notifications": "Notification",
		"Packages": "Package", "Settings": "Settings", "PullRequests": "PullRequest", "Actions": "Action",
	}

	// broken[id] lists the rules an operation breaks.
	broken := map[string][]string{}
	seenRules := map[string]bool{}
	fail := func(rule string, op Operation, format string, args ...any) {
		seenRules[rule] = true
		broken[op.ID] = append(broken[op.ID], rule+": "+fmt.Sprintf(format, args...))
	}
	services := map[string]reflect.Type{}
	methodOf := func(op Operation) (reflect.Method, bool) {
		svc, ok := services[op.Service]
		if !ok {
			f := reflect.ValueOf(c).Elem().FieldByName(op.Service)
			if !f.IsValid() {
				return reflect.Method{}, false
			}
			svc = f.Type()
			services[op.Service] = svc
		}
		return svc.MethodByName(op.Name)
	}
	byKey := map[string]Operation{}
	for _, op := range Operations() {
		byKey[op.Service+"."+op.Name] = op
	}

	for _, op := range Operations() {
		row := rows[op.ID]
		m, ok := methodOf(op)
		if !ok {
			t.Errorf("%s: no method %s.%s", op.ID, op.Service, op.Name)
			continue
		}
		words := nmWords(op.Name)
		verb := words[0]
		mt := m.Type
		first := mt.Out(0)
		isSlice := first.Kind() == reflect.Slice && first.Elem().Kind() != reflect.Uint8

		// N1: a verb from the list first.
		if !verbs[verb] {
			fail("N1", op, "%s does not start with a verb of api.Verbs", op.Name)
		}
		// N2: no stutter.
		if len(words) > 1 && slices.Contains(api.ServiceNouns[op.Service], words[1]) {
			fail("N2", op, "%s.%s repeats the service's resource after the verb", op.Service, op.Name)
		}
		// N3: collections are List (or Search on a /search route).
		if op.Method == "GET" && (isSlice || op.Paging != PagingNone) && verb != "List" && verb != "Search" {
			fail("N3", op, "a GET returning a collection is named %s, not List… or Search…", op.Name)
		}
		if verb == "Search" && !strings.HasSuffix(op.Path, "/search") {
			fail("N3", op, "Search… on %s, a route that does not end in /search", op.Path)
		}
		if verb == "List" && op.Method == "GET" && !isSlice && op.Paging == PagingNone && first.Kind() != reflect.Map {
			fail("N3", op, "List… returns %s, not a collection", first)
		}
		// N4: Get is one item.
		if verb == "Get" && isSlice {
			fail("N4", op, "Get… returns a slice (%s)", first)
		}
		// N5: Edit is the partial update.
		if (op.Method == "PATCH") != (verb == "Edit") {
			fail("N5", op, "%s is a %s: Edit… and PATCH go together", op.Name, op.Method)
		}
		if (verb == "Update" || verb == "Set") && op.Method == "PATCH" {
			fail("N5", op, "%s… sends PATCH", verb)
		}
		// N6: yes or no.
		if (row.Response == api.Bool) != (verb == "Is") {
			fail("N6", op, "Is… and Bool responses go together (%s)", op.Name)
		}
		if verb == "Check" && (row.Response == api.Bool || first.Kind() != reflect.Bool) {
			fail("N6", op, "Check… must be a JSON boolean answer")
		}
		// N7: verbs match HTTP methods.
		want := map[string]string{
			"Get": "GET", "List": "GET", "Search": "GET", "Is": "GET", "Check": "GET", "Download": "GET",
			"Delete": "DELETE", "Remove": "DELETE", "Clear": "DELETE", "Create": "POST",
		}[verb]
		if want != "" && op.Method != want {
			fail("N7", op, "%s… is a %s, not a %s", verb, op.Method, want)
		}
		// N8: scopes.
		if op.Service == "Actions" && slices.ContainsFunc(words, func(w string) bool {
			return w == "Runner" || w == "Runners" || w == "Secret" || w == "Secrets" || w == "Variable" || w == "Variables" || w == "Registration"
		}) && (len(words) < 2 || !slices.Contains(api.ScopeWords, words[1])) {
			fail("N8", op, "%s does not name its scope (%v) after the verb", op.Name, api.ScopeWords)
		}
		if rest, ok := strings.CutPrefix(op.Name, "ListBy"); ok {
			if !slices.Contains(api.ScopeWords, rest) {
				fail("N8", op, "ListBy%s: %s is not a scope word", rest, rest)
			}
			if _, ok := byKey[op.Service+".List"]; !ok {
				fail("N8", op, "ListBy%s without a plain %s.List", rest, op.Service)
			}
		}
		if op.Service == "Users" && len(words) > 1 && words[1] == "My" {
			other, ok := byKey["Users."+verb+strings.Join(words[2:], "")]
			if !ok {
				fail("N8", op, "%s has no unqualified form taking a username", op.Name)
			} else if om, _ := methodOf(other); om.Type.NumIn() != mt.NumIn()+1 || om.Type.In(2).Kind() != reflect.String {
				fail("N8", op, "%s.%s does not take the username %s leaves out", other.Service, other.Name, op.Name)
			}
		}
		// N9: deprecated routes.
		if strings.HasSuffix(op.Name, "Deprecated") && !deprecated[op.ID] {
			fail("N9", op, "%s ends in Deprecated, the spec does not deprecate %s", op.Name, op.ID)
		}
		// N10: streams.
		if row.Stream {
			sname := gnStreamName(op.Name)
			sm, ok := services[op.Service].MethodByName(sname)
			switch {
			case !ok:
				fail("N10", op, "file-content operation without %s", sname)
			case sm.Type.NumIn() != mt.NumIn() || sm.Type.NumOut() != 3 || sm.Type.Out(0) != readCloser:
				fail("N10", op, "%s does not take %s's arguments and return (io.ReadCloser, *Response, error)", sname, op.Name)
			default:
				for i := range mt.NumIn() {
					if sm.Type.In(i) != mt.In(i) {
						fail("N10", op, "%s argument %d is %s, %s takes %s", sname, i, sm.Type.In(i), op.Name, mt.In(i))
					}
				}
			}
		}
		// N13: go-github's names.
		if want, ok := api.GoGitHub[op.ID]; ok && want != op.Service+"."+op.Name {
			fail("N13", op, "go-github names this operation %s", want)
		}
		// N11: arguments.
		if mt.NumIn() < 3 || mt.In(1) != ctxType || !mt.IsVariadic() || mt.In(mt.NumIn()-1) != callOpts {
			fail("N11", op, "%s does not take ctx first and opts ...RequestOption last", op.Name)
		}
		if n := mt.NumOut(); mt.Out(n-1) != errType || mt.Out(n-2) != respType {
			fail("N11", op, "%s does not return (..., *Response, error)", op.Name)
		}
		for i := 2; i < mt.NumIn()-1; i++ {
			in := mt.In(i)
			if in.Kind() != reflect.Pointer || in.Elem().Kind() != reflect.Struct || !strings.HasSuffix(in.Elem().Name(), "Options") || in.Elem() == reflect.TypeFor[ListOptions]() {
				continue
			}
			name := in.Elem().Name()
			if row.HandWritten == "" && name != stems[op.Service]+op.Name+"Options" {
				fail("N11", op, "options type %s, want %s", name, stems[op.Service]+op.Name+"Options")
			}
			if !strings.HasPrefix(name, stems[op.Service]) {
				fail("N11", op, "options type %s does not start with the stem %s", name, stems[op.Service])
			}
		}
		if op.Paging != PagingNone {
			if it, ok := services[op.Service].MethodByName(op.Name + "Iter"); !ok || it.Type.NumIn() != mt.NumIn() || !it.Type.IsVariadic() {
				fail("N11", op, "%sIter does not take %s's arguments", op.Name, op.Name)
			}
		}
	}

	// Every Open… method is the streaming form of a Stream row (rule N10 of
	// internal/api/naming.go).
	streams := map[string]bool{}
	for _, row := range api.Operations {
		if row.Stream {
			streams[row.Service+"."+gnStreamName(row.Method)] = true
		}
	}
	for svc, typ := range services {
		for i := range typ.NumMethod() {
			name := typ.Method(i).Name
			if strings.HasPrefix(name, "Open") && !streams[svc+"."+name] {
				t.Errorf("N10: %s.%s is named Open… but is not the stream of a file-content operation", svc, name)
			}
		}
	}

	// N13: every entry of the go-github table is an operation.
	for id, name := range api.GoGitHub {
		if _, ok := rows[id]; !ok {
			t.Errorf("N13: api.GoGitHub names %s for %s, which is no operation", name, id)
		}
	}

	// N12: the generated index maps every operationId to its method.
	index, err := os.ReadFile("docs/OPERATIONS.md")
	if err != nil {
		t.Errorf("N12: %v", err)
	}
	for _, op := range Operations() {
		if !strings.Contains(string(index), "| `"+op.ID+"` | `"+op.Service+"."+op.Name+"` |") {
			t.Errorf("N12: docs/OPERATIONS.md has no row `%s` | `%s.%s`", op.ID, op.Service, op.Name)
		}
	}

	for _, op := range Operations() {
		why := rows[op.ID].Renamed
		switch b := broken[op.ID]; {
		case len(b) > 0 && why == "":
			for _, msg := range b {
				t.Errorf("%s (%s.%s) %s", op.ID, op.Service, op.Name, msg)
			}
		case len(b) == 0 && why != "":
			t.Errorf("%s (%s.%s): Renamed says %q, but the name breaks no rule", op.ID, op.Service, op.Name, why)
		}
	}
	t.Logf("rules with accepted departures: %v", seenRules)
}

// nmWords splits a Go name into its words: "ListOAuth2Apps" -> List, OAuth2,
// Apps; "GetByID" -> Get, By, ID; "IsFollowedByMe" -> Is, Followed, By, Me.
func nmWords(name string) []string {
	var words []string
	rs := []rune(name)
	start := 0
	for i := 1; i < len(rs); i++ {
		upper := unicode.IsUpper(rs[i])
		switch {
		case upper && unicode.IsLower(rs[i-1]):
		case upper && unicode.IsDigit(rs[i-1]):
		case upper && i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]) && !(i-start == 1):
		default:
			continue
		}
		words = append(words, string(rs[start:i]))
		start = i
	}
	return append(words, string(rs[start:]))
}

func TestNmWords(t *testing.T) {
	for name, want := range map[string]string{
		"Get":                   "Get",
		"ListOAuth2Apps":        "List OAuth2 Apps",
		"GetByID":               "Get By ID",
		"IsFollowedByMe":        "Is Followed By Me",
		"ListRepoSecrets":       "List Repo Secrets",
		"GetSSHSigningKey":      "Get SSH Signing Key",
		"ListGPGKeys":           "List GPG Keys",
		"GetAPI":                "Get API",
		"SendToInstanceInbox":   "Send To Instance Inbox",
		"GetUI":                 "Get UI",
		"ListStatusesBySHA":     "List Statuses By SHA",
		"GetGitignoreTemplate":  "Get Gitignore Template",
		"ListActivityFeeds":     "List Activity Feeds",
		"GetAdminRunner":        "Get Admin Runner",
		"EditCommentDeprecated": "Edit Comment Deprecated",
	} {
		if got := strings.Join(nmWords(name), " "); got != want {
			t.Errorf("nmWords(%q) = %q, want %q", name, got, want)
		}
	}
}

// nmDeprecated reads which operations the spec marks deprecated.
func nmDeprecated(t *testing.T) map[string]bool {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(api.Spec, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, item := range doc.Paths {
		for _, raw := range item {
			var op struct {
				ID         string `json:"operationId"`
				Deprecated bool   `json:"deprecated"`
			}
			if err := json.Unmarshal(raw, &op); err == nil && op.Deprecated {
				out[op.ID] = true
			}
		}
	}
	return out
}
