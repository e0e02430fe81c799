package forgejotest

import (
	"encoding/base64"
	"net/http"
	"slices"
	"strings"
	"sync"

	forgejo "codeberg.org/forgego/forgejo"
)

// This file checks access tokens' scopes, in one place for every route, as
// Forgejo 15 does: the requirement of each operation is the library's
// (forgejo.Operation.Scope, measured on Forgejo 15.0.3), judged by
// forgejo.ScopeRequirement.SatisfiedBy. Only tokens minted with scopes
// (POST /users/{username}/tokens, Server.AddToken) are checked: a password,
// no credential, and the tokens of Server.Token and AddUser (which act as
// "all") never meet a scope refusal. It also narrows what a
// repository-restricted or public-only token reaches.

// scopeCheck is one tokenRequiresScopes of Forgejo's router: a token
// lacking any of scopes is refused, and the refusal lists all of them.
type scopeCheck struct {
	scopes []forgejo.TokenScope
	// afterLookup: the check runs after the repository is looked up, so a
	// repository the caller cannot see answers its 404 first.
	afterLookup bool
}

// nestedScopes are the operations that need two scopes, checked in the
// order Forgejo's router checks them. The measured table lists each pair
// alphabetically, but the refusal names only the first check that fails
// (a read:repository token on GET /user/repos is told [read:user]), and a
// check naming two categories lists them in the router's order ([read:user
// read:organization]). Order and grouping follow the route-group section of
// the measurement: /user/** and /users/{username}/** check user, then the
// nested repository check; /user/orgs, /users/{username}/orgs and POST
// /org/{org}/repos are one check naming both; the flags routes check
// repository, then admin once the repository is found.
// TestNestedScopesMatchOperations holds each entry to the library's table.
var nestedScopes = map[string][]scopeCheck{
	"userCurrentListRepos":     readUserThenRepo,
	"userListRepos":            readUserThenRepo,
	"userCurrentListStarred":   readUserThenRepo,
	"userCurrentCheckStarring": readUserThenRepo,
	"createCurrentUserRepo":    writeUserThenRepo,
	"userCurrentPutStar":       writeUserThenRepo,
	"userCurrentDeleteStar":    writeUserThenRepo,
	"orgListCurrentUserOrgs":   {{scopes: []forgejo.TokenScope{forgejo.ScopeReadUser, forgejo.ScopeReadOrganization}}},
	"orgListUserOrgs":          {{scopes: []forgejo.TokenScope{forgejo.ScopeReadUser, forgejo.ScopeReadOrganization}}},
	"orgGetUserPermissions":    {{scopes: []forgejo.TokenScope{forgejo.ScopeReadUser, forgejo.ScopeReadOrganization}}},
	"createOrgRepoDeprecated":  {{scopes: []forgejo.TokenScope{forgejo.ScopeWriteOrganization, forgejo.ScopeWriteRepository}}},
	"repoListFlags":            readRepoThenAdmin,
	"repoCheckFlag":            readRepoThenAdmin,
	"repoReplaceAllFlags":      writeRepoThenAdmin,
	"repoDeleteAllFlags":       writeRepoThenAdmin,
	"repoAddFlag":              writeRepoThenAdmin,
	"repoDeleteFlag":           writeRepoThenAdmin,
}

var (
	readUserThenRepo   = []scopeCheck{{scopes: []forgejo.TokenScope{forgejo.ScopeReadUser}}, {scopes: []forgejo.TokenScope{forgejo.ScopeReadRepository}}}
	writeUserThenRepo  = []scopeCheck{{scopes: []forgejo.TokenScope{forgejo.ScopeWriteUser}}, {scopes: []forgejo.TokenScope{forgejo.ScopeWriteRepository}}}
	readRepoThenAdmin  = []scopeCheck{{scopes: []forgejo.TokenScope{forgejo.ScopeReadRepository}}, {scopes: []forgejo.TokenScope{forgejo.ScopeReadAdmin}, afterLookup: true}}
	writeRepoThenAdmin = []scopeCheck{{scopes: []forgejo.TokenScope{forgejo.ScopeWriteRepository}}, {scopes: []forgejo.TokenScope{forgejo.ScopeWriteAdmin}, afterLookup: true}}
)

