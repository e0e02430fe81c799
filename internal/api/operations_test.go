package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"go/token"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// specOp is what the tests need of one operation in Spec.
type specOp struct {
	ID       string
	Verb     string // upper case: GET, POST, ...
	Path     string
	Tags     []string
	Query    map[string]bool
	Consumes []string
	Produces []string
	// Success maps each 2xx status to its resolved schema (nil when none).
	Success map[string]json.RawMessage
}

type swaggerDoc struct {
	Produces    []string                              `json:"produces"`
	Paths       map[string]map[string]json.RawMessage `json:"paths"`
	Responses   map[string]swaggerResponse            `json:"responses"`
	Definitions map[string]json.RawMessage            `json:"definitions"`
}

type swaggerResponse struct {
	Ref    string          `json:"$ref"`
	Schema json.RawMessage `json:"schema"`
}

type swaggerOperation struct {
	OperationID string   `json:"operationId"`
	Tags        []string `json:"tags"`
	Consumes    []string `json:"consumes"`
	Produces    []string `json:"produces"`
	Parameters  []struct {
		Name string `json:"name"`
		In   string `json:"in"`
	} `json:"parameters"`
	Responses map[string]swaggerResponse `json:"responses"`
}

var httpVerbs = map[string]bool{"get": true, "put": true, "post": true, "patch": true, "delete": true, "head": true, "options": true}

// loadSpec parses Spec into its operations, keyed by operationId, plus the
// definitions (for resolving array types).
func loadSpec(t *testing.T) (map[string]specOp, map[string]json.RawMessage) {
	t.Helper()
	var doc swaggerDoc
	if err := json.Unmarshal(Spec, &doc); err != nil {
		t.Fatalf("parse Spec: %v", err)
	}
	ops := make(map[string]specOp)
	for path, item := range doc.Paths {
		for verb, raw := range item {
			if !httpVerbs[verb] {
				continue
			}
			var o swaggerOperation
			if err := json.Unmarshal(raw, &o); err != nil {
				t.Fatalf("parse %s %s: %v", verb, path, err)
			}
			if o.OperationID == "" {
				t.Fatalf("%s %s has no operationId", verb, path)
			}
			if _, dup := ops[o.OperationID]; dup {
				t.Fatalf("operationId %s appears twice in Spec", o.OperationID)
			}
			op := specOp{
				ID:       o.OperationID,
				Verb:     strings.ToUpper(verb),
				Path:     path,
				Tags:     o.Tags,
				Query:    map[string]bool{},
				Consumes: o.Consumes,
				Produces: o.Produces,
				Success:  map[string]json.RawMessage{},
			}
			for _, p := range o.Parameters {
				if p.In == "query" {
					op.Query[p.Name] = true
				}
			}
			for status, r := range o.Responses {
				if !strings.HasPrefix(status, "2") {
					continue
				}
				if r.Ref != "" {
					name := r.Ref[strings.LastIndex(r.Ref, "/")+1:]
					shared, ok := doc.Responses[name]
					if !ok {
						t.Fatalf("%s: unresolved response %s", op.ID, r.Ref)
					}
					r = shared
				}
				if len(r.Schema) == 0 || string(r.Schema) == "null" {
					op.Success[status] = nil
				} else {
					op.Success[status] = r.Schema
				}
			}
			ops[op.ID] = op
		}
	}
	return ops, doc.Definitions
}

