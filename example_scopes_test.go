package forgejo_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	forgejo "codeberg.org/forgego/forgejo"
)

// A token that lacks a scope is refused with a *ScopeError, which names
// the scopes the server asked for; Operation.Scope states what the
// operation requires as a whole.
func ExampleScopeError() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// What Forgejo 15 answers a read:repository token on GET /user.
		w.Header().Set("Content-Type", "application/json;charset=utf-8")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"message":"token does not have at least one of required scope(s): [read:user]","url":"https://codeberg.org/api/swagger"}`)
	}))
	defer srv.Close()
	client, err := forgejo.NewClient(forgejo.WithBaseURL(srv.URL), forgejo.WithToken("0123456789abcdef0123456789abcdef01234567"))
	if err != nil {
		panic(err)
	}

	_, _, err = client.Users.GetCurrent(context.Background())
	var scopeErr *forgejo.ScopeError
	if errors.As(err, &scopeErr) {
		fmt.Println("the token needs:", scopeErr.Required)
	}
	fmt.Println("ErrTokenScope:", errors.Is(err, forgejo.ErrTokenScope), "ErrForbidden:", errors.Is(err, forgejo.ErrForbidden), "status:", forgejo.StatusCode(err))
	for _, op := range forgejo.Operations() {
		if op.Service == "Users" && op.Name == "GetCurrent" {
			fmt.Println(op.Method, op.Path, "requires", op.Scope)
		}
	}
	// Output:
	// the token needs: [read:user]
	// ErrTokenScope: true ErrForbidden: true status: 403
	// GET /user requires read:user
}

// Before calling, a program can check that its token's scopes pass what an
// operation requires, and name the scopes to add.
func ExampleScopeRequirement_SatisfiedBy() {
	token := []forgejo.TokenScope{forgejo.ScopeWriteRepository, forgejo.ScopeWriteIssue}
	for _, op := range forgejo.Operations() {
		if op.Service == "Repos" && (op.Name == "Get" || op.Name == "List") {
			fmt.Println(op.Name, op.Scope, op.Scope.SatisfiedBy(token...), op.Scope.Missing(token...))
		}
	}
	// Output:
	// Get read:repository true []
	// List read:repository,read:user false [read:user]
}
