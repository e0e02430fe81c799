package main

import (
	"fmt"
	"strings"

	"codeberg.org/forgego/forgejo/internal/api"
)

// contentFields are required body fields that may legitimately be empty
// (an empty file, an empty secret value...), so they are not checked for
// blanks before sending; other required text fields (names, titles, shas)
// are.
var contentFields = map[string]bool{"content": true, "data": true, "value": true, "body": true}

// emitService writes <service>_gen.go: the options types, methods and
// iterators of one service, in table order.
func emitService(m *models, service string, ops []*opInfo) string {
	var body strings.Builder
	imports := map[string]bool{"context": true}
	for _, o := range ops {
		if o.row.HandWritten != "" {
			continue
		}
		if o.optsType != "" && o.optsType != "ListOptions" {
			emitOptions(&body, o, imports)
		}
		emitMethod(&body, m, o)
		if o.row.Stream {
			imports["io"] = true
			emitStream(&body, m, o)
		}
		if o.iterElem != nil {
			imports["iter"] = true
			emitIter(&body, m, o)
		}
	}
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("package forgejo\n\nimport (\n")
	for _, imp := range sortedKeys(imports) {
		fmt.Fprintf(&b, "\t%q\n", imp)
	}
	b.WriteString(")\n\n")
	b.WriteString(body.String())
	return b.String()
}

func recv(o *opInfo) string { return "s *" + o.service + "Service" }

func qualified(o *opInfo) string { return o.service + "Service." + o.method }

// emitOptions writes the options type of an operation with query
// parameters.
func emitOptions(b *strings.Builder, o *opInfo, imports map[string]bool) {
	doc := fmt.Sprintf("%s holds the query parameters of [%s]. Only fields that are set are sent.", o.optsType, qualified(o))
	b.WriteString(comment("", doc))
	fmt.Fprintf(b, "type %s struct {\n", o.optsType)
	if o.paged {
		b.WriteString("\tListOptions\n")
	}
	for _, q := range o.query {
		d := cleanText(q.doc)
		if q.field == "Query" {
			d = strings.TrimSpace("Query is sent as q. " + d)
		}
		switch q.kind {
		case qCSV:
			if !strings.Contains(strings.ToLower(d), "comma") {
				d = strings.TrimSpace(d + " Sent comma-separated.")
			}
		case qMulti, qMultiInt:
			d = strings.TrimSpace(d + " Sent as one parameter per value.")
		case qDate:
			d = strings.TrimSpace(d + " Only the date is sent (YYYY-MM-DD, in the value's location).")
		case qBool:
			d = strings.TrimSpace(d + " Nil is not sent.")
		}
		if len(q.enum) > 0 {
			d += " One of: " + strings.Join(q.enum, ", ") + "."
		}
		if q.required {
			d += " Required."
		}
		if dv, ok := o.row.Defaults[q.name]; ok {
			d = strings.TrimSpace(d + fmt.Sprintf(" Empty sends %q: servers disagree on the default (%s).", dv, o.row.ID))
		}
		if v := queryVersionDoc(o.row.ID, q.name); v != "" {
			d = strings.TrimSpace(d + " " + v)
		}
		if d != "" {
			b.WriteString(comment("\t", d))
		}
		typ := queryGoType(q.kind)
		switch {
		case q.enumType != "" && q.kind == qMulti:
			typ = "[]" + q.enumType
		case q.enumType != "":
			typ = q.enumType
		}
		fmt.Fprintf(b, "\t%s %s\n", q.field, typ)
		if q.kind == qTime || q.kind == qDate {
			imports["time"] = true
		}
	}
	b.WriteString("}\n\n")
}

func queryGoType(k qkind) string {
	switch k {
	case qInt:
		return "int64"
	case qBool:
		return "*bool"
	case qTime, qDate:
		return "time.Time"
	case qCSV, qMulti:
		return "[]string"
	case qMultiInt:
		return "[]int64"
	}
	return "string"
}

