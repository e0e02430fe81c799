package main

import (
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
)

// credTrap stands for every origin but the instance's: each request that
// reaches it is searched for a credential (an Authorization or
// Proxy-Authorization header, or the token or the base64 credential
// anywhere in the request line or the headers), and each one found is a
// leak the test fails on.
type credTrap struct {
	secrets []string

	mu    sync.Mutex
	leaks []string
}

func newCredTrap(token string) *credTrap {
	c := &credTrap{secrets: []string{token, url.QueryEscape(token), base64.StdEncoding.EncodeToString([]byte(token))}}
	for _, login := range []string{"forgego", ""} {
		raw := []byte(login + ":" + token)
		c.secrets = append(c.secrets, base64.StdEncoding.EncodeToString(raw), base64.RawURLEncoding.EncodeToString(raw))
	}
	return c
}

func (c *credTrap) inspect(where string, r *http.Request) {
	var found []string
	var text strings.Builder
	fmt.Fprintf(&text, "%s %s %s\nHost: %s\n", r.Method, r.RequestURI, r.Proto, r.Host)
	for k, vs := range r.Header {
		if k == "Authorization" || k == "Proxy-Authorization" {
			found = append(found, "an "+k+" header")
		}
		for _, v := range vs {
			fmt.Fprintf(&text, "%s: %s\n", k, v)
		}
	}
	for _, s := range c.secrets {
		if strings.Contains(text.String(), s) {
			found = append(found, "the credential")
			break
		}
	}
	if len(found) > 0 {
		c.mu.Lock()
		c.leaks = append(c.leaks, fmt.Sprintf("%s got %s in %s %s", where, strings.Join(found, " and "), r.Method, r.URL.Path))
		c.mu.Unlock()
	}
}

// take returns the leaks seen since the last call.
func (c *credTrap) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.leaks
	c.leaks = nil
	return l
}

// credEnv is one vector's world: the instance h, and two listeners that
// stand for other origins (plain http and https), which serve the same
// repositories so that git goes on, through the trap.
type credEnv struct {
	h               *gitHost
	other, otherTLS string
	// sameOrigin counts the requests that only a followed same-origin
	// redirect makes.
	sameOrigin atomic.Int32
}

type credHook func(e *credEnv, w http.ResponseWriter, r *http.Request) bool

// credVector is a hostile instance: hook answers its git requests,
// cloneURL (when set) is its repoGet's clone_url, instance is how it is
// reached ("": http://127.0.0.1:PORT, "localhost": http://localhost:PORT,
// "tls": https://127.0.0.1:PORT).
type credVector struct {
	name     string
	instance string
	hook     credHook
	cloneURL func(e *credEnv) string
	// gitconfig, when set, is the user's global git configuration.
	gitconfig func(e *credEnv) string
}

func isInfoRefs(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/info/refs")
}

func isUploadPack(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/git-upload-pack")
}

// redirectOn answers the requests on matches with code and the Location
// to makes.
func redirectOn(on func(*http.Request) bool, code int, to func(e *credEnv, r *http.Request) string) credHook {
	return func(e *credEnv, w http.ResponseWriter, r *http.Request) bool {
		if !on(r) {
			return false
		}
		w.Header().Set("Location", to(e, r))
		w.WriteHeader(code)
		return true
	}
}

func toOther(e *credEnv, r *http.Request) string    { return e.other + r.URL.RequestURI() }
func toOtherTLS(e *credEnv, r *http.Request) string { return e.otherTLS + r.URL.RequestURI() }

// renamedHost is u with its host 127.0.0.1 called localhost or the other
// way round: the same listener, another origin.
func renamedHost(u string) string {
	if strings.Contains(u, "://localhost:") {
		return strings.Replace(u, "://localhost:", "://127.0.0.1:", 1)
	}
	return strings.Replace(u, "://127.0.0.1:", "://localhost:", 1)
}

