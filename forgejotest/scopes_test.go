package forgejotest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
)

// refusal is Forgejo 15's message for a token lacking scopes.
func refusal(scopes ...string) string {
	return "token does not have at least one of required scope(s): [" + strings.Join(scopes, " ") + "]"
}

// isRefusal reports whether an answer is a scope refusal, of any scopes.
func isRefusal(status int, body []byte) bool {
	return status == http.StatusForbidden && strings.HasPrefix(message(body), "token does not have at least one of required scope(s):")
}

// One route of each category, at each level, as the measurement on Forgejo
// 15.0.3 found: a token of another category is refused the route's scope,
// a read scope is refused a write route, and write (or all) passes read.
func TestScopesByCategoryAndLevel(t *testing.T) {
	srv := NewServer(t)
	me := srv.DefaultUser()
	srv.SetAdmin(me, true)
	srv.AddRepo(me, "demo")
	ctx := context.Background()
	if _, _, err := srv.Client().Orgs.Create(ctx, forgejo.CreateOrgRequest{Username: "acme"}); err != nil {
		t.Fatal(err)
	}
	misc := srv.AddToken(me, forgejo.ScopeWriteMisc) // no route checks misc
	all := srv.AddToken(me, forgejo.ScopeAll)
	for _, tc := range []struct {
		method, path string
		body         any
		category     string
	}{
		{"GET", "/repos/" + me + "/demo", nil, "repository"},
		{"DELETE", "/repos/" + me + "/demo/branches/nonexistent-xyz", nil, "repository"},
		{"GET", "/repos/" + me + "/demo/issues", nil, "issue"},
		{"DELETE", "/repos/" + me + "/demo/labels/999999", nil, "issue"},
		{"GET", "/user", nil, "user"},
		{"PATCH", "/user/settings", map[string]any{}, "user"},
		{"GET", "/orgs/acme", nil, "organization"},
		{"PATCH", "/orgs/acme", map[string]any{}, "organization"},
		{"GET", "/admin/cron", nil, "admin"},
		{"DELETE", "/admin/users/nonexistent-xyz", nil, "admin"},
		{"GET", "/packages/" + me, nil, "package"},
		{"DELETE", "/packages/" + me + "/generic/nonexistent-xyz/1.0.0", nil, "package"},
		{"GET", "/notifications", nil, "notification"},
		{"PUT", "/notifications", nil, "notification"},
	} {
		level := "write"
		if tc.method == "GET" {
			level = "read"
		}
		need := level + ":" + tc.category
		name := tc.method + " " + tc.path
		st, h, body := rawCall(t, srv, tc.method, tc.path, "token "+misc, tc.body)
		var b map[string]any
		_ = json.Unmarshal(body, &b)
		if st != 403 || message(body) != refusal(need) || b["url"] != srv.URL+"/api/swagger" || len(b) != 2 ||
			h.Get("Content-Type") != "application/json;charset=utf-8" {
			t.Errorf("%s with write:misc: %d %s %s, want 403 %q", name, st, h.Get("Content-Type"), body, refusal(need))
		}
		if level == "write" {
			read := srv.AddToken(me, forgejo.TokenScope("read:"+tc.category))
			if st, _, body := rawCall(t, srv, tc.method, tc.path, "token "+read, tc.body); st != 403 || message(body) != refusal(need) {
				t.Errorf("%s with read:%s: %d %s", name, tc.category, st, body)
			}
		} else {
			read := srv.AddToken(me, forgejo.TokenScope(need))
			if st, _, body := rawCall(t, srv, tc.method, tc.path, "token "+read, tc.body); isRefusal(st, body) {
				t.Errorf("%s with %s: %d %s", name, need, st, body)
			}
		}
		write := srv.AddToken(me, forgejo.TokenScope("write:"+tc.category), forgejo.ScopeReadMisc)
		for _, tok := range []string{write, all} {
			if st, _, body := rawCall(t, srv, tc.method, tc.path, "token "+tok, tc.body); isRefusal(st, body) {
				t.Errorf("%s with write:%s or all: %d %s", name, tc.category, st, body)
			}
		}
	}
	// Routes that need no scope pass any token.
	for _, p := range []string{"/version", "/settings/api", "/licenses"} {
		if st, _, body := rawCall(t, srv, "GET", p, "token "+misc, nil); st != 200 {
			t.Errorf("GET %s with write:misc: %d %s", p, st, body)
		}
	}
	if st, _, body := rawCall(t, srv, "POST", "/markdown", "token "+misc, map[string]any{"text": "hi"}); st != 200 {
		t.Errorf("POST /markdown with write:misc: %d %s", st, body)
	}
}