var (
	opScopesOnce sync.Once
	opScopes     map[string]forgejo.Operation
)

// operationByID is the library's operation of an operationId.
func operationByID(id string) (forgejo.Operation, bool) {
	opScopesOnce.Do(func() {
		opScopes = map[string]forgejo.Operation{}
		for _, op := range forgejo.Operations() {
			opScopes[op.ID] = op
		}
	})
	op, ok := opScopes[id]
	return op, ok
}

// groupScope is the scope Forgejo's route groups would ask of an operation
// newer than the measurement (forgejo.ScopeUnknown): the category of its
// group (repository, admin or user), read for GET, write otherwise. Other
// groups are left unchecked.
func groupScope(method, path string) []scopeCheck {
	var cat string
	switch {
	case strings.HasPrefix(path, "/repos/"):
		cat = "repository"
	case strings.HasPrefix(path, "/admin/"):
		cat = "admin"
	case path == "/user" || strings.HasPrefix(path, "/user/") || strings.HasPrefix(path, "/users/"):
		cat = "user"
	default:
		return nil
	}
	level := "write:"
	if method == http.MethodGet {
		level = "read:"
	}
	return []scopeCheck{{scopes: []forgejo.TokenScope{forgejo.TokenScope(level + cat)}}}
}

// scopeChecks are the checks a call of op meets, in the router's order.
func (c *call) scopeChecks(op forgejo.Operation) []scopeCheck {
	if checks, ok := nestedScopes[op.ID]; ok {
		return checks
	}
	switch op.Scope.Rule {
	case forgejo.ScopeAllOf:
		return []scopeCheck{{scopes: op.Scope.Scopes}}
	case forgejo.ScopeByOwner:
		// The repository is looked up first: one the caller cannot see
		// answers the handler's 404 to every token.
		r := c.st.repo(c.p["owner"], c.p["repo"])
		if r == nil || !canRead(c.user, r) {
			return nil
		}
		return []scopeCheck{{scopes: op.Scope.ForOwner(r.owner.org != nil).Scopes}}
	case forgejo.ScopeUnknown:
		return groupScope(op.Method, op.Path)
	}
	return nil
}

// callerToken is the minted access token the request authenticated with
// ("token", "Bearer", or the password of Basic auth), nil for anything
// else.
func (s *Server) callerToken(r *http.Request, u *user) *accessToken {
	if u == nil {
		return nil
	}
	scheme, cred, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	cred = strings.TrimSpace(cred)
	if strings.EqualFold(scheme, "basic") {
		raw, err := base64.StdEncoding.DecodeString(cred)
		if err != nil {
			return nil
		}
		_, cred, _ = strings.Cut(string(raw), ":")
	}
	if s.st.tokens[cred] != u {
		return nil
	}
	for _, t := range s.st.accounts.tokens {
		if t.sha == cred {
			return t
		}
	}
	return nil
}

// bindToken makes the caller's minted token, if any, narrow what the
// caller reaches for the rest of the call (see access), and returns the
// function that undoes it. Calls run one at a time under Server.mu, so the
// narrowing is seen by this call only.
func (c *call) bindToken() func() {
	t := c.s.callerToken(c.r, c.user)
	if t == nil {
		return func() {}
	}
	u := c.user
	u.grant = t
	return func() { u.grant = nil }
}

// scopeRefused answers Forgejo's 403 when the caller's token lacks a scope
// the operation op requires, or when a public-only token reaches for a
// private organization or user, and reports whether it did.
func (c *call) scopeRefused(opID string) bool {
	t := c.user.grantOrNil()
	if t == nil {
		return false
	}
	op, ok := operationByID(opID)
	if !ok {
		return false
	}
	have := make([]forgejo.TokenScope, len(t.scopes))
	for i, s := range t.scopes {
		have[i] = forgejo.TokenScope(s)
	}
	checks := c.scopeChecks(op)
	for _, ch := range checks {
		if ch.afterLookup {
			if r := c.st.repo(c.p["owner"], c.p["repo"]); r == nil || !canRead(c.user, r) {
				break // the handler's 404 comes first
			}
		}
		if req := (forgejo.ScopeRequirement{Rule: forgejo.ScopeAllOf, Scopes: ch.scopes}); !req.SatisfiedBy(have...) {
			names := make([]string, len(ch.scopes))
			for i, s := range ch.scopes {
				names[i] = string(s)
			}
			c.fail(http.StatusForbidden, "token does not have at least one of required scope(s): ["+strings.Join(names, " ")+"]")
			return true
		}
	}
	if slices.Contains(t.scopes, string(forgejo.ScopePublicOnly)) {
		return c.publicOnlyRefused(checks)
	}
	return false
}

