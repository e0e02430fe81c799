package main

import (
	"fmt"
	"strings"

	"codeberg.org/forgego/forgejo/internal/api"
)

// emitTable writes operations_gen.go: one Operation per operation of the
// spec, hand-written methods included, and the table Operations() returns.
func emitTable(ops []*opInfo) string {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("package forgejo\n\n")
	b.WriteString(comment("", "The operations table: one Operation per operation of the pinned spec, "+
		"with the Go method that calls it, its retry eligibility and the reason, and how it pages. "+
		"Every method passes its Operation to the pipeline, which labels errors and hook events with its ID."))
	b.WriteString("var (\n")
	sorted := sortedOps(ops)
	for _, o := range sorted {
		wrapped := ""
		if o.row.Quirks&api.WrappedList != 0 {
			wrapped = ", wrapped: true"
		}
		fmt.Fprintf(&b, "\t%s = Operation{ID: %q, Method: %q, Path: %q,\n\t\tService: %q, Name: %q, Retry: %s, RetryReason: %q, Paging: %s%s%s,\n\t\tScope: %s}\n",
			o.varName, o.row.ID, o.spec.Verb, o.spec.Path, o.service, o.method,
			retryName(o.row.Retry), retryReason(o.row), pagingName(o.row.Paging), wrapped, tableVersions(o), scopeLiteral(o))
	}
	b.WriteString(")\n\n")
	b.WriteString(emitKnownReleases())
	b.WriteString("// operations lists every Operation, sorted by ID.\nvar operations = []*Operation{\n")
	for _, o := range sorted {
		fmt.Fprintf(&b, "\t&%s,\n", o.varName)
	}
	b.WriteString("}\n\n")
	b.WriteString(comment("", "Operations returns the table of every operation the client covers, sorted by ID, "+
		"in a fresh slice the caller may keep: operationId, HTTP method, path template, Go service and method, "+
		"retry eligibility with its reason, paging, the releases that serve it and the token scope it requires."))
	b.WriteString(`func Operations() []Operation {
	out := make([]Operation, len(operations))
	for i, op := range operations {
		out[i] = *op
	}
	return out
}
`)
	return b.String()
}

func pagingName(p api.Paging) string {
	switch p {
	case api.PageLimit:
		return "PagingPageLimit"
	case api.PageOnly:
		return "PagingPageOnly"
	case api.PagePerPage:
		return "PagingPagePerPage"
	}
	return "PagingNone"
}
