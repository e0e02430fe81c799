package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"codeberg.org/forgego/forgejo/forgejotest"
)

// assetHost is an instance whose API is the fake's and whose
// /attachments/NAME serves files (the fake keeps no asset contents), and a
// second host for an asset stored elsewhere. It records who sent a token.
type assetHost struct {
	srv         *forgejotest.Server
	url, other  string
	mu          sync.Mutex
	tokenAt     map[string]bool // host → a request carried Authorization
	assetsNamed []string
}

func newAssetHost(t *testing.T, names ...string) (*assetHost, map[string]string) {
	t.Helper()
	h := &assetHost{tokenAt: map[string]bool{}, assetsNamed: names}
	files := func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		if r.Header.Get("Authorization") != "" {
			h.tokenAt[r.Host] = true
		}
		h.mu.Unlock()
		name := strings.TrimPrefix(r.URL.Path, "/attachments/")
		if name == "missing" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte("content of " + name + "\n"))
	}
	other := httptest.NewServer(http.HandlerFunc(files))
	t.Cleanup(other.Close)
	var srv *forgejotest.Server
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			srv.ServeHTTP(w, r)
			return
		}
		files(w, r)
	}))
	t.Cleanup(front.Close)
	srv = forgejotest.NewServer(t)
	srv.AddRepo("alice", "proj")
	h.srv, h.url, h.other = srv, front.URL, other.URL
	release := func(w http.ResponseWriter, r *http.Request) {
		if tag := r.PathValue("tag"); tag != "v1.0.0" && r.URL.Path != "/api/v1/repos/alice/proj/releases/latest" {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"message":"The target couldn't be found."}`))
			return
		}
		var assets []map[string]any
		for i, n := range h.assetsNamed {
			base, key := front.URL, n
			if n == "elsewhere.txt" {
				base = other.URL
			}
			if strings.ContainsAny(n, "/\\") || n == ".." {
				key = "evil"
			}
			a := map[string]any{"id": i + 1, "name": n, "size": 10, "browser_download_url": base + "/attachments/" + key}
			if n == "elsewhere.txt" {
				// A ROOT_URL naming another host: the file is fetched from
				// the instance's /attachments/{uuid}, with the token.
				a["uuid"] = n
			}
			assets = append(assets, a)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": 1, "tag_name": "v1.0.0", "name": "One", "assets": assets})
	}
	srv.Handle("repoGetReleaseByTag", release)
	srv.Handle("repoGetLatestRelease", release)
	return h, map[string]string{"FORGEJO_URL": front.URL, "FORGEJO_TOKEN": srv.Token()}
}

func TestReleaseDownload(t *testing.T) {
	h, env := newAssetHost(t, "app.tar.gz", "app.zip", "elsewhere.txt")
	dir := t.TempDir()
	r := cli(t, env, "release", "download", "v1.0.0", "-R", "alice/proj", "--dir", dir, "--pattern", "*.tar.gz", "--pattern", "*.txt")
	r.want(t, 0)
	want := "downloaded " + filepath.Join(dir, "app.tar.gz") + " (22 bytes)\ndownloaded " + filepath.Join(dir, "elsewhere.txt") + " (25 bytes)\n"
	if r.stdout != "" || r.stderr != want {
		t.Errorf("stdout %q\nstderr %q\nwant   %q", r.stdout, r.stderr, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "app.tar.gz")); string(b) != "content of app.tar.gz\n" {
		t.Errorf("file %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "app.zip")); err == nil {
		t.Errorf("app.zip matched no pattern but was written")
	}
	h.mu.Lock()
	if !h.tokenAt[strings.TrimPrefix(h.url, "http://")] || h.tokenAt[strings.TrimPrefix(h.other, "http://")] {
		t.Errorf("the token went to %v (want the instance only)", h.tokenAt)
	}
	h.mu.Unlock()

	// An existing file is not overwritten, and nothing is fetched.
	r = cli(t, env, "release", "download", "v1.0.0", "-R", "alice/proj", "--dir", dir)
	r.want(t, 1)
	if r.stderr != "forgego: "+filepath.Join(dir, "app.tar.gz")+" exists: not overwritten without --clobber\n" {
		t.Errorf("stderr %q", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "app.zip")); err == nil {
		t.Errorf("app.zip written though the command failed its checks")
	}
	r = cli(t, env, "release", "download", "v1.0.0", "-R", "alice/proj", "--dir", dir, "--clobber")
	r.want(t, 0)
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("files %v (a temporary file left?)", entries)
	}

	// Without TAG: the latest release.
	latest := t.TempDir()
	r = cli(t, env, "release", "download", "-R", "alice/proj", "--dir", latest, "--pattern", "*.zip")
	if r.want(t, 0); r.stderr != "downloaded "+filepath.Join(latest, "app.zip")+" (19 bytes)\n" {
		t.Errorf("latest: %q", r.stderr)
	}
	r = cli(t, env, "release", "download", "v1.0.0", "-R", "alice/proj", "--dir", dir, "--pattern", "*.exe")
	r.want(t, 1)
	if r.stderr != "forgego: no asset of v1.0.0 matches *.exe\n" {
		t.Errorf("stderr %q", r.stderr)
	}
	r = cli(t, env, "release", "download", "v9", "-R", "alice/proj", "--dir", dir)
	r.want(t, 1)
	for _, args := range [][]string{
		{"release", "download", "v1", "v2", "-R", "alice/proj"},
		{"release", "download", "v1.0.0", "-R", "alice/proj", "--pattern", "["},
		{"release", "download", "v1.0.0", "-R", "alice/proj", "--dir", filepath.Join(dir, "nope")},
	} {
		cli(t, env, args...).want(t, 2)
	}
}

func TestReleaseDownloadRefusesEscapingNames(t *testing.T) {
	for _, name := range []string{"../evil", "..", "sub/evil", `sub\evil`, "/etc/passwd", "C:evil"} {
		_, env := newAssetHost(t, "good.txt", name)
		parent := t.TempDir()
		dir := filepath.Join(parent, "d")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		r := cli(t, env, "release", "download", "v1.0.0", "-R", "alice/proj", "--dir", dir)
		r.want(t, 1)
		if !strings.Contains(r.stderr, "is not a plain file name: refused") {
			t.Errorf("%q: stderr %q", name, r.stderr)
		}
		for _, d := range []string{parent, dir} {
			if entries, _ := os.ReadDir(d); len(entries) != map[string]int{parent: 1, dir: 0}[d] {
				t.Errorf("%q: %s holds %v", name, d, entries)
			}
		}
	}
}
