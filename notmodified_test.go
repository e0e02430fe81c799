package forgejo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// This file holds the tables of the conditional calls: a conditional call
// answered 304 Not Modified returns a nil error, the zero result and a
// *Response whose NotModified reports true, from every operation, and a
// stream never returns a nil reader with a nil error. The generated
// per-operation tests (gnRunCases) run the same check on every generated
// operation; this table adds the hand-written ones and Client.Do.

// nmServer answers every request 304 Not Modified with an ETag, counting
// the requests.
func nmServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("ETag", `"e1"`)
		w.WriteHeader(http.StatusNotModified)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// nmCall is one operation called with the conditional options.
type nmCall func(ctx context.Context, c *Client, opts ...RequestOption) (any, *Response, error)

var nmUpload = Upload{Name: "a.txt", Content: strings.NewReader("x")}

// nmCases are operations of every result kind, hand-written ones first.
var nmCases = []struct {
	name string
	call nmCall
}{
	// Hand-written (CONTRIBUTING: repos_contents.go, downloads.go,
	// uploads.go, server_differences.go, repos_topics.go, activitypub.go).
	{"Repos.GetContents (hand-written, *Contents)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Repos.GetContents(ctx, "o", "r", "docs/a.md", nil, o...))
	}},
	{"Repos.GetArchive (hand-written, []byte)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Repos.GetArchive(ctx, "o", "r", "main", ArchiveZip, o...))
	}},
	{"Issues.UploadAttachment (hand-written, *Attachment)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		up := nmUpload
		up.Content = strings.NewReader("x")
		return gnResult(c.Issues.UploadAttachment(ctx, "o", "r", 1, nil, up, o...))
	}},
	{"Issues.UploadCommentAttachment (hand-written, *Attachment)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		up := nmUpload
		up.Content = strings.NewReader("x")
		return gnResult(c.Issues.UploadCommentAttachment(ctx, "o", "r", 1, nil, up, o...))
	}},
	{"Repos.UploadReleaseAsset (hand-written, *Attachment)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		up := nmUpload
		up.Content = strings.NewReader("x")
		return gnResult(c.Repos.UploadReleaseAsset(ctx, "o", "r", 1, nil, up, o...))
	}},
	{"Repos.LinkReleaseAsset (hand-written)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Repos.LinkReleaseAsset(ctx, "o", "r", 1, "a", "https://x.example/a", o...))
	}},
	{"Misc.GetSigningKey (hand-written, string)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Misc.GetSigningKey(ctx, o...))
	}},
	{"Misc.GetSSHSigningKey (hand-written, string)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Misc.GetSSHSigningKey(ctx, o...))
	}},
	{"Repos.GetSigningKey (hand-written, string)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Repos.GetSigningKey(ctx, "o", "r", o...))
	}},
	{"Repos.ReplaceTopics (hand-written, no result)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnNoResult(c.Repos.ReplaceTopics(ctx, "o", "r", []string{"a"}, o...))
	}},
	{"ActivityPub.SendToInstanceInbox (hand-written, no result)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnNoResult(c.ActivityPub.SendToInstanceInbox(ctx, map[string]any{"type": "Follow"}, o...))
	}},
	{"Client.Do into a *Repository", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		var v *Repository
		resp, err := c.Do(ctx, &Request{Method: "GET", Path: "/repos/o/r", Retry: RetryIdempotentOnly}, &v, o...)
		return v, resp, err
	}},
	{"Client.Do into a *string", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		var v string
		resp, err := c.Do(ctx, &Request{Method: "GET", Path: "/x", Retry: RetryIdempotentOnly}, &v, o...)
		return v, resp, err
	}},

	// Generated, one of each result shape.
	{"Repos.Get (*Repository)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Repos.Get(ctx, "o", "r", o...))
	}},
	{"Users.GetCurrent (*User)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Users.GetCurrent(ctx, o...))
	}},
	{"Misc.GetVersion (*ServerVersion)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Misc.GetVersion(ctx, o...))
	}},
	{"Issues.GetComment (maybe empty *Comment)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Issues.GetComment(ctx, "o", "r", 1, o...))
	}},
	{"Repos.GetCombinedStatus (paged object)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Repos.GetCombinedStatus(ctx, "o", "r", "main", nil, o...))
	}},
	{"Issues.List ([]*Issue)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Issues.List(ctx, "o", "r", nil, o...))
	}},
	{"Repos.Search (ok/data envelope)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Repos.Search(ctx, nil, o...))
	}},
	{"Repos.ListTopics (topics envelope)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Repos.ListTopics(ctx, "o", "r", nil, o...))
	}},
	{"Repos.ListLanguages (map)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Repos.ListLanguages(ctx, "o", "r", o...))
	}},
	{"Repos.GetRawFile ([]byte)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Repos.GetRawFile(ctx, "o", "r", "a.txt", nil, o...))
	}},
	{"Actions.GetJobLogs (string)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Actions.GetJobLogs(ctx, "o", "r", 1, nil, o...))
	}},
	{"Orgs.IsMember (bool)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnResult(c.Orgs.IsMember(ctx, "org", "u", o...))
	}},
	{"Repos.Delete (no result)", func(ctx context.Context, c *Client, o ...RequestOption) (any, *Response, error) {
		return gnNoResult(c.Repos.Delete(ctx, "o", "r", o...))
	}},
}