// isArraySchema reports whether a schema is an array, following one $ref
// into the definitions.
func isArraySchema(t *testing.T, schema json.RawMessage, defs map[string]json.RawMessage) bool {
	t.Helper()
	if schema == nil {
		return false
	}
	var s struct {
		Ref  string `json:"$ref"`
		Type string `json:"type"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatalf("schema: %v", err)
	}
	if s.Ref != "" {
		name := s.Ref[strings.LastIndex(s.Ref, "/")+1:]
		def, ok := defs[name]
		if !ok {
			t.Fatalf("unresolved definition %s", s.Ref)
		}
		return isArraySchema(t, def, defs)
	}
	return s.Type == "array"
}

func (o specOp) hasSchema() bool {
	for _, s := range o.Success {
		if s != nil {
			return true
		}
	}
	return false
}

func (o specOp) onlySuccess(status string) bool {
	_, ok := o.Success[status]
	return ok && len(o.Success) == 1
}

// producesNonJSON reports whether the operation declares produces and none
// of them is a JSON media type.
func (o specOp) producesNonJSON() bool {
	if len(o.Produces) == 0 {
		return false
	}
	for _, p := range o.Produces {
		if p == "application/json" || strings.HasSuffix(p, "+json") {
			return false
		}
	}
	return true
}

func opsByID(t *testing.T) map[string]Op {
	t.Helper()
	m := make(map[string]Op, len(Operations))
	for _, op := range Operations {
		if _, dup := m[op.ID]; dup {
			t.Errorf("operation %s appears more than once in Operations", op.ID)
		}
		m[op.ID] = op
	}
	return m
}

func TestSpecHashMatchesPin(t *testing.T) {
	sum := sha256.Sum256(Spec)
	if got := hex.EncodeToString(sum[:]); got != SpecSHA256 {
		t.Fatalf("sha256(Spec) = %s, SpecSHA256 = %s: re-pinning must update both (and PROVENANCE.md)", got, SpecSHA256)
	}
}

func TestOperationsCoverSpecExactly(t *testing.T) {
	spec, _ := loadSpec(t)
	table := opsByID(t)
	var missing, extra []string
	for id := range spec {
		if _, ok := table[id]; !ok {
			missing = append(missing, id)
		}
	}
	for id := range table {
		if _, ok := spec[id]; !ok {
			extra = append(extra, id)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		t.Errorf("in Spec but not in Operations (%d): %s", len(missing), strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		t.Errorf("in Operations but not in Spec (%d): %s", len(extra), strings.Join(extra, ", "))
	}
	if len(Operations) != len(spec) {
		t.Errorf("len(Operations) = %d, Spec has %d operations", len(Operations), len(spec))
	}
}

func TestServicesAndOrder(t *testing.T) {
	spec, _ := loadSpec(t)
	services := Services()
	rank := map[string]int{}
	for i, s := range services {
		rank[s] = i
	}
	verbRank := map[string]int{"DELETE": 0, "GET": 1, "HEAD": 2, "OPTIONS": 3, "PATCH": 4, "POST": 5, "PUT": 6}
	for i, op := range Operations {
		if _, ok := rank[op.Service]; !ok {
			t.Errorf("%s: Service %q is not one of %v", op.ID, op.Service, services)
			continue
		}
		s, ok := spec[op.ID]
		if !ok {
			continue // reported by TestOperationsCoverSpecExactly
		}
		if len(s.Tags) == 0 {
			t.Errorf("%s: no tags in Spec", op.ID)
			continue
		}
		if ServiceForTag(s.Tags[0]) == "" {
			t.Errorf("%s: first tag %q has no table group", op.ID, s.Tags[0])
		}
		if i == 0 {
			continue
		}
		prev := Operations[i-1]
		p, ok := spec[prev.ID]
		if !ok {
			continue
		}
		g, pg := ServiceForTag(s.Tags[0]), ServiceForTag(p.Tags[0])
		switch {
		case rank[pg] > rank[g]:
			t.Errorf("%s (tag group %s) follows %s (%s): tag groups out of order", op.ID, g, prev.ID, pg)
		case rank[pg] == rank[g]:
			if p.Path > s.Path || (p.Path == s.Path && verbRank[p.Verb] >= verbRank[s.Verb]) {
				t.Errorf("%s (%s %s) follows %s (%s %s): not sorted by path, then method", op.ID, s.Verb, s.Path, prev.ID, p.Verb, p.Path)
			}
		}
	}
}

// TestMethodNames checks what the table alone can say; the naming rules
// themselves are checked over the generated services (TestNamingRules in the
// forgejo package).
func TestMethodNames(t *testing.T) {
	seen := map[string]string{} // Service.Method -> ID
	for _, op := range Operations {
		if !token.IsIdentifier(op.Method) || !token.IsExported(op.Method) {
			t.Errorf("%s: Method %q is not an exported Go identifier", op.ID, op.Method)
		}
		key := op.Service + "." + op.Method
		if other, dup := seen[key]; dup {
			t.Errorf("%s and %s share the method name %s", other, op.ID, key)
		}
		seen[key] = op.ID
		if op.Stream && op.Response != Bytes && op.Response != Text {
			t.Errorf("%s: Stream is set but the response is not Bytes or Text", op.ID)
		}
	}
}

func TestRetryIsStatedAndArgued(t *testing.T) {
	spec, _ := loadSpec(t)
	always := 0
	for _, op := range Operations {
		s, ok := spec[op.ID]
		if !ok {
			continue
		}
		verb := s.Verb
		if op.Verb != "" {
			verb = op.Verb // the server's method, where the spec is wrong
		}
		switch verb {
		case "GET", "HEAD":
			if op.Retry != Idempotent {
				t.Errorf("%s (%s): Retry %d, a read must be Idempotent", op.ID, s.Verb, op.Retry)
			}
		default:
			if op.Retry != Never && op.Retry != Always {
				t.Errorf("%s (%s): Retry must be stated as Never or Always, got %d", op.ID, s.Verb, op.Retry)
			}
			if strings.TrimSpace(op.Why) == "" {
				t.Errorf("%s (%s): Why is empty; every write argues its retry eligibility", op.ID, s.Verb)
			}
		}
		if op.Retry == Always {
			always++
		}
		if op.Why != "" {
			checkSentence(t, op.ID, "Why", op.Why)
		}
		if op.Renamed != "" {
			checkSentence(t, op.ID, "Renamed", op.Renamed)
		}
	}
	t.Logf("%d of %d operations are Always", always, len(Operations))
}

// checkSentence holds the one-line reasons to the table's style: short,
// lower-case start, no trailing period, one line.
func checkSentence(t *testing.T, id, field, s string) {
	t.Helper()
	if n := utf8.RuneCountInString(s); n > 110 {
		t.Errorf("%s: %s is %d characters; keep it under 110", id, field, n)
	}
	if r, _ := utf8.DecodeRuneInString(s); unicode.IsUpper(r) {
		t.Errorf("%s: %s should start lower-case: %q", id, field, s)
	}
	if strings.HasSuffix(s, ".") || strings.ContainsAny(s, "\n\r") || s != strings.TrimSpace(s) {
		t.Errorf("%s: %s should be one trimmed line without a trailing period: %q", id, field, s)
	}
}

func TestPagingMatchesSpec(t *testing.T) {
	spec, _ := loadSpec(t)
	counts := map[Paging]int{}
	for _, op := range Operations {
		s, ok := spec[op.ID]
		if !ok {
			continue
		}
		var want Paging
		page, limit, perPage := s.Query["page"], s.Query["limit"], s.Query["per_page"]
		switch {
		case page && limit && !perPage:
			want = PageLimit
		case page && perPage && !limit:
			want = PagePerPage
		case page && !limit && !perPage:
			want = PageOnly
		case !page && !limit && !perPage:
			want = NoPaging
		default:
			t.Errorf("%s: unexpected paging parameters page=%v limit=%v per_page=%v; decide and extend Paging", op.ID, page, limit, perPage)
			continue
		}
		if op.Paging != want {
			t.Errorf("%s: Paging %d, the spec's query parameters say %d", op.ID, op.Paging, want)
		}
		counts[op.Paging]++
	}
	t.Logf("paging: PageLimit %d, PageOnly %d, PagePerPage %d, NoPaging %d",
		counts[PageLimit], counts[PageOnly], counts[PagePerPage], counts[NoPaging])
}

func TestResponsesAgreeWithSpec(t *testing.T) {
	spec, _ := loadSpec(t)
	for _, op := range Operations {
		s, ok := spec[op.ID]
		if !ok {
			continue
		}
		// A check answers 204 for yes, and only 204: a check with a body is JSON.
		isCheck := (s.Verb == "GET" || s.Verb == "HEAD") && s.onlySuccess("204")
		if (op.Response == Bool) != isCheck {
			t.Errorf("%s: Response Bool = %v, but the spec's only success is 204: %v", op.ID, op.Response == Bool, isCheck)
		}
		// Raw bodies are exactly the operations that produce no JSON.
		raw := op.Response == Text || op.Response == Bytes
		if raw != s.producesNonJSON() {
			t.Errorf("%s: Response %d, spec produces %v", op.ID, op.Response, s.Produces)
		}
		switch op.Response {
		case JSON:
			if !s.hasSchema() {
				t.Errorf("%s: Response JSON, but the spec declares no success schema", op.ID)
			}
		case NoBody:
			if s.hasSchema() && op.Quirks&MarkRead == 0 {
				t.Errorf("%s: Response NoBody, but the spec declares a success schema (only MarkRead may ignore one)", op.ID)
			}
		case Contents:
			if op.ID != "repoGetContents" || op.Quirks&SpecWrong == 0 {
				t.Errorf("%s: Contents is reserved for repoGetContents, marked SpecWrong", op.ID)
			}
		}
		if op.Quirks&MarkRead != 0 && op.Response != NoBody {
			t.Errorf("%s: a MarkRead call must be NoBody", op.ID)
		}
		if op.Quirks&MarkRead != 0 && op.Retry != Always {
			t.Errorf("%s: a MarkRead call converges and must be Always", op.ID)
		}
	}
}

func TestQuirksAgreeWithSpec(t *testing.T) {
	spec, defs := loadSpec(t)
	counts := map[string]int{}
	for _, op := range Operations {
		s, ok := spec[op.ID]
		if !ok {
			continue
		}
		multipart := slices.Contains(s.Consumes, "multipart/form-data")
		if (op.Quirks&Multipart != 0) != multipart {
			t.Errorf("%s: Multipart quirk = %v, spec consumes %v", op.ID, op.Quirks&Multipart != 0, s.Consumes)
		}
		textPlain := slices.Contains(s.Consumes, "text/plain")
		if (op.Quirks&TextPlainBody != 0) != textPlain {
			t.Errorf("%s: TextPlainBody quirk = %v, spec consumes %v", op.ID, op.Quirks&TextPlainBody != 0, s.Consumes)
		}
		array := false
		for _, schema := range s.Success {
			if isArraySchema(t, schema, defs) {
				array = true
			}
		}
		unpaged := array && op.Paging == NoPaging && op.Response == JSON
		if (op.Quirks&Unpaged != 0) != unpaged {
			t.Errorf("%s: Unpaged quirk = %v, but array response without paging = %v", op.ID, op.Quirks&Unpaged != 0, unpaged)
		}
		if op.Quirks&(EnvelopeOKData|EnvelopeTopics) != 0 && op.Paging == NoPaging {
			t.Errorf("%s: an envelope quirk on an operation that does not page", op.ID)
		}
		if op.Quirks&(SpecWrong|EnvelopeTopics) != 0 && op.Note == "" {
			t.Errorf("%s: quirk needs a Note saying how", op.ID)
		}
		if op.Note != "" {
			checkNote(t, op.ID, op.Note)
		}
		for name, q := range map[string]Quirk{
			"EnvelopeOKData": EnvelopeOKData, "EnvelopeTopics": EnvelopeTopics, "NoLink": NoLink,
			"TextPlainBody": TextPlainBody, "Multipart": Multipart, "MarkRead": MarkRead,
			"Unpaged": Unpaged, "CredentialBody": CredentialBody, "SpecWrong": SpecWrong,
		} {
			if op.Quirks&q != 0 {
				counts[name]++
			}
		}
	}
	t.Logf("quirks: %v", counts)
}

func checkNote(t *testing.T, id, note string) {
	t.Helper()
	if strings.ContainsAny(note, "\n\r") || note != strings.TrimSpace(note) || strings.HasSuffix(note, ".") {
		t.Errorf("%s: Note should be one trimmed line without a trailing period: %q", id, note)
	}
}

// TestMeasuredQuirks pins the quirks measured against codeberg.org (the
// captured bodies are in testdata/codeberg, listed in its INDEX.md), so
// that a regeneration of the draft cannot silently drop them.
func TestMeasuredQuirks(t *testing.T) {
	table := opsByID(t)
	want := map[string]Quirk{
		"repoSearch":                EnvelopeOKData,
		"userSearch":                EnvelopeOKData,
		"repoListTopics":            EnvelopeTopics | NoLink,
		"listForks":                 NoLink,
		"repoListStargazers":        NoLink,
		"issueListLabels":           NoLink,
		"issueGetMilestonesList":    NoLink,
		"orgListLabels":             NoLink,
		"issueGetComments":          NoLink | Unpaged,
		"repoListPullReviews":       NoLink,
		"repoGetPullRequestCommits": NoLink,
		"repoGetPullRequestFiles":   NoLink,
		"renderMarkdownRaw":         TextPlainBody,
		"notifyReadList":            MarkRead,
		"notifyReadThread":          MarkRead,
		"notifyReadRepoList":        MarkRead,
		"repoGetContents":           SpecWrong,
		"userCreateToken":           CredentialBody,
	}
	for id, q := range want {
		op, ok := table[id]
		if !ok {
			t.Errorf("%s missing from Operations", id)
			continue
		}
		if op.Quirks&q != q {
			t.Errorf("%s: Quirks %b lacks the measured %b", id, op.Quirks, q)
		}
	}
	for _, id := range []string{"renderMarkdown", "renderMarkdownRaw", "renderMarkup", "notifyReadList", "notifyReadThread", "notifyReadRepoList"} {
		if op := table[id]; op.Retry != Always {
			t.Errorf("%s: Retry %d, want Always", id, op.Retry)
		}
	}
	for _, id := range []string{"repoDelete", "userCreateToken", "userDeleteAccessToken", "repoDeleteBranch", "repoDeleteTag", "issueCreateIssue", "issueEditIssue"} {
		if op := table[id]; op.Retry != Never {
			t.Errorf("%s: Retry %d, want Never", id, op.Retry)
		}
	}
	if op := table["repoGetWikiPageRevisions"]; op.Paging != PageOnly {
		t.Errorf("repoGetWikiPageRevisions: Paging %d, want PageOnly", op.Paging)
	}
	if op := table["GetTree"]; op.Paging != PagePerPage {
		t.Errorf("GetTree: Paging %d, want PagePerPage", op.Paging)
	}
}
