package repo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// CreateOptions are 'repo create' parsed.
type CreateOptions struct {
	F      *cmdutil.Factory
	Ctx    context.Context
	Owner  string // "" = the token's user
	Name   string
	Option forgejo.CreateRepoRequest
	JSON   *cmdutil.JSONFlags
}

// NewCmdCreate is 'repo create'.
func NewCmdCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{F: f}
	var (
		private, public, addReadme                     bool
		description, gitignore, license, defaultBranch string
	)
	cmd := &cobra.Command{
		Use:   "create [OWNER/]NAME [--private] [--description D] [--add-readme] [--gitignore T] [--license K]",
		Short: "Create a repository (yours, or an organization's with ORG/NAME)",
		Long: `Create a repository and print its URL: NAME is yours, ORG/NAME an
organization's. A failed create is never repeated: it could have been made
already.

Without --add-readme, --gitignore or --license the repository is empty: no
branch, no commit, nothing to open a pull request against until something
is pushed. With any of them the instance makes the first commit, "Initial
commit", on the default branch (the instance's default, or
--default-branch): README.md ("# NAME" and the description; Forgejo writes
it whenever it initializes a repository, so --gitignore or --license alone
adds it too), .gitignore from the instance's TEMPLATE (several may be given,
separated by commas) and LICENSE from its license KEY, such as MIT or
Apache-2.0. The names are the instance's own, case included: shell
completion lists them, as do 'forgego api /gitignore/templates' and
'forgego api /licenses'. Forgejo answers an unknown one with 500 and creates
nothing; forgego then says which name it does not know.`,
		Example: `  forgego repo create tools --private --description "Scripts"
  forgego repo create my-org/website
  forgego repo create notes --add-readme --gitignore Go --license MIT`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			if len(args) != 1 {
				return cmdutil.Usagef("repo create needs one NAME or OWNER/NAME")
			}
			if private && public {
				return cmdutil.Usagef("--private and --public cannot be used together")
			}
			for flag, v := range map[string]string{"gitignore": gitignore, "license": license, "default-branch": defaultBranch} {
				if cmd.Flags().Changed(flag) && strings.TrimSpace(v) == "" {
					return cmdutil.Usagef("--%s needs a value", flag)
				}
			}
			owner, name, hasOwner := strings.Cut(args[0], "/")
			if !hasOwner {
				owner, name = "", args[0]
			}
			if !namePart.MatchString(name) || (hasOwner && !namePart.MatchString(owner)) {
				return cmdutil.Usagef("repo create: %q is not NAME or OWNER/NAME", args[0])
			}
			opt := forgejo.CreateRepoRequest{Name: name, Private: private, Description: description,
				Gitignores: gitignore, License: license, DefaultBranch: defaultBranch}
			if addReadme || gitignore != "" || license != "" {
				// Forgejo writes .gitignore and LICENSE only into the
				// commit auto_init makes, and always with a README.
				opt.AutoInit, opt.Readme = true, "Default"
			}
			opts.Ctx, opts.Owner, opts.Name, opts.Option = cmd.Context(), owner, name, opt
			if runF != nil {
				return runF(opts)
			}
			ctx := opts.Ctx
			c, err := f.Client("")
			if err != nil {
				return err
			}
			var r *forgejo.Repository
			if hasOwner {
				me, _, err := c.Users.GetCurrent(ctx)
				if err != nil {
					return err
				}
				if !strings.EqualFold(me.Login, owner) {
					r, _, err = c.Repos.CreateInOrg(ctx, owner, opt)
					if err != nil {
						return unknownTemplate(ctx, c, err, gitignore, license)
					}
				}
			}
			if r == nil {
				if r, _, err = c.Repos.Create(ctx, opt); err != nil {
					return unknownTemplate(ctx, c, err, gitignore, license)
				}
			}
			if opts.JSON.On() {
				return opts.JSON.Write(ctx, f.IOStreams, r)
			}
			fmt.Fprintf(f.IOStreams.Out, "created repository %s: %s\n", r.FullName, r.HTMLURL)
			return nil
		}),
	}
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	cmd.Flags().BoolVar(&private, "private", false, "make the repository private")
	cmd.Flags().BoolVar(&public, "public", false, "make the repository public (the default)")
	cmd.Flags().StringVarP(&description, "description", "d", "", "the repository's `TEXT`")
	cmd.Flags().BoolVar(&addReadme, "add-readme", false, "start the repository with a README.md")
	cmd.Flags().StringVarP(&gitignore, "gitignore", "g", "", "start the repository with the instance's .gitignore `TEMPLATE` (such as Go)")
	cmd.Flags().StringVarP(&license, "license", "l", "", "start the repository with the instance's license `KEY` (such as MIT)")
	cmd.Flags().StringVar(&defaultBranch, "default-branch", "", "the default branch's `NAME` (default: the instance's)")
	_ = cmd.RegisterFlagCompletionFunc("gitignore", completeTemplates(f, func(ctx context.Context, c *forgejo.Client) ([]string, error) {
		names, _, err := c.Misc.ListGitignoreTemplates(ctx)
		return names, err
	}))
	_ = cmd.RegisterFlagCompletionFunc("license", completeTemplates(f, func(ctx context.Context, c *forgejo.Client) ([]string, error) {
		ls, _, err := c.Misc.ListLicenseTemplates(ctx)
		keys := make([]string, 0, len(ls))
		for _, l := range ls {
			if l != nil {
				keys = append(keys, l.Key)
			}
		}
		return keys, err
	}))
	return cmd
}

