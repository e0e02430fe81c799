package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// DefaultURL is the instance used when neither --url nor FORGEJO_URL says
// otherwise.
const DefaultURL = "https://codeberg.org"

const usageText = `forgego: a command-line client for Forgejo (Codeberg by default)

Usage:
  forgego [flags] version
  forgego [flags] repo view OWNER/REPO
  forgego [flags] issue list OWNER/REPO [--state open|closed|all] [--limit N | --all]
  forgego [flags] issue create OWNER/REPO --title TITLE [--body BODY]
  forgego [flags] api [--paginate] [-X METHOD] PATH [-f key=value]... [-F key=value]...
  forgego [flags] ratelimit

Flags (anywhere on the line):
  --url URL     the instance (default $FORGEJO_URL, else https://codeberg.org)
  --json        print JSON for scripts instead of a table
  -v            show every request, retry and wait on stderr
  --embedded    run against an in-process demo server (no network, no token)
  --pace        when the instance says the rate-limit budget is spent, wait for
                the reset instead of sending requests it would refuse with 429

Environment:
  FORGEJO_URL     the instance, as --url
  FORGEJO_TOKEN   an access token; it is never printed

Try: forgego --embedded issue list forgego/demo --all -v
`

// usageError is a mistake on the command line: exit 2 with the usage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// globals are the flags every command accepts.
type globals struct {
	url      string
	json     bool
	verbose  bool
	embedded bool
	pace     bool
}

func (g *globals) register(fs *flag.FlagSet) {
	fs.StringVar(&g.url, "url", "", "instance URL")
	fs.BoolVar(&g.json, "json", false, "print JSON")
	fs.BoolVar(&g.verbose, "v", false, "verbose")
	fs.BoolVar(&g.embedded, "embedded", false, "use the embedded demo server")
	fs.BoolVar(&g.pace, "pace", false, "wait for the rate-limit reset instead of spending requests")
}

// env is what a command runs with.
type env struct {
	ctx    context.Context
	g      globals
	stdout io.Writer
	stderr io.Writer
	client *forgejo.Client
	// progress reports a long walk's progress on stderr, when it is a
	// terminal; nil otherwise.
	progress func(format string, args ...any)
	// endProgress clears the progress line.
	endProgress func()
}

// command is one subcommand: its flags and what it does with the
// positional arguments.
type command struct {
	words []string // "issue", "list"
	flags func(fs *flag.FlagSet) func(e *env, args []string) error
}

func commands() []command {
	return []command{
		{[]string{"version"}, versionCmd},
		{[]string{"repo", "view"}, repoViewCmd},
		{[]string{"issue", "list"}, issueListCmd},
		{[]string{"issue", "create"}, issueCreateCmd},
		{[]string{"api"}, apiCmd},
		{[]string{"ratelimit"}, rateLimitCmd},
	}
}

// valueFlags are the flags that take a value, so that the command words
// can be found among flags written before them.
var valueFlags = map[string]bool{"url": true, "state": true, "limit": true, "title": true, "body": true, "X": true, "f": true, "F": true}

// run is the whole program, testable: arguments, output streams and the
// environment in, exit code out.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	token := strings.TrimSpace(getenv("FORGEJO_TOKEN"))
	// Last line of defence: whatever is printed, the token is not.
	stdout, stderr = masked(stdout, token), masked(stderr, token)

	words, rest := splitWords(args)
	if hasHelp(args) || (len(words) > 0 && words[0] == "help") {
		fmt.Fprint(stdout, usageText)
		return exitOK
	}
	if len(words) == 0 {
		return usage(stderr, "no command given")
	}
	var cmd *command
	for i, c := range commands() {
		if len(words) >= len(c.words) && slices.Equal(words[:len(c.words)], c.words) {
			cmd = &commands()[i]
			rest = append(words[len(c.words):], rest...)
			break
		}
	}
	if cmd == nil {
		return usage(stderr, "unknown command %q", strings.Join(words, " "))
	}

	fs := flag.NewFlagSet("forgego "+strings.Join(cmd.words, " "), flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var g globals
	g.register(fs)
	do := cmd.flags(fs)
	positional, err := parseInterleaved(fs, rest)
	if err != nil {
		return usage(stderr, "%v", err)
	}

	e := &env{ctx: ctx, g: g, stdout: stdout, stderr: stderr}
	e.progress, e.endProgress = progressFor(stderr)
	if g.json || g.verbose { // -v already tells the walk line by line
		e.progress, e.endProgress = nil, func() {}
	}
	closeFn, err := e.connect(getenv, token)
	if err != nil {
		return fail(stderr, err)
	}
	defer closeFn()

	if err := do(e, positional); err != nil {
		var ue *usageError
		if errors.As(err, &ue) {
			return usage(stderr, "%s", ue.msg)
		}
		return fail(stderr, err)
	}
	return exitOK
}

