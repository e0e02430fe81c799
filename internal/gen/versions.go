package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"codeberg.org/forgego/forgejo/internal/api"
)

// This file reads the spec of every supported Forgejo release
// (api.Releases) beside the pinned one and works out, per operation, which
// releases serve it and in what form, and per model field and query
// parameter, the release that added it. The emitters turn that into the
// Since, Until and Earlier fields of the operations table, the "Forgejo N
// and later" sentences of doc comments, and docs/VERSIONS.md.

// release is one supported release's parsed spec.
type release struct {
	version string // "15.0"
	served  string // info.version of the rendered spec
	spec    *Spec
}

// opForm is how one release serves an operation: the operationId, method
// and path its spec gives it.
type opForm struct {
	id, verb, path string
}

// formRange is a form served by a run of consecutive releases.
type formRange struct {
	opForm
	since, until string
}

// opVersions is the version knowledge of one pinned operation.
type opVersions struct {
	// since and until bound the releases that serve the call in any form;
	// until is "" while the newest release serves it.
	since, until string
	// earlier are the ranges of releases that serve it in a form other than
	// the pinned one (another operationId, or another path template).
	earlier []formRange
	// served[i] reports whether releases[i] serves it.
	served []bool
}

// versionInfo is everything the emitters need about releases.
type versionInfo struct {
	releases []release
	ops      map[string]*opVersions // by pinned operationId
	// fieldSince maps "Definition.wire_name" to the first release whose
	// spec has the property, when an earlier release has the definition
	// without it.
	fieldSince map[string]string
	// enumSince maps "Definition.wire_name" to the enum values added after
	// the oldest release that has the property, by release.
	enumSince map[string][]enumAdded
	// querySince maps "operationId.param" to the first release that takes
	// the query parameter, when an earlier release serves the operation
	// without it.
	querySince map[string]string
	// queryEnumSince is enumSince for query parameters.
	queryEnumSince map[string][]enumAdded
}

type enumAdded struct {
	version string
	values  []string
}

// versions is set by generate; the emitters read it.
var versions *versionInfo

// routeKey is a method and a path template with its variable names
// dropped: two templates that differ only in a variable's name address the
// same URLs.
func routeKey(verb, path string) string {
	return verb + " " + pathVar.ReplaceAllString(path, "{}")
}