// Every route the fake implements checks its operation's scope before its
// handler runs: a token that grants no checked category (write:misc) is
// told the first scope the operation needs, even where the path names
// nothing that exists, and an "all" token is never scope-refused.
func TestScopesOnEveryRoute(t *testing.T) {
	srv := NewServer(t)
	me := srv.DefaultUser()
	srv.SetAdmin(me, true)
	misc := srv.AddToken(me, forgejo.ScopeWriteMisc)
	readAll := srv.AddToken(me, "read:activitypub", "read:admin", "read:issue", "read:notification", "read:organization",
		"read:package", "read:repository", "read:user")
	all := srv.AddToken(me, forgejo.ScopeAll)
	checked, unchecked := 0, 0
	for _, rt := range routeTable() {
		op, ok := operationByID(rt.op)
		if !ok {
			t.Errorf("%s: not in the library's table", rt.op)
			continue
		}
		path := paramRE.ReplaceAllString(rt.path, "zz9")
		if res := srv.resolve(rt.method, path); res.op != rt.op {
			t.Errorf("%s %s routes to %q, not %s", rt.method, path, res.op, rt.op)
			continue
		}
		var first []forgejo.TokenScope
		switch {
		case nestedScopes[rt.op] != nil:
			first = nestedScopes[rt.op][0].scopes
		case op.Scope.Rule == forgejo.ScopeAllOf:
			first = op.Scope.Scopes
		case op.Scope.Rule == forgejo.ScopeUnknown:
			if g := groupScope(op.Method, op.Path); g != nil {
				first = g[0].scopes
			}
		}
		st, _, body := rawCall(t, srv, rt.method, path, "token "+misc, map[string]any{})
		if first == nil {
			unchecked++
			if isRefusal(st, body) {
				t.Errorf("%s %s (scope %s) with write:misc: %d %s", rt.method, rt.path, op.Scope, st, body)
			}
		} else {
			checked++
			names := make([]string, len(first))
			for i, s := range first {
				names[i] = string(s)
			}
			if st != 403 || message(body) != refusal(names...) {
				t.Errorf("%s %s (scope %s) with write:misc: %d %s, want %q", rt.method, rt.path, op.Scope, st, body, refusal(names...))
			}
		}
		if rt.method != "GET" && first != nil {
			if st, _, body := rawCall(t, srv, rt.method, path, "token "+readAll, map[string]any{}); !isRefusal(st, body) || !strings.Contains(message(body), "write:") {
				t.Errorf("%s %s with every read scope: %d %s, want a write scope refused", rt.method, rt.path, st, body)
			}
		}
		if rt.method == "GET" || rt.method == "DELETE" { // harmless on names that do not exist
			if st, _, body := rawCall(t, srv, rt.method, path, "token "+all, nil); isRefusal(st, body) {
				t.Errorf("%s %s with all: %d %s", rt.method, rt.path, st, body)
			}
		}
	}
	if checked < 400 {
		t.Errorf("only %d routes checked a scope (%d did not)", checked, unchecked)
	}
	t.Logf("%d routes check a scope, %d need none", checked, unchecked)
}

