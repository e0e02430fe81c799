package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"github.com/spf13/cobra"
)

func (a *app) repoCreateCmd() *cobra.Command {
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
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("repo create needs one NAME or OWNER/NAME")
			}
			if private && public {
				return usagef("--private and --public cannot be used together")
			}
			for flag, v := range map[string]string{"gitignore": gitignore, "license": license, "default-branch": defaultBranch} {
				if cmd.Flags().Changed(flag) && strings.TrimSpace(v) == "" {
					return usagef("--%s needs a value", flag)
				}
			}
			owner, name, hasOwner := strings.Cut(args[0], "/")
			if !hasOwner {
				owner, name = "", args[0]
			}
			if !namePart.MatchString(name) || (hasOwner && !namePart.MatchString(owner)) {
				return usagef("repo create: %q is not NAME or OWNER/NAME", args[0])
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			opt := forgejo.CreateRepoRequest{Name: name, Private: private, Description: description,
				Gitignores: gitignore, License: license, DefaultBranch: defaultBranch}
			if addReadme || gitignore != "" || license != "" {
				// Forgejo writes .gitignore and LICENSE only into the
				// commit auto_init makes, and always with a README.
				opt.AutoInit, opt.Readme = true, "Default"
			}
			var r *forgejo.Repository
			if hasOwner {
				me, _, err := c.Users.GetCurrent(a.ctx)
				if err != nil {
					return err
				}
				if !strings.EqualFold(me.Login, owner) {
					r, _, err = c.Repos.CreateInOrg(a.ctx, owner, opt)
					if err != nil {
						return a.unknownTemplate(c, err, gitignore, license)
					}
				}
			}
			if r == nil {
				if r, _, err = c.Repos.Create(a.ctx, opt); err != nil {
					return a.unknownTemplate(c, err, gitignore, license)
				}
			}
			fmt.Fprintf(a.stdout, "created repository %s: %s\n", r.FullName, r.HTMLURL)
			return nil
		}),
	}
	cmd.Flags().BoolVar(&private, "private", false, "make the repository private")
	cmd.Flags().BoolVar(&public, "public", false, "make the repository public (the default)")
	cmd.Flags().StringVarP(&description, "description", "d", "", "the repository's `TEXT`")
	cmd.Flags().BoolVar(&addReadme, "add-readme", false, "start the repository with a README.md")
	cmd.Flags().StringVarP(&gitignore, "gitignore", "g", "", "start the repository with the instance's .gitignore `TEMPLATE` (such as Go)")
	cmd.Flags().StringVarP(&license, "license", "l", "", "start the repository with the instance's license `KEY` (such as MIT)")
	cmd.Flags().StringVar(&defaultBranch, "default-branch", "", "the default branch's `NAME` (default: the instance's)")
	_ = cmd.RegisterFlagCompletionFunc("gitignore", a.completeTemplates(func(ctx context.Context, c *forgejo.Client) ([]string, error) {
		names, _, err := c.Misc.ListGitignoreTemplates(ctx)
		return names, err
	}))
	_ = cmd.RegisterFlagCompletionFunc("license", a.completeTemplates(func(ctx context.Context, c *forgejo.Client) ([]string, error) {
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
func (a *app) unknownTemplate(c *forgejo.Client, err error, gitignore, license string) error {
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
			if _, _, lerr := c.Misc.GetGitignoreTemplate(a.ctx, name); missing(lerr) {
				return &prefixedError{prefix: fmt.Sprintf("the instance has no .gitignore template %q: ", name), err: err}
			}
		}
	}
	if license != "" {
		if _, _, lerr := c.Misc.GetLicenseTemplate(a.ctx, license); missing(lerr) {
			return &prefixedError{prefix: fmt.Sprintf("the instance has no license %q: ", license), err: err}
		}
	}
	return err
}

// completeTemplates completes a flag with the names list gives, asked of
// the instance the command would use: best effort, so an instance that is
// not configured, does not answer within a few seconds or refuses gives no
// candidates rather than an error.
func (a *app) completeTemplates(list func(context.Context, *forgejo.Client) ([]string, error)) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		c, err := a.connect()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ctx, cancel := context.WithTimeout(a.ctx, 3*time.Second)
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

func (a *app) repoForkCmd() *cobra.Command {
	var org, forkName string
	cmd := &cobra.Command{
		Use:   "fork [OWNER/REPO] [--org ORG] [--fork-name NAME]",
		Short: "Fork a repository (to your account, or an organization's)",
		Example: `  forgego repo fork forgejo/forgejo
  forgego repo fork -R forgego/demo --org my-org --fork-name demo-fork`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			owner, name, _, err := a.repoFrom(cmd, args, 0)
			if err != nil {
				return err
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			r, _, err := c.Repos.CreateFork(a.ctx, owner, name, forgejo.CreateForkRequest{Organization: org, Name: forkName})
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "forked %s/%s to %s: %s\n", owner, name, r.FullName, r.HTMLURL)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().StringVar(&org, "org", "", "fork into this `ORGANIZATION`")
	cmd.Flags().StringVar(&forkName, "fork-name", "", "the fork's `NAME` (default: the repository's)")
	return cmd
}

func (a *app) repoCloneCmd() *cobra.Command {
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
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usagef("repo clone needs OWNER/REPO and, optionally, a DIRECTORY")
			}
			owner, name, ok := strings.Cut(args[0], "/")
			if !ok || !namePart.MatchString(owner) || !namePart.MatchString(name) {
				return usagef("repo clone: %q is not OWNER/REPO", args[0])
			}
			dir := name
			if len(args) == 2 {
				dir = args[1]
			}
			if _, err := exec.LookPath("git"); err != nil {
				return errors.New("repo clone needs git, which is not installed (or not on PATH)")
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			r, _, err := c.Repos.Get(a.ctx, owner, name)
			if err != nil {
				return err
			}
			if err := a.checkCloneURL(c, owner, name, r.CloneURL); err != nil {
				return err
			}
			if err := a.gitFetch(a.dir, a.gitFetchEnv(r.CloneURL), "clone", "--quiet", "--no-recurse-submodules", "--", r.CloneURL, dir); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "cloned %s into %s\n", r.FullName, dir)
			return nil
		}),
	}
	return cmd
}
