package forgejo

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// This file tests URL building: path parameters cannot forge another path,
// are encoded as their kind says, and sensitive query values are masked in
// the rendered URL.

func TestURLSensitiveQueryParams(t *testing.T) {
	names := []string{"token", "access_token", "private_token", "password", "sudo",
		"Access_Token", "TOKEN", "Private_Token", "PassWord", "SUDO"}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			secretA, secretB := rdHex(t, 10), rdHex(t, 10)
			var gotQuery url.Values
			var mu sync.Mutex
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				gotQuery = r.URL.Query()
				mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				io.WriteString(w, `{"message":"GetRepositoryByName"}`)
			}))
			defer srv.Close()
			rec := &rdRecorder{}
			c := rdNewClient(t, WithBaseURL(srv.URL), withObserver(rec))
			_, err := c.Do(context.Background(), &Request{
				Method: "GET", Path: "/repos/o/r/issues", Retry: RetryIdempotentOnly,
				Query: url.Values{name: {secretA, secretB}, "q": {"visible"}, "state": {"open"}},
			}, nil)
			var ae *APIError
			if !errors.As(err, &ae) || ae.StatusCode != 404 {
				t.Fatalf("want a 404 *APIError, got %T %v", err, err)
			}
			wantURL := srv.URL + "/api/v1/repos/o/r/issues?" + name + "=***&" + name + "=***&q=visible&state=open"
			if strings.ToLower(name) != name { // upper-case names sort first
				if ae.Call.URL != wantURL {
					t.Errorf("CallContext.URL = %q, want %q", ae.Call.URL, wantURL)
				}
			} else if !strings.Contains(ae.Call.URL, name+"=***&"+name+"=***") || !strings.Contains(ae.Call.URL, "q=visible") ||
				!strings.Contains(ae.Call.URL, "state=open") {
				t.Errorf("CallContext.URL = %q, want %s masked and the other parameters kept", ae.Call.URL, name)
			}
			mu.Lock()
			got := gotQuery[name]
			mu.Unlock()
			if len(got) != 2 || got[0] != secretA || got[1] != secretB {
				t.Errorf("server received %s=%q, want the real values", name, got)
			}
			lines, urls := rec.snapshot()
			for _, u := range urls {
				if !strings.Contains(u, name+"=***") {
					t.Errorf("observer URL %q does not mask %s", u, name)
				}
			}
			for _, s := range append(rdErrStrings(err), lines...) {
				rdNoSecret(t, "output", s, rdNeedles(secretA, secretB))
			}
		})
	}
}

func TestURLSensitiveQueryOnlyMasksSensitiveNames(t *testing.T) {
	send, redacted := buildURL("https://h/api/v1", "/x", []queryParam{
		{"q", "tok"}, {"page", "2"}, {"limit", "30"}, {"Sudo", "admin"}, {"state", "a b"},
	})
	if want := "https://h/api/v1/x?q=tok&page=2&limit=30&Sudo=admin&state=a%20b"; send != want {
		t.Errorf("send = %q, want %q", send, want)
	}
	if want := "https://h/api/v1/x?q=tok&page=2&limit=30&Sudo=***&state=a%20b"; redacted != want {
		t.Errorf("redacted = %q, want %q", redacted, want)
	}
	send, redacted = buildURL("https://h/api/v1", "/x", []queryParam{{"q", "x"}})
	if send != redacted {
		t.Errorf("without sensitive params redacted %q differs from sent %q", redacted, send)
	}
}

