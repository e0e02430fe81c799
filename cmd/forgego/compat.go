package main

import (
	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/shared"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

// The names the tests of package main use for what internal/cmdutil
// holds, and the factory's Git.

type (
	usageError = cmdutil.UsageError
	runError   = cmdutil.RunError
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
	groupRun   = cmdutil.GroupRun
	writeTable = cmdutil.WriteTable
	exitCode   = cmdutil.ExitCode
)

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

var (
	labelNames = shared.LabelNames
)
