package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/forgejotest"
)

// cliIn runs the program with stdin.
func cliIn(t *testing.T, env map[string]string, stdin string, args ...string) result {
	t.Helper()
	return cliWith(t, env, func(a *app) { a.stdin = strings.NewReader(stdin) }, args...)
}

// authEnv is an environment with a fresh configuration directory and
// neither FORGEJO_URL nor FORGEJO_TOKEN.
func authEnv(t *testing.T) (map[string]string, string) {
	t.Helper()
	dir := t.TempDir()
	return map[string]string{"XDG_CONFIG_HOME": dir, "HOME": "/nonexistent"}, filepath.Join(dir, "forgego", "hosts.json")
}

func TestAuthLoginStatusTokenLogout(t *testing.T) {
	srv := forgejotest.NewServer(t)
	srv.AddRepo("alice", "proj")
	other := forgejotest.NewServer(t)
	env, path := authEnv(t)

	// Without a token, a write is refused.
	cli(t, env, "--url", srv.URL, "issue", "create", "alice/proj", "-t", "x").want(t, 4) // exit 4: authentication missing

	// A refused token is not stored.
	r := cliIn(t, env, "not-a-valid-token\n", "auth", "login", "--hostname", srv.URL, "--with-token")
	r.want(t, 4)
	if !strings.Contains(r.stderr, "the token was not stored") || !strings.Contains(r.stderr, "401") || strings.Contains(r.stderr, "not-a-valid-token") {
		t.Errorf("stderr %q", r.stderr)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("a refused token was stored: %v", err)
	}

	r = cliIn(t, env, srv.Token()+"\n", "auth", "login", "--hostname", srv.URL+"/", "--with-token")
	r.want(t, 0)
	if r.stdout != "" || r.stderr != "logged in to "+srv.URL+" as "+srv.DefaultUser()+" (the default instance now)\n" {
		t.Errorf("login: %q %q", r.stdout, r.stderr)
	}
	if n := srv.Count("userGetCurrent"); n != 2 {
		t.Errorf("GET /user %d times", n)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("config %v %v", st, err)
	}
	if dst, _ := os.Stat(filepath.Dir(path)); dst.Mode().Perm() != 0o700 {
		t.Errorf("config dir mode %v", dst.Mode())
	}
	var cfg config
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &cfg); err != nil || cfg.Default != srv.URL || cfg.Hosts[srv.URL].Token != srv.Token() || cfg.Hosts[srv.URL].User != srv.DefaultUser() {
		t.Fatalf("config %s %v", data, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}

	// The logged-in instance is the default, with its token: a write works.
	r = cli(t, env, "issue", "create", "alice/proj", "-t", "Logged in")
	r.want(t, 0)
	if !strings.HasPrefix(r.stdout, "created issue #1 in alice/proj") {
		t.Errorf("%q", r.stdout)
	}

	// Status checks the token and never shows it.
	r = cli(t, env, "auth", "status")
	r.want(t, 0)
	if r.stdout != srv.URL+" (default)\n  logged in as "+srv.DefaultUser()+"\n  token scopes: no read refused (one probed per category; writes not tried)\n" {
		t.Errorf("status %q", r.stdout)
	}

	// auth token prints it, unmasked, and only it.
	r = cli(t, env, "auth", "token")
	r.want(t, 0)
	if r.stdout != srv.Token()+"\n" || r.stderr != "" {
		t.Errorf("token %q %q", r.stdout, r.stderr)
	}
	// Every other output masks it.
	r = cli(t, env, "api", "/user", "-v")
	r.want(t, 0)
	if strings.Contains(r.stdout+r.stderr, srv.Token()) {
		t.Errorf("token printed:\n%s\n%s", r.stdout, r.stderr)
	}

	// A second instance, then the precedence.
	tok2 := other.Token()
	cliIn(t, env, tok2, "auth", "login", "--hostname", other.URL, "--with-token").want(t, 0)
	r = cli(t, env, "auth", "token")
	if r.stdout != tok2+"\n" {
		t.Errorf("default after the second login: %q", r.stdout)
	}
	r = cli(t, env, "auth", "token", "--hostname", srv.URL)
	if r.stdout != srv.Token()+"\n" {
		t.Errorf("--hostname: %q", r.stdout)
	}
	// FORGEJO_URL beats the default; --url beats FORGEJO_URL; each gets
	// its own stored token.
	e2 := map[string]string{"XDG_CONFIG_HOME": env["XDG_CONFIG_HOME"], "FORGEJO_URL": srv.URL}
	cli(t, e2, "issue", "create", "alice/proj", "-t", "via FORGEJO_URL").want(t, 0)
	cli(t, e2, "--url", other.URL, "issue", "create", "alice/proj", "-t", "x").want(t, 1) // no alice/proj there
	if other.Count("issueCreateIssue") != 1 {
		t.Errorf("--url did not win")
	}
	// FORGEJO_TOKEN beats the stored token.
	e3 := map[string]string{"XDG_CONFIG_HOME": env["XDG_CONFIG_HOME"], "FORGEJO_URL": srv.URL, "FORGEJO_TOKEN": "bogus-token"}
	r = cli(t, e3, "issue", "create", "alice/proj", "-t", "x")
	r.want(t, 4)
	if !strings.Contains(r.stderr, "401") {
		t.Errorf("FORGEJO_TOKEN did not win: %q", r.stderr)
	}
	r = cli(t, e3, "auth", "status")
	if !strings.HasPrefix(r.stdout, "FORGEJO_TOKEN is set") {
		t.Errorf("status %q", r.stdout)
	}

	// Logout: the default goes, the other instance is the default.
	r = cli(t, env, "auth", "logout")
	r.want(t, 0)
	if !strings.HasPrefix(r.stderr, "logged out of "+other.URL) {
		t.Errorf("logout %q", r.stderr)
	}
	r = cli(t, env, "auth", "token")
	if r.stdout != srv.Token()+"\n" {
		t.Errorf("after logout: %q %q", r.stdout, r.stderr)
	}
	cli(t, env, "auth", "logout", "--hostname", other.URL).want(t, 1)
	cli(t, env, "auth", "logout", "--hostname", srv.URL).want(t, 0)
	r = cli(t, env, "auth", "status")
	r.want(t, 4)
	r = cli(t, env, "auth", "token")
	r.want(t, 4)
}

