package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReleaseWrites(t *testing.T) {
	srv, env := setup(t)
	env["FORGEJO_TOKEN"] = srv.AddUser("alice")
	in := inDir(gitRepo(t, "origin", "git@example.org:alice/proj.git"))
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.tar.gz"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("archive bytes"), 0o600)
	os.WriteFile(b, []byte("notes"), 0o600)

	r := cliWith(t, env, in, "release", "create", "v1.0.0", "--title", "One", "--notes", "First", a)
	r.want(t, 0)
	if !strings.HasPrefix(r.stdout, "created release v1.0.0 in alice/proj: ") || r.stderr != "uploaded a.tar.gz (13 bytes)\n" {
		t.Errorf("%q %q", r.stdout, r.stderr)
	}
	r = cliWith(t, env, in, "release", "upload", "v1.0.0", b)
	r.want(t, 0)
	r = cliWith(t, env, in, "release", "view", "v1.0.0", "--json", "tag_name,name,body,assets", "--jq", `"\(.tag_name) \(.name) \(.body) \([.assets[].name]|join(","))"`)
	r.want(t, 0)
	if r.stdout != "v1.0.0 One First a.tar.gz,b.txt\n" {
		t.Errorf("%q %q", r.stdout, r.stderr)
	}
	srv.ResetRequests()
	for _, args := range [][]string{
		{"release", "create"}, {"release", "create", "v2", filepath.Join(dir, "missing")}, {"release", "create", "v2", dir},
		{"release", "upload", "v1.0.0"}, {"release", "delete", "v1.0.0"}, {"release", "delete"},
	} {
		cliWith(t, env, in, args...).want(t, 2)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("usage errors sent %d requests", n)
	}
	cliWith(t, env, in, "release", "delete", "v1.0.0", "--yes").want(t, 0)
	cliWith(t, env, in, "release", "view", "v1.0.0").want(t, 1)
}

// The embedded demo has releases with assets and labels: every read
// command can be tried offline.
func TestEmbeddedReleasesAndLabels(t *testing.T) {
	r := cli(t, nil, "--embedded", "release", "list", "forgego/demo")
	r.want(t, 0)
	if !strings.HasPrefix(r.stdout, "TAG         NAME                     TYPE         PUBLISHED\nv1.1.0-rc1  1.1.0 release candidate  pre-release  ") ||
		r.stderr != "showing 3 of 3 releases in forgego/demo\n" {
		t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
	}
	r = cli(t, nil, "--embedded", "release", "view", "forgego/demo", "v1.0.0", "--json", "tag_name,assets", "--jq", `[.tag_name, (.assets[] | "\(.name) \(.size)")] | join(",")`)
	r.want(t, 0)
	if r.stdout != "v1.0.0,forgego_1.0.0_linux_amd64.tar.gz 21,checksums.txt 41\n" || r.stderr != "" {
		t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
	}
	r = cli(t, nil, "--embedded", "label", "list", "forgego/demo", "--json", "name", "--jq", "length")
	if r.want(t, 0); r.stdout != "8\n" {
		t.Errorf("labels %q", r.stdout)
	}
}
