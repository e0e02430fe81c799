package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"

	forgejo "codeberg.org/forgego/forgejo"
	"github.com/spf13/cobra"
)

// prState is open, closed or merged: a merged pull request is also closed,
// and merged is what people want to know.
func prState(pr *forgejo.PullRequest) string {
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

func (a *app) prCmd() *cobra.Command {
	cmd := groupCmd("pr", "List, view, open, merge, close and comment on pull requests")
	cmd.AddCommand(a.prListCmd(), a.prViewCmd(), a.prCreateCmd(), a.prMergeCmd(), a.prStateCmd("close", forgejo.StateClosed),
		a.prStateCmd("reopen", forgejo.StateOpen), a.prCommentCmd(), a.prDiffCmd(), a.prCheckoutCmd())
	return cmd
}

func (a *app) prListCmd() *cobra.Command {
	var (
		state string
		lf    listFlags
		jf    jsonFlags
	)
	cmd := &cobra.Command{
		Use:   "list [OWNER/REPO]",
		Short: "List a repository's pull requests",
		Example: `  forgego pr list forgejo/forgejo
  forgego pr list -R forgejo/forgejo --state all --limit 10 --json number,title,head`,
		Aliases:           []string{"ls"},
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if err := jf.check(); err != nil {
				return err
			}
			owner, name, _, err := a.repoFrom(cmd, args, 0)
			if err != nil {
				return err
			}
			if err := lf.Check(); err != nil {
				return err
			}
			if state != "merged" {
				if err := checkState(state); err != nil {
					return usagef("--state must be open, closed, merged or all, not %q", state)
				}
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			// merged is closed and merged: the instance has no such state,
			// so the closed ones are walked and the merged ones kept.
			ask, keep := state, func(*forgejo.PullRequest) bool { return true }
			if state == "merged" {
				ask, keep = "closed", func(pr *forgejo.PullRequest) bool { return pr.Merged }
			}
			fetch := func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.PullRequest, *forgejo.Response, error) {
				return c.PullRequests.List(ctx, owner, name, &forgejo.PullRequestListOptions{ListOptions: lo, State: forgejo.StateType(ask)})
			}
			var got cmdutil.Listing[*forgejo.PullRequest]
			if state == "merged" {
				got, err = collectWhere(a, "pull requests", lf, fetch, keep)
			} else {
				got, err = collect(a, "pull requests", lf, fetch)
			}
			if err != nil {
				return err
			}
			if jf.on() {
				return a.emit(&jf, got.Items)
			}
			if len(got.Items) > 0 {
				rows := [][]string{{"NUMBER", "STATE", "TITLE", "BRANCH", "AUTHOR", "UPDATED"}}
				for _, pr := range got.Items {
					st := prState(pr)
					if pr.Draft {
						st += " (draft)"
					}
					rows = append(rows, []string{"#" + strconv.FormatInt(pr.Number, 10), st, truncate(pr.Title, 60),
						branchName(pr.Head) + " → " + branchName(pr.Base), userLogin(pr.User), day(pr.UpdatedAt)})
				}
				if err := a.table(rows); err != nil {
					return err
				}
			}
			a.summary(len(got.Items), got.Total, stateWhat(state, "pull requests"), owner+"/"+name)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().StringVarP(&state, "state", "s", "open", "list the pull requests in this `STATE`: open, closed, merged or all")
	_ = cmd.RegisterFlagCompletionFunc("state", cobra.FixedCompletions([]string{"open", "closed", "merged", "all"}, cobra.ShellCompDirectiveNoFileComp))
	cmdutil.AddListFlags(cmd, &lf, "pull requests")
	jf.register(cmd, prFields)
	return cmd
}

func (a *app) prViewCmd() *cobra.Command {
	var jf jsonFlags
	cmd := &cobra.Command{
		Use:   "view [OWNER/REPO] NUMBER",
		Short: "Show a pull request: state, branches, labels, description",
		Example: `  forgego pr view forgejo/forgejo 1234
  forgego pr view 1234 -R forgejo/forgejo --json title,state,head --jq .head`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if err := jf.check(); err != nil {
				return err
			}
			owner, name, rest, err := a.repoFrom(cmd, args, 1)
			if err != nil {
				return err
			}
			n, err := parseNumber(cmd, rest[0])
			if err != nil {
				return err
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			pr, _, err := c.PullRequests.Get(a.ctx, owner, name, n)
			if err != nil {
				return err
			}
			if jf.on() {
				return a.emit(&jf, pr)
			}
			st := prState(pr)
			if pr.Draft {
				st += ", draft"
			}
			fmt.Fprintf(a.stdout, "%s #%d\n%s\n\n", pr.Title, pr.Number, st)
			rows := [][]string{
				{"  author", userLogin(pr.User)},
				{"  branch", branchName(pr.Head) + " → " + branchName(pr.Base)},
				{"  labels", strings.Join(labelNames(pr.Labels), ", ")},
				{"  changes", fmt.Sprintf("+%d −%d in %d files", pr.Additions, pr.Deletions, pr.ChangedFiles)},
				{"  comments", strconv.FormatInt(pr.Comments, 10)},
				{"  created", day(pr.CreatedAt)},
				{"  updated", day(pr.UpdatedAt)},
			}
			if pr.Merged {
				rows = append(rows, []string{"  merged", day(pr.MergedAt) + " by " + userLogin(pr.MergedBy)})
			}
			rows = append(rows, []string{"  url", pr.HTMLURL})
			if err := a.table(rows); err != nil {
				return err
			}
			if body := strings.TrimSpace(pr.Body); body != "" {
				fmt.Fprintf(a.stdout, "\n%s\n", body)
			}
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	jf.register(cmd, prFields)
	return cmd
}
