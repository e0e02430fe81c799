package main

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"
)

// TestCLIActionsAgainstGitea runs the Actions commands against the real
// Gitea of .ci/run: a workflow file pushed through the contents API is
// listed and dispatched, and the run it started is listed and viewed
// (Gitea has no runner: the run stays queued, a valid outcome); secrets
// and variables of a repository and of the user go through their whole
// cycle; a secret's value never appears in any output.
func TestCLIActionsAgainstGitea(t *testing.T) {
	url, login, token := realServer(t)
	env := map[string]string{"FORGEJO_URL": url, "FORGEJO_TOKEN": token}
	const secretValue = "it-secret-value-0123456789"
	var seen strings.Builder
	run := func(stdin string, args ...string) result {
		t.Helper()
		r := cliWith(t, env, func(a *app) { a.stdin = strings.NewReader(stdin) }, args...)
		seen.WriteString(r.stdout + r.stderr)
		return r
	}
	ok := func(args ...string) result {
		t.Helper()
		r := run("", args...)
		r.want(t, 0)
		return r
	}
	name := strings.ReplaceAll("cli-act-"+time.Now().UTC().Format("150405.000000"), ".", "-")
	repo := login + "/" + name
	ok("repo", "create", name, "--add-readme")
	wf := "name: CI\non:\n  workflow_dispatch:\n    inputs:\n      target:\n        required: true\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n"
	ok("api", "-X", "POST", "repos/"+repo+"/contents/.gitea/workflows/ci.yml", "-f", "content="+base64.StdEncoding.EncodeToString([]byte(wf)), "--silent")

	if r := ok("workflow", "list", "-R", repo); !strings.Contains(r.stdout, "CI    ci.yml\n") {
		t.Errorf("workflow list: %q", r.stdout)
	}
	if r := ok("workflow", "view", "CI", "-R", repo, "--yaml"); r.stdout != wf {
		t.Errorf("workflow view --yaml: %q", r.stdout)
	}
	// Gitea answers the dispatch 204: the run is found in the listing.
	r := ok("workflow", "run", "ci.yml", "-R", repo, "-f", "target=staging", "--json", "id", "--jq", ".id")
	id := strings.TrimSpace(r.stdout)
	if id == "" || id == "0" {
		t.Fatalf("workflow run printed no run: %q %q", r.stdout, r.stderr)
	}
	if r := ok("run", "list", "-R", repo, "--json", "id,event", "--jq", `.[] | "\(.id) \(.event)"`); r.stdout != id+" workflow_dispatch\n" {
		t.Errorf("run list: %q", r.stdout)
	}
	if r := ok("run", "view", id, "-R", repo); !strings.Contains(r.stdout, "  run           "+id+" ") || !strings.Contains(r.stdout, "build") {
		t.Errorf("run view: %q %q", r.stdout, r.stderr)
	}
	ok("run", "view", id, "-R", repo, "--exit-status") // queued: not a failure

	// Secrets: the value from standard input, never shown.
	if r := run(secretValue+"\n", "secret", "set", "DEPLOY_KEY", "-R", repo); r.code != 0 || r.stdout != "created secret DEPLOY_KEY for "+repo+"\n" {
		t.Errorf("secret set: %+v", r)
	}
	if r := ok("secret", "list", "-R", repo, "--json", "name", "--jq", ".[].name"); r.stdout != "DEPLOY_KEY\n" {
		t.Errorf("secret list: %q", r.stdout)
	}
	ok("secret", "delete", "DEPLOY_KEY", "-R", repo)
	run("", "secret", "delete", "DEPLOY_KEY", "-R", repo).want(t, 1)
	ok("secret", "set", "USER_KEY", "--user", "--body", secretValue)
	ok("secret", "delete", "USER_KEY", "--user")

	// Variables: created, updated, read, listed, deleted; a repository's
	// and the user's.
	ok("variable", "set", "DEPLOY_ENV", "-R", repo, "--body", "staging")
	if r := run("production\n", "variable", "set", "DEPLOY_ENV", "-R", repo); r.code != 0 || !strings.HasPrefix(r.stdout, "updated variable") {
		t.Errorf("variable set (update): %+v", r)
	}
	if r := ok("variable", "get", "DEPLOY_ENV", "-R", repo); r.stdout != "production\n" {
		t.Errorf("variable get: %q", r.stdout)
	}
	if r := ok("variable", "list", "-R", repo, "--json", "name,value", "--jq", `.[] | "\(.name)=\(.value)"`); r.stdout != "DEPLOY_ENV=production\n" {
		t.Errorf("variable list: %q", r.stdout)
	}
	ok("variable", "delete", "DEPLOY_ENV", "-R", repo)
	run("", "variable", "get", "DEPLOY_ENV", "-R", repo).want(t, 1)
	uv := "IT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
	ok("variable", "set", uv, "--user", "--body", "u")
	ok("variable", "delete", uv, "--user")

	if out := seen.String(); strings.Contains(out, secretValue) || strings.Contains(out, token) {
		t.Errorf("a secret or the token was printed:\n%s", out)
	}
}