// unknownTemplate explains a failed create that named templates: Forgejo
// answers a .gitignore template or a license it does not have with 500 and
// an empty message (only a site administrator reads why), so each name is
// looked up, and the first one the instance answers 404 for is named before
// the create's own failure. Any other failure is returned as it is.
func unknownTemplate(ctx context.Context, c *forgejo.Client, err error, gitignore, license string) error {
	var ae *forgejo.APIError
	if gitignore == "" && license == "" || !errors.As(err, &ae) {
		return err
	}
	switch ae.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusConflict:
		return err
	}
	missing := func(lookupErr error) bool {
		var le *forgejo.APIError
		return errors.As(lookupErr, &le) && le.StatusCode == http.StatusNotFound
	}
	if gitignore != "" {
		for name := range strings.SplitSeq(gitignore, ",") {
			if _, _, lerr := c.Misc.GetGitignoreTemplate(ctx, name); missing(lerr) {
				return &cmdutil.PrefixedError{Prefix: fmt.Sprintf("the instance has no .gitignore template %q: ", name), Err: err}
			}
		}
	}
	if license != "" {
		if _, _, lerr := c.Misc.GetLicenseTemplate(ctx, license); missing(lerr) {
			return &cmdutil.PrefixedError{Prefix: fmt.Sprintf("the instance has no license %q: ", license), Err: err}
		}
	}
	return err
}

