package main

import (
	"context"
	"strings"
	"testing"
)

func TestPullRequestWrites(t *testing.T) {
	srv, env := setup(t)
	env["FORGEJO_TOKEN"] = srv.AddUser("alice") // the owner
	srv.AddLabel("alice", "proj", "enhancement", "84b6eb")
	srv.AddBranch("alice", "proj", "feature")
	srv.AddBranch("alice", "proj", "other")
	in := inDir(gitRepo(t, "origin", "https://example.org/alice/proj"))

	r := cliWith(t, env, in, "pr", "create", "--head", "feature", "--title", "A feature", "--body", "Details", "--label", "enhancement")
	r.want(t, 0)
	if !strings.HasPrefix(r.stdout, "created pull request #1 in alice/proj (feature → main): "+srv.URL+"/alice/proj/pulls/1") {
		t.Errorf("%q %q", r.stdout, r.stderr)
	}
	pr, _, err := srv.Client().PullRequests.Get(context.Background(), "alice", "proj", 1)
	if err != nil || pr.Base.Ref != "main" || pr.Head.Ref != "feature" || pr.Body != "Details" || len(pr.Labels) != 1 {
		t.Fatalf("%+v %v", pr, err)
	}
	r = cliWith(t, env, in, "pr", "comment", "1", "-b", "LGTM")
	r.want(t, 0)
	if !strings.HasPrefix(r.stdout, "commented on pull request #1 in alice/proj: ") {
		t.Errorf("%q", r.stdout)
	}
	r = cliWith(t, env, in, "pr", "diff", "1")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "diff --git") {
		t.Errorf("diff %q", r.stdout)
	}
	cliWith(t, env, in, "pr", "diff", "1", "--patch").want(t, 0)

	r = cliWith(t, env, in, "pr", "close", "1")
	r.want(t, 0)
	if !strings.HasPrefix(r.stdout, "closed pull request #1 in alice/proj") {
		t.Errorf("%q", r.stdout)
	}
	r = cliWith(t, env, in, "pr", "reopen", "1")
	r.want(t, 0)
	r = cliWith(t, env, in, "pr", "merge", "1", "--squash", "--delete-branch")
	r.want(t, 0)
	if r.stdout != "merged pull request #1 in alice/proj (squash)\n" {
		t.Errorf("%q", r.stdout)
	}
	r = cliWith(t, env, in, "pr", "view", "1", "--json", "state,merged", "--jq", `"\(.state) \(.merged)"`)
	if r.stdout != "closed true\n" { // the API's state: a merged pull request is closed
		t.Errorf("after the merge: %q %q", r.stdout, r.stderr)
	}
	log := srv.Requests()
	if body := string(log[len(log)-2].Body); !strings.Contains(body, `"Do":"squash"`) || !strings.Contains(body, `"delete_branch_after_merge":true`) {
		t.Errorf("merge body %s", body)
	}

	srv.ResetRequests()
	for _, args := range [][]string{
		{"pr", "create", "--title", "x"}, {"pr", "create", "--head", "feature"},
		{"pr", "merge", "1"}, {"pr", "merge", "1", "--merge", "--squash"},
		{"pr", "comment", "1"}, {"pr", "close"}, {"pr", "diff", "x"},
	} {
		cliWith(t, env, in, args...).want(t, 2)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("usage errors sent %d requests", n)
	}
}