// publicOnlyRefused is Forgejo's checkTokenPublicOnly for the organization
// and user categories: a public-only token is refused a private or limited
// organization, and a user who is not public. (Private repositories are
// hidden by access instead, answering 404, as Forgejo's permission layer
// does before this check.)
func (c *call) publicOnlyRefused(checks []scopeCheck) bool {
	wants := func(cat string) bool {
		for _, ch := range checks {
			for _, s := range ch.scopes {
				if strings.HasSuffix(string(s), ":"+cat) {
					return true
				}
			}
		}
		return false
	}
	if name, ok := c.p["org"]; ok && wants("organization") {
		if o := c.st.user(name); o != nil && o.org != nil && o.org.visibility != "public" {
			c.fail(http.StatusForbidden, "token scope is limited to public orgs")
			return true
		}
	}
	if name, ok := c.p["username"]; ok && wants("user") && strings.HasPrefix(c.r.URL.Path, "/api/v1/users/") {
		if u := c.st.user(name); u != nil && u.org == nil {
			if p := c.st.accounts.profiles[u]; p != nil && p.visibility != "" && p.visibility != "public" {
				c.fail(http.StatusForbidden, "token scope is limited to public users")
				return true
			}
		}
	}
	return false
}

// grantOrNil is the token narrowing u's current call, nil for none.
func (u *user) grantOrNil() *accessToken {
	if u == nil {
		return nil
	}
	return u.grant
}

// access is what u may do in r (userAccess), narrowed by the token of the
// current call: a repository-restricted token reaches its repositories up
// to write (never the owner's administration), other public repositories
// to read, and no private one; a public-only token no private repository.
func access(u *user, r *repo) int {
	a := userAccess(u, r)
	t := u.grantOrNil()
	if t == nil {
		return a
	}
	if slices.Contains(t.scopes, string(forgejo.ScopePublicOnly)) && r.private {
		return accessNone
	}
	if t.repos == nil {
		return a
	}
	switch {
	case slices.Contains(t.repos, r):
		return min(a, accessWrite)
	case !r.private:
		return min(a, accessRead)
	}
	return accessNone
}

// repoTarget names a repository in a token request.
type repoTarget struct {
	Owner string `json:"owner"`
	Name  string `json:"name"`
}

