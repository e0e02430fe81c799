package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/shared"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// ViewOptions are 'run view' parsed.
type ViewOptions struct {
	F          *cmdutil.Factory
	Ctx        context.Context
	Repo       cmdutil.Repo
	RunID      int64
	JobID      int64 // 0 = every job
	Log        bool
	LogFailed  bool
	ExitStatus bool
	JSON       *cmdutil.JSONFlags
}

// NewCmdView is 'run view'.
func NewCmdView(f *cmdutil.Factory, runF func(*ViewOptions) error) *cobra.Command {
	opts := &ViewOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "view [OWNER/REPO] RUN [--log | --log-failed] [--job ID] [--exit-status]",
		Short: "Show a workflow run: its status, its jobs, their logs",
		Long: `Show the workflow run RUN (its id, as 'forgego run list' shows it) and its
jobs. --log prints the log of every job (--job: of that job), each line
after the job's name and a tab; --log-failed only those of the jobs that
failed. --exit-status exits 1 when the run failed or was cancelled.

The jobs and their logs are served by Forgejo 16 and later: on an older
release, run view shows the run without its jobs, and --log fails with
one line naming the release that serves it.`,
		Example: `  forgego run view 42
  forgego run view 42 --log-failed
  forgego run view 42 --exit-status && echo green
  forgego run view 42 --json status,jobs --jq '.jobs[] | "\(.name) \(.status)"'`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			if opts.Log && opts.LogFailed {
				return cmdutil.Usagef("--log and --log-failed cannot be used together")
			}
			if (opts.Log || opts.LogFailed) && opts.JSON.On() {
				return cmdutil.Usagef("--log and --json cannot be used together")
			}
			if opts.JobID < 0 {
				return cmdutil.Usagef("--job takes a job id such as 12")
			}
			r, id, err := runArgs(cmd, f, repoFlag, args)
			if err != nil {
				return err
			}
			opts.Repo, opts.RunID, opts.Ctx = r, id, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return viewRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().Int64VarP(&opts.JobID, "job", "j", 0, "only the job with this `ID`")
	cmd.Flags().BoolVar(&opts.Log, "log", false, "print the jobs' logs")
	cmd.Flags().BoolVar(&opts.LogFailed, "log-failed", false, "print the logs of the jobs that failed")
	cmd.Flags().BoolVar(&opts.ExitStatus, "exit-status", false, "exit 1 when the run failed or was cancelled")
	opts.JSON = cmdutil.AddJSONFlags(cmd, viewFields)
	return cmd
}

func viewRun(opts *ViewOptions) error {
	f, repo, ctx := opts.F, opts.Repo, opts.Ctx
	c, err := f.ClientFor(repo)
	if err != nil {
		return err
	}
	run, _, err := c.Actions.GetRun(ctx, repo.Owner, repo.Name, opts.RunID)
	if err != nil {
		return err
	}
	jobs, _, jobsErr := c.Actions.ListRunJobs(ctx, repo.Owner, repo.Name, run.ID)
	wantJobs := opts.Log || opts.LogFailed || opts.JobID != 0
	if jobsErr != nil && (wantJobs || !errors.Is(jobsErr, forgejo.ErrUnsupportedOperation)) {
		return jobsErr
	}
	if opts.JobID != 0 {
		jobs = pickJob(jobs, opts.JobID)
		if jobs == nil {
			return fmt.Errorf("run %d has no job %d", run.ID, opts.JobID)
		}
	}
	switch {
	case opts.Log || opts.LogFailed:
		if err := printLogs(ctx, f, c, repo, jobs, opts.LogFailed); err != nil {
			return err
		}
	case opts.JSON.On():
		if err := opts.JSON.Write(ctx, f.IOStreams, &runDoc{ActionRun: run, Jobs: jobs}); err != nil {
			return err
		}
	default:
		if err := printRun(f, repo, run, jobs, jobsErr); err != nil {
			return err
		}
	}
	if opts.ExitStatus && failed(run.Outcome()) {
		return cmdutil.ErrSilent
	}
	return nil
}

func pickJob(jobs []*forgejo.ActionRunJob, id int64) []*forgejo.ActionRunJob {
	for _, j := range jobs {
		if j != nil && j.ID == id {
			return []*forgejo.ActionRunJob{j}
		}
	}
	return nil
}

// printRun is the view for people.
func printRun(f *cmdutil.Factory, repo cmdutil.Repo, run *forgejo.ActionRun, jobs []*forgejo.ActionRunJob, jobsErr error) error {
	out := f.IOStreams.Out
	fmt.Fprintf(out, "%s\n\n", runTitle(run))
	rows := [][]string{
		{"  run", fmt.Sprintf("%d (#%d in %s)", run.ID, run.IndexInRepo, repo.FullName())},
		{"  status", string(run.Outcome())},
		{"  workflow", run.WorkflowID},
		{"  event", run.EventName()},
		{"  ref", ref(run)},
		{"  commit", run.CommitSHA},
		{"  triggered by", shared.UserLogin(run.TriggerUser)},
		{"  created", cmdutil.Day(run.Created)},
		{"  elapsed", elapsed(run.Duration)},
		{"  url", run.HTMLURL},
	}
	if err := cmdutil.Table(f.IOStreams, rows); err != nil {
		return err
	}
	if jobsErr != nil {
		fmt.Fprintf(f.IOStreams.ErrOut, "no jobs shown: %s\n", cmdutil.Describe(jobsErr))
		return nil
	}
	fmt.Fprintln(out, "\nJOBS")
	if len(jobs) == 0 {
		fmt.Fprintln(out, "  none")
		return nil
	}
	table := [][]string{{"  ID", "NAME", "STATUS", "ATTEMPT", "RUNS ON"}}
	for _, j := range jobs {
		if j == nil {
			continue
		}
		table = append(table, []string{"  " + strconv.FormatInt(j.ID, 10), j.Name, string(j.Outcome()), strconv.FormatInt(j.Attempt, 10), strings.Join(j.RunsOn, ",")})
	}
	return cmdutil.Table(f.IOStreams, table)
}

// printLogs prints the jobs' logs (failedOnly: of the failed ones), each
// line after the job's name and a tab. A job that has not started has no
// log yet: it is said on stderr.
func printLogs(ctx context.Context, f *cmdutil.Factory, c *forgejo.Client, repo cmdutil.Repo, jobs []*forgejo.ActionRunJob, failedOnly bool) error {
	shown := 0
	for _, j := range jobs {
		if j == nil || (failedOnly && j.Outcome() != forgejo.ActionStatusFailure) {
			continue
		}
		shown++
		if j.TaskID == 0 && !j.Status.Done() {
			fmt.Fprintf(f.IOStreams.ErrOut, "%s (job %d) has not started: no log yet\n", j.Name, j.ID)
			continue
		}
		body, _, err := c.Actions.OpenJobLogs(ctx, repo.Owner, repo.Name, j.ID, nil)
		if err != nil {
			return err
		}
		pw := &prefixWriter{w: f.IOStreams.Out, prefix: cmdutil.OneLine(j.Name) + "\t"}
		_, err = io.Copy(pw, body)
		body.Close()
		pw.end()
		if err != nil {
			return fmt.Errorf("the log of %s (job %d): %w", j.Name, j.ID, err)
		}
	}
	if failedOnly && shown == 0 {
		fmt.Fprintln(f.IOStreams.ErrOut, "no job failed")
	}
	return nil
}
