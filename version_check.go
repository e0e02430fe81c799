package forgejo

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// This file is the client's knowledge of which Forgejo release serves which
// operation, and the opt-in check that uses it ([WithVersionCheck]). The
// knowledge is generated from the API spec of every supported release
// (internal/api/versions) into the Since, Until and Earlier fields of the
// operations table; docs/VERSIONS.md is the same knowledge as a table.

// WithVersionCheck makes the client learn the server's version, once, at
// the first call that needs it (GET /version, cached for the client's
// life), and refuse before sending a call to an operation the server's
// release does not serve, with an [*UnsupportedOperationError]. It also
// sends an operation whose path moved to the path the server's release
// serves (adminGetRunnerRegistrationToken on Forgejo 11.0 to 14.0;
// [Operation.Earlier] lists every such form).
//
// The check refuses only what it knows is missing. A server between two
// known releases (a 12.x) is judged by both neighbours, and a call is
// refused only when both lack the operation; a server newer than the newest
// known release is judged by that release, an older one by the oldest.
// Gitea, a version that does not parse (a build from a commit) and a
// server that does not answer /version are unknown: every call is sent. A
// failure to learn the version (a transport error, a 5xx) is not cached:
// the call is sent unchecked and the next call asks again.
//
// Without this option (the default) no /version request is ever made and
// every call is sent.
func WithVersionCheck() ClientOption {
	return func(c *config) error {
		c.versionCheck = true
		return nil
	}
}

// Serves reports whether the server's release serves an operation, named
// by its operationId ("getActionsRun") or its Go method
// ("Actions.GetCurrentRun"). It learns the server's version as
// [WithVersionCheck] does (one GET /version, cached), whether or not that
// option is set. It reports true unless the release is known not to serve
// the operation: on Gitea, or on a server whose version is unknown, every
// operation reads true. The error is a failure to learn the version, or an
// unknown operation.
func (c *Client) Serves(ctx context.Context, operation string) (bool, error) {
	op := lookupOperation(operation)
	if op == nil {
		return false, &ValidationError{Field: "operation", Message: strconv.Quote(operation) + " is neither an operationId nor a Service.Method of the operations table"}
	}
	sv, err := c.versions.learn(ctx, c)
	if err != nil {
		return false, err
	}
	if !sv.known {
		return true, nil
	}
	served, _ := op.availability(sv.major, sv.minor)
	return served, nil
}

// lookupOperation finds a table row by operationId or "Service.Method".
func lookupOperation(name string) *Operation {
	if op, ok := secondForms[name]; ok {
		return op
	}
	svc, method, dotted := strings.Cut(name, ".")
	for _, op := range operations {
		if op.ID == name || (dotted && op.Service == svc && op.Name == method) {
			return op
		}
	}
	return nil
}

// serverVersion is what the client learnt of the server's version.
type serverVersion struct {
	raw          string
	known        bool // a Forgejo version that parses
	major, minor int
}

// versionState is a client's cached server version. It behaves as a
// sync.Once that retries on failure: the first caller fetches while the
// others wait; a definite answer (a version, or a 4xx from /version) is
// kept, a failure is not.
type versionState struct {
	check bool // WithVersionCheck

	mu   sync.Mutex
	done bool
	sv   serverVersion
}

func newVersionState(check bool) *versionState { return &versionState{check: check} }

func (s *versionState) learn(ctx context.Context, c *Client) (serverVersion, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return s.sv, nil
	}
	v, _, err := c.Misc.GetVersion(ctx)
	if err != nil {
		if code := StatusCode(err); code >= 400 && code < 500 {
			// The server answered and will answer the same again: it does
			// not report a version. Unknown, for good.
			s.done = true
			return s.sv, nil
		}
		return serverVersion{}, err
	}
	s.done = true
	s.sv = parseServerVersion(v.Version)
	return s.sv, nil
}

// peek returns the version learnt so far, without asking the server: the
// zero serverVersion (unknown) when it has not been learnt.
func (s *versionState) peek() serverVersion {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sv
}

// knownRelease is the per-call option of the Actions helpers (WaitJob,
// FollowJobLog, DownloadArtifactTo…): their 16.0-only calls are refused
// before sending when the client already knows the server's release (from
// [Client.Serves], or an earlier call with [WithVersionCheck]) and it
// lacks the operation, whether or not the version check is on. Where the
// release is not known the call is sent, and the router's 404 is mapped to
// the same *UnsupportedOperationError (releaseMissing).
func knownRelease() RequestOption {
	return func(o *callOptions) { o.knownRelease = true }
}

// withKnownRelease is opts and knownRelease, without touching the
// caller's slice.
func withKnownRelease(opts []RequestOption) []RequestOption {
	return append(opts[:len(opts):len(opts)], knownRelease())
}

func parseServerVersion(raw string) serverVersion {
	sv := serverVersion{raw: raw}
	if info, ok := ParseVersion(raw); ok && info.Forgejo {
		sv.known, sv.major, sv.minor = true, info.Major, info.Minor
	}
	return sv
}

