package release

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/shared"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// CreateOptions are 'release create' parsed.
type CreateOptions struct {
	F          *cmdutil.Factory
	Ctx        context.Context
	Repo       cmdutil.Repo
	Tag        string
	Files      []string
	Title      string
	Notes      string
	Target     string
	Draft      bool
	Prerelease bool
	JSON       *cmdutil.JSONFlags
}

// NewCmdCreate is 'release create'.
func NewCmdCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "create TAG [FILE…] [--title T] [--notes N] [--draft] [--prerelease]",
		Short: "Publish a release (creating the tag when it does not exist) with assets",
		Long: `Create a release for TAG (the instance creates the tag from --target, default
the default branch, when it does not exist) and upload the FILEs as its
assets. The repository is -R's, else the git remote's. With --json FIELDS,
the release is printed as JSON.`,
		Example: `  forgego release create v1.2.0 --title "1.2.0" --notes "Fixes" dist/*.tar.gz
  forgego release create v1.3.0-rc1 --prerelease -R forgego/demo --json html_url --jq .html_url`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			if len(args) == 0 || strings.TrimSpace(args[0]) == "" {
				return cmdutil.Usagef("release create needs a TAG")
			}
			if err := checkFiles(args[1:]); err != nil {
				return err
			}
			r, err := repoOnly(f, cmd, repoFlag)
			if err != nil {
				return err
			}
			opts.Repo, opts.Ctx, opts.Tag, opts.Files = r, cmd.Context(), args[0], args[1:]
			if runF != nil {
				return runF(opts)
			}
			return createRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().StringVarP(&opts.Title, "title", "t", "", "the release's `TITLE` (default: the tag)")
	cmd.Flags().StringVarP(&opts.Notes, "notes", "n", "", "the release notes, `TEXT` in Markdown")
	cmd.Flags().StringVar(&opts.Target, "target", "", "the `BRANCH` or commit the new tag points at (default: the default branch)")
	cmd.Flags().BoolVarP(&opts.Draft, "draft", "d", false, "save as a draft, not published")
	cmd.Flags().BoolVarP(&opts.Prerelease, "prerelease", "p", false, "mark as a pre-release")
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func createRun(opts *CreateOptions) error {
	f, r, ctx := opts.F, opts.Repo, opts.Ctx
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	rel, _, err := c.Repos.CreateRelease(ctx, r.Owner, r.Name, forgejo.CreateReleaseRequest{
		TagName: opts.Tag, Name: opts.Title, Body: opts.Notes, Draft: opts.Draft, Prerelease: opts.Prerelease, TargetCommitish: opts.Target,
	})
	if err != nil {
		return err
	}
	if err := uploadAssets(ctx, f, c, r, rel.ID, opts.Files); err != nil {
		return err
	}
	if opts.JSON.On() {
		if len(opts.Files) > 0 {
			// The assets the uploads added.
			if got, _, err := c.Repos.GetRelease(ctx, r.Owner, r.Name, rel.ID); err == nil {
				rel = got
			}
		}
		return opts.JSON.Write(ctx, f.IOStreams, rel)
	}
	fmt.Fprintf(f.IOStreams.Out, "created release %s in %s: %s\n", rel.TagName, r.FullName(), rel.HTMLURL)
	return nil
}

// UploadOptions are 'release upload' parsed.
type UploadOptions struct {
	F     *cmdutil.Factory
	Ctx   context.Context
	Repo  cmdutil.Repo
	Tag   string
	Files []string
}

// NewCmdUpload is 'release upload'.
func NewCmdUpload(f *cmdutil.Factory, runF func(*UploadOptions) error) *cobra.Command {
	opts := &UploadOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:               "upload TAG FILE…",
		Short:             "Add assets to a release",
		Example:           `  forgego release upload v1.2.0 dist/forgego-linux-amd64.tar.gz`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 {
				return cmdutil.Usagef("release upload needs a TAG and one or more FILEs")
			}
			if err := checkFiles(args[1:]); err != nil {
				return err
			}
			r, err := repoOnly(f, cmd, repoFlag)
			if err != nil {
				return err
			}
			opts.Repo, opts.Ctx, opts.Tag, opts.Files = r, cmd.Context(), args[0], args[1:]
			if runF != nil {
				return runF(opts)
			}
			c, err := f.ClientFor(r)
			if err != nil {
				return err
			}
			rel, _, err := c.Repos.GetReleaseByTag(opts.Ctx, r.Owner, r.Name, opts.Tag)
			if err != nil {
				return err
			}
			return uploadAssets(opts.Ctx, f, c, r, rel.ID, opts.Files)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	return cmd
}

// DeleteOptions are 'release delete' parsed.
type DeleteOptions struct {
	F    *cmdutil.Factory
	Ctx  context.Context
	Repo cmdutil.Repo
	Tag  string
	Yes  bool
}

