package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/fake"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/demo"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/auth"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/repo"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/label"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/misc"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/api"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/pr"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/release"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/issue"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/iostreams"
	"github.com/spf13/cobra"
)

// DefaultURL is the instance used when neither --url nor FORGEJO_URL says
// otherwise.
const DefaultURL = "https://codeberg.org"

// globals are the flags every command accepts.
type globals struct {
	url      string
	json     bool
	embedded bool
	pace     bool
}

// app is one run of the program: its environment, its flags and the
// implementation of its Factory (f), whose functions build the client, read
// the configuration and the git remote when a command first asks. The
// commands of the groups still in package main reach them through the app's
// methods; the moved groups only through f.
type app struct {
	ctx    context.Context
	f      *cmdutil.Factory
	stdout io.Writer // f.IOStreams.Out: shown under the display rule, masked
	stderr io.Writer // f.IOStreams.ErrOut: the same
	getenv func(string) string
	mask   *iostreams.Masker

	g globals

	// forceProgress draws the progress line even when stderr is not a
	// terminal (tests).
	forceProgress bool
	prog          *progress

	stdin     io.Reader // auth login --with-token
	rawStdout io.Writer // as given: auth token's, and api's non-JSON body to a pipe (masked by hand)
	dir       string    // where git is asked for the remotes ("" = the working directory)

	// The factory's caches: built once, read only through f.
	client           *forgejo.Client
	closeFn          func()
	cfg              *config // loaded once
	token, tokenUser string  // the credentials the client was built with
}

// run is the whole program, testable: arguments, output streams and the
// environment in, exit code out.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	a := newApp(ctx, stdout, stderr, getenv)
	return a.execute(args)
}

func newApp(ctx context.Context, stdout, stderr io.Writer, getenv func(string) string) *app {
	m := iostreams.NewMasker()
	m.Add(strings.TrimSpace(getenv("FORGEJO_TOKEN")))
	ios := iostreams.New(os.Stdin, stdout, stderr, m)
	a := &app{
		ctx:       ctx,
		stdout:    ios.Out,
		stderr:    ios.ErrOut,
		rawStdout: stdout,
		stdin:     os.Stdin,
		getenv:    getenv,
		mask:      m,
	}
	a.f = &cmdutil.Factory{
		IOStreams: ios,
		Client:    a.clientFor,
		Instance: func() (string, error) {
			base, _, err := a.instance("")
			return base, err
		},
		NewClient: func(base, token string) (*forgejo.Client, error) {
			return forgejo.NewClient(append(a.clientOptions(), forgejo.WithBaseURL(base), forgejo.WithToken(token))...)
		},
		Embedded:    func() bool { return a.g.embedded },
		URLFlag:     func() string { return a.g.url },
		Getenv:      getenv,
		Config:      a.loadConfig,
		SaveConfig:  a.saveConfig,
		Remote:      a.remote,
		Credentials: func() (string, string) { return a.token, a.tokenUser },
		Git:         func() cmdutil.Git { return gitRunner{a} },
		Progress:    func() cmdutil.Progress { return a.progress() },
	}
	return a
}

func (a *app) execute(args []string) int {
	// What tests set on the app after newApp.
	a.f.IOStreams.In = a.stdin
	a.f.IOStreams.ForceProgress = a.forceProgress
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	// completion with no shell, or one cobra has no script for (tcsh), is
	// a usage error, not its help with exit 0. (Made here, after SetOut:
	// cobra's completion commands keep the writer they are made with.)
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
					var shells []string
					for _, s := range cmd.Commands() {
						if s.IsAvailableCommand() {
							shells = append(shells, s.Name())
						}
					}
					return &usageError{Msg: fmt.Sprintf("no completion script for %q", args[0]),
						Hint: "The shells: " + strings.Join(shells, ", ") + ". Run 'forgego completion SHELL --help' for how to load one."}
				}
				return groupRun(cmd, args)
			}
		}
	}
	cmd, err := root.ExecuteContextC(a.ctx)
	if a.prog != nil {
		a.prog.done()
	}
	if a.closeFn != nil {
		a.closeFn()
	}
	code := a.report(cmd, err)
	a.flush()
	return code
}

