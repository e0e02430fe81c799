package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/demo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/iostreams"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/root"
	"github.com/spf13/cobra"
)

// The streams: a.stdout and a.stderr are iostreams Writers, the one
// place where what the program prints is shown under the display rule and
// masked (internal/iostreams). Nothing else writes to the process's
// standard output and error, except 'auth token' and 'fake serve'
// (IOStreams.RawOut), whose job is to print a token, and 'api' writing a
// body to a pipe (masked by hand).

// globals are the flags every command accepts.
type globals struct {
	root.Flags
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

	stdin     io.Reader     // auth login --with-token
	rawStdout io.Writer     // as given: auth token's, and api's non-JSON body to a pipe (masked by hand)
	dir       string        // where git is asked for the remotes ("" = the working directory)
	clock     forgejo.Clock // the client's clock when set (tests: a fake clock drives run watch)

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
		Embedded:    func() bool { return a.g.Embedded },
		URLFlag:     func() string { return a.g.URL },
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
	rc := a.rootCmd()
	rc.SetArgs(args)
	rc.SetOut(a.stdout)
	rc.SetErr(a.stderr)
	// completion with no shell, or one cobra has no script for (tcsh), is
	// a usage error, not its help with exit 0. (Made here, after SetOut:
	// cobra's completion commands keep the writer they are made with.)
	rc.InitDefaultCompletionCmd()
	for _, c := range rc.Commands() {
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
	cmd, err := rc.ExecuteContextC(a.ctx)
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
		if !errors.Is(err, cmdutil.ErrSilent) {
			fmt.Fprintf(a.stderr, "forgego: %s\n", cmdutil.Describe(err))
		}
	}
	return code
}

func (a *app) rootCmd() *cobra.Command {
	return root.NewCmdRoot(a.f, &a.g.Flags)
}

// clientFor is the factory's Client: the client, built once, for the
// configured instance (host, when not "", is the logged-in instance of the
// repository's git remote), or for a fresh embedded demo server.
func (a *app) clientFor(host string) (*forgejo.Client, error) {
	if a.client != nil {
		return a.client, nil
	}
	if a.g.Embedded && a.g.URL != "" {
		return nil, usagef("--embedded and --url cannot be used together: the embedded demo is its own instance")
	}
	opts := a.clientOptions()
	if a.g.Embedded {
		srv, err := demo.Start()
		if err != nil {
			return nil, fmt.Errorf("starting the embedded demo server: %w", err)
		}
		a.closeFn = srv.Close
		a.verbosef("embedded demo server on %s (at most %d items a page; faults and a rate limit of %d requests per %s injected)\n",
			srv.URL, demo.MaxItems, demo.Quota, demo.Window)
		c, err := srv.NewClient(append(opts, forgejo.WithRetryPolicy(forgejo.DefaultRetryPolicy()))...)
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
func (a *app) clientOptions() []forgejo.ClientOption {
	opts := []forgejo.ClientOption{forgejo.WithUserAgent("forgego-cli/" + cmdutil.Version()), forgejo.WithHooks(progressHooks(a.progress()))}
	if a.clock != nil {
		opts = append(opts, forgejo.WithClock(a.clock))
	}
	if a.f.IOStreams.Verbose {
		opts = append(opts, forgejo.WithHooks(verboseHooks(a.stderr)))
	}
	if a.g.Pace {
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
	base = a.g.URL
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
		base = root.DefaultURL
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
		a.prog = newProgress(a.stderr, !a.f.IOStreams.Verbose && (a.f.IOStreams.ForceProgress || iostreams.IsTerminal(a.stderr)))
	}
	return a.prog
}
