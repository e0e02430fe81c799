package forgejo_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// Every example starts its own small test server answering with bodies cut
// from real Codeberg responses, so that it runs (and is checked) offline.

func ExampleNewClient() {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		fmt.Fprintf(w, `{"version":"16.0.0-dev-668-1bdb1938+gitea-1.22.0"}`)
	}))
	defer srv.Close()

	client, err := forgejo.NewClient(
		// An instance root; "/api/v1" is appended. For Codeberg leave the
		// option out: DefaultBaseURL is https://codeberg.org/api/v1.
		forgejo.WithBaseURL(srv.URL),
		// Usually os.Getenv("FORGEJO_TOKEN"); surrounding spaces and a
		// trailing newline are trimmed.
		forgejo.WithToken("0123456789abcdef0123456789abcdef01234567"),
		// More patient than DefaultRetryPolicy.
		forgejo.WithRetryPolicy(forgejo.RetryPolicy{
			MaxAttempts:       5,
			BaseDelay:         500 * time.Millisecond,
			MaxDelay:          30 * time.Second,
			Jitter:            forgejo.JitterFull,
			RespectRetryAfter: true,
		}),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The test server's address changes on every run; print what follows it.
	fmt.Println("base URL:", strings.TrimPrefix(client.BaseURL(), srv.URL))
	fmt.Println("requests after NewClient:", requests.Load())

	v, _, err := client.Misc.GetVersion(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("version:", v.Version)
	// Output:
	// base URL: /api/v1
	// requests after NewClient: 0
	// version: 16.0.0-dev-668-1bdb1938+gitea-1.22.0
}

func ExampleReposService_Get() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/repos/forgejo/forgejo" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{
    "id": 73144,
    "owner": {"id": 70422, "login": "forgejo", "full_name": "Forgejo", "last_login": "0001-01-01T00:00:00Z"},
    "name": "forgejo",
    "full_name": "forgejo/forgejo",
    "description": "Beyond coding. We forge.",
    "empty": false,
    "private": false,
    "fork": false,
    "parent": null,
    "stars_count": 5233,
    "forks_count": 892,
    "default_branch": "forgejo",
    "archived": false,
    "archived_at": "1970-01-01T01:00:00+01:00"
}`)
	}))
	defer srv.Close()

	client, err := forgejo.NewClient(forgejo.WithBaseURL(srv.URL))
	if err != nil {
		fmt.Println(err)
		return
	}
	repo, resp, err := client.Repos.Get(context.Background(), "forgejo", "forgejo")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(repo.FullName, "-", repo.Description)
	fmt.Println("owner:", repo.Owner.Login)
	fmt.Println("default branch:", repo.DefaultBranch)
	fmt.Println("stars:", repo.StarsCount, "forks:", repo.ForksCount)
	fmt.Println("status:", resp.StatusCode, "attempts:", resp.Attempts)
	// Output:
	// forgejo/forgejo - Beyond coding. We forge.
	// owner: forgejo
	// default branch: forgejo
	// stars: 5233 forks: 892
	// status: 200 attempts: 1
}

// exampleIssuePages serves two pages of open issues, linking the first to the
// second with a Link header as Forgejo does.
func exampleIssuePages() *httptest.Server {
	pages := map[string]string{
		"1": `[{"number":13731,"title":"fix(package/pypi): response header based on PEP691","state":"open"},
		       {"number":13729,"title":"enh: ability to disable emoji reactions","state":"open"}]`,
		"2": `[{"number":13728,"title":"fix: activitypub s2s requests fail","state":"open"}]`,
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		page := q.Get("page")
		body, ok := pages[page]
		if !ok || r.URL.Path != "/api/v1/repos/forgejo/forgejo/issues" || q.Get("state") != "open" {
			http.NotFound(w, r)
			return
		}
		next := "http://" + r.Host + r.URL.Path + "?limit=" + q.Get("limit") + "&page=2&state=open"
		if page == "1" {
			w.Header().Set("Link", "<"+next+`>; rel="next",<`+next+`>; rel="last"`)
		}
		w.Header().Set("X-Total-Count", "3")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
}

func ExampleIssuesService_ListIter() {
	srv := exampleIssuePages()
	defer srv.Close()
	client, err := forgejo.NewClient(forgejo.WithBaseURL(srv.URL))
	if err != nil {
		fmt.Println(err)
		return
	}

	// Pages are fetched one at a time, following the Link header; breaking
	// out of the loop stops the walk.
	params := &forgejo.IssueListOptions{State: "open", ListOptions: forgejo.ListOptions{Limit: 2}}
	for issue, err := range client.Issues.ListIter(context.Background(), "forgejo", "forgejo", params) {
		if err != nil {
			fmt.Println("walk failed:", err)
			return
		}
		fmt.Printf("#%d %s\n", issue.Number, issue.Title)
	}
	// Output:
	// #13731 fix(package/pypi): response header based on PEP691
	// #13729 enh: ability to disable emoji reactions
	// #13728 fix: activitypub s2s requests fail
}

func ExampleAll() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pages := map[string]string{"1": `{"topics":["forge","forgejo"]}`, "2": `{"topics":["git","self-hosted"]}`}
		body, ok := pages[r.URL.Query().Get("page")]
		if !ok || r.URL.Path != "/api/v1/repos/forgejo/forgejo/topics" {
			http.NotFound(w, r)
			return
		}
		if r.URL.Query().Get("page") == "1" {
			w.Header().Set("Link", `<http://`+r.Host+r.URL.Path+`?limit=2&page=2>; rel="next"`)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	defer srv.Close()
	client, err := forgejo.NewClient(forgejo.WithBaseURL(srv.URL))
	if err != nil {
		fmt.Println(err)
		return
	}

	// Any listing becomes a PageFunc once its other arguments are bound.
	var topics forgejo.PageFunc[string] = func(ctx context.Context, o forgejo.ListOptions) ([]string, *forgejo.Response, error) {
		return client.Repos.ListTopics(ctx, "forgejo", "forgejo", &o)
	}
	ctx := context.Background()
	for topic, err := range forgejo.All(ctx, forgejo.ListOptions{Limit: 2}, topics) {
		if err != nil {
			fmt.Println("walk failed:", err)
			return
		}
		fmt.Println(topic)
	}

	// Collect gathers the same walk into a slice.
	all, err := forgejo.Collect(ctx, forgejo.ListOptions{Limit: 2}, topics)
	fmt.Println(len(all), "topics, err:", err)
	// Output:
	// forge
	// forgejo
	// git
	// self-hosted
	// 4 topics, err: <nil>
}

