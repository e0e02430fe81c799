package forgejotest

import (
	"cmp"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	forgejo "codeberg.org/forgego/forgejo"
)

// This file matches request paths against path templates such as
// "/repos/{owner}/{repo}/issues/{index}", for the fake's own routes and for
// every operation the client library knows (forgejo.Operations()), so that a
// fault or a log entry can name the operation even when the fake does not
// implement it.

type segKind int

const (
	segParam   segKind = iota // "{owner}"
	segMixed                  // "{index}.{diffType}"
	segLiteral                // "issues"
)

type tmplSeg struct {
	kind  segKind
	lit   string
	name  string
	re    *regexp.Regexp
	names []string
}

type template struct {
	raw  string
	segs []tmplSeg
	// rest: the last segment is a {filepath} that takes the rest of the
	// path, slashes included, as Forgejo's router does for "*".
	rest bool
}

// restParams are the parameters that span several path segments.
var restParams = map[string]bool{"filepath": true, "basehead": true, "ref": true, "head": true, "archive": true} // git/refs/{ref} takes "heads/main", pulls/{base}/{head} and archive/{archive} a branch with slashes

var paramRE = regexp.MustCompile(`\{[^}/]+\}`)

func compileTemplate(raw string) template {
	t := template{raw: raw}
	for _, part := range splitPath(raw) {
		switch {
		case !strings.Contains(part, "{"):
			t.segs = append(t.segs, tmplSeg{kind: segLiteral, lit: part})
		case paramRE.FindString(part) == part:
			t.segs = append(t.segs, tmplSeg{kind: segParam, name: part[1 : len(part)-1]})
		default:
			var names []string
			pattern := "^"
			last := 0
			for _, loc := range paramRE.FindAllStringIndex(part, -1) {
				pattern += regexp.QuoteMeta(part[last:loc[0]]) + "(.+?)"
				names = append(names, part[loc[0]+1:loc[1]-1])
				last = loc[1]
			}
			pattern += regexp.QuoteMeta(part[last:]) + "$"
			t.segs = append(t.segs, tmplSeg{kind: segMixed, re: regexp.MustCompile(pattern), names: names})
		}
	}
	if n := len(t.segs); n > 0 && t.segs[n-1].kind == segParam && restParams[t.segs[n-1].name] {
		t.rest = true
	}
	return t
}

// splitPath splits "/a/b/" into ["a", "b"].
func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// match reports whether the (already unescaped) path parts fit the
// template, and its parameters.
func (t template) match(parts []string) (map[string]string, bool) {
	if t.rest && len(parts) > len(t.segs) {
		n := len(t.segs)
		parts = append(slices.Clip(parts[:n-1]), strings.Join(parts[n-1:], "/"))
	}
	if len(parts) != len(t.segs) {
		return nil, false
	}
	var params map[string]string
	set := func(k, v string) {
		if params == nil {
			params = map[string]string{}
		}
		params[k] = v
	}
	for i, s := range t.segs {
		p := parts[i]
		switch s.kind {
		case segLiteral:
			if p != s.lit {
				return nil, false
			}
		case segParam:
			if p == "" {
				return nil, false
			}
			set(s.name, p)
		case segMixed:
			m := s.re.FindStringSubmatch(p)
			if m == nil {
				return nil, false
			}
			for j, name := range s.names {
				set(name, m[j+1])
			}
		}
	}
	return params, true
}

// moreSpecific reports whether a should win over b when both match: the
// first segment where they differ decides, literal over mixed over
// parameter, as Forgejo's router prefers static routes.
func moreSpecific(a, b template) bool {
	for i := range min(len(a.segs), len(b.segs)) {
		if a.segs[i].kind != b.segs[i].kind {
			return a.segs[i].kind > b.segs[i].kind
		}
	}
	return !a.rest && b.rest // a catch-all loses to an exact fit
}

// pathParts splits an escaped request path (relative to /api/v1) and
// unescapes each segment.
func pathParts(escaped string) ([]string, bool) {
	raw := splitPath(escaped)
	out := make([]string, len(raw))
	for i, r := range raw {
		u, err := url.PathUnescape(r)
		if err != nil {
			return nil, false
		}
		out[i] = u
	}
	return out, true
}

// knownOp is an operation of the client's table, for naming requests the
// fake does not implement.
type knownOp struct {
	id     string
	method string
	tmpl   template
	// Of a release's operation (releaseOps): moved, served at an older
	// path than the pinned one; rename, that path's variables to the
	// pinned template's.
	moved  bool
	rename map[string]string
}

var (
	knownOnce sync.Once
	knownOps  []knownOp
)

// libraryOps compiles forgejo.Operations() once per process.
func libraryOps() []knownOp {
	knownOnce.Do(func() {
		for _, op := range forgejo.Operations() {
			knownOps = append(knownOps, knownOp{id: op.ID, method: op.Method, tmpl: compileTemplate(op.Path)})
		}
	})
	return knownOps
}

// resolution is what a request path means.
type resolution struct {
	route   *route            // the fake's handler, nil if not implemented
	op      string            // operationId, "" if unknown (or not served by the release)
	named   string            // with a release: the operation the path names in the pinned spec
	params  map[string]string // path parameters
	allowed []string          // methods known for this path, when the method did not match
}

// resolve finds the operation of the client's table that a request means,
// with Forgejo's precedence (static segments over parameters), then the
// fake's handler for it. Routing by the table itself is what guarantees that
// every operation of the API reaches its handler or a 501 naming it. With
// [WithRelease], only the operations that release serves are routed.
func (s *Server) resolve(method, escapedPath string) resolution {
	parts, ok := pathParts(escapedPath)
	if !ok {
		return resolution{}
	}
	if s.ops == nil {
		return s.resolveIn(libraryOps(), method, parts)
	}
	res := s.resolveIn(s.ops, method, parts)
	if res.op == "" {
		res.named = s.resolveIn(libraryOps(), method, parts).op
	}
	return res
}

func (s *Server) resolveIn(ops []knownOp, method string, parts []string) resolution {
	var (
		best      *knownOp
		params    map[string]string
		otherMeth []string
	)
	for i := range ops {
		k := &ops[i]
		p, ok := k.tmpl.match(parts)
		if !ok {
			continue
		}
		if k.method != method {
			otherMeth = append(otherMeth, k.method)
			continue
		}
		if best == nil || moreSpecific(k.tmpl, best.tmpl) || (best.moved && !k.moved && !moreSpecific(best.tmpl, k.tmpl)) {
			best, params = k, p
		}
	}
	if best != nil {
		if best.rename != nil {
			renamed := make(map[string]string, len(params))
			for k, v := range params {
				renamed[cmp.Or(best.rename[k], k)] = v
			}
			params = renamed
		}
		return resolution{route: s.byOp[best.id], op: best.id, params: params}
	}
	slices.Sort(otherMeth)
	return resolution{allowed: slices.Compact(otherMeth)}
}

// opByID finds an operation's method and template, from the fake's routes or
// the library's table.
func (s *Server) opByID(id string) (method string, tmpl template, ok bool) {
	for _, k := range libraryOps() {
		if k.id == id {
			return k.method, k.tmpl, true
		}
	}
	return "", template{}, false
}