// params renders the method's parameter list after ctx, grouping
// consecutive parameters of the same type ("owner, repo string").
func params(m *models, o *opInfo) string {
	type p struct{ name, typ string }
	var ps []p
	for _, a := range o.pathArgs {
		t := "string"
		switch {
		case a.isInt:
			t = "int64"
		case a.enumType != "":
			t = a.enumType
		}
		ps = append(ps, p{a.arg, t})
	}
	if o.optsType != "" {
		ps = append(ps, p{"params", "*" + o.optsType})
	}
	if o.body != nil {
		ps = append(ps, p{"body", m.bodyType(o.body)})
	}
	ps = append(ps, p{"opts", "...RequestOption"})
	var parts []string
	for i, x := range ps {
		if i+1 < len(ps) && ps[i+1].typ == x.typ {
			parts = append(parts, x.name)
			continue
		}
		parts = append(parts, x.name+" "+x.typ)
	}
	return strings.Join(append([]string{"ctx context.Context"}, parts...), ", ")
}

// bodyType is a body parameter's type: the struct by value.
func (m *models) bodyType(t *gtype) string {
	if m.isStruct(t) {
		return t.name
	}
	return m.goType(t)
}

// args renders the call arguments matching params, for iterators: the
// query parameters are passed as params, the per-call options as opts...
func args(o *opInfo, params string) string {
	parts := []string{"ctx"}
	for _, a := range o.pathArgs {
		parts = append(parts, a.arg)
	}
	if o.optsType != "" {
		parts = append(parts, params)
	}
	if o.body != nil {
		parts = append(parts, "body")
	}
	parts = append(parts, "opts...")
	return strings.Join(parts, ", ")
}

// results renders the result list and the zero value of the first result.
func results(m *models, o *opInfo) (list, zero, typ string) {
	switch o.result {
	case rNone:
		return "(*Response, error)", "", ""
	case rText:
		return "(string, *Response, error)", `""`, "string"
	case rBytes:
		return "([]byte, *Response, error)", "nil", "[]byte"
	case rBool:
		return "(bool, *Response, error)", "false", "bool"
	}
	typ = m.goType(o.resultType)
	switch m.resolve(o.resultType).kind {
	case kBool:
		zero = "false"
	case kString:
		zero = `""`
	case kInt, kFloat, kDuration:
		zero = "0"
	default:
		zero = "nil"
	}
	return "(" + typ + ", *Response, error)", zero, typ
}

// retryLine is the last line of every method's doc comment: the route, the
// token scope and the retry eligibility.
func retryLine(o *opInfo) string {
	return fmt.Sprintf("%s %s (%s). %s Retry: %s (%s).", o.spec.Verb, o.spec.Path, o.row.ID, scopeDoc(o), retryName(o.row.Retry), retryReason(o.row))
}

func retryName(r api.Retry) string {
	switch r {
	case api.Always:
		return "RetryAlways"
	case api.Never:
		return "RetryNever"
	}
	return "RetryIdempotentOnly"
}

func retryReason(row api.Op) string {
	if row.Why != "" {
		return row.Why
	}
	return "a read"
}

