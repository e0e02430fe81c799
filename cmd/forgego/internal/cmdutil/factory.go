// Package cmdutil is what every command of forgego is built on: the
// Factory of the run's lazily built dependencies, the exit-code errors,
// the one JSON mechanism (AddJSONFlags) and the one walk of a listing
// (Collect).
package cmdutil

import (
	"fmt"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/config"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/iostreams"
	"github.com/spf13/cobra"
)

// Factory holds what a command needs from the run, each built when first
// asked for (package main makes it, app.go; flag tests make theirs with
// TestFactory). A command
// takes what it needs through these functions, and what they find is
// returned, never left in a field for another command to read.
type Factory struct {
	// IOStreams are the run's streams: every byte the program prints goes
	// through its Writers (the display rule, the masking).
	IOStreams *iostreams.IOStreams

	// Client returns the client, built on the first call: for the
	// instance named by --url or FORGEJO_URL, else host when not "" (the
	// logged-in instance a repository's git remote is on: Repo.Host),
	// else the configured default, with FORGEJO_TOKEN or the stored
	// token; or for the embedded demo server with --embedded.
	Client func(host string) (*forgejo.Client, error)

	// Instance is the instance the commands use without a repository
	// (--url, FORGEJO_URL, the configured default, codeberg.org), normalized.
	Instance func() (string, error)
	// NewClient is a client for another instance or token than Client's
	// (auth login and status check a token with it).
	NewClient func(base, token string) (*forgejo.Client, error)
	// Embedded is --embedded: the commands run against an in-process demo.
	Embedded func() bool
	// URLFlag is --url ("" without it).
	URLFlag func() string
	// Getenv reads the run's environment.
	Getenv func(string) string

	// Config is the configuration (hosts.json: a token per instance, the
	// default instance), read once; its tokens are masked from then on.
	Config func() (*config.Config, error)
	// SaveConfig writes the configuration, and Config returns it after.
	SaveConfig func(*config.Config) error

	// Remote is the repository of the git remote of the working
	// directory, with the logged-in instance it is on.
	Remote func() (Repo, error)

	// Credentials are the token the client was built with and its user
	// ("" before Client, or without a token): for git (clone, checkout)
	// and for downloads from the instance's host.
	Credentials func() (token, user string)

	// Git runs git for the commands that clone and fetch.
	Git func() Git

	// Progress is the run's progress line on stderr.
	Progress func() Progress
}

// ClientFor is the client for a command on repository r.
func (f *Factory) ClientFor(r Repo) (*forgejo.Client, error) { return f.Client(r.Host) }

// Progress is the one-line progress display of a long walk.
type Progress interface {
	Set(format string, args ...any)
	Done()
}

// Git runs git on behalf of a command, in the directory it works in.
type Git interface {
	// Dir is where git runs ("" = the working directory).
	Dir() string
	// Run runs git, its output shown on stderr.
	Run(dir string, env []string, args ...string) error
	// Output runs git and returns its standard output.
	Output(dir string, args ...string) (string, error)
	// Fetch runs a git command that fetches (clone, fetch), with env from
	// FetchEnv, explaining the failures people meet.
	Fetch(dir string, env []string, args ...string) error
	// FetchEnv is the environment of a git command fetching from target:
	// no redirects, no prompt, and the token's header when target is on
	// the instance.
	FetchEnv(target string) []string
	// InRepo fails when dir is not in a git repository.
	InRepo(dir string) error
	// CheckCloneURL refuses a clone URL that is not on the instance.
	CheckCloneURL(c *forgejo.Client, owner, name, cloneURL string) error
	// Remotes lists the fetch remotes of the repository in Dir that name
	// a repository, in git's order.
	Remotes() ([]Remote, error)
}

// Remote is a git remote that names a repository on an instance.
type Remote struct {
	Name     string // origin
	FetchURL string // as git has it
	Host     string // the host name, lower case
	Owner    string
	Repo     string
}

// Repo is a repository: OWNER/NAME, and the logged-in instance it was
// found on when it came from a git remote ("" otherwise).
type Repo struct {
	Owner, Name string
	Host        string
}

// FullName is OWNER/NAME.
func (r Repo) FullName() string { return r.Owner + "/" + r.Name }

// ParseRepo reads OWNER/REPO.
func ParseRepo(s string) (Repo, bool) {
	owner, name, ok := strings.Cut(s, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return Repo{}, false
	}
	return Repo{Owner: owner, Name: name}, true
}

// AddRepoFlag gives cmd -R/--repo.
func AddRepoFlag(cmd *cobra.Command, repo *string) {
	cmd.Flags().StringVarP(repo, "repo", "R", "", "the repository as `OWNER/REPO`, instead of the first argument (default: from the git remote)")
}

// BaseRepo reads the repository a command works on: from -R (flag), or,
// without it, from the first positional argument, or, when there are only
// the n other arguments, from the git remote of the current directory
// (Remote); it checks that n other arguments remain and returns them.
func (f *Factory) BaseRepo(cmd *cobra.Command, flag string, args []string, n int) (Repo, []string, error) {
	src := flag
	if src != "" {
		if len(args) != n {
			if len(args) == n+1 && strings.Contains(args[0], "/") {
				return Repo{}, nil, Usagef("%s: OWNER/REPO given twice, as an argument and with -R", cmd.CommandPath())
			}
			return Repo{}, nil, Usagef("%s takes %s", cmd.CommandPath(), Plural(n, "argument")+" besides -R")
		}
	} else {
		if len(args) != n+1 {
			if len(args) == n {
				r, err := f.Remote()
				if err != nil {
					return Repo{}, nil, Usagef("%s needs OWNER/REPO: as an argument, with -R, or from the git remote of the current directory (%v)", cmd.CommandPath(), err)
				}
				return r, args, nil
			}
			return Repo{}, nil, Usagef("%s takes OWNER/REPO and %s, not %d", cmd.CommandPath(), Plural(n, "argument"), len(args))
		}
		src, args = args[0], args[1:]
	}
	r, ok := ParseRepo(src)
	if !ok {
		return Repo{}, nil, Usagef("%s: %q is not OWNER/REPO", cmd.CommandPath(), src)
	}
	return r, args, nil
}

// RepoNumber reads [OWNER/REPO] NUMBER.
func (f *Factory) RepoNumber(cmd *cobra.Command, flag string, args []string) (Repo, int64, error) {
	r, rest, err := f.BaseRepo(cmd, flag, args, 1)
	if err != nil {
		return Repo{}, 0, err
	}
	n, err := ParseNumber(cmd, rest[0])
	return r, n, err
}

// String is for %v in tests.
func (r Repo) String() string { return fmt.Sprintf("%s/%s", r.Owner, r.Name) }
