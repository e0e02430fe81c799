package forgejo_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	forgejo "codeberg.org/forgego/forgejo"
)

// Status checks need no errors.As: the sentinels match an *APIError of
// their status, also through retries.
func ExampleErrNotFound() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"message":"GetRepositoryByName","errors":["repository does not exist"]}`)
	}))
	defer srv.Close()
	client, _ := forgejo.NewClient(forgejo.WithBaseURL(srv.URL)) // anonymous: no token needed for public data

	_, resp, err := client.Repos.Get(context.Background(), "forgejo", "no-such-repo")
	fmt.Println("not found:", errors.Is(err, forgejo.ErrNotFound))
	fmt.Println("status:", forgejo.StatusCode(err), resp.StatusCode)

	// resp is never nil: after a rejected argument it is empty, not absent.
	_, resp, err = client.Repos.Get(context.Background(), "", "x")
	fmt.Println("rejected:", err, "status:", resp.StatusCode)
	// Output:
	// not found: true
	// status: 404 404
	// rejected: invalid owner: must not be blank status: 0
}

// A token that changes (an OAuth2 access token that refreshes) comes from
// a TokenSource, asked before every attempt; every token it ever returned
// is masked like a static one.
func ExampleWithTokenSource() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println("Authorization:", r.Header.Get("Authorization"))
		io.WriteString(w, `{"version":"15.0.3"}`)
	}))
	defer srv.Close()
	source := forgejo.TokenSourceFunc(func(ctx context.Context) (forgejo.Token, error) {
		return forgejo.Token{Value: "access-token-from-your-oauth2-flow", Type: "Bearer"}, nil
	})
	client, err := forgejo.NewClient(forgejo.WithBaseURL(srv.URL), forgejo.WithTokenSource(source))
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _, err := client.Misc.GetVersion(context.Background())
	fmt.Println(v.Version, err)
	// Output:
	// Authorization: Bearer access-token-from-your-oauth2-flow
	// 15.0.3 <nil>
}

// Open… methods stream file content: the body is read as it arrives,
// bounded by WithMaxDownloadBytes, in flat memory. A conditional read
// answered 304 returns no body and resp.NotModified.
func ExampleReposService_OpenRawFile() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"abc"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"abc"`)
		io.WriteString(w, "# forgego\n")
	}))
	defer srv.Close()
	client, _ := forgejo.NewClient(forgejo.WithBaseURL(srv.URL))
	ctx := context.Background()

	body, resp, err := client.Repos.OpenRawFile(ctx, "forgego", "forgejo", "README.md", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	data, err := io.ReadAll(body) // a *forgejo.TransportError past the bound
	body.Close()
	fmt.Printf("%q %v etag %s\n", data, err, resp.Header.Get("ETag"))

	body, resp, err = client.Repos.OpenRawFile(ctx, "forgego", "forgejo", "README.md", nil,
		forgejo.IfNoneMatch(resp.Header.Get("ETag")))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer body.Close() // on a 304 an empty reader: closing it is still right
	data, err = io.ReadAll(body)
	fmt.Println("not modified:", resp.NotModified, "read:", len(data), "err:", err)
	// Output:
	// "# forgego\n" <nil> etag "abc"
	// not modified: true read: 0 err: <nil>
}

// Per-call options act on one call without changing its arguments.
func ExampleSudo() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println(r.URL.RawQuery, r.Header.Get("X-Trace"))
		io.WriteString(w, `[]`)
	}))
	defer srv.Close()
	client, _ := forgejo.NewClient(forgejo.WithBaseURL(srv.URL), forgejo.WithToken("admin-token-0123456789"))
	_, _, err := client.Issues.Search(context.Background(), &forgejo.IssueSearchOptions{State: "open"},
		forgejo.Sudo("bob"),                       // act as bob (admin tokens)
		forgejo.QueryParam("created_by", "alice"), // a filter the spec omits
		forgejo.Header("X-Trace", "run-42"))
	fmt.Println(err)
	// Output:
	// state=open&page=1&limit=30&sudo=bob&created_by=alice run-42
	// <nil>
}
