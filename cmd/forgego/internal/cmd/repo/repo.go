// Package repo is 'forgego repo': view, list, create, fork and clone.
package repo

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

// Fields are the --json fields of the commands that print repositories:
// the CLI's contract, written out (cmdutil.Field).
var Fields = cmdutil.Fields(&forgejo.Repository{},
	"allow_fast_forward_only_merge", "allow_merge_commits", "allow_rebase",
	"allow_rebase_explicit", "allow_rebase_update", "allow_squash_merge", "archived",
	"archived_at", "avatar_url", "clone_url", "created_at", "default_allow_maintainer_edit",
	"default_branch", "default_delete_branch_after_merge", "default_merge_style",
	"default_update_style", "description", "empty", "external_tracker", "external_wiki",
	"fork", "forks_count", "full_name", "globally_editable_wiki", "has_actions", "has_issues",
	"has_packages", "has_projects", "has_pull_requests", "has_releases", "has_wiki",
	"has_wiki_contents", "html_url", "id", "ignore_whitespace_conflicts", "internal",
	"internal_tracker", "language", "languages_url", "link", "mirror", "mirror_interval",
	"mirror_updated", "name", "object_format_name", "open_issues_count", "open_pr_counter",
	"original_url", "owner", "parent", "permissions", "private", "release_counter",
	"repo_transfer", "size", "ssh_url", "stars_count", "template", "topics", "updated_at",
	"url", "watchers_count", "website", "wiki_branch", "wiki_clone_url", "wiki_ssh_url",
)

// NewCmdRepo is the 'repo' group.
func NewCmdRepo(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.GroupCmd("repo", "View, list, create, fork and clone repositories")
	cmd.AddCommand(NewCmdView(f, nil), NewCmdList(f, nil), NewCmdCreate(f, nil), NewCmdFork(f, nil), NewCmdClone(f, nil))
	return cmd
}

// ViewOptions are 'repo view' parsed.
type ViewOptions struct {
	F    *cmdutil.Factory
	Ctx  context.Context
	Repo cmdutil.Repo
	JSON *cmdutil.JSONFlags
}

// NewCmdView is 'repo view'.
func NewCmdView(f *cmdutil.Factory, runF func(*ViewOptions) error) *cobra.Command {
	opts := &ViewOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "view [OWNER/REPO]",
		Short: "Show a repository: description, counts, topics",
		Example: `  forgego repo view forgejo/forgejo
  forgego repo view -R forgego/demo --embedded --json full_name,stars_count`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			repo, _, err := f.BaseRepo(cmd, repoFlag, args, 0)
			if err != nil {
				return err
			}
			opts.Repo, opts.Ctx = repo, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			c, err := f.ClientFor(repo)
			if err != nil {
				return err
			}
			r, _, err := c.Repos.Get(opts.Ctx, repo.Owner, repo.Name)
			if err != nil {
				return err
			}
			if opts.JSON.On() {
				return opts.JSON.Write(opts.Ctx, f.IOStreams, r)
			}
			desc := r.Description
			if desc == "" {
				desc = "(no description)"
			}
			fmt.Fprintf(f.IOStreams.Out, "%s\n%s\n\n", r.FullName, desc)
			return cmdutil.Table(f.IOStreams, [][]string{
				{"  default branch", r.DefaultBranch},
				{"  stars", strconv.FormatInt(r.StarsCount, 10)},
				{"  forks", strconv.FormatInt(r.ForksCount, 10)},
				{"  open issues", strconv.FormatInt(r.OpenIssuesCount, 10)},
				{"  open pull requests", strconv.FormatInt(r.OpenPrCounter, 10)},
				{"  topics", strings.Join(r.Topics, ", ")},
				{"  visibility", visibility(r)},
				{"  updated", cmdutil.Day(r.UpdatedAt)},
				{"  url", r.HTMLURL},
			})
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

// ListOptions are 'repo list' parsed.
type ListOptions struct {
	F     *cmdutil.Factory
	Ctx   context.Context
	Owner string // "" = the token's user
	List  cmdutil.ListFlags
	JSON  *cmdutil.JSONFlags
}

// NewCmdList is 'repo list'.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{F: f}
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
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			if err := opts.List.Check(); err != nil {
				return err
			}
			opts.Ctx = cmd.Context()
			if len(args) == 1 {
				opts.Owner = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			c, err := f.Client("")
			if err != nil {
				return err
			}
			where := "your account"
			fetch := func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.Repository, *forgejo.Response, error) {
				return c.Repos.List(ctx, &forgejo.RepoListOptions{ListOptions: lo})
			}
			if opts.Owner != "" {
				owner := opts.Owner
				where = owner
				fetch = func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.Repository, *forgejo.Response, error) {
					return c.Repos.ListByUser(ctx, owner, &lo)
				}
			}
			got, err := cmdutil.Collect(opts.Ctx, f, "repositories", opts.List, fetch)
			if err != nil {
				return err
			}
			if opts.JSON.On() {
				return opts.JSON.Write(opts.Ctx, f.IOStreams, got.Items)
			}
			if len(got.Items) > 0 {
				rows := [][]string{{"NAME", "DESCRIPTION", "VISIBILITY", "UPDATED"}}
				for _, r := range got.Items {
					rows = append(rows, []string{r.FullName, cmdutil.Truncate(r.Description, 50), visibility(r), cmdutil.Day(r.UpdatedAt)})
				}
				if err := cmdutil.Table(f.IOStreams, rows); err != nil {
					return err
				}
			}
			cmdutil.Summary(f, len(got.Items), got.Total, "repositories", where)
			return nil
		}),
	}
	cmdutil.AddListFlags(cmd, &opts.List, "repositories")
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}
