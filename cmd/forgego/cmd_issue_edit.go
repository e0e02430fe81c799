package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"github.com/spf13/cobra"
)

// issueArgs reads [OWNER/REPO] NUMBER (OWNER/REPO from -R or the git
// remote when left out).
func (a *app) issueArgs(cmd *cobra.Command, args []string) (owner, name string, n int64, err error) {
	owner, name, rest, err := a.repoFrom(cmd, args, 1)
	if err != nil {
		return "", "", 0, err
	}
	n, err = parseNumber(cmd, rest[0])
	return owner, name, n, err
}

// labelIDs resolves label names to the repository's label IDs (one walk of
// its labels); an unknown name is an error that lists the labels there are.
func (a *app) labelIDs(c *forgejo.Client, owner, name string, names []string) ([]int64, error) {
	if len(names) == 0 {
		return nil, nil
	}
	got, err := collect(a, "labels", listFlags{all: true}, func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.Label, *forgejo.Response, error) {
		return c.Issues.ListLabels(ctx, owner, name, &forgejo.IssueListLabelsOptions{ListOptions: lo})
	})
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(names))
	for _, want := range names {
		var id int64
		for _, l := range got.items {
			if l.Name == want {
				id = l.ID
				break
			}
		}
		if id == 0 {
			for _, l := range got.items {
				if strings.EqualFold(l.Name, want) {
					id = l.ID
					break
				}
			}
		}
		if id == 0 {
			there := labelNames(got.items)
			if len(there) == 0 {
				return nil, fmt.Errorf("%s/%s has no labels (looking for %q)", owner, name, want)
			}
			return nil, fmt.Errorf("%s/%s has no label %q; it has: %s", owner, name, want, strings.Join(there, ", "))
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// milestoneID resolves a milestone's title (open or closed).
func (a *app) milestoneID(c *forgejo.Client, owner, name, title string) (int64, error) {
	got, err := collect(a, "milestones", listFlags{all: true}, func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.Milestone, *forgejo.Response, error) {
		return c.Issues.ListMilestones(ctx, owner, name, &forgejo.IssueListMilestonesOptions{ListOptions: lo, State: forgejo.StateAll})
	})
	if err != nil {
		return 0, err
	}
	var titles []string
	for _, m := range got.items {
		if m.Title == title {
			return m.ID, nil
		}
		titles = append(titles, m.Title)
	}
	if len(titles) == 0 {
		return 0, fmt.Errorf("%s/%s has no milestones (looking for %q)", owner, name, title)
	}
	return 0, fmt.Errorf("%s/%s has no milestone %q; it has: %s", owner, name, title, strings.Join(titles, ", "))
}

func (a *app) issueViewCmd() *cobra.Command {
	var (
		comments bool
		jf       jsonFlags
	)
	cmd := &cobra.Command{
		Use:   "view [OWNER/REPO] NUMBER",
		Short: "Show an issue: state, labels, assignees, description (and comments)",
		Example: `  forgego issue view forgejo/forgejo 1234
  forgego issue view 12 --comments            # the repository of the git remote
  forgego issue view 12 -R forgego/demo --json title,state,labels --jq .labels`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if err := jf.check(); err != nil {
				return err
			}
			owner, name, n, err := a.issueArgs(cmd, args)
			if err != nil {
				return err
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			is, _, err := c.Issues.Get(a.ctx, owner, name, n)
			if err != nil {
				return err
			}
			if jf.on() {
				return a.emit(&jf, is)
			}
			var cs []*forgejo.Comment
			if comments && is.Comments > 0 {
				if cs, _, err = c.Issues.ListComments(a.ctx, owner, name, n, nil); err != nil {
					return err
				}
			}
			kind := "issue"
			if is.PullRequest != nil {
				kind = "pull request"
			}
			fmt.Fprintf(a.stdout, "%s #%d\n%s %s, opened by %s on %s\n\n", oneLine(is.Title), is.Number, is.State, kind, userLogin(is.User), day(is.CreatedAt))
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
				{"  labels", strings.Join(labelNames(is.Labels), ", ")},
				{"  assignees", strings.Join(assignees, ", ")},
				{"  milestone", milestone},
				{"  comments", strconv.FormatInt(is.Comments, 10)},
				{"  updated", day(is.UpdatedAt)},
			}
			if !is.ClosedAt.IsZero() {
				rows = append(rows, []string{"  closed", day(is.ClosedAt)})
			}
			rows = append(rows, []string{"  url", is.HTMLURL})
			if err := a.table(rows); err != nil {
				return err
			}
			if body := strings.TrimSpace(is.Body); body != "" {
				fmt.Fprintf(a.stdout, "\n%s\n", body)
			}
			for _, cm := range cs {
				fmt.Fprintf(a.stdout, "\n— %s commented on %s:\n%s\n", userLogin(cm.User), day(cm.CreatedAt), strings.TrimSpace(cm.Body))
			}
			if !comments && is.Comments > 0 {
				fmt.Fprintf(a.stderr, "%s; --comments shows them\n", plural(int(is.Comments), "comment"))
			}
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().BoolVarP(&comments, "comments", "c", false, "show the comments too")
	jf.register(cmd, forgejo.Issue{})
	return cmd
}

func (a *app) issueEditCmd() *cobra.Command {
	var (
		title, body, milestone string
		addLabels, rmLabels    []string
	)
	cmd := &cobra.Command{
		Use:   "edit [OWNER/REPO] NUMBER [flags]",
		Short: "Change an issue's title, description, labels or milestone",
		Example: `  forgego issue edit 12 --title "Crash on start" --add-label bug --remove-label question
  forgego issue edit forgego/demo 12 --milestone v1.0 --body "New description"`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			owner, name, n, err := a.issueArgs(cmd, args)
			if err != nil {
				return err
			}
			f := cmd.Flags()
			if !f.Changed("title") && !f.Changed("body") && !f.Changed("milestone") && len(addLabels) == 0 && len(rmLabels) == 0 {
				return usagef("issue edit needs something to change: --title, --body, --add-label, --remove-label or --milestone")
			}
			if f.Changed("title") && strings.TrimSpace(title) == "" {
				return usagef("--title cannot be empty")
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			var edit forgejo.EditIssueRequest
			if f.Changed("title") {
				edit.Title = &title
			}
			if f.Changed("body") {
				edit.Body = &body
			}
			if f.Changed("milestone") {
				var id int64 // "" removes the milestone
				if milestone != "" {
					if id, err = a.milestoneID(c, owner, name, milestone); err != nil {
						return err
					}
				}
				edit.Milestone = &id
			}
			add, err := a.labelIDs(c, owner, name, addLabels)
			if err != nil {
				return err
			}
			rm, err := a.labelIDs(c, owner, name, rmLabels)
			if err != nil {
				return err
			}
			var is *forgejo.Issue
			if edit.Title != nil || edit.Body != nil || edit.Milestone != nil {
				if is, _, err = c.Issues.Edit(a.ctx, owner, name, n, edit); err != nil {
					return err
				}
			}
			if len(add) > 0 {
				if _, _, err := c.Issues.AddLabelsToIssue(a.ctx, owner, name, n, forgejo.IssueLabelsRequest{Labels: forgejo.LabelIDs(add...)}); err != nil {
					return err
				}
			}
			for _, id := range rm {
				if _, err := c.Issues.RemoveLabelForIssue(a.ctx, owner, name, n, strconv.FormatInt(id, 10)); err != nil {
					return err
				}
			}
			url := ""
			if is != nil {
				url = is.HTMLURL
			} else if got, _, err := c.Issues.Get(a.ctx, owner, name, n); err == nil {
				url = got.HTMLURL
			}
			fmt.Fprintf(a.stdout, "edited issue #%d in %s/%s: %s\n", n, owner, name, url)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().StringVarP(&title, "title", "t", "", "the new `TITLE`")
	cmd.Flags().StringVarP(&body, "body", "b", "", "the new description, `TEXT` in Markdown")
	cmd.Flags().StringArrayVar(&addLabels, "add-label", nil, "add this `LABEL` (repeatable)")
	cmd.Flags().StringArrayVar(&rmLabels, "remove-label", nil, "remove this `LABEL` (repeatable)")
	cmd.Flags().StringVarP(&milestone, "milestone", "m", "", "set the milestone by its `TITLE` (\"\" removes it)")
	return cmd
}

// issueState closes or reopens an issue.
func (a *app) issueStateCmd(verb string, state forgejo.StateType) *cobra.Command {
	var comment string
	cmd := &cobra.Command{
		Use:               verb + " [OWNER/REPO] NUMBER",
		Short:             strings.ToUpper(verb[:1]) + verb[1:] + " an issue",
		Example:           fmt.Sprintf("  forgego issue %s 12\n  forgego issue %s forgego/demo 12", verb, verb),
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			owner, name, n, err := a.issueArgs(cmd, args)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("comment") && strings.TrimSpace(comment) == "" {
				return usagef("--comment cannot be empty")
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			if comment != "" {
				if _, _, err := c.Issues.CreateComment(a.ctx, owner, name, n, forgejo.CreateIssueCommentRequest{Body: comment}); err != nil {
					return err
				}
			}
			is, _, err := c.Issues.Edit(a.ctx, owner, name, n, forgejo.EditIssueRequest{State: &state})
			if err != nil {
				return err
			}
			past := map[string]string{"close": "closed", "reopen": "reopened"}[verb]
			fmt.Fprintf(a.stdout, "%s issue #%d in %s/%s: %s\n", past, is.Number, owner, name, is.HTMLURL)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	if verb == "close" {
		cmd.Flags().StringVarP(&comment, "comment", "c", "", "leave a closing comment, `TEXT` in Markdown")
	}
	return cmd
}

func (a *app) issueCloseCmd() *cobra.Command  { return a.issueStateCmd("close", forgejo.StateClosed) }
func (a *app) issueReopenCmd() *cobra.Command { return a.issueStateCmd("reopen", forgejo.StateOpen) }

func (a *app) issueCommentCmd() *cobra.Command {
	return a.commentCmd("issue", "issue", "Comment on an issue", `  forgego issue comment 12 --body "Fixed in 1.2"`, a.issueArgs)
}

// commentCmd is "issue comment" and "pr comment": both comment through the
// issue comments API, which serves pull requests too. cmdName names the
// command in usage errors, noun the thing in the output.
func (a *app) commentCmd(cmdName, noun, short, example string, argsOf func(*cobra.Command, []string) (string, string, int64, error)) *cobra.Command {
	var body string
	cmd := &cobra.Command{
		Use:               "comment [OWNER/REPO] NUMBER --body TEXT",
		Short:             short,
		Example:           example,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			owner, name, n, err := argsOf(cmd, args)
			if err != nil {
				return err
			}
			if strings.TrimSpace(body) == "" {
				return usagef("%s comment needs --body", cmdName)
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			cm, _, err := c.Issues.CreateComment(a.ctx, owner, name, n, forgejo.CreateIssueCommentRequest{Body: body})
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "commented on %s #%d in %s/%s: %s\n", noun, n, owner, name, cm.HTMLURL)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().StringVarP(&body, "body", "b", "", "the comment, `TEXT` in Markdown (required)")
	return cmd
}
