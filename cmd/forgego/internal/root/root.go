// Package root is forgego's root command: its global flags and the
// command groups, on the factory.
package root

import (
	"fmt"
	"runtime"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/api"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/auth"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/fake"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/issue"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/label"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/misc"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/pr"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/release"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/repo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/run"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/secret"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/variable"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/webhook"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/workflow"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// DefaultURL is the instance used when neither --url nor FORGEJO_URL says
// otherwise.
const DefaultURL = "https://codeberg.org"

// Flags are the flags every command accepts (-v is f.IOStreams.Verbose).
type Flags struct {
	URL      string
	Embedded bool
	Pace     bool
}

const rootLong = `forgego is a command-line client for Forgejo: Codeberg by default, or any
instance named with --url or FORGEJO_URL.

Environment:
  FORGEJO_URL             the instance, as --url (default: the instance of the
                          last 'auth login', else https://codeberg.org)
  FORGEJO_TOKEN           an access token, instead of the stored one; never printed
  XDG_CONFIG_HOME         where forgego/hosts.json is (default ~/.config)
  FORGEJO_WEBHOOK_SECRET  the secret of 'forgego webhook listen', as --secret

` + auth.Precedence + `

Exit status: 0 success, 1 failure, 2 a mistake on the command line,
4 authentication missing or refused (401, 403, no stored token), 130 interrupted.`

// NewCmdRoot is the root command: the groups, and more (the groups still
// in package main) among the "More commands".
func NewCmdRoot(f *cmdutil.Factory, g *Flags, more ...*cobra.Command) *cobra.Command {
	root := &cobra.Command{
		Use:   "forgego <command>",
		Short: "A command-line client for Forgejo (Codeberg by default)",
		Long:  rootLong,
		Example: `  # The embedded demo: no network, no token
  forgego --embedded issue list forgego/demo --all -v

  forgego repo view forgejo/forgejo
  forgego issue list -R forgejo/forgejo --state closed --limit 10
  forgego api --paginate /repos/forgejo/forgejo/labels`,
		Version:               cmdutil.Version(),
		Args:                  cobra.ArbitraryArgs,
		RunE:                  cmdutil.GroupRun,
		SilenceErrors:         true,
		SilenceUsage:          true,
		DisableFlagsInUseLine: true,
	}
	root.SetVersionTemplate(fmt.Sprintf("forgego {{.Version}} (forgejo library %s, %s)\n", forgejo.Version, runtime.Version()))
	root.SetFlagErrorFunc(cmdutil.FlagError)
	pf := root.PersistentFlags()
	pf.StringVar(&g.URL, "url", "", "the instance's `URL` (default $FORGEJO_URL, else the instance of the last 'auth login', else "+DefaultURL+")")
	pf.BoolVarP(&f.IOStreams.Verbose, "verbose", "v", false, "show every request, retry and wait on stderr")
	pf.BoolVar(&g.Embedded, "embedded", false, "run against an in-process demo server (no network, no token)")
	pf.BoolVar(&g.Pace, "pace", false, "when the rate-limit budget is spent, wait for the reset instead of sending requests the instance would refuse")

	root.AddGroup(&cobra.Group{ID: "core", Title: "Commands:"}, &cobra.Group{ID: "actions", Title: "Forgejo Actions commands:"}, &cobra.Group{ID: "more", Title: "More commands:"})
	for _, c := range []*cobra.Command{issue.NewCmdIssue(f), pr.NewCmdPR(f), label.NewCmdLabel(f), release.NewCmdRelease(f), repo.NewCmdRepo(f)} {
		c.GroupID = "core"
		root.AddCommand(c)
	}
	for _, c := range []*cobra.Command{run.NewCmdRun(f), workflow.NewCmdWorkflow(f), secret.NewCmdSecret(f), variable.NewCmdVariable(f)} {
		c.GroupID = "actions"
		root.AddCommand(c)
	}
	for _, c := range append([]*cobra.Command{api.NewCmdAPI(f, nil), auth.NewCmdAuth(f), fake.NewCmdFake(f), misc.NewCmdRateLimit(f, nil), misc.NewCmdVersion(f, nil), webhook.NewCmdWebhook(f)}, more...) {
		c.GroupID = "more"
		root.AddCommand(c)
	}
	root.SetHelpCommandGroupID("more")
	root.SetCompletionCommandGroupID("more")
	return root
}
