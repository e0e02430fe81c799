// Package pr is 'forgego pr': list, view, create, merge, close, reopen,
// comment, diff and checkout.
package pr

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/issue"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/shared"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// Fields are the --json fields of the commands that print pull requests:
// the CLI's contract, written out (cmdutil.Field).
var Fields = cmdutil.Fields(&forgejo.PullRequest{},
	"additions", "allow_maintainer_edit", "assignee", "assignees", "base", "body",
	"changed_files", "closed_at", "comments", "created_at", "deletions", "diff_url", "draft",
	"due_date", "flow", "head", "html_url", "id", "is_locked", "labels", "merge_base",
	"merge_commit_sha", "mergeable", "merged", "merged_at", "merged_by", "milestone", "number",
	"patch_url", "pin_order", "requested_reviewers", "requested_reviewers_teams",
	"review_comments", "state", "title", "updated_at", "url", "user",
)

// NewCmdPR is the 'pr' group.
func NewCmdPR(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.GroupCmd("pr", "List, view, open, merge, close and comment on pull requests")
	cmd.AddCommand(NewCmdList(f, nil), NewCmdView(f, nil), NewCmdCreate(f, nil), NewCmdMerge(f, nil),
		NewCmdState(f, nil, "close"), NewCmdState(f, nil, "reopen"),
		issue.NewCmdComment(f, nil, "pr", "pull request", "Comment on a pull request", `  forgego pr comment 7 --body "Looks good"`),
		NewCmdDiff(f, nil), NewCmdCheckout(f, nil))
	return cmd
}

// state is open, closed or merged: a merged pull request is also closed,
// and merged is what people want to know.
func state(pr *forgejo.PullRequest) string {
	if pr.Merged {
		return "merged"
	}
	return string(pr.State)
}

func branchName(b *forgejo.PRBranchInfo) string {
	if b == nil {
		return ""
	}
	return b.Ref
}

// ListOptions are 'pr list' parsed.
type ListOptions struct {
	F     *cmdutil.Factory
	Ctx   context.Context
	Repo  cmdutil.Repo
	State string // open, closed, merged or all
	List  cmdutil.ListFlags
	JSON  *cmdutil.JSONFlags
}

// NewCmdList is 'pr list'.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "list [OWNER/REPO]",
		Short: "List a repository's pull requests",
		Example: `  forgego pr list forgejo/forgejo
  forgego pr list -R forgejo/forgejo --state all --limit 10 --json number,title,head`,
		Aliases:           []string{"ls"},
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			r, _, err := f.BaseRepo(cmd, repoFlag, args, 0)
			if err != nil {
				return err
			}
			if err := opts.List.Check(); err != nil {
				return err
			}
			if opts.State != "merged" {
				if err := cmdutil.CheckState(opts.State); err != nil {
					return cmdutil.Usagef("--state must be open, closed, merged or all, not %q", opts.State)
				}
			}
			opts.Repo, opts.Ctx = r, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().StringVarP(&opts.State, "state", "s", "open", "list the pull requests in this `STATE`: open, closed, merged or all")
	_ = cmd.RegisterFlagCompletionFunc("state", cobra.FixedCompletions([]string{"open", "closed", "merged", "all"}, cobra.ShellCompDirectiveNoFileComp))
	cmdutil.AddListFlags(cmd, &opts.List, "pull requests")
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func listRun(opts *ListOptions) error {
	f, r := opts.F, opts.Repo
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	// merged is closed and merged: the instance has no such state, so the
	// closed ones are walked and the merged ones kept.
	ask := opts.State
	var more []cmdutil.CollectOption[*forgejo.PullRequest]
	if opts.State == "merged" {
		ask = "closed"
		more = append(more, cmdutil.Where(func(pr *forgejo.PullRequest) bool { return pr.Merged }))
	}
	got, err := cmdutil.Collect(opts.Ctx, f, "pull requests", opts.List, func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.PullRequest, *forgejo.Response, error) {
		return c.PullRequests.List(ctx, r.Owner, r.Name, &forgejo.PullRequestListOptions{ListOptions: lo, State: forgejo.StateType(ask)})
	}, more...)
	if err != nil {
		return err
	}
	if opts.JSON.On() {
		return opts.JSON.Write(opts.Ctx, f.IOStreams, got.Items)
	}
	if len(got.Items) > 0 {
		rows := [][]string{{"NUMBER", "STATE", "TITLE", "BRANCH", "AUTHOR", "UPDATED"}}
		for _, pr := range got.Items {
			st := state(pr)
			if pr.Draft {
				st += " (draft)"
			}
			rows = append(rows, []string{"#" + strconv.FormatInt(pr.Number, 10), st, cmdutil.Truncate(pr.Title, 60),
				branchName(pr.Head) + " → " + branchName(pr.Base), shared.UserLogin(pr.User), cmdutil.Day(pr.UpdatedAt)})
		}
		if err := cmdutil.Table(f.IOStreams, rows); err != nil {
			return err
		}
	}
	cmdutil.Summary(f, len(got.Items), got.Total, cmdutil.StateWhat(opts.State, "pull requests"), r.FullName())
	return nil
}

// ViewOptions are 'pr view' parsed.
type ViewOptions struct {
	F      *cmdutil.Factory
	Ctx    context.Context
	Repo   cmdutil.Repo
	Number int64
	JSON   *cmdutil.JSONFlags
}

// NewCmdView is 'pr view'.
func NewCmdView(f *cmdutil.Factory, runF func(*ViewOptions) error) *cobra.Command {
	opts := &ViewOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "view [OWNER/REPO] NUMBER",
		Short: "Show a pull request: state, branches, labels, description",
		Example: `  forgego pr view forgejo/forgejo 1234
  forgego pr view 1234 -R forgejo/forgejo --json title,state,head --jq .head`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			r, n, err := f.RepoNumber(cmd, repoFlag, args)
			if err != nil {
				return err
			}
			opts.Repo, opts.Number, opts.Ctx = r, n, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return viewRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func viewRun(opts *ViewOptions) error {
	f, r := opts.F, opts.Repo
	out := f.IOStreams.Out
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	pr, _, err := c.PullRequests.Get(opts.Ctx, r.Owner, r.Name, opts.Number)
	if err != nil {
		return err
	}
	if opts.JSON.On() {
		return opts.JSON.Write(opts.Ctx, f.IOStreams, pr)
	}
	st := state(pr)
	if pr.Draft {
		st += ", draft"
	}
	fmt.Fprintf(out, "%s #%d\n%s\n\n", pr.Title, pr.Number, st)
	rows := [][]string{
		{"  author", shared.UserLogin(pr.User)},
		{"  branch", branchName(pr.Head) + " → " + branchName(pr.Base)},
		{"  labels", strings.Join(shared.LabelNames(pr.Labels), ", ")},
		{"  changes", fmt.Sprintf("+%d −%d in %d files", pr.Additions, pr.Deletions, pr.ChangedFiles)},
		{"  comments", strconv.FormatInt(pr.Comments, 10)},
		{"  created", cmdutil.Day(pr.CreatedAt)},
		{"  updated", cmdutil.Day(pr.UpdatedAt)},
	}
	if pr.Merged {
		rows = append(rows, []string{"  merged", cmdutil.Day(pr.MergedAt) + " by " + shared.UserLogin(pr.MergedBy)})
	}
	rows = append(rows, []string{"  url", pr.HTMLURL})
	if err := cmdutil.Table(f.IOStreams, rows); err != nil {
		return err
	}
	if body := strings.TrimSpace(pr.Body); body != "" {
		fmt.Fprintf(out, "\n%s\n", body)
	}
	return nil
}