// Where two checks are nested, Forgejo names only the first that fails;
// where one check names two categories, the refusal lists both, in the
// router's order, whichever the token lacks.
func TestScopesNestedOrder(t *testing.T) {
	srv := NewServer(t)
	me := srv.DefaultUser()
	srv.SetAdmin(me, true)
	if _, _, err := srv.Client().Orgs.Create(context.Background(), forgejo.CreateOrgRequest{Username: "acme"}); err != nil {
		t.Fatal(err)
	}
	repo := srv.AddToken(me, forgejo.ScopeReadRepository)
	usr := srv.AddToken(me, forgejo.ScopeReadUser)
	org := srv.AddToken(me, forgejo.ScopeWriteOrganization)
	both := srv.AddToken(me, forgejo.ScopeReadUser, forgejo.ScopeReadRepository)
	for _, tc := range []struct {
		method, path, token string
		want                string // "" passes the scope checks
	}{
		{"GET", "/user/repos", repo, refusal("read:user")},
		{"GET", "/user/repos", usr, refusal("read:repository")},
		{"GET", "/user/repos", both, ""},
		{"GET", "/users/" + me + "/repos", repo, refusal("read:user")},
		{"GET", "/user/starred", usr, refusal("read:repository")},
		{"POST", "/user/repos", both, refusal("write:user")},
		{"GET", "/user/orgs", usr, refusal("read:user", "read:organization")},
		{"GET", "/user/orgs", org, refusal("read:user", "read:organization")},
		{"GET", "/users/" + me + "/orgs", repo, refusal("read:user", "read:organization")},
		{"GET", "/users/" + me + "/orgs/acme/permissions", org, refusal("read:user", "read:organization")},
		{"GET", "/user/starred/" + me + "/x", repo, refusal("read:user")},
	} {
		st, _, body := rawCall(t, srv, tc.method, tc.path, "token "+tc.token, map[string]any{"name": "x"})
		if tc.want == "" && isRefusal(st, body) || tc.want != "" && (st != 403 || message(body) != tc.want) {
			t.Errorf("%s %s: %d %s, want %q", tc.method, tc.path, st, body, tc.want)
		}
	}
}

// Each entry of the nested table names exactly the scopes the library's
// table gives the operation, and every two-scope operation has an entry.
func TestNestedScopesMatchOperations(t *testing.T) {
	for _, op := range forgejo.Operations() {
		checks, ok := nestedScopes[op.ID]
		if op.Scope.Rule == forgejo.ScopeAllOf && len(op.Scope.Scopes) > 1 && !ok {
			t.Errorf("%s needs %s: no order for its checks", op.ID, op.Scope)
		}
		if !ok {
			continue
		}
		var got []forgejo.TokenScope
		for _, ch := range checks {
			got = append(got, ch.scopes...)
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(op.Scope.Scopes))
		if op.Scope.Rule != forgejo.ScopeAllOf || !slices.Equal(got, want) {
			t.Errorf("%s: checks %v, the table %s", op.ID, got, op.Scope)
		}
	}
	for id := range nestedScopes {
		if _, ok := operationByID(id); !ok {
			t.Errorf("%s: no such operation", id)
		}
	}
}

