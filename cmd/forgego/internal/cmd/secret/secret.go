// Package secret is 'forgego secret': the Actions secrets of a repository,
// an organization or the user — list, set and delete. A secret's value is
// read from standard input (or --body), never printed, and masked in
// everything the program prints from the moment it is read.
package secret

import (
	"context"
	"fmt"
	"net/http"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/shared"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// Fields are the --json fields of 'secret list'. Forgejo never sends a
// secret's value.
var Fields = cmdutil.Fields(&forgejo.Secret{}, "created_at", "name")

// NewCmdSecret is the 'secret' group.
func NewCmdSecret(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.GroupCmd("secret", "List, set and delete Actions secrets of a repository, an organization or your account")
	cmd.AddCommand(NewCmdList(f, nil), NewCmdSet(f, nil), NewCmdDelete(f, nil))
	return cmd
}

// ListOptions are 'secret list' parsed.
type ListOptions struct {
	F     *cmdutil.Factory
	Ctx   context.Context
	Scope shared.Scope
	JSON  *cmdutil.JSONFlags
}

// NewCmdList is 'secret list'.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{F: f}
	var sf *shared.ScopeFlags
	cmd := &cobra.Command{
		Use:   "list [-R OWNER/REPO | --org ORG]",
		Short: "List the names of the Actions secrets (never their values)",
		Long: `List the Actions secrets of a repository (-R, else the git remote's) or of
an organization (--org): their names and when they were made. Forgejo
never sends a secret's value, and has no API that lists your account's
secrets (--user): set and delete serve them.`,
		Example: `  forgego secret list -R alice/proj
  forgego secret list --org acme --json name`,
		Aliases:           []string{"ls"},
		Args:              cmdutil.NoArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			sc, err := sf.Scope(f, cmd)
			if err != nil {
				return err
			}
			if sc.User {
				return cmdutil.Usagef("secret list --user: Forgejo has no API that lists your account's secrets (secret set and secret delete --user serve them)")
			}
			opts.Scope, opts.Ctx = sc, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		}),
	}
	sf = shared.AddScopeFlags(cmd, "secrets")
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func listRun(opts *ListOptions) error {
	f, sc := opts.F, opts.Scope
	c, err := f.Client(sc.Host())
	if err != nil {
		return err
	}
	got, err := cmdutil.Collect(opts.Ctx, f, "secrets", cmdutil.All, func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.Secret, *forgejo.Response, error) {
		if sc.Org != "" {
			return c.Actions.ListOrgSecrets(ctx, sc.Org, &lo)
		}
		return c.Actions.ListRepoSecrets(ctx, sc.Repo.Owner, sc.Repo.Name, &lo)
	})
	if err != nil {
		return err
	}
	if opts.JSON.On() {
		return opts.JSON.Write(opts.Ctx, f.IOStreams, got.Items)
	}
	if len(got.Items) > 0 {
		rows := [][]string{{"NAME", "CREATED"}}
		for _, s := range got.Items {
			rows = append(rows, []string{s.Name, cmdutil.Day(s.CreatedAt)})
		}
		if err := cmdutil.Table(f.IOStreams, rows); err != nil {
			return err
		}
	}
	cmdutil.Summary(f, len(got.Items), got.Total, "secrets", sc.String())
	return nil
}

// SetOptions are 'secret set' parsed. Value is never printed.
type SetOptions struct {
	F     *cmdutil.Factory
	Ctx   context.Context
	Scope shared.Scope
	Name  string
	Value string
}

