package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"codeberg.org/forgego/forgejo/internal/api"
)

// This file joins the curated table (internal/api) to the spec and decides,
// per operation, the Go method's parameters and result.

// multiSegment lists the path parameters sent as several path segments
// (seg → segs): Forgejo routes them with a trailing wildcard ("/raw/*",
// "/branches/*", "/tags/*", "/git/refs/*", "/contents/*", "/archive/*",
// "/compare/*", "/pulls/{base}/*"), so a value such as "docs/a.md" or
// "renovate/x" must keep its slashes. An encoded slash (%2F) 404s there.
// Keyed by path template, then parameter name.
//
// editorconfig/{filepath} is listed too: it names a file path, although the
// Forgejo router read for this list matches it as one segment
// ("/editorconfig/{filename}"), so only a top-level path works there today.
var multiSegment = map[string]string{
	"/repos/{owner}/{repo}/archive/{archive}":       "archive",
	"/repos/{owner}/{repo}/branches/{branch}":       "branch",
	"/repos/{owner}/{repo}/compare/{basehead}":      "basehead",
	"/repos/{owner}/{repo}/contents/{filepath}":     "filepath",
	"/repos/{owner}/{repo}/editorconfig/{filepath}": "filepath",
	"/repos/{owner}/{repo}/git/refs/{ref}":          "ref",
	"/repos/{owner}/{repo}/media/{filepath}":        "filepath",
	"/repos/{owner}/{repo}/pulls/{base}/{head}":     "head",
	"/repos/{owner}/{repo}/raw/{filepath}":          "filepath",
	"/repos/{owner}/{repo}/tags/{tag}":              "tag",
}

// encodedSlash lists the path parameters sent as ONE segment in which a
// slash is encoded as %2F (seg → segSlash): their routes take a single
// segment, yet real names contain slashes (release tags "v1/rc", protection
// rules "release/*", refs "feature/x", template names, package names such
// as "@scope/pkg"). Measured against Gitea 1.27.3: the %2F form answers 200
// where a raw slash 404s (docs/HAZARDS.md §20). Keyed by path template,
// then parameter name.
var encodedSlash = map[string]string{
	"/repos/{owner}/{repo}/releases/tags/{tag}":          "tag",
	"/repos/{owner}/{repo}/branch_protections/{name}":    "name",
	"/repos/{owner}/{repo}/commits/{ref}/status":         "ref",
	"/repos/{owner}/{repo}/commits/{ref}/statuses":       "ref",
	"/repos/{owner}/{repo}/pulls/{base}/{head}":          "base",
	"/repos/{owner}/{repo}/sync_fork/{branch}":           "branch",
	"/gitignore/templates/{name}":                        "name",
	"/label/templates/{name}":                            "name",
	"/licenses/{name}":                                   "name",
	"/packages/{owner}/{type}/{name}/{version}":          "name",
	"/packages/{owner}/{type}/{name}/{version}/files":    "name",
	"/packages/{owner}/{type}/{name}/-/link/{repo_name}": "name",
	"/packages/{owner}/{type}/{name}/-/unlink":           "name",
}

// idOrName lists the path parameters the spec types integer although the
// instance also takes a name there, so the method takes a string: Forgejo
// looks a milestone up by ID and, when none has that ID, by title (the
// spec's own description says so, and Forgejo 11.0's spec types it
// string). Keyed by path template, then parameter name; the generator
// refuses an entry the spec already types string.
var idOrName = map[string]string{
	"/repos/{owner}/{repo}/milestones/{id}": "id",
}

// idOrNameDoc is the sentence a method taking an idOrName parameter gains.
var idOrNameDoc = map[string]string{
	"/repos/{owner}/{repo}/milestones/{id}": "The idOrName is the milestone's ID in decimal or its title: the instance looks it up by ID and, when no milestone has that ID, by title.",
}

