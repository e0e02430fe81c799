package release

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

// ListOptions are 'release list' parsed.
type ListOptions struct {
	F    *cmdutil.Factory
	Ctx  context.Context
	Repo cmdutil.Repo
	List cmdutil.ListFlags
	JSON *cmdutil.JSONFlags
}

// NewCmdList is 'release list'.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "list [OWNER/REPO]",
		Short: "List a repository's releases, newest first",
		Example: `  forgego release list forgejo/forgejo
  forgego release list -R forgejo/forgejo --limit 5 --json tag_name,name,assets`,
		Aliases:           []string{"ls"},
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
			if err := opts.List.Check(); err != nil {
				return err
			}
			opts.Repo, opts.Ctx = r, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmdutil.AddListFlags(cmd, &opts.List, "releases")
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func listRun(opts *ListOptions) error {
	f, repo := opts.F, opts.Repo
	c, err := f.ClientFor(repo)
	if err != nil {
		return err
	}
	got, err := cmdutil.Collect(opts.Ctx, f, "releases", opts.List, func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.Release, *forgejo.Response, error) {
		return c.Repos.ListReleases(ctx, repo.Owner, repo.Name, &forgejo.RepoListReleasesOptions{ListOptions: lo})
	})
	if err != nil {
		return err
	}
	if opts.JSON.On() {
		return opts.JSON.Write(opts.Ctx, f.IOStreams, got.Items)
	}
	if len(got.Items) > 0 {
		rows := [][]string{{"TAG", "NAME", "TYPE", "PUBLISHED"}}
		for _, r := range got.Items {
			published := r.PublishedAt
			if published.IsZero() {
				published = r.CreatedAt
			}
			rows = append(rows, []string{r.TagName, cmdutil.Truncate(r.Name, 50), kind(r), cmdutil.Day(published)})
		}
		if err := cmdutil.Table(f.IOStreams, rows); err != nil {
			return err
		}
	}
	cmdutil.Summary(f, len(got.Items), got.Total, "releases", repo.FullName())
	return nil
}

// ViewOptions are 'release view' parsed.
type ViewOptions struct {
	F    *cmdutil.Factory
	Ctx  context.Context
	Repo cmdutil.Repo
	Tag  string // "" = the latest release
	JSON *cmdutil.JSONFlags
}

// NewCmdView is 'release view'.
func NewCmdView(f *cmdutil.Factory, runF func(*ViewOptions) error) *cobra.Command {
	opts := &ViewOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "view [OWNER/REPO] [TAG]",
		Short: "Show a release (the latest without TAG): notes and assets",
		Example: `  forgego release view forgejo/forgejo v11.0.1
  forgego release view -R forgejo/forgejo            # the latest release
  forgego release view -R forgejo/forgejo v11.0.1 --json tag_name,assets --jq ".assets[].name"`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			n := 1
			// No TAG: the latest. A lone argument with a slash is
			// OWNER/REPO; without one it is a TAG of the git remote's
			// repository.
			if len(args) == 0 || (repoFlag == "" && len(args) == 1 && strings.Contains(args[0], "/")) {
				n = 0
			}
			r, rest, err := f.BaseRepo(cmd, repoFlag, args, n)
			if err != nil {
				return err
			}
			opts.Repo, opts.Ctx, opts.Tag = r, cmd.Context(), ""
			if n == 1 {
				opts.Tag = rest[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return viewRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func viewRun(opts *ViewOptions) error {
	f, repo, ctx := opts.F, opts.Repo, opts.Ctx
	out := f.IOStreams.Out
	c, err := f.ClientFor(repo)
	if err != nil {
		return err
	}
	var r *forgejo.Release
	if opts.Tag == "" {
		r, _, err = c.Repos.GetLatestRelease(ctx, repo.Owner, repo.Name)
	} else {
		r, _, err = c.Repos.GetReleaseByTag(ctx, repo.Owner, repo.Name, opts.Tag)
	}
	if err != nil {
		return err
	}
	if opts.JSON.On() {
		return opts.JSON.Write(ctx, f.IOStreams, r)
	}
	title := r.Name
	if title == "" {
		title = r.TagName
	}
	fmt.Fprintf(out, "%s\n", title)
	rows := [][]string{{"  tag", r.TagName}}
	if k := kind(r); k != "" {
		rows = append(rows, []string{"  type", k})
	}
	rows = append(rows,
		[]string{"  author", shared.UserLogin(r.Author)},
		[]string{"  target", r.TargetCommitish},
		[]string{"  published", cmdutil.Day(r.PublishedAt)},
		[]string{"  url", r.HTMLURL},
	)
	fmt.Fprintln(out)
	if err := cmdutil.Table(f.IOStreams, rows); err != nil {
		return err
	}
	if body := strings.TrimSpace(r.Body); body != "" {
		fmt.Fprintf(out, "\n%s\n", body)
	}
	if len(r.Assets) > 0 {
		fmt.Fprintln(out, "\nASSETS")
		assets := [][]string{}
		for _, as := range r.Assets {
			if as != nil {
				assets = append(assets, []string{"  " + as.Name, shared.ByteSize(as.Size), strconv.FormatInt(as.DownloadCount, 10) + " downloads"})
			}
		}
		return cmdutil.Table(f.IOStreams, assets)
	}
	return nil
}
