package run

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/iostreams"
	"github.com/spf13/cobra"
)

// WatchOptions are 'run watch' parsed.
type WatchOptions struct {
	F          *cmdutil.Factory
	Ctx        context.Context
	Repo       cmdutil.Repo
	RunID      int64
	ExitStatus bool
	Interval   time.Duration
}

// NewCmdWatch is 'run watch'.
func NewCmdWatch(f *cmdutil.Factory, runF func(*WatchOptions) error) *cobra.Command {
	opts := &WatchOptions{F: f}
	var repoFlag string
	var seconds int
	cmd := &cobra.Command{
		Use:   "watch [OWNER/REPO] RUN [--exit-status] [--interval SECONDS]",
		Short: "Watch a workflow run until it ends",
		Long: `Watch the workflow run RUN until it ends, asking the instance every
--interval seconds (sooner after a change is not possible: Forgejo does
not push). On a terminal the run and its jobs are shown in place, redrawn
as they change; on a pipe a line is printed for each change ("run 42:
running", "job 7 build: success"). --exit-status exits 1 when the run
failed or was cancelled.

Forgejo's API has no steps: the jobs are what is shown, and they are served
by Forgejo 16 and later; on an older release only the run's status is.`,
		Example: `  forgego run watch 42
  forgego run watch 42 --exit-status --interval 10 && ./deploy.sh`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if seconds < 1 {
				return cmdutil.Usagef("--interval must be at least 1 second, not %d", seconds)
			}
			r, id, err := runArgs(cmd, f, repoFlag, args)
			if err != nil {
				return err
			}
			opts.Repo, opts.RunID, opts.Ctx, opts.Interval = r, id, cmd.Context(), time.Duration(seconds)*time.Second
			if runF != nil {
				return runF(opts)
			}
			return watchRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().BoolVar(&opts.ExitStatus, "exit-status", false, "exit 1 when the run failed or was cancelled")
	cmd.Flags().IntVarP(&seconds, "interval", "i", 3, "ask for the run's state every `SECONDS`")
	return cmd
}

func watchRun(opts *WatchOptions) error {
	f, repo, ctx := opts.F, opts.Repo, opts.Ctx
	c, err := f.ClientFor(repo)
	if err != nil {
		return err
	}
	var show watchDisplay = &lineDisplay{w: f.IOStreams.Out, jobs: map[int64]string{}}
	if f.IOStreams.IsStdoutTTY() {
		show = &liveDisplay{w: f.IOStreams.Out, repo: repo}
	}
	run, err := c.Actions.WaitRun(ctx, repo.Owner, repo.Name, opts.RunID, &forgejo.WaitRunOptions{
		Interval:    opts.Interval,
		MaxInterval: opts.Interval,
		OnUpdate:    func(run *forgejo.ActionRun, jobs []*forgejo.ActionRunJob) { show.update(run, jobs) },
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(f.IOStreams.ErrOut, "run %d ended: %s (%s)\n", run.ID, run.Outcome(), elapsed(run.Duration))
	if opts.ExitStatus && failed(run.Outcome()) {
		return cmdutil.ErrSilent
	}
	return nil
}

// watchDisplay shows a run as it changes.
type watchDisplay interface {
	update(run *forgejo.ActionRun, jobs []*forgejo.ActionRunJob)
}

// lineDisplay prints a line per change: for a pipe, a log, a CI's output.
type lineDisplay struct {
	w         *iostreams.Writer
	runStatus forgejo.ActionStatus
	jobs      map[int64]string // id → "name status" last printed
}

func (d *lineDisplay) update(run *forgejo.ActionRun, jobs []*forgejo.ActionRunJob) {
	if run == nil {
		return
	}
	if run.Outcome() != d.runStatus {
		d.runStatus = run.Outcome()
		fmt.Fprintf(d.w, "run %d: %s\n", run.ID, run.Outcome())
	}
	for _, j := range jobs {
		if j == nil {
			continue
		}
		now := cmdutil.OneLine(j.Name) + ": " + string(j.Outcome())
		if d.jobs[j.ID] != now {
			d.jobs[j.ID] = now
			fmt.Fprintf(d.w, "job %d %s\n", j.ID, now)
		}
	}
}

// liveDisplay redraws the run and its jobs in place on a terminal: the
// cursor goes back up over the block last drawn, which is erased and drawn
// anew. The escape sequences are the program's own, written with
// WriteControl; the names the server sent are shown under the display rule.
type liveDisplay struct {
	w     *iostreams.Writer
	repo  cmdutil.Repo
	drawn int // lines of the block on the screen
}

func (d *liveDisplay) update(run *forgejo.ActionRun, jobs []*forgejo.ActionRunJob) {
	if run == nil {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s · run %d in %s\n", cmdutil.OneLine(runTitle(run)), run.ID, d.repo.FullName())
	fmt.Fprintf(&b, "  %-10s %s\n", run.Outcome(), elapsed(run.Duration))
	for _, j := range jobs {
		if j != nil {
			fmt.Fprintf(&b, "  %-10s %s (job %s)\n", j.Outcome(), cmdutil.OneLine(j.Name), strconv.FormatInt(j.ID, 10))
		}
	}
	seq := ""
	if d.drawn > 0 {
		seq = fmt.Sprintf("\x1b[%dA\r\x1b[J", d.drawn)
	}
	_ = d.w.WriteControl(seq, b.String())
	d.drawn = strings.Count(b.String(), "\n")
}
