package forgejotest_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
	"codeberg.org/forgego/forgejo/webhook"
)

// setUpProject is the program under test: it creates a repository in an
// organization, a file, a release, a team with access to the repository,
// and a hook that tells a bot about pushes.
func setUpProject(ctx context.Context, c *forgejo.Client, org, botURL string) error {
	if _, _, err := c.Orgs.Create(ctx, forgejo.CreateOrgRequest{Username: org}); err != nil {
		return err
	}
	if _, _, err := c.Repos.CreateInOrg(ctx, org, forgejo.CreateRepoRequest{Name: "app", AutoInit: true}); err != nil {
		return err
	}
	if _, _, err := c.Repos.CreateHook(ctx, org, "app", forgejo.CreateHookRequest{
		Type: forgejo.HookTypeForgejo, Active: true, Events: []string{"push", "release"},
		Config: forgejo.HookConfig{"url": botURL, "content_type": "json", "secret": "s3cret"},
	}); err != nil {
		return err
	}
	content := base64.StdEncoding.EncodeToString([]byte("# App\n"))
	if _, _, err := c.Repos.CreateFile(ctx, org, "app", "docs/index.md", forgejo.CreateFileRequest{Content: content, Message: "Add docs"}); err != nil {
		return err
	}
	if _, _, err := c.Repos.CreateRelease(ctx, org, "app", forgejo.CreateReleaseRequest{TagName: "v1.0.0", Name: "First"}); err != nil {
		return err
	}
	team, _, err := c.Orgs.CreateTeam(ctx, org, forgejo.CreateTeamRequest{Name: "devs", Permission: "write", Units: []string{"repo.code"}})
	if err != nil {
		return err
	}
	_, err = c.Orgs.AddTeamRepo(ctx, team.ID, org, "app")
	return err
}

// Example_program tests a whole program in-process: the fake keeps the
// state, answers as Forgejo does, and delivers signed webhooks to the bot.
func Example_program() {
	srv, _ := forgejotest.Start()
	defer srv.Close()
	ctx := context.Background()

	// The bot: verifies each delivery with the hook's secret.
	p, _ := webhook.NewParser(webhook.WithSecret("s3cret"))
	r := webhook.NewRouter()
	h, _ := webhook.NewHandler(p, r)
	var got []string
	r.HandleDefault(func(_ context.Context, e webhook.Event) error {
		got = append(got, string(e.EventType()))
		return nil
	})
	bot := httptest.NewServer(h)
	defer bot.Close()

	if err := setUpProject(ctx, srv.Client(), "acme", bot.URL); err != nil {
		fmt.Println(err)
		return
	}
	_ = srv.WaitDeliveries(ctx) // deliveries are asynchronous; wait for them

	raw, _, _ := srv.Client().Repos.GetRawFile(ctx, "acme", "app", "docs/index.md", nil)
	latest, _, _ := srv.Client().Repos.GetLatestRelease(ctx, "acme", "app")
	fmt.Printf("file %q, latest release %s\n", raw, latest.TagName)
	fmt.Println("bot received:", got)
	fmt.Println("teams created:", srv.Count("orgCreateTeam"), "deliveries ok:", srv.Deliveries()[0].Status == http.StatusOK)
	// Output:
	// file "# App\n", latest release v1.0.0
	// bot received: [push push release]
	// teams created: 1 deliveries ok: true
}
