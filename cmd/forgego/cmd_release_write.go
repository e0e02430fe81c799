package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
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
		as, _, err := c.Repos.UploadReleaseAsset(a.ctx, owner, name, id, nil, forgejo.Upload{Name: filepath.Base(path), Content: f, Size: st.Size()})
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

func (a *app) releaseDownloadCmd() *cobra.Command {
	var (
		patterns []string
		dir      string
		clobber  bool
	)
	cmd := &cobra.Command{
		Use:   "download [TAG] [--pattern GLOB]… [--dir DIRECTORY] [--clobber]",
		Short: "Download a release's assets",
		Long: `Download the assets of the release TAG, or without TAG of the latest release
(those whose names match one of the --pattern globs, else all) into --dir
(default: the current directory).

An asset whose name is not a plain file name (a path, "..", an absolute
name) is refused: nothing is written outside the directory. An existing
file is not overwritten without --clobber, and every name is checked before
anything is downloaded. Each file is written whole or not at all. The token
is sent with a download only when the asset is on the instance's own host.`,
		Example: `  forgego release download v1.2.0
  forgego release download v1.2.0 --pattern '*.tar.gz' --dir dist`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("release download takes one TAG (or none: the latest release)")
			}
			for _, p := range patterns {
				if _, err := path.Match(p, ""); err != nil {
					return usagef("--pattern %q is not a glob such as '*.tar.gz'", p)
				}
			}
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				return usagef("--dir %s: no such directory", dir)
			}
			owner, name, err := a.repoOnly(cmd)
			if err != nil {
				return err
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			var rel *forgejo.Release
			if len(args) == 1 {
				rel, _, err = c.Repos.GetReleaseByTag(a.ctx, owner, name, args[0])
			} else {
				rel, _, err = c.Repos.GetLatestRelease(a.ctx, owner, name)
			}
			if err != nil {
				return err
			}
			var picked []*forgejo.Attachment
			for _, as := range rel.Assets {
				if as != nil && matchesAny(patterns, as.Name) {
					picked = append(picked, as)
				}
			}
			if len(picked) == 0 {
				if len(patterns) > 0 {
					return fmt.Errorf("no asset of %s matches %s", rel.TagName, strings.Join(patterns, " or "))
				}
				return fmt.Errorf("the release %s has no assets", rel.TagName)
			}
			for _, as := range picked {
				if !safeFileName(as.Name) {
					return fmt.Errorf("the asset name %q is not a plain file name: refused, it would be written outside %s", as.Name, dir)
				}
				if _, err := os.Lstat(filepath.Join(dir, as.Name)); err == nil && !clobber {
					return fmt.Errorf("%s exists: not overwritten without --clobber", filepath.Join(dir, as.Name))
				}
			}
			for _, as := range picked {
				n, err := a.downloadAsset(as, filepath.Join(dir, as.Name), clobber)
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stderr, "downloaded %s (%d bytes)\n", filepath.Join(dir, as.Name), n)
			}
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().StringArrayVarP(&patterns, "pattern", "p", nil, "only the assets whose names match this `GLOB` (repeatable)")
	cmd.Flags().StringVarP(&dir, "dir", "D", ".", "the `DIRECTORY` to write the assets into")
	cmd.Flags().BoolVar(&clobber, "clobber", false, "overwrite files that exist")
	return cmd
}

func matchesAny(patterns []string, name string) bool {
	if len(patterns) == 0 {
		return true
	}
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// safeFileName reports whether an asset name, which the instance chose, is
// a plain file name: no directory part on any system, not . or .., not
// hidden tricks such as a drive letter or a NUL.
func safeFileName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, "/\\:\x00") &&
		filepath.IsLocal(name) && filepath.Base(name) == name
}

// downloadAsset fetches an asset's file (its browser_download_url, through
// the client: retried, paced, the token only to the instance) into dst:
// into a temporary file beside it, renamed over dst when complete (with
// clobber), or linked to dst, which fails if dst appeared meanwhile
// (without).
func (a *app) downloadAsset(as *forgejo.Attachment, dst string, clobber bool) (int64, error) {
	body, resp, err := a.client.OpenAttachment(a.ctx, as)
	if err != nil {
		return 0, fmt.Errorf("the asset %s: %w", as.Name, err)
	}
	defer body.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".forgego-download-*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name()) // after a rename or a link, only the temporary name goes
	n, err := io.Copy(tmp, body)
	if want := resp.ContentLength; err == nil && want >= 0 && n != want {
		err = fmt.Errorf("got %d of %d bytes", n, want)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("downloading %s: %w", as.Name, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return 0, err
	}
	if clobber {
		err = os.Rename(tmp.Name(), dst)
	} else if err = os.Link(tmp.Name(), dst); errors.Is(err, fs.ErrExist) {
		err = fmt.Errorf("%s exists: not overwritten without --clobber", dst)
	}
	return n, err
}
