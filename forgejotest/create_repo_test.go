package forgejotest

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// TestCreateRepoInitFiles: auto_init writes README.md, .gitignore and
// LICENSE in one "Initial commit" on the default branch, as Forgejo does;
// an unknown template fails the create without leaving a repository.
func TestCreateRepoInitFiles(t *testing.T) {
	day := time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)
	srv := NewServer(t, WithClock(NewFakeClock(day)))
	ctx := context.Background()
	me := srv.DefaultUser()
	c := srv.Client()

	r, _, err := c.Repos.Create(ctx, forgejo.CreateRepoRequest{Name: "init", Description: "Tools", AutoInit: true,
		Readme: "Default", Gitignores: "Go,Rust", License: "MIT", DefaultBranch: "trunk"})
	if err != nil || r.Empty || r.DefaultBranch != "trunk" {
		t.Fatalf("create: %v %+v", err, r)
	}
	b, _, err := c.Repos.GetBranch(ctx, me, "init", "trunk")
	if err != nil || b.Commit == nil || strings.TrimSpace(b.Commit.Message) != "Initial commit" {
		t.Fatalf("branch: %v %+v", err, b)
	}
	want := map[string]string{
		"README.md":  "# init\n\nTools",
		".gitignore": "# ---> Go\n" + gitignoreTemplates["Go"] + "\n# ---> Rust\n" + gitignoreTemplates["Rust"] + "\n",
		"LICENSE":    "MIT License\n\nCopyright (c) 2031 " + me + "\n\n(the fake's placeholder for the MIT license text)\n",
	}
	for file, text := range want {
		got, _, err := c.Repos.GetRawFile(ctx, me, "init", file, nil)
		if err != nil || string(got) != text {
			t.Errorf("%s: %v %q, want %q", file, err, got, text)
		}
	}

	// Without auto_init the templates are ignored, unknown ones included.
	r, _, err = c.Repos.Create(ctx, forgejo.CreateRepoRequest{Name: "bare", Gitignores: "Nope", License: "Nope"})
	if err != nil || !r.Empty {
		t.Fatalf("create without auto_init: %v %+v", err, r)
	}

	status := func(err error) int {
		var ae *forgejo.APIError
		if errors.As(err, &ae) {
			return ae.StatusCode
		}
		return 0
	}
	admin := srv.AddUser("root")
	srv.SetAdmin("root", true)
	for _, tc := range []struct {
		opt    forgejo.CreateRepoRequest
		client *forgejo.Client
		status int
		msg    string
	}{
		{forgejo.CreateRepoRequest{Name: "x1", AutoInit: true, Readme: "Fancy"}, c, 400, "readme template does not exist, available templates: [Default]"},
		{forgejo.CreateRepoRequest{Name: "init", AutoInit: true, Readme: "Fancy"}, c, 400, ""}, // the template before the name
		{forgejo.CreateRepoRequest{Name: "init", AutoInit: true, Gitignores: "Nope"}, c, 409, ""},
		{forgejo.CreateRepoRequest{Name: "x2", AutoInit: true, Gitignores: "Go,Nope"}, c, 500, ""}, // only an administrator reads why
		{forgejo.CreateRepoRequest{Name: "x3", AutoInit: true, License: "Nope"}, c, 500, ""},
		{forgejo.CreateRepoRequest{Name: "x4", AutoInit: true, Gitignores: "Nope"}, srv.Client(forgejo.WithToken(admin)), 500,
			"initRepository: prepareRepoCommit: GetRepoInitFile[Nope]: file does not exist"},
	} {
		_, _, err := tc.client.Repos.Create(ctx, tc.opt)
		var ae *forgejo.APIError
		if status(err) != tc.status || (tc.msg != "" && (!errors.As(err, &ae) || ae.Message != tc.msg)) {
			t.Errorf("%+v: %v, want %d %q", tc.opt, err, tc.status, tc.msg)
		}
	}
	for i := 1; i <= 4; i++ {
		if _, _, err := c.Repos.Get(ctx, me, "x"+strconv.Itoa(i)); status(err) != 404 {
			t.Errorf("x%d after a failed create: %v", i, err)
		}
	}

	// The organization's and the administrator's routes take the same body.
	if _, _, err := c.Orgs.Create(ctx, forgejo.CreateOrgRequest{Username: "team"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Repos.CreateInOrg(ctx, "team", forgejo.CreateRepoRequest{Name: "o", AutoInit: true, License: "0BSD"}); err != nil {
		t.Fatal(err)
	}
	if got, _, err := c.Repos.GetRawFile(ctx, "team", "o", "LICENSE", nil); err != nil || !strings.HasPrefix(string(got), "BSD Zero Clause License\n\nCopyright (c) 2031 team\n") {
		t.Errorf("organization's LICENSE: %v %q", err, got)
	}
	admc := srv.Client(forgejo.WithToken(admin))
	if _, _, err := admc.Admin.CreateRepo(ctx, me, forgejo.CreateRepoRequest{Name: "a", AutoInit: true, License: "Nope"}); status(err) != 500 {
		t.Errorf("admin create with an unknown license: %v", err)
	}
}