// nmConditions are the two conditional options.
var nmConditions = []struct {
	name string
	opt  RequestOption
}{
	{"IfNoneMatch", IfNoneMatch(`"e1"`)},
	{"IfModifiedSince", IfModifiedSince(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))},
}

// isZeroResult reports whether v is an operation's zero result.
func isZeroResult(v any) bool {
	rv := reflect.ValueOf(v)
	return !rv.IsValid() || rv.IsZero()
}

func TestNotModifiedGivesZeroResult(t *testing.T) {
	for _, tc := range nmCases {
		for _, cond := range nmConditions {
			t.Run(tc.name+"/"+cond.name, func(t *testing.T) {
				srv, n := nmServer(t)
				c := gnClient(t, srv.URL, nil)
				v, resp, err := tc.call(context.Background(), c, cond.opt)
				if err != nil {
					t.Fatalf("err = %v, want nil", err)
				}
				if resp == nil || !resp.NotModified {
					t.Errorf("resp = %+v, want NotModified", resp)
				}
				if !isZeroResult(v) {
					t.Errorf("result %#v, want the zero result", v)
				}
				if got := n.Load(); got != 1 {
					t.Errorf("%d requests, want 1", got)
				}
			})
		}
	}
}

// An unconditional call answered 304 is an error, not a result.
func TestNotModifiedUnconditionalIsError(t *testing.T) {
	srv, _ := nmServer(t)
	c := gnClient(t, srv.URL, nil)
	v, resp, err := c.Repos.Get(context.Background(), "o", "r")
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusNotModified || v != nil || resp.NotModified {
		t.Errorf("unconditional 304: v %v, NotModified %v, err %v; want nil, false, *APIError 304", v, resp.NotModified, err)
	}
}

// TestWalkNotModifiedFails: a walk whose page is answered 304 (a
// conditional option passed to an iterator) fails with a
// *WalkTruncatedError instead of ending as if the listing were empty,
// sequentially and with pages in flight, on the first page and later.
func TestWalkNotModifiedFails(t *testing.T) {
	for _, conc := range []int{1, 3} {
		for _, at := range []int{1, 2} {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				page := r.URL.Query().Get("page")
				if page == fmt.Sprint(at) && r.Header.Get("If-None-Match") != "" {
					w.WriteHeader(http.StatusNotModified)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("X-Total-Count", "6")
				fmt.Fprintf(w, `[{"name":"b%s1"},{"name":"b%s2"}]`, page, page)
			}))
			c, err := NewClient(WithBaseURL(srv.URL), WithWalkConcurrency(conc), WithRetryPolicy(RetryOff()))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			var walkErr error
			for b, err := range c.Repos.ListBranchesIter(context.Background(), "o", "r", &ListOptions{Limit: 2}, IfNoneMatch(`"e1"`)) {
				if err != nil {
					walkErr = err
					break
				}
				got = append(got, b.Name)
			}
			var wt *WalkTruncatedError
			if !errors.As(walkErr, &wt) || wt.ResumeFrom.Page != at {
				t.Errorf("concurrency %d, 304 on page %d: got %v, err %v; want a *WalkTruncatedError resuming at page %d", conc, at, got, walkErr, at)
			}
			srv.Close()
		}
	}
}

// TestIterNotModifiedFails: an iterator over a paged object (the combined
// status) answered 304 yields no item and fails with *WalkTruncatedError,
// as every walk does: a 304 has no page to give.
func TestIterNotModifiedFails(t *testing.T) {
	for _, cond := range nmConditions {
		srv, _ := nmServer(t)
		c := gnClient(t, srv.URL, nil)
		n, err := gnCount(c.Repos.GetCombinedStatusIter(context.Background(), "o", "r", "main", nil, cond.opt))
		var wt *WalkTruncatedError
		if n != 0 || !errors.As(err, &wt) {
			t.Errorf("%s: %d items, err %v; want none and a *WalkTruncatedError", cond.name, n, err)
		}
	}
}
