package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/iostreams"
	"github.com/spf13/cobra"
)

// Exit codes.
const (
	exitOK        = 0
	exitFailure   = 1
	exitUsage     = 2
	exitAuth      = 4   // authentication missing or refused (401, 403, no stored token)
	exitInterrupt = 130 // 128 + SIGINT, as shells report it
)

// DefaultURL is the instance used when neither --url nor FORGEJO_URL says
// otherwise.
const DefaultURL = "https://codeberg.org"

// globals are the flags every command accepts.
type globals struct {
	url      string
	json     bool
	verbose  bool
	embedded bool
	pace     bool
}

// app is one run of the program: its streams, its environment, its flags
// and, once a command asks for it, its client.
type app struct {
	ctx    context.Context
	stdout io.Writer // outWriter: shown under the display rule, masked
	stderr io.Writer // errWriter: the same
	getenv func(string) string
	mask   *iostreams.Masker
	// outWriter and errWriter are stdout and stderr, for Flush.
	outWriter, errWriter *iostreams.Writer

	g    globals
	repo string // -R/--repo

	// forceProgress draws the progress line even when stderr is not a
	// terminal (tests).
	forceProgress bool
	prog          *progress

	client  *forgejo.Client
	closeFn func()

	stdin     io.Reader // auth login --with-token
	rawStdout io.Writer // as given: auth token's, and api's non-JSON body to a pipe (masked by hand)
	dir       string    // where git is asked for the remotes ("" = the working directory)
	cfg       *config   // loaded once
	// remoteHost is the logged-in instance the repository's git remote is
	// on, when the repository was taken from it (see repoFrom).
	remoteHost string
	// token and tokenUser are the credentials connect chose, for git (repo
	// clone, pr checkout) and for asset downloads on the instance's host.
	token, tokenUser string
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
	out, errw := iostreams.NewWriter(stdout, m), iostreams.NewWriter(stderr, m)
	return &app{
		ctx:       ctx,
		stdout:    out,
		stderr:    errw,
		outWriter: out,
		errWriter: errw,
		rawStdout: stdout,
		stdin:     os.Stdin,
		getenv:    getenv,
		mask:      m,
	}
}

func (a *app) execute(args []string) int {
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
					return &usageError{msg: fmt.Sprintf("no completion script for %q", args[0]),
						hint: "The shells: " + strings.Join(shells, ", ") + ". Run 'forgego completion SHELL --help' for how to load one."}
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
func (a *app) flush() {
	_ = a.outWriter.Flush()
	_ = a.errWriter.Flush()
}

// report prints err, if any, and returns the exit code.
func (a *app) report(cmd *cobra.Command, err error) int {
	code := exitCode(a.ctx, err)
	switch code {
	case exitOK:
	case exitInterrupt:
		fmt.Fprintln(a.stderr, "forgego: interrupted")
	case exitUsage:
		printUsageError(a.stderr, cmd, err)
	default:
		fmt.Fprintf(a.stderr, "forgego: %s\n", describe(err))
	}
	return code
}

// exitCode maps the outcome of a command to the exit status: 130 when the
// command ended because the user interrupted it (the context was canceled
// by the signal, and the failure is that cancellation), 2 for a mistake on
// the command line, 1 for any other failure.
func exitCode(ctx context.Context, err error) int {
	var ue *usageError
	var re *runError
	switch {
	case err == nil:
		return exitOK
	case ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ctx.Err())):
		return exitInterrupt
	case isAuthFailure(err):
		return exitAuth
	case errors.As(err, &re):
		return exitFailure
	case errors.As(err, &ue):
		return exitUsage
	default:
		// Whatever cobra itself rejects (an unknown flag or command, a
		// malformed flag value) is a usage error.
		return exitUsage
	}
}

// isAuthFailure reports whether err is the instance refusing the
// credentials (401, 403), a token source failing, or no token at hand.
func isAuthFailure(err error) bool {
	var ae *forgejo.APIError
	var te *forgejo.AuthError
	var me *authMissingError
	switch {
	case errors.As(err, &me), errors.As(err, &te):
		return true
	case errors.As(err, &ae):
		return ae.StatusCode == 401 || ae.StatusCode == 403
	}
	return false
}

// authMissingError is a command that needs a stored token and finds none.
type authMissingError struct{ msg string }

func (e *authMissingError) Error() string { return e.msg }

// runError marks a failure of a command that ran, as opposed to one cobra
// or the command's checks rejected before anything was sent.
type runError struct{ err error }

func (e *runError) Error() string { return e.err.Error() }
func (e *runError) Unwrap() error { return e.err }