// methodDoc writes a method's doc comment text.
func methodDoc(o *opInfo) string {
	first := o.row.Doc
	if first == "" {
		first = methodSentence(o.method, o.spec.Summary)
	}
	paras := []string{first}
	desc := cleanText(o.spec.Description)
	deprecated := o.spec.Deprecated || strings.Contains(desc, "has been deprecated")
	if desc != "" && !deprecated {
		paras = append(paras, desc)
	}
	var notes []string
	for _, a := range o.pathArgs {
		if a.orName {
			notes = append(notes, idOrNameDoc[o.spec.Path])
		}
		if a.enumType == "" {
			continue
		}
		var names []string
		for _, v := range enumTypes[a.enumType] {
			names = append(names, "["+v.name+"]")
		}
		notes = append(notes, fmt.Sprintf("The %s is %s.", a.arg, orList(names)))
	}
	switch {
	case o.envelope == "okData":
		notes = append(notes, `The instance wraps the items as {"ok": true, "data": [...]}; this returns the items.`)
	case o.envelope == "topics":
		notes = append(notes, `The instance wraps the items as {"topics": [...]}; this returns the items.`)
	}
	if o.maybeEmpty {
		notes = append(notes, "The result is nil when the instance answers 204 with no body.")
	}
	switch o.result {
	case rBool:
		notes = append(notes, "It reports true when the instance answers 204 and false when it answers 404; any other status is an error.")
	case rText:
		notes = append(notes, "The body is returned as text.")
	case rBytes:
		notes = append(notes, "The body is returned whole, bounded by the download limit ([WithMaxDownloadBytes]).")
	case rNone:
		if o.row.Quirks&api.MarkRead != 0 {
			notes = append(notes, "The instance answers 205; any body is ignored. No query parameter is sent, so the instance's defaults apply.")
		}
	}
	if o.withheld {
		notes = append(notes, "The answer carries a credential: a decode error never quotes the body.")
	}
	if o.paged && o.row.Quirks&api.NoLink != 0 {
		notes = append(notes, "The instance sends X-Total-Count but no Link header here; the Iter variant and [WalkPages] continue by count.")
	}
	if o.bodyText {
		notes = append(notes, "The body is sent verbatim as text/plain.")
	}
	// Notes that compare this client's retry choice with the Scala client
	// the project started from, or repeat what the 204 sentence above says,
	// are for the table's readers, not the method's.
	if n := o.row.Note; n != "" && !strings.Contains(n, "codeberg4s") && !(o.maybeEmpty && strings.Contains(n, "204")) && o.row.Quirks&api.MarkRead == 0 {
		notes = append(notes, sentence(publicNote(n)))
	}
	if len(notes) > 0 {
		paras = append(paras, strings.Join(notes, " "))
	}
	if v := versionDoc(o.row.ID); v != "" {
		paras = append(paras, v)
	}
	if deprecated {
		d := desc
		if d == "" {
			d = "The spec marks this operation deprecated."
		}
		paras = append(paras, "Deprecated: "+d)
	}
	paras = append(paras, retryLine(o))
	return strings.Join(paras, "\n\n")
}

func emitMethod(b *strings.Builder, m *models, o *opInfo) {
	list, zero, typ := results(m, o)
	b.WriteString(comment("", methodDoc(o)))
	fmt.Fprintf(b, "func (%s) %s(%s) %s {\n", recv(o), o.method, params(m, o), list)
	buildRequest(b, m, o)
	switch {
	case o.result == rNone:
		b.WriteString("\treq.result = resultNone\n\treturn s.client.call(ctx, req, nil)\n}\n\n")
		return
	case o.result == rText:
		b.WriteString("\treq.result = resultText\n")
	case o.result == rBytes:
		b.WriteString("\treq.result = resultBytes\n")
	case o.result == rBool:
		b.WriteString("\treq.result = resultBool\n")
	case o.withheld:
		b.WriteString("\treq.result = resultWithheld\n")
	}
	ret := "v"
	switch {
	case o.envelope == "okData":
		fmt.Fprintf(b, "\tvar v okDataEnvelope[%s]\n", m.goType(o.resultType.elem))
		b.WriteString("\tresp, err := s.client.call(ctx, req, &v)\n")
		ret = "v.Data"
	case o.envelope == "topics":
		fmt.Fprintf(b, "\tvar v topicsEnvelope[%s]\n", m.goType(o.resultType.elem))
		b.WriteString("\tresp, err := s.client.call(ctx, req, &v)\n")
		ret = "v.Topics"
	case o.result == rJSON && m.isStruct(o.resultType):
		fmt.Fprintf(b, "\tv := new(%s)\n", o.resultType.name)
		if o.maybeEmpty {
			b.WriteString("\tout := &maybeEmpty{v: v}\n")
			b.WriteString("\tresp, err := s.client.call(ctx, req, out)\n")
		} else {
			b.WriteString("\tresp, err := s.client.call(ctx, req, v)\n")
		}
	default:
		fmt.Fprintf(b, "\tvar v %s\n", typ)
		b.WriteString("\tresp, err := s.client.call(ctx, req, &v)\n")
	}
	// noResult (response.go): an error or a 304 to a conditional call
	// gives the zero result, never the value allocated to decode into.
	fmt.Fprintf(b, "\tif noResult(resp, err) {\n\t\treturn %s, resp, err\n\t}\n", zero)
	if o.maybeEmpty {
		fmt.Fprintf(b, "\tif out.empty {\n\t\treturn nil, resp, nil\n\t}\n")
	}
	fmt.Fprintf(b, "\treturn %s, resp, nil\n}\n\n", ret)
}

