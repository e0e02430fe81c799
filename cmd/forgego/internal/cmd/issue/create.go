package issue

import (
	"context"
	"fmt"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/shared"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// CreateOptions are 'issue create' parsed.
type CreateOptions struct {
	F         *cmdutil.Factory
	Ctx       context.Context
	Repo      cmdutil.Repo
	Title     string
	Body      string
	Labels    []string
	Assignees []string
	JSON      *cmdutil.JSONFlags
}

// NewCmdCreate is 'issue create'.
func NewCmdCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "create [OWNER/REPO] --title TITLE",
		Short: "Create an issue",
		Long: `Create an issue and print its URL (with --json FIELDS, the issue). A failed
create is never repeated: it could have been made already.`,
		Example: `  forgego issue create forgego/demo --title "It broke" --body "Steps: ..."
  forgego issue create -R forgego/demo -t "It broke" --label bug --assignee alice
  forgego issue create -t "It broke"              # the repository of the git remote
  forgego issue create -t "It broke" --json number --jq .number`,
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
			if strings.TrimSpace(opts.Title) == "" {
				return cmdutil.Usagef("issue create needs --title")
			}
			opts.Repo, opts.Ctx = r, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return createRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().StringVarP(&opts.Title, "title", "t", "", "the issue's `TITLE` (required)")
	cmd.Flags().StringVarP(&opts.Body, "body", "b", "", "the issue's `TEXT`, in Markdown")
	cmd.Flags().StringArrayVarP(&opts.Labels, "label", "l", nil, "add this `LABEL` (repeatable)")
	cmd.Flags().StringArrayVarP(&opts.Assignees, "assignee", "a", nil, "assign this `USER` (repeatable)")
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func createRun(opts *CreateOptions) error {
	f, r, ctx := opts.F, opts.Repo, opts.Ctx
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	ids, err := shared.LabelIDs(ctx, f, c, r, opts.Labels)
	if err != nil {
		return err
	}
	is, _, err := c.Issues.Create(ctx, r.Owner, r.Name, forgejo.CreateIssueRequest{Title: opts.Title, Body: opts.Body, Labels: ids, Assignees: opts.Assignees})
	if err != nil {
		return err
	}
	// An instance drops the labels and assignees of an issue opened by
	// someone who cannot write to the repository, silently.
	if (len(ids) > 0 && len(is.Labels) == 0) || (len(opts.Assignees) > 0 && len(is.Assignees) == 0) {
		fmt.Fprintf(f.IOStreams.ErrOut, "warning: the instance did not set the labels or assignees (only those who can write to %s may)\n", r.FullName())
	}
	if opts.JSON.On() {
		return opts.JSON.Write(ctx, f.IOStreams, is)
	}
	fmt.Fprintf(f.IOStreams.Out, "created issue #%d in %s: %s\n", is.Number, r.FullName(), is.HTMLURL)
	return nil
}
