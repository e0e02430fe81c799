package run

import (
	"context"
	"slices"
	"strconv"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// ListOptions are 'run list' parsed.
type ListOptions struct {
	F        *cmdutil.Factory
	Ctx      context.Context
	Repo     cmdutil.Repo
	List     cmdutil.ListFlags
	JSON     *cmdutil.JSONFlags
	Workflow string // the workflow's file name, such as ci.yml
	Branch   string
	Status   string
	Event    string
}

// NewCmdList is 'run list'.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "list [OWNER/REPO] [--workflow FILE] [--branch B] [--status S] [--event E]",
		Short: "List a repository's workflow runs, newest first",
		Long: `List the workflow runs of a repository, newest first. --workflow takes the
workflow's file name (ci.yml), as Forgejo names workflows; --branch and
--workflow need Forgejo 15 or later (an older server ignores them).`,
		Example: `  forgego run list -R forgejo/forgejo
  forgego run list --workflow ci.yml --status failure -L 5
  forgego run list --json id,status,workflow_id --jq '.[] | select(.status == "failure") | .id'`,
		Aliases:           []string{"ls"},
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			if opts.Status != "" && !slices.Contains(Statuses, opts.Status) {
				return cmdutil.Usagef("--status must be one of %s, not %q", strings.Join(Statuses, ", "), opts.Status)
			}
			r, _, err := f.BaseRepo(cmd, repoFlag, args, 0)
			if err != nil {
				return err
			}
			if err := opts.List.Check(); err != nil {
				return err
			}
			opts.Repo, opts.Ctx = r, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmdutil.AddListFlags(cmd, &opts.List, "runs")
	cmd.Flags().StringVarP(&opts.Workflow, "workflow", "w", "", "only the runs of this workflow `FILE` (ci.yml)")
	cmd.Flags().StringVarP(&opts.Branch, "branch", "b", "", "only the runs on this `BRANCH`")
	cmd.Flags().StringVarP(&opts.Status, "status", "s", "", "only the runs in this `STATUS`: "+strings.Join(Statuses, ", "))
	cmd.Flags().StringVarP(&opts.Event, "event", "e", "", "only the runs started by this `EVENT` (push, pull_request, workflow_dispatch…)")
	_ = cmd.RegisterFlagCompletionFunc("status", cobra.FixedCompletions(Statuses, cobra.ShellCompDirectiveNoFileComp))
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func listRun(opts *ListOptions) error {
	f, repo := opts.F, opts.Repo
	c, err := f.ClientFor(repo)
	if err != nil {
		return err
	}
	params := forgejo.ActionListRunsOptions{WorkflowID: opts.Workflow}
	if opts.Branch != "" {
		params.Ref = "refs/heads/" + opts.Branch
	}
	if opts.Status != "" {
		params.Status = []forgejo.ActionStatus{forgejo.ActionStatus(opts.Status)}
	}
	if opts.Event != "" {
		params.Event = []string{opts.Event}
	}
	total := -1
	got, err := cmdutil.Collect(opts.Ctx, f, "runs", opts.List, func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.ActionRun, *forgejo.Response, error) {
		p := params
		p.ListOptions = lo
		v, resp, err := c.Actions.ListRuns(ctx, repo.Owner, repo.Name, &p)
		if v == nil || err != nil {
			return nil, resp, err
		}
		total = int(v.TotalCount)
		return v.WorkflowRuns, resp, nil
	})
	if err != nil {
		return err
	}
	if opts.JSON.On() {
		return opts.JSON.Write(opts.Ctx, f.IOStreams, got.Items)
	}
	if len(got.Items) > 0 {
		rows := [][]string{{"STATUS", "TITLE", "WORKFLOW", "BRANCH", "EVENT", "ID", "ELAPSED", "CREATED"}}
		for _, r := range got.Items {
			rows = append(rows, []string{string(r.Outcome()), cmdutil.Truncate(r.Title, 40), r.WorkflowID, ref(r), r.EventName(),
				strconv.FormatInt(r.ID, 10), elapsed(r.Duration), cmdutil.Day(r.Created)})
		}
		if err := cmdutil.Table(f.IOStreams, rows); err != nil {
			return err
		}
	}
	if got.Total >= 0 {
		total = got.Total
	}
	cmdutil.Summary(f, len(got.Items), total, "runs", repo.FullName())
	return nil
}