// checkPathTables refuses a multiSegment or encodedSlash entry whose path
// or parameter the spec does not have, so that a typo cannot silently
// leave a parameter refusing slashes.
func checkPathTables(spec *Spec) error {
	paths := map[string]bool{}
	for _, op := range spec.Ops {
		paths[op.Path] = true
	}
	for _, table := range []map[string]string{multiSegment, encodedSlash, idOrName} {
		for path, param := range table {
			if !paths[path] || !strings.Contains(path, "{"+param+"}") {
				return fmt.Errorf("path table entry %s {%s} is not in the spec", path, param)
			}
		}
	}
	return nil
}

// serviceFile is the generated file stem of each service.
var serviceFile = map[string]string{
	"Repos": "repos", "Users": "users", "Orgs": "orgs", "Issues": "issues", "Admin": "admin",
	"Misc": "misc", "ActivityPub": "activitypub", "Notifications": "notifications",
	"Packages": "packages", "Settings": "settings", "PullRequests": "pulls", "Actions": "actions",
}

// serviceStem prefixes the options type of every operation with query
// parameters: IssueListOptions holds those of Issues.List (rule N11 in
// internal/api/naming.go).
var serviceStem = map[string]string{
	"Repos": "Repo", "Users": "User", "Orgs": "Org", "Issues": "Issue", "Admin": "Admin",
	"Misc": "Misc", "ActivityPub": "ActivityPub", "Notifications": "Notification",
	"Packages": "Package", "Settings": "Settings", "PullRequests": "PullRequest", "Actions": "Action",
}

type qkind int

const (
	qString   qkind = iota // string
	qInt                   // int64, sent when non-zero
	qBool                  // *bool, sent when set
	qTime                  // time.Time, RFC 3339
	qDate                  // time.Time, date only
	qCSV                   // []string, comma-joined
	qMulti                 // []string, repeated key
	qMultiInt              // []int64, repeated key
)

type pathParam struct {
	name  string // wire name
	arg   string // Go parameter name
	isInt bool
	multi bool
	slash bool // one segment, "/" sent as %2F

	enumType string // a named string type (pathEnums), or ""
	orName   bool   // an ID or a name, sent as given (idOrName)
}

type queryParam struct {
	name     string // wire name
	field    string // Go field name
	kind     qkind
	doc      string
	enum     []string
	enumType string // a named string type (queryEnums; the element type of a list), or ""
	required bool
}

type resultKind int

const (
	rNone resultKind = iota
	rJSON
	rText
	rBytes
	rBool
)

// opInfo is everything the emitters need about one operation.
type opInfo struct {
	row  api.Op
	spec *SpecOp

	varName  string // opRepoGet
	service  string
	method   string
	pathArgs []pathParam
	query    []queryParam
	paged    bool
	optsType string // "", "ListOptions" or a generated options type
	body     *gtype // nil: no body
	bodyText bool   // text/plain body (a string)

	result      resultKind
	resultType  *gtype // rJSON: the Go result (slices/maps/named)
	envelope    string // "okData" or "topics": decode the envelope, return its items
	maybeEmpty  bool   // the instance may answer 204 with no body
	withheld    bool   // CredentialBody: decode-error snippets withhold the body
	iterElem    *gtype // paged: the item type
	iterField   string // paged object response: the field holding the items
	successCode string
	scope       scopeReq // the token scope, from api.TokenScopesTSV (scopes.go)
}

var pathVar = regexp.MustCompile(`\{([^}]+)\}`)