// flush writes what the output streams hold (a last line without its
// newline).
func (a *app) flush() { a.f.IOStreams.Flush() }

// report prints err, if any, and returns the exit code.
func (a *app) report(cmd *cobra.Command, err error) int {
	code := cmdutil.ExitCode(a.ctx, err)
	switch code {
	case cmdutil.ExitOK:
	case cmdutil.ExitInterrupt:
		fmt.Fprintln(a.stderr, "forgego: interrupted")
	case cmdutil.ExitUsage:
		cmdutil.PrintUsageError(a.stderr, cmd, err)
	default:
		fmt.Fprintf(a.stderr, "forgego: %s\n", cmdutil.Describe(err))
	}
	return code
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

func (a *app) rootCmd() *cobra.Command {
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
		RunE:                  groupRun,
		SilenceErrors:         true,
		SilenceUsage:          true,
		DisableFlagsInUseLine: true,
	}
	root.SetVersionTemplate(fmt.Sprintf("forgego {{.Version}} (forgejo library %s, %s)\n", forgejo.Version, runtime.Version()))
	root.SetFlagErrorFunc(cmdutil.FlagError)
	pf := root.PersistentFlags()
	pf.StringVar(&a.g.url, "url", "", "the instance's `URL` (default $FORGEJO_URL, else the instance of the last 'auth login', else "+DefaultURL+")")
	pf.BoolVarP(&a.f.IOStreams.Verbose, "verbose", "v", false, "show every request, retry and wait on stderr")
	pf.BoolVar(&a.g.embedded, "embedded", false, "run against an in-process demo server (no network, no token)")
	pf.BoolVar(&a.g.pace, "pace", false, "when the rate-limit budget is spent, wait for the reset instead of sending requests the instance would refuse")

	root.AddGroup(&cobra.Group{ID: "core", Title: "Commands:"}, &cobra.Group{ID: "more", Title: "More commands:"})
	for _, c := range []*cobra.Command{issue.NewCmdIssue(a.f), pr.NewCmdPR(a.f), label.NewCmdLabel(a.f), release.NewCmdRelease(a.f), repo.NewCmdRepo(a.f)} {
		c.GroupID = "core"
		root.AddCommand(c)
	}
	for _, c := range []*cobra.Command{api.NewCmdAPI(a.f, nil), auth.NewCmdAuth(a.f), fake.NewCmdFake(a.f), misc.NewCmdRateLimit(a.f, nil), misc.NewCmdVersion(a.f, nil), a.webhookCmdWithJSON()} {
		c.GroupID = "more"
		root.AddCommand(c)
	}
	root.SetHelpCommandGroupID("more")
	root.SetCompletionCommandGroupID("more")
	return root
}

// clientFor is the factory's Client: the client, built once, for the
// configured instance (host, when not "", is the logged-in instance of the
// repository's git remote), or for a fresh embedded demo server.
func (a *app) clientFor(host string) (*forgejo.Client, error) {
	if a.client != nil {
		return a.client, nil
	}
	if a.g.embedded && a.g.url != "" {
		return nil, usagef("--embedded and --url cannot be used together: the embedded demo is its own instance")
	}
	opts := a.clientOptions()
	if a.g.embedded {
		srv, err := demo.Start()
		if err != nil {
			return nil, fmt.Errorf("starting the embedded demo server: %w", err)
		}
		a.closeFn = srv.Close
		a.verbosef("embedded demo server on %s (at most %d items a page; faults and a rate limit of %d requests per %s injected)\n",
			srv.URL, demo.MaxItems, demo.Quota, demo.Window)
		c, err := srv.NewClient(append(opts, forgejo.WithRetryPolicy(forgejo.DefaultRetryPolicy))...)
		if err != nil {
			return nil, err
		}
		a.token, a.tokenUser = srv.Token(), srv.DefaultUser()
		a.client = c
		return c, nil
	}
	base, token, err := a.instance(host)
	if err != nil {
		return nil, err
	}
	opts = append(opts, forgejo.WithBaseURL(base))
	if token != "" {
		a.mask.Add(token)
		opts = append(opts, forgejo.WithToken(token))
		a.token = token
	}
	c, err := forgejo.NewClient(opts...)
	if err != nil {
		return nil, err
	}
	a.client = c
	return c, nil
}