func ExampleAPIError() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{
    "message": "GetRepositoryByName",
    "url": "https://codeberg.org/api/swagger",
    "errors": ["repository does not exist [id: 0, uid: 0, owner_name: forgejo, name: no-such-repo]"]
}`)
	}))
	defer srv.Close()
	client, err := forgejo.NewClient(forgejo.WithBaseURL(srv.URL))
	if err != nil {
		fmt.Println(err)
		return
	}

	_, _, err = client.Repos.Get(context.Background(), "forgejo", "no-such-repo")
	var apiErr *forgejo.APIError
	if errors.As(err, &apiErr) {
		// 404 means missing, or private to these credentials. Forgejo's
		// Message is often a Go symbol; the human sentence is Errors[0].
		fmt.Println("status:", apiErr.StatusCode)
		fmt.Println("message:", apiErr.Message)
		fmt.Println("detail:", apiErr.Errors[0])
		fmt.Println("operation:", apiErr.Call.Operation)
	}
	// Output:
	// status: 404
	// message: GetRepositoryByName
	// detail: repository does not exist [id: 0, uid: 0, owner_name: forgejo, name: no-such-repo]
	// operation: repoGet
}

func ExampleRetriesExhaustedError() {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, "upstream unavailable")
	}))
	defer srv.Close()
	client, err := forgejo.NewClient(
		forgejo.WithBaseURL(srv.URL),
		forgejo.WithRetryPolicy(forgejo.RetryPolicy{
			MaxAttempts: 3,
			BaseDelay:   time.Millisecond,
			MaxDelay:    time.Millisecond,
			Jitter:      forgejo.JitterNone,
		}),
	)
	if err != nil {
		fmt.Println(err)
		return
	}

	_, resp, err := client.Repos.Get(context.Background(), "forgejo", "forgejo")
	var exhausted *forgejo.RetriesExhaustedError
	if errors.As(err, &exhausted) {
		fmt.Println("attempts:", exhausted.Attempts)
	}
	// errors.As sees through RetriesExhaustedError to the last failure.
	var apiErr *forgejo.APIError
	if errors.As(err, &apiErr) {
		fmt.Println("last status:", apiErr.StatusCode, apiErr.Message)
	}
	fmt.Println("requests:", hits.Load(), "response attempts:", resp.Attempts)
	// Output:
	// attempts: 3
	// last status: 503 upstream unavailable
	// requests: 3 response attempts: 3
}

func ExampleNewSlogHooks() {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		w.Header().Set("X-Request-Id", fmt.Sprintf("req-%d", n))
		if n == 1 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		io.WriteString(w, `{"version":"11.0.3+gitea-1.22.0"}`)
	}))
	defer srv.Close()

	handler := slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		// Keep the output stable: drop the time, the measured duration and
		// the error text (which carries the duration too), and strip the
		// test server's changing address from URLs.
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			switch a.Key {
			case slog.TimeKey, "duration", "error":
				return slog.Attr{}
			case "url":
				return slog.String("url", strings.TrimPrefix(a.Value.String(), srv.URL))
			}
			return a
		},
	})
	client, err := forgejo.NewClient(
		forgejo.WithBaseURL(srv.URL),
		forgejo.WithHooks(forgejo.NewSlogHooks(slog.New(handler))),
		forgejo.WithRetryPolicy(forgejo.RetryPolicy{MaxAttempts: 2, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond, Jitter: forgejo.JitterNone}),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, _, err := client.Misc.GetVersion(context.Background()); err != nil {
		fmt.Println(err)
	}
	// Output:
	// level=DEBUG msg="forgejo request" op=getVersion method=GET url=/api/v1/version attempt=1
	// level=DEBUG msg="forgejo response" op=getVersion status=502 attempt=1 request_id=req-1
	// level=DEBUG msg="forgejo attempt failed" op=getVersion method=GET url=/api/v1/version attempt=1
	// level=INFO msg="forgejo retrying" op=getVersion attempt=1 wait=1ms
	// level=DEBUG msg="forgejo request" op=getVersion method=GET url=/api/v1/version attempt=2
	// level=DEBUG msg="forgejo response" op=getVersion status=200 attempt=2 request_id=req-2
}

func ExampleClient_Do() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/api/v1/repos/forgejo/forgejo/languages" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"Go": 17463134, "go-html-template": 2270982, "JavaScript": 580813, "CSS": 398185}`)
	}))
	defer srv.Close()
	client, err := forgejo.NewClient(forgejo.WithBaseURL(srv.URL))
	if err != nil {
		fmt.Println(err)
		return
	}

	// An endpoint the library does not cover yet goes through the same
	// pipeline: auth, bounds, status mapping, redaction, observers. Retry
	// eligibility is stated explicitly; the zero value is Never.
	var languages map[string]int64
	_, err = client.Do(context.Background(), &forgejo.Request{
		Method:    http.MethodGet,
		Path:      "/repos/forgejo/forgejo/languages",
		Retry:     forgejo.RetryIdempotentOnly, // a read
		Operation: "repoGetLanguages",          // the label in errors and observer events
	}, &languages)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range slices.Sorted(maps.Keys(languages)) {
		fmt.Println(name, languages[name])
	}
	// Output:
	// CSS 398185
	// Go 17463134
	// JavaScript 580813
	// go-html-template 2270982
}