func credVectors() []credVector {
	var vs []credVector
	for _, code := range []int{301, 302, 303, 307, 308} {
		vs = append(vs,
			credVector{name: fmt.Sprintf("info/refs %d to another port", code), hook: redirectOn(isInfoRefs, code, toOther)},
			credVector{name: fmt.Sprintf("upload-pack POST %d to another port", code), hook: redirectOn(isUploadPack, code, toOther)})
	}
	vs = append(vs,
		credVector{name: "127.0.0.1 to localhost", hook: redirectOn(isInfoRefs, 301, func(e *credEnv, r *http.Request) string {
			return renamedHost(e.h.url) + r.URL.RequestURI()
		})},
		credVector{name: "localhost to 127.0.0.1", instance: "localhost", hook: redirectOn(isInfoRefs, 301, func(e *credEnv, r *http.Request) string {
			return e.h.url + r.URL.RequestURI()
		})},
		credVector{name: "http to https", hook: redirectOn(isInfoRefs, 302, toOtherTLS)},
		credVector{name: "https to http", instance: "tls", hook: redirectOn(isInfoRefs, 302, toOther)},
		credVector{name: "to userinfo", hook: redirectOn(isInfoRefs, 302, func(e *credEnv, r *http.Request) string {
			return strings.Replace(e.other, "://", "://mallory:pw@", 1) + r.URL.RequestURI()
		})},
		credVector{name: "upload-pack POST 307 to https", hook: redirectOn(isUploadPack, 307, toOtherTLS)},
		credVector{name: "the user's configuration follows redirects", hook: redirectOn(isInfoRefs, 301, toOther),
			gitconfig: func(e *credEnv) string {
				return "[http]\n\tfollowRedirects = true\n" +
					"[http \"" + e.h.url + "/\"]\n\tfollowRedirects = true\n" +
					"[http \"" + e.h.url + "/alice/\"]\n\tfollowRedirects = true\n" +
					"[http \"" + e.h.url + "/alice/proj.git\"]\n\tfollowRedirects = true\n"
			}},
		credVector{name: "chain: same origin, then another", hook: func(e *credEnv, w http.ResponseWriter, r *http.Request) bool {
			if rest, ok := strings.CutPrefix(r.URL.RequestURI(), "/hop"); ok {
				w.Header().Set("Location", e.other+rest)
				w.WriteHeader(http.StatusFound)
				return true
			}
			if isInfoRefs(r) {
				w.Header().Set("Location", "/hop"+r.URL.RequestURI())
				w.WriteHeader(http.StatusFound)
				return true
			}
			return false
		}},
		credVector{name: "same origin, another repository", hook: func(e *credEnv, w http.ResponseWriter, r *http.Request) bool {
			if strings.HasPrefix(r.URL.Path, "/alice/moved.git/") {
				e.sameOrigin.Add(1)
				return false
			}
			if isInfoRefs(r) {
				w.Header().Set("Location", "/alice/moved.git/info/refs?"+r.URL.RawQuery)
				w.WriteHeader(http.StatusMovedPermanently)
				return true
			}
			return false
		}},
		credVector{name: "dumb http with http-alternates elsewhere", hook: func(e *credEnv, w http.ResponseWriter, r *http.Request) bool {
			rel, ok := strings.CutPrefix(r.URL.Path, "/alice/proj.git/")
			switch {
			case !ok || r.Method != http.MethodGet:
				http.NotFound(w, r)
			case rel == "info/refs" || rel == "HEAD":
				w.Header().Set("Content-Type", "text/plain")
				http.ServeFile(w, r, filepath.Join(e.h.root, "alice", "proj.git", rel))
			case rel == "objects/info/http-alternates":
				fmt.Fprintf(w, "%s/alice/proj.git/objects\n", e.other)
			default:
				http.NotFound(w, r) // no objects here: only elsewhere
			}
			return true
		}},
	)
	for _, c := range []struct {
		name string
		url  func(e *credEnv) string
	}{
		{"another port", func(e *credEnv) string { return e.other + "/alice/proj.git" }},
		{"another host name", func(e *credEnv) string { return renamedHost(e.h.url) + "/alice/proj.git" }},
		{"https", func(e *credEnv) string { return e.otherTLS + "/alice/proj.git" }},
		{"userinfo, same origin", func(e *credEnv) string {
			return strings.Replace(e.h.url, "://", "://forgego:x@", 1) + "/alice/proj.git"
		}},
		{"userinfo, another port", func(e *credEnv) string {
			return strings.Replace(e.other, "://", "://mallory:pw@", 1) + "/alice/proj.git"
		}},
	} {
		vs = append(vs, credVector{name: "clone_url " + c.name, cloneURL: c.url})
	}
	return vs
}