// connect builds the client: for the configured instance, or for a fresh
// embedded demo server.
func (e *env) connect(getenv func(string) string, token string) (func(), error) {
	opts := []forgejo.Option{forgejo.WithUserAgent("forgego-cli/" + forgejo.Version)}
	if e.g.verbose {
		opts = append(opts, forgejo.WithObserver(&verboseObserver{w: e.stderr}))
	}
	if e.g.pace {
		opts = append(opts, forgejo.WithRateLimitPacing(forgejo.Pacing{MaxWait: time.Minute}))
	}
	if e.g.embedded {
		srv, err := startDemo()
		if err != nil {
			return nil, fmt.Errorf("starting the embedded demo server: %w", err)
		}
		if e.g.verbose {
			fmt.Fprintf(e.stderr, "embedded demo server on %s (faults and a rate limit of %d requests per %s injected)\n",
				srv.URL, demoQuota, demoWindow)
		}
		c, err := srv.NewClient(append(opts, forgejo.WithRetryPolicy(forgejo.DefaultRetryPolicy))...)
		if err != nil {
			srv.Close()
			return nil, err
		}
		e.client = c
		return srv.Close, nil
	}
	base := e.g.url
	if base == "" {
		base = getenv("FORGEJO_URL")
	}
	if base == "" {
		base = DefaultURL
	}
	opts = append(opts, forgejo.WithBaseURL(base))
	if token != "" {
		opts = append(opts, forgejo.WithToken(token))
	}
	c, err := forgejo.NewClient(opts...)
	if err != nil {
		return nil, err
	}
	e.client = c
	return func() {}, nil
}

// splitWords separates the command words ("issue list") from the rest,
// skipping flags and their values wherever they are.
func splitWords(args []string) (words, rest []string) {
	need := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return words, append(rest, args[i:]...)
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			rest = append(rest, a)
			if name := strings.TrimLeft(a, "-"); !strings.Contains(name, "=") && valueFlags[name] && i+1 < len(args) {
				i++
				rest = append(rest, args[i])
			}
			continue
		}
		if len(words) == 0 || len(words) < need {
			words = append(words, a)
			if len(words) == 1 {
				need = 1
				if takesSubcommand(a) {
					need = 2
				}
			}
			continue
		}
		rest = append(rest, a)
	}
	return words, rest
}

func takesSubcommand(w string) bool { return w == "repo" || w == "issue" }

func hasHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "-help" || a == "--help" {
			return true
		}
	}
	return false
}

// parseInterleaved parses flags wherever they appear among the positional
// arguments ("issue list o/r --state closed"), as people type them. After
// "--" everything is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

func usage(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "forgego: %s\n\n%s", oneLine(fmt.Sprintf(format, args...)), usageText)
	return exitUsage
}

// fail prints err as one readable line.
func fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "forgego: %s\n", oneLine(err.Error()))
	return exitFailure
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// masked wraps w so that the token never reaches it.
func masked(w io.Writer, token string) io.Writer {
	if len(token) < 4 {
		return w
	}
	return &maskWriter{w: w, token: []byte(token)}
}

type maskWriter struct {
	w     io.Writer
	token []byte
}

func (m *maskWriter) Write(p []byte) (int, error) {
	if !strings.Contains(string(p), string(m.token)) {
		return m.w.Write(p)
	}
	_, err := m.w.Write([]byte(strings.ReplaceAll(string(p), string(m.token), "***")))
	return len(p), err
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	if mw, ok := w.(*maskWriter); ok {
		w = mw.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressFor returns a progress reporter drawing one line on stderr when
// it is a terminal, and no-ops otherwise.
func progressFor(stderr io.Writer) (func(string, ...any), func()) {
	if !isTerminal(stderr) {
		return nil, func() {}
	}
	drawn := false
	return func(format string, args ...any) {
			fmt.Fprintf(stderr, "\r\033[K"+format, args...)
			drawn = true
		}, func() {
			if drawn {
				fmt.Fprint(stderr, "\r\033[K")
			}
		}
}
