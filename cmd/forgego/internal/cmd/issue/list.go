package issue

import (
	"context"
	"strconv"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/shared"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// ListOptions are 'issue list' parsed.
type ListOptions struct {
	F    *cmdutil.Factory
	Ctx  context.Context
	Repo cmdutil.Repo

	State    string
	Labels   []string
	Assignee string
	Author   string
	Search   string
	List     cmdutil.ListFlags
	JSON     *cmdutil.JSONFlags
}

// NewCmdList is 'issue list'; runF, when not nil, runs instead of the
// listing (tests of the flags).
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "list [OWNER/REPO]",
		Short: "List a repository's issues, newest first",
		Long: `List a repository's issues (pull requests are not counted), newest first,
as a table or, with --json FIELDS, as a JSON array. Without --all at most
--limit are fetched; the total, when the instance sends it, is printed on
stderr. Without OWNER/REPO or -R, the repository is the git remote's.`,
		Example: `  forgego issue list forgejo/forgejo
  forgego issue list -R forgejo/forgejo --state closed --limit 5
  forgego issue list --label bug --label ui --assignee alice --search crash
  forgego issue list forgejo/forgejo --all --json number,title --jq '.[].title'
  forgego --embedded issue list forgego/demo --all -v`,
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
			if err := cmdutil.CheckState(opts.State); err != nil {
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
	cmdutil.AddStateFlag(cmd, &opts.State, "issues")
	cmdutil.AddListFlags(cmd, &opts.List, "issues")
	cmd.Flags().StringArrayVarP(&opts.Labels, "label", "l", nil, "only the issues with this `LABEL` (repeat for all of several)")
	cmd.Flags().StringVarP(&opts.Assignee, "assignee", "a", "", "only the issues assigned to this `USER`")
	cmd.Flags().StringVarP(&opts.Author, "author", "A", "", "only the issues opened by this `USER`")
	cmd.Flags().StringVarP(&opts.Search, "search", "S", "", "only the issues that match this `QUERY` (title and body)")
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func listRun(opts *ListOptions) error {
	f, r := opts.F, opts.Repo
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	lo := forgejo.IssueListOptions{State: forgejo.StateType(opts.State), Type: forgejo.IssueTypeIssues,
		Labels: opts.Labels, AssignedBy: opts.Assignee, CreatedBy: opts.Author, Query: opts.Search}
	got, err := cmdutil.Collect(opts.Ctx, f, "issues", opts.List, func(ctx context.Context, page forgejo.ListOptions) ([]*forgejo.Issue, *forgejo.Response, error) {
		o := lo
		o.ListOptions = page
		return c.Issues.List(ctx, r.Owner, r.Name, &o)
	})
	if err != nil {
		return err
	}
	if opts.JSON.On() {
		return opts.JSON.Write(opts.Ctx, f.IOStreams, got.Items)
	}
	if len(got.Items) > 0 {
		rows := [][]string{{"NUMBER", "STATE", "TITLE", "LABELS", "UPDATED"}}
		for _, is := range got.Items {
			rows = append(rows, []string{"#" + strconv.FormatInt(is.Number, 10), string(is.State), cmdutil.Truncate(is.Title, 60),
				strings.Join(shared.LabelNames(is.Labels), ", "), cmdutil.Day(is.UpdatedAt)})
		}
		if err := cmdutil.Table(f.IOStreams, rows); err != nil {
			return err
		}
	}
	cmdutil.Summary(f, len(got.Items), got.Total, cmdutil.StateWhat(opts.State, "issues"), r.FullName())
	return nil
}
