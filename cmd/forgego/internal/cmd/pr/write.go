package pr

import (
	"context"
	"fmt"
	"io"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/shared"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// CreateOptions are 'pr create' parsed.
type CreateOptions struct {
	F         *cmdutil.Factory
	Ctx       context.Context
	Repo      cmdutil.Repo
	Head      string
	Base      string // "" = the default branch
	Title     string
	Body      string
	Labels    []string
	Assignees []string
	JSON      *cmdutil.JSONFlags
}

// NewCmdCreate is 'pr create'.
func NewCmdCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "create [OWNER/REPO] --head BRANCH --title TITLE",
		Short: "Open a pull request",
		Long: `Open a pull request from --head into --base (default: the repository's
default branch) and print its URL (with --json FIELDS, the pull request). A
head in a fork is OWNER:BRANCH. A failed create is never repeated: it could
have been made already.`,
		Example: `  forgego pr create --head fix-crash --title "Fix the crash" --body "Closes #12"
  forgego pr create -R forgego/demo --head bob:feature --base main -t "Feature"`,
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
			if strings.TrimSpace(opts.Head) == "" {
				return cmdutil.Usagef("pr create needs --head BRANCH")
			}
			if strings.TrimSpace(opts.Title) == "" {
				return cmdutil.Usagef("pr create needs --title")
			}
			opts.Repo, opts.Ctx = r, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return createRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().StringVarP(&opts.Head, "head", "H", "", "the `BRANCH` with the changes (OWNER:BRANCH for a fork; required)")
	cmd.Flags().StringVarP(&opts.Base, "base", "B", "", "the `BRANCH` to merge into (default: the repository's default branch)")
	cmd.Flags().StringVarP(&opts.Title, "title", "t", "", "the pull request's `TITLE` (required)")
	cmd.Flags().StringVarP(&opts.Body, "body", "b", "", "the description, `TEXT` in Markdown")
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
	base := opts.Base
	if base == "" {
		repo, _, err := c.Repos.Get(ctx, r.Owner, r.Name)
		if err != nil {
			return err
		}
		base = repo.DefaultBranch
	}
	ids, err := shared.LabelIDs(ctx, f, c, r, opts.Labels)
	if err != nil {
		return err
	}
	pr, _, err := c.PullRequests.Create(ctx, r.Owner, r.Name, forgejo.CreatePullRequestRequest{
		Head: opts.Head, Base: base, Title: opts.Title, Body: opts.Body, Labels: ids, Assignees: opts.Assignees,
	})
	if err != nil {
		return err
	}
	if opts.JSON.On() {
		return opts.JSON.Write(ctx, f.IOStreams, pr)
	}
	fmt.Fprintf(f.IOStreams.Out, "created pull request #%d in %s (%s → %s): %s\n", pr.Number, r.FullName(), opts.Head, base, pr.HTMLURL)
	return nil
}

// MergeOptions are 'pr merge' parsed.
type MergeOptions struct {
	F            *cmdutil.Factory
	Ctx          context.Context
	Repo         cmdutil.Repo
	Number       int64
	Style        forgejo.MergeStyle
	Subject      string
	Body         string
	DeleteBranch bool
}

