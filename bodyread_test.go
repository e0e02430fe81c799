package forgejo

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
)

// JSON success bodies are read into pooled buffers (bodyread.go) that the
// next call overwrites. What a call returned must not change when that
// happens: every decoder, generated or encoding/json, must have copied what
// it kept. Each answer here is followed by one of the same length made of
// other bytes, read into the same buffer.
func TestPooledBodyIsNotKept(t *testing.T) {
	repo, err := os.ReadFile("testdata/codeberg/repository/repo-single.json")
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if n.Add(1)%2 == 0 {
			// The same length, every letter moved on 13 places (the
			// literals put back, so that it stays JSON).
			other := bytes.Map(func(r rune) rune {
				if 'a' <= r && r <= 'z' {
					return 'a' + (r-'a'+13)%26
				}
				return r
			}, repo)
			for _, lit := range []string{"true", "false", "null"} {
				other = bytes.ReplaceAll(other, bytes.Map(func(r rune) rune { return 'a' + (r-'a'+13)%26 }, []byte(lit)), []byte(lit))
			}
			_, _ = w.Write(other)
			return
		}
		_, _ = w.Write(repo)
	}))
	t.Cleanup(srv.Close)
	c := clClient(t, srv.URL)
	ctx := context.Background()
	overwrite := func() {
		t.Helper()
		if _, err := c.Do(ctx, &Request{Method: "GET", Path: "/x", Retry: RetryIdempotentOnly}, new(map[string]any)); err != nil {
			t.Fatal(err)
		}
	}

	got, _, err := c.Repos.Get(ctx, "o", "r") // the generated decoder
	if err != nil {
		t.Fatal(err)
	}
	overwrite()
	var want Repository
	if err := json.Unmarshal(repo, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("a Repository changed when the next body was read")
	}

	for _, tc := range []struct {
		name string
		out  func() any
	}{
		{"map[string]any", func() any { return new(map[string]any) }},
		{"json.RawMessage", func() any { return new(json.RawMessage) }},
		{"a caller's struct", func() any {
			return new(struct {
				Name  string          `json:"name"`
				Owner json.RawMessage `json:"owner"`
			})
		}},
	} {
		gotV := tc.out()
		if _, err := c.Do(ctx, &Request{Method: "GET", Path: "/x", Retry: RetryIdempotentOnly}, gotV); err != nil {
			t.Fatal(err)
		}
		overwrite()
		wantV := tc.out()
		if err := json.Unmarshal(repo, wantV); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotV, wantV) {
			t.Errorf("%s: the value changed when the next body was read: %.200v", tc.name, gotV)
		}
	}
	if !strings.Contains(string(repo), `"forgejo"`) {
		t.Fatal("the fixture is not the one this test was written against")
	}
}

// readInto sizes its buffer from a claimed length only up to
// maxPooledBody, so that a lying Content-Length costs no more than that
// before the bytes arrive.
func TestReadIntoBoundsTheClaimedLength(t *testing.T) {
	buf, err := readInto(nil, strings.NewReader("abc"), 1<<40)
	if err != nil || string(buf) != "abc" {
		t.Fatalf("readInto = %q, %v", buf, err)
	}
	if cap(buf) > 2*maxPooledBody {
		t.Errorf("a claimed length of 1 TiB allocated %d bytes", cap(buf))
	}
	releaseBody(&buf)
	big := make([]byte, 0, maxPooledBody+1)
	releaseBody(&big) // too big to keep: dropped, no panic
}