// rdCountingServer counts requests and records their paths.
func rdCountingServer(t *testing.T) (*httptest.Server, func() (n int, escaped, decoded []string)) {
	t.Helper()
	var mu sync.Mutex
	var escaped, decoded []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		escaped = append(escaped, r.URL.EscapedPath())
		decoded = append(decoded, r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/topics"):
			io.WriteString(w, `{"topics":[]}`)
		case strings.Contains(r.URL.Path, "/issues/"):
			io.WriteString(w, `{"number":7,"title":"t"}`)
		case strings.HasSuffix(r.URL.Path, "/issues"):
			io.WriteString(w, `[]`)
		default:
			io.WriteString(w, rdRepoJSON)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() (int, []string, []string) {
		mu.Lock()
		defer mu.Unlock()
		return len(escaped), append([]string(nil), escaped...), append([]string(nil), decoded...)
	}
}

func TestPathRejectsForgedSegments(t *testing.T) {
	srv, seen := rdCountingServer(t)
	rec := &rdRecorder{}
	c := rdNewClient(t, WithBaseURL(srv.URL), withObserver(rec))
	ctx := context.Background()
	calls := map[string]func(owner, repo string) error{
		"Repos.Get": func(o, r string) error { _, _, err := c.Repos.Get(ctx, o, r); return err },
		"Repos.ListTopics": func(o, r string) error {
			_, _, err := c.Repos.ListTopics(ctx, o, r, nil)
			return err
		},
		"Repos.ReplaceTopics": func(o, r string) error { _, err := c.Repos.ReplaceTopics(ctx, o, r, []string{"x"}); return err },
		"Issues.Get":          func(o, r string) error { _, _, err := c.Issues.Get(ctx, o, r, 7); return err },
		"Issues.Edit": func(o, r string) error {
			_, _, err := c.Issues.Edit(ctx, o, r, 7, EditIssueRequest{State: Ptr(StateClosed)})
			return err
		},
		"Issues.ListIter": func(o, r string) error {
			for _, err := range c.Issues.ListIter(ctx, o, r, nil) {
				if err != nil {
					return err
				}
			}
			return nil
		},
	}
	bad := []string{"", "  ", "a/b", "/", ".", "..", " .. ", "a\x00b", "a\nb", "a\x7fb",
		// Dot segments a decoding, backslash-splitting proxy would see.
		"%2e%2e", "%2E.", ".%2e", "%252e%252e", `..\x`, `x\..`, "%5C..", "%25252e%25252E"}
	for name, call := range calls {
		for _, v := range bad {
			for _, field := range []string{"owner", "repo"} {
				owner, repo := "o", "r"
				if field == "owner" {
					owner = v
				} else {
					repo = v
				}
				err := call(owner, repo)
				var ve *ValidationError
				if !errors.As(err, &ve) || ve.Field != field {
					t.Errorf("%s with %s=%q: got %T %v, want *ValidationError on %s", name, field, v, err, err, field)
					continue
				}
				if vv := strings.TrimSpace(v); vv != "" && vv != "." && vv != ".." && strings.Contains(ve.Message, vv) {
					t.Errorf("%s: message echoes %q: %q", name, v, ve.Message)
				}
			}
		}
	}
	if n, paths, _ := seen(); n != 0 {
		t.Errorf("%d requests reached the server, want 0: %q", n, paths)
	}
	lines, urls := rec.snapshot()
	if len(lines) == 0 {
		t.Fatal("the observer was not told about the rejected calls")
	}
	for _, u := range urls {
		if u != "(not sent)" {
			t.Errorf("a rejected call reported URL %q, want (not sent)", u)
		}
	}
}

func TestPathEncodesSegments(t *testing.T) {
	cases := []struct {
		owner, repo   string
		wantEscaped   string // after /api/v1/repos/
		wantOwnerRepo string // decoded
	}{
		{"a b", "ü", "a%20b/%C3%BC", "a b/ü"},
		{"o", "ünï cödé", "o/%C3%BCn%C3%AF%20c%C3%B6d%C3%A9", "o/ünï cödé"},
		{"100%", "what?", "100%25/what%3F", "100%/what?"},
		{"c#", "x+y", "c%23/x%2By", "c#/x+y"},
		{"a;b", "a&b=c", "a%3Bb/a%26b%3Dc", "a;b/a&b=c"},
		{"%2e%2e.x", "%2F", "%252e%252e.x/%252F", "%2e%2e.x/%2F"},
		{`a\b`, "...", "a%5Cb/...", `a\b/...`},
		{"  trimmed  ", "r", "trimmed/r", "trimmed/r"},
		{"Forgejo-Contrib", "forgejo_mcp.v2~x", "Forgejo-Contrib/forgejo_mcp.v2~x", "Forgejo-Contrib/forgejo_mcp.v2~x"},
	}
	srv, seen := rdCountingServer(t)
	c := rdNewClient(t, WithBaseURL(srv.URL))
	for i, tc := range cases {
		if _, _, err := c.Repos.Get(context.Background(), tc.owner, tc.repo); err != nil {
			t.Errorf("Repos.Get(%q, %q): %v", tc.owner, tc.repo, err)
			continue
		}
		n, escaped, decoded := seen()
		if n != i+1 {
			t.Fatalf("after case %d the server saw %d requests", i, n)
		}
		if want := "/api/v1/repos/" + tc.wantEscaped; escaped[i] != want {
			t.Errorf("Repos.Get(%q, %q) sent %q, want %q", tc.owner, tc.repo, escaped[i], want)
		}
		if want := "/api/v1/repos/" + tc.wantOwnerRepo; decoded[i] != want {
			t.Errorf("Repos.Get(%q, %q) decoded as %q, want %q", tc.owner, tc.repo, decoded[i], want)
		}
	}
	// The encoding is the same through a longer template.
	if _, _, err := c.Issues.Get(context.Background(), "a b", "ü", 12); err != nil {
		t.Fatal(err)
	}
	_, escaped, _ := seen()
	if got, want := escaped[len(escaped)-1], "/api/v1/repos/a%20b/%C3%BC/issues/12"; got != want {
		t.Errorf("GetIssue sent %q, want %q", got, want)
	}
}

func TestPathMultiSegment(t *testing.T) {
	good := []struct{ in, want string }{
		{"renovate/forgejo-x", "/repos/o/r/branches/renovate/forgejo-x"},
		{"v16.0/forgejo", "/repos/o/r/branches/v16.0/forgejo"},
		{"main", "/repos/o/r/branches/main"},
		{"docs/a b/ünï.md", "/repos/o/r/branches/docs/a%20b/%C3%BCn%C3%AF.md"},
		{"a/%2F/b", "/repos/o/r/branches/a/%252F/b"},
		{"a/.../b", "/repos/o/r/branches/a/.../b"},
	}
	for _, tc := range good {
		got, err := expandPath("/repos/{owner}/{repo}/branches/{branch}", seg("owner", "o"), seg("repo", "r"), segs("branch", tc.in))
		if err != nil || got != tc.want {
			t.Errorf("segs(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	bad := []string{"", "   ", "a//b", "/a", "a/", "/", "a/../b", "./a", "a/.", "..", "a/\x00/b", "a\nb"}
	for _, in := range bad {
		got, err := expandPath("/repos/{owner}/{repo}/contents/{filepath}", seg("owner", "o"), seg("repo", "r"), segs("filepath", in))
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Field != "filepath" || got != "" {
			t.Errorf("segs(%q) = %q, %T %v; want *ValidationError on filepath", in, got, err, err)
		}
	}
	// A single-segment parameter never spans segments.
	if _, err := expandPath("/repos/{owner}/{repo}", seg("owner", "o"), seg("repo", "renovate/x")); err == nil {
		t.Error("seg accepted a slash")
	}
	// Integer parameters render in decimal.
	if got, err := expandPath("/notifications/threads/{id}", num("id", 42)); err != nil || got != "/notifications/threads/42" {
		t.Errorf("num: %q, %v", got, err)
	}
}

func TestPathTemplateMismatch(t *testing.T) {
	cases := []struct {
		name string
		tmpl string
		args []pathArg
	}{
		{"too few", "/repos/{owner}/{repo}", []pathArg{seg("owner", "o")}},
		{"too many", "/repos/{owner}", []pathArg{seg("owner", "o"), seg("repo", "r")}},
		{"none given", "/repos/{owner}/{repo}", nil},
		{"wrong name", "/repos/{owner}/{repo}", []pathArg{seg("owner", "o"), seg("name", "r")}},
		{"wrong order", "/repos/{owner}/{repo}", []pathArg{seg("repo", "r"), seg("owner", "o")}},
		{"unclosed", "/repos/{owner", []pathArg{seg("owner", "o")}},
		{"empty name", "/repos/{}", []pathArg{seg("owner", "o")}},
		{"args without placeholders", "/version", []pathArg{seg("owner", "o")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("expandPath panicked: %v", p)
				}
			}()
			got, err := expandPath(tc.tmpl, tc.args...)
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Field != "path" || got != "" {
				t.Errorf("expandPath(%q) = %q, %T %v; want *ValidationError on path", tc.tmpl, got, err, err)
			}
		})
	}
	if got, err := expandPath("/version"); err != nil || got != "/version" {
		t.Errorf("a template without placeholders: %q, %v", got, err)
	}
}

func TestPathSegSlashEncodesSlashInOneSegment(t *testing.T) {
	p, err := expandPath("/repos/{owner}/{repo}/releases/tags/{tag}", seg("owner", "o"), seg("repo", "r"), segSlash("tag", "release/3.0"))
	if err != nil || p != "/repos/o/r/releases/tags/release%2F3.0" {
		t.Fatalf("path = %q, %v", p, err)
	}
	for _, bad := range []string{"", " ", ".", "..", "a\nb"} {
		if _, err := expandPath("/t/{tag}", segSlash("tag", bad)); err == nil {
			t.Errorf("segSlash accepted %q", bad)
		}
	}
	if _, err := expandPath("/t/{tag}", seg("tag", "a/b")); err == nil {
		t.Error("seg must still refuse a slash")
	}
}
