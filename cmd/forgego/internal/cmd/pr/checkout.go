package pr

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// CheckoutOptions are 'pr checkout' parsed.
type CheckoutOptions struct {
	F      *cmdutil.Factory
	Ctx    context.Context
	Repo   cmdutil.Repo
	Number int64
	Branch string // "" = the head branch's name
}

// NewCmdCheckout is 'pr checkout'.
func NewCmdCheckout(f *cmdutil.Factory, runF func(*CheckoutOptions) error) *cobra.Command {
	opts := &CheckoutOptions{F: f}
	var repoFlag string
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
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			r, n, err := f.RepoNumber(cmd, repoFlag, args)
			if err != nil {
				return err
			}
			opts.Repo, opts.Number, opts.Ctx = r, n, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return checkoutRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().StringVarP(&opts.Branch, "branch", "b", "", "the local branch's `NAME` (default: the pull request's head branch)")
	return cmd
}

func checkoutRun(opts *CheckoutOptions) error {
	f, r, n, ctx := opts.F, opts.Repo, opts.Number, opts.Ctx
	git := f.Git()
	dir := git.Dir()
	if err := git.InRepo(dir); err != nil {
		return fmt.Errorf("pr checkout: %w", err)
	}
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	pr, _, err := c.PullRequests.Get(ctx, r.Owner, r.Name, n)
	if err != nil {
		return err
	}
	// A name given with --branch that git refuses is a mistake on the
	// command line; the head branch's name is the server's data, and its
	// being unusable is a failure (exit 1).
	local := opts.Branch
	if local == "" {
		local = branchName(pr.Head)
		if local == "" {
			return fmt.Errorf("pull request #%d has no head branch name: name a branch with --branch", n)
		}
		if !plainBranchName(git, local) {
			return fmt.Errorf("pull request #%d's head branch %q is not a valid branch name: name one with --branch", n, local)
		}
	} else if !plainBranchName(git, local) {
		return cmdutil.Usagef("pr checkout: %q is not a valid branch name", local)
	}
	fork := pr.Head != nil && pr.Base != nil && pr.Head.Repo != nil && pr.Base.Repo != nil && pr.Head.Repo.ID != pr.Base.Repo.ID
	_, existsErr := git.Output(dir, "rev-parse", "--verify", "--quiet", "refs/heads/"+local)
	exists := existsErr == nil
	if exists && fork && opts.Branch == "" {
		return fmt.Errorf("a local branch %s exists already and pull request #%d comes from a fork: name another with --branch", local, n)
	}

	// From the remote that names the repository (with the user's own
	// credentials, and the token if the remote is on the instance's
	// origin), else from its clone URL.
	src, env := "", []string(nil)
	if rs, err := git.Remotes(); err == nil {
		token, _ := f.Credentials()
		for _, rm := range rs {
			if strings.EqualFold(rm.Owner, r.Owner) && strings.EqualFold(rm.Repo, r.Name) && rm.Host == hostOnly(c.BaseURL()) {
				src = rm.Name
				if token != "" {
					// The header goes to the remote's URL when it is on
					// the instance's origin; redirects are refused either
					// way, since the header is in git's configuration for
					// this command.
					env = git.FetchEnv(rm.FetchURL)
				}
				break
			}
		}
	}
	if src == "" {
		repo, _, err := c.Repos.Get(ctx, r.Owner, r.Name)
		if err != nil {
			return err
		}
		if err := git.CheckCloneURL(c, r.Owner, r.Name, repo.CloneURL); err != nil {
			return err
		}
		src = repo.CloneURL
		env = git.FetchEnv(src)
	}
	ref := fmt.Sprintf("refs/pull/%d/head", n)
	if err := git.Fetch(dir, env, "fetch", "--quiet", "--no-recurse-submodules", "--", src, ref); err != nil {
		return err
	}
	if exists {
		if err := git.Run(dir, nil, "checkout", "--quiet", local); err != nil {
			return err
		}
		if err := git.Run(dir, nil, "merge", "--quiet", "--ff-only", "FETCH_HEAD"); err != nil {
			return fmt.Errorf("the local branch %s has commits the pull request has not (%w); name another with --branch", local, err)
		}
	} else if err := git.Run(dir, nil, "checkout", "--quiet", "-b", local, "FETCH_HEAD"); err != nil {
		return err
	}
	fmt.Fprintf(f.IOStreams.Out, "checked out pull request #%d of %s in the branch %s\n", n, r.FullName(), local)
	return nil
}

// plainBranchName reports whether git takes name as a branch name as it
// is: not an option, valid for check-ref-format, and not a shorthand git
// would expand (@{-1}, the branch checked out before).
func plainBranchName(git cmdutil.Git, name string) bool {
	if name == "" || strings.HasPrefix(name, "-") {
		return false
	}
	out, err := git.Output(git.Dir(), "check-ref-format", "--branch", name)
	return err == nil && out == name
}

// hostOnly is the lower-case host name of an instance's URL.
func hostOnly(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}
