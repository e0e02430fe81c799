package forgejo

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
)

// The benchmarks compare one call through the client with the same call made
// by hand with net/http and encoding/json against the same local server, so
// the difference is the pipeline's overhead (URL building, validation,
// bounded read, status mapping, observer and retry bookkeeping).

// bnIssuePage builds a 50-issue page from the real captured issues.
func bnIssuePage(b *testing.B) []byte {
	b.Helper()
	raw, err := os.ReadFile("testdata/codeberg/issue/list-labelled.json")
	if err != nil {
		b.Skip("fixture missing:", err)
	}
	var three []map[string]any
	if err := json.Unmarshal(raw, &three); err != nil {
		b.Fatal(err)
	}
	page := make([]map[string]any, 50)
	for i := range page {
		issue := map[string]any{}
		for k, v := range three[i%len(three)] {
			issue[k] = v
		}
		issue["number"] = i + 1
		page[i] = issue
	}
	out, err := json.Marshal(page)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

func bnServer(b *testing.B, body []byte) *httptest.Server {
	b.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Link", `<http://x/api/v1/repos/o/r/issues?page=2&limit=50>; rel="next"`)
		w.Header().Set("X-Total-Count", "1590")
		_, _ = w.Write(body)
	}))
	b.Cleanup(srv.Close)
	return srv
}

func BenchmarkListIssues50(b *testing.B) {
	body := bnIssuePage(b)
	srv := bnServer(b, body)
	b.Run("client", func(b *testing.B) {
		c, err := NewClient(WithBaseURL(srv.URL))
		if err != nil {
			b.Fatal(err)
		}
		opts := &IssueListOptions{State: "open", ListOptions: ListOptions{Limit: 50}}
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			issues, resp, err := c.Issues.List(context.Background(), "o", "r", opts)
			if err != nil || len(issues) != 50 || resp.NextPage != 2 {
				b.Fatal(err)
			}
		}
	})
	b.Run("plain net/http", func(b *testing.B) {
		hc := &http.Client{} // http.DefaultTransport, as the client uses
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			bnPlainGet(b, hc, srv.URL+"/api/v1/repos/o/r/issues?state=open&page=1&limit=50", 50)
		}
	})
}

func BenchmarkGetVersion(b *testing.B) {
	srv := bnServer(b, []byte(`{"version":"16.0.0-dev-668-1bdb1938+gitea-1.22.0"}`))
	b.Run("client", func(b *testing.B) {
		c, err := NewClient(WithBaseURL(srv.URL))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := c.Misc.GetVersion(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("plain net/http", func(b *testing.B) {
		hc := &http.Client{} // http.DefaultTransport, as the client uses
		b.ReportAllocs()
		for b.Loop() {
			req, _ := http.NewRequestWithContext(context.Background(), "GET", srv.URL+"/api/v1/version", nil)
			resp, err := hc.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			var v ServerVersion
			err = json.NewDecoder(resp.Body).Decode(&v)
			_ = resp.Body.Close()
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

func bnPlainGet(b *testing.B, hc *http.Client, url string, want int) {
	req, _ := http.NewRequestWithContext(context.Background(), "GET", url, nil)
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	var issues []*Issue
	err = json.NewDecoder(resp.Body).Decode(&issues)
	_ = resp.Body.Close()
	if err != nil || len(issues) != want {
		b.Fatal(err)
	}
}

func BenchmarkParseLinks(b *testing.B) {
	h := []string{`<https://codeberg.org/api/v1/repos/forgejo/forgejo/issues?limit=2&page=6>; rel="next",<https://codeberg.org/api/v1/repos/forgejo/forgejo/issues?limit=2&page=795>; rel="last",<https://codeberg.org/api/v1/repos/forgejo/forgejo/issues?limit=2&page=1>; rel="first",<https://codeberg.org/api/v1/repos/forgejo/forgejo/issues?limit=2&page=4>; rel="prev"`}
	b.ReportAllocs()
	for b.Loop() {
		if parseLinks(h).next != 6 {
			b.Fatal("bad parse")
		}
	}
}