// usageError is a mistake on the command line: exit 2, a short usage and a
// hint.
type usageError struct {
	msg  string
	hint string // replaces the default "Run '... --help'" line when set
}

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// runE adapts a command body: usage errors stay usage errors, anything
// else is a failure of the command.
func runE(fn func(cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		err := fn(cmd, args)
		var ue *usageError
		if err == nil || errors.As(err, &ue) {
			return err
		}
		return &runError{err}
	}
}

// printUsageError prints a usage error in three lines: what was wrong, the
// command's usage line, and where to read more.
func printUsageError(w io.Writer, cmd *cobra.Command, err error) {
	msg := err.Error()
	hint := ""
	var ue *usageError
	if errors.As(err, &ue) {
		hint = ue.hint
	}
	if first, _, ok := strings.Cut(msg, "\n"); ok {
		msg = first // cobra appends suggestions on more lines; we give our own
	}
	fmt.Fprintf(w, "forgego: %s\n", oneLine(msg))
	if cmd == nil {
		return
	}
	fmt.Fprintf(w, "Usage: %s\n", cmd.UseLine())
	if hint == "" {
		hint = fmt.Sprintf("Run '%s --help' for the flags and examples.", cmd.CommandPath())
	}
	fmt.Fprintln(w, hint)
}

// flagError turns pflag's messages into shorter ones.
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	if e := jsonFieldsError(cmd, msg); e != nil {
		return e
	}
	if i := strings.Index(msg, ": strconv."); i >= 0 {
		msg = msg[:i] + ": not a number"
	}
	return &usageError{msg: msg}
}

// groupRun is the body of a command that only holds subcommands ("issue",
// and the root): without a subcommand, or with an unknown one, it is a
// usage error that lists what there is.
func groupRun(cmd *cobra.Command, args []string) error {
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() && c.Name() != "help" && c.Name() != "completion" {
			names = append(names, c.Name())
		}
	}
	if len(args) == 0 {
		if !cmd.HasParent() {
			return &usageError{msg: "no command given", hint: "Run 'forgego --help' for the commands, or try: forgego --embedded issue list forgego/demo -v"}
		}
		return &usageError{msg: fmt.Sprintf("%s needs a command: %s", cmd.CommandPath(), strings.Join(names, ", "))}
	}
	ue := &usageError{msg: fmt.Sprintf("unknown command %q for %s", args[0], cmd.CommandPath())}
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		ue.hint = fmt.Sprintf("Did you mean '%s %s'? Run '%s --help' for the commands.", cmd.CommandPath(), s[0], cmd.CommandPath())
	} else {
		ue.hint = fmt.Sprintf("Commands: %s. Run '%s --help' for more.", strings.Join(names, ", "), cmd.CommandPath())
	}
	return ue
}

func groupCmd(use, short string) *cobra.Command {
	return &cobra.Command{
		Use:                   use + " <command>",
		Short:                 short,
		Args:                  cobra.ArbitraryArgs,
		RunE:                  groupRun,
		DisableFlagsInUseLine: true,
	}
}

// version is the CLI's own version: the module version when installed
// with go install, else the library's.
func version() string {
	v := forgejo.Version
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = strings.TrimPrefix(bi.Main.Version, "v")
	}
	return v
}

