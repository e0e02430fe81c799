// Package demo is the embedded demo: a forgejotest server seeded with a
// realistic dataset (--embedded, and 'fake serve --seed demo').
package demo

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

// The embedded demo: a forgejotest server seeded with a realistic dataset,
// with faults and a tight rate limit so that the retry engine has work to
// do. It is deterministic except for timestamps, which follow the clock.

// The demo's rate limit (Codeberg's headers and 429s, scaled down) and the
// Retry-After of its 503. Variables so that tests can make them quicker.
var (
	Quota      = 7
	Window     = 3 * time.Second
	RetryAfter = "1"
)

// Issues and Pulls are the dataset's sizes: a third of the issues are closed, so the open ones
// fill five pages of 50.
const (
	Issues = 360 // forgego/demo, pull requests not counted
	Pulls  = 6
)

// MaxItems is the demo instance's max_response_items (Codeberg's): the
// CLI asks for pages of 100 (pageAsk) and is served 50, as on Codeberg.
const MaxItems = 50

// Start starts the demo server, seeded, with its faults injected.
func Start() (*forgejotest.Server, error) {
	clock := &Clock{}
	srv, err := forgejotest.Start(
		forgejotest.WithDefaultUser("forgego"),
		forgejotest.WithMaxResponseItems(MaxItems),
		forgejotest.WithRateLimit(Quota, Window),
		forgejotest.WithClock(clock),
	)
	if err != nil {
		return nil, err
	}
	if err := Seed(srv, time.Now(), clock, Window); err != nil {
		srv.Close()
		return nil, err
	}
	// The seed's requests (the releases) spent part of the first window:
	// the demo starts in a fresh one, as the walk below expects.
	clock.Shift(Window)
	// The walk of the 240 open issues (five pages of 50): page 3 answers
	// 503 with Retry-After; page 4 loses its connection (twice, since
	// net/http quietly resends a GET once when a reused connection drops);
	// by page 5 the window's quota is spent: 429 until it resets.
	srv.Inject(forgejotest.Fault{Operation: "issueListIssues", Statuses: []int{0, 0, 503}, RetryAfter: RetryAfter})
	srv.Inject(forgejotest.Fault{Operation: "issueListIssues", Statuses: []int{0}})
	srv.Inject(forgejotest.Fault{Operation: "issueListIssues", Reset: true, Times: 2})
	return srv, nil
}

// Clock is the fake's clock: the real time, moved forward by whole
// rate-limit windows while the demo is seeded through the API, so that
// the seed never meets the rate limit (and the demo starts with a full
// window). The timestamps move with it, by seconds.
type Clock struct{ d atomic.Int64 }

func (c *Clock) Now() time.Time        { return time.Now().Add(time.Duration(c.d.Load())) }
func (c *Clock) Shift(d time.Duration) { c.d.Add(int64(d)) }

// Sleep and Timer wait in real time (the server only reads Now).
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	t, stop := c.Timer(d)
	defer stop()
	select {
	case <-t:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *Clock) Timer(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTimer(d)
	return t.C, func() { t.Stop() }
}

// windowSkipper moves the clock to the next rate-limit window whenever an
// answer says the window's requests are spent (ratelimit: r=0), before the
// next request of the seed.
type windowSkipper struct {
	next   http.RoundTripper
	clock  *Clock
	window time.Duration
}

func (w windowSkipper) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := w.next.RoundTrip(r)
	if err == nil && w.window > 0 && strings.Contains(resp.Header.Get("ratelimit"), ";r=0;") {
		w.clock.Shift(w.window)
	}
	return resp, err
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

// releases are forgego/demo's releases, oldest first, with their
// assets (name and content).
var releases = []struct {
	tag, title, notes string
	prerelease        bool
	assets            [][2]string
}{
	{"v0.9.0", "0.9.0", "The first public release.", false, [][2]string{{"checksums.txt", "0a1b2c  forgego_0.9.0_linux_amd64.tar.gz\n"}}},
	{"v1.0.0", "1.0.0", "Stable: issues, pull requests, releases and labels.", false, [][2]string{
		{"forgego_1.0.0_linux_amd64.tar.gz", "not really a tarball\n"}, {"checksums.txt", "3d4e5f  forgego_1.0.0_linux_amd64.tar.gz\n"}}},
	{"v1.1.0-rc1", "1.1.0 release candidate", "Try `forgego pr checkout`.", true, nil},
}

// Seed fills the server: a few repositories, forgego/demo with 360
// issues (labels, milestones, comments, a third of them closed), a few
// pull requests, releases with assets, stars, follows and topics. The
// releases go through the API (the fake has no seed helper for them), with
// clock moved past a spent rate-limit window (window 0: no rate limit).
func Seed(srv *forgejotest.Server, now time.Time, clock *Clock, window time.Duration) error {
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
	for i := range Issues {
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
	for i := range Pulls {
		srv.AddPull(owner, "demo", fmt.Sprintf("feature/%d", i+1), "main", fmt.Sprintf("Fix %s", subjects[i]))
	}
	srv.AddIssues(owner, "forgejo-client", 20)
	for i, u := range demoUsers {
		srv.Star(u, owner, "demo")
		if i%2 == 0 {
			srv.Follow(u, owner)
		}
	}
	c, err := srv.NewClient(forgejo.WithHTTPClient(&http.Client{Transport: windowSkipper{next: srv.HTTPClient().Transport, clock: clock, window: window}}))
	if err != nil {
		return err
	}
	ctx := context.Background()
	for _, r := range releases {
		rel, _, err := c.Repos.CreateRelease(ctx, owner, "demo", forgejo.CreateReleaseRequest{
			TagName: r.tag, Name: r.title, Body: r.notes, Prerelease: r.prerelease, TargetCommitish: "main",
		})
		if err != nil {
			return fmt.Errorf("seeding the release %s: %w", r.tag, err)
		}
		for _, as := range r.assets {
			if _, _, err := c.Repos.UploadReleaseAsset(ctx, owner, "demo", rel.ID, nil, forgejo.Upload{Name: as[0], Content: strings.NewReader(as[1])}); err != nil {
				return fmt.Errorf("seeding the asset %s: %w", as[0], err)
			}
		}
	}
	return nil
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
