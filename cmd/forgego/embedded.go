package main

import (
	"fmt"
	"time"
	"unicode"
	"unicode/utf8"

	"codeberg.org/forgego/forgejo/forgejotest"
)

// The embedded demo: a forgejotest server seeded with a realistic dataset,
// with faults and a tight rate limit so that the retry engine has work to
// do. It is deterministic except for timestamps, which follow the clock.

// The demo's rate limit (Codeberg's headers and 429s, scaled down) and the
// Retry-After of its 503. Variables so that tests can make them quicker.
var (
	demoQuota      = 7
	demoWindow     = 3 * time.Second
	demoRetryAfter = "1"
)

// Demo dataset sizes: a third of the issues are closed, so the open ones
// fill five pages of 50.
const (
	demoIssues = 360 // forgego/demo, pull requests not counted
	demoPulls  = 6
)

// demoMaxItems is the demo instance's max_response_items (Codeberg's): the
// CLI asks for pages of 100 (pageAsk) and is served 50, as on Codeberg.
const demoMaxItems = 50

func startDemo() (*forgejotest.Server, error) {
	srv, err := forgejotest.Start(
		forgejotest.WithDefaultUser("forgego"),
		forgejotest.WithMaxResponseItems(demoMaxItems),
		forgejotest.WithRateLimit(demoQuota, demoWindow),
	)
	if err != nil {
		return nil, err
	}
	seedDemo(srv, time.Now())
	// The walk of the 240 open issues (five pages of 50): page 3 answers
	// 503 with Retry-After; page 4 loses its connection (twice, since
	// net/http quietly resends a GET once when a reused connection drops);
	// by page 5 the window's quota is spent: 429 until it resets.
	srv.Inject(forgejotest.Fault{Operation: "issueListIssues", Statuses: []int{0, 0, 503}, RetryAfter: demoRetryAfter})
	srv.Inject(forgejotest.Fault{Operation: "issueListIssues", Statuses: []int{0}})
	srv.Inject(forgejotest.Fault{Operation: "issueListIssues", Reset: true, Times: 2})
	return srv, nil
}

var (
	demoUsers  = []string{"alice", "bob", "carol", "dave", "erin", "frank"}
	demoLabels = []struct{ name, color string }{
		{"bug", "ee0701"}, {"enhancement", "84b6eb"}, {"documentation", "0075ca"}, {"question", "d876e3"},
		{"good first issue", "7057ff"}, {"help wanted", "008672"}, {"priority/high", "b60205"}, {"area/cli", "fbca04"},
	}
	demoMilestones = []string{"v0.9", "v1.0", "v1.1"}
	subjects       = []string{
		"pagination", "retry backoff", "rate-limit headers", "error messages", "the CLI table output",
		"token redaction", "Link header parsing", "the issue iterator", "timeouts", "the README",
		"Gitea compatibility", "the embedded demo", "JSON output", "webhooks", "release notes",
	}
	verbs = []string{
		"Crash in %s", "Document %s", "Improve %s", "%s is slow on large repositories", "Add tests for %s",
		"Unexpected 404 from %s", "Support Forgejo 11 in %s", "Refactor %s", "%s ignores the context deadline",
		"Typo in %s",
	}
	remarks = []string{
		"I can reproduce this on main.", "Would a pull request for this be welcome?", "Fixed by the latest release, I think.",
		"Same here with Forgejo 11.", "Let's discuss this at the next meeting.", "Added a test case.",
	}
)

// seedDemo fills the server: a few repositories, forgego/demo with 300
// issues (labels, milestones, comments, a third of them closed) and a few
// pull requests, stars, follows and topics.
func seedDemo(srv *forgejotest.Server, now time.Time) {
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	srv.SetRepo(owner, "demo", "A demo repository for forgego, served by forgejotest", false, false)
	srv.SetTopics(owner, "demo", "forgejo", "go", "api-client", "cli")
	srv.AddRepo(owner, "forgejo-client")
	srv.SetRepo(owner, "forgejo-client", "A Go client for the Forgejo API", false, false)
	srv.AddRepo("alice", "dotfiles")
	srv.AddRepo("bob", "website")
	srv.SetRepo("bob", "website", "Bob's home page", false, true)

	for _, l := range demoLabels {
		srv.AddLabel(owner, "demo", l.name, l.color)
	}
	for _, m := range demoMilestones {
		srv.AddMilestone(owner, "demo", m)
	}
	start := now.Add(-365 * 24 * time.Hour)
	for i := range demoIssues {
		spec := forgejotest.IssueSpec{
			Title:   capitalize(fmt.Sprintf(verbs[i%len(verbs)], subjects[(i*7)%len(subjects)])),
			Body:    "Seen while using forgego against a self-hosted instance.",
			Author:  demoUsers[(i*5)%len(demoUsers)],
			Closed:  i%3 == 0,
			Created: start.Add(time.Duration(i) * 23 * time.Hour),
		}
		for j, l := range demoLabels {
			if (i+j*3)%7 == 0 {
				spec.Labels = append(spec.Labels, l.name)
			}
		}
		if i%4 == 0 {
			spec.Milestone = demoMilestones[(i/4)%len(demoMilestones)]
		}
		for c := range i % 4 {
			spec.Comments = append(spec.Comments, forgejotest.CommentSpec{
				Author: demoUsers[(i+c+1)%len(demoUsers)], Body: remarks[(i+c)%len(remarks)],
			})
		}
		srv.AddIssue(owner, "demo", spec)
	}
	for i := range demoPulls {
		srv.AddPull(owner, "demo", fmt.Sprintf("feature/%d", i+1), "main", fmt.Sprintf("Fix %s", subjects[i]))
	}
	srv.AddIssues(owner, "forgejo-client", 20)
	for i, u := range demoUsers {
		srv.Star(u, owner, "demo")
		if i%2 == 0 {
			srv.Follow(u, owner)
		}
	}
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
