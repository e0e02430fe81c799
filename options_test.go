package forgejo

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// This file tests the client options: what NewClient accepts and refuses,
// and that it does no I/O.

func TestOptionTokenRejected(t *testing.T) {
	for _, tok := range []string{"", "   ", "ab\ncd", "zq9\x7fzq9", "rd\x00secret", "\n\t"} {
		c, err := NewClient(WithToken(tok))
		var ve *ValidationError
		if c != nil || !errors.As(err, &ve) || ve.Field != "token" {
			t.Errorf("WithToken(%q): got %v, %T %v; want *ValidationError on token", tok, c, err, err)
			continue
		}
		if v := strings.TrimSpace(tok); v != "" && (strings.Contains(err.Error(), v) || strings.Contains(ve.Message, v)) {
			t.Errorf("WithToken(%q): message echoes the value: %q", tok, err.Error())
		}
	}
}

func TestOptionTokenTrimmed(t *testing.T) {
	var got string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = r.Header.Get("Authorization")
		mu.Unlock()
		io.WriteString(w, `{"version":"1.0"}`)
	}))
	defer srv.Close()
	c := rdNewClient(t, WithToken("  tok\n"), WithBaseURL(srv.URL))
	if _, _, err := c.Misc.GetVersion(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got != "token tok" {
		t.Errorf("Authorization = %q, want %q", got, "token tok")
	}
}

func TestOptionBasicAuthRejected(t *testing.T) {
	cases := []struct {
		user, pass, field, secret string
	}{
		{"", "pw-rd-123", "username", ""},
		{"   ", "pw-rd-123", "username", ""},
		{"us:er", "pw-rd-123", "username", "us:er"},
		{"user", "", "password", ""},
		{"user", "pw\x00rd-123", "password", "pw\x00rd-123"},
		{"user", "pw\nrd-123", "password", "pw\nrd-123"},
	}
	for _, tc := range cases {
		_, err := NewClient(WithBasicAuth(tc.user, tc.pass))
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Field != tc.field {
			t.Errorf("WithBasicAuth(%q, %q): got %T %v, want *ValidationError on %s", tc.user, tc.pass, err, err, tc.field)
			continue
		}
		if tc.secret != "" && strings.Contains(err.Error(), tc.secret) {
			t.Errorf("WithBasicAuth: message echoes the value: %q", err.Error())
		}
		if strings.Contains(err.Error(), "pw") || strings.Contains(err.Error(), "rd-123") {
			t.Errorf("WithBasicAuth: message mentions the password: %q", err.Error())
		}
	}
	// A password is not trimmed: surrounding spaces are part of it.
	var got string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = r.Header.Get("Authorization")
		mu.Unlock()
		io.WriteString(w, `{"version":"1.0"}`)
	}))
	defer srv.Close()
	c := rdNewClient(t, WithBasicAuth("user", " p w "), WithBaseURL(srv.URL))
	if _, _, err := c.Misc.GetVersion(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := "Basic " + base64.StdEncoding.EncodeToString([]byte("user: p w ")); got != want {
		t.Errorf("Authorization = %q, want %q (password kept as given)", got, want)
	}
}

func TestOptionBaseURLAccepted(t *testing.T) {
	cases := []struct{ in, want string }{
		{"https://host", "https://host/api/v1"},
		{"https://host/", "https://host/api/v1"},
		{"https://host/api/v1", "https://host/api/v1"},
		{"https://host/api/v1/", "https://host/api/v1"},
		{"https://host/api/v1///", "https://host/api/v1"},
		{"http://127.0.0.1:3000", "http://127.0.0.1:3000/api/v1"},
		{"http://[::1]:3000/", "http://[::1]:3000/api/v1"},
		{"https://host/sub", "https://host/sub/api/v1"},
		{"https://host/sub/", "https://host/sub/api/v1"},
		{"  https://codeberg.org  ", "https://codeberg.org/api/v1"},
		{"https://host/@me", "https://host/@me/api/v1"},
	}
	for _, tc := range cases {
		c, err := NewClient(WithBaseURL(tc.in))
		if err != nil {
			t.Errorf("WithBaseURL(%q): %v", tc.in, err)
			continue
		}
		if got := c.BaseURL(); got != tc.want {
			t.Errorf("WithBaseURL(%q).BaseURL() = %q, want %q", tc.in, got, tc.want)
		}
	}
	c, err := NewClient()
	if err != nil || c.BaseURL() != DefaultBaseURL || DefaultBaseURL != "https://codeberg.org/api/v1" {
		t.Errorf("default base URL: %v, %v", c, err)
	}
}