func ExamplePtr() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		// Show exactly what the instance received.
		fmt.Printf("server received: %s %s %s\n", r.Method, r.URL.Path, body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated) // Forgejo answers an edit with 201
		io.WriteString(w, `{"number":7,"title":"Crash on empty config","body":"","state":"closed"}`)
	}))
	defer srv.Close()
	client, err := forgejo.NewClient(forgejo.WithBaseURL(srv.URL), forgejo.WithToken("0123456789abcdef"))
	if err != nil {
		fmt.Println(err)
		return
	}

	// nil fields are not sent and stay as they are; Ptr("") is sent and
	// clears the body.
	issue, _, err := client.Issues.Edit(context.Background(), "forgejo", "forgejo", 7, forgejo.EditIssueRequest{
		State: forgejo.Ptr(forgejo.StateClosed),
		Body:  forgejo.Ptr(""),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("#%d %q is %s\n", issue.Number, issue.Title, issue.State)
	// Output:
	// server received: PATCH /api/v1/repos/forgejo/forgejo/issues/7 {"body":"","state":"closed"}
	// #7 "Crash on empty config" is closed
}

func ExampleWithHooks() {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, `{"version":"11.0.3+gitea-1.22.0"}`)
	}))
	defer srv.Close()

	// Set only the hooks you need; the others cost nothing.
	hooks := forgejo.Hooks{
		Response: func(_ context.Context, call forgejo.CallContext, status int) {
			fmt.Println(call.Operation, "attempt", call.Attempt, "status", status)
		},
		Retry: func(_ context.Context, call forgejo.CallContext, err error, _ time.Duration) {
			fmt.Println("retrying after attempt", call.Attempt)
		},
		EndCall: func(_ context.Context, call forgejo.CallContext, status int, err error) {
			fmt.Println("call ended after", call.Attempt, "attempts with", status, err)
		},
		// A panicking hook never fails the call; its first panic is
		// reported here (or, without HookPanic, to slog.Default()).
		HookPanic: func(hook string, value any) { fmt.Println("hook", hook, "panicked:", value) },
	}
	client, err := forgejo.NewClient(
		forgejo.WithBaseURL(srv.URL),
		forgejo.WithHooks(hooks),
		forgejo.WithHooks(forgejo.Hooks{Request: func(context.Context, forgejo.CallContext) { panic("oops") }}),
		forgejo.WithRetryPolicy(forgejo.RetryPolicy{MaxAttempts: 2, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond, Jitter: forgejo.JitterNone}),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, _, err := client.Misc.GetVersion(context.Background()); err != nil {
		fmt.Println(err)
	}
	// Output:
	// hook Request panicked: oops
	// getVersion attempt 1 status 503
	// retrying after attempt 1
	// getVersion attempt 2 status 200
	// call ended after 2 attempts with 200 <nil>
}