func TestAuthUsageAndHostileInput(t *testing.T) {
	srv := forgejotest.NewServer(t)
	env, path := authEnv(t)
	for _, tc := range []struct {
		stdin string
		args  []string
	}{
		{srv.Token(), []string{"auth", "login", "--hostname", srv.URL}},                   // no --with-token
		{"", []string{"auth", "login", "--hostname", srv.URL, "--with-token"}},            // no token
		{"a b", []string{"auth", "login", "--hostname", srv.URL, "--with-token"}},         // a space
		{srv.Token(), []string{"auth", "login", "--hostname", "ftp://x", "--with-token"}}, // scheme
		{srv.Token(), []string{"auth", "login", "--hostname", "https://u:secretpw@x", "--with-token"}},
		{srv.Token(), []string{"auth", "login", "--hostname", "https://x/?a=1", "--with-token"}},
		{srv.Token(), []string{"--embedded", "auth", "login", "--with-token"}},
		{"", []string{"auth", "status", "extra"}},
	} {
		r := cliIn(t, env, tc.stdin, tc.args...)
		r.want(t, 2)
		if strings.Contains(r.stderr, "secretpw") || strings.Contains(r.stderr, srv.Token()) {
			t.Errorf("%v: secret echoed: %q", tc.args, r.stderr)
		}
	}
	if srv.Count("userGetCurrent") != 0 {
		t.Errorf("a usage error sent a request")
	}

	// A file others can read is refused, not used.
	cliIn(t, env, srv.Token(), "auth", "login", "--hostname", srv.URL, "--with-token").want(t, 0)
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	r := cli(t, env, "auth", "token")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "is readable by others (mode 0644)") || strings.Contains(r.stdout+r.stderr, srv.Token()) {
		t.Errorf("%q %q", r.stdout, r.stderr)
	}
	cli(t, env, "issue", "list", "alice/proj").want(t, 1)
	os.Chmod(path, 0o600)
	// A damaged file says so.
	os.WriteFile(path, []byte("{not json"), 0o600)
	r = cli(t, env, "auth", "status")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "is not a forgego configuration") {
		t.Errorf("%q", r.stderr)
	}
	// HOME is the fallback when XDG_CONFIG_HOME is unset.
	home := t.TempDir()
	cliIn(t, map[string]string{"HOME": home}, srv.Token(), "auth", "login", "--hostname", srv.URL, "--with-token").want(t, 0)
	if _, err := os.Stat(filepath.Join(home, ".config", "forgego", "hosts.json")); err != nil {
		t.Error(err)
	}
}

func TestEmbeddedWithURLIsAUsageError(t *testing.T) {
	r := cli(t, nil, "--embedded", "--url", "https://codeberg.org", "issue", "list", "forgego/demo")
	r.want(t, 2)
	if !strings.Contains(r.stderr, "--embedded and --url cannot be used together") {
		t.Errorf("%q", r.stderr)
	}
}

func TestNormalizeHost(t *testing.T) {
	for in, want := range map[string]string{
		"codeberg.org":                       "https://codeberg.org",
		"https://Codeberg.ORG/":              "https://codeberg.org",
		"http://127.0.0.1:3000/api/v1":       "http://127.0.0.1:3000",
		"https://git.example.org/forgejo/":   "https://git.example.org/forgejo",
		" https://git.example.org/a/api/v1/": "https://git.example.org/a",
	} {
		if got, err := normalizeHost(in); err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "ftp://x", "https://s3cr3t@x", "https://u:s3cr3t@x", "https://x?q", "https://x#f", "https://", "http://:80"} {
		if got, err := normalizeHost(in); err == nil {
			t.Errorf("%q accepted as %q", in, got)
		} else if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%q: credentials in %v", in, err)
		}
	}
}
