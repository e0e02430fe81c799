package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"github.com/spf13/cobra"
)

// repoOnly is the repository of a command whose arguments are all its own
// (TAG FILE…, where a file name may hold a slash): -R, else the git remote.
func (a *app) repoOnly(cmd *cobra.Command) (owner, name string, err error) {
	owner, name, _, err = a.repoFrom(cmd, nil, 0)
	return owner, name, err
}

// uploadAssets uploads each file to release id, in order, and prints a line
// each on stderr.
func (a *app) uploadAssets(c *forgejo.Client, owner, name string, id int64, files []string) error {
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("opening the asset: %w", err)
		}
		st, err := f.Stat()
		if err == nil && !st.Mode().IsRegular() {
			err = fmt.Errorf("%s is not a regular file", path)
		}
		if err != nil {
			f.Close()
			return err
		}
		as, _, err := c.Repos.UploadReleaseAsset(a.ctx, owner, name, id, nil, &forgejo.Upload{Name: filepath.Base(path), Content: f, Size: st.Size()})
		f.Close()
		if err != nil {
			return err
		}
		fmt.Fprintf(a.stderr, "uploaded %s (%d bytes)\n", as.Name, as.Size)
	}
	return nil
}

// checkFiles refuses a missing file before anything is sent.
func checkFiles(files []string) error {
	for _, p := range files {
		st, err := os.Stat(p)
		if err != nil {
			return usagef("%s: no such file", p)
		}
		if !st.Mode().IsRegular() {
			return usagef("%s is not a regular file", p)
		}
	}
	return nil
}

func (a *app) releaseCreateCmd() *cobra.Command {
	var (
		title, notes, target string
		draft, prerelease    bool
	)
	cmd := &cobra.Command{
		Use:   "create TAG [FILE…] [--title T] [--notes N] [--draft] [--prerelease]",
		Short: "Publish a release (creating the tag when it does not exist) with assets",
		Long: `Create a release for TAG (the instance creates the tag from --target, default
the default branch, when it does not exist) and upload the FILEs as its
assets. The repository is -R's, else the git remote's.`,
		Example: `  forgego release create v1.2.0 --title "1.2.0" --notes "Fixes" dist/*.tar.gz
  forgego release create v1.3.0-rc1 --prerelease -R forgego/demo`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 || strings.TrimSpace(args[0]) == "" {
				return usagef("release create needs a TAG")
			}
			if err := checkFiles(args[1:]); err != nil {
				return err
			}
			owner, name, err := a.repoOnly(cmd)
			if err != nil {
				return err
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			rel, _, err := c.Repos.CreateRelease(a.ctx, owner, name, forgejo.CreateReleaseOption{
				TagName: args[0], Name: title, Body: notes, Draft: draft, Prerelease: prerelease, TargetCommitish: target,
			})
			if err != nil {
				return err
			}
			if err := a.uploadAssets(c, owner, name, rel.ID, args[1:]); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "created release %s in %s/%s: %s\n", rel.TagName, owner, name, rel.HTMLURL)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().StringVarP(&title, "title", "t", "", "the release's `TITLE` (default: the tag)")
	cmd.Flags().StringVarP(&notes, "notes", "n", "", "the release notes, `TEXT` in Markdown")
	cmd.Flags().StringVar(&target, "target", "", "the `BRANCH` or commit the new tag points at (default: the default branch)")
	cmd.Flags().BoolVarP(&draft, "draft", "d", false, "save as a draft, not published")
	cmd.Flags().BoolVarP(&prerelease, "prerelease", "p", false, "mark as a pre-release")
	return cmd
}

func (a *app) releaseUploadCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:               "upload TAG FILE…",
		Short:             "Add assets to a release",
		Example:           `  forgego release upload v1.2.0 dist/forgego-linux-amd64.tar.gz`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 {
				return usagef("release upload needs a TAG and one or more FILEs")
			}
			if err := checkFiles(args[1:]); err != nil {
				return err
			}
			owner, name, err := a.repoOnly(cmd)
			if err != nil {
				return err
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			rel, _, err := c.Repos.GetReleaseByTag(a.ctx, owner, name, args[0])
			if err != nil {
				return err
			}
			return a.uploadAssets(c, owner, name, rel.ID, args[1:])
		}),
	}
	a.addRepoFlag(cmd)
	return cmd
}

func (a *app) releaseDeleteCmd() *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:               "delete TAG --yes",
		Short:             "Delete a release (its git tag stays)",
		Example:           `  forgego release delete v1.2.0-rc1 --yes`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("release delete needs one TAG")
			}
			if !yes {
				return usagef("release delete removes the release and its assets: confirm with --yes")
			}
			owner, name, err := a.repoOnly(cmd)
			if err != nil {
				return err
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			if _, err := c.Repos.DeleteReleaseByTag(a.ctx, owner, name, args[0]); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "deleted release %s in %s/%s\n", args[0], owner, name)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "confirm the deletion")
	return cmd
}
