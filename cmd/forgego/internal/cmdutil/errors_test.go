package cmdutil

import (
	"errors"
	"fmt"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
)

// A scope refusal is one line naming the scopes to add, whatever wraps it;
// a 403 that is no scope refusal keeps the server's message.
func TestDescribeScopeRefusal(t *testing.T) {
	call := forgejo.CallContext{Method: "GET", URL: "https://x.example/api/v1/user/orgs"}
	api := &forgejo.APIError{Call: call, StatusCode: 403, Message: "token does not have at least one of required scope(s): [read:user read:organization]"}
	two := &forgejo.ScopeError{Required: []forgejo.TokenScope{forgejo.TokenScope("read:user"), forgejo.TokenScope("read:organization")}, API: api}
	one := &forgejo.ScopeError{Required: []forgejo.TokenScope{forgejo.TokenScope("write:issue")}, API: api}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("listing: %w", two), "GET https://x.example/api/v1/user/orgs: 403 Forbidden: the token needs the scopes read:user and read:organization together: use a token that has them all (create one in the instance's settings, Applications)"},
		{&PrefixedError{Prefix: "the token was not stored: ", Err: one}, "the token was not stored: GET https://x.example/api/v1/user/orgs: 403 Forbidden: the token lacks the write:issue scope: use a token that has it (create one in the instance's settings, Applications)"},
		{&forgejo.APIError{Call: call, StatusCode: 403, Message: "token scope is limited to public orgs"}, "GET https://x.example/api/v1/user/orgs: 403 Forbidden: token scope is limited to public orgs"},
	} {
		if got := Describe(tc.err); got != tc.want {
			t.Errorf("Describe:\n got %q\nwant %q", got, tc.want)
		}
		if !IsAuthFailure(tc.err) {
			t.Errorf("%v: not an authentication failure (exit 4)", tc.err)
		}
	}
	if !errors.Is(two, forgejo.ErrTokenScope) {
		t.Fatal("ScopeError is not ErrTokenScope")
	}
}
