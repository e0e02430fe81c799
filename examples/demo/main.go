// Command demo shows forgego's main job end to end without touching the
// network: it starts an in-process server on 127.0.0.1 that answers with
// real bodies captured from codeberg.org (testdata/codeberg), then reads the
// instance's version and limits, a repository, and walks every issue page by
// page. The server clamps page sizes to 3 and fails the second page once
// with 503 and Retry-After, so the walk shows the retry engine at work.
//
// Run it from the repository root:
//
//	go run ./examples/demo
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"codeberg.org/forgego/forgejo"
)

func main() {
	fixtures := flag.String("fixtures", "testdata/codeberg", "directory of captured bodies")
	flag.Parse()
	if err := run(*fixtures); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	srv, err := newServer(dir)
	if err != nil {
		return err
	}
	defer srv.Close()

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{
		Level: slog.LevelInfo,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	client, err := forgejo.NewClient(
		forgejo.WithBaseURL(srv.URL), // an instance root: /api/v1 is appended
		forgejo.WithRetryPolicy(forgejo.RetryPolicy{MaxAttempts: 3, BaseDelay: 100 * time.Millisecond, MaxDelay: 2 * time.Second, RespectRetryAfter: true}),
		forgejo.WithHooks(forgejo.NewSlogHooks(logger)),
	)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	v, _, err := client.Misc.GetVersion(ctx)
	if err != nil {
		return err
	}
	settings, _, err := client.Settings.GetAPI(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("instance %s: version %s, max_response_items %d\n", client.BaseURL(), v.Version, settings.MaxResponseItems)

	repo, _, err := client.Repos.Get(ctx, "codeberg", "Community")
	if err != nil {
		return err
	}
	fmt.Printf("repository %s: %d open issues, default branch %s\n\n", repo.FullName, repo.OpenIssuesCount, repo.DefaultBranch)

	// Ask for 50 a page; the instance clamps to 3 but offers rel="next",
	// so the walk keeps going until the Link header stops offering a page.
	n := 0
	opts := &forgejo.IssueListOptions{State: "all", ListOptions: forgejo.ListOptions{Limit: 50}}
	for issue, err := range client.Issues.ListIter(ctx, "codeberg", "Community", opts) {
		if err != nil {
			return err
		}
		n++
		fmt.Printf("#%-5d %-6s %s\n", issue.Number, issue.State, issue.Title)
	}
	fmt.Printf("\nwalked %d issues\n", n)

	_, _, err = client.Repos.Get(ctx, "forgejo", "codeberg4s-no-such-repo")
	var apiErr *forgejo.APIError
	if errors.As(err, &apiErr) {
		fmt.Printf("\na missing repository is an *APIError: status %d, message %q\n", apiErr.StatusCode, apiErr.Message)
	}
	return nil
}

// newServer serves the captured bodies. Issues are the nine captured ones,
// three a page whatever limit is asked for, with Link and X-Total-Count as
// Forgejo sends them.
func newServer(dir string) (*httptest.Server, error) {
	read := func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }
	files := map[string]string{
		"/api/v1/version":                                "version/version.json",
		"/api/v1/settings/api":                           "misc/settings-api.json",
		"/api/v1/repos/codeberg/Community":               "repository/repo-single-community.json",
		"/api/v1/repos/forgejo/codeberg4s-no-such-repo":  "error/404-repo-not-found.json",
		"/api/v1/repos/codeberg/Community/issues?page=1": "issue/list-open.json",
		"/api/v1/repos/codeberg/Community/issues?page=2": "issue/list-closed.json",
		"/api/v1/repos/codeberg/Community/issues?page=3": "issue/list-labelled.json",
	}
	bodies := map[string][]byte{}
	for route, file := range files {
		b, err := read(file)
		if err != nil {
			return nil, fmt.Errorf("%w (run from the repository root, or pass -fixtures)", err)
		}
		bodies[route] = b
	}
	var page2Hits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		key := r.URL.Path
		if r.URL.Path == "/api/v1/repos/codeberg/Community/issues" {
			page, _ := strconv.Atoi(r.URL.Query().Get("page"))
			limit := r.URL.Query().Get("limit")
			if page == 2 && page2Hits.Add(1) == 1 {
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte(`{"message":"try again shortly"}`))
				return
			}
			key += "?page=" + strconv.Itoa(page)
			w.Header().Set("X-Total-Count", "9")
			link := func(p int, rel string) string {
				return fmt.Sprintf(`<http://%s%s?limit=%s&page=%d>; rel="%s"`, r.Host, r.URL.Path, limit, p, rel)
			}
			switch page {
			case 1:
				w.Header().Set("Link", link(2, "next")+","+link(3, "last"))
			case 2:
				w.Header().Set("Link", link(3, "next")+","+link(3, "last")+","+link(1, "first")+","+link(1, "prev"))
			default:
				w.Header().Set("Link", link(1, "first")+","+link(2, "prev"))
			}
		}
		b, ok := bodies[key]
		if !ok {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte("404 page not found"))
			return
		}
		if r.URL.Path == "/api/v1/repos/forgejo/codeberg4s-no-such-repo" {
			w.WriteHeader(http.StatusNotFound)
		}
		_, _ = w.Write(b)
	})
	return httptest.NewServer(mux), nil
}
