package forgejo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// TestScopeRefusalParsing reads the refusal texts recorded on Forgejo 15.0.3
// and Gitea, and refuses every other text.
func TestScopeRefusalParsing(t *testing.T) {
	const p = "token does not have at least one of required scope(s)"
	for _, tc := range []struct {
		msg  string
		want []TokenScope
	}{
		// Forgejo, every single-scope refusal the reference recorded.
		{p + ": [read:repository]", []TokenScope{ScopeReadRepository}},
		{p + ": [write:repository]", []TokenScope{ScopeWriteRepository}},
		{p + ": [read:issue]", []TokenScope{ScopeReadIssue}},
		{p + ": [write:issue]", []TokenScope{ScopeWriteIssue}},
		{p + ": [read:user]", []TokenScope{ScopeReadUser}},
		{p + ": [write:user]", []TokenScope{ScopeWriteUser}},
		{p + ": [read:organization]", []TokenScope{ScopeReadOrganization}},
		{p + ": [write:organization]", []TokenScope{ScopeWriteOrganization}},
		{p + ": [read:admin]", []TokenScope{ScopeReadAdmin}},
		{p + ": [write:admin]", []TokenScope{ScopeWriteAdmin}},
		{p + ": [read:package]", []TokenScope{ScopeReadPackage}},
		{p + ": [write:package]", []TokenScope{ScopeWritePackage}},
		{p + ": [read:notification]", []TokenScope{ScopeReadNotification}},
		{p + ": [write:notification]", []TokenScope{ScopeWriteNotification}},
		{p + ": [read:activitypub]", []TokenScope{ScopeReadActivityPub}},
		{p + ": [write:activitypub]", []TokenScope{ScopeWriteActivityPub}},
		// Forgejo, two scopes checked together.
		{p + ": [read:user read:organization]", []TokenScope{ScopeReadUser, ScopeReadOrganization}},
		{p + ": [write:organization write:repository]", []TokenScope{ScopeWriteOrganization, ScopeWriteRepository}},
		// Gitea's wording, with the token's scopes and without any.
		{p + ", required=[write:user], token scope=read:user", []TokenScope{ScopeWriteUser}},
		{p + ", required=[read:user read:organization], token scope=write:misc,public-only", []TokenScope{ScopeReadUser, ScopeReadOrganization}},
		{p + ", required=[read:repository], token scope=", []TokenScope{ScopeReadRepository}},
		{p + ", required=[read:repository]", []TokenScope{ScopeReadRepository}},
		// A category this release does not know still reads as a scope.
		{p + ": [read:newthing]", []TokenScope{"read:newthing"}},

		// Anything else is no scope refusal.
		{"", nil},
		{"token scope is limited to public orgs", nil},
		{"token scope is limited to public users", nil},
		{"user should be the owner of the repo", nil},
		{"user should have a permission to write to a repo", nil},
		{"doer should be the site admin or be same as the contextUser", nil},
		{"checking scope failed: invalid access token scope", nil},
		{p, nil},
		{p + ": []", nil},
		{p + ": [read:user", nil},
		{p + ": [read:user] and more", nil},
		{p + ": [sudo]", nil},
		{p + ": [admin:read]", nil},
		{p + ": [read:User]", nil},
		{p + ", required=[read:user] token scope=x", nil},
		{p + ", required=[]", nil},
		{"error: " + p + ": [read:user]", nil},
	} {
		if got := parseScopeRefusal(tc.msg); !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("%q: %q, want %q", tc.msg, got, tc.want)
		}
	}
}

// TestScopeErrorFromAnswer sends hand-made answers through a client: a 403
// scope refusal (Forgejo's body, Gitea's) is a *ScopeError that also is the
// *APIError every 403 is; any other answer stays a plain *APIError.
func TestScopeErrorFromAnswer(t *testing.T) {
	for _, tc := range []struct {
		name, ctype string
		status      int
		body        string
		want        []TokenScope // nil: no ScopeError
	}{
		{"forgejo", "application/json;charset=utf-8", 403,
			`{"message":"token does not have at least one of required scope(s): [read:user]","url":"http://127.0.0.1:3000/api/swagger"}`, []TokenScope{ScopeReadUser}},
		{"forgejo two", "application/json;charset=utf-8", 403,
			`{"message":"token does not have at least one of required scope(s): [read:user read:organization]","url":"http://127.0.0.1:3000/api/swagger"}`, []TokenScope{ScopeReadUser, ScopeReadOrganization}},
		// Gitea 1.27.3's answer to POST /user/repos with a read:user,read:repository token.
		{"gitea", "application/json;charset=utf-8", 403,
			`{"message":"token does not have at least one of required scope(s), required=[write:user], token scope=read:repository,read:user","url":"http://127.0.0.1:3000/api/swagger"}`, []TokenScope{ScopeWriteUser}},
		{"public-only", "application/json;charset=utf-8", 403,
			`{"message":"token scope is limited to public orgs","url":"http://127.0.0.1:3000/api/swagger"}`, nil},
		{"permission", "application/json;charset=utf-8", 403,
			`{"message":"user should be an owner or a collaborator with admin write of a repository","url":"http://127.0.0.1:3000/api/swagger"}`, nil},
		{"not a 403", "application/json;charset=utf-8", 401,
			`{"message":"token does not have at least one of required scope(s): [read:user]"}`, nil},
		{"empty 403", "", 403, ``, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.ctype != "" {
					w.Header().Set("Content-Type", tc.ctype)
				}
				w.WriteHeader(tc.status)
				fmt.Fprint(w, tc.body)
			}))
			defer srv.Close()
			c, err := NewClient(WithBaseURL(srv.URL), WithToken("0123456789abcdef0123456789abcdef01234567"))
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = c.Users.GetCurrent(context.Background())
			var ae *APIError
			if !errors.As(err, &ae) || ae.StatusCode != tc.status || StatusCode(err) != tc.status {
				t.Fatalf("%v: not an *APIError of %d", err, tc.status)
			}
			if ae.Call.Operation != "userGetCurrent" {
				t.Errorf("call %+v", ae.Call)
			}
			var se *ScopeError
			isScope := errors.As(err, &se)
			if isScope != (tc.want != nil) || errors.Is(err, ErrTokenScope) != isScope {
				t.Fatalf("%T %v: ScopeError %v, want %v", err, err, isScope, tc.want != nil)
			}
			if !isScope {
				if _, ok := err.(*APIError); !ok {
					t.Errorf("%T, want a plain *APIError", err)
				}
				return
			}
			if !slices.Equal(se.Required, tc.want) || se.API != ae {
				t.Errorf("Required %q, API %p (want %q, %p)", se.Required, se.API, tc.want, ae)
			}
			if !errors.Is(err, ErrForbidden) || errors.Is(err, ErrNotFound) {
				t.Errorf("the status sentinels do not hold")
			}
			if err.Error() != ae.Error() || !strings.Contains(err.Error(), "responded 403: token does not have") {
				t.Errorf("Error() %q, APIError %q", err.Error(), ae.Error())
			}
			if retryable(err) {
				t.Errorf("a scope refusal is retryable")
			}
		})
	}
	var nilErr *ScopeError
	if nilErr.Error() == "" || nilErr.Unwrap() != nil || !nilErr.Is(ErrTokenScope) {
		t.Errorf("nil *ScopeError")
	}
}