// NewCmdSet is 'secret set'.
func NewCmdSet(f *cmdutil.Factory, runF func(*SetOptions) error) *cobra.Command {
	opts := &SetOptions{F: f}
	var sf *shared.ScopeFlags
	var body string
	cmd := &cobra.Command{
		Use:   "set NAME [-R OWNER/REPO | --org ORG | --user] [--body VALUE] < FILE",
		Short: "Create or update an Actions secret, its value from standard input",
		Long: `Create the Actions secret NAME, or replace its value, for a repository (-R,
else the git remote's), an organization (--org) or your account (--user).

The value is read from standard input (without its last line end), which
must not be a terminal; --body gives it on the command line instead, where
other users of the machine and the shell's history may see it. It is never
printed: from the moment it is read, it is masked in everything forgego
prints.`,
		Example: `  forgego secret set DEPLOY_KEY < deploy_key
  pass show deploy | forgego secret set DEPLOY_TOKEN --org acme`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 || args[0] == "" {
				return cmdutil.Usagef("secret set needs one NAME (the value comes from standard input or --body, never as an argument)")
			}
			sc, err := sf.Scope(f, cmd)
			if err != nil {
				return err
			}
			v, err := shared.ReadValue(f, cmd, body, cmd.Flags().Changed("body"))
			if err != nil {
				return err
			}
			f.IOStreams.Mask.Add(v)
			if v == "" {
				return cmdutil.Usagef("the secret's value is empty: Forgejo refuses an empty secret")
			}
			opts.Scope, opts.Name, opts.Value, opts.Ctx = sc, args[0], v, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return setRun(opts)
		}),
	}
	sf = shared.AddScopeFlags(cmd, "secret")
	cmd.Flags().StringVarP(&body, "body", "b", "", "the secret's `VALUE` (default: read from standard input)")
	return cmd
}

func setRun(opts *SetOptions) error {
	f, sc, ctx := opts.F, opts.Scope, opts.Ctx
	c, err := f.Client(sc.Host())
	if err != nil {
		return err
	}
	body := forgejo.CreateOrUpdateSecretRequest{Data: opts.Value}
	var resp *forgejo.Response
	switch {
	case sc.Org != "":
		resp, err = c.Actions.SetOrgSecret(ctx, sc.Org, opts.Name, body)
	case sc.User:
		resp, err = c.Actions.SetUserSecret(ctx, opts.Name, body)
	default:
		resp, err = c.Actions.SetRepoSecret(ctx, sc.Repo.Owner, sc.Repo.Name, opts.Name, body)
	}
	if err != nil {
		return err
	}
	verb := "updated"
	if resp != nil && resp.StatusCode == http.StatusCreated {
		verb = "created"
	}
	fmt.Fprintf(f.IOStreams.Out, "%s secret %s for %s\n", verb, opts.Name, sc)
	return nil
}

// DeleteOptions are 'secret delete' parsed.
type DeleteOptions struct {
	F     *cmdutil.Factory
	Ctx   context.Context
	Scope shared.Scope
	Name  string
}

// NewCmdDelete is 'secret delete'.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{F: f}
	var sf *shared.ScopeFlags
	cmd := &cobra.Command{
		Use:               "delete NAME [-R OWNER/REPO | --org ORG | --user]",
		Short:             "Delete an Actions secret",
		Example:           `  forgego secret delete DEPLOY_KEY -R alice/proj`,
		Aliases:           []string{"remove"},
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 || args[0] == "" {
				return cmdutil.Usagef("secret delete needs one NAME")
			}
			sc, err := sf.Scope(f, cmd)
			if err != nil {
				return err
			}
			opts.Scope, opts.Name, opts.Ctx = sc, args[0], cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			c, err := f.Client(sc.Host())
			if err != nil {
				return err
			}
			switch {
			case sc.Org != "":
				_, err = c.Actions.DeleteOrgSecret(opts.Ctx, sc.Org, opts.Name)
			case sc.User:
				_, err = c.Actions.DeleteUserSecret(opts.Ctx, opts.Name)
			default:
				_, err = c.Actions.DeleteRepoSecret(opts.Ctx, sc.Repo.Owner, sc.Repo.Name, opts.Name)
			}
			if err != nil {
				return sc.NotFound(err, "secret", opts.Name)
			}
			fmt.Fprintf(f.IOStreams.Out, "deleted secret %s from %s\n", opts.Name, sc)
			return nil
		}),
	}
	sf = shared.AddScopeFlags(cmd, "secret")
	return cmd
}
