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

// EditOptions are 'issue edit' parsed; a nil pointer is a field left as
// it is.
type EditOptions struct {
	F            *cmdutil.Factory
	Ctx          context.Context
	Repo         cmdutil.Repo
	Number       int64
	Title        *string
	Body         *string
	Milestone    *string // "" removes it
	AddLabels    []string
	RemoveLabels []string
	JSON         *cmdutil.JSONFlags
}

// NewCmdEdit is 'issue edit'.
func NewCmdEdit(f *cmdutil.Factory, runF func(*EditOptions) error) *cobra.Command {
	opts := &EditOptions{F: f}
	var repoFlag, title, body, milestone string
	cmd := &cobra.Command{
		Use:   "edit [OWNER/REPO] NUMBER [flags]",
		Short: "Change an issue's title, description, labels or milestone",
		Example: `  forgego issue edit 12 --title "Crash on start" --add-label bug --remove-label question
  forgego issue edit forgego/demo 12 --milestone v1.0 --body "New description"`,
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
			fl := cmd.Flags()
			if !fl.Changed("title") && !fl.Changed("body") && !fl.Changed("milestone") && len(opts.AddLabels) == 0 && len(opts.RemoveLabels) == 0 {
				return cmdutil.Usagef("issue edit needs something to change: --title, --body, --add-label, --remove-label or --milestone")
			}
			if fl.Changed("title") && strings.TrimSpace(title) == "" {
				return cmdutil.Usagef("--title cannot be empty")
			}
			if fl.Changed("title") {
				opts.Title = &title
			}
			if fl.Changed("body") {
				opts.Body = &body
			}
			if fl.Changed("milestone") {
				opts.Milestone = &milestone
			}
			opts.Repo, opts.Number, opts.Ctx = r, n, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return editRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().StringVarP(&title, "title", "t", "", "the new `TITLE`")
	cmd.Flags().StringVarP(&body, "body", "b", "", "the new description, `TEXT` in Markdown")
	cmd.Flags().StringArrayVar(&opts.AddLabels, "add-label", nil, "add this `LABEL` (repeatable)")
	cmd.Flags().StringArrayVar(&opts.RemoveLabels, "remove-label", nil, "remove this `LABEL` (repeatable)")
	cmd.Flags().StringVarP(&milestone, "milestone", "m", "", "set the milestone by its `TITLE` (\"\" removes it)")
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func editRun(opts *EditOptions) error {
	f, r, n, ctx := opts.F, opts.Repo, opts.Number, opts.Ctx
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	edit := forgejo.EditIssueRequest{Title: opts.Title, Body: opts.Body}
	if opts.Milestone != nil {
		var id int64 // "" removes the milestone
		if *opts.Milestone != "" {
			if id, err = shared.MilestoneID(ctx, f, c, r, *opts.Milestone); err != nil {
				return err
			}
		}
		edit.Milestone = &id
	}
	add, err := shared.LabelIDs(ctx, f, c, r, opts.AddLabels)
	if err != nil {
		return err
	}
	rm, err := shared.LabelIDs(ctx, f, c, r, opts.RemoveLabels)
	if err != nil {
		return err
	}
	var is *forgejo.Issue
	if edit.Title != nil || edit.Body != nil || edit.Milestone != nil {
		if is, _, err = c.Issues.Edit(ctx, r.Owner, r.Name, n, edit); err != nil {
			return err
		}
	}
	if len(add) > 0 {
		if _, _, err := c.Issues.AddLabelsToIssue(ctx, r.Owner, r.Name, n, forgejo.IssueLabelsRequest{Labels: forgejo.LabelIDs(add...)}); err != nil {
			return err
		}
	}
	for _, id := range rm {
		if _, err := c.Issues.RemoveLabelForIssue(ctx, r.Owner, r.Name, n, strconv.FormatInt(id, 10)); err != nil {
			return err
		}
	}
	if is == nil || (opts.JSON.On() && len(add)+len(rm) > 0) {
		got, _, err := c.Issues.Get(ctx, r.Owner, r.Name, n)
		if err == nil {
			is = got
		} else if opts.JSON.On() {
			return err
		}
	}
	if opts.JSON.On() {
		return opts.JSON.Write(ctx, f.IOStreams, is)
	}
	url := ""
	if is != nil {
		url = is.HTMLURL
	}
	fmt.Fprintf(f.IOStreams.Out, "edited issue #%d in %s: %s\n", n, r.FullName(), url)
	return nil
}

// StateOptions are 'issue close' and 'issue reopen' parsed.
type StateOptions struct {
	F       *cmdutil.Factory
	Ctx     context.Context
	Repo    cmdutil.Repo
	Number  int64
	State   forgejo.StateType
	Comment string
	JSON    *cmdutil.JSONFlags
}

// NewCmdState is 'issue close' (verb "close") or 'issue reopen'.
func NewCmdState(f *cmdutil.Factory, runF func(*StateOptions) error, verb string) *cobra.Command {
	opts := &StateOptions{F: f, State: forgejo.StateOpen}
	if verb == "close" {
		opts.State = forgejo.StateClosed
	}
	var repoFlag string
	cmd := &cobra.Command{
		Use:               verb + " [OWNER/REPO] NUMBER",
		Short:             strings.ToUpper(verb[:1]) + verb[1:] + " an issue",
		Example:           fmt.Sprintf("  forgego issue %s 12\n  forgego issue %s forgego/demo 12", verb, verb),
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
			if cmd.Flags().Changed("comment") && strings.TrimSpace(opts.Comment) == "" {
				return cmdutil.Usagef("--comment cannot be empty")
			}
			opts.Repo, opts.Number, opts.Ctx = r, n, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return stateRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	if verb == "close" {
		cmd.Flags().StringVarP(&opts.Comment, "comment", "c", "", "leave a closing comment, `TEXT` in Markdown")
	}
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func stateRun(opts *StateOptions) error {
	f, r, n, ctx := opts.F, opts.Repo, opts.Number, opts.Ctx
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	if opts.Comment != "" {
		if _, _, err := c.Issues.CreateComment(ctx, r.Owner, r.Name, n, forgejo.CreateIssueCommentRequest{Body: opts.Comment}); err != nil {
			return err
		}
	}
	state := opts.State
	is, _, err := c.Issues.Edit(ctx, r.Owner, r.Name, n, forgejo.EditIssueRequest{State: &state})
	if err != nil {
		return err
	}
	if opts.JSON.On() {
		return opts.JSON.Write(ctx, f.IOStreams, is)
	}
	past := map[forgejo.StateType]string{forgejo.StateClosed: "closed", forgejo.StateOpen: "reopened"}[opts.State]
	fmt.Fprintf(f.IOStreams.Out, "%s issue #%d in %s: %s\n", past, is.Number, r.FullName(), is.HTMLURL)
	return nil
}

// CommentOptions are 'issue comment' and 'pr comment' parsed.
type CommentOptions struct {
	F      *cmdutil.Factory
	Ctx    context.Context
	Repo   cmdutil.Repo
	Number int64
	Body   string
	// Noun is what is commented on: "issue" or "pull request".
	Noun string
}

// NewCmdComment is 'issue comment' and 'pr comment': both comment through
// the issue comments API, which serves pull requests too. cmdName names
// the command in usage errors, noun the thing in the output.
func NewCmdComment(f *cmdutil.Factory, runF func(*CommentOptions) error, cmdName, noun, short, example string) *cobra.Command {
	opts := &CommentOptions{F: f, Noun: noun}
	var repoFlag string
	cmd := &cobra.Command{
		Use:               "comment [OWNER/REPO] NUMBER --body TEXT",
		Short:             short,
		Example:           example,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			r, n, err := f.RepoNumber(cmd, repoFlag, args)
			if err != nil {
				return err
			}
			if strings.TrimSpace(opts.Body) == "" {
				return cmdutil.Usagef("%s comment needs --body", cmdName)
			}
			opts.Repo, opts.Number, opts.Ctx = r, n, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return commentRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().StringVarP(&opts.Body, "body", "b", "", "the comment, `TEXT` in Markdown (required)")
	return cmd
}

func commentRun(opts *CommentOptions) error {
	f, r, n := opts.F, opts.Repo, opts.Number
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	cm, _, err := c.Issues.CreateComment(opts.Ctx, r.Owner, r.Name, n, forgejo.CreateIssueCommentRequest{Body: opts.Body})
	if err != nil {
		return err
	}
	fmt.Fprintf(f.IOStreams.Out, "commented on %s #%d in %s: %s\n", opts.Noun, n, r.FullName(), cm.HTMLURL)
	return nil
}
