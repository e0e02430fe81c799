package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"codeberg.org/forgego/forgejo/internal/api"
)

// emitTests writes <service>_gen_test.go: one case per generated operation,
// run by gnRunCases (gen_support_test.go) through an httptest server that
// checks method, escaped path, query and body, then decodes a
// representative response and compares every field with what was sent;
// each call is also made conditional and answered 304, which must give the
// zero result.
func emitTests(m *models, service string, ops []*opInfo) string {
	var cases strings.Builder
	for _, o := range ops {
		if o.row.HandWritten != "" {
			continue
		}
		emitCase(&cases, m, o)
	}
	code := cases.String()
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("package forgejo\n\nimport (\n\t\"context\"\n\t\"testing\"\n")
	if strings.Contains(code, "time.") {
		b.WriteString("\t\"time\"\n")
	}
	b.WriteString(")\n\n")
	fmt.Fprintf(&b, "func TestGen%sOperations(t *testing.T) {\n\tgnRunCases(t, []gnCase{\n%s\t})\n}\n", service, code)
	return b.String()
}

// callArgs builds the sample arguments of a call: the Go argument list
// after ctx, the expected escaped path, query and body.
type callSample struct {
	args     []string
	path     string
	query    []string
	optsExpr string // the options expression, "" when the method takes none
	body     *goLit
}

func sampleCall(m *models, o *opInfo) callSample {
	s := &sampler{m: m}
	var cs callSample
	values := map[string]string{}
	ints := 7
	for _, a := range o.pathArgs {
		switch {
		case a.isInt:
			v := strconv.Itoa(ints)
			ints++
			cs.args = append(cs.args, v)
			values[a.name] = v
		case a.name == "owner":
			cs.args = append(cs.args, `"o"`)
			values[a.name] = "o"
		case a.name == "repo":
			cs.args = append(cs.args, `"r"`)
			values[a.name] = "r"
		case a.multi:
			v := a.name + "/a b"
			cs.args = append(cs.args, strconv.Quote(v))
			parts := strings.Split(v, "/")
			for i := range parts {
				parts[i] = escape(parts[i])
			}
			values[a.name] = strings.Join(parts, "/")
		default:
			v := a.name + " x"
			cs.args = append(cs.args, strconv.Quote(v))
			values[a.name] = escape(v)
		}
	}
	cs.path = "/api/v1" + pathVar.ReplaceAllStringFunc(o.spec.Path, func(v string) string {
		return values[v[1:len(v)-1]]
	})

	var fields []string
	for _, q := range o.query {
		n := s.next()
		switch q.kind {
		case qString:
			v := fmt.Sprintf("%s %d", q.name, n)
			fields = append(fields, fmt.Sprintf("%s: %q", q.field, v))
			cs.query = append(cs.query, escape(q.name)+"="+escape(v))
		case qInt:
			v := 10 + n
			fields = append(fields, fmt.Sprintf("%s: %d", q.field, v))
			cs.query = append(cs.query, escape(q.name)+"="+strconv.Itoa(v))
		case qBool:
			fields = append(fields, q.field+": Ptr(true)")
			cs.query = append(cs.query, escape(q.name)+"=true")
		case qTime:
			fields = append(fields, fmt.Sprintf("%s: gnTime(%d)", q.field, n))
			cs.query = append(cs.query, escape(q.name)+"="+escape(sampleBase.Add(time.Duration(n)*time.Second).Format(time.RFC3339)))
		case qDate:
			fields = append(fields, fmt.Sprintf("%s: gnTime(%d)", q.field, n))
			cs.query = append(cs.query, escape(q.name)+"="+sampleBase.Format(time.DateOnly))
		case qCSV:
			a, b := fmt.Sprintf("%s-%d", q.name, n), fmt.Sprintf("%s %d", q.name, n+1)
			fields = append(fields, fmt.Sprintf("%s: []string{%q, %q}", q.field, a, b))
			cs.query = append(cs.query, escape(q.name)+"="+escape(a+","+b))
		case qMulti:
			a, b := fmt.Sprintf("%s-%d", q.name, n), fmt.Sprintf("%s %d", q.name, n+1)
			elem := "string"
			if q.enumType != "" {
				elem = q.enumType
			}
			fields = append(fields, fmt.Sprintf("%s: []%s{%q, %q}", q.field, elem, a, b))
			cs.query = append(cs.query, escape(q.name)+"="+escape(a), escape(q.name)+"="+escape(b))
		case qMultiInt:
			fields = append(fields, fmt.Sprintf("%s: []int64{%d, %d}", q.field, 20+n, 21+n))
			cs.query = append(cs.query, fmt.Sprintf("%s=%d", escape(q.name), 20+n), fmt.Sprintf("%s=%d", escape(q.name), 21+n))
		}
	}
	paging := ""
	if o.paged {
		switch o.row.Paging {
		case api.PageOnly:
			paging = "ListOptions{Page: 2}"
			cs.query = append(cs.query, "page=2")
		case api.PagePerPage:
			paging = "ListOptions{Page: 2, Limit: 5}"
			cs.query = append(cs.query, "page=2", "per_page=5")
		default:
			paging = "ListOptions{Page: 2, Limit: 5}"
			cs.query = append(cs.query, "page=2", "limit=5")
		}
	}
	switch {
	case o.optsType == "ListOptions":
		cs.optsExpr = "&" + paging
	case o.optsType != "":
		if paging != "" {
			fields = append([]string{"ListOptions: " + paging}, fields...)
		}
		cs.optsExpr = "&" + o.optsType + "{\n" + strings.Join(fields, ",\n") + ",\n}"
	}
	if o.optsType != "" {
		cs.args = append(cs.args, "params")
	}
	if o.body != nil {
		var lit goLit
		if o.bodyText {
			lit = goLit{expr: strconv.Quote("# Title\n\nSome *markdown* text."), json: "# Title\n\nSome *markdown* text."}
		} else {
			lit, _ = s.request(o.body, 0, "body")
			lit.expr = strings.TrimPrefix(lit.expr, "&")
		}
		cs.body = &lit
		cs.args = append(cs.args, "body")
	}
	return cs
}

