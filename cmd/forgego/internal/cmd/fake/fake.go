// Package fake is 'forgego fake serve': forgejotest as a server.
package fake

import (
	"context"
	"fmt"
	"net"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/auth"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/demo"

	"codeberg.org/forgego/forgejo/forgejotest"
	"github.com/spf13/cobra"
)

// NewCmdFake is the 'fake' group.
func NewCmdFake(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.GroupCmd("fake", "Run forgejotest, the fake Forgejo, as a server any program can test against")
	cmd.AddCommand(NewCmdServe(f, nil))
	return cmd
}

const fakeServeLong = `Run forgejotest, the library's stateful in-memory fake Forgejo, as an HTTP
server: a local stand-in for a Forgejo instance that programs in any language
can run their tests against. It keeps what they create (repositories, issues,
pull requests, statuses, releases…) for its lifetime, and forgets it when it
stops.

When it is ready it prints on standard output, one a line:

  FORGEJO_URL=http://127.0.0.1:PORT
  FORGEJO_TOKEN=…        (a site administrator's token)
  FORGEJO_USER=forgego   (that administrator's login)

so that a script can read them, or 'eval' them in a shell. It stops on
SIGTERM or SIGINT (Ctrl-C), exit status 0.

It listens on 127.0.0.1 (a free port unless --addr names one) and refuses an
address that is not a loopback one without --allow-remote: the fake checks
tokens, but nothing else a real instance does to protect itself, and prints
its administrator's token.

--seed demo fills it with the embedded demo's data (forgego/demo: issues,
labels, milestones, pull requests, releases); empty (the default) holds only
the administrator. --rate-limit Q/W answers as Codeberg's edge does past Q
requests a W window (ratelimit headers, then 429 with Retry-After); W is a
duration such as 60s or 1m, or seconds.

--release VERSION answers as that Forgejo release does (11.0, 13.0, 14.0,
15.0 or 16.0; "15", "15.0" or "15.0.3"): a route it lacks answers as its
router does (404 "404 page not found", or an empty 405 where the path is
served for another method), and /version reports it. Without it the fake
serves the newest development spec.

--runner attaches a simulated Forgejo runner: a dispatched workflow's jobs
are picked up at once and run three steps in about five seconds ("Set up
job", "Run NAME" writing three log lines, "Complete job"), their logs
growing as they run, and succeed; a job named with --runner-fail-job NAME
(its name: or its id in the workflow; repeatable) fails in its second step.
--runner-labels L1,L2 makes it take only jobs whose runs-on labels are all
among them; a job no runner takes stays waiting, as on a Forgejo without
runners. Registered webhooks get the action_run_* deliveries when runs end.

Pages are clamped at 50 items, with X-Total-Count and Link, as a default
Forgejo. Operations the fake does not implement answer 501 naming the
operation.`

// ServeOptions are 'fake serve' parsed.
type ServeOptions struct {
	F      *cmdutil.Factory
	Ctx    context.Context
	Addr   string
	Seed   string // demo or empty
	Quota  int    // 0: no rate limit
	Window time.Duration
	// Release is --release: the Forgejo release to answer as, "" for the
	// newest development spec.
	Release string
	// Runner is --runner: attach a simulated runner, which takes the jobs
	// whose runs-on labels are all among RunnerLabels (none: every job)
	// and fails those named in RunnerFail.
	Runner       bool
	RunnerLabels []string
	RunnerFail   []string
}