// buildRequest writes the statements that build req: path, query, paging,
// body, then the per-call options.
func buildRequest(b *strings.Builder, m *models, o *opInfo) {
	var pargs []string
	for _, a := range o.pathArgs {
		switch {
		case a.isInt:
			pargs = append(pargs, fmt.Sprintf("num(%q, %s)", a.name, a.arg))
		case a.multi:
			pargs = append(pargs, fmt.Sprintf("segs(%q, %s)", a.name, a.arg))
		case a.slash:
			pargs = append(pargs, fmt.Sprintf("segSlash(%q, %s)", a.name, a.arg))
		case a.enumType != "":
			pargs = append(pargs, fmt.Sprintf("seg(%q, string(%s))", a.name, a.arg))
		default:
			pargs = append(pargs, fmt.Sprintf("seg(%q, %s)", a.name, a.arg))
		}
	}
	fmt.Fprintf(b, "\treq := newRequest(%s)\n", strings.Join(append([]string{"&" + o.varName}, pargs...), ", "))
	if len(o.query) > 0 {
		b.WriteString("\tp := deref(params)\n")
		for _, q := range o.query {
			v := "p." + q.field
			switch {
			case q.enumType != "" && q.kind == qMulti:
				v = "enumStrings(" + v + ")"
			case q.enumType != "":
				v = "string(" + v + ")"
			}
			if d, ok := o.row.Defaults[q.name]; ok && q.kind == qString {
				v = fmt.Sprintf("orDefault(%s, %q)", v, d) // emit_versions.go
			}
			switch q.kind {
			case qString:
				fmt.Fprintf(b, "\treq.addQuery(%q, %s)\n", q.name, v)
			case qInt:
				fmt.Fprintf(b, "\treq.addQueryInt(%q, %s)\n", q.name, v)
			case qBool:
				fmt.Fprintf(b, "\treq.addQueryBool(%q, %s)\n", q.name, v)
			case qTime:
				fmt.Fprintf(b, "\treq.addQueryTime(%q, %s)\n", q.name, v)
			case qDate:
				fmt.Fprintf(b, "\treq.addQueryDate(%q, %s)\n", q.name, v)
			case qCSV:
				fmt.Fprintf(b, "\treq.addQueryList(%q, %s)\n", q.name, v)
			case qMulti:
				fmt.Fprintf(b, "\treq.addQueryMulti(%q, %s)\n", q.name, v)
			case qMultiInt:
				fmt.Fprintf(b, "\treq.addQueryInts(%q, %s)\n", q.name, v)
			}
		}
		if o.paged {
			b.WriteString("\treq.paging(s.client, p.ListOptions)\n")
		}
		for _, q := range o.query {
			if !q.required {
				continue
			}
			switch q.kind {
			case qString:
				if q.enumType != "" {
					fmt.Fprintf(b, "\treq.requireText(%q, string(p.%s))\n", q.name, q.field)
				} else {
					fmt.Fprintf(b, "\treq.requireText(%q, p.%s)\n", q.name, q.field)
				}
			case qCSV, qMulti, qMultiInt:
				fmt.Fprintf(b, "\treq.requireList(%q, len(p.%s))\n", q.name, q.field)
			}
		}
	} else if o.paged {
		b.WriteString("\treq.paging(s.client, deref(params))\n")
	}
	if o.body != nil {
		if td := m.lookup(o.body); td != nil && td.cat == catStruct {
			for _, f := range td.fields {
				if f.required && !contentFields[f.json] && m.resolve(f.typ).kind == kString {
					v := "body." + f.name
					if f.typ.kind == kNamed {
						v = "string(" + v + ")"
					}
					fmt.Fprintf(b, "\treq.requireText(%q, %s)\n", f.json, v)
				}
			}
		}
		if o.bodyText {
			b.WriteString("\treq.textBody(body)\n")
		} else {
			b.WriteString("\treq.jsonBody(body)\n")
		}
	}
	b.WriteString("\treq.with(opts)\n")
}

