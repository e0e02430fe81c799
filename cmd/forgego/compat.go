package main

import (
	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/shared"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// The names the command groups still in package main use for what
// internal/cmdutil now holds. They go with the last of those groups.

type (
	usageError       = cmdutil.UsageError
	runError         = cmdutil.RunError
	authMissingError = cmdutil.AuthMissingError
	prefixedError    = cmdutil.PrefixedError
	listFlags        = cmdutil.ListFlags
)

const (
	exitOK        = cmdutil.ExitOK
	exitFailure   = cmdutil.ExitFailure
	exitUsage     = cmdutil.ExitUsage
	exitAuth      = cmdutil.ExitAuth
	exitInterrupt = cmdutil.ExitInterrupt
)

var (
	usagef     = cmdutil.Usagef
	runE       = cmdutil.RunE
	groupCmd   = cmdutil.GroupCmd
	groupRun   = cmdutil.GroupRun
	describe   = cmdutil.Describe
	oneLine    = cmdutil.OneLine
	plural     = cmdutil.Plural
	truncate   = cmdutil.Truncate
	day        = cmdutil.Day
	noFiles    = cmdutil.NoFiles
	stateFlag  = cmdutil.AddStateFlag
	checkState = cmdutil.CheckState
	stateWhat  = cmdutil.StateWhat
	writeTable = cmdutil.WriteTable
	exitCode   = cmdutil.ExitCode
	noArgs     = cmdutil.NoArgs
	version    = cmdutil.Version
)

func parseNumber(cmd *cobra.Command, s string) (int64, error) { return cmdutil.ParseNumber(cmd, s) }

// jsonFlags is cmdutil.JSONFlags as the groups in package main register it.
type jsonFlags struct{ *cmdutil.JSONFlags }

func (j *jsonFlags) register(cmd *cobra.Command, fields []cmdutil.Field) {
	j.JSONFlags = cmdutil.AddJSONFlags(cmd, fields)
}
func (j *jsonFlags) check() error { return j.Check() }
func (j *jsonFlags) on() bool     { return j.On() }

func (a *app) emit(j *jsonFlags, v any) error { return j.Write(a.ctx, a.f.IOStreams, v) }

func collect[T any](a *app, noun string, lf listFlags, fetch forgejo.PageFunc[T]) (cmdutil.Listing[T], error) {
	return cmdutil.Collect(a.ctx, a.f, noun, lf, fetch)
}

func collectWhere[T any](a *app, noun string, lf listFlags, fetch forgejo.PageFunc[T], keep func(T) bool) (cmdutil.Listing[T], error) {
	return cmdutil.Collect(a.ctx, a.f, noun, lf, fetch, cmdutil.Where(keep))
}

func collectFrom[T any](a *app, noun string, lf listFlags, start forgejo.ListOptions, fetch forgejo.PageFunc[T]) (cmdutil.Listing[T], error) {
	return cmdutil.Collect(a.ctx, a.f, noun, lf, fetch, cmdutil.From[T](start))
}

func (a *app) summary(shown, total int, what, where string) {
	cmdutil.Summary(a.f, shown, total, what, where)
}

// gitRunner is the factory's Git.
type gitRunner struct{ a *app }

func (g gitRunner) Dir() string { return g.a.dir }
func (g gitRunner) Run(dir string, env []string, args ...string) error {
	return g.a.git(dir, env, args...)
}
func (g gitRunner) Output(dir string, args ...string) (string, error) {
	return g.a.gitOutput(dir, args...)
}
func (g gitRunner) Fetch(dir string, env []string, args ...string) error {
	return g.a.gitFetch(dir, env, args...)
}
func (g gitRunner) FetchEnv(target string) []string { return g.a.gitFetchEnv(target) }
func (g gitRunner) InRepo(dir string) error         { return g.a.inGitRepo(dir) }
func (g gitRunner) Remotes() ([]cmdutil.Remote, error) {
	rs, err := g.a.gitRemotes()
	out := make([]cmdutil.Remote, len(rs))
	for i, r := range rs {
		out[i] = cmdutil.Remote{Name: r.name, FetchURL: r.fetchURL, Host: r.host, Owner: r.owner, Repo: r.repo}
	}
	return out, err
}
func (g gitRunner) CheckCloneURL(c *forgejo.Client, owner, name, cloneURL string) error {
	return g.a.checkCloneURL(c, owner, name, cloneURL)
}

// remoteRepo is f.Remote as OWNER and REPO.
func (a *app) remoteRepo() (owner, repo string, err error) {
	r, err := a.f.Remote()
	return r.Owner, r.Name, err
}

var (
	labelNames = shared.LabelNames
	userLogin  = shared.UserLogin
)

// labelIDs is shared.LabelIDs for the groups still in package main.
func (a *app) labelIDs(c *forgejo.Client, owner, name string, names []string) ([]int64, error) {
	return shared.LabelIDs(a.ctx, a.f, c, cmdutil.Repo{Owner: owner, Name: name}, names)
}

// issueArgs reads [OWNER/REPO] NUMBER (OWNER/REPO from -R or the git
// remote when left out).
func (a *app) issueArgs(cmd *cobra.Command, args []string) (owner, name string, n int64, err error) {
	owner, name, rest, err := a.repoFrom(cmd, args, 1)
	if err != nil {
		return "", "", 0, err
	}
	n, err = parseNumber(cmd, rest[0])
	return owner, name, n, err
}