// tokenRepositories validates the repositories of a token request as
// Forgejo 15 does, answering its 400 and returning false when they do not
// do; nil targets (no "repositories") make an unrestricted token.
func (c *call) tokenRepositories(owner *user, targets *[]repoTarget, scopes []string) ([]*repo, bool) {
	if targets == nil {
		return nil, true
	}
	msg := restrictedScopesProblem(scopes, len(*targets))
	if msg != "" {
		c.fail(http.StatusBadRequest, msg)
		return nil, false
	}
	var out []*repo
	for _, tg := range *targets {
		r := c.st.repo(tg.Owner, tg.Name)
		if r == nil || userAccess(owner, r) < accessRead {
			c.fail(http.StatusBadRequest, "repository "+tg.Owner+"/"+tg.Name+" does not exist")
			return nil, false
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out, true
}

// restrictedScopesProblem is Forgejo's refusal of a repository-restricted
// token's scopes (normalized) and repository count, "" when they are fine.
func restrictedScopesProblem(scopes []string, repos int) string {
	if repos == 0 {
		return "Access tokens with specified repositories must have at least one repository."
	}
	if slices.Contains(scopes, string(forgejo.ScopePublicOnly)) {
		return "Access tokens with specified repositories cannot be combined with the public-only scope."
	}
	for _, s := range scopes {
		switch forgejo.TokenScope(s) {
		case forgejo.ScopeReadIssue, forgejo.ScopeWriteIssue, forgejo.ScopeReadRepository, forgejo.ScopeWriteRepository:
		default:
			return "Access tokens with specified repositories can only be used with the read:issue, write:issue, read:repository, and write:repository scopes."
		}
	}
	return ""
}

// renderTokenRepos lists a token's repositories; nil (JSON null) for an
// unrestricted token, as Forgejo 15 answers.
func renderTokenRepos(repos []*repo) []*wRepoMeta {
	if repos == nil {
		return nil
	}
	out := make([]*wRepoMeta, 0, len(repos))
	for _, r := range repos {
		out = append(out, &wRepoMeta{ID: r.id, Name: r.name, Owner: r.owner.login, FullName: r.owner.login + "/" + r.name})
	}
	return out
}

// AddToken mints an access token for the user login carrying scopes, as
// POST /users/{username}/tokens does, and returns it. Unlike the tokens of
// [Server.Token] and [Server.AddUser], which carry every scope, it is held
// to its scopes on every route as Forgejo 15 holds it: a route needing a
// scope the token lacks answers 403 "token does not have at least one of
// required scope(s): [read:user]", which the client returns as a
// [*forgejo.ScopeError]. Scopes are normalized as Forgejo does (write holds
// read; the nine write scopes are "all"); [forgejo.ScopePublicOnly] hides
// private repositories, organizations and users from the token. An unknown
// user or scope, or no scope, fails the test (or panics, for a server from
// [Start]).
func (s *Server) AddToken(login string, scopes ...forgejo.TokenScope) string {
	if s.tb != nil {
		s.tb.Helper()
	}
	return s.mintToken("AddToken", login, nil, scopes)
}

// AddRepositoryToken mints a repository-restricted access token for the
// user login, as Forgejo 15 does when the token request lists
// "repositories": it reaches repos ("owner/name", which must exist and be
// visible to the user) within scopes, other public repositories for
// reading only, and no other private one; only [forgejo.ScopeReadIssue],
// [forgejo.ScopeWriteIssue], [forgejo.ScopeReadRepository] and
// [forgejo.ScopeWriteRepository] are allowed, so every user, organization,
// administration, notification and package route refuses it (GET /user
// answers 403 [read:user]). Even on its repositories it does not carry the
// owner's administration. Bad arguments fail the test (or panic, for a
// server from [Start]).
func (s *Server) AddRepositoryToken(login string, repos []string, scopes ...forgejo.TokenScope) string {
	if s.tb != nil {
		s.tb.Helper()
	}
	if repos == nil {
		repos = []string{}
	}
	return s.mintToken("AddRepositoryToken", login, repos, scopes)
}

func (s *Server) mintToken(fn, login string, repos []string, scopes []forgejo.TokenScope) string {
	if s.tb != nil {
		s.tb.Helper()
	}
	s.mu.Lock()
	u := s.st.user(login)
	raw := make([]string, len(scopes))
	for i, sc := range scopes {
		raw[i] = string(sc)
	}
	norm, msg := normalizeScopes(raw)
	switch {
	case u == nil || u.org != nil:
		msg = "no user " + login
	case msg == "" && len(norm) == 0:
		msg = "access token must have a scope"
	case msg == "" && repos != nil:
		msg = restrictedScopesProblem(norm, len(repos))
	}
	var restricted []*repo
	for _, full := range repos {
		if msg != "" {
			break
		}
		owner, name, _ := strings.Cut(full, "/")
		r := s.st.repo(owner, name)
		if r == nil || userAccess(u, r) < accessRead {
			msg = "repository " + full + " does not exist"
			break
		}
		restricted = append(restricted, r)
	}
	if msg != "" {
		s.mu.Unlock()
		s.fatalf("%s: %s", fn, msg)
		return ""
	}
	if repos != nil && restricted == nil {
		restricted = []*repo{}
	}
	t := &accessToken{id: s.st.id("token"), owner: u, sha: s.st.newToken(u), scopes: norm, repos: restricted, created: s.now()}
	t.name = "forgejotest-" + t.sha[:8]
	s.st.accounts.tokens = append(s.st.accounts.tokens, t)
	s.mu.Unlock()
	return t.sha
}
