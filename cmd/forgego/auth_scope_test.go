package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

// scopedToken makes the account login (a password, through the
// administrator) and mints a token with scopes, as a user does in the
// instance's settings: POST /users/{login}/tokens with the password.
func scopedToken(t *testing.T, srv *forgejotest.Server, login string, scopes ...string) string {
	t.Helper()
	ctx := context.Background()
	srv.SetAdmin(srv.DefaultUser(), true)
	f := false
	if _, _, err := srv.Client().Admin.CreateUser(ctx, forgejo.CreateUserRequest{Username: login, Email: login + "@example.org",
		Password: login + "-Passw0rd", MustChangePassword: &f}); err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"name": "cli", "scopes": scopes})
	req, _ := http.NewRequest("POST", srv.URL+"/api/v1/users/"+login+"/tokens", bytes.NewReader(body))
	req.SetBasicAuth(login, login+"-Passw0rd")
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct {
		SHA1 string `json:"sha1"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || resp.StatusCode != 201 || tok.SHA1 == "" {
		t.Fatalf("minting a token: %d %v", resp.StatusCode, err)
	}
	return tok.SHA1
}

// A token without read:user (every token restricted to repositories is
// one) is refused GET /user for its scope, but it is a valid token: login
// stores it, says in one line what it could not check, and auth status
// says what the token is refused.
func TestAuthLoginTokenWithoutReadUser(t *testing.T) {
	srv := forgejotest.NewServer(t)
	srv.AddRepo("alice", "proj")
	tok := scopedToken(t, srv, "bot", "write:repository", "write:issue")
	env, path := authEnv(t)
	refuseUserWithoutScope(t, srv, tok)

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

	// The token works for what its scopes allow.
	r = cli(t, env, "issue", "create", "alice/proj", "-t", "with a narrow token")
	r.want(t, 0)

	// Status: whose (as stored), and one read per category.
	r = cli(t, env, "auth", "status")
	r.want(t, 0)
	lines := strings.Split(r.stdout, "\n")
	if len(lines) != 4 || lines[0] != srv.URL+" (default)" || lines[1] != "  logged in as bot (not checked: GET /user needs read:user)" {
		t.Fatalf("status:\n%s", r.stdout)
	}
	if !strings.HasPrefix(lines[2], "  token scopes: refused read:user, ") || !strings.Contains(lines[2], "read:admin") ||
		!strings.Contains(lines[2], "read:package") || !strings.Contains(lines[2], "allowed read:repository, read:issue") ||
		!strings.HasSuffix(lines[2], " (one read probed per category; writes not tried)") {
		t.Errorf("status scopes: %q", lines[2])
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
	srv.Handle("userGetCurrent", nil)
	full := srv.AddUser("carol")
	r = cliIn(t, env, full+"\n", "auth", "login", "--hostname", srv.URL, "--user", "bot", "--with-token")
	r.want(t, 1)
	if !strings.Contains(r.stderr, "the token was not stored: it is carol's, not bot's") {
		t.Errorf("--user mismatch: %q", r.stderr)
	}
	// A hostile --user is a usage error.
	cliIn(t, env, tok, "auth", "login", "--hostname", srv.URL, "--user", "a\x1b[31mb", "--with-token").want(t, 2)
}

// refuseUserWithoutScope makes GET /user refuse tok as Forgejo refuses a
// token without read:user, when the fake lets it through: the answer is
// Forgejo 15.0.3's, verbatim.
func refuseUserWithoutScope(t *testing.T, srv *forgejotest.Server, tok string) {
	t.Helper()
	req, _ := http.NewRequest("GET", srv.URL+"/api/v1/user", nil)
	req.Header.Set("Authorization", "token "+tok)
	resp, err := srv.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	srv.ResetRequests()
	if resp.StatusCode == http.StatusForbidden {
		return
	}
	srv.Handle("userGetCurrent", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json;charset=utf-8")
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte(`{"message":"token does not have at least one of required scope(s): [read:user]","url":"` + srv.URL + `/api/swagger"}`))
	})
}

// A token that can read its user gets its scopes from the instance's own
// list of the user's tokens (matched by their last eight characters), with
// no probing.
func TestAuthStatusListsScopes(t *testing.T) {
	srv := forgejotest.NewServer(t)
	tok := scopedToken(t, srv, "bot", "read:user", "write:repository")
	env, _ := authEnv(t)
	r := cliIn(t, env, tok, "auth", "login", "--hostname", srv.URL, "--with-token")
	r.want(t, 0)
	if r.stderr != "logged in to "+srv.URL+" as bot (the default instance now)\n" {
		t.Errorf("login %q", r.stderr)
	}
	srv.ResetRequests()
	r = cli(t, env, "auth", "status")
	r.want(t, 0)
	if want := srv.URL + " (default)\n  logged in as bot\n  token scopes: read:user, write:repository (as listed by the instance)\n"; r.stdout != want {
		t.Errorf("status:\n%q\nwant\n%q", r.stdout, want)
	}
	if ops := srv.Operations(); len(ops) != 2 {
		t.Errorf("requests: %v", ops)
	}
}