func TestOptionBaseURLRejected(t *testing.T) {
	cases := []string{
		"", "   ", "ftp://x", "https://", "https://user:pw@host", "https://tok3n@host/api/v1",
		"https://host?x=1", "https://host/api/v1?token=abc123", "https://host#f", "https://ho\nst",
		"codeberg.org", "//host/x", "https://:443", "mailto:a@b",
	}
	for _, in := range cases {
		c, err := NewClient(WithBaseURL(in))
		var ve *ValidationError
		if c != nil || !errors.As(err, &ve) || ve.Field != "baseURL" {
			t.Errorf("WithBaseURL(%q): got %v, %T %v; want *ValidationError on baseURL", in, c, err, err)
			continue
		}
		if v := strings.TrimSpace(in); v != "" && strings.Contains(err.Error(), v) {
			t.Errorf("WithBaseURL(%q): message echoes the value: %q", in, err.Error())
		}
		for _, part := range []string{"user:pw", "pw@", "tok3n", "abc123"} {
			if strings.Contains(in, part) && strings.Contains(err.Error(), part) {
				t.Errorf("WithBaseURL(%q): message echoes %q: %q", in, part, err.Error())
			}
		}
	}
}

func TestOptionBoundsRejected(t *testing.T) {
	cases := []struct {
		name  string
		opt   ClientOption
		field string
	}{
		{"page size 0", WithPageSize(0), "pageSize"},
		{"page size -1", WithPageSize(-1), "pageSize"},
		{"page size -1", WithPageSize(-1), "pageSize"},
		{"retry 0 attempts", WithRetryPolicy(RetryPolicy{MaxAttempts: 0}), "retryPolicy.MaxAttempts"},
		{"retry negative base", WithRetryPolicy(RetryPolicy{MaxAttempts: 2, BaseDelay: -1}), "retryPolicy.BaseDelay"},
		{"retry negative max", WithRetryPolicy(RetryPolicy{MaxAttempts: 2, MaxDelay: -1}), "retryPolicy.MaxDelay"},
		{"retry bad jitter", WithRetryPolicy(RetryPolicy{MaxAttempts: 2, Jitter: Jitter(7)}), "retryPolicy.Jitter"},
		{"nil http client", WithHTTPClient(nil), "httpClient"},
		{"blank user agent", WithUserAgent("  "), "userAgent"},
		{"negative attempt timeout", WithAttemptTimeout(-time.Second), "attemptTimeout"},
		{"zero response bound", WithMaxResponseBytes(0), "maxResponseBytes"},
		{"zero download bound", WithMaxDownloadBytes(0), "maxDownloadBytes"},
	}
	for _, tc := range cases {
		c, err := NewClient(tc.opt)
		var ve *ValidationError
		if c != nil || !errors.As(err, &ve) || ve.Field != tc.field {
			t.Errorf("%s: got %v, %T %v; want *ValidationError on %s", tc.name, c, err, err, tc.field)
		}
	}
	for _, n := range []int{1, 50} {
		c, err := NewClient(WithPageSize(n))
		if err != nil || c.PageSize() != n {
			t.Errorf("WithPageSize(%d): %v, %v", n, c, err)
		}
	}
	if c, err := NewClient(nil, WithRetryPolicy(RetryOff())); err != nil || c.RetryPolicy() != RetryOff() {
		t.Errorf("a nil option must be ignored and RetryOff accepted: %v", err)
	}
}

func TestOptionNewClientDoesNoIO(t *testing.T) {
	var mu sync.Mutex
	count := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		count++
		mu.Unlock()
		io.WriteString(w, `{"version":"11.0.3+gitea-1.22.0"}`)
	}))
	defer srv.Close()
	c, err := NewClient(WithBaseURL(srv.URL), WithToken(rdHex(t, 20)), withObserver(&rdRecorder{}))
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	before := count
	mu.Unlock()
	if before != 0 {
		t.Fatalf("NewClient sent %d requests, want 0", before)
	}
	v, _, err := c.Misc.GetVersion(context.Background())
	mu.Lock()
	after := count
	mu.Unlock()
	if err != nil || v.Version != "11.0.3+gitea-1.22.0" || after != 1 {
		t.Errorf("first call: %v, %v, %d requests", v, err, after)
	}
}