const rootLong = `forgego is a command-line client for Forgejo: Codeberg by default, or any
instance named with --url or FORGEJO_URL.

Environment:
  FORGEJO_URL             the instance, as --url (default: the instance of the
                          last 'auth login', else https://codeberg.org)
  FORGEJO_TOKEN           an access token, instead of the stored one; never printed
  XDG_CONFIG_HOME         where forgego/hosts.json is (default ~/.config)
  FORGEJO_WEBHOOK_SECRET  the secret of 'forgego webhook listen', as --secret

` + authPrecedence + `

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
		Version:               version(),
		Args:                  cobra.ArbitraryArgs,
		RunE:                  groupRun,
		SilenceErrors:         true,
		SilenceUsage:          true,
		DisableFlagsInUseLine: true,
	}
	root.SetVersionTemplate(fmt.Sprintf("forgego {{.Version}} (forgejo library %s, %s)\n", forgejo.Version, runtime.Version()))
	root.SetFlagErrorFunc(flagError)
	pf := root.PersistentFlags()
	pf.StringVar(&a.g.url, "url", "", "the instance's `URL` (default $FORGEJO_URL, else the instance of the last 'auth login', else "+DefaultURL+")")
	pf.BoolVar(&a.g.json, "json", false, "print JSON for scripts instead of a table")
	pf.BoolVarP(&a.g.verbose, "verbose", "v", false, "show every request, retry and wait on stderr")
	pf.BoolVar(&a.g.embedded, "embedded", false, "run against an in-process demo server (no network, no token)")
	pf.BoolVar(&a.g.pace, "pace", false, "when the rate-limit budget is spent, wait for the reset instead of sending requests the instance would refuse")

	root.AddGroup(&cobra.Group{ID: "core", Title: "Commands:"}, &cobra.Group{ID: "more", Title: "More commands:"})
	for _, c := range []*cobra.Command{a.issueCmd(), a.prCmd(), a.labelCmd(), a.releaseCmd(), a.repoCmd()} {
		c.GroupID = "core"
		root.AddCommand(c)
	}
	for _, c := range []*cobra.Command{a.apiCmd(), a.authCmd(), a.fakeCmd(), a.rateLimitCmd(), a.versionCmd(), a.webhookCmd()} {
		c.GroupID = "more"
		root.AddCommand(c)
	}
	root.SetHelpCommandGroupID("more")
	root.SetCompletionCommandGroupID("more")
	return root
}

// connect builds the client, once: for the configured instance, or for a
// fresh embedded demo server.
func (a *app) connect() (*forgejo.Client, error) {
	if a.client != nil {
		return a.client, nil
	}
	if a.g.embedded && a.g.url != "" {
		return nil, usagef("--embedded and --url cannot be used together: the embedded demo is its own instance")
	}
	opts := a.clientOptions()
	if a.g.embedded {
		srv, err := startDemo()
		if err != nil {
			return nil, fmt.Errorf("starting the embedded demo server: %w", err)
		}
		a.closeFn = srv.Close
		a.verbosef("embedded demo server on %s (at most %d items a page; faults and a rate limit of %d requests per %s injected)\n",
			srv.URL, demoMaxItems, demoQuota, demoWindow)
		c, err := srv.NewClient(append(opts, forgejo.WithRetryPolicy(forgejo.DefaultRetryPolicy()))...)
		if err != nil {
			return nil, err
		}
		a.token, a.tokenUser = srv.Token(), srv.DefaultUser()
		a.client = c
		return c, nil
	}
	base, token, err := a.instance()
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
func (a *app) clientOptions() []forgejo.ClientOption {
	obs := &cliObserver{prog: a.progress()}
	if a.g.verbose {
		obs.verbose = &verboseObserver{w: a.stderr}
	}
	opts := []forgejo.ClientOption{forgejo.WithUserAgent("forgego-cli/" + version()), forgejo.WithObserver(obs)}
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
func (a *app) instance() (base, token string, err error) {
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
			return "", "", &usageError{msg: msg, hint: "Give the instance's address, such as --url https://codeberg.org or --url http://127.0.0.1:3000."}
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
		base = a.remoteHost
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
func (a *app) verbosef(format string, args ...any) {
	if a.g.verbose {
		fmt.Fprintf(a.stderr, format, args...)
	}
}

// progress returns the run's progress line: drawn on stderr when it is a
// terminal and -v is off (-v tells the story line by line instead).
func (a *app) progress() *progress {
	if a.prog == nil {
		a.prog = newProgress(a.stderr, !a.g.verbose && (a.forceProgress || isTerminal(a.stderr)))
	}
	return a.prog
}

// repoFrom reads OWNER/REPO from -R or, without it, from the first
// positional argument, or, when there are only the n other arguments, from
// the git remote of the current directory (repoFromRemote); it checks that
// n other arguments remain.
func (a *app) repoFrom(cmd *cobra.Command, args []string, n int) (owner, repo string, rest []string, err error) {
	src := a.repo
	if src != "" {
		if len(args) != n {
			if len(args) == n+1 && strings.Contains(args[0], "/") {
				return "", "", nil, usagef("%s: OWNER/REPO given twice, as an argument and with -R", cmd.CommandPath())
			}
			return "", "", nil, usagef("%s takes %s", cmd.CommandPath(), plural(n, "argument")+" besides -R")
		}
	} else {
		if len(args) != n+1 {
			if len(args) == n {
				owner, repo, err := a.repoFromRemote()
				if err != nil {
					return "", "", nil, usagef("%s needs OWNER/REPO: as an argument, with -R, or from the git remote of the current directory (%v)", cmd.CommandPath(), err)
				}
				return owner, repo, args, nil
			}
			return "", "", nil, usagef("%s takes OWNER/REPO and %s, not %d", cmd.CommandPath(), plural(n, "argument"), len(args))
		}
		src, args = args[0], args[1:]
	}
	owner, repo, ok := strings.Cut(src, "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
		return "", "", nil, usagef("%s: %q is not OWNER/REPO", cmd.CommandPath(), src)
	}
	return owner, repo, args, nil
}

func plural(n int, word string) string {
	switch n {
	case 0:
		return "no other " + word + "s"
	case 1:
		return "one " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// addRepoFlag gives cmd -R/--repo.
func (a *app) addRepoFlag(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&a.repo, "repo", "R", "", "the repository as `OWNER/REPO`, instead of the first argument (default: from the git remote)")
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
