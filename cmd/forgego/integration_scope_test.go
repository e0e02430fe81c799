package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A token without read:user on a real Gitea (scoped tokens, with Gitea's
// wording of the refusal): login stores it and says what it could not
// check, status names the refused reads, and a refusal later is one line
// naming the scope.
func TestCLIScopedTokenAgainstGitea(t *testing.T) {
	url, login, _ := realServer(t)
	password := os.Getenv("FORGEGO_IT_ADMIN_PASSWORD")
	if password == "" {
		t.Fatal("FORGEGO_IT_ADMIN_PASSWORD is not set")
	}
	name := "cli-scope-" + time.Now().UTC().Format("150405.000000")
	basic := func(method, path string, body any) *http.Response {
		t.Helper()
		var rd *bytes.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		} else {
			rd = bytes.NewReader(nil)
		}
		req, _ := http.NewRequest(method, url+"/api/v1"+path, rd)
		req.SetBasicAuth(login, password)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := basic("POST", "/users/"+login+"/tokens", map[string]any{"name": name, "scopes": []string{"read:repository"}})
	var tok struct {
		SHA1 string `json:"sha1"`
	}
	err := json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if resp.StatusCode != 201 || err != nil || tok.SHA1 == "" {
		t.Fatalf("minting a read:repository token: %d %v", resp.StatusCode, err)
	}
	t.Cleanup(func() { basic("DELETE", "/users/"+login+"/tokens/"+name, nil).Body.Close() })

	home := t.TempDir()
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, "config")}
	r := cliIn(t, env, tok.SHA1+"\n", "auth", "login", "--hostname", url, "--with-token")
	r.want(t, 0)
	if want := "logged in to " + url + " (the default instance now)\nchecked: the token is valid; not checked: whose it is (GET /user needs read:user; --user records it)\n"; r.stderr != want {
		t.Errorf("login:\n%q\nwant\n%q", r.stderr, want)
	}
	r = cli(t, env, "auth", "status")
	r.want(t, 0)
	if want := url + " (default)\n  logged in, as an account not known (GET /user needs read:user)\n" +
		"  token scopes: refused read:user, read:issue, read:organization, read:notification, read:package, read:admin; allowed read:repository (one read probed per category; writes not tried)\n"; r.stdout != want {
		t.Errorf("status:\n%q\nwant\n%q", r.stdout, want)
	}
	r = cli(t, env, "issue", "list", login+"/nonexistent-"+name)
	r.want(t, 4)
	if !strings.Contains(r.stderr, "403 Forbidden: the token lacks the read:issue scope: use a token that has it") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("a scope refusal: %q", r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, tok.SHA1) {
		t.Error("token printed")
	}
}
