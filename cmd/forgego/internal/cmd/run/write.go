package run

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

// OneRunOptions are 'run cancel' and 'run delete' parsed.
type OneRunOptions struct {
	F     *cmdutil.Factory
	Ctx   context.Context
	Repo  cmdutil.Repo
	RunID int64
}

// NewCmdCancel is 'run cancel'.
func NewCmdCancel(f *cmdutil.Factory, runF func(*OneRunOptions) error) *cobra.Command {
	return oneRunCmd(f, runF, &cobra.Command{
		Use:   "cancel [OWNER/REPO] RUN",
		Short: "Cancel a workflow run (Forgejo 16 and later)",
		Long: `Cancel the jobs of the workflow run RUN that have not ended. A run that has
ended is not changed, and said so (exit 1). Served by Forgejo 16 and later.`,
		Example: `  forgego run cancel 42`,
	}, cancelRun)
}

// NewCmdDelete is 'run delete'.
func NewCmdDelete(f *cmdutil.Factory, runF func(*OneRunOptions) error) *cobra.Command {
	return oneRunCmd(f, runF, &cobra.Command{
		Use:     "delete [OWNER/REPO] RUN",
		Short:   "Delete a workflow run that has ended, with its logs and artifacts (Forgejo 16 and later)",
		Example: `  forgego run delete 42`,
	}, deleteRun)
}

func oneRunCmd(f *cmdutil.Factory, runF func(*OneRunOptions) error, cmd *cobra.Command, run func(*OneRunOptions) error) *cobra.Command {
	opts := &OneRunOptions{F: f}
	var repoFlag string
	cmd.Args = cobra.ArbitraryArgs
	cmd.ValidArgsFunction = cmdutil.NoFiles
	cmd.RunE = cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
		r, id, err := runArgs(cmd, f, repoFlag, args)
		if err != nil {
			return err
		}
		opts.Repo, opts.RunID, opts.Ctx = r, id, cmd.Context()
		if runF != nil {
			return runF(opts)
		}
		return run(opts)
	})
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	return cmd
}

func cancelRun(opts *OneRunOptions) error {
	f, r, ctx := opts.F, opts.Repo, opts.Ctx
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	run, _, err := c.Actions.GetRun(ctx, r.Owner, r.Name, opts.RunID)
	if err != nil {
		return err
	}
	if run.Status.Done() {
		return fmt.Errorf("run %d in %s has ended (%s): nothing to cancel", run.ID, r.FullName(), run.Outcome())
	}
	if _, err := c.Actions.CancelRun(ctx, r.Owner, r.Name, run.ID); err != nil {
		return err
	}
	fmt.Fprintf(f.IOStreams.Out, "cancelled run %d in %s\n", run.ID, r.FullName())
	return nil
}

func deleteRun(opts *OneRunOptions) error {
	f, r, ctx := opts.F, opts.Repo, opts.Ctx
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	if _, err := c.Actions.DeleteRun(ctx, r.Owner, r.Name, opts.RunID); err != nil {
		return err
	}
	fmt.Fprintf(f.IOStreams.Out, "deleted run %d in %s\n", opts.RunID, r.FullName())
	return nil
}

// DownloadOptions are 'run download' parsed.
type DownloadOptions struct {
	F        *cmdutil.Factory
	Ctx      context.Context
	Repo     cmdutil.Repo
	RunID    int64
	Names    []string
	Patterns []string
	Dir      string
	Clobber  bool
}

