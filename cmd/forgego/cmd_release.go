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

// releaseKind is "draft", "pre-release" or "".
func releaseKind(r *forgejo.Release) string {
	var k []string
	if r.Draft {
		k = append(k, "draft")
	}
	if r.Prerelease {
		k = append(k, "pre-release")
	}
	return strings.Join(k, ", ")
}

func (a *app) releaseCmd() *cobra.Command {
	cmd := groupCmd("release", "List, view, publish, download and delete releases")
	cmd.AddCommand(a.releaseListCmd(), a.releaseViewCmd(), a.releaseCreateCmd(), a.releaseUploadCmd(), a.releaseDownloadCmd(), a.releaseDeleteCmd())
	return cmd
}

func (a *app) releaseListCmd() *cobra.Command {
	var (
		lf listFlags
		jf jsonFlags
	)
	cmd := &cobra.Command{
		Use:   "list [OWNER/REPO]",
		Short: "List a repository's releases, newest first",
		Example: `  forgego release list forgejo/forgejo
  forgego release list -R forgejo/forgejo --limit 5 --json tag,name,assets`,
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
			c, err := a.connect()
			if err != nil {
				return err
			}
			got, err := collect(a, "releases", lf, func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.Release, *forgejo.Response, error) {
				return c.Repos.ListReleases(ctx, owner, name, &forgejo.RepoListReleasesOptions{ListOptions: lo})
			})
			if err != nil {
				return err
			}
			if jf.on() {
				return a.emit(&jf, got.Items)
			}
			if len(got.Items) > 0 {
				rows := [][]string{{"TAG", "NAME", "TYPE", "PUBLISHED"}}
				for _, r := range got.Items {
					published := r.PublishedAt
					if published.IsZero() {
						published = r.CreatedAt
					}
					rows = append(rows, []string{r.TagName, truncate(r.Name, 50), releaseKind(r), day(published)})
				}
				if err := a.table(rows); err != nil {
					return err
				}
			}
			a.summary(len(got.Items), got.Total, "releases", owner+"/"+name)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmdutil.AddListFlags(cmd, &lf, "releases")
	jf.register(cmd, releaseFields)
	return cmd
}

func (a *app) releaseViewCmd() *cobra.Command {
	var jf jsonFlags
	cmd := &cobra.Command{
		Use:   "view [OWNER/REPO] [TAG]",
		Short: "Show a release (the latest without TAG): notes and assets",
		Example: `  forgego release view forgejo/forgejo v11.0.1
  forgego release view -R forgejo/forgejo            # the latest release
  forgego release view -R forgejo/forgejo v11.0.1 --json tag,assets --jq ".assets[].name"`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if err := jf.check(); err != nil {
				return err
			}
			n := 1
			// No TAG: the latest. A lone argument with a slash is
			// OWNER/REPO; without one it is a TAG of the git remote's
			// repository.
			if len(args) == 0 || (a.repo == "" && len(args) == 1 && strings.Contains(args[0], "/")) {
				n = 0
			}
			owner, name, rest, err := a.repoFrom(cmd, args, n)
			if err != nil {
				return err
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			var r *forgejo.Release
			if n == 0 {
				r, _, err = c.Repos.GetLatestRelease(a.ctx, owner, name)
			} else {
				r, _, err = c.Repos.GetReleaseByTag(a.ctx, owner, name, rest[0])
			}
			if err != nil {
				return err
			}
			if jf.on() {
				return a.emit(&jf, r)
			}
			title := r.Name
			if title == "" {
				title = r.TagName
			}
			fmt.Fprintf(a.stdout, "%s\n", title)
			rows := [][]string{{"  tag", r.TagName}}
			if k := releaseKind(r); k != "" {
				rows = append(rows, []string{"  type", k})
			}
			rows = append(rows,
				[]string{"  author", userLogin(r.Author)},
				[]string{"  target", r.TargetCommitish},
				[]string{"  published", day(r.PublishedAt)},
				[]string{"  url", r.HTMLURL},
			)
			fmt.Fprintln(a.stdout)
			if err := a.table(rows); err != nil {
				return err
			}
			if body := strings.TrimSpace(r.Body); body != "" {
				fmt.Fprintf(a.stdout, "\n%s\n", body)
			}
			if len(r.Assets) > 0 {
				fmt.Fprintln(a.stdout, "\nASSETS")
				assets := [][]string{}
				for _, as := range r.Assets {
					if as != nil {
						assets = append(assets, []string{"  " + as.Name, byteSize(as.Size), strconv.FormatInt(as.DownloadCount, 10) + " downloads"})
					}
				}
				return a.table(assets)
			}
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	jf.register(cmd, releaseFields)
	return cmd
}

// byteSize renders a size for people: 512 B, 1.5 KiB, 12.0 MiB.
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