// A token is scope-checked on public routes too: a narrow token loses
// reads an anonymous caller has. A password carries no scope, and a token
// sent as the Basic password is a token.
func TestScopesOnPublicRoutes(t *testing.T) {
	srv := NewServer(t)
	me := srv.DefaultUser()
	srv.AddRepo(me, "demo")
	misc := srv.AddToken(me, forgejo.ScopeWriteMisc)
	p := "/repos/" + me + "/demo"
	if st, _, body := rawCall(t, srv, "GET", p, "", nil); st != 200 {
		t.Errorf("anonymous: %d %s", st, body)
	}
	for _, authz := range []string{"token " + misc, "Bearer " + misc, basicAuth(me, misc)} {
		if st, _, body := rawCall(t, srv, "GET", p, authz, nil); st != 403 || message(body) != refusal("read:repository") {
			t.Errorf("%s: %d %s", strings.Fields(authz)[0], st, body)
		}
	}
	if st, _, body := rawCall(t, srv, "GET", p, "token "+srv.AddToken(me, forgejo.ScopeReadRepository), nil); st != 200 {
		t.Errorf("read:repository: %d %s", st, body)
	}
	// A password carries no scope.
	srv.SetAdmin(me, true)
	f := false
	if _, _, err := srv.Client().Admin.CreateUser(context.Background(), forgejo.CreateUserRequest{Username: "bot",
		Email: "bot@example.org", Password: "bot-Passw0rd", MustChangePassword: &f}); err != nil {
		t.Fatal(err)
	}
	if st, _, body := rawCall(t, srv, "GET", p, basicAuth("bot", "bot-Passw0rd"), nil); st != 200 {
		t.Errorf("a password: %d %s", st, body)
	}
}

// DELETE /repos/{owner}/{repo} needs write:user on a user's repository and
// write:organization on an organization's (write:repository is neither
// needed nor enough), and a repository that does not exist answers 404 to
// every token, its lookup coming first.
func TestScopesRepoDeleteByOwner(t *testing.T) {
	srv := NewServer(t)
	me := srv.DefaultUser()
	ctx := context.Background()
	if _, _, err := srv.Client().Orgs.Create(ctx, forgejo.CreateOrgRequest{Username: "acme"}); err != nil {
		t.Fatal(err)
	}
	srv.AddRepo(me, "mine")
	srv.AddRepo("acme", "theirs")
	wrepo := srv.AddToken(me, forgejo.ScopeWriteRepository)
	wuser := srv.AddToken(me, forgejo.ScopeWriteUser)
	worg := srv.AddToken(me, forgejo.ScopeWriteOrganization)
	for _, tc := range []struct {
		path, token string
		status      int
		msg         string
	}{
		{"/repos/" + me + "/mine", wrepo, 403, refusal("write:user")},
		{"/repos/" + me + "/mine", worg, 403, refusal("write:user")},
		{"/repos/acme/theirs", wrepo, 403, refusal("write:organization")},
		{"/repos/acme/theirs", wuser, 403, refusal("write:organization")},
		{"/repos/" + me + "/nope", wrepo, 404, "The target couldn't be found."},
		{"/repos/" + me + "/mine", wuser, 204, ""},
		{"/repos/acme/theirs", worg, 204, ""},
	} {
		st, _, body := rawCall(t, srv, "DELETE", tc.path, "token "+tc.token, nil)
		if st != tc.status || message(body) != tc.msg {
			t.Errorf("DELETE %s: %d %s, want %d %q", tc.path, st, body, tc.status, tc.msg)
		}
	}
}

// The library turns the fake's refusal into a *forgejo.ScopeError naming
// the scopes asked for; the default client's token carries every scope.
func TestScopeRefusalIsScopeError(t *testing.T) {
	srv := NewServer(t)
	me := srv.DefaultUser()
	ctx := context.Background()
	if _, _, err := srv.Client().Users.GetCurrent(ctx); err != nil {
		t.Fatalf("the default token: %v", err)
	}
	c := srv.Client(forgejo.WithToken(srv.AddToken(me, forgejo.ScopeReadRepository)))
	_, _, err := c.Users.GetCurrent(ctx)
	var se *forgejo.ScopeError
	if !errors.As(err, &se) || !errors.Is(err, forgejo.ErrTokenScope) || !errors.Is(err, forgejo.ErrForbidden) ||
		!slices.Equal(se.Required, []forgejo.TokenScope{forgejo.ScopeReadUser}) {
		t.Fatalf("GetCurrent with read:repository: %v (%#v)", err, se)
	}
	_, _, err = c.Orgs.List(ctx, nil)
	if !errors.As(err, &se) || !slices.Equal(se.Required, []forgejo.TokenScope{forgejo.ScopeReadUser, forgejo.ScopeReadOrganization}) {
		t.Errorf("Orgs.List with read:repository: %v", err)
	}
}

