// Package release is 'forgego release': list, view, create, upload,
// download and delete.
package release

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// Fields are the --json fields of the commands that print releases: the
// CLI's contract, written out (cmdutil.Field).
var Fields = cmdutil.Fields(&forgejo.Release{},
	"archive_download_count", "assets", "author", "body", "created_at", "draft",
	"hide_archive_links", "html_url", "id", "name", "prerelease", "published_at", "tag_name",
	"tarball_url", "target_commitish", "upload_url", "url", "zipball_url",
)

// NewCmdRelease is the 'release' group.
func NewCmdRelease(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.GroupCmd("release", "List, view, publish, download and delete releases")
	cmd.AddCommand(NewCmdList(f, nil), NewCmdView(f, nil), NewCmdCreate(f, nil), NewCmdUpload(f, nil), NewCmdDownload(f, nil), NewCmdDelete(f, nil))
	return cmd
}

// kind is "draft", "pre-release" or "".
func kind(r *forgejo.Release) string {
	var k []string
	if r.Draft {
		k = append(k, "draft")
	}
	if r.Prerelease {
		k = append(k, "pre-release")
	}
	return strings.Join(k, ", ")
}

// repoOnly is the repository of a command whose arguments are all its own
// (TAG FILE…, where a file name may hold a slash): -R, else the git remote.
func repoOnly(f *cmdutil.Factory, cmd *cobra.Command, flag string) (cmdutil.Repo, error) {
	r, _, err := f.BaseRepo(cmd, flag, nil, 0)
	return r, err
}

// uploadAssets uploads each file to release id, in order, and prints a line
// each on stderr.
func uploadAssets(ctx context.Context, f *cmdutil.Factory, c *forgejo.Client, r cmdutil.Repo, id int64, files []string) error {
	for _, path := range files {
		fh, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("opening the asset: %w", err)
		}
		st, err := fh.Stat()
		if err == nil && !st.Mode().IsRegular() {
			err = fmt.Errorf("%s is not a regular file", path)
		}
		if err != nil {
			fh.Close()
			return err
		}
		as, _, err := c.Repos.UploadReleaseAsset(ctx, r.Owner, r.Name, id, nil, forgejo.Upload{Name: filepath.Base(path), Content: fh, Size: st.Size()})
		fh.Close()
		if err != nil {
			return err
		}
		fmt.Fprintf(f.IOStreams.ErrOut, "uploaded %s (%d bytes)\n", as.Name, as.Size)
	}
	return nil
}

// checkFiles refuses a missing file before anything is sent.
func checkFiles(files []string) error {
	for _, p := range files {
		st, err := os.Stat(p)
		if err != nil {
			return cmdutil.Usagef("%s: no such file", p)
		}
		if !st.Mode().IsRegular() {
			return cmdutil.Usagef("%s is not a regular file", p)
		}
	}
	return nil
}
