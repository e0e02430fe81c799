package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

// A token restricted to one repository cannot have read:user and is
// refused GET /user for its scope, but it is a valid token: login stores
// it, says in one line what it could not check, and auth status says what
// the token is refused.
func TestAuthLoginRepositoryToken(t *testing.T) {
	srv := forgejotest.NewServer(t)
	srv.AddUser("bot")
	srv.AddRepo("bot", "proj")
	tok := srv.AddRepositoryToken("bot", []string{"bot/proj"}, forgejo.ScopeWriteRepository, forgejo.ScopeWriteIssue)
	env, path := authEnv(t)

	r := cliIn(t, env, tok+"\n", "auth", "login", "--hostname", srv.URL, "--with-token")
	r.want(t, 0)
	want := "logged in to " + srv.URL + " (the default instance now)\n" +
		"checked: the token is valid; not checked: whose it is (GET /user needs read:user; --user records it)\n"
	if r.stdout != "" || r.stderr != want {
		t.Errorf("login:\n%q\nwant\n%q", r.stderr, want)
	}
	data, _ := os.ReadFile(path)
	var cfg config
	if err := json.Unmarshal(data, &cfg); err != nil || cfg.Hosts[srv.URL].Token != tok || cfg.Hosts[srv.URL].User != "" {
		t.Fatalf("config %s %v", data, err)
	}

	// --user records the account, unchecked.
	r = cliIn(t, env, tok+"\n", "auth", "login", "--hostname", srv.URL, "--user", "bot", "--with-token")
	r.want(t, 0)
	if !strings.HasPrefix(r.stderr, "logged in to "+srv.URL+" as bot (the default instance now)\nchecked: the token is valid; not checked: that it is bot's (GET /user needs read:user)\n") {
		t.Errorf("login --user: %q", r.stderr)
	}

	// The token works for what its scopes allow, on its repository.
	r = cli(t, env, "issue", "create", "bot/proj", "-t", "with a narrow token")
	r.want(t, 0)

	// Status: whose (as stored), and one read per category.
	r = cli(t, env, "auth", "status")
	r.want(t, 0)
	lines := strings.Split(r.stdout, "\n")
	if len(lines) != 4 || lines[0] != srv.URL+" (default)" || lines[1] != "  logged in as bot (not checked: GET /user needs read:user)" {
		t.Fatalf("status:\n%s", r.stdout)
	}
	if want := "  token scopes: refused read:user, read:organization, read:notification, read:package, read:admin; allowed read:repository, read:issue (one read probed per category; writes not tried)"; lines[2] != want {
		t.Errorf("status scopes:\n%q\nwant\n%q", lines[2], want)
	}

	// A later scope refusal says, in one line, which scope to add.
	r = cli(t, env, "api", "/user/keys")
	r.want(t, 4)
	wantLine := "forgego: GET " + srv.URL + "/api/v1/user/keys: 403 Forbidden: the token lacks the read:user scope: use a token that has it (create one in the instance's settings, Applications)\n"
	if r.stderr != wantLine {
		t.Errorf("scope refusal:\n%q\nwant\n%q", r.stderr, wantLine)
	}
	if strings.Contains(r.stdout+r.stderr, tok) {
		t.Errorf("token printed")
	}

	// --user that the token can read and contradicts is refused.
	full := srv.AddUser("carol")
	r = cliIn(t, env, full+"\n", "auth", "login", "--hostname", srv.URL, "--user", "bot", "--with-token")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "the token was not stored: it is carol's, not bot's") {
		t.Errorf("--user mismatch: %q", r.stderr)
	}
	// A hostile --user is a usage error.
	cliIn(t, env, tok, "auth", "login", "--hostname", srv.URL, "--user", "a\x1b[31mb", "--with-token").want(t, 2)
}
