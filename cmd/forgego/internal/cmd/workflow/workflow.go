// Package workflow is 'forgego workflow': the workflows of Forgejo Actions
// — list, view and run (dispatch).
//
// Forgejo has no API that lists a repository's workflows: they are read
// as Forgejo reads them, from the files of .forgejo/workflows, else (when
// that directory does not exist) .gitea/workflows, at the default branch
// or --ref, through the contents API. A workflow's id is its file name
// (ci.yml), which is what dispatching and 'run list --workflow' take.
package workflow

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"path"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// Workflow is a workflow file as the commands print it.
type Workflow struct {
	// Name is the workflow's name: its name: key, else its file name.
	Name string `json:"name"`
	// File is its file name, the workflow's id for Forgejo (ci.yml).
	File string `json:"file"`
	// Path is where it is in the repository (.forgejo/workflows/ci.yml).
	Path string `json:"path"`
	// HTMLURL is the file's page.
	HTMLURL string `json:"html_url"`
	// SHA is the file's blob id.
	SHA string `json:"sha"`

	content string // the file, when it was read
}

// Fields are the --json fields of the commands that print workflows.
var Fields = cmdutil.Fields(&Workflow{}, "file", "html_url", "name", "path", "sha")

// Dirs are where Forgejo reads workflows: the first that exists.
var Dirs = []string{".forgejo/workflows", ".gitea/workflows"}

// NewCmdWorkflow is the 'workflow' group.
func NewCmdWorkflow(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.GroupCmd("workflow", "List, view and run workflows (Forgejo Actions)")
	cmd.AddCommand(NewCmdList(f, nil), NewCmdView(f, nil), NewCmdRun(f, nil))
	return cmd
}

// isWorkflowFile reports whether Forgejo reads a file name as a workflow.
func isWorkflowFile(name string) bool {
	return strings.HasSuffix(name, ".yml") || strings.HasSuffix(name, ".yaml")
}

// listWorkflows reads the workflow files at ref ("" = the default branch),
// each file's name: read when withNames.
func listWorkflows(ctx context.Context, c *forgejo.Client, r cmdutil.Repo, ref string, withNames bool) ([]*Workflow, error) {
	for _, dir := range Dirs {
		got, _, err := c.Repos.GetContents(ctx, r.Owner, r.Name, dir, &forgejo.RepoGetContentsOptions{Ref: ref})
		if errors.Is(err, forgejo.ErrNotFound) || (err == nil && !got.IsDir()) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out := []*Workflow{}
		for _, e := range got.Dir {
			if e == nil || e.Type != "file" || !isWorkflowFile(e.Name) {
				continue
			}
			w := &Workflow{Name: e.Name, File: e.Name, Path: e.Path, HTMLURL: e.HTMLURL, SHA: e.SHA}
			if withNames {
				if err := readWorkflow(ctx, c, r, ref, w); err != nil {
					return nil, err
				}
			}
			out = append(out, w)
		}
		return out, nil
	}
	return []*Workflow{}, nil
}

// readWorkflow reads w's file and its name.
func readWorkflow(ctx context.Context, c *forgejo.Client, r cmdutil.Repo, ref string, w *Workflow) error {
	got, _, err := c.Repos.GetContents(ctx, r.Owner, r.Name, w.Path, &forgejo.RepoGetContentsOptions{Ref: ref})
	if err != nil {
		return err
	}
	if got.File == nil {
		return fmt.Errorf("%s is not a file", w.Path)
	}
	data, err := base64.StdEncoding.DecodeString(got.File.Content)
	if err != nil {
		return fmt.Errorf("%s: the contents API sent no readable file: %w", w.Path, err)
	}
	w.content = string(data)
	w.HTMLURL, w.SHA = got.File.HTMLURL, got.File.SHA
	if n := nameOf(w.content); n != "" {
		w.Name = n
	}
	return nil
}

// nameOf reads a workflow's top-level name: key (a plain or quoted
// scalar), "" when it has none.
func nameOf(content string) string {
	for _, line := range strings.Split(content, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "name:")
		if !ok {
			continue
		}
		v := strings.TrimSpace(rest)
		if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
			if end := strings.IndexByte(v[1:], v[0]); end >= 0 {
				return v[1 : end+1]
			}
			return v
		}
		if i := strings.Index(v, " #"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		return v
	}
	return ""
}

// resolve finds the workflow WORKFLOW names: a file name (ci.yml), or the
// name of exactly one workflow. withFile: the workflow's file is read too
// (its name: and content), which a lookup by name does anyway.
func resolve(ctx context.Context, c *forgejo.Client, r cmdutil.Repo, ref, arg string, withFile bool) (*Workflow, error) {
	byFile := isWorkflowFile(arg) && !strings.Contains(arg, "/")
	all, err := listWorkflows(ctx, c, r, ref, !byFile)
	if err != nil {
		return nil, err
	}
	var files []string
	var match []*Workflow
	for _, w := range all {
		files = append(files, w.File)
		if (byFile && w.File == arg) || (!byFile && (strings.EqualFold(w.Name, arg) || w.File == arg+".yml" || w.File == arg+".yaml")) {
			match = append(match, w)
		}
	}
	switch {
	case len(match) == 1:
		if byFile && withFile {
			if err := readWorkflow(ctx, c, r, ref, match[0]); err != nil {
				return nil, err
			}
		}
		return match[0], nil
	case len(match) > 1:
		var names []string
		for _, w := range match {
			names = append(names, w.File)
		}
		return nil, fmt.Errorf("%q names %d workflows of %s (%s): give the file name", arg, len(match), r.FullName(), strings.Join(names, ", "))
	case len(all) == 0:
		return nil, fmt.Errorf("%s has no workflows (no .yml file in %s)", r.FullName(), strings.Join(Dirs, " or "))
	}
	return nil, fmt.Errorf("%s has no workflow %q; it has: %s", r.FullName(), arg, strings.Join(files, ", "))
}

// dirOf is the directory the workflows were read from.
func dirOf(ws []*Workflow) string {
	if len(ws) == 0 {
		return ""
	}
	return path.Dir(ws[0].Path)
}
