// Package variable is 'forgego variable': the Actions variables of a
// repository, an organization or the user — list, get, set and delete.
package variable

import (
	"context"
	"errors"
	"fmt"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/shared"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// Fields are the --json fields of the commands that print variables;
// value is what Forgejo calls data, named as gh names it.
var Fields = append(cmdutil.Fields(&forgejo.ActionVariable{}, "name", "owner_id", "repo_id"),
	cmdutil.Field{Name: "value", Key: "data"})

// NewCmdVariable is the 'variable' group.
func NewCmdVariable(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.GroupCmd("variable", "List, get, set and delete Actions variables of a repository, an organization or your account")
	cmd.AddCommand(NewCmdList(f, nil), NewCmdGet(f, nil), NewCmdSet(f, nil), NewCmdDelete(f, nil))
	return cmd
}

// Options are the parsed arguments of every variable command.
type Options struct {
	F     *cmdutil.Factory
	Ctx   context.Context
	Scope shared.Scope
	Name  string // get, set, delete
	Value string // set
	JSON  *cmdutil.JSONFlags
}

// command builds a variable command: nameArg says it takes NAME.
func command(f *cmdutil.Factory, cmd *cobra.Command, nameArg bool, runF, run func(*Options) error) (*cobra.Command, *Options) {
	opts := &Options{F: f}
	var sf *shared.ScopeFlags
	cmd.Args = cobra.ArbitraryArgs
	cmd.ValidArgsFunction = cmdutil.NoFiles
	cmd.RunE = cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
		if opts.JSON != nil {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
		}
		switch {
		case nameArg && (len(args) != 1 || args[0] == ""):
			return cmdutil.Usagef("%s needs one NAME", cmd.CommandPath())
		case !nameArg && len(args) > 0:
			return cmdutil.NoArgs(cmd, args)
		}
		sc, err := sf.Scope(f, cmd)
		if err != nil {
			return err
		}
		opts.Scope, opts.Ctx = sc, cmd.Context()
		if nameArg {
			opts.Name = args[0]
		}
		if cmd.Name() == "set" {
			body, _ := cmd.Flags().GetString("body")
			if opts.Value, err = shared.ReadValue(f, cmd, body, cmd.Flags().Changed("body")); err != nil {
				return err
			}
			if opts.Value == "" {
				return cmdutil.Usagef("the variable's value is empty: Forgejo refuses an empty variable")
			}
		}
		if runF != nil {
			return runF(opts)
		}
		return run(opts)
	})
	sf = shared.AddScopeFlags(cmd, "variables")
	return cmd, opts
}

// NewCmdList is 'variable list'.
func NewCmdList(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	cmd, opts := command(f, &cobra.Command{
		Use:   "list [-R OWNER/REPO | --org ORG | --user]",
		Short: "List the Actions variables and their values",
		Example: `  forgego variable list -R alice/proj
  forgego variable list --org acme --json name,value`,
		Aliases: []string{"ls"},
	}, false, runF, listRun)
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func listRun(opts *Options) error {
	f, sc := opts.F, opts.Scope
	c, err := f.Client(sc.Host())
	if err != nil {
		return err
	}
	got, err := cmdutil.Collect(opts.Ctx, f, "variables", cmdutil.All, func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.ActionVariable, *forgejo.Response, error) {
		switch {
		case sc.Org != "":
			return c.Actions.ListOrgVariables(ctx, sc.Org, &lo)
		case sc.User:
			return c.Actions.ListUserVariables(ctx, &lo)
		}
		return c.Actions.ListRepoVariables(ctx, sc.Repo.Owner, sc.Repo.Name, &lo)
	})
	if err != nil {
		return err
	}
	if opts.JSON.On() {
		return opts.JSON.Write(opts.Ctx, f.IOStreams, got.Items)
	}
	if len(got.Items) > 0 {
		rows := [][]string{{"NAME", "VALUE"}}
		for _, v := range got.Items {
			rows = append(rows, []string{v.Name, cmdutil.Truncate(v.Data, 60)})
		}
		if err := cmdutil.Table(f.IOStreams, rows); err != nil {
			return err
		}
	}
	cmdutil.Summary(f, len(got.Items), got.Total, "variables", sc.String())
	return nil
}