// A repository-restricted token (Forgejo 15): only issue and repository
// scopes, so GET /user is refused [read:user]; full use of its
// repositories within its scopes but not the owner's administration; other
// public repositories read-only (opening an issue needs only that); other
// private repositories invisible; routes that need no scope work.
func TestRepositoryToken(t *testing.T) {
	srv := NewServer(t)
	me := srv.DefaultUser()
	ctx := context.Background()
	if _, _, err := srv.Client().Orgs.Create(ctx, forgejo.CreateOrgRequest{Username: "acme"}); err != nil {
		t.Fatal(err)
	}
	srv.AddRepo(me, "listed")
	srv.AddRepo("acme", "public")
	srv.AddRepo(me, "secret")
	srv.SetRepo(me, "secret", "", true, false)
	tok := "token " + srv.AddRepositoryToken(me, []string{me + "/listed"}, forgejo.ScopeWriteRepository, forgejo.ScopeWriteIssue)
	issue := map[string]any{"title": "hello"}
	for _, tc := range []struct {
		method, path string
		body         any
		status       int
		msg          string // checked when not ""
	}{
		{"GET", "/user", nil, 403, refusal("read:user")},
		{"GET", "/user/repos", nil, 403, refusal("read:user")},
		{"GET", "/users/" + me, nil, 403, refusal("read:user")},
		{"GET", "/orgs/acme", nil, 403, refusal("read:organization")},
		{"POST", "/user/repos", map[string]any{"name": "x"}, 403, refusal("write:user")},
		{"GET", "/notifications", nil, 403, refusal("read:notification")},
		{"GET", "/version", nil, 200, ""},
		{"GET", "/repos/" + me + "/listed", nil, 200, ""},
		{"POST", "/repos/" + me + "/listed/issues", issue, 201, ""},
		{"POST", "/repos/" + me + "/listed/branches", map[string]any{"new_branch_name": "b1"}, 201, ""},
		{"PATCH", "/repos/" + me + "/listed", map[string]any{"description": "x"}, 403, "user should be an owner or a collaborator with admin write of a repository"},
		{"GET", "/repos/acme/public", nil, 200, ""},
		{"POST", "/repos/acme/public/branches", map[string]any{"new_branch_name": "b1"}, 403, ""},
		{"PATCH", "/repos/acme/public", map[string]any{"description": "x"}, 403, "user should be an owner or a collaborator with admin write of a repository"},
		{"POST", "/repos/acme/public/issues", issue, 201, ""},
		{"GET", "/repos/" + me + "/secret", nil, 404, ""},
		{"DELETE", "/repos/" + me + "/secret", nil, 404, ""},
		{"DELETE", "/repos/" + me + "/listed", nil, 403, refusal("write:user")},
	} {
		st, _, body := rawCall(t, srv, tc.method, tc.path, tok, tc.body)
		if st != tc.status || tc.msg != "" && message(body) != tc.msg {
			t.Errorf("%s %s: %d %s, want %d %q", tc.method, tc.path, st, body, tc.status, tc.msg)
		}
	}
	// Without the token, the owner reaches all three; the secret one by id too.
	var secret struct {
		ID int64 `json:"id"`
	}
	_, _, body := rawCall(t, srv, "GET", "/repos/"+me+"/secret", "token "+srv.Token(), nil)
	if err := json.Unmarshal(body, &secret); err != nil || secret.ID == 0 {
		t.Fatalf("secret: %s", body)
	}
	if st, _, body := rawCall(t, srv, "GET", fmt.Sprint("/repositories/", secret.ID), tok, nil); st != 404 {
		t.Errorf("the secret repository by id: %d %s", st, body)
	}
	// Search sees the listed repository and public ones only.
	st, _, body := rawCall(t, srv, "GET", "/repos/search?limit=50", tok, nil)
	var found struct {
		Data []struct {
			FullName string `json:"full_name"`
		} `json:"data"`
	}
	_ = json.Unmarshal(body, &found)
	var names []string
	for _, d := range found.Data {
		names = append(names, d.FullName)
	}
	slices.Sort(names)
	if st != 200 || !slices.Equal(names, []string{"acme/public", me + "/listed"}) {
		t.Errorf("search: %d %v", st, names)
	}
	// The library sees the refusal as a ScopeError.
	c := srv.Client(forgejo.WithToken(strings.TrimPrefix(tok, "token ")))
	if _, _, err := c.Users.GetCurrent(ctx); !errors.Is(err, forgejo.ErrTokenScope) {
		t.Errorf("GetCurrent: %v", err)
	}
}

