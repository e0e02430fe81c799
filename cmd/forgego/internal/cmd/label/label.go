// Package label is 'forgego label': list, create, edit and delete.
package label

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/shared"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// Fields are the --json fields of the commands that print labels: the
// CLI's contract, written out (cmdutil.Field).
var Fields = cmdutil.Fields(&forgejo.Label{},
	"color", "description", "exclusive", "id", "is_archived", "name", "url",
)

// NewCmdLabel is the 'label' group.
func NewCmdLabel(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.GroupCmd("label", "List, create, edit and delete a repository's labels")
	cmd.AddCommand(NewCmdList(f, nil), NewCmdCreate(f, nil), NewCmdEdit(f, nil), NewCmdDelete(f, nil))
	return cmd
}

var hexColor = regexp.MustCompile(`^#?[0-9a-fA-F]{6}$`)

// Color checks RRGGBB (with or without #) and gives it as the API takes
// it, #rrggbb.
func Color(s string) (string, error) {
	if !hexColor.MatchString(s) {
		return "", cmdutil.Usagef("--color must be six hexadecimal digits such as ee0701, not %q", s)
	}
	return "#" + strings.ToLower(strings.TrimPrefix(s, "#")), nil
}

// ListOptions are 'label list' parsed.
type ListOptions struct {
	F    *cmdutil.Factory
	Ctx  context.Context
	Repo cmdutil.Repo
	List cmdutil.ListFlags
	JSON *cmdutil.JSONFlags
}

// NewCmdList is 'label list'.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:     "list [OWNER/REPO]",
		Short:   "List a repository's labels",
		Example: "  forgego label list\n  forgego label list -R forgego/demo --json name,color",
		Aliases: []string{"ls"},
		Args:    cobra.ArbitraryArgs, ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			r, _, err := f.BaseRepo(cmd, repoFlag, args, 0)
			if err != nil {
				return err
			}
			if err := opts.List.Check(); err != nil {
				return err
			}
			opts.Repo, opts.Ctx = r, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmdutil.AddListFlags(cmd, &opts.List, "labels")
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func listRun(opts *ListOptions) error {
	f, r := opts.F, opts.Repo
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	got, err := cmdutil.Collect(opts.Ctx, f, "labels", opts.List, func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.Label, *forgejo.Response, error) {
		return c.Issues.ListLabels(ctx, r.Owner, r.Name, &forgejo.IssueListLabelsOptions{ListOptions: lo})
	})
	if err != nil {
		return err
	}
	if opts.JSON.On() {
		return opts.JSON.Write(opts.Ctx, f.IOStreams, got.Items)
	}
	if len(got.Items) > 0 {
		rows := [][]string{{"NAME", "COLOR", "DESCRIPTION"}}
		for _, l := range got.Items {
			rows = append(rows, []string{l.Name, strings.TrimPrefix(l.Color, "#"), cmdutil.Truncate(l.Description, 60)})
		}
		if err := cmdutil.Table(f.IOStreams, rows); err != nil {
			return err
		}
	}
	cmdutil.Summary(f, len(got.Items), got.Total, "labels", r.FullName())
	return nil
}

// CreateOptions are 'label create' parsed.
type CreateOptions struct {
	F           *cmdutil.Factory
	Ctx         context.Context
	Repo        cmdutil.Repo
	Name        string
	Color       string // #rrggbb
	Description string
	JSON        *cmdutil.JSONFlags
}

