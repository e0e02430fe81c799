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

func visibility(r *forgejo.Repository) string {
	v := "public"
	if r.Private {
		v = "private"
	}
	if r.Fork {
		v += ", fork"
	}
	if r.Archived {
		v += ", archived"
	}
	return v
}

func (a *app) repoCmd() *cobra.Command {
	cmd := groupCmd("repo", "View, list, create, fork and clone repositories")
	cmd.AddCommand(a.repoViewCmd(), a.repoListCmd(), a.repoCreateCmd(), a.repoForkCmd(), a.repoCloneCmd())
	return cmd
}

func (a *app) repoViewCmd() *cobra.Command {
	var jf jsonFlags
	cmd := &cobra.Command{
		Use:   "view [OWNER/REPO]",
		Short: "Show a repository: description, counts, topics",
		Example: `  forgego repo view forgejo/forgejo
  forgego repo view -R forgego/demo --embedded --json full_name,stars_count`,
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
			c, err := a.connect()
			if err != nil {
				return err
			}
			r, _, err := c.Repos.Get(a.ctx, owner, name)
			if err != nil {
				return err
			}
			if jf.on() {
				return a.emit(&jf, r)
			}
			desc := r.Description
			if desc == "" {
				desc = "(no description)"
			}
			fmt.Fprintf(a.stdout, "%s\n%s\n\n", r.FullName, desc)
			return a.table([][]string{
				{"  default branch", r.DefaultBranch},
				{"  stars", strconv.FormatInt(r.StarsCount, 10)},
				{"  forks", strconv.FormatInt(r.ForksCount, 10)},
				{"  open issues", strconv.FormatInt(r.OpenIssuesCount, 10)},
				{"  open pull requests", strconv.FormatInt(r.OpenPrCounter, 10)},
				{"  topics", strings.Join(r.Topics, ", ")},
				{"  visibility", visibility(r)},
				{"  updated", day(r.UpdatedAt)},
				{"  url", r.HTMLURL},
			})
		}),
	}
	a.addRepoFlag(cmd)
	jf.register(cmd, repoFields)
	return cmd
}

func (a *app) repoListCmd() *cobra.Command {
	var (
		lf listFlags
		jf jsonFlags
	)
	cmd := &cobra.Command{
		Use:   "list [OWNER]",
		Short: "List a user's or an organization's repositories (yours without OWNER)",
		Long: `List the repositories of OWNER, a user or an organization, or without OWNER
those of the token's user (which needs FORGEJO_TOKEN).`,
		Example: `  forgego repo list forgejo
  forgego repo list --limit 100 --json full_name --jq '.[].full_name'
  forgego --embedded repo list`,
		Aliases:           []string{"ls"},
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if err := jf.check(); err != nil {
				return err
			}
			if err := lf.Check(); err != nil {
				return err
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			where := "your account"
			fetch := func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.Repository, *forgejo.Response, error) {
				return c.Repos.List(ctx, &forgejo.RepoListOptions{ListOptions: lo})
			}
			if len(args) == 1 {
				owner := args[0]
				where = owner
				fetch = func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.Repository, *forgejo.Response, error) {
					return c.Repos.ListByUser(ctx, owner, &lo)
				}
			}
			got, err := collect(a, "repositories", lf, fetch)
			if err != nil {
				return err
			}
			if jf.on() {
				return a.emit(&jf, got.Items)
			}
			if len(got.Items) > 0 {
				rows := [][]string{{"NAME", "DESCRIPTION", "VISIBILITY", "UPDATED"}}
				for _, r := range got.Items {
					rows = append(rows, []string{r.FullName, truncate(r.Description, 50), visibility(r), day(r.UpdatedAt)})
				}
				if err := a.table(rows); err != nil {
					return err
				}
			}
			a.summary(len(got.Items), got.Total, "repositories", where)
			return nil
		}),
	}
	cmdutil.AddListFlags(cmd, &lf, "repositories")
	jf.register(cmd, repoFields)
	return cmd
}
