package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"github.com/spf13/cobra"
)

var hexColor = regexp.MustCompile(`^#?[0-9a-fA-F]{6}$`)

// labelColor checks RRGGBB (with or without #) and gives it as the API
// takes it, #rrggbb.
func labelColor(s string) (string, error) {
	if !hexColor.MatchString(s) {
		return "", usagef("--color must be six hexadecimal digits such as ee0701, not %q", s)
	}
	return "#" + strings.ToLower(strings.TrimPrefix(s, "#")), nil
}

func (a *app) labelCmd() *cobra.Command {
	cmd := groupCmd("label", "List, create, edit and delete a repository's labels")
	cmd.AddCommand(a.labelListCmd(), a.labelCreateCmd(), a.labelEditCmd(), a.labelDeleteCmd())
	return cmd
}

func (a *app) labelListCmd() *cobra.Command {
	var (
		lf listFlags
		jf jsonFlags
	)
	cmd := &cobra.Command{
		Use:     "list [OWNER/REPO]",
		Short:   "List a repository's labels",
		Example: "  forgego label list\n  forgego label list -R forgego/demo --json name,color",
		Aliases: []string{"ls"},
		Args:    cobra.ArbitraryArgs, ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if err := jf.check(); err != nil {
				return err
			}
			owner, name, _, err := a.repoFrom(cmd, args, 0)
			if err != nil {
				return err
			}
			if err := lf.check(cmd); err != nil {
				return err
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			got, err := collect(a, "labels", lf, func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.Label, *forgejo.Response, error) {
				return c.Issues.ListLabels(ctx, owner, name, &forgejo.IssueListLabelsOptions{ListOptions: lo})
			})
			if err != nil {
				return err
			}
			if jf.on() {
				return a.emit(&jf, got.items)
			}
			if len(got.items) > 0 {
				rows := [][]string{{"NAME", "COLOR", "DESCRIPTION"}}
				for _, l := range got.items {
					rows = append(rows, []string{l.Name, strings.TrimPrefix(l.Color, "#"), truncate(l.Description, 60)})
				}
				if err := a.table(rows); err != nil {
					return err
				}
			}
			a.summary(len(got.items), got.total, "labels", owner+"/"+name)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	lf.register(cmd, "labels")
	jf.register(cmd, forgejo.Label{})
	return cmd
}

func (a *app) labelCreateCmd() *cobra.Command {
	var color, description string
	cmd := &cobra.Command{
		Use:     "create [OWNER/REPO] NAME --color RRGGBB",
		Short:   "Create a label",
		Example: `  forgego label create bug --color ee0701 --description "Something is broken"`,
		Args:    cobra.ArbitraryArgs, ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			owner, name, rest, err := a.repoFrom(cmd, args, 1)
			if err != nil {
				return err
			}
			if strings.TrimSpace(rest[0]) == "" {
				return usagef("label create needs a NAME")
			}
			if color == "" {
				return usagef("label create needs --color RRGGBB")
			}
			col, err := labelColor(color)
			if err != nil {
				return err
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			l, _, err := c.Issues.CreateLabel(a.ctx, owner, name, forgejo.CreateLabelRequest{Name: rest[0], Color: col, Description: description})
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "created label %q in %s/%s\n", l.Name, owner, name)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().StringVarP(&color, "color", "c", "", "the label's color, `RRGGBB` (required)")
	cmd.Flags().StringVarP(&description, "description", "d", "", "the label's `TEXT`")
	return cmd
}

func (a *app) labelEditCmd() *cobra.Command {
	var newName, color, description string
	cmd := &cobra.Command{
		Use:     "edit [OWNER/REPO] NAME [--name NEW] [--color RRGGBB] [--description D]",
		Short:   "Change a label's name, color or description",
		Example: `  forgego label edit bug --name defect --color b60205`,
		Args:    cobra.ArbitraryArgs, ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			owner, name, rest, err := a.repoFrom(cmd, args, 1)
			if err != nil {
				return err
			}
			f := cmd.Flags()
			var edit forgejo.EditLabelRequest
			if f.Changed("name") {
				if strings.TrimSpace(newName) == "" {
					return usagef("--name cannot be empty")
				}
				edit.Name = &newName
			}
			if f.Changed("color") {
				col, err := labelColor(color)
				if err != nil {
					return err
				}
				edit.Color = &col
			}
			if f.Changed("description") {
				edit.Description = &description
			}
			if edit.Name == nil && edit.Color == nil && edit.Description == nil {
				return usagef("label edit needs something to change: --name, --color or --description")
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			ids, err := a.labelIDs(c, owner, name, rest[:1])
			if err != nil {
				return err
			}
			l, _, err := c.Issues.EditLabel(a.ctx, owner, name, ids[0], edit)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "edited label %q in %s/%s\n", l.Name, owner, name)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().StringVarP(&newName, "name", "n", "", "the label's new `NAME`")
	cmd.Flags().StringVarP(&color, "color", "c", "", "the label's color, `RRGGBB`")
	cmd.Flags().StringVarP(&description, "description", "d", "", "the label's `TEXT`")
	return cmd
}

func (a *app) labelDeleteCmd() *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:     "delete [OWNER/REPO] NAME --yes",
		Short:   "Delete a label (from every issue that has it)",
		Example: `  forgego label delete wontfix --yes`,
		Args:    cobra.ArbitraryArgs, ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			owner, name, rest, err := a.repoFrom(cmd, args, 1)
			if err != nil {
				return err
			}
			if !yes {
				return usagef("label delete removes the label from every issue: confirm with --yes")
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			ids, err := a.labelIDs(c, owner, name, rest[:1])
			if err != nil {
				return err
			}
			if _, err := c.Issues.DeleteLabel(a.ctx, owner, name, ids[0]); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "deleted label %q in %s/%s\n", rest[0], owner, name)
			return nil
		}),
	}
	a.addRepoFlag(cmd)
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "confirm the deletion")
	return cmd
}
