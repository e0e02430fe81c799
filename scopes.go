package forgejo

import "strings"

// This file describes token scopes: the scopes an access token carries, and
// the scope each operation requires (Operation.Scope, filled in by
// operations_gen.go from the measured table in internal/api).

// TokenScope is a scope an access token carries, as the server names it
// ("read:repository"). A write scope includes its read scope; "all" holds
// every write scope.
type TokenScope string

// The scopes Forgejo grants, by category. No route of Forgejo 15 checks the
// misc category.
const (
	ScopeAll TokenScope = "all"

	ScopeReadActivityPub   TokenScope = "read:activitypub"
	ScopeWriteActivityPub  TokenScope = "write:activitypub"
	ScopeReadAdmin         TokenScope = "read:admin"
	ScopeWriteAdmin        TokenScope = "write:admin"
	ScopeReadIssue         TokenScope = "read:issue"
	ScopeWriteIssue        TokenScope = "write:issue"
	ScopeReadMisc          TokenScope = "read:misc"
	ScopeWriteMisc         TokenScope = "write:misc"
	ScopeReadNotification  TokenScope = "read:notification"
	ScopeWriteNotification TokenScope = "write:notification"
	ScopeReadOrganization  TokenScope = "read:organization"
	ScopeWriteOrganization TokenScope = "write:organization"
	ScopeReadPackage       TokenScope = "read:package"
	ScopeWritePackage      TokenScope = "write:package"
	ScopeReadRepository    TokenScope = "read:repository"
	ScopeWriteRepository   TokenScope = "write:repository"
	ScopeReadUser          TokenScope = "read:user"
	ScopeWriteUser         TokenScope = "write:user"

	// ScopePublicOnly is a modifier, not a permission: with a category's
	// scope it limits the token to public resources; alone it grants no
	// category.
	ScopePublicOnly TokenScope = "public-only"
)

// ScopeRule says how an operation's [ScopeRequirement] reads.
type ScopeRule int

const (
	// ScopeUnknown: the scope was not measured (the operation is newer
	// than Forgejo 15.0, where it was measured).
	ScopeUnknown ScopeRule = iota
	// ScopeAllOf: the token needs every scope listed.
	ScopeAllOf
	// ScopeByOwner: the token needs one of the scopes listed, depending on
	// who owns the repository: the first for a user's, the second for an
	// organization's (Repos.Delete: write:user or write:organization).
	ScopeByOwner
	// ScopeNone: no scope is checked; any token, or none, passes it.
	ScopeNone
)

// String names the rule.
func (r ScopeRule) String() string {
	switch r {
	case ScopeAllOf:
		return "all-of"
	case ScopeByOwner:
		return "by-owner"
	case ScopeNone:
		return "none"
	default:
		return "unknown"
	}
}

// ScopeRequirement is the token scope an operation requires, as measured on
// Forgejo 15.0.3. Scope checks apply to access tokens (and OAuth2 tokens)
// only: a call with a password, or with no credential, is never refused for
// a scope, but a token is checked even on routes anonymous callers may read.
type ScopeRequirement struct {
	// Rule says how Scopes are required.
	Rule ScopeRule
	// Scopes are the scopes named: all of them required with ScopeAllOf,
	// one by the repository's owner with ScopeByOwner, none otherwise.
	Scopes []TokenScope
}

// String renders the requirement as the measured table does:
// "read:repository", "read:repository,read:user" (all of them),
// "write:user|write:organization" (one, by owner), "none", or "unknown".
func (r ScopeRequirement) String() string {
	sep := ","
	switch r.Rule {
	case ScopeNone:
		return "none"
	case ScopeUnknown:
		return "unknown"
	case ScopeByOwner:
		sep = "|"
	}
	var b strings.Builder
	for i, s := range r.Scopes {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(string(s))
	}
	return b.String()
}

// SatisfiedBy reports whether an access token carrying scopes passes the
// requirement, judged as Forgejo judges it: a write scope includes its read
// scope, [ScopeAll] holds every write scope, and [ScopePublicOnly] grants
// nothing by itself. [ScopeNone] and [ScopeUnknown] are satisfied by any
// token (nothing measured refuses them). A [ScopeByOwner] requirement is
// satisfied only by a token that passes whoever owns the repository; call
// [ScopeRequirement.ForOwner] first when the owner is known.
func (r ScopeRequirement) SatisfiedBy(scopes ...TokenScope) bool {
	return len(r.Missing(scopes...)) == 0
}

// Missing lists, in the requirement's order, the scopes a token carrying
// scopes would have to gain to pass the requirement; nil when it passes
// (see [ScopeRequirement.SatisfiedBy] for how scopes are judged).
func (r ScopeRequirement) Missing(scopes ...TokenScope) []TokenScope {
	if r.Rule != ScopeAllOf && r.Rule != ScopeByOwner {
		return nil
	}
	var out []TokenScope
	for _, need := range r.Scopes {
		if !grants(scopes, need) {
			out = append(out, need)
		}
	}
	return out
}

// ForOwner resolves a [ScopeByOwner] requirement for a repository owned by
// an organization (org true) or by a user: the result is [ScopeAllOf] the
// one scope that applies. Any other requirement is returned unchanged.
func (r ScopeRequirement) ForOwner(org bool) ScopeRequirement {
	if r.Rule != ScopeByOwner || len(r.Scopes) != 2 {
		return r
	}
	i := 0
	if org {
		i = 1
	}
	return ScopeRequirement{Rule: ScopeAllOf, Scopes: []TokenScope{r.Scopes[i]}}
}

// grants reports whether a token carrying have passes a check for need.
func grants(have []TokenScope, need TokenScope) bool {
	level, category, ok := strings.Cut(string(need), ":")
	if !ok {
		return false
	}
	for _, h := range have {
		switch h {
		case ScopeAll, need:
			return true
		case TokenScope("write:" + category):
			if level == "read" {
				return true
			}
		}
	}
	return false
}