// completeTemplates completes a flag with the names list gives, asked of
// the instance the command would use: best effort, so an instance that is
// not configured, does not answer within a few seconds or refuses gives no
// candidates rather than an error.
func completeTemplates(f *cmdutil.Factory, list func(context.Context, *forgejo.Client) ([]string, error)) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		c, err := f.Client("")
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		parent := cmd.Context()
		if parent == nil {
			parent = context.Background()
		}
		ctx, cancel := context.WithTimeout(parent, 3*time.Second)
		defer cancel()
		names, err := list(ctx, c)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []string
		for _, n := range names {
			if strings.HasPrefix(strings.ToLower(n), strings.ToLower(toComplete)) {
				out = append(out, n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// ForkOptions are 'repo fork' parsed.
type ForkOptions struct {
	F            *cmdutil.Factory
	Ctx          context.Context
	Repo         cmdutil.Repo
	Organization string
	Name         string
	JSON         *cmdutil.JSONFlags
}

// NewCmdFork is 'repo fork'.
func NewCmdFork(f *cmdutil.Factory, runF func(*ForkOptions) error) *cobra.Command {
	opts := &ForkOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "fork [OWNER/REPO] [--org ORG] [--fork-name NAME]",
		Short: "Fork a repository (to your account, or an organization's)",
		Example: `  forgego repo fork forgejo/forgejo
  forgego repo fork -R forgego/demo --org my-org --fork-name demo-fork`,
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
			r, _, err := c.Repos.CreateFork(opts.Ctx, repo.Owner, repo.Name, forgejo.CreateForkRequest{Organization: opts.Organization, Name: opts.Name})
			if err != nil {
				return err
			}
			if opts.JSON.On() {
				return opts.JSON.Write(opts.Ctx, f.IOStreams, r)
			}
			fmt.Fprintf(f.IOStreams.Out, "forked %s to %s: %s\n", repo.FullName(), r.FullName, r.HTMLURL)
			return nil
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().StringVar(&opts.Organization, "org", "", "fork into this `ORGANIZATION`")
	cmd.Flags().StringVar(&opts.Name, "fork-name", "", "the fork's `NAME` (default: the repository's)")
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

// CloneOptions are 'repo clone' parsed.
type CloneOptions struct {
	F   *cmdutil.Factory
	Ctx context.Context
	// Repo is OWNER/REPO, never from the git remote.
	Repo cmdutil.Repo
	Dir  string
}

// NewCmdClone is 'repo clone'.
func NewCmdClone(f *cmdutil.Factory, runF func(*CloneOptions) error) *cobra.Command {
	opts := &CloneOptions{F: f}
	cmd := &cobra.Command{
		Use:   "clone OWNER/REPO [DIRECTORY]",
		Short: "Clone a repository with git (https, with the token when logged in)",
		Long: `Clone the repository's https clone URL with git into DIRECTORY (default: the
repository's name). The clone's origin is the plain clone URL, so that
'forgego' run inside the clone takes the repository from it.

With a token (FORGEJO_TOKEN, or the logged-in instance's), git is given it
as an HTTP header for the instance's URL only, through the configuration git
reads from its environment (GIT_CONFIG_COUNT/KEY/VALUE): never in git's
arguments (which ps shows), never in the remote URL saved in .git/config,
never printed. Later fetches and pushes use your own git credentials.

The clone URL must be on the instance's own origin (scheme, host and port
of --url), and git is told to follow no redirect: a redirect fails the
clone instead of taking the token elsewhere.`,
		Example: `  forgego repo clone forgejo/forgejo
  forgego repo clone forgego/demo demo-copy`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return cmdutil.Usagef("repo clone needs OWNER/REPO and, optionally, a DIRECTORY")
			}
			owner, name, ok := strings.Cut(args[0], "/")
			if !ok || !namePart.MatchString(owner) || !namePart.MatchString(name) {
				return cmdutil.Usagef("repo clone: %q is not OWNER/REPO", args[0])
			}
			dir := name
			if len(args) == 2 {
				dir = args[1]
			}
			opts.Ctx, opts.Repo, opts.Dir = cmd.Context(), cmdutil.Repo{Owner: owner, Name: name}, dir
			if runF != nil {
				return runF(opts)
			}
			if _, err := exec.LookPath("git"); err != nil {
				return errors.New("repo clone needs git, which is not installed (or not on PATH)")
			}
			c, err := f.Client("")
			if err != nil {
				return err
			}
			r, _, err := c.Repos.Get(opts.Ctx, owner, name)
			if err != nil {
				return err
			}
			git := f.Git()
			if err := git.CheckCloneURL(c, owner, name, r.CloneURL); err != nil {
				return err
			}
			if err := git.Fetch(git.Dir(), git.FetchEnv(r.CloneURL), "clone", "--quiet", "--no-recurse-submodules", "--", r.CloneURL, dir); err != nil {
				return err
			}
			fmt.Fprintf(f.IOStreams.Out, "cloned %s into %s\n", r.FullName, dir)
			return nil
		}),
	}
	return cmd
}

// namePart is what an owner's or a repository's name may be.
var namePart = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