// NewCmdDownload is 'run download'.
func NewCmdDownload(f *cmdutil.Factory, runF func(*DownloadOptions) error) *cobra.Command {
	opts := &DownloadOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "download [OWNER/REPO] RUN [-n NAME]… [-p GLOB]… [-D DIRECTORY] [--clobber]",
		Short: "Download a workflow run's artifacts (Forgejo 16 and later)",
		Long: `Download the artifacts of the workflow run RUN (those named with -n, or
whose names match a --pattern glob, else all) into --dir (default: the
current directory), each as NAME.zip, the archive Forgejo serves; they are
not unpacked.

The rules of 'release download' hold: an artifact whose name is not a
plain file name is refused (nothing is written outside the directory), an
existing file is not overwritten without --clobber, every name is checked
before anything is downloaded, and each file is written whole or not at
all. Served by Forgejo 16 and later.`,
		Example: `  forgego run download 42
  forgego run download 42 -n dist -D out`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := shared.CheckGlobs(opts.Patterns); err != nil {
				return cmdutil.Usagef("%v", err)
			}
			if st, err := os.Stat(opts.Dir); err != nil || !st.IsDir() {
				return cmdutil.Usagef("--dir %s: no such directory", opts.Dir)
			}
			r, id, err := runArgs(cmd, f, repoFlag, args)
			if err != nil {
				return err
			}
			opts.Repo, opts.RunID, opts.Ctx = r, id, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return downloadRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().StringArrayVarP(&opts.Names, "name", "n", nil, "only the artifact with this `NAME` (repeatable)")
	cmd.Flags().StringArrayVarP(&opts.Patterns, "pattern", "p", nil, "only the artifacts whose names match this `GLOB` (repeatable)")
	cmd.Flags().StringVarP(&opts.Dir, "dir", "D", ".", "the `DIRECTORY` to write the artifacts into")
	cmd.Flags().BoolVar(&opts.Clobber, "clobber", false, "overwrite files that exist")
	return cmd
}

func (o *DownloadOptions) wants(name string) bool {
	if len(o.Names) == 0 && len(o.Patterns) == 0 {
		return true
	}
	for _, n := range o.Names {
		if n == name {
			return true
		}
	}
	return len(o.Patterns) > 0 && shared.MatchesAny(o.Patterns, name)
}

func downloadRun(opts *DownloadOptions) error {
	f, r, ctx, dir := opts.F, opts.Repo, opts.Ctx, opts.Dir
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	got, err := cmdutil.Collect(ctx, f, "artifacts", cmdutil.All, func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.ActionArtifact, *forgejo.Response, error) {
		return c.Actions.ListRunArtifacts(ctx, r.Owner, r.Name, opts.RunID, &forgejo.ActionListRunArtifactsOptions{ListOptions: lo})
	})
	if err != nil {
		return err
	}
	var picked []*forgejo.ActionArtifact
	found := map[string]bool{}
	for _, a := range got.Items {
		if a != nil && opts.wants(a.Name) {
			picked = append(picked, a)
			found[a.Name] = true
		}
	}
	for _, n := range opts.Names {
		if !found[n] {
			return fmt.Errorf("run %d has no artifact named %q", opts.RunID, n)
		}
	}
	if len(picked) == 0 {
		if len(opts.Patterns) > 0 {
			return fmt.Errorf("no artifact of run %d matches %s", opts.RunID, strings.Join(opts.Patterns, " or "))
		}
		return fmt.Errorf("run %d has no artifacts", opts.RunID)
	}
	for _, a := range picked {
		if a.Expired {
			return fmt.Errorf("the artifact %s of run %d has expired", a.Name, opts.RunID)
		}
		if !shared.SafeFileName(a.Name) {
			return fmt.Errorf("the artifact name %q is not a plain file name: refused, it would be written outside %s", a.Name, dir)
		}
		if err := shared.CheckTarget(dir, a.Name+".zip", "artifact", opts.Clobber); err != nil {
			return err
		}
	}
	for _, a := range picked {
		dst := filepath.Join(dir, a.Name+".zip")
		n, err := shared.WriteFile(dst, a.Name, opts.Clobber, -1, func(w io.Writer) (int64, error) {
			n, _, err := c.Actions.DownloadArtifactTo(ctx, r.Owner, r.Name, a.ID, w)
			return n, err
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(f.IOStreams.ErrOut, "downloaded %s (%d bytes)\n", dst, n)
	}
	return nil
}