// clientOptions are the options of every client the CLI builds.
func (a *app) clientOptions() []forgejo.Option {
	obs := &cliObserver{prog: a.progress()}
	if a.f.IOStreams.Verbose {
		obs.verbose = &verboseObserver{w: a.stderr}
	}
	opts := []forgejo.Option{forgejo.WithUserAgent("forgego-cli/" + cmdutil.Version()), forgejo.WithObserver(obs)}
	if a.g.pace {
		opts = append(opts, forgejo.WithRateLimitPacing(forgejo.Pacing{MaxWait: time.Minute}))
	}
	return opts
}

// instance picks the instance and the token, in this order of precedence:
//
//	instance: --url, then FORGEJO_URL, then the logged-in instance the
//	          repository's git remote points at, then the default of the
//	          configuration (the last 'auth login'), then https://codeberg.org
//	token:    FORGEJO_TOKEN, then the token stored for that instance
func (a *app) instance(remoteHost string) (base, token string, err error) {
	base = a.g.url
	source := "--url"
	if base == "" {
		base, source = a.getenv("FORGEJO_URL"), "FORGEJO_URL"
	}
	if base != "" {
		// Said in the user's terms, before the library's "invalid baseURL".
		key, err := normalizeHost(base)
		if err != nil {
			shown := fmt.Sprintf(" %q", base)
			if strings.Contains(base, "@") {
				shown = "" // may carry a password: never repeated
			}
			msg := fmt.Sprintf("%s%s is not an instance's URL: %v", source, shown, err)
			if source == "FORGEJO_URL" {
				// The environment's mistake, not the command line's: a
				// failure in one line.
				return "", "", errors.New(msg + " (such as https://codeberg.org)")
			}
			return "", "", &usageError{Msg: msg, Hint: "Give the instance's address, such as --url https://codeberg.org or --url http://127.0.0.1:3000."}
		}
		base = key
	}
	token = strings.TrimSpace(a.getenv("FORGEJO_TOKEN"))
	if base != "" && token != "" {
		return base, token, nil // the configuration is not read at all
	}
	cfg, err := a.loadConfig()
	if err != nil {
		return "", "", err
	}
	if base == "" {
		base = remoteHost
	}
	if base == "" {
		base = cfg.Default
	}
	if base == "" {
		base = DefaultURL
	}
	if token == "" {
		if key, err := normalizeHost(base); err == nil {
			if hc := cfg.Hosts[key]; hc != nil {
				token, a.tokenUser = hc.Token, hc.User
			}
		}
	}
	return base, token, nil
}

// verbosef prints a line for -v.
func (a *app) verbosef(format string, args ...any) { a.f.IOStreams.Verbosef(format, args...) }

// progress returns the run's progress line: drawn on stderr when it is a
// terminal and -v is off (-v tells the story line by line instead).
func (a *app) progress() *progress {
	if a.prog == nil {
		a.prog = newProgress(a.stderr, !a.f.IOStreams.Verbose && (a.f.IOStreams.ForceProgress || isTerminal(a.stderr)))
	}
	return a.prog
}

// webhookCmdWithJSON is the webhook group with its --json: a switch, not
// the field list of the commands that print data, since webhook commands
// print a stream of deliveries, one JSON object a line.
func (a *app) webhookCmdWithJSON() *cobra.Command {
	cmd := a.webhookCmd()
	cmd.PersistentFlags().BoolVar(&a.g.json, "json", false, "print each delivery or dead letter as a line of JSON")
	return cmd
}
