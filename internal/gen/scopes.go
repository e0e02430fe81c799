package main

import (
	"fmt"
	"sort"
	"strings"

	"codeberg.org/forgego/forgejo/internal/api"
)

// scopeReq is an operation's token scope as the measured table states it.
type scopeReq struct {
	rule   string   // "ScopeAllOf", "ScopeByOwner", "ScopeNone" or "ScopeUnknown"
	scopes []string // as the table lists them
}

// loadScopes joins the measured token scopes (api.TokenScopesTSV) to the
// operations by operationId. It fails on a row whose method or path is not
// the operation's (unless api.ScopeOverrides explains it), on a row without
// an operation, on an unused override and on a value it cannot read. An
// operation without a row (newer than the measured release) is ScopeUnknown.
func loadScopes(ops []*opInfo) error {
	rows, err := api.ScopeRows()
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	used := map[string]bool{}
	for _, o := range ops {
		row, ok := rows[o.row.ID]
		if !ok {
			o.scope = scopeReq{rule: "ScopeUnknown"}
			continue
		}
		seen[o.row.ID] = true
		required := row.Required
		if ov, ok := api.ScopeOverrides[o.row.ID]; ok {
			if row.Required != "n/a" || ov.Method != o.spec.Verb || row.Method == o.spec.Verb {
				return fmt.Errorf("token scopes: the override of %s no longer applies (row %s %s: %s; the client sends %s)", o.row.ID, row.Method, row.Path, row.Required, o.spec.Verb)
			}
			used[o.row.ID] = true
			required = ov.Required
		} else if row.Method != o.spec.Verb || row.Path != o.spec.Path {
			return fmt.Errorf("token scopes: %s is %s %s in the table, %s %s in the client", o.row.ID, row.Method, row.Path, o.spec.Verb, o.spec.Path)
		}
		if o.scope, err = parseScopes(required); err != nil {
			return fmt.Errorf("token scopes: %s: %w", o.row.ID, err)
		}
	}
	var missing []string
	for id := range rows {
		if !seen[id] {
			missing = append(missing, id)
		}
	}
	for id := range api.ScopeOverrides {
		if !used[id] {
			missing = append(missing, id+" (override)")
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("token scopes: rows without an operation: %s", strings.Join(missing, ", "))
	}
	return nil
}

// parseScopes reads a required_scopes value.
func parseScopes(v string) (scopeReq, error) {
	switch {
	case v == "none":
		return scopeReq{rule: "ScopeNone"}, nil
	case v == "n/a" || v == "":
		return scopeReq{}, fmt.Errorf("%q: no scope for the method the client sends", v)
	}
	rule, sep := "ScopeAllOf", ","
	if strings.Contains(v, "|") {
		rule, sep = "ScopeByOwner", "|"
	}
	parts := strings.Split(v, sep)
	for _, p := range parts {
		if scopeConst(p) == "" {
			return scopeReq{}, fmt.Errorf("%q: unknown scope %q", v, p)
		}
	}
	return scopeReq{rule: rule, scopes: parts}, nil
}

// scopeConst is the Go constant of a scope ("read:repository" is
// ScopeReadRepository), "" for an unknown one.
func scopeConst(s string) string {
	level, cat, ok := strings.Cut(s, ":")
	if !ok || (level != "read" && level != "write") {
		return ""
	}
	name := map[string]string{"activitypub": "ActivityPub", "admin": "Admin", "issue": "Issue", "misc": "Misc",
		"notification": "Notification", "organization": "Organization", "package": "Package",
		"repository": "Repository", "user": "User"}[cat]
	if name == "" {
		return ""
	}
	return "Scope" + strings.ToUpper(level[:1]) + level[1:] + name
}

// scopeLiteral is the Go value of an operation's scope in the table.
func scopeLiteral(o *opInfo) string {
	if len(o.scope.scopes) == 0 {
		return fmt.Sprintf("ScopeRequirement{Rule: %s}", o.scope.rule)
	}
	consts := make([]string, len(o.scope.scopes))
	for i, s := range o.scope.scopes {
		consts[i] = scopeConst(s)
	}
	return fmt.Sprintf("ScopeRequirement{Rule: %s, Scopes: []TokenScope{%s}}", o.scope.rule, strings.Join(consts, ", "))
}

// scopeDoc is the token-scope sentence of a method's doc comment.
func scopeDoc(o *opInfo) string {
	s := o.scope.scopes
	switch o.scope.rule {
	case "ScopeNone":
		return "Token scope: none."
	case "ScopeAllOf":
		if len(s) == 1 {
			return "Token scope: " + s[0] + "."
		}
		return "Token scopes: " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1] + ", all of them."
	case "ScopeByOwner":
		return fmt.Sprintf("Token scope: %s for a user's repository, %s for an organization's.", s[0], s[1])
	}
	return "Token scope: not measured (the operation is newer than Forgejo 15.0)."
}
