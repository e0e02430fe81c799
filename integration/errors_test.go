package integration

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo"
)

// TestErrorShapes: every error body shape the real server sends arrives as
// an *APIError with the status, the server's message (when it sends one),
// the operation and the URL, through generated methods and Client.Do alike.
// The shapes: JSON {"message","url"} (401, 403, 404, 409, 422, 400, 500),
// an empty body (403 on someone else's comment, 405 from the router), and
// text/plain (the router's 404).
func TestErrorShapes(t *testing.T) {
	anon := client(t, "")
	c := admin(t)
	e := need(t)
	swagger := e.url + "/api/swagger"

	check := func(t *testing.T, err error, status int, op, message string) *forgejo.APIError {
		t.Helper()
		ae := mustStatus(t, err, status)
		if message != "" && ae.Message != message {
			t.Fatalf("%d message = %q, want %q", status, ae.Message, message)
		}
		if ae.Call.Operation != op || ae.Call.Attempt != 1 || !strings.HasPrefix(ae.Call.URL, e.url+"/api/v1/") {
			t.Fatalf("%d call context = %+v", status, ae.Call)
		}
		if !strings.Contains(ae.Error(), " responded "+strconv.Itoa(status)) || !strings.Contains(ae.Error(), op) {
			t.Fatalf("%d Error() = %q", status, ae.Error())
		}
		if len(ae.Errors) != 0 {
			t.Fatalf("%d errors = %v: Gitea sends none", status, ae.Errors)
		}
		return ae
	}

	t.Run("401", func(t *testing.T) {
		_, _, err := anon.Users.GetCurrent(ctx(t))
		if ae := check(t, err, http.StatusUnauthorized, "userGetCurrent", "token is required"); ae.URL != swagger {
			t.Fatalf("401 url = %q", ae.URL)
		}
		// Gitea says the same for both; Forgejo names the failure (and
		// echoes the token, which the client redacts; HAZARDS.md §22).
		bad := client(t, strings.Repeat("0", 40))
		_, _, err = bad.Users.GetCurrent(ctx(t))
		wrong := client(t, "", forgejo.WithBasicAuth(e.user2, "Wr0ng-7f3a9c1e"))
		_, _, err2 := wrong.Users.GetCurrent(ctx(t))
		if onForgejo(t) {
			if ae := check(t, err, http.StatusUnauthorized, "userGetCurrent", ""); !strings.HasPrefix(ae.Message, "access token does not exist") || strings.Contains(ae.Message, "0000000000") {
				t.Fatalf("unknown token: %q", ae.Message)
			}
			if ae := check(t, err2, http.StatusUnauthorized, "userGetCurrent", ""); !strings.HasPrefix(ae.Message, "user's password is invalid") {
				t.Fatalf("wrong password: %q", ae.Message)
			}
		} else {
			check(t, err, http.StatusUnauthorized, "userGetCurrent", "invalid username, password or token")
			check(t, err2, http.StatusUnauthorized, "userGetCurrent", "invalid username, password or token")
		}
	})

	t.Run("403", func(t *testing.T) {
		_, _, err := user2(t).Admin.ListUsers(ctx(t), nil)
		if ae := check(t, err, http.StatusForbidden, "adminSearchUsers", "user should be the site admin"); ae.URL != swagger {
			t.Fatalf("403 url = %q", ae.URL)
		}
	})

	t.Run("404", func(t *testing.T) {
		_, _, err := c.Repos.Get(ctx(t), e.admin, "definitely-not-"+unique("x"))
		notFound := "not found"
		if onForgejo(t) {
			notFound = "The target couldn't be found." // HAZARDS.md §22
		}
		check(t, err, http.StatusNotFound, "repoGet", notFound)
		_, _, err = c.Users.Get(ctx(t), "nobody-"+unique("x"))
		check(t, err, http.StatusNotFound, "userGet", "")
		// A router-level miss is text/plain; the status survives.
		_, err = c.Do(ctx(t), &forgejo.Request{Method: "GET", Path: "/definitely/not/a/route", Operation: "unknownRoute", Retry: forgejo.RetryIdempotentOnly}, nil)
		if ae := check(t, err, http.StatusNotFound, "unknownRoute", "404 page not found"); ae.URL != "" {
			t.Fatalf("text/plain 404 url = %q", ae.URL)
		}
	})

	t.Run("405", func(t *testing.T) {
		// A path that exists, with a method it does not take: an empty body
		// and an Allow header.
		_, err := c.Do(ctx(t), &forgejo.Request{Method: "PUT", Path: "/version", Operation: "putVersion"}, nil)
		if ae := check(t, err, http.StatusMethodNotAllowed, "putVersion", ""); ae.Message != "" || !strings.Contains(ae.Error(), "no message from the server") {
			t.Fatalf("405 = %+v", ae)
		}
	})

	t.Run("409", func(t *testing.T) {
		name := newRepo(t, c)
		_, _, err := c.Repos.Create(ctx(t), forgejo.CreateRepoRequest{Name: name})
		if ae := check(t, err, http.StatusConflict, "createCurrentUserRepo", ""); !strings.Contains(ae.Message, "already exists") {
			t.Fatalf("409 message = %q", ae.Message)
		}
	})

	t.Run("422", func(t *testing.T) {
		_, _, err := c.Repos.Search(ctx(t), &forgejo.RepoSearchOptions{Query: "a", Sort: "bogus"})
		check(t, err, http.StatusUnprocessableEntity, "repoSearch", `Invalid sort mode: "bogus"`)
		// A binding failure names the field.
		_, err = c.Do(ctx(t), &forgejo.Request{Method: "POST", Path: "/user/repos", Operation: "createCurrentUserRepo", Body: map[string]any{}}, nil)
		check(t, err, http.StatusUnprocessableEntity, "createCurrentUserRepo", "[Name]: Required")
		_, _, err = c.Repos.Create(ctx(t), forgejo.CreateRepoRequest{Name: "has space"})
		check(t, err, http.StatusUnprocessableEntity, "createCurrentUserRepo", "[Name]: AlphaDashDot")
	})

	t.Run("malformed JSON", func(t *testing.T) {
		// Not JSON at all: the decoder's complaint comes back as a 422 on
		// Gitea 1.27 (jsonv2), not a 400.
		_, err := c.Do(ctx(t), &forgejo.Request{Method: "POST", Path: "/user/repos", Operation: "createCurrentUserRepo", Body: []byte("{bad")}, nil)
		ae := mustStatus(t, err, http.StatusUnprocessableEntity)
		if !strings.Contains(ae.Message, "invalid character") {
			t.Fatalf("bad JSON: %+v", ae)
		}
	})

	t.Run("client-side", func(t *testing.T) {
		// Refused before sending: a *ValidationError, never an *APIError.
		// (A large limit is not refused: the instance clamps it.)
		_, _, err := c.Issues.List(ctx(t), e.admin, "x", &forgejo.IssueListOptions{ListOptions: forgejo.ListOptions{Limit: -5}})
		var ve *forgejo.ValidationError
		var ae *forgejo.APIError
		if !errors.As(err, &ve) || errors.As(err, &ae) || ve.Field != "limit" {
			t.Fatalf("limit -5: %v", err)
		}
		_, _, err = c.Repos.Get(ctx(t), e.admin, "a/b")
		if !errors.As(err, &ve) || ve.Field != "repo" {
			t.Fatalf("repo with a slash: %v", err)
		}
	})
}
