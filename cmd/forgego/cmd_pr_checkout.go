package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

func (a *app) prCheckoutCmd() *cobra.Command {
	var branch string
	cmd := &cobra.Command{
		Use:   "checkout [OWNER/REPO] NUMBER [--branch NAME]",
		Short: "Check out a pull request's head in a local branch (with git)",
		Long: `Fetch the pull request's head (the instance's pull/NUMBER/head ref) and switch
to a local branch named after its head branch, or --branch NAME. A branch
that exists already is fast-forwarded, never overwritten; for a pull request
from a fork whose branch name is taken locally, name another with --branch.

It runs in the current directory, which must be a git clone. The fetch goes
to the git remote that names the repository, else to the repository's clone
URL with the token (see 'forgego repo clone --help' for how git gets it).`,
		Example: `  forgego pr checkout 7
  forgego pr checkout 7 --branch review-7`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			owner, name, n, err := a.prArgs(cmd, args)
			if err != nil {
				return err
			}
			if err := a.inGitRepo(a.dir); err != nil {
				return fmt.Errorf("pr checkout: %w", err)
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			pr, _, err := c.PullRequests.Get(a.ctx, owner, name, n)
			if err != nil {
				return err
			}
			// A name given with --branch that git refuses is a mistake on
			// the command line; the head branch's name is the server's
			// data, and its being unusable is a failure (exit 1).
			local := branch
			if local == "" {
				local = branchName(pr.Head)
				if local == "" {
					return fmt.Errorf("pull request #%d has no head branch name: name a branch with --branch", n)
				}
				if !a.plainBranchName(local) {
					return fmt.Errorf("pull request #%d's head branch %q is not a valid branch name: name one with --branch", n, local)
				}
			} else if !a.plainBranchName(local) {
				return usagef("pr checkout: %q is not a valid branch name", local)
			}
			fork := pr.Head != nil && pr.Base != nil && pr.Head.Repo != nil && pr.Base.Repo != nil && pr.Head.Repo.ID != pr.Base.Repo.ID
			_, existsErr := a.gitOutput(a.dir, "rev-parse", "--verify", "--quiet", "refs/heads/"+local)
			exists := existsErr == nil
			if exists && fork && branch == "" {
				return fmt.Errorf("a local branch %s exists already and pull request #%d comes from a fork: name another with --branch", local, n)
			}

			// From the remote that names the repository (with the user's
			// own credentials, and the token if the remote is on the
			// instance's origin), else from its clone URL.
			src, env := "", []string(nil)
			if rs, err := a.gitRemotes(); err == nil {
				for _, r := range rs {
					if strings.EqualFold(r.owner, owner) && strings.EqualFold(r.repo, name) && r.host == hostOnly(c.BaseURL()) {
						src = r.name
						if a.token != "" {
							// The header goes to the remote's URL when it
							// is on the instance's origin; redirects are
							// refused either way, since the header is in
							// git's configuration for this command.
							env = a.gitFetchEnv(r.fetchURL)
						}
						break
					}
				}
			}
			if src == "" {
				repo, _, err := c.Repos.Get(a.ctx, owner, name)
				if err != nil {
					return err
				}
				if err := a.checkCloneURL(c, owner, name, repo.CloneURL); err != nil {
					return err
				}
				src = repo.CloneURL
				env = a.gitFetchEnv(src)
			}
			ref := fmt.Sprintf("refs/pull/%d/head", n)
			if err := a.gitFetch(a.dir, env, "fetch", "--quiet", "--no-recurse-submodules", "--", src, ref); err != nil {
				return err
			}
			if exists {
				if err := a.git(a.dir, nil, "checkout", "--quiet", local); err != nil {
					return err
				}
				if err := a.git(a.dir, nil, "merge", "--quiet", "--ff-only", "FETCH_HEAD"); err != nil {
					return fmt.Errorf("the local branch %s has commits the pull request has not (%w); name another with --branch", local, err)
				}
			} else if err := a.git(a.dir, nil, "checkout", "--quiet", "-b", local, "FETCH_HEAD"); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "checked out pull request #%d of %s/%s in the branch %s\n", n, owner, name, local)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().StringVarP(&branch, "branch", "b", "", "the local branch's `NAME` (default: the pull request's head branch)")
	return cmd
}

// plainBranchName reports whether git takes name as a branch name as it
// is: not an option, valid for check-ref-format, and not a shorthand git
// would expand (@{-1}, the branch checked out before).
func (a *app) plainBranchName(name string) bool {
	if name == "" || strings.HasPrefix(name, "-") {
		return false
	}
	out, err := a.gitOutput(a.dir, "check-ref-format", "--branch", name)
	return err == nil && out == name
}
