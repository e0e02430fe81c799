package shared

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// Scope is where an Actions secret or variable lives: a repository (-R,
// else the git remote), an organization (--org) or the user of the token
// (--user).
type Scope struct {
	Repo cmdutil.Repo // set for a repository
	Org  string       // set for an organization
	User bool         // the token's user
}

// String names the scope for people: "alice/proj", "the organization
// acme", "your account".
func (s Scope) String() string {
	switch {
	case s.Org != "":
		return "the organization " + s.Org
	case s.User:
		return "your account"
	}
	return s.Repo.FullName()
}

// ScopeFlags are --org and --user.
type ScopeFlags struct {
	repo string
	org  string
	user bool
}

// AddScopeFlags gives cmd -R/--repo, -o/--org and -u/--user.
func AddScopeFlags(cmd *cobra.Command, noun string) *ScopeFlags {
	s := &ScopeFlags{}
	cmdutil.AddRepoFlag(cmd, &s.repo)
	cmd.Flags().StringVarP(&s.org, "org", "o", "", "the "+noun+" of the organization `ORG`, not a repository's")
	cmd.Flags().BoolVarP(&s.user, "user", "u", false, "the "+noun+" of your account (the token's user), not a repository's")
	return s
}

// Scope reads the scope the flags name; without --org or --user it is a
// repository's (-R, else the git remote's).
func (s *ScopeFlags) Scope(f *cmdutil.Factory, cmd *cobra.Command) (Scope, error) {
	n := 0
	for _, set := range []bool{s.repo != "", s.org != "", s.user} {
		if set {
			n++
		}
	}
	if n > 1 {
		return Scope{}, cmdutil.Usagef("%s: -R, --org and --user name the scope: give one of them", cmd.CommandPath())
	}
	switch {
	case s.org != "":
		return Scope{Org: s.org}, nil
	case s.user:
		return Scope{User: true}, nil
	}
	r, _, err := f.BaseRepo(cmd, s.repo, nil, 0)
	return Scope{Repo: r}, err
}

// Host is the instance of a scope's repository ("" otherwise).
func (s Scope) Host() string { return s.Repo.Host }

// NotFound turns a 404 into "SCOPE has no KIND NAME" (kind: secret,
// variable); any other error is returned as it is.
func (s Scope) NotFound(err error, kind, name string) error {
	if errors.Is(err, forgejo.ErrNotFound) {
		return fmt.Errorf("%s has no %s %s", s, kind, name)
	}
	return err
}

// maxValue bounds a value read from standard input: Forgejo keeps at most
// 64 KiB of a secret or a variable.
const maxValue = 1 << 20

// ReadValue is the value of 'secret set' and 'variable set': body when
// given (bodySet), else all of standard input without its last line end,
// as gh reads it. Standard input that is a terminal is refused: what is
// typed there is shown, and a secret must not be.
func ReadValue(f *cmdutil.Factory, cmd *cobra.Command, body string, bodySet bool) (string, error) {
	if bodySet {
		return body, nil
	}
	if f.IOStreams.IsStdinTTY() {
		return "", cmdutil.Usagef("%s reads the value from standard input, which is a terminal: pipe it in (%s NAME < FILE) or give --body", cmd.CommandPath(), cmd.CommandPath())
	}
	data, err := io.ReadAll(io.LimitReader(f.IOStreams.In, maxValue+1))
	if err != nil {
		return "", fmt.Errorf("reading the value from standard input: %w", err)
	}
	if len(data) > maxValue {
		return "", cmdutil.Usagef("the value on standard input is longer than %d bytes", maxValue)
	}
	return string(bytes.TrimRight(data, "\r\n")), nil
}
