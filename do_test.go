package forgejo

import (
	"context"
	"errors"
	"testing"
)

func TestDoForUncoveredEndpoints(t *testing.T) {
	srv, seen := tsReplyServer(t, 200, "application/json", `{"full_name":"o/r"}`)
	c := clClient(t, srv.URL)
	var repo Repository
	resp, err := c.Do(context.Background(), &Request{Method: "get", Path: "repos/o/r", Query: map[string][]string{"b": {"2"}, "a": {"1"}}, Retry: RetryIdempotentOnly, Operation: "custom"}, &repo)
	if err != nil || repo.FullName != "o/r" || resp.Attempts != 1 {
		t.Fatalf("repo = %+v err = %v", repo, err)
	}
	if s := seen()[0]; s.method != "GET" || s.path != "/api/v1/repos/o/r" || s.query != "a=1&b=2" {
		t.Fatalf("request = %+v", s)
	}
	var text string
	if _, err := c.Do(context.Background(), &Request{Method: "POST", Path: "/markdown/raw", Body: []byte(`x`)}, &text); err != nil || text != `{"full_name":"o/r"}` {
		t.Fatalf("text = %q err = %v", text, err)
	}
	for _, bad := range []*Request{nil, {Method: "GET"}, {Method: "BREW", Path: "/x"}, {Method: "GET", Path: "/a/../b"},
		{Method: "GET", Path: "/a/%2e%2e/b"}, {Method: "GET", Path: "/x?y=1"}, {Method: "GET", Path: "https://evil.example/x"}} {
		before := len(seen())
		_, err := c.Do(context.Background(), bad, nil)
		var ve *ValidationError
		if !errors.As(err, &ve) || len(seen()) != before {
			t.Errorf("request %+v: err = %v, sent = %d", bad, err, len(seen())-before)
		}
	}
}
