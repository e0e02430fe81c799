package forgejo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// A token source is asked before every attempt; a refreshed token is sent
// at once; every token it ever returned is masked in everything the caller
// sees, even after it was replaced.
func TestTokenSourceRefreshAndRedaction(t *testing.T) {
	var n atomic.Int64
	ts := TokenSourceFunc(func(context.Context) (Token, error) {
		return Token{Value: fmt.Sprintf("oauth-access-%02d-5f1c9e2d7a", n.Add(1)), Type: "bearer"}, nil
	})
	var auths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		auths = append(auths, auth)
		// Echo every token seen so far, in a header and the body.
		w.Header().Set("X-Request-Id", strings.Join(auths, ","))
		w.WriteHeader(503)
		w.Write([]byte(`{"message":"bad ` + strings.Join(auths, " ") + `"}`))
	}))
	defer srv.Close()
	capt := &hsCapture{}
	c, err := NewClient(WithBaseURL(srv.URL), WithTokenSource(ts), withObserver(capt.observers()), WithClock(hsNoClock{}))
	if err != nil {
		t.Fatal(err)
	}
	_, resp, err := c.Repos.Get(context.Background(), "o", "r")
	capt.result(resp, err)
	if len(auths) != 3 || auths[0] != "Bearer oauth-access-01-5f1c9e2d7a" || auths[2] != "Bearer oauth-access-03-5f1c9e2d7a" {
		t.Fatalf("Authorization per attempt = %q, want a fresh Bearer token each time", auths)
	}
	for i := 1; i <= 3; i++ {
		tok := fmt.Sprintf("oauth-access-%02d-5f1c9e2d7a", i)
		if leak := capt.leaks(tok); leak != "" {
			t.Errorf("token %d: %s", i, leak)
		}
	}
	if s := fmt.Sprint(*c); strings.Contains(s, "oauth-access") || !strings.Contains(s, "token source") {
		t.Errorf("client prints as %s", s)
	}
}

func TestTokenSourceFailure(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	for name, ts := range map[string]TokenSource{
		"error echoing the token": TokenSourceFunc(func(context.Context) (Token, error) {
			return Token{Value: "half-refreshed-secret-99"}, errors.New("refresh failed for half-refreshed-secret-99")
		}),
		"blank token":   TokenSourceFunc(func(context.Context) (Token, error) { return Token{}, nil }),
		"control chars": TokenSourceFunc(func(context.Context) (Token, error) { return Token{Value: "a\nb"}, nil }),
		"bad type":      TokenSourceFunc(func(context.Context) (Token, error) { return Token{Value: "abc", Type: "Bad Type"}, nil }),
	} {
		c, _ := NewClient(WithBaseURL(srv.URL), WithTokenSource(ts))
		_, _, err := c.Repos.Get(context.Background(), "o", "r")
		var ae *AuthError
		if !errors.As(err, &ae) || strings.Contains(err.Error(), "half-refreshed-secret-99") {
			t.Errorf("%s: err = %v, want a scrubbed *AuthError", name, err)
		}
	}
	if hits.Load() != 0 {
		t.Errorf("%d requests sent without a usable token", hits.Load())
	}
	if _, err := NewClient(WithTokenSource(nil)); err == nil {
		t.Error("WithTokenSource(nil) accepted")
	}
}
