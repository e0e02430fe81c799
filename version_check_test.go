package forgejo_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

// The servers the version check is tested against: each supported
// release as its /version reports it, and a Gitea.
var checkServers = []struct {
	version string
	// newest is true when the release serves every operation.
	newest bool
}{
	{"11.0.15+gitea-1.22.0", false},
	{"13.0.5+gitea-1.22.0", false},
	{"14.0.5+gitea-1.22.0", false},
	{"15.0.3+gitea-1.22.0", false},
	{"16.0.0-dev-539-4695780d41+gitea-1.22.0", true},
	{"1.27.3", true}, // Gitea: unknown to the check, so everything is sent
}

func versionRequests(srv *forgejotest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/version") {
			n++
		}
	}
	return n
}

func sentTo(srv *forgejotest.Server, suffix string) int {
	n := 0
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, suffix) {
			n++
		}
	}
	return n
}

// TestVersionCheckRefusesTooNew: on each release, an operation newer than
// it fails before any request with the typed error; an operation it serves
// is sent; the version is asked once.
func TestVersionCheckRefusesTooNew(t *testing.T) {
	ctx := context.Background()
	for _, s := range checkServers {
		t.Run(s.version, func(t *testing.T) {
			srv := forgejotest.NewServer(t, forgejotest.WithVersion(s.version))
			c := srv.Client(forgejo.WithVersionCheck())

			// getActionsRun is 16.0 only.
			_, _, err := c.Actions.GetCurrentRun(ctx)
			var ue *forgejo.UnsupportedOperationError
			if s.newest {
				if errors.As(err, &ue) {
					t.Fatalf("GetCurrentRun refused on %s: %v", s.version, err)
				}
				if sentTo(srv, "/actions/run") != 1 {
					t.Errorf("GetCurrentRun was not sent: %v", srv.Requests())
				}
			} else {
				if !errors.As(err, &ue) || !errors.Is(err, forgejo.ErrUnsupportedOperation) {
					t.Fatalf("GetCurrentRun on %s: err %v, want *UnsupportedOperationError", s.version, err)
				}
				if ue.Operation != "getActionsRun" || ue.Since != "16.0" || ue.ServerVersion != s.version || ue.Method != "Actions.GetCurrentRun" {
					t.Errorf("error %+v", ue)
				}
				for _, want := range []string{"getActionsRun", "16.0", s.version} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("%q does not name %s", err.Error(), want)
					}
				}
				if n := sentTo(srv, "/actions/run"); n != 0 {
					t.Errorf("a refused call was sent %d times", n)
				}
			}

			// Served everywhere: sent.
			if _, _, err := c.Repos.Get(ctx, srv.DefaultUser(), "nope"); errors.As(err, &ue) {
				t.Fatalf("Repos.Get refused: %v", err)
			}
			if sentTo(srv, "/repos/"+srv.DefaultUser()+"/nope") != 1 {
				t.Errorf("Repos.Get was not sent")
			}
			// Once.
			_, _, _ = c.Actions.GetCurrentRun(ctx)
			_, _, _ = c.Users.GetCurrent(ctx)
			if n := versionRequests(srv); n != 1 {
				t.Errorf("%d /version requests, want 1", n)
			}
			ok, err := c.Serves(ctx, "getActionsRun")
			if err != nil || ok != s.newest {
				t.Errorf("Serves(getActionsRun) = %v, %v; want %v", ok, err, s.newest)
			}
			ok, err = c.Serves(ctx, "Repos.Get")
			if err != nil || !ok {
				t.Errorf("Serves(Repos.Get) = %v, %v", ok, err)
			}
		})
	}
}