// admit runs before a request is sent: with the version check on, it
// refuses (by setting r.err) an operation the server's release does not
// serve, and re-targets one whose path moved. It never refuses when the
// version is unknown or cannot be learnt.
func (c *Client) admit(ctx context.Context, r *request) {
	if r.err != nil || c.versions == nil || r.op.Since == "" || r.op == &opGetVersion {
		return
	}
	var sv serverVersion
	switch {
	case c.versions.check:
		var err error
		if sv, err = c.versions.learn(ctx, c); err != nil {
			return
		}
	case r.extra != nil && r.extra.knownRelease:
		sv = c.versions.peek() // what the client knows already; nothing is fetched
	default:
		return
	}
	if !sv.known {
		return
	}
	served, form := r.op.availability(sv.major, sv.minor)
	if !served {
		r.err = &UnsupportedOperationError{Operation: r.op.ID, Method: r.op.Service + "." + r.op.Name,
			Since: r.op.Since, Until: r.op.Until, ServerVersion: sv.raw}
		return
	}
	if form != nil && form.Method == r.op.Method && !sameRoute(form.Path, r.op.Path) {
		args := make([]pathArg, len(r.args))
		names := templateVars(form.Path)
		if len(names) != len(args) {
			return // the generator refuses such a form; send the pinned path
		}
		for i, a := range r.args {
			a.name = names[i]
			args[i] = a
		}
		r.path, r.err = expandPath(form.Path, args...)
	}
}

// routerNotFound is the body of the router's 404, Forgejo's and Gitea's
// answer (text/plain) for a route they do not have.
const routerNotFound = "404 page not found"

// releaseMissing maps the router's refusal of a route it does not have,
// for an operation that some supported release does not serve, to the
// *UnsupportedOperationError naming the releases that do, whether or not
// the version check is on: a server answers so for a route its release
// lacks (Forgejo 15 for the routes 16.0 added). The router's refusal is a
// 404 text/plain "404 page not found" (not a handler's JSON 404), or a 405
// with an empty body and an Allow header (the path is served for another
// method: DeleteActionRun on Forgejo 15). An operation every release
// serves keeps its plain *APIError.
func (c *Client) releaseMissing(op *Operation, e *APIError, header http.Header, bodyLen int) error {
	if op == nil || op.Since == "" || (op.Since == knownReleases[0] && op.Until == "") {
		return nil // every supported release serves it: the refusal is something else
	}
	switch e.StatusCode {
	case http.StatusNotFound:
		ct := strings.ToLower(strings.TrimSpace(header.Get("Content-Type")))
		if e.Message != routerNotFound || !strings.HasPrefix(ct, "text/plain") {
			return nil
		}
	case http.StatusMethodNotAllowed:
		if bodyLen != 0 || header.Get("Allow") == "" {
			return nil
		}
	default:
		return nil
	}
	ue := &UnsupportedOperationError{Operation: op.ID, Method: op.Service + "." + op.Name, Since: op.Since, Until: op.Until, API: e}
	if c.versions != nil {
		ue.ServerVersion = c.versions.peek().raw
	}
	return ue
}

// availability reports whether a server of release major.minor serves the
// operation, and the older form it serves it in (nil for the pinned form).
func (op *Operation) availability(major, minor int) (bool, *OperationForm) {
	lo, hi := -1, -1 // the newest known release at or below, the oldest at or above
	for i, rel := range knownReleases {
		ma, mi := releaseNumbers(rel)
		switch cmp := compareVersion(ma, mi, major, minor); {
		case cmp <= 0:
			lo = i
			if cmp == 0 {
				hi = i
			}
		case hi < 0:
			hi = i
		}
	}
	served := false
	for _, i := range []int{lo, hi} {
		if i >= 0 && op.servedBy(knownReleases[i]) {
			served = true
		}
	}
	if !served {
		return false, nil
	}
	at := lo
	if at < 0 || !op.servedBy(knownReleases[at]) {
		at = hi
	}
	for i := range op.Earlier {
		f := &op.Earlier[i]
		if inRange(knownReleases[at], f.Since, f.Until) {
			return true, f
		}
	}
	return true, nil
}

// servedBy reports whether a known release serves the operation.
func (op *Operation) servedBy(rel string) bool {
	return op.Since != "" && inRange(rel, op.Since, op.Until)
}

// inRange reports since <= rel <= until; an empty until is open.
func inRange(rel, since, until string) bool {
	ma, mi := releaseNumbers(rel)
	sa, si := releaseNumbers(since)
	if compareVersion(ma, mi, sa, si) < 0 {
		return false
	}
	if until == "" {
		return true
	}
	ua, ui := releaseNumbers(until)
	return compareVersion(ma, mi, ua, ui) <= 0
}

// releaseNumbers reads a "MAJOR.MINOR" release of the generated table.
func releaseNumbers(rel string) (int, int) {
	a, b, _ := strings.Cut(rel, ".")
	ma, _ := strconv.Atoi(a)
	mi, _ := strconv.Atoi(b)
	return ma, mi
}

func compareVersion(a1, b1, a2, b2 int) int {
	switch {
	case a1 != a2:
		return a1 - a2
	default:
		return b1 - b2
	}
}

// sameRoute reports whether two templates address the same URLs (they
// differ at most in their variables' names).
func sameRoute(a, b string) bool {
	return stripVars(a) == stripVars(b)
}

func stripVars(t string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			b.WriteString(t)
			return b.String()
		}
		j := strings.IndexByte(t[i:], '}')
		if j < 0 {
			b.WriteString(t)
			return b.String()
		}
		b.WriteString(t[:i] + "{}")
		t = t[i+j+1:]
	}
}

func templateVars(t string) []string {
	var out []string
	for {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(t[i:], '}')
		if j < 0 {
			return out
		}
		out = append(out, t[i+1:i+j])
		t = t[i+j+1:]
	}
}