// loadReleases parses every release's spec, checking its recorded hash.
func loadReleases() ([]release, error) {
	var out []release
	for _, r := range api.Releases {
		data, err := api.ReleaseSpecs.ReadFile(r.File)
		if err != nil {
			return nil, fmt.Errorf("release %s: %w", r.Version, err)
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != r.SHA256 {
			return nil, fmt.Errorf("release %s: %s does not have the recorded sha256 (api.Releases)", r.Version, r.File)
		}
		s, err := parseSpec(data)
		if err != nil {
			return nil, fmt.Errorf("release %s: %w", r.Version, err)
		}
		out = append(out, release{version: r.Version, served: r.Served, spec: s})
	}
	return out, nil
}

// buildVersions joins every release's operations to the pinned ones. A
// release's operation is the pinned operation of the same operationId, or
// else of the same route (method and path, variable names aside): the
// rename adminDEleteQuotaRule → adminDeleteQuotaRule keeps its route, and
// the route GET /admin/runners/registration-token was
// adminGetRunnerRegistrationToken before 15.0. It fails when a release
// serves an operation that no pinned operation accounts for, when an
// operation's releases are not one consecutive run, and when a path moved
// in a way the client cannot re-target (a different number of variables).
func buildVersions(pinned *Spec, rels []release) (*versionInfo, error) {
	vi := &versionInfo{releases: rels, ops: map[string]*opVersions{},
		fieldSince: map[string]string{}, enumSince: map[string][]enumAdded{},
		querySince: map[string]string{}, queryEnumSince: map[string][]enumAdded{}}
	var errs []string
	accounted := make([]map[string]bool, len(rels))
	byRoute := make([]map[string]*SpecOp, len(rels))
	for i, r := range rels {
		accounted[i] = map[string]bool{}
		byRoute[i] = map[string]*SpecOp{}
		for _, op := range r.spec.Ops {
			byRoute[i][routeKey(op.Verb, op.Path)] = op
		}
	}
	for _, id := range sortedKeys(pinned.Ops) {
		p := pinned.Ops[id]
		ov := &opVersions{served: make([]bool, len(rels))}
		forms := make([]*opForm, len(rels))
		for i, r := range rels {
			op := r.spec.Ops[id]
			if op == nil {
				// The same route under another operationId. It may be
				// another pinned operation's ID too (adminGetRegistrationToken's
				// route was adminGetRunnerRegistrationToken's before 15.0):
				// the route answers either way.
				op = byRoute[i][routeKey(p.Verb, p.Path)]
			}
			if op == nil {
				continue
			}
			accounted[i][op.ID] = true
			forms[i] = &opForm{op.ID, op.Verb, op.Path}
			ov.served[i] = true
		}
		first, last := -1, -1
		for i, ok := range ov.served {
			if ok {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		switch {
		case first < 0:
			// Only the pinned build (a later build of the newest line) has
			// it: credit the newest line.
			ov.since = rels[len(rels)-1].version
		default:
			for i := first; i <= last; i++ {
				if !ov.served[i] {
					errs = append(errs, fmt.Sprintf("%s: served by %s and %s but not by %s", id, rels[first].version, rels[last].version, rels[i].version))
				}
			}
			ov.since = rels[first].version
			if last < len(rels)-1 {
				ov.until = rels[last].version
			}
		}
		for i := 0; i < len(rels); i++ {
			f := forms[i]
			if f == nil || (f.id == p.ID && f.verb == p.Verb && f.path == p.Path) {
				continue
			}
			j := i
			for j+1 < len(rels) && forms[j+1] != nil && *forms[j+1] == *f {
				j++
			}
			if n, m := len(pathVar.FindAllString(f.path, -1)), len(pathVar.FindAllString(p.Path, -1)); n != m || f.verb != p.Verb {
				errs = append(errs, fmt.Sprintf("%s: %s serves it as %s %s, which the client cannot re-target", id, rels[i].version, f.verb, f.path))
			}
			ov.earlier = append(ov.earlier, formRange{*f, rels[i].version, rels[j].version})
			i = j
		}
		vi.ops[id] = ov
	}
	for i, r := range rels {
		for _, id := range sortedKeys(r.spec.Ops) {
			if !accounted[i][id] {
				op := r.spec.Ops[id]
				errs = append(errs, fmt.Sprintf("release %s serves %s (%s %s), which no pinned operation accounts for", r.version, id, op.Verb, op.Path))
			}
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("release specs:\n\t%s", strings.Join(errs, "\n\t"))
	}
	vi.compareModels(pinned)
	vi.compareQueries(pinned)
	return vi, nil
}

// compareModels records the properties and enum values that appeared
// after the oldest release that has their definition.
func (vi *versionInfo) compareModels(pinned *Spec) {
	for _, name := range sortedKeys(pinned.Definitions) {
		def := pinned.Definitions[name]
		for _, prop := range sortedKeys(def.Properties) {
			key := name + "." + prop
			var olderHasDef bool
			var seenEnum map[string]bool
			for _, r := range vi.releases {
				rd := r.spec.Definitions[name]
				if rd == nil {
					continue
				}
				rp := rd.Properties[prop]
				if rp == nil {
					olderHasDef = true
					continue
				}
				if olderHasDef {
					if _, done := vi.fieldSince[key]; !done {
						vi.fieldSince[key] = r.version
					}
				}
				seenEnum = vi.addEnum(vi.enumSince, key, r.version, rp.Enum, seenEnum)
			}
			vi.addEnum(vi.enumSince, key, "", def.Properties[prop].Enum, seenEnum)
		}
	}
}

// compareQueries records the query parameters, and their enum values, that
// appeared after the oldest release that serves the operation.
func (vi *versionInfo) compareQueries(pinned *Spec) {
	for _, id := range sortedKeys(pinned.Ops) {
		ov := vi.ops[id]
		for _, p := range pinned.Ops[id].Parameters {
			if p.In != "query" {
				continue
			}
			key := id + "." + p.Name
			var olderLacks bool
			var seenEnum map[string]bool
			for i, r := range vi.releases {
				if !ov.served[i] {
					continue
				}
				rp, ok := releaseQuery(r.spec, ov, i, id, p.Name)
				if !ok {
					olderLacks = true
					continue
				}
				if olderLacks {
					if _, done := vi.querySince[key]; !done {
						vi.querySince[key] = r.version
					}
				}
				seenEnum = vi.addEnum(vi.queryEnumSince, key, r.version, queryEnum(rp), seenEnum)
			}
			vi.addEnum(vi.queryEnumSince, key, "", queryEnum(p), seenEnum)
		}
	}
}

// releaseQuery finds a query parameter of the operation as release i
// serves it (under whichever operationId that release gives it).
func releaseQuery(s *Spec, ov *opVersions, i int, id, name string) (Param, bool) {
	opID := id
	for _, e := range ov.earlier {
		if releaseIndex(e.since) <= i && i <= releaseIndex(e.until) {
			opID = e.id
		}
	}
	op := s.Ops[opID]
	if op == nil {
		return Param{}, false
	}
	for _, p := range op.Parameters {
		if p.In == "query" && p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

func queryEnum(p Param) []any {
	if len(p.Enum) > 0 || p.Items == nil {
		return p.Enum
	}
	return p.Items.Enum
}

// addEnum records the values of enum that seen (the values of older
// releases) lacks, as added by version ("" for the pinned spec, which is
// credited to the newest line); it returns the updated seen set. The
// oldest release with the property sets the baseline.
func (vi *versionInfo) addEnum(table map[string][]enumAdded, key, version string, enum []any, seen map[string]bool) map[string]bool {
	if len(enum) == 0 && seen == nil {
		return nil
	}
	if seen == nil {
		seen = map[string]bool{}
		for _, e := range enum {
			seen[fmt.Sprint(e)] = true
		}
		return seen
	}
	if version == "" {
		version = vi.releases[len(vi.releases)-1].version
	}
	var added []string
	for _, e := range enum {
		v := fmt.Sprint(e)
		if !seen[v] {
			seen[v] = true
			added = append(added, v)
		}
	}
	if len(added) > 0 {
		list := table[key]
		if n := len(list); n > 0 && list[n-1].version == version {
			list[n-1].values = append(list[n-1].values, added...)
		} else {
			list = append(list, enumAdded{version, added})
		}
		table[key] = list
	}
	return seen
}

func releaseIndex(v string) int {
	for i, r := range api.Releases {
		if r.Version == v {
			return i
		}
	}
	return -1
}

// oldest is the oldest supported release line.
func oldest() string { return api.Releases[0].Version }

// rangeText renders a run of releases: "11.0", "11.0–14.0".
func rangeText(since, until string) string {
	if since == until {
		return since
	}
	return since + "–" + until
}

// versionDoc is the sentence of an operation's doc comment that says which
// releases serve it.
func versionDoc(id string) string {
	if versions == nil {
		return ""
	}
	ov := versions.ops[id]
	if ov == nil {
		return ""
	}
	var b strings.Builder
	switch {
	case ov.until != "":
		fmt.Fprintf(&b, "Served by Forgejo %s only.", rangeText(ov.since, ov.until))
	case ov.since == oldest():
		fmt.Fprintf(&b, "Served by every supported release (Forgejo %s and later).", ov.since)
	default:
		fmt.Fprintf(&b, "Forgejo %s and later: with [WithVersionCheck], an older server refuses it before sending ([UnsupportedOperationError]).", ov.since)
	}
	for _, e := range ov.earlier {
		rng := rangeText(e.since, e.until)
		switch {
		case e.id != id && e.path == versions.pinnedPath(id):
			fmt.Fprintf(&b, " Forgejo %s serves the same route under the operationId %s.", rng, e.id)
		case e.id != id:
			fmt.Fprintf(&b, " Forgejo %s serves it as %s %s (operationId %s); with [WithVersionCheck] the client sends it there.", rng, e.verb, e.path, e.id)
		case routeKey(e.verb, e.path) == routeKey(e.verb, versions.pinnedPath(id)):
			fmt.Fprintf(&b, " Forgejo %s's spec writes the path %s: the same URL, only the variable's name differs.", rng, e.path)
		default:
			fmt.Fprintf(&b, " Forgejo %s serves it at %s %s; with [WithVersionCheck] the client sends it there, without it the pinned path is sent and those releases answer 404.", rng, e.verb, e.path)
		}
	}
	return b.String()
}

// pinnedPath is the path the pinned spec gives an operation.
func (vi *versionInfo) pinnedPath(id string) string {
	return pinnedSpec.Ops[id].Path
}

// pinnedSpec is set by generate beside versions.
var pinnedSpec *Spec

// fieldVersionDoc is the sentence a model field's doc comment gains when
// the field, or some of its values, appeared after the oldest release
// that has the model.
func fieldVersionDoc(def, prop string, request bool) string {
	if versions == nil {
		return ""
	}
	key := def + "." + prop
	var parts []string
	if n := fieldNotes[key]; n != "" {
		parts = append(parts, n)
	}
	if v := versions.fieldSince[key]; v != "" {
		if request {
			parts = append(parts, fmt.Sprintf("Read by Forgejo %s and later; older releases ignore it.", v))
		} else {
			parts = append(parts, fmt.Sprintf("Sent by Forgejo %s and later; older releases leave it zero.", v))
		}
	}
	for _, a := range versions.enumSince[key] {
		parts = append(parts, fmt.Sprintf("Forgejo %s added the values %s.", a.version, strings.Join(a.values, ", ")))
	}
	return strings.Join(parts, " ")
}

// queryVersionDoc is fieldVersionDoc for a query parameter.
func queryVersionDoc(id, name string) string {
	if versions == nil {
		return ""
	}
	key := id + "." + name
	var parts []string
	if v := versions.querySince[key]; v != "" {
		parts = append(parts, fmt.Sprintf("Read by Forgejo %s and later; older releases ignore it.", v))
	}
	for _, a := range versions.queryEnumSince[key] {
		parts = append(parts, fmt.Sprintf("Forgejo %s added the values %s.", a.version, strings.Join(a.values, ", ")))
	}
	return strings.Join(parts, " ")
}

// servedCounts counts, per release and service, the operations served.
func servedCounts(ops []*opInfo) (total []int, bySvc map[string][]int) {
	total = make([]int, len(versions.releases))
	bySvc = map[string][]int{}
	for _, o := range ops {
		ov := versions.ops[o.row.ID]
		if bySvc[o.service] == nil {
			bySvc[o.service] = make([]int, len(versions.releases))
		}
		for i, ok := range ov.served {
			if ok {
				total[i]++
				bySvc[o.service][i]++
			}
		}
	}
	return total, bySvc
}

// sortedServices returns the services of ops, sorted.
func sortedServices(bySvc map[string][]int) []string {
	out := make([]string, 0, len(bySvc))
	for s := range bySvc {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