// TestVersionCheckOffSendsNoVersion: without the option nothing is
// refused and /version is never asked.
func TestVersionCheckOffSendsNoVersion(t *testing.T) {
	ctx := context.Background()
	srv := forgejotest.NewServer(t, forgejotest.WithVersion("11.0.15+gitea-1.22.0"))
	c := srv.Client()
	_, _, err := c.Actions.GetCurrentRun(ctx)
	if errors.Is(err, forgejo.ErrUnsupportedOperation) {
		t.Fatalf("refused without WithVersionCheck: %v", err)
	}
	_, _, _ = c.Users.GetCurrent(ctx)
	_, _, _ = c.Admin.ListUserTokens(ctx, "someone", nil)
	if n := versionRequests(srv); n != 0 {
		t.Errorf("%d /version requests without the option, want 0", n)
	}
	if sentTo(srv, "/actions/run") != 1 {
		t.Error("GetCurrentRun was not sent")
	}
}

// TestVersionCheckRetargetsMovedPath: Forgejo 11.0 to 14.0 serve the admin
// runner registration token at /admin/runners/registration-token.
func TestVersionCheckRetargetsMovedPath(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ version, path string }{
		{"14.0.5+gitea-1.22.0", "/api/v1/admin/runners/registration-token"},
		{"15.0.3+gitea-1.22.0", "/api/v1/admin/actions/runners/registration-token"},
	} {
		var mu sync.Mutex
		var paths []string
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			paths = append(paths, r.URL.Path)
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			if strings.HasSuffix(r.URL.Path, "/version") {
				_, _ = w.Write([]byte(`{"version":"` + tc.version + `"}`))
				return
			}
			_, _ = w.Write([]byte(`{"token":"t"}`))
		}))
		c, err := forgejo.NewClient(forgejo.WithBaseURL(ts.URL), forgejo.WithVersionCheck())
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Actions.GetAdminRegistrationToken(ctx); err != nil {
			t.Fatal(err)
		}
		ts.Close()
		if len(paths) != 2 || paths[1] != tc.path {
			t.Errorf("%s: requests %v, want /version then %s", tc.version, paths, tc.path)
		}
	}
}

// TestVersionLearntOnceRetriedOnFailure: concurrent first calls ask once; a
// 500 from /version is not cached (the call is sent unchecked and the next
// one asks again); a definite answer is.
func TestVersionLearntOnceRetriedOnFailure(t *testing.T) {
	ctx := context.Background()
	var versionHits, runHits atomic.Int32
	var fail atomic.Bool
	fail.Store(true)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/version"):
			versionHits.Add(1)
			if fail.Load() {
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write([]byte(`{"message":"boom"}`))
				return
			}
			_, _ = w.Write([]byte(`{"version":"15.0.3+gitea-1.22.0"}`))
		default:
			runHits.Add(1)
			_, _ = w.Write([]byte(`{}`))
		}
	}))
	defer ts.Close()
	c, err := forgejo.NewClient(forgejo.WithBaseURL(ts.URL), forgejo.WithVersionCheck(),
		forgejo.WithRetryPolicy(forgejo.RetryPolicy{MaxAttempts: 1, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Actions.GetCurrentRun(ctx); errors.Is(err, forgejo.ErrUnsupportedOperation) {
		t.Fatalf("refused although the version is unknown: %v", err)
	}
	if runHits.Load() != 1 || versionHits.Load() != 1 {
		t.Fatalf("after a failing /version: %d run, %d version requests", runHits.Load(), versionHits.Load())
	}
	if _, err := c.Serves(ctx, "getActionsRun"); err == nil {
		t.Error("Serves: no error while /version fails")
	}
	fail.Store(false)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := c.Actions.GetCurrentRun(ctx)
			if !errors.Is(err, forgejo.ErrUnsupportedOperation) {
				t.Errorf("err %v", err)
			}
		}()
	}
	wg.Wait()
	if got := versionHits.Load(); got != 3 {
		t.Errorf("%d /version requests, want 3 (two failures, then one success for all)", got)
	}
	if _, err := c.Serves(ctx, "noSuchOperation"); err == nil {
		t.Error("Serves(noSuchOperation): no error")
	}
}