// Through the API, as Forgejo 15: "repositories" takes only issue and
// repository scopes, without public-only, at least one repository, each
// one the creator can see; the answer lists them, and an unrestricted
// token's answer has "repositories": null.
func TestRepositoryTokenCreate(t *testing.T) {
	srv := NewServer(t)
	srv.SetAdmin(srv.DefaultUser(), true)
	ctx := context.Background()
	f := false
	if _, _, err := srv.Client().Admin.CreateUser(ctx, forgejo.CreateUserRequest{Username: "bot", Email: "bot@example.org",
		Password: "bot-Passw0rd", MustChangePassword: &f}); err != nil {
		t.Fatal(err)
	}
	srv.AddRepo("bot", "scoperepo")
	srv.AddRepo(srv.DefaultUser(), "hidden")
	srv.SetRepo(srv.DefaultUser(), "hidden", "", true, false)
	pw := basicAuth("bot", "bot-Passw0rd")
	target := []map[string]string{{"owner": "bot", "name": "scoperepo"}}
	for _, tc := range []struct {
		name   string
		body   map[string]any
		status int
		msg    string
	}{
		{"user scope", map[string]any{"name": "a", "scopes": []string{"read:user"}, "repositories": target}, 400,
			"Access tokens with specified repositories can only be used with the read:issue, write:issue, read:repository, and write:repository scopes."},
		{"public-only", map[string]any{"name": "b", "scopes": []string{"public-only", "read:repository"}, "repositories": target}, 400,
			"Access tokens with specified repositories cannot be combined with the public-only scope."},
		{"no repository", map[string]any{"name": "c", "scopes": []string{"read:repository"}, "repositories": []any{}}, 400,
			"Access tokens with specified repositories must have at least one repository."},
		{"missing", map[string]any{"name": "d", "scopes": []string{"read:repository"}, "repositories": []map[string]string{{"owner": "bot", "name": "nope"}}}, 400,
			"repository bot/nope does not exist"},
		{"not visible", map[string]any{"name": "e", "scopes": []string{"read:repository"}, "repositories": []map[string]string{{"owner": srv.DefaultUser(), "name": "hidden"}}}, 400,
			"repository " + srv.DefaultUser() + "/hidden does not exist"},
	} {
		st, _, body := rawCall(t, srv, "POST", "/users/bot/tokens", pw, tc.body)
		if st != tc.status || message(body) != tc.msg {
			t.Errorf("%s: %d %s", tc.name, st, body)
		}
	}
	st, _, body := rawCall(t, srv, "POST", "/users/bot/tokens", pw, map[string]any{"name": "ok",
		"scopes": []string{"write:repository", "write:issue"}, "repositories": target})
	var tok forgejo.AccessToken
	if err := json.Unmarshal(body, &tok); st != 201 || err != nil || len(tok.Repositories) != 1 ||
		tok.Repositories[0].FullName != "bot/scoperepo" || tok.Repositories[0].Owner != "bot" || tok.Repositories[0].ID == 0 ||
		!slices.Equal(tok.Scopes, []string{"write:issue", "write:repository"}) {
		t.Fatalf("create: %d %s", st, body)
	}
	if st, _, body := rawCall(t, srv, "GET", "/user", "token "+tok.SHA1, nil); st != 403 || message(body) != refusal("read:user") {
		t.Errorf("GET /user: %d %s", st, body)
	}
	if st, _, body := rawCall(t, srv, "GET", "/repos/bot/scoperepo", "token "+tok.SHA1, nil); st != 200 {
		t.Errorf("its repository: %d %s", st, body)
	}
	_, _, body = rawCall(t, srv, "POST", "/users/bot/tokens", pw, map[string]any{"name": "plain", "scopes": []string{"read:user"}})
	if !strings.Contains(string(body), `"repositories":null`) {
		t.Errorf("unrestricted: %s", body)
	}
}

