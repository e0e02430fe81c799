package oauth2example

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// An expired access token is refreshed through the token endpoint, and the
// fresh one is sent as a Bearer token.
func TestRefreshedTokenIsSent(t *testing.T) {
	var refreshes atomic.Int64
	var sawAuth atomic.Value
	mux := http.NewServeMux()
	mux.HandleFunc("/login/oauth/access_token", func(w http.ResponseWriter, r *http.Request) {
		refreshes.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"access_token":"fresh-access-token","token_type":"bearer","expires_in":3600,"refresh_token":"r2"}`))
	})
	mux.HandleFunc("/api/v1/version", func(w http.ResponseWriter, r *http.Request) {
		sawAuth.Store(r.Header.Get("Authorization"))
		w.Write([]byte(`{"version":"15.0.3"}`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	cfg := &oauth2.Config{ClientID: "id", ClientSecret: "secret", Endpoint: oauth2.Endpoint{TokenURL: srv.URL + "/login/oauth/access_token"}}
	expired := &oauth2.Token{AccessToken: "stale", RefreshToken: "r1", Expiry: time.Now().Add(-time.Hour)}
	c, err := NewClient(context.Background(), srv.URL, cfg, expired)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, _, err := c.Misc.GetVersion(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if got := sawAuth.Load(); got != "Bearer fresh-access-token" || refreshes.Load() != 1 {
		t.Fatalf("Authorization %v after %d refreshes, want the fresh Bearer token after one", got, refreshes.Load())
	}
}