func emitCase(b *strings.Builder, m *models, o *opInfo) {
	cs := sampleCall(m, o)
	fmt.Fprintf(b, "{\n\top: %q, name: %q,\n", o.row.ID, o.service+"."+o.method)
	fmt.Fprintf(b, "\tmethod: %q, path: %q, query: %q,\n", o.spec.Verb, cs.path, strings.Join(cs.query, "&"))
	if cs.body != nil {
		if o.bodyText {
			fmt.Fprintf(b, "\treqType: %q, reqBody: %q,\n", "text/plain; charset=utf-8", cs.body.json)
		} else {
			fmt.Fprintf(b, "\treqType: %q, reqBody: %s,\n", "application/json", rawString(mustJSON(cs.body.json)))
		}
	}
	status := 200
	if n, err := strconv.Atoi(o.successCode); err == nil {
		status = n
	}
	s := &sampler{m: m}
	switch o.result {
	case rNone:
		b.WriteString("\tkind: gnNone, status: 205, respBody: `{\"ignored\": \"a 205 body\"}`,\n")
	case rText:
		fmt.Fprintf(b, "\tkind: gnText, status: %d, respBody: %q,\n", status, "text answered by "+o.row.ID)
	case rBytes:
		fmt.Fprintf(b, "\tkind: gnBytes, status: %d, respBody: %q,\n", status, "bytes answered by "+o.row.ID)
	case rBool:
		b.WriteString("\tkind: gnBool,\n")
	case rJSON:
		var resp, want any
		switch o.envelope {
		case "okData", "topics":
			key := "data"
			if o.envelope == "topics" {
				key = "topics"
			}
			items, _ := s.response(o.resultType, 1, key)
			resp = map[string]any{key: items}
			if key == "data" {
				resp.(map[string]any)["ok"] = true
			}
			want = items
		default:
			resp, _ = s.response(o.resultType, 0, "v")
			want = resp
		}
		fmt.Fprintf(b, "\tkind: gnJSON, status: %d,\n\trespBody: %s,\n", status, rawString(mustJSON(resp)))
		if o.envelope != "" {
			fmt.Fprintf(b, "\twant: %s,\n", rawString(mustJSON(want)))
		}
		if o.maybeEmpty {
			b.WriteString("\talsoEmpty: true,\n")
		}
		if o.withheld {
			b.WriteString("\twithheld: true,\n")
		}
	}
	// call and stream take the per-call options, so that gnRunCase can
	// make the call conditional (a 304 gives the zero result).
	withOpts := strings.Join(append(append([]string{"ctx"}, cs.args...), "opts..."), ", ")
	fmt.Fprintf(b, "\tcall: func(ctx context.Context, c *Client, opts ...RequestOption) (any, *Response, error) {\n")
	writeSetup(b, cs)
	wrap := "gnResult"
	if o.result == rNone {
		wrap = "gnNoResult"
	}
	fmt.Fprintf(b, "\t\treturn %s(c.%s.%s(%s))\n\t},\n", wrap, o.service, o.method, withOpts)
	if o.iterElem != nil {
		b.WriteString("\titer: func(ctx context.Context, c *Client) (int, error) {\n")
		writeSetup(b, cs)
		fmt.Fprintf(b, "\t\tn, err := gnCount(c.%s.%sIter(%s))\n", o.service, o.method, strings.Join(append([]string{"ctx"}, cs.args...), ", "))
		b.WriteString("\t\treturn n, gnSamePage(params.Page, err)\n\t},\n")
	}
	if o.row.Stream {
		b.WriteString("\tstream: func(ctx context.Context, c *Client, opts ...RequestOption) (any, *Response, error) {\n")
		writeSetup(b, cs)
		fmt.Fprintf(b, "\t\treturn gnReadAll(c.%s.%s(%s))\n\t},\n", o.service, streamName(o.method), withOpts)
	}
	b.WriteString("},\n")
}

func writeSetup(b *strings.Builder, cs callSample) {
	if cs.optsExpr != "" {
		fmt.Fprintf(b, "\t\tparams := %s\n", cs.optsExpr)
	}
	if cs.body != nil {
		fmt.Fprintf(b, "\t\tbody := %s\n", cs.body.expr)
	}
}

// rawString quotes s as a Go raw string when it can, else as an
// interpreted one.
func rawString(s string) string {
	if strings.ContainsAny(s, "`\r") {
		return strconv.Quote(s)
	}
	return "`" + s + "`"
}
