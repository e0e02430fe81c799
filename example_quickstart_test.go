package forgejo_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"

	forgejo "codeberg.org/forgego/forgejo"
)

// exampleCodeberg stands in for https://codeberg.org: it answers the
// repository forgejo/forgejo, two pages of its open issues, and 404 for
// anything else (issue 1 included), to a request with or without a token.
func exampleCodeberg() *httptest.Server {
	pages := exampleIssuePages() // its handler links the pages by the request's host
	issues := pages.Config.Handler
	pages.Close()
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v1/repos/forgejo/forgejo":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":73144,"name":"forgejo","full_name":"forgejo/forgejo","description":"Beyond coding. We forge.","default_branch":"forgejo"}`)
		case "/api/v1/repos/forgejo/forgejo/issues":
			issues.ServeHTTP(w, r)
		default:
			w.Header().Set("X-Request-Id", "example-request")
			http.NotFound(w, r)
		}
	}))
}

// The client reads public data without a token, as Codeberg allows (at a
// lower rate); add WithToken only when there is one, since a blank token is
// refused. The test server stands in for Codeberg: in a program, pass
// "https://codeberg.org" (or leave WithBaseURL out, Codeberg is the default).
func Example() {
	srv := exampleCodeberg()
	defer srv.Close()
	ctx := context.Background()

	opts := []forgejo.ClientOption{forgejo.WithBaseURL(srv.URL)} // instance root or API root
	if tok := os.Getenv("FORGEJO_TOKEN"); tok != "" {
		opts = append(opts, forgejo.WithToken(tok))
	}
	client, err := forgejo.NewClient(opts...)
	if err != nil {
		fmt.Println(err) // a *forgejo.ValidationError: a bad URL, say
		return
	}
	repo, _, err := client.Repos.Get(ctx, "forgejo", "forgejo")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(repo.FullName, "-", repo.Description)
	// Output: forgejo/forgejo - Beyond coding. We forge.
}

// The README's quick start: walk a repository's open issues page by page,
// then read one issue, telling a missing one from a failure. The response is
// never nil, even after an error.
func Example_quickStart() {
	srv := exampleCodeberg()
	defer srv.Close()
	ctx := context.Background()

	opts := []forgejo.ClientOption{forgejo.WithBaseURL(srv.URL)} // "https://codeberg.org" in a program
	if tok := os.Getenv("FORGEJO_TOKEN"); tok != "" {
		opts = append(opts, forgejo.WithToken(tok))
	}
	client, err := forgejo.NewClient(opts...)
	if err != nil {
		fmt.Println(err)
		return
	}

	for issue, err := range client.Issues.ListIter(ctx, "forgejo", "forgejo",
		&forgejo.IssueListOptions{State: forgejo.StateOpen, ListOptions: forgejo.ListOptions{Limit: 2}}) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(issue.Number, issue.Title)
	}

	_, resp, err := client.Issues.Get(ctx, "forgejo", "forgejo", 1)
	switch {
	case errors.Is(err, forgejo.ErrNotFound): // missing, or private to these credentials
		fmt.Println("issue 1: not found")
	case err != nil:
		fmt.Println(err)
		return
	}
	fmt.Println(resp.StatusCode, resp.RequestID())
	// Output:
	// 13731 fix(package/pypi): response header based on PEP691
	// 13729 enh: ability to disable emoji reactions
	// 13728 fix: activitypub s2s requests fail
	// issue 1: not found
	// 404 example-request
}