// NewCmdDelete is 'release delete'.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:               "delete TAG --yes",
		Short:             "Delete a release (its git tag stays)",
		Example:           `  forgego release delete v1.2.0-rc1 --yes`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return cmdutil.Usagef("release delete needs one TAG")
			}
			if !opts.Yes {
				return cmdutil.Usagef("release delete removes the release and its assets: confirm with --yes")
			}
			r, err := repoOnly(f, cmd, repoFlag)
			if err != nil {
				return err
			}
			opts.Repo, opts.Ctx, opts.Tag = r, cmd.Context(), args[0]
			if runF != nil {
				return runF(opts)
			}
			c, err := f.ClientFor(r)
			if err != nil {
				return err
			}
			if _, err := c.Repos.DeleteReleaseByTag(opts.Ctx, r.Owner, r.Name, opts.Tag); err != nil {
				return err
			}
			fmt.Fprintf(f.IOStreams.Out, "deleted release %s in %s\n", opts.Tag, r.FullName())
			return nil
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "confirm the deletion")
	return cmd
}

// DownloadOptions are 'release download' parsed.
type DownloadOptions struct {
	F        *cmdutil.Factory
	Ctx      context.Context
	Repo     cmdutil.Repo
	Tag      string // "" = the latest release
	Patterns []string
	Dir      string
	Clobber  bool
}

// NewCmdDownload is 'release download'.
func NewCmdDownload(f *cmdutil.Factory, runF func(*DownloadOptions) error) *cobra.Command {
	opts := &DownloadOptions{F: f}
	var repoFlag string
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
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return cmdutil.Usagef("release download takes one TAG (or none: the latest release)")
			}
			if err := shared.CheckGlobs(opts.Patterns); err != nil {
				return cmdutil.Usagef("%v", err)
			}
			if st, err := os.Stat(opts.Dir); err != nil || !st.IsDir() {
				return cmdutil.Usagef("--dir %s: no such directory", opts.Dir)
			}
			r, err := repoOnly(f, cmd, repoFlag)
			if err != nil {
				return err
			}
			opts.Repo, opts.Ctx, opts.Tag = r, cmd.Context(), ""
			if len(args) == 1 {
				opts.Tag = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return downloadRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().StringArrayVarP(&opts.Patterns, "pattern", "p", nil, "only the assets whose names match this `GLOB` (repeatable)")
	cmd.Flags().StringVarP(&opts.Dir, "dir", "D", ".", "the `DIRECTORY` to write the assets into")
	cmd.Flags().BoolVar(&opts.Clobber, "clobber", false, "overwrite files that exist")
	return cmd
}

func downloadRun(opts *DownloadOptions) error {
	f, r, ctx, dir := opts.F, opts.Repo, opts.Ctx, opts.Dir
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	var rel *forgejo.Release
	if opts.Tag != "" {
		rel, _, err = c.Repos.GetReleaseByTag(ctx, r.Owner, r.Name, opts.Tag)
	} else {
		rel, _, err = c.Repos.GetLatestRelease(ctx, r.Owner, r.Name)
	}
	if err != nil {
		return err
	}
	var picked []*forgejo.Attachment
	for _, as := range rel.Assets {
		if as != nil && shared.MatchesAny(opts.Patterns, as.Name) {
			picked = append(picked, as)
		}
	}
	if len(picked) == 0 {
		if len(opts.Patterns) > 0 {
			return fmt.Errorf("no asset of %s matches %s", rel.TagName, strings.Join(opts.Patterns, " or "))
		}
		return fmt.Errorf("the release %s has no assets", rel.TagName)
	}
	for _, as := range picked {
		if err := shared.CheckTarget(dir, as.Name, "asset", opts.Clobber); err != nil {
			return err
		}
	}
	for _, as := range picked {
		n, err := downloadAsset(ctx, c, as, filepath.Join(dir, as.Name), opts.Clobber)
		if err != nil {
			return err
		}
		fmt.Fprintf(f.IOStreams.ErrOut, "downloaded %s (%d bytes)\n", filepath.Join(dir, as.Name), n)
	}
	return nil
}

// downloadAsset fetches an asset's file (its browser_download_url, through
// the client: retried, paced, the token only to the instance) into dst,
// whole or not at all (shared.WriteFile).
func downloadAsset(ctx context.Context, c *forgejo.Client, as *forgejo.Attachment, dst string, clobber bool) (int64, error) {
	body, resp, err := c.OpenAttachment(ctx, as)
	if err != nil {
		return 0, fmt.Errorf("the asset %s: %w", as.Name, err)
	}
	defer body.Close()
	return shared.WriteFile(dst, as.Name, clobber, resp.ContentLength, func(w io.Writer) (int64, error) { return io.Copy(w, body) })
}