// NewCmdGet is 'variable get'.
func NewCmdGet(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	cmd, opts := command(f, &cobra.Command{
		Use:   "get NAME [-R OWNER/REPO | --org ORG | --user]",
		Short: "Print an Actions variable's value",
		Example: `  forgego variable get DEPLOY_ENV -R alice/proj
  forgego variable get DEPLOY_ENV --org acme --json name,value`,
	}, true, runF, getRun)
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func getRun(opts *Options) error {
	f, sc, ctx := opts.F, opts.Scope, opts.Ctx
	c, err := f.Client(sc.Host())
	if err != nil {
		return err
	}
	var v *forgejo.ActionVariable
	switch {
	case sc.Org != "":
		v, _, err = c.Actions.GetOrgVariable(ctx, sc.Org, opts.Name)
	case sc.User:
		v, _, err = c.Actions.GetUserVariable(ctx, opts.Name)
	default:
		v, _, err = c.Actions.GetRepoVariable(ctx, sc.Repo.Owner, sc.Repo.Name, opts.Name)
	}
	if err != nil {
		return sc.NotFound(err, "variable", opts.Name)
	}
	if opts.JSON.On() {
		return opts.JSON.Write(ctx, f.IOStreams, v)
	}
	fmt.Fprintln(f.IOStreams.Out, v.Data)
	return nil
}

// NewCmdSet is 'variable set'.
func NewCmdSet(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	cmd, _ := command(f, &cobra.Command{
		Use:   "set NAME [-R OWNER/REPO | --org ORG | --user] [--body VALUE | < FILE]",
		Short: "Create or update an Actions variable",
		Long: `Create the Actions variable NAME, or replace its value, for a repository
(-R, else the git remote's), an organization (--org) or your account
(--user). The value is --body, else standard input (without its last line
end), which must not be a terminal.`,
		Example: `  forgego variable set DEPLOY_ENV --body staging
  forgego variable set BANNER --org acme < banner.txt`,
	}, true, runF, setRun)
	cmd.Flags().StringP("body", "b", "", "the variable's `VALUE` (default: read from standard input)")
	return cmd
}

func setRun(opts *Options) error {
	f, sc, ctx := opts.F, opts.Scope, opts.Ctx
	c, err := f.Client(sc.Host())
	if err != nil {
		return err
	}
	// Created when it is new; a 409 (it exists) makes it an update.
	create := forgejo.CreateVariableRequest{Value: opts.Value}
	switch {
	case sc.Org != "":
		_, err = c.Actions.CreateOrgVariable(ctx, sc.Org, opts.Name, create)
	case sc.User:
		_, err = c.Actions.CreateUserVariable(ctx, opts.Name, create)
	default:
		_, err = c.Actions.CreateRepoVariable(ctx, sc.Repo.Owner, sc.Repo.Name, opts.Name, create)
	}
	verb := "created"
	if errors.Is(err, forgejo.ErrConflict) {
		verb = "updated"
		update := forgejo.UpdateVariableRequest{Value: opts.Value}
		switch {
		case sc.Org != "":
			_, err = c.Actions.UpdateOrgVariable(ctx, sc.Org, opts.Name, update)
		case sc.User:
			_, err = c.Actions.UpdateUserVariable(ctx, opts.Name, update)
		default:
			_, err = c.Actions.UpdateRepoVariable(ctx, sc.Repo.Owner, sc.Repo.Name, opts.Name, update)
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(f.IOStreams.Out, "%s variable %s for %s\n", verb, opts.Name, sc)
	return nil
}

// NewCmdDelete is 'variable delete'.
func NewCmdDelete(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	cmd, _ := command(f, &cobra.Command{
		Use:     "delete NAME [-R OWNER/REPO | --org ORG | --user]",
		Short:   "Delete an Actions variable",
		Example: `  forgego variable delete DEPLOY_ENV -R alice/proj`,
		Aliases: []string{"remove"},
	}, true, runF, deleteRun)
	return cmd
}

func deleteRun(opts *Options) error {
	f, sc, ctx := opts.F, opts.Scope, opts.Ctx
	c, err := f.Client(sc.Host())
	if err != nil {
		return err
	}
	switch {
	case sc.Org != "":
		_, err = c.Actions.DeleteOrgVariable(ctx, sc.Org, opts.Name)
	case sc.User:
		_, err = c.Actions.DeleteUserVariable(ctx, opts.Name)
	default:
		_, err = c.Actions.DeleteRepoVariable(ctx, sc.Repo.Owner, sc.Repo.Name, opts.Name)
	}
	if err != nil {
		return sc.NotFound(err, "variable", opts.Name)
	}
	fmt.Fprintf(f.IOStreams.Out, "deleted variable %s from %s\n", opts.Name, sc)
	return nil
}