// NewCmdCreate is 'label create'.
func NewCmdCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{F: f}
	var repoFlag, color string
	cmd := &cobra.Command{
		Use:     "create [OWNER/REPO] NAME --color RRGGBB",
		Short:   "Create a label",
		Example: `  forgego label create bug --color ee0701 --description "Something is broken"`,
		Args:    cobra.ArbitraryArgs, ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			r, rest, err := f.BaseRepo(cmd, repoFlag, args, 1)
			if err != nil {
				return err
			}
			if strings.TrimSpace(rest[0]) == "" {
				return cmdutil.Usagef("label create needs a NAME")
			}
			if color == "" {
				return cmdutil.Usagef("label create needs --color RRGGBB")
			}
			if opts.Color, err = Color(color); err != nil {
				return err
			}
			opts.Repo, opts.Ctx, opts.Name = r, cmd.Context(), rest[0]
			if runF != nil {
				return runF(opts)
			}
			c, err := f.ClientFor(r)
			if err != nil {
				return err
			}
			l, _, err := c.Issues.CreateLabel(opts.Ctx, r.Owner, r.Name, forgejo.CreateLabelRequest{Name: opts.Name, Color: opts.Color, Description: opts.Description})
			if err != nil {
				return err
			}
			if opts.JSON.On() {
				return opts.JSON.Write(opts.Ctx, f.IOStreams, l)
			}
			fmt.Fprintf(f.IOStreams.Out, "created label %q in %s\n", l.Name, r.FullName())
			return nil
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().StringVarP(&color, "color", "c", "", "the label's color, `RRGGBB` (required)")
	cmd.Flags().StringVarP(&opts.Description, "description", "d", "", "the label's `TEXT`")
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

// EditOptions are 'label edit' parsed.
type EditOptions struct {
	F    *cmdutil.Factory
	Ctx  context.Context
	Repo cmdutil.Repo
	Name string // the label's name now
	Edit forgejo.EditLabelRequest
	JSON *cmdutil.JSONFlags
}

// NewCmdEdit is 'label edit'.
func NewCmdEdit(f *cmdutil.Factory, runF func(*EditOptions) error) *cobra.Command {
	opts := &EditOptions{F: f}
	var repoFlag, newName, color, description string
	cmd := &cobra.Command{
		Use:     "edit [OWNER/REPO] NAME [--name NEW] [--color RRGGBB] [--description D]",
		Short:   "Change a label's name, color or description",
		Example: `  forgego label edit bug --name defect --color b60205`,
		Args:    cobra.ArbitraryArgs, ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			r, rest, err := f.BaseRepo(cmd, repoFlag, args, 1)
			if err != nil {
				return err
			}
			fl := cmd.Flags()
			var edit forgejo.EditLabelRequest
			if fl.Changed("name") {
				if strings.TrimSpace(newName) == "" {
					return cmdutil.Usagef("--name cannot be empty")
				}
				edit.Name = &newName
			}
			if fl.Changed("color") {
				col, err := Color(color)
				if err != nil {
					return err
				}
				edit.Color = &col
			}
			if fl.Changed("description") {
				edit.Description = &description
			}
			if edit.Name == nil && edit.Color == nil && edit.Description == nil {
				return cmdutil.Usagef("label edit needs something to change: --name, --color or --description")
			}
			opts.Repo, opts.Ctx, opts.Name, opts.Edit = r, cmd.Context(), rest[0], edit
			if runF != nil {
				return runF(opts)
			}
			c, err := f.ClientFor(r)
			if err != nil {
				return err
			}
			ids, err := shared.LabelIDs(opts.Ctx, f, c, r, []string{opts.Name})
			if err != nil {
				return err
			}
			l, _, err := c.Issues.EditLabel(opts.Ctx, r.Owner, r.Name, ids[0], opts.Edit)
			if err != nil {
				return err
			}
			if opts.JSON.On() {
				return opts.JSON.Write(opts.Ctx, f.IOStreams, l)
			}
			fmt.Fprintf(f.IOStreams.Out, "edited label %q in %s\n", l.Name, r.FullName())
			return nil
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().StringVarP(&newName, "name", "n", "", "the label's new `NAME`")
	cmd.Flags().StringVarP(&color, "color", "c", "", "the label's color, `RRGGBB`")
	cmd.Flags().StringVarP(&description, "description", "d", "", "the label's `TEXT`")
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

// DeleteOptions are 'label delete' parsed.
type DeleteOptions struct {
	F    *cmdutil.Factory
	Ctx  context.Context
	Repo cmdutil.Repo
	Name string
	Yes  bool
}

// NewCmdDelete is 'label delete'.
func NewCmdDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:     "delete [OWNER/REPO] NAME --yes",
		Short:   "Delete a label (from every issue that has it)",
		Example: `  forgego label delete wontfix --yes`,
		Args:    cobra.ArbitraryArgs, ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			r, rest, err := f.BaseRepo(cmd, repoFlag, args, 1)
			if err != nil {
				return err
			}
			if !opts.Yes {
				return cmdutil.Usagef("label delete removes the label from every issue: confirm with --yes")
			}
			opts.Repo, opts.Ctx, opts.Name = r, cmd.Context(), rest[0]
			if runF != nil {
				return runF(opts)
			}
			c, err := f.ClientFor(r)
			if err != nil {
				return err
			}
			ids, err := shared.LabelIDs(opts.Ctx, f, c, r, []string{opts.Name})
			if err != nil {
				return err
			}
			if _, err := c.Issues.DeleteLabel(opts.Ctx, r.Owner, r.Name, ids[0]); err != nil {
				return err
			}
			fmt.Fprintf(f.IOStreams.Out, "deleted label %q in %s\n", opts.Name, r.FullName())
			return nil
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "confirm the deletion")
	return cmd
}