// buildOps validates the table against the spec and builds every
// operation. It fails when a spec operation has no row, a row has no spec
// operation, or a PUT or DELETE (or any other write) does not state its
// retry eligibility and why.
func buildOps(s *Spec, m *models) ([]*opInfo, error) {
	if err := applyVerbOverrides(s); err != nil { // emit_versions.go
		return nil, err
	}
	var errs []string
	rows := map[string]api.Op{}
	for _, row := range api.Operations {
		if _, dup := rows[row.ID]; dup {
			errs = append(errs, fmt.Sprintf("operation %s has two rows in the table", row.ID))
		}
		rows[row.ID] = row
		if _, ok := s.Ops[row.ID]; !ok {
			errs = append(errs, fmt.Sprintf("table row %s has no operation in the spec", row.ID))
		}
	}
	for _, id := range sortedKeys(s.Ops) {
		op := s.Ops[id]
		row, ok := rows[id]
		if !ok {
			errs = append(errs, fmt.Sprintf("spec operation %s (%s %s) has no row in the table", id, op.Verb, op.Path))
			continue
		}
		if op.Verb != "GET" && op.Verb != "HEAD" {
			if row.Retry != api.Never && row.Retry != api.Always {
				errs = append(errs, fmt.Sprintf("%s (%s %s): Retry must be stated explicitly as Never or Always", id, op.Verb, op.Path))
			}
			if strings.TrimSpace(row.Why) == "" {
				errs = append(errs, fmt.Sprintf("%s (%s %s): Why is empty; every write argues its retry eligibility", id, op.Verb, op.Path))
			}
		} else if row.Retry != api.Idempotent {
			errs = append(errs, fmt.Sprintf("%s (%s %s): a read must be Idempotent", id, op.Verb, op.Path))
		}
		// A doc comment starts with the name it documents (go doc's
		// convention); a row's Doc that names an older method is stale.
		if row.Doc != "" && !strings.HasPrefix(row.Doc, row.Method+" ") {
			errs = append(errs, fmt.Sprintf("%s: Doc starts %q, not with the method's name %s", id, strings.SplitN(row.Doc, " ", 2)[0], row.Method))
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("the operations table does not match the spec:\n\t%s", strings.Join(errs, "\n\t"))
	}

	var ops []*opInfo
	for _, row := range api.Operations {
		o, err := buildOp(s, m, row)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", row.ID, err)
		}
		ops = append(ops, o)
	}
	if err := nameOptions(ops, m); err != nil {
		return nil, err
	}
	if err := checkEnumTables(); err != nil {
		return nil, err
	}
	if err := checkSpecEnums(s); err != nil {
		return nil, err
	}
	return ops, nil
}

