package main

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"github.com/spf13/cobra"
)

func (a *app) repoCreateCmd() *cobra.Command {
	var (
		private, public bool
		description     string
	)
	cmd := &cobra.Command{
		Use:   "create [OWNER/]NAME [--private] [--description D]",
		Short: "Create a repository (yours, or an organization's with ORG/NAME)",
		Long: `Create an empty repository and print its URL: NAME is yours, ORG/NAME an
organization's. A failed create is never repeated: it could have been made
already.`,
		Example: `  forgego repo create tools --private --description "Scripts"
  forgego repo create my-org/website`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("repo create needs one NAME or OWNER/NAME")
			}
			if private && public {
				return usagef("--private and --public cannot be used together")
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
			opt := forgejo.CreateRepoOption{Name: name, Private: private, Description: description}
			var r *forgejo.Repository
			if hasOwner {
				me, _, err := c.Users.GetCurrent(a.ctx)
				if err != nil {
					return err
				}
				if !strings.EqualFold(me.Login, owner) {
					r, _, err = c.Repos.CreateInOrg(a.ctx, owner, opt)
					if err != nil {
						return err
					}
				}
			}
			if r == nil {
				if r, _, err = c.Repos.Create(a.ctx, opt); err != nil {
					return err
				}
			}
			fmt.Fprintf(a.stdout, "created repository %s: %s\n", r.FullName, r.HTMLURL)
			return nil
		}),
	}
	cmd.Flags().BoolVar(&private, "private", false, "make the repository private")
	cmd.Flags().BoolVar(&public, "public", false, "make the repository public (the default)")
	cmd.Flags().StringVarP(&description, "description", "d", "", "the repository's `TEXT`")
	return cmd
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
			r, _, err := c.Repos.CreateFork(a.ctx, owner, name, forgejo.CreateForkOption{Organization: org, Name: forkName})
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