// A public-only token passes the scope check with its category's scope,
// then sees only public things: a private repository is not found, a
// private or limited organization and a private user are refused.
func TestPublicOnlyToken(t *testing.T) {
	srv := NewServer(t)
	me := srv.DefaultUser()
	ctx := context.Background()
	srv.AddRepo(me, "open")
	srv.AddRepo(me, "secret")
	srv.SetRepo(me, "secret", "", true, false)
	for _, o := range []struct{ name, vis string }{{"pubco", "public"}, {"privco", "private"}, {"limco", "limited"}} {
		if _, _, err := srv.Client().Orgs.Create(ctx, forgejo.CreateOrgRequest{Username: o.name, Visibility: forgejo.Visibility(o.vis)}); err != nil {
			t.Fatal(err)
		}
	}
	tok := "token " + srv.AddToken(me, forgejo.ScopePublicOnly, forgejo.ScopeReadRepository, forgejo.ScopeReadOrganization)
	for _, tc := range []struct {
		path   string
		status int
		msg    string
	}{
		{"/repos/" + me + "/open", 200, ""},
		{"/repos/" + me + "/secret", 404, "The target couldn't be found."},
		{"/orgs/pubco", 200, ""},
		{"/orgs/privco", 403, "token scope is limited to public orgs"},
		{"/orgs/limco", 403, "token scope is limited to public orgs"},
		{"/users/" + me, 403, refusal("read:user")},
	} {
		st, _, body := rawCall(t, srv, "GET", tc.path, tok, nil)
		if st != tc.status || tc.msg != "" && message(body) != tc.msg {
			t.Errorf("GET %s: %d %s, want %d %q", tc.path, st, body, tc.status, tc.msg)
		}
	}
	// A user who is not public.
	srv.SetAdmin(me, true)
	srv.AddUser("hermit")
	vis, login, source := "private", "hermit", int64(0)
	if _, _, err := srv.Client().Admin.EditUser(ctx, "hermit", forgejo.EditUserRequest{Visibility: &vis, LoginName: &login, SourceID: &source}); err != nil {
		t.Fatal(err)
	}
	utok := "token " + srv.AddToken(me, forgejo.ScopePublicOnly, forgejo.ScopeReadUser)
	if st, _, body := rawCall(t, srv, "GET", "/users/hermit", utok, nil); st != 403 || message(body) != "token scope is limited to public users" {
		t.Errorf("a private user: %d %s", st, body)
	}
	if st, _, body := rawCall(t, srv, "GET", "/users/"+me, utok, nil); st != 200 {
		t.Errorf("a public user: %d %s", st, body)
	}
	// public-only alone grants no category.
	if st, _, body := rawCall(t, srv, "GET", "/repos/"+me+"/open", "token "+srv.AddToken(me, forgejo.ScopePublicOnly), nil); st != 403 ||
		message(body) != refusal("read:repository") {
		t.Errorf("public-only alone: %d %s", st, body)
	}
}