// streamName is the streaming form's name (rule N10): Open, then the
// method's name without its leading Get or Download.
func streamName(method string) string {
	for _, verb := range []string{"Get", "Download"} {
		if rest, ok := strings.CutPrefix(method, verb); ok && rest != "" {
			return "Open" + rest
		}
	}
	return "Open" + method
}

// emitStream writes the streaming form of a file-content operation.
func emitStream(b *strings.Builder, m *models, o *opInfo) {
	name := streamName(o.method)
	doc := fmt.Sprintf("%s is [%s] as a stream: it returns the body as it arrives, bounded by the download limit ([WithMaxDownloadBytes]), instead of reading it whole. The caller must close the reader. A conditional call ([IfNoneMatch], [IfModifiedSince]) answered 304 Not Modified returns an empty reader, still to be closed, with Response.NotModified true; an error returns a nil reader.", name, qualified(o)) +
		"\n\n" + retryLine(o)
	b.WriteString(comment("", doc))
	fmt.Fprintf(b, "func (%s) %s(%s) (io.ReadCloser, *Response, error) {\n", recv(o), name, params(m, o))
	buildRequest(b, m, o)
	b.WriteString("\treturn s.client.stream(ctx, req)\n}\n\n")
}

func emitIter(b *strings.Builder, m *models, o *opInfo) {
	elem := m.goType(o.iterElem)
	what := "item"
	if o.iterField != "" {
		what = "entry of " + o.iterField
	}
	doc := fmt.Sprintf("%sIter walks every %s of [%s], page after page from params' page on; see [All]. Pages are fetched one at a time, each once the previous one has been consumed, unless the client was made with [WithWalkConcurrency], which fetches later pages ahead; items still come once each, in order. params is copied, never modified; opts apply to every page.",
		o.method, what, qualified(o))
	b.WriteString(comment("", doc))
	fmt.Fprintf(b, "func (%s) %sIter(%s) iter.Seq2[%s, error] {\n", recv(o), o.method, params(m, o), elem)
	extract := func(call string) string {
		if o.iterField == "" {
			return "\t\treturn " + call + "\n"
		}
		// v is nil on a 304 to a conditional call (noResult), as on an
		// error: no page of items.
		return fmt.Sprintf("\t\tv, resp, err := %s\n\t\tif v == nil || err != nil {\n\t\t\treturn nil, resp, err\n\t\t}\n\t\treturn v.%s, resp, nil\n", call, o.iterField)
	}
	if o.optsType == "ListOptions" {
		fmt.Fprintf(b, "\treturn All(ctx, deref(params), func(ctx context.Context, lo ListOptions) ([]%s, *Response, error) {\n", elem)
		b.WriteString(extract(fmt.Sprintf("s.%s(%s)", o.method, args(o, "&lo"))))
		b.WriteString("\t})\n}\n\n")
		return
	}
	b.WriteString("\tp := deref(params)\n")
	fmt.Fprintf(b, "\treturn All(ctx, p.ListOptions, func(ctx context.Context, lo ListOptions) ([]%s, *Response, error) {\n", elem)
	b.WriteString("\t\tpage := p\n\t\tpage.ListOptions = lo\n")
	b.WriteString(extract(fmt.Sprintf("s.%s(%s)", o.method, args(o, "&page"))))
	b.WriteString("\t})\n}\n\n")
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
