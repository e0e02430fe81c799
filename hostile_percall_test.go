package forgejo

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// This file attacks per-call options (callopts.go) through the channels
// they reach: redirects to other origins (the redirect rule,
// withSafeRedirects), echoes of per-call secrets (the redactor), and caller
// labels reaching observers.

// pcSeen records the headers each request to a server carried.
type pcSeen struct {
	mu   sync.Mutex
	reqs []http.Header
}

func (s *pcSeen) add(h http.Header) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, h.Clone())
}

func (s *pcSeen) all() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.reqs...)
}

// TestHostileRedirectPerCallHeaders: a per-call header is sent to the base
// URL's origin only. Every kind of per-call header, every redirect status,
// every way of reaching another origin, and a chain that passes through the
// home origin first; a same-origin redirect keeps them.
func TestHostileRedirectPerCallHeaders(t *testing.T) {
	type header struct {
		name  string
		opt   CallOption
		wire  string // the header name on the wire
		value string
	}
	modTime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	headers := []header{
		{"X-Api-Key", WithHeader("X-Api-Key", "key-4f1c9a7e2b"), "X-Api-Key", "key-4f1c9a7e2b"},
		{"lower-case name", WithHeader("private-token", "pt-83b1d0e6"), "Private-Token", "pt-83b1d0e6"},
		{"X-Custom-Auth", WithHeader("X-Custom-Auth", "Bearer cst-11aa22bb"), "X-Custom-Auth", "Bearer cst-11aa22bb"},
		{"two values", WithHeader("X-Tenant", "tenant-a"), "X-Tenant", "tenant-a"},
		{"If-None-Match", IfNoneMatch(`"etag-5d41402a"`), "If-None-Match", `"etag-5d41402a"`},
		{"If-Modified-Since", IfModifiedSince(modTime), "If-Modified-Since", modTime.Format(http.TimeFormat)},
		{"WithOTP", WithOTP("918273"), "X-Forgejo-Otp", "918273"},
		{"X-Gitea-OTP header", WithHeader("X-Gitea-OTP", "564738"), "X-Gitea-Otp", "564738"},
		{"Accept", WithHeader("Accept", "application/x-secret-accept"), "Accept", "application/x-secret-accept"},
	}
	type target struct {
		name     string
		location func(home, other string) string
		sameOrig bool
		tls      bool
	}
	targets := []target{
		{"same origin", func(home, _ string) string { return home + "/api/v1/moved" }, true, false},
		{"other port", func(_, other string) string { return other + "/api/v1/moved" }, false, false},
		{"scheme-relative other port", func(_, other string) string { return strings.TrimPrefix(other, "http:") + "/api/v1/moved" }, false, false},
		{"other host name", func(_, other string) string {
			return strings.Replace(other, "127.0.0.1", "localhost", 1) + "/api/v1/moved"
		}, false, false},
		{"https to http", func(_, other string) string { return other + "/api/v1/moved" }, false, true},
		{"via home first", func(home, _ string) string { return home + "/api/v1/hop" }, false, false},
	}
	vectors, failing := 0, 0
	for _, st := range []int{301, 302, 303, 307, 308} {
		for _, tg := range targets {
			for _, method := range []string{"GET", "HEAD"} {
				for _, hd := range headers {
					vectors++
					name := fmt.Sprintf("%d %s %s %s", st, tg.name, method, hd.name)
					homeSeen, otherSeen := &pcSeen{}, &pcSeen{}
					other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						otherSeen.add(r.Header)
						w.Header().Set("Content-Type", "application/json")
						w.Write([]byte(`{}`))
					}))
					var homeURL string
					home := hsHTTPServer(t, tg.tls, func(w http.ResponseWriter, r *http.Request) {
						homeSeen.add(r.Header)
						switch r.URL.Path {
						case "/api/v1/moved":
							w.Header().Set("Content-Type", "application/json")
							w.Write([]byte(`{}`))
						case "/api/v1/hop":
							w.Header().Set("Location", other.URL+"/api/v1/moved")
							w.WriteHeader(st)
						default:
							w.Header().Set("Location", tg.location(homeURL, other.URL))
							w.WriteHeader(st)
						}
					})
					homeURL = home.URL
					opts := []Option{WithBaseURL(home.URL), WithToken("tok-0123456789abcdef"), WithRetryPolicy(RetryOff)}
					if tg.tls {
						opts = append(opts, WithHTTPClient(home.Client()))
					}
					c, err := NewClient(opts...)
					if err != nil {
						t.Fatal(err)
					}
					_, err = c.Do(context.Background(), &Request{Method: method, Path: "/repos/o/r", Retry: IdempotentOnly}, nil, hd.opt)
					other.Close()
					if err != nil {
						failing++
						t.Errorf("%s: err = %v, want the redirect followed", name, err)
						continue
					}
					bad := false
					for _, h := range otherSeen.all() {
						for wire, vals := range h {
							for _, v := range vals {
								if strings.Contains(v, hd.value) {
									bad = true
									t.Errorf("%s: the other origin received %s: %q", name, wire, v)
								}
							}
						}
					}
					hs := homeSeen.all()
					if len(hs) == 0 || hs[0].Get(hd.wire) != hd.value {
						bad = true
						t.Errorf("%s: the home origin did not receive %s", name, hd.wire)
					}
					if tg.sameOrig && (len(hs) != 2 || hs[1].Get(hd.wire) != hd.value) {
						bad = true
						t.Errorf("%s: a same-origin redirect dropped %s", name, hd.wire)
					}
					if bad {
						failing++
					}
				}
			}
		}
	}
	t.Logf("%d per-call header redirect vectors, %d failing", vectors, failing)
}