// NewCmdMerge is 'pr merge'.
func NewCmdMerge(f *cmdutil.Factory, runF func(*MergeOptions) error) *cobra.Command {
	opts := &MergeOptions{F: f}
	var (
		repoFlag              string
		merge, squash, rebase bool
	)
	cmd := &cobra.Command{
		Use:   "merge [OWNER/REPO] NUMBER --merge|--squash|--rebase",
		Short: "Merge a pull request",
		Example: `  forgego pr merge 7 --squash --delete-branch
  forgego pr merge forgego/demo 7 --merge --subject "Merge the feature"`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			r, n, err := f.RepoNumber(cmd, repoFlag, args)
			if err != nil {
				return err
			}
			count := 0
			for _, m := range []struct {
				on    bool
				style forgejo.MergeStyle
			}{{merge, forgejo.MergeStyleMerge}, {squash, forgejo.MergeStyleSquash}, {rebase, forgejo.MergeStyleRebase}} {
				if m.on {
					count++
					opts.Style = m.style
				}
			}
			if count != 1 {
				return cmdutil.Usagef("pr merge needs exactly one of --merge, --squash and --rebase")
			}
			opts.Repo, opts.Number, opts.Ctx = r, n, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			c, err := f.ClientFor(r)
			if err != nil {
				return err
			}
			_, err = c.PullRequests.Merge(opts.Ctx, r.Owner, r.Name, n, forgejo.MergePullRequestRequest{
				Style: opts.Style, Title: opts.Subject, Message: opts.Body, DeleteBranchAfterMerge: opts.DeleteBranch,
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(f.IOStreams.Out, "merged pull request #%d in %s (%s)\n", n, r.FullName(), opts.Style)
			return nil
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().BoolVarP(&merge, "merge", "m", false, "merge with a merge commit")
	cmd.Flags().BoolVarP(&squash, "squash", "s", false, "squash the commits into one")
	cmd.Flags().BoolVarP(&rebase, "rebase", "r", false, "rebase the commits onto the base branch")
	cmd.Flags().BoolVarP(&opts.DeleteBranch, "delete-branch", "d", false, "delete the head branch after the merge")
	cmd.Flags().StringVarP(&opts.Subject, "subject", "t", "", "the merge commit's `TITLE`")
	cmd.Flags().StringVarP(&opts.Body, "body", "b", "", "the merge commit's message, `TEXT`")
	return cmd
}

// StateOptions are 'pr close' and 'pr reopen' parsed.
type StateOptions struct {
	F      *cmdutil.Factory
	Ctx    context.Context
	Repo   cmdutil.Repo
	Number int64
	State  forgejo.StateType
	JSON   *cmdutil.JSONFlags
}

// NewCmdState is 'pr close' (verb "close") or 'pr reopen'.
func NewCmdState(f *cmdutil.Factory, runF func(*StateOptions) error, verb string) *cobra.Command {
	opts := &StateOptions{F: f, State: forgejo.StateOpen}
	if verb == "close" {
		opts.State = forgejo.StateClosed
	}
	var repoFlag string
	cmd := &cobra.Command{
		Use:               verb + " [OWNER/REPO] NUMBER",
		Short:             strings.ToUpper(verb[:1]) + verb[1:] + " a pull request",
		Example:           fmt.Sprintf("  forgego pr %s 7\n  forgego pr %s forgego/demo 7", verb, verb),
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
			c, err := f.ClientFor(r)
			if err != nil {
				return err
			}
			st := opts.State
			pr, _, err := c.PullRequests.Edit(opts.Ctx, r.Owner, r.Name, n, forgejo.EditPullRequestRequest{State: &st})
			if err != nil {
				return err
			}
			if opts.JSON.On() {
				return opts.JSON.Write(opts.Ctx, f.IOStreams, pr)
			}
			past := map[string]string{"close": "closed", "reopen": "reopened"}[verb]
			fmt.Fprintf(f.IOStreams.Out, "%s pull request #%d in %s: %s\n", past, pr.Number, r.FullName(), pr.HTMLURL)
			return nil
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

// DiffOptions are 'pr diff' parsed.
type DiffOptions struct {
	F      *cmdutil.Factory
	Ctx    context.Context
	Repo   cmdutil.Repo
	Number int64
	Patch  bool
}

// NewCmdDiff is 'pr diff'.
func NewCmdDiff(f *cmdutil.Factory, runF func(*DiffOptions) error) *cobra.Command {
	opts := &DiffOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "diff [OWNER/REPO] NUMBER",
		Short: "Print a pull request's diff (or, with --patch, its patch series)",
		Example: `  forgego pr diff 7
  forgego pr diff forgego/demo 7 --patch > 7.patch`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			r, n, err := f.RepoNumber(cmd, repoFlag, args)
			if err != nil {
				return err
			}
			opts.Repo, opts.Number, opts.Ctx = r, n, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			c, err := f.ClientFor(r)
			if err != nil {
				return err
			}
			kind := forgejo.DiffTypeDiff
			if opts.Patch {
				kind = forgejo.DiffTypePatch
			}
			rc, _, err := c.PullRequests.OpenDiff(opts.Ctx, r.Owner, r.Name, n, kind, nil)
			if err != nil {
				return err
			}
			defer rc.Close()
			// Read whole, then written in one piece: the masking sees a
			// token that a chunked copy could split.
			data, err := io.ReadAll(rc)
			if err != nil {
				return err
			}
			_, err = f.IOStreams.Out.Write(data)
			return err
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().BoolVar(&opts.Patch, "patch", false, "print the patch series (git format-patch) instead of the diff")
	return cmd
}
