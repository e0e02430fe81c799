package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"github.com/spf13/cobra"
)

func labelNames(labels []*forgejo.Label) []string {
	names := []string{}
	for _, l := range labels {
		if l != nil {
			names = append(names, l.Name)
		}
	}
	return names
}

func userLogin(u *forgejo.User) string {
	if u == nil {
		return ""
	}
	return u.Login
}

func (a *app) issueCmd() *cobra.Command {
	cmd := groupCmd("issue", "List, view, create, edit, close and comment on issues")
	cmd.AddCommand(a.issueListCmd(), a.issueViewCmd(), a.issueCreateCmd(), a.issueEditCmd(),
		a.issueCloseCmd(), a.issueReopenCmd(), a.issueCommentCmd())
	return cmd
}

func (a *app) issueListCmd() *cobra.Command {
	var (
		state                    string
		labels                   []string
		assignee, author, search string
		lf                       listFlags
		jf                       jsonFlags
	)
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
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if err := jf.check(); err != nil {
				return err
			}
			owner, name, _, err := a.repoFrom(cmd, args, 0)
			if err != nil {
				return err
			}
			if err := lf.check(cmd); err != nil {
				return err
			}
			if err := checkState(state); err != nil {
				return err
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			opts := forgejo.IssueListOptions{State: forgejo.StateType(state), Type: forgejo.IssueTypeIssues,
				Labels: labels, AssignedBy: assignee, CreatedBy: author, Query: search}
			got, err := collect(a, "issues", lf, func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.Issue, *forgejo.Response, error) {
				o := opts
				o.ListOptions = lo
				return c.Issues.List(ctx, owner, name, &o)
			})
			if err != nil {
				return err
			}
			if jf.on() {
				return a.emit(&jf, got.items)
			}
			if len(got.items) > 0 {
				rows := [][]string{{"NUMBER", "STATE", "TITLE", "LABELS", "UPDATED"}}
				for _, is := range got.items {
					rows = append(rows, []string{"#" + strconv.FormatInt(is.Number, 10), string(is.State), truncate(is.Title, 60),
						strings.Join(labelNames(is.Labels), ", "), day(is.UpdatedAt)})
				}
				if err := a.table(rows); err != nil {
					return err
				}
			}
			a.summary(len(got.items), got.total, stateWhat(state, "issues"), owner+"/"+name)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	stateFlag(cmd, &state, "issues")
	lf.register(cmd, "issues")
	cmd.Flags().StringArrayVarP(&labels, "label", "l", nil, "only the issues with this `LABEL` (repeat for all of several)")
	cmd.Flags().StringVarP(&assignee, "assignee", "a", "", "only the issues assigned to this `USER`")
	cmd.Flags().StringVarP(&author, "author", "A", "", "only the issues opened by this `USER`")
	cmd.Flags().StringVarP(&search, "search", "S", "", "only the issues that match this `QUERY` (title and body)")
	jf.register(cmd, forgejo.Issue{})
	return cmd
}

func (a *app) issueCreateCmd() *cobra.Command {
	var (
		title, body       string
		labels, assignees []string
	)
	cmd := &cobra.Command{
		Use:   "create [OWNER/REPO] --title TITLE",
		Short: "Create an issue",
		Long: `Create an issue and print its URL (with --json, the issue). A failed create
is never repeated: it could have been made already.`,
		Example: `  forgego issue create forgego/demo --title "It broke" --body "Steps: ..."
  forgego issue create -R forgego/demo -t "It broke" --label bug --assignee alice
  forgego issue create -t "It broke"              # the repository of the git remote`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			owner, name, _, err := a.repoFrom(cmd, args, 0)
			if err != nil {
				return err
			}
			if strings.TrimSpace(title) == "" {
				return usagef("issue create needs --title")
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			ids, err := a.labelIDs(c, owner, name, labels)
			if err != nil {
				return err
			}
			is, _, err := c.Issues.Create(a.ctx, owner, name, forgejo.CreateIssueRequest{Title: title, Body: body, Labels: ids, Assignees: assignees})
			if err != nil {
				return err
			}
			// An instance drops the labels and assignees of an issue opened
			// by someone who cannot write to the repository, silently.
			if (len(ids) > 0 && len(is.Labels) == 0) || (len(assignees) > 0 && len(is.Assignees) == 0) {
				fmt.Fprintf(a.stderr, "warning: the instance did not set the labels or assignees (only those who can write to %s/%s may)\n", owner, name)
			}
			if a.g.json {
				return a.emit(&jsonFlags{}, is)
			}
			fmt.Fprintf(a.stdout, "created issue #%d in %s/%s: %s\n", is.Number, owner, name, is.HTMLURL)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().StringVarP(&title, "title", "t", "", "the issue's `TITLE` (required)")
	cmd.Flags().StringVarP(&body, "body", "b", "", "the issue's `TEXT`, in Markdown")
	cmd.Flags().StringArrayVarP(&labels, "label", "l", nil, "add this `LABEL` (repeatable)")
	cmd.Flags().StringArrayVarP(&assignees, "assignee", "a", nil, "assign this `USER` (repeatable)")
	return cmd
}
