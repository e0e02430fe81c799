package forgejotest_test

import (
	"context"
	"fmt"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

// countOpen is the code under test: it counts a repository's open issues.
func countOpen(ctx context.Context, c *forgejo.Client, owner, repo string) (int, error) {
	n := 0
	for _, err := range c.Issues.ListIter(ctx, owner, repo, nil) {
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// A test of your own code against the fake: seed it, make it fail once, and
// check both the result and what reached the server. In a test, write
// srv := forgejotest.NewServer(t) instead of Start and Close.
func Example() {
	srv, _ := forgejotest.Start()
	defer srv.Close()
	srv.AddRepo("alice", "app")
	srv.AddIssues("alice", "app", 3)
	srv.Inject(forgejotest.Fault{Operation: "issueListIssues", Statuses: []int{503}, RetryAfter: "1"})

	n, err := countOpen(context.Background(), srv.Client(), "alice", "app")
	fmt.Println(n, err, srv.Count("issueListIssues"))
	// Output: 3 <nil> 2
}

// Creating is never retried, so a test can assert that an issue was filed
// exactly once, even when the server failed.
func ExampleServer_Count() {
	srv, _ := forgejotest.Start()
	defer srv.Close()
	srv.AddRepo("alice", "app")
	srv.Inject(forgejotest.Fault{Operation: "issueCreateIssue", Statuses: []int{502}})

	_, _, err := srv.Client().Issues.Create(context.Background(), "alice", "app", forgejo.CreateIssueRequest{Title: "bug"})
	fmt.Println(err != nil, srv.Count("issueCreateIssue"))
	// Output: true 1
}

// Rate-limit emulation sends Codeberg's headers on every response.
func ExampleWithRateLimit() {
	srv, _ := forgejotest.Start(forgejotest.WithRateLimit(100, time.Minute))
	defer srv.Close()

	_, resp, _ := srv.Client().Misc.GetVersion(context.Background())
	fmt.Println(resp.Header.Get("RateLimit-Policy"))
	fmt.Println(resp.Header.Get("RateLimit"))
	// Output:
	// "baseline";q=100;w=60
	// "baseline";r=99;t=60
}
