package workflow

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/run"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// ListOptions are 'workflow list' parsed.
type ListOptions struct {
	F    *cmdutil.Factory
	Ctx  context.Context
	Repo cmdutil.Repo
	Ref  string
	JSON *cmdutil.JSONFlags
}

// NewCmdList is 'workflow list'.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "list [OWNER/REPO] [--ref REF]",
		Short: "List a repository's workflows",
		Long: `List the workflows of a repository: the .yml and .yaml files of
.forgejo/workflows, else of .gitea/workflows, as Forgejo reads them (at the
default branch, or --ref). Forgejo has no API that lists workflows, so
they are read with the contents API: one request for the directory and one
per file, for its name.`,
		Example: `  forgego workflow list -R forgejo/forgejo
  forgego workflow list --json file,name`,
		Aliases:           []string{"ls"},
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			r, _, err := f.BaseRepo(cmd, repoFlag, args, 0)
			if err != nil {
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
	cmd.Flags().StringVarP(&opts.Ref, "ref", "r", "", "read the workflows at this branch, tag or commit `REF` (default: the default branch)")
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

func listRun(opts *ListOptions) error {
	f, r := opts.F, opts.Repo
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	ws, err := listWorkflows(opts.Ctx, c, r, opts.Ref, true)
	if err != nil {
		return err
	}
	if opts.JSON.On() {
		return opts.JSON.Write(opts.Ctx, f.IOStreams, ws)
	}
	if len(ws) == 0 {
		fmt.Fprintf(f.IOStreams.ErrOut, "no workflows in %s (no .yml file in %s)\n", r.FullName(), strings.Join(Dirs, " or "))
		return nil
	}
	rows := [][]string{{"NAME", "FILE"}}
	for _, w := range ws {
		rows = append(rows, []string{cmdutil.Truncate(w.Name, 50), w.File})
	}
	if err := cmdutil.Table(f.IOStreams, rows); err != nil {
		return err
	}
	fmt.Fprintf(f.IOStreams.ErrOut, "showing %s in %s of %s\n", cmdutil.Plural(len(ws), "workflow"), dirOf(ws), r.FullName())
	return nil
}

// ViewOptions are 'workflow view' parsed.
type ViewOptions struct {
	F        *cmdutil.Factory
	Ctx      context.Context
	Repo     cmdutil.Repo
	Workflow string
	Ref      string
	YAML     bool
	JSON     *cmdutil.JSONFlags
}

// NewCmdView is 'workflow view'.
func NewCmdView(f *cmdutil.Factory, runF func(*ViewOptions) error) *cobra.Command {
	opts := &ViewOptions{F: f}
	var repoFlag string
	cmd := &cobra.Command{
		Use:   "view [OWNER/REPO] WORKFLOW [--yaml] [--ref REF]",
		Short: "Show a workflow and its latest runs, or its file",
		Long: `Show the workflow WORKFLOW (its file name, such as ci.yml, or its name) and
its latest runs; with --yaml, its file as it is at the default branch or
--ref.`,
		Example: `  forgego workflow view ci.yml
  forgego workflow view "CI" --yaml`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			if opts.YAML && opts.JSON.On() {
				return cmdutil.Usagef("--yaml and --json cannot be used together")
			}
			r, wf, err := workflowArg(cmd, f, repoFlag, args)
			if err != nil {
				return err
			}
			opts.Repo, opts.Workflow, opts.Ctx = r, wf, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return viewRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().StringVarP(&opts.Ref, "ref", "r", "", "read the workflow at this branch, tag or commit `REF` (default: the default branch)")
	cmd.Flags().BoolVarP(&opts.YAML, "yaml", "y", false, "print the workflow's file")
	opts.JSON = cmdutil.AddJSONFlags(cmd, Fields)
	return cmd
}

// workflowArg reads [OWNER/REPO] WORKFLOW.
func workflowArg(cmd *cobra.Command, f *cmdutil.Factory, repoFlag string, args []string) (cmdutil.Repo, string, error) {
	if len(args) == 0 {
		return cmdutil.Repo{}, "", cmdutil.Usagef("%s needs a WORKFLOW: its file name (ci.yml) or its name (see 'forgego workflow list')", cmd.CommandPath())
	}
	r, rest, err := f.BaseRepo(cmd, repoFlag, args, 1)
	if err != nil {
		return r, "", err
	}
	if strings.TrimSpace(rest[0]) == "" {
		return r, "", cmdutil.Usagef("%s: the WORKFLOW is empty", cmd.CommandPath())
	}
	return r, rest[0], nil
}

func viewRun(opts *ViewOptions) error {
	f, r, ctx := opts.F, opts.Repo, opts.Ctx
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	w, err := resolve(ctx, c, r, opts.Ref, opts.Workflow, true)
	if err != nil {
		return err
	}
	if opts.JSON.On() {
		return opts.JSON.Write(ctx, f.IOStreams, w)
	}
	out := f.IOStreams.Out
	if opts.YAML {
		fmt.Fprint(out, w.content)
		if !strings.HasSuffix(w.content, "\n") {
			fmt.Fprintln(out)
		}
		return nil
	}
	fmt.Fprintf(out, "%s\n\n", w.Name)
	if err := cmdutil.Table(f.IOStreams, [][]string{{"  file", w.File}, {"  path", w.Path}, {"  url", w.HTMLURL}}); err != nil {
		return err
	}
	got, _, err := c.Actions.ListRuns(ctx, r.Owner, r.Name, &forgejo.ActionListRunsOptions{WorkflowID: w.File, ListOptions: forgejo.ListOptions{Limit: 5}})
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "\nLATEST RUNS")
	var runs []*forgejo.ActionRun
	for _, x := range got.WorkflowRuns {
		// A server older than 15 ignores workflow_id.
		if x != nil && x.WorkflowID == w.File {
			runs = append(runs, x)
		}
	}
	if len(runs) == 0 {
		fmt.Fprintln(out, "  none")
		return nil
	}
	rows := [][]string{{"  STATUS", "TITLE", "BRANCH", "EVENT", "ID", "CREATED"}}
	for _, x := range runs {
		rows = append(rows, []string{"  " + string(x.Outcome()), cmdutil.Truncate(x.Title, 40), x.Prettyref, x.EventName(), strconv.FormatInt(x.ID, 10), cmdutil.Day(x.Created)})
	}
	return cmdutil.Table(f.IOStreams, rows)
}

// RunOptions are 'workflow run' parsed.
type RunOptions struct {
	F        *cmdutil.Factory
	Ctx      context.Context
	Repo     cmdutil.Repo
	Workflow string
	Ref      string
	Inputs   map[string]string
	JSON     *cmdutil.JSONFlags
}

// NewCmdRun is 'workflow run'.
func NewCmdRun(f *cmdutil.Factory, runF func(*RunOptions) error) *cobra.Command {
	opts := &RunOptions{F: f}
	var repoFlag string
	var raw, fields []string
	cmd := &cobra.Command{
		Use:   "run [OWNER/REPO] WORKFLOW [--ref REF] [-f KEY=VALUE]… [-F KEY=@FILE]…",
		Short: "Start a workflow (workflow_dispatch) and print the run it started",
		Long: `Dispatch the workflow WORKFLOW (its file name, such as ci.yml, or its name)
on --ref (default: the default branch), with its inputs given as -f
KEY=VALUE (the value as it is) or -F KEY=VALUE (KEY=@FILE reads the value
from FILE, @- from standard input), and print the run it started.

Forgejo 15 and later answer the dispatch with the run; on an older
release, the run is found as the newest workflow_dispatch run of that
workflow and ref created since the dispatch.`,
		Example: `  forgego workflow run deploy.yml -f target=staging
  forgego workflow run ci.yml --ref feature -F notes=@CHANGES.md --json id --jq .id`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cmdutil.NoFiles,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			r, wf, err := workflowArg(cmd, f, repoFlag, args)
			if err != nil {
				return err
			}
			inputs, err := readInputs(f, raw, fields)
			if err != nil {
				return err
			}
			opts.Repo, opts.Workflow, opts.Inputs, opts.Ctx = r, wf, inputs, cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			return runRun(opts)
		}),
	}
	cmdutil.AddRepoFlag(cmd, &repoFlag)
	cmd.Flags().StringVarP(&opts.Ref, "ref", "r", "", "the branch or tag `REF` to run the workflow on (default: the default branch)")
	cmd.Flags().StringArrayVarP(&raw, "raw-field", "f", nil, "an input as `KEY=VALUE`, the value as it is (repeatable)")
	cmd.Flags().StringArrayVarP(&fields, "field", "F", nil, "an input as `KEY=VALUE`, KEY=@FILE reading FILE (@- standard input) (repeatable)")
	opts.JSON = cmdutil.AddJSONFlags(cmd, run.Fields)
	return cmd
}

