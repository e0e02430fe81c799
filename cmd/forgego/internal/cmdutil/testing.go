package cmdutil

import (
	"bytes"
	"errors"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/config"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/iostreams"
	"github.com/spf13/cobra"
)

// errNoClient is the client of a TestFactory.
var errNoClient = errors.New("no client: a flag-parsing test must not reach the instance")

// TestFactory is a Factory for tests of a command's flags through its
// runF: its streams write to the returned buffers, it has no client and
// no git, and its git remote is remote ("" = none).
func TestFactory(remote string) (f *Factory, stdout, stderr *bytes.Buffer) {
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	m := iostreams.NewMasker()
	f = &Factory{
		IOStreams:   iostreams.New(strings.NewReader(""), stdout, stderr, m),
		Client:      func(string) (*forgejo.Client, error) { return nil, errNoClient },
		Credentials: func() (string, string) { return "", "" },
		Config:      func() (*config.Config, error) { return &config.Config{Hosts: map[string]*config.Host{}}, nil },
		SaveConfig:  func(*config.Config) error { return errors.New("no configuration in flag-parsing tests") },
		Remote: func() (Repo, error) {
			if r, ok := ParseRepo(remote); ok {
				return r, nil
			}
			return Repo{}, errors.New("not in a git repository")
		},
		Git:       func() Git { return nil },
		Instance:  func() (string, error) { return "https://codeberg.org", nil },
		NewClient: func(string, string) (*forgejo.Client, error) { return nil, errNoClient },
		Embedded:  func() bool { return false },
		URLFlag:   func() string { return "" },
		Getenv:    func(string) string { return "" },
		Progress:  func() Progress { return noProgress{} },
	}
	return f, stdout, stderr
}

type noProgress struct{}

func (noProgress) Set(string, ...any) {}
func (noProgress) Done()              {}

// ExecuteTest runs cmd with args as the program would (its flag errors
// as usage errors) and returns its error.
func ExecuteTest(cmd *cobra.Command, args ...string) error {
	cmd.SetArgs(args)
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	cmd.SetFlagErrorFunc(FlagError)
	_, err := cmd.ExecuteC()
	return err
}
