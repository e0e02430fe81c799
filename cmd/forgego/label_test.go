package main

import (
	"context"
	"strings"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
)

func TestLabels(t *testing.T) {
	srv, env := setup(t)
	env["FORGEJO_TOKEN"] = srv.AddUser("alice")
	srv.AddLabel("alice", "proj", "bug", "ee0701")
	in := inDir(gitRepo(t, "origin", "git@example.org:alice/proj"))

	r := cliWith(t, env, in, "label", "create", "good first issue", "--color", "#7057FF", "-d", "Easy")
	r.want(t, 0)
	if r.stdout != "created label \"good first issue\" in alice/proj\n" {
		t.Errorf("%q", r.stdout)
	}
	r = cliWith(t, env, in, "label", "list")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "bug               ee0701") || !strings.Contains(r.stdout, "good first issue  7057ff  Easy") || r.stderr != "showing 2 of 2 labels in alice/proj\n" {
		t.Errorf("%q %q", r.stdout, r.stderr)
	}
	r = cliWith(t, env, in, "label", "list", "--json", "name,color", "--jq", `.[] | "\(.name)=\(.color)"`)
	if r.stdout != "bug=ee0701\ngood first issue=7057ff\n" {
		t.Errorf("%q %q", r.stdout, r.stderr)
	}
	cliWith(t, env, in, "label", "edit", "bug", "--name", "defect", "--color", "b60205", "--description", "Broken").want(t, 0)
	ls, _, err := srv.Client().Issues.ListLabels(context.Background(), "alice", "proj", nil)
	if err != nil || len(ls) != 2 || ls[0].Name != "defect" || !strings.EqualFold(strings.TrimPrefix(ls[0].Color, "#"), "b60205") || ls[0].Description != "Broken" {
		t.Fatalf("%+v %v", ls, err)
	}
	r = cliWith(t, env, in, "label", "delete", "defect")
	r.want(t, 2)
	cliWith(t, env, in, "label", "delete", "defect", "--yes").want(t, 0)
	r = cliWith(t, env, in, "label", "delete", "defect", "--yes")
	r.want(t, 1)
	if !strings.Contains(r.stderr, `has no label "defect"; it has: good first issue`) {
		t.Errorf("%q", r.stderr)
	}
	ls, _, _ = srv.Client().Issues.ListLabels(context.Background(), "alice", "proj", &forgejo.IssueListLabelsOptions{})
	if len(ls) != 1 {
		t.Errorf("%d labels left", len(ls))
	}
	// Someone who cannot write to the repository: 403, exit 4.
	r = cliWith(t, map[string]string{"FORGEJO_URL": srv.URL, "FORGEJO_TOKEN": srv.Token()}, in, "label", "create", "x", "--color", "ffffff")
	r.want(t, 4)
	if !strings.Contains(r.stderr, "403 Forbidden") {
		t.Errorf("%q", r.stderr)
	}
	srv.ResetRequests()
	for _, args := range [][]string{
		{"label", "create", "x"}, {"label", "create", "x", "--color", "red"}, {"label", "create", "--color", "ffffff"},
		{"label", "edit", "x"}, {"label", "edit", "x", "--color", "12345"}, {"label", "edit", "x", "--name", ""},
		{"label", "list", "--json", "nope"},
	} {
		cliWith(t, env, in, args...).want(t, 2)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("usage errors sent %d requests", n)
	}
}