// NewCmdServe is 'fake serve'; runF, when not nil, runs instead of the
// server.
func NewCmdServe(f *cmdutil.Factory, runF func(*ServeOptions) error) *cobra.Command {
	var (
		addr, seed, rate, release string
		allowRemote, runner       bool
		runnerLabels, runnerFail  []string
	)
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT] [--seed demo|empty] [--rate-limit Q/W] [--release VERSION] [--runner [--runner-labels L,...] [--runner-fail-job NAME]...]",
		Short: "Serve a fake Forgejo on 127.0.0.1 until stopped (SIGTERM or Ctrl-C)",
		Long:  fakeServeLong,
		Example: `  forgego fake serve --addr 127.0.0.1:3000 --seed demo

  # Answer as Forgejo 15 LTS does: 16.0's routes are 404s.
  forgego fake serve --release 15.0.3

  # Workflow runs that move: every job succeeds but the one named test.
  forgego fake serve --runner --runner-fail-job test

  # In a shell script: start it, wait for its variables, use them, stop it.
  forgego fake serve > fake.env & fake=$!
  until grep -q FORGEJO_TOKEN fake.env 2>/dev/null; do sleep 0.1; done
  set -a; . ./fake.env; set +a
  curl -s -H "Authorization: token $FORGEJO_TOKEN" "$FORGEJO_URL/api/v1/user"
  kill $fake`,
		Args: cmdutil.NoArgs,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				return cmdutil.Usagef("--addr %q is not HOST:PORT (such as 127.0.0.1:3000)", addr)
			}
			if !auth.IsLoopback(host) {
				if !allowRemote {
					return &cmdutil.UsageError{Msg: fmt.Sprintf("--addr %s is not a loopback address: the fake would serve its administrator's token to the network", addr),
						Hint: "Use 127.0.0.1:PORT, or --allow-remote if you mean it (a test network you trust)."}
				}
				fmt.Fprintf(f.IOStreams.ErrOut, "warning: serving on %s, beyond this machine: anyone who reaches it is the fake's administrator\n", addr)
			}
			if seed != "demo" && seed != "empty" {
				return cmdutil.Usagef("--seed must be demo or empty, not %q", seed)
			}
			quota, window, err := parseRate(rate)
			if err != nil {
				return err
			}
			if release != "" && !knownRelease(release) {
				return cmdutil.Usagef("--release %q is not a known Forgejo release: %s (or MAJOR, or MAJOR.MINOR.PATCH, such as 15 or 15.0.3)", release, strings.Join(forgejotest.Releases(), ", "))
			}
			if !runner && (len(runnerLabels) > 0 || len(runnerFail) > 0) {
				return cmdutil.Usagef("--runner-labels and --runner-fail-job describe the runner: add --runner")
			}
			for _, l := range runnerLabels {
				if strings.TrimSpace(l) == "" {
					return cmdutil.Usagef("--runner-labels: a label is empty")
				}
			}
			so := &ServeOptions{F: f, Ctx: cmd.Context(), Addr: addr, Seed: seed, Quota: quota, Window: window, Release: release,
				Runner: runner, RunnerLabels: runnerLabels, RunnerFail: runnerFail}
			if runF != nil {
				return runF(so)
			}
			return serveRun(so)
		}),
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:0", "listen on `HOST:PORT` (port 0: a free one)")
	cmd.Flags().StringVar(&seed, "seed", "empty", "the data it starts with: `demo` (the embedded demo's) or empty")
	cmd.Flags().StringVar(&rate, "rate-limit", "", "answer 429 past `Q/W`: Q requests per window W (such as 100/1m)")
	cmd.Flags().StringVar(&release, "release", "", "answer as Forgejo release `VERSION` does (such as 15.0.3; default: the newest development spec)")
	cmd.Flags().BoolVar(&allowRemote, "allow-remote", false, "allow an --addr that is not a loopback address")
	cmd.Flags().BoolVar(&runner, "runner", false, "attach a simulated runner: workflow runs move and their jobs succeed")
	cmd.Flags().StringSliceVar(&runnerLabels, "runner-labels", nil, "the runner takes only jobs whose runs-on `LABELS` are all among these (default: every job)")
	cmd.Flags().StringArrayVar(&runnerFail, "runner-fail-job", nil, "the job `NAME` (its name or its id in the workflow) fails in its second step (repeatable)")
	_ = cmd.RegisterFlagCompletionFunc("release", cobra.FixedCompletions(forgejotest.Releases(), cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("seed", cobra.FixedCompletions([]string{"demo", "empty"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func serveRun(so *ServeOptions) error {
	f, addr, seed, quota, window := so.F, so.Addr, so.Seed, so.Quota, so.Window
	clock := &demo.Clock{}
	opts := []forgejotest.Option{forgejotest.WithListenAddr(addr), forgejotest.WithClock(clock), forgejotest.WithDefaultUser("forgego")}
	if quota > 0 {
		opts = append(opts, forgejotest.WithRateLimit(quota, window))
	}
	if so.Release != "" {
		opts = append(opts, forgejotest.WithRelease(so.Release))
	}
	srv, err := forgejotest.Start(opts...)
	if err != nil {
		return err
	}
	defer srv.Close()
	srv.SetAdmin(srv.DefaultUser(), true)
	if so.Runner {
		srv.AttachRunner(Runner(so.RunnerLabels, so.RunnerFail))
	}
	if seed == "demo" {
		if err := demo.Seed(srv, time.Now(), clock, window); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(so.Ctx, syscall.SIGTERM)
	defer stop()
	if so.Runner {
		// On the real clock the runs move when asked about; this also
		// sends the webhooks of runs that end while nobody asks.
		go func() {
			t := time.NewTicker(100 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					srv.AdvanceRuns()
				}
			}
		}()
	}
	// Unmasked, on purpose: the token is what this prints for.
	f.IOStreams.Flush()
	fmt.Fprintf(f.IOStreams.RawOut, "FORGEJO_URL=%s\nFORGEJO_TOKEN=%s\nFORGEJO_USER=%s\n", srv.URL, srv.Token(), srv.DefaultUser())
	desc := "no rate limit"
	if quota > 0 {
		desc = fmt.Sprintf("at most %d requests per %s", quota, window)
	}
	if so.Release != "" {
		desc += ", as Forgejo " + so.Release
	}
	if so.Runner {
		desc += ", with a simulated runner"
	}
	fmt.Fprintf(f.IOStreams.ErrOut, "forgejotest serving on %s (seed %s, %s); SIGTERM or Ctrl-C stops it\n", srv.URL, seed, desc)
	<-ctx.Done()
	srv.Close()
	fmt.Fprintf(f.IOStreams.ErrOut, "forgejotest stopped (%d requests served)\n", len(srv.Requests()))
	return nil
}

// knownRelease reports whether v is a release forgejotest.WithRelease
// takes: MAJOR, MAJOR.MINOR or MAJOR.MINOR.PATCH of one of its release
// lines.
func knownRelease(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	line := parts[0] + ".0"
	if len(parts) > 1 {
		line = parts[0] + "." + parts[1]
	}
	return slices.Contains(forgejotest.Releases(), line)
}

// parseRate reads --rate-limit Q/W; "" is no limit.
func parseRate(s string) (int, time.Duration, error) {
	if s == "" {
		return 0, 0, nil
	}
	q, w, ok := strings.Cut(s, "/")
	n, err := strconv.Atoi(q)
	if !ok || err != nil || n < 1 {
		return 0, 0, cmdutil.Usagef("--rate-limit %q is not Q/W, such as 100/1m (Q requests per window W)", s)
	}
	d, err := time.ParseDuration(w)
	if secs, e := strconv.Atoi(w); e == nil {
		d, err = time.Duration(secs)*time.Second, nil
	}
	if err != nil || d < time.Second {
		return 0, 0, cmdutil.Usagef("--rate-limit %q: the window must be a duration of at least 1s, such as 60s or 1m", s)
	}
	return n, d, nil
}

// Runner is --runner's simulated runner: it takes the jobs whose runs-on
// labels are all among labels (none: every job); each runs
// forgejotest.DefaultJobScript (three steps, five seconds), and a job whose
// name or workflow id is in fail fails in its second step.
func Runner(labels, fail []string) *forgejotest.Runner {
	return &forgejotest.Runner{Labels: labels, Script: func(j forgejotest.RunnerJob) forgejotest.JobScript {
		sc := forgejotest.DefaultJobScript(j)
		if (slices.Contains(fail, j.Name) || slices.Contains(fail, j.Key)) && len(sc.Steps) > 1 {
			st := &sc.Steps[1]
			st.Fail = true
			st.Lines = append(st.Lines, j.Name+": failed (--runner-fail-job)")
		}
		return sc
	}}
}
