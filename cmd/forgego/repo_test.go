package main

import (
	"strings"
	"testing"
)

func TestRepoCreateAndFork(t *testing.T) {
	srv, env := setup(t)
	me := srv.DefaultUser()
	r := cli(t, env, "repo", "create", "tools", "--private", "-d", "Scripts")
	r.want(t, 0)
	if r.stdout != "created repository "+me+"/tools: "+srv.URL+"/"+me+"/tools\n" {
		t.Errorf("%q %q", r.stdout, r.stderr)
	}
	r = cli(t, env, "repo", "view", me+"/tools", "--json", "private,description", "--jq", `"\(.private) \(.description)"`)
	if r.stdout != "true Scripts\n" {
		t.Errorf("%q %q", r.stdout, r.stderr)
	}
	cli(t, env, "repo", "create", me+"/second").want(t, 0)
	r = cli(t, env, "repo", "fork", "alice/proj")
	r.want(t, 0)
	if r.stdout != "forked alice/proj to "+me+"/proj: "+srv.URL+"/"+me+"/proj\n" {
		t.Errorf("%q %q", r.stdout, r.stderr)
	}
	// A second fork of the same repository by the same user is refused,
	// as Forgejo and Gitea refuse it (409), whatever its name.
	r = cli(t, env, "repo", "fork", "-R", "alice/proj", "--fork-name", "proj2")
	if r.want(t, 1); !strings.Contains(r.stderr, "409") || !strings.Contains(r.stderr, "already forked") {
		t.Errorf("%q", r.stderr)
	}
	for _, args := range [][]string{{"repo", "create"}, {"repo", "create", "a", "b"}, {"repo", "create", "a/b/c"}, {"repo", "create", "x", "--private", "--public"}, {"repo", "fork"}} {
		cli(t, env, args...).want(t, 2)
	}
	cli(t, map[string]string{"FORGEJO_URL": srv.URL}, "repo", "create", "anon").want(t, 4)
}
