package forgejo

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Every per-call option reaches the wire, through a generated operation,
// its iterator and Client.Do; none can override the credential.
func TestCallOptionsOnTheWire(t *testing.T) {
	var got []*http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Clone(context.Background()))
		w.Write([]byte(`[]`))
	}))
	defer srv.Close()
	c, _ := NewClient(WithBaseURL(srv.URL), WithToken("the-real-token"))
	opts := []RequestOption{Sudo("bob"), OTP("123456"), Header("X-Trace", "t1"), QueryParam("created_by", "alice"), QueryParam("assigned_by", "carol")}
	ctx := context.Background()
	if _, _, err := c.Issues.Search(ctx, nil, opts...); err != nil {
		t.Fatal(err)
	}
	for range c.Issues.ListIter(ctx, "o", "r", nil, opts...) {
	}
	if _, err := c.Do(ctx, &Request{Method: "GET", Path: "/x", Retry: RetryIdempotentOnly}, nil, opts...); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d requests, want 3", len(got))
	}
	for _, r := range got {
		q := r.URL.Query()
		if q.Get("sudo") != "bob" || q.Get("created_by") != "alice" || q.Get("assigned_by") != "carol" ||
			r.Header.Get("X-Forgejo-OTP") != "123456" || r.Header.Get("X-Trace") != "t1" ||
			r.Header.Get("Authorization") != "token the-real-token" {
			t.Errorf("%s: query %v, headers %v", r.URL.Path, q, r.Header)
		}
	}
}

func TestCallOptionsRejected(t *testing.T) {
	srv := tsNewServer(t, tsStep{status: 200, body: `{}`})
	c, _ := tsClient(t, srv.URL)
	for name, opt := range map[string]RequestOption{
		"Authorization":       Header("Authorization", "token other"),
		"authorization lower": Header("authorization", "token other"),
		"Cookie":              Header("Cookie", "a=b"),
		"Host":                Header("Host", "evil"),
		"bad name":            Header("X Bad", "v"),
		"header CRLF":         Header("X-A", "v\r\nAuthorization: token x"),
		"query token":         QueryParam("token", "x"),
		"query page":          QueryParam("page", "2"),
		"blank sudo":          Sudo(" "),
		"blank otp":           OTP(""),
		"blank etag":          IfNoneMatch(""),
		"zero modified since": IfModifiedSince(time.Time{}),
	} {
		_, _, err := c.Repos.Get(context.Background(), "o", "r", opt)
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: err = %v, want a *ValidationError", name, err)
		}
	}
	if n := srv.hits.Load(); n != 0 {
		t.Errorf("%d requests sent for rejected options", n)
	}
}
