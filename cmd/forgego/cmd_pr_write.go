package main

import (
	"fmt"
	"io"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"github.com/spf13/cobra"
)

func (a *app) prCreateCmd() *cobra.Command {
	var (
		head, base, title, body string
		labels, assignees       []string
	)
	cmd := &cobra.Command{
		Use:   "create [OWNER/REPO] --head BRANCH --title TITLE",
		Short: "Open a pull request",
		Long: `Open a pull request from --head into --base (default: the repository's
default branch) and print its URL. A head in a fork is OWNER:BRANCH. A failed
create is never repeated: it could have been made already.`,
		Example: `  forgego pr create --head fix-crash --title "Fix the crash" --body "Closes #12"
  forgego pr create -R forgego/demo --head bob:feature --base main -t "Feature"`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			owner, name, _, err := a.repoFrom(cmd, args, 0)
			if err != nil {
				return err
			}
			if strings.TrimSpace(head) == "" {
				return usagef("pr create needs --head BRANCH")
			}
			if strings.TrimSpace(title) == "" {
				return usagef("pr create needs --title")
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			if base == "" {
				r, _, err := c.Repos.Get(a.ctx, owner, name)
				if err != nil {
					return err
				}
				base = r.DefaultBranch
			}
			ids, err := a.labelIDs(c, owner, name, labels)
			if err != nil {
				return err
			}
			pr, _, err := c.PullRequests.Create(a.ctx, owner, name, forgejo.CreatePullRequestRequest{
				Head: head, Base: base, Title: title, Body: body, Labels: ids, Assignees: assignees,
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "created pull request #%d in %s/%s (%s → %s): %s\n", pr.Number, owner, name, head, base, pr.HTMLURL)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().StringVarP(&head, "head", "H", "", "the `BRANCH` with the changes (OWNER:BRANCH for a fork; required)")
	cmd.Flags().StringVarP(&base, "base", "B", "", "the `BRANCH` to merge into (default: the repository's default branch)")
	cmd.Flags().StringVarP(&title, "title", "t", "", "the pull request's `TITLE` (required)")
	cmd.Flags().StringVarP(&body, "body", "b", "", "the description, `TEXT` in Markdown")
	cmd.Flags().StringArrayVarP(&labels, "label", "l", nil, "add this `LABEL` (repeatable)")
	cmd.Flags().StringArrayVarP(&assignees, "assignee", "a", nil, "assign this `USER` (repeatable)")
	return cmd
}

// prArgs reads [OWNER/REPO] NUMBER.
func (a *app) prArgs(cmd *cobra.Command, args []string) (owner, name string, n int64, err error) {
	return a.issueArgs(cmd, args)
}

func (a *app) prMergeCmd() *cobra.Command {
	var (
		merge, squash, rebase, deleteBranch bool
		subject, body                       string
	)
	cmd := &cobra.Command{
		Use:   "merge [OWNER/REPO] NUMBER --merge|--squash|--rebase",
		Short: "Merge a pull request",
		Example: `  forgego pr merge 7 --squash --delete-branch
  forgego pr merge forgego/demo 7 --merge --subject "Merge the feature"`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			owner, name, n, err := a.prArgs(cmd, args)
			if err != nil {
				return err
			}
			var style forgejo.MergeStyle
			count := 0
			for _, m := range []struct {
				on    bool
				style forgejo.MergeStyle
			}{{merge, forgejo.MergeStyleMerge}, {squash, forgejo.MergeStyleSquash}, {rebase, forgejo.MergeStyleRebase}} {
				if m.on {
					count++
					style = m.style
				}
			}
			if count != 1 {
				return usagef("pr merge needs exactly one of --merge, --squash and --rebase")
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			_, err = c.PullRequests.Merge(a.ctx, owner, name, n, forgejo.MergePullRequestRequest{
				Style: style, Title: subject, Message: body, DeleteBranchAfterMerge: deleteBranch,
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "merged pull request #%d in %s/%s (%s)\n", n, owner, name, style)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().BoolVarP(&merge, "merge", "m", false, "merge with a merge commit")
	cmd.Flags().BoolVarP(&squash, "squash", "s", false, "squash the commits into one")
	cmd.Flags().BoolVarP(&rebase, "rebase", "r", false, "rebase the commits onto the base branch")
	cmd.Flags().BoolVarP(&deleteBranch, "delete-branch", "d", false, "delete the head branch after the merge")
	cmd.Flags().StringVarP(&subject, "subject", "t", "", "the merge commit's `TITLE`")
	cmd.Flags().StringVarP(&body, "body", "b", "", "the merge commit's message, `TEXT`")
	return cmd
}

func (a *app) prStateCmd(verb string, state forgejo.StateType) *cobra.Command {
	cmd := &cobra.Command{
		Use:               verb + " [OWNER/REPO] NUMBER",
		Short:             strings.ToUpper(verb[:1]) + verb[1:] + " a pull request",
		Example:           fmt.Sprintf("  forgego pr %s 7\n  forgego pr %s forgego/demo 7", verb, verb),
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			owner, name, n, err := a.prArgs(cmd, args)
			if err != nil {
				return err
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			pr, _, err := c.PullRequests.Edit(a.ctx, owner, name, n, forgejo.EditPullRequestRequest{State: &state})
			if err != nil {
				return err
			}
			past := map[string]string{"close": "closed", "reopen": "reopened"}[verb]
			fmt.Fprintf(a.stdout, "%s pull request #%d in %s/%s: %s\n", past, pr.Number, owner, name, pr.HTMLURL)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	return cmd
}

func (a *app) prCommentCmd() *cobra.Command {
	return a.commentCmd("pr", "pull request", "Comment on a pull request", `  forgego pr comment 7 --body "Looks good"`, a.prArgs)
}

func (a *app) prDiffCmd() *cobra.Command {
	var patch bool
	cmd := &cobra.Command{
		Use:   "diff [OWNER/REPO] NUMBER",
		Short: "Print a pull request's diff (or, with --patch, its patch series)",
		Example: `  forgego pr diff 7
  forgego pr diff forgego/demo 7 --patch > 7.patch`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			owner, name, n, err := a.prArgs(cmd, args)
			if err != nil {
				return err
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			kind := forgejo.DiffTypeDiff
			if patch {
				kind = forgejo.DiffTypePatch
			}
			rc, _, err := c.PullRequests.OpenDiff(a.ctx, owner, name, n, kind, nil)
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
			_, err = a.stdout.Write(data)
			return err
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().BoolVar(&patch, "patch", false, "print the patch series (git format-patch) instead of the diff")
	return cmd
}