func buildOp(s *Spec, m *models, row api.Op) (*opInfo, error) {
	sp := s.Ops[row.ID]
	o := &opInfo{row: row, spec: sp, varName: "op" + upperFirst(row.ID), service: row.Service, method: row.Method}
	if serviceFile[row.Service] == "" {
		return nil, fmt.Errorf("unknown service %q", row.Service)
	}
	params := map[string]Param{}
	for _, p := range sp.Parameters {
		params[p.In+":"+p.Name] = p
	}
	for _, match := range pathVar.FindAllStringSubmatch(sp.Path, -1) {
		p, ok := params["path:"+match[1]]
		if !ok {
			return nil, fmt.Errorf("path variable {%s} has no parameter", match[1])
		}
		pp := pathParam{name: p.Name, arg: unexported(p.Name), isInt: p.Type == "integer"}
		if idOrName[sp.Path] == p.Name {
			if p.Type != "integer" {
				return nil, fmt.Errorf("path parameter %s: idOrName lists it, but the spec already types it %q", p.Name, p.Type)
			}
			pp.isInt, pp.orName, pp.arg = false, true, unexported(p.Name)+"OrName"
		}
		if p.Type != "integer" && p.Type != "string" {
			return nil, fmt.Errorf("path parameter %s has type %q", p.Name, p.Type)
		}
		if multiSegment[sp.Path] == p.Name {
			pp.multi = true
		}
		if encodedSlash[sp.Path] == p.Name {
			pp.slash = true
		}
		if n, ok := pathEnums[row.ID+"."+p.Name]; ok {
			if pp.isInt || pp.multi || pp.slash {
				return nil, fmt.Errorf("path %s: pathEnums types it %s but it is not a single string segment", p.Name, n)
			}
			usedPaths[row.ID+"."+p.Name] = true
			pp.enumType = n
		}
		o.pathArgs = append(o.pathArgs, pp)
	}
	o.paged = row.Paging != api.NoPaging
	for _, p := range sp.Parameters {
		switch p.In {
		case "path", "formData":
		case "header":
			return nil, fmt.Errorf("header parameter %s is not supported", p.Name)
		case "body":
			if row.DropBody != "" {
				continue // the table: the body is optional and not modelled
			}
			if p.Schema.Type == "string" && p.Schema.Ref == "" {
				o.bodyText = true
				o.body = tString
				continue
			}
			name := p.Schema.refName()
			if name == "" {
				return nil, fmt.Errorf("inline body schema is not supported")
			}
			o.body = &gtype{kind: kNamed, name: goTypeName(name)}
		case "query":
			if p.Name == "page" || p.Name == "limit" || (p.Name == "per_page" && row.Paging == api.PagePerPage) {
				continue
			}
			if row.Quirks&api.MarkRead != 0 {
				continue // the table: mark-read calls send no query, so repeats converge
			}
			q, err := queryOf(p)
			if err != nil {
				return nil, err
			}
			if n, ok := queryEnums[row.ID+"."+p.Name]; ok {
				if q.kind != qString && q.kind != qMulti {
					return nil, fmt.Errorf("query %s: queryEnums types it %s but it is neither a string nor a list of strings", p.Name, n)
				}
				usedQueries[row.ID+"."+p.Name] = true
				q.enumType = n
			}
			o.query = append(o.query, q)
		default:
			return nil, fmt.Errorf("parameter %s in %q is not supported", p.Name, p.In)
		}
	}
	o.withheld = row.Quirks&api.CredentialBody != 0
	if err := resultOf(s, m, o); err != nil {
		return nil, err
	}
	return o, nil
}

func queryOf(p Param) (queryParam, error) {
	q := queryParam{name: p.Name, field: exported(p.Name), doc: p.Description, required: p.Required}
	if p.Name == "q" {
		q.field = "Query"
	}
	for _, e := range p.Enum {
		q.enum = append(q.enum, fmt.Sprint(e))
	}
	csv := regexp.MustCompile(`(?i)comma[- ]separated`).MatchString(p.Description)
	switch p.Type {
	case "string":
		switch {
		case p.Format == "date-time":
			q.kind = qTime
		case p.Format == "date":
			q.kind = qDate
		case csv:
			q.kind = qCSV
		default:
			q.kind = qString
		}
	case "integer":
		q.kind = qInt
	case "boolean":
		q.kind = qBool
	case "array":
		// The spec leaves collectionFormat out on some arrays (csv by the
		// Swagger default); Forgejo reads all of them with FormStrings,
		// that is, as repeated keys.
		if p.CollectionFormat != "" && p.CollectionFormat != "multi" {
			return q, fmt.Errorf("query %s: collectionFormat %q is not supported", p.Name, p.CollectionFormat)
		}
		q.kind = qMulti
		if p.Items != nil && p.Items.Type == "integer" {
			q.kind = qMultiInt
		}
		if p.Items != nil {
			for _, e := range p.Items.Enum {
				q.enum = append(q.enum, fmt.Sprint(e))
			}
		}
	default:
		return q, fmt.Errorf("query %s: type %q is not supported", p.Name, p.Type)
	}
	return q, nil
}