// TestGitCredentialStaysOnOrigin runs repo clone and pr checkout (from a
// remote naming the repository, and from the clone URL) against hostile
// instances: no credential may reach another origin, and each command
// fails with exit 1 and one line.
func TestGitCredentialStaysOnOrigin(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	// git reads no configuration but this test's (empty, or a vector's),
	// and trusts the test listeners' certificate (httptest's, the same for
	// every TLS server).
	empty := filepath.Join(t.TempDir(), "gitconfig")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", empty)

	root := t.TempDir()
	(&gitHost{root: root}).bare(t, "alice", "proj", "1")
	mustGit(t, root, "clone", "-q", "--mirror", "alice/proj.git", "alice/moved.git")
	mustGit(t, filepath.Join(root, "alice", "proj.git"), "update-server-info")

	var trap atomic.Pointer[credTrap]
	backend := gitBackend(t, root)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		trap.Load().inspect("another port", r)
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(other.Close)
	otherTLS := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		trap.Load().inspect("https on another port", r)
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(otherTLS.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: otherTLS.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_SSL_CAINFO", ca)

	failed, runs, failedRuns := map[string]bool{}, 0, 0
	for _, v := range credVectors() {
		modes := []string{"repo clone", "pr checkout (remote)", "pr checkout (clone URL)"}
		if v.cloneURL != nil {
			modes = []string{"repo clone", "pr checkout (clone URL)"}
		}
		for _, mode := range modes {
			runs++
			name := v.name + " / " + mode
			h, env := newGitHostWith(t, gitHostOptions{tls: v.instance == "tls", root: root})
			h.srv.AddRepo("alice", "proj")
			h.srv.AddPull("alice", "proj", "feature/x", "main", "x")
			token := h.srv.Token()
			tr := newCredTrap(token)
			trap.Store(tr)
			e := &credEnv{h: h, other: other.URL, otherTLS: otherTLS.URL}
			h.mu.Lock()
			h.trap = tr
			if v.instance == "localhost" {
				h.base = renamedHost(h.url)
				env["FORGEJO_URL"] = h.base
			}
			if v.hook != nil {
				h.hook = func(w http.ResponseWriter, r *http.Request) bool { return v.hook(e, w, r) }
			}
			if v.cloneURL != nil {
				h.cloneURL = v.cloneURL(e)
			}
			base := h.base
			h.mu.Unlock()

			cfg := ""
			if v.gitconfig != nil {
				cfg = v.gitconfig(e)
			}
			if err := os.WriteFile(empty, []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			work := t.TempDir()
			adjust := inDir(work)
			if v.instance == "tls" {
				c, err := forgejo.NewClient(forgejo.WithBaseURL(h.url), forgejo.WithToken(token), forgejo.WithHTTPClient(h.client))
				if err != nil {
					t.Fatal(err)
				}
				adjust = func(a *app) {
					a.dir, a.client, a.token = work, c, token
					a.mask.Add(token)
				}
			}
			var args []string
			switch mode {
			case "repo clone":
				args = []string{"repo", "clone", "alice/proj"}
			case "pr checkout (remote)":
				mustGit(t, work, "init", "-q")
				mustGit(t, work, "remote", "add", "origin", base+"/alice/proj.git")
				args = []string{"pr", "checkout", "1", "-R", "alice/proj"}
			default:
				mustGit(t, work, "init", "-q")
				args = []string{"pr", "checkout", "1", "-R", "alice/proj"}
			}
			r := cliWith(t, env, adjust, args...)

			t.Logf("%s: %s", name, strings.TrimSpace(r.stderr))
			var fails []string
			for _, l := range tr.take() {
				fails = append(fails, "LEAK: "+l)
			}
			if n := e.sameOrigin.Load(); n > 0 {
				fails = append(fails, fmt.Sprintf("followed a same-origin redirect (%d requests)", n))
			}
			if r.code != 1 {
				fails = append(fails, fmt.Sprintf("exit %d, want 1", r.code))
			}
			if l := lines(r.stderr); len(l) != 1 || !strings.HasPrefix(l[0], "forgego: ") {
				fails = append(fails, fmt.Sprintf("stderr is not one forgego: line: %q", r.stderr))
			}
			for _, s := range tr.secrets {
				if strings.Contains(r.stdout+r.stderr, s) {
					fails = append(fails, "the credential printed")
					break
				}
			}
			if mode == "repo clone" {
				if _, err := os.Stat(filepath.Join(work, "proj")); err == nil {
					fails = append(fails, "cloned")
				}
			} else if err := exec.Command("git", "-C", work, "rev-parse", "--verify", "--quiet", "refs/heads/feature/x").Run(); err == nil {
				fails = append(fails, "checked out")
			}
			if len(fails) > 0 {
				failed[v.name] = true
				failedRuns++
				t.Errorf("%s:\n\t%s", name, strings.Join(fails, "\n\t"))
			}
		}
	}
	t.Logf("%d of %d runs failed (%d of %d vectors)", failedRuns, runs, len(failed), len(credVectors()))
}
