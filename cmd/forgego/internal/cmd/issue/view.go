package issue

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/shared"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// ViewOptions are 'issue view' parsed.
type ViewOptions struct {
	F        *cmdutil.Factory
	Ctx      context.Context
	Repo     cmdutil.Repo
	Number   int64
	Comments bool
	JSON     *cmdutil.JSONFlags
}

// NewCmdView is 'issue view'.
func NewCmdView(f *cmdutil.Factory, runF func(*ViewOptions) error) *cobra.Command {
	opts := &ViewOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "view [OWNER/REPO] NUMBER",
		Short: "Show an issue: state, labels, assignees, description (and comments)",
		Example: `  forgego issue view forgejo/forgejo 1234
  forgego issue view 12 --comments            # the repository of the git remote
  forgego issue view 12 -R forgego/demo --json title,state,labels --jq .labels`,
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
	cmd.Flags().BoolVarP(&opts.Comments, "comments", "c", false, "show the comments too")
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func viewRun(opts *ViewOptions) error {
	f, r, n, ctx := opts.F, opts.Repo, opts.Number, opts.Ctx
	out, errOut := f.IOStreams.Out, f.IOStreams.ErrOut
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	is, _, err := c.Issues.Get(ctx, r.Owner, r.Name, n)
	if err != nil {
		return err
	}
	if opts.JSON.On() {
		return opts.JSON.Write(ctx, f.IOStreams, is)
	}
	var cs []*forgejo.Comment
	if opts.Comments && is.Comments > 0 {
		if cs, _, err = c.Issues.ListComments(ctx, r.Owner, r.Name, n, nil); err != nil {
			return err
		}
	}
	kind := "issue"
	if is.PullRequest != nil {
		kind = "pull request"
	}
	fmt.Fprintf(out, "%s #%d\n%s %s, opened by %s on %s\n\n", cmdutil.OneLine(is.Title), is.Number, is.State, kind, shared.UserLogin(is.User), cmdutil.Day(is.CreatedAt))
	milestone := ""
	if is.Milestone != nil {
		milestone = is.Milestone.Title
	}
	var assignees []string
	for _, u := range is.Assignees {
		if u != nil {
			assignees = append(assignees, u.Login)
		}
	}
	rows := [][]string{
		{"  labels", strings.Join(shared.LabelNames(is.Labels), ", ")},
		{"  assignees", strings.Join(assignees, ", ")},
		{"  milestone", milestone},
		{"  comments", strconv.FormatInt(is.Comments, 10)},
		{"  updated", cmdutil.Day(is.UpdatedAt)},
	}
	if !is.ClosedAt.IsZero() {
		rows = append(rows, []string{"  closed", cmdutil.Day(is.ClosedAt)})
	}
	rows = append(rows, []string{"  url", is.HTMLURL})
	if err := cmdutil.Table(f.IOStreams, rows); err != nil {
		return err
	}
	if body := strings.TrimSpace(is.Body); body != "" {
		fmt.Fprintf(out, "\n%s\n", body)
	}
	for _, cm := range cs {
		fmt.Fprintf(out, "\n— %s commented on %s:\n%s\n", shared.UserLogin(cm.User), cmdutil.Day(cm.CreatedAt), strings.TrimSpace(cm.Body))
	}
	if !opts.Comments && is.Comments > 0 {
		fmt.Fprintf(errOut, "%s; --comments shows them\n", cmdutil.Plural(int(is.Comments), "comment"))
	}
	return nil
}