// readInputs reads -f and -F; a key given twice is refused.
func readInputs(f *cmdutil.Factory, raw, fields []string) (map[string]string, error) {
	inputs := map[string]string{}
	add := func(flag, kv string, files bool) error {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return cmdutil.Usagef("%s %q is not KEY=VALUE", flag, kv)
		}
		if _, dup := inputs[k]; dup {
			return cmdutil.Usagef("the input %s is given twice", k)
		}
		if file, isFile := strings.CutPrefix(v, "@"); files && isFile {
			var data []byte
			var err error
			if file == "-" {
				data, err = readAll(f)
			} else {
				data, err = os.ReadFile(file)
			}
			if err != nil {
				return cmdutil.Usagef("%s %s: %v", flag, k, err)
			}
			v = string(data)
		}
		inputs[k] = v
		return nil
	}
	for _, kv := range raw {
		if err := add("-f", kv, false); err != nil {
			return nil, err
		}
	}
	for _, kv := range fields {
		if err := add("-F", kv, true); err != nil {
			return nil, err
		}
	}
	return inputs, nil
}

// maxStdinInput bounds an input read from standard input.
const maxStdinInput = 1 << 20

func readAll(f *cmdutil.Factory) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f.IOStreams.In, maxStdinInput+1))
	if err == nil && len(data) > maxStdinInput {
		err = fmt.Errorf("standard input is longer than %d bytes", maxStdinInput)
	}
	return data, err
}

func runRun(opts *RunOptions) error {
	f, r, ctx := opts.F, opts.Repo, opts.Ctx
	c, err := f.ClientFor(r)
	if err != nil {
		return err
	}
	ref := opts.Ref
	if ref == "" {
		repo, _, err := c.Repos.Get(ctx, r.Owner, r.Name)
		if err != nil {
			return err
		}
		ref = repo.DefaultBranch
	}
	w, err := resolve(ctx, c, r, ref, opts.Workflow, false)
	if err != nil {
		return err
	}
	got, _, err := c.Actions.RunWorkflow(ctx, r.Owner, r.Name, w.File, forgejo.DispatchWorkflowRequest{Ref: ref, Inputs: opts.Inputs})
	if err != nil {
		return err
	}
	if opts.JSON.On() {
		return opts.JSON.Write(ctx, f.IOStreams, got)
	}
	fmt.Fprintf(f.IOStreams.Out, "started run %d of %s on %s in %s: %s\n", got.ID, w.File, ref, r.FullName(), got.HTMLURL)
	fmt.Fprintf(f.IOStreams.ErrOut, "follow it with: forgego run watch -R %s %d\n", r.FullName(), got.ID)
	return nil
}