// resultOf decides what the method returns from the table's Response kind
// and the spec's success schema.
func resultOf(s *Spec, m *models, o *opInfo) error {
	codes, resps, err := s.success(o.spec)
	if err != nil {
		return err
	}
	var schema *Schema
	emptyAlt := false
	for i, r := range resps {
		if r.Schema == nil {
			emptyAlt = true
			continue
		}
		if schema == nil {
			schema, o.successCode = r.Schema, codes[i]
		}
	}
	if o.successCode == "" && len(codes) > 0 {
		o.successCode = codes[0]
	}
	switch o.row.Response {
	case api.NoBody:
		o.result = rNone
		return nil
	case api.Text:
		o.result = rText
		return nil
	case api.Bytes:
		o.result = rBytes
		return nil
	case api.Bool:
		o.result = rBool
		return nil
	case api.Contents:
		if o.row.HandWritten == "" {
			return fmt.Errorf("the contents union must be hand-written")
		}
		return nil
	}
	o.result = rJSON
	if schema == nil {
		return fmt.Errorf("the table says JSON but the spec declares no success schema")
	}
	o.maybeEmpty = emptyAlt
	if o.row.Quirks&(api.EnvelopeOKData|api.EnvelopeTopics) != 0 {
		key, env := "data", "okData"
		if o.row.Quirks&api.EnvelopeTopics != 0 {
			key, env = "topics", "topics"
		}
		obj, _ := s.def(schema)
		items, ok := obj.Properties[key]
		if !ok || items.Type != "array" {
			return fmt.Errorf("envelope quirk, but the schema has no %q array", key)
		}
		elem, err := m.schemaType(items.Items, nil, key)
		if err != nil {
			return err
		}
		o.envelope = env
		o.resultType = sliceOf(elem)
	} else {
		t, err := m.schemaType(schema, &typeDef{specName: "response of " + o.row.ID, name: upperFirst(o.row.ID) + "Response"}, "body")
		if err != nil {
			return err
		}
		// A named slice definition is returned as its plain slice, so that
		// listings all read ([]*T, *Response, error).
		if td := m.lookup(t); td != nil && td.cat == catSlice {
			t = td.target
		}
		o.resultType = t
	}
	if !o.paged {
		return nil
	}
	switch {
	case o.resultType.kind == kSlice:
		o.iterElem = o.resultType.elem
	case m.isStruct(o.resultType):
		td := m.lookup(o.resultType)
		for _, f := range td.fields {
			if f.typ.kind == kSlice {
				if o.iterField != "" {
					return fmt.Errorf("paged object response %s has several arrays", td.name)
				}
				o.iterField, o.iterElem = f.name, f.typ.elem
			}
		}
		if o.iterField == "" {
			return fmt.Errorf("paged object response %s has no array of items", td.name)
		}
	default:
		return fmt.Errorf("paged operation with a %s result", m.goType(o.resultType))
	}
	return nil
}

// nameOptions names the options type of every operation that takes query
// parameters: the service stem, the method, then Options
// (IssueListOptions). Operations that only page take *ListOptions.
func nameOptions(ops []*opInfo, m *models) error {
	taken := map[string]string{}
	for _, o := range ops {
		if o.row.HandWritten != "" {
			continue
		}
		switch {
		case len(o.query) > 0:
			n := serviceStem[o.service] + o.method + "Options"
			if _, ok := m.types[n]; ok {
				return fmt.Errorf("%s: options type %s collides with a model", o.row.ID, n)
			}
			if other, ok := taken[n]; ok {
				return fmt.Errorf("%s: options type %s collides with %s", o.row.ID, n, other)
			}
			taken[n] = o.row.ID
			o.optsType = n
		case o.paged:
			o.optsType = "ListOptions"
		}
	}
	return nil
}

// byService groups operations by service in table order.
func byService(ops []*opInfo) map[string][]*opInfo {
	out := map[string][]*opInfo{}
	for _, o := range ops {
		out[o.service] = append(out[o.service], o)
	}
	return out
}

func sortedOps(ops []*opInfo) []*opInfo {
	out := append([]*opInfo(nil), ops...)
	sort.Slice(out, func(i, j int) bool { return out[i].row.ID < out[j].row.ID })
	return out
}
