package forgejo

import (
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/internal/api"
)

// TestOperationScopesMatchTSV checks the scope of every operation against
// the table measured on Forgejo 15.0.3 (internal/api/forgejo-15-token-scopes.tsv),
// row by row, and the table's counts.
func TestOperationScopesMatchTSV(t *testing.T) {
	byID := map[string]Operation{}
	for _, op := range Operations() {
		byID[op.ID] = op
	}
	lines := strings.Split(strings.TrimRight(string(api.TokenScopesTSV), "\n"), "\n")
	if lines[0] != "operationId\tmethod\tpath\trequired_scopes\tcategory_source\tneeds_token\tnotes" {
		t.Fatalf("header %q", lines[0])
	}
	counts := map[string]int{}
	rows := map[string]bool{}
	for _, line := range lines[1:] {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		id, method, path, required := f[0], f[1], f[2], f[3]
		rows[id] = true
		switch {
		case required == "none" || required == "n/a":
			counts[required]++
		case strings.Contains(required, "|"):
			counts["by owner"]++
		case strings.Contains(required, ","):
			counts["all of two"]++
		default:
			counts["one"]++
		}
		op, ok := byID[id]
		if !ok {
			t.Errorf("%s: no operation", id)
			continue
		}
		if required == "n/a" {
			// The spec's method is not routed; the client sends the one
			// the server routes, whose scope was probed too.
			ov, ok := api.ScopeOverrides[id]
			if !ok || op.Method == method || op.Method != ov.Method || op.Scope.String() != ov.Required {
				t.Errorf("%s: measured n/a for %s; the client sends %s with scope %s (override %+v)", id, method, op.Method, op.Scope, ov)
			}
			continue
		}
		if op.Method != method || op.Path != path {
			t.Errorf("%s: measured %s %s, the table has %s %s", id, method, path, op.Method, op.Path)
		}
		if got := op.Scope.String(); got != required {
			t.Errorf("%s %s %s: scope %s, measured %s", id, method, path, got, required)
		}
	}
	want := map[string]int{"one": 453, "all of two": 17, "by owner": 1, "none": 18, "n/a": 2}
	for k, n := range want {
		if counts[k] != n {
			t.Errorf("%d operations measured %q, want %d", counts[k], k, n)
		}
	}
	if len(rows) != 491 {
		t.Errorf("%d rows, want 491", len(rows))
	}
	unknown := 0
	for _, op := range Operations() {
		if rows[op.ID] {
			continue
		}
		unknown++
		if op.Scope.Rule != ScopeUnknown || len(op.Scope.Scopes) != 0 || op.Since != "16.0" {
			t.Errorf("%s (since %s): not measured, yet scope %s", op.ID, op.Since, op.Scope)
		}
	}
	if unknown != 15 {
		t.Errorf("%d operations not measured, want 15", unknown)
	}
}

func TestScopeRequirementString(t *testing.T) {
	for _, tc := range []struct {
		r    ScopeRequirement
		want string
	}{
		{ScopeRequirement{}, "unknown"},
		{ScopeRequirement{Rule: ScopeNone}, "none"},
		{ScopeRequirement{Rule: ScopeAllOf, Scopes: []TokenScope{ScopeReadRepository}}, "read:repository"},
		{ScopeRequirement{Rule: ScopeAllOf, Scopes: []TokenScope{ScopeReadRepository, ScopeReadUser}}, "read:repository,read:user"},
		{ScopeRequirement{Rule: ScopeByOwner, Scopes: []TokenScope{ScopeWriteUser, ScopeWriteOrganization}}, "write:user|write:organization"},
	} {
		if got := tc.r.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.r, got, tc.want)
		}
	}
}

// SatisfiedBy judges a token as Forgejo does: write holds read, all holds
// every write scope, public-only and misc grant nothing a route checks, and
// every scope of a two-scope requirement is needed.
func TestScopeRequirementSatisfiedBy(t *testing.T) {
	one := ScopeRequirement{Rule: ScopeAllOf, Scopes: []TokenScope{ScopeReadRepository}}
	wr := ScopeRequirement{Rule: ScopeAllOf, Scopes: []TokenScope{ScopeWriteRepository}}
	two := ScopeRequirement{Rule: ScopeAllOf, Scopes: []TokenScope{ScopeReadOrganization, ScopeReadUser}}
	owner := ScopeRequirement{Rule: ScopeByOwner, Scopes: []TokenScope{ScopeWriteUser, ScopeWriteOrganization}}
	for _, tc := range []struct {
		name   string
		r      ScopeRequirement
		scopes []TokenScope
		want   bool
	}{
		{"read with read", one, []TokenScope{ScopeReadRepository}, true},
		{"read with write", one, []TokenScope{ScopeWriteRepository}, true},
		{"read with all", one, []TokenScope{ScopeAll}, true},
		{"read with another category", one, []TokenScope{ScopeWriteIssue, ScopeReadUser}, false},
		{"read with misc", one, []TokenScope{ScopeWriteMisc}, false},
		{"read with public-only alone", one, []TokenScope{ScopePublicOnly}, false},
		{"read with public-only and the scope", one, []TokenScope{ScopePublicOnly, ScopeReadRepository}, true},
		{"read with no token scope", one, nil, false},
		{"write with read", wr, []TokenScope{ScopeReadRepository}, false},
		{"write with write", wr, []TokenScope{ScopeWriteRepository}, true},
		{"two with one", two, []TokenScope{ScopeReadUser}, false},
		{"two with the other", two, []TokenScope{ScopeWriteOrganization}, false},
		{"two with both", two, []TokenScope{ScopeWriteOrganization, ScopeReadUser}, true},
		{"none with nothing", ScopeRequirement{Rule: ScopeNone}, nil, true},
		{"unknown with nothing", ScopeRequirement{}, nil, true},
		{"by owner with one", owner, []TokenScope{ScopeWriteUser}, false},
		{"by owner with both", owner, []TokenScope{ScopeWriteUser, ScopeWriteOrganization}, true},
		{"by owner, a user's, with write:user", owner.ForOwner(false), []TokenScope{ScopeWriteUser}, true},
		{"by owner, an org's, with write:user", owner.ForOwner(true), []TokenScope{ScopeWriteUser}, false},
		{"by owner, an org's, with write:repository", owner.ForOwner(true), []TokenScope{ScopeWriteRepository}, false},
		{"a malformed scope", ScopeRequirement{Rule: ScopeAllOf, Scopes: []TokenScope{"sudo"}}, []TokenScope{ScopeAll}, false},
	} {
		if got := tc.r.SatisfiedBy(tc.scopes...); got != tc.want {
			t.Errorf("%s: %s satisfied by %v: %v, want %v", tc.name, tc.r, tc.scopes, got, tc.want)
		}
	}
	if got := two.Missing(ScopeReadUser); len(got) != 1 || got[0] != ScopeReadOrganization {
		t.Errorf("Missing: %v", got)
	}
	if got := owner.ForOwner(true); got.Rule != ScopeAllOf || got.String() != "write:organization" {
		t.Errorf("ForOwner(true): %+v", got)
	}
	if got := one.ForOwner(true); got.String() != one.String() {
		t.Errorf("ForOwner on all-of: %+v", got)
	}
}