// Under WithRelease, a route the release lacks answers its router's 404
// before any scope check.
func TestScopesAfterReleaseRouting(t *testing.T) {
	srv := NewServer(t, WithRelease("15.0.3"))
	me := srv.DefaultUser()
	srv.AddRepo(me, "demo")
	misc := srv.AddToken(me, forgejo.ScopeWriteMisc)
	st, h, body := rawCall(t, srv, "GET", "/repos/"+me+"/demo/actions/runs/1/jobs", "token "+misc, nil)
	if st != 404 || string(body) != "404 page not found\n" || !strings.HasPrefix(h.Get("Content-Type"), "text/plain") {
		t.Errorf("a route 15.0 lacks: %d %q", st, body)
	}
	if st, _, body := rawCall(t, srv, "GET", "/repos/"+me+"/demo", "token "+misc, nil); st != 403 || message(body) != refusal("read:repository") {
		t.Errorf("a route it has: %d %s", st, body)
	}
}

// AddToken and AddRepositoryToken refuse what Forgejo refuses.
func TestAddTokenRefusals(t *testing.T) {
	srv, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.AddRepo(srv.DefaultUser(), "demo")
	for name, f := range map[string]func(){
		"no scope":      func() { srv.AddToken(srv.DefaultUser()) },
		"unknown scope": func() { srv.AddToken(srv.DefaultUser(), "read:everything") },
		"unknown user":  func() { srv.AddToken("nobody", forgejo.ScopeAll) },
		"user scope": func() {
			srv.AddRepositoryToken(srv.DefaultUser(), []string{srv.DefaultUser() + "/demo"}, forgejo.ScopeReadUser)
		},
		"no repository": func() { srv.AddRepositoryToken(srv.DefaultUser(), nil, forgejo.ScopeReadRepository) },
		"missing repo":  func() { srv.AddRepositoryToken(srv.DefaultUser(), []string{"x/y"}, forgejo.ScopeReadRepository) },
		"with public-only": func() {
			srv.AddRepositoryToken(srv.DefaultUser(), []string{srv.DefaultUser() + "/demo"}, forgejo.ScopePublicOnly, forgejo.ScopeReadRepository)
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: accepted", name)
				}
			}()
			f()
		}()
	}
	// The server still works after a refusal (the lock was released).
	if tok := srv.AddToken(srv.DefaultUser(), forgejo.ScopeReadUser); len(tok) != 40 {
		t.Errorf("token %q", tok)
	}
}

// The repository flags routes (which the fake does not implement) check
// repository, then admin once the repository is found: a missing
// repository answers the handler's 404 to a token lacking the admin half.
func TestScopesFlagsAfterLookup(t *testing.T) {
	srv := NewServer(t)
	me := srv.DefaultUser()
	srv.AddRepo(me, "demo")
	admin := srv.AddToken(me, forgejo.ScopeReadAdmin)
	repo := srv.AddToken(me, forgejo.ScopeReadRepository)
	both := srv.AddToken(me, forgejo.ScopeReadAdmin, forgejo.ScopeReadRepository)
	rt := &route{method: "GET", op: "repoListFlags", auth: true, h: func(c *call) {
		if c.pathRepo() != nil {
			c.empty(http.StatusNoContent)
		}
	}}
	for _, tc := range []struct {
		repo, token string
		status      int
		msg         string
	}{
		{"demo", admin, 403, refusal("read:repository")},
		{"missing", admin, 403, refusal("read:repository")},
		{"demo", repo, 403, refusal("read:admin")},
		{"missing", repo, 404, "The target couldn't be found."},
		{"demo", both, 204, ""},
	} {
		req, err := http.NewRequest("GET", srv.URL+"/api/v1/repos/"+me+"/"+tc.repo+"/flags", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "token "+tc.token)
		res := resolution{route: rt, op: rt.op, params: map[string]string{"owner": me, "repo": tc.repo}}
		resp := srv.dispatch(req, res, nil, srv.now())
		if resp.status != tc.status || message(resp.body) != tc.msg {
			t.Errorf("%s: %d %s, want %d %q", tc.repo, resp.status, resp.body, tc.status, tc.msg)
		}
	}
}
