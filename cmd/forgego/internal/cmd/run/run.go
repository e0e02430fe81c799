// Package run is 'forgego run': the workflow runs of Forgejo Actions —
// list, view (with the jobs' logs), watch, cancel, download (the
// artifacts) and delete.
package run

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// eventOf reads the event that started a run from what the command holds.
func eventOf(item any) any {
	if r, ok := item.(interface{ EventName() string }); ok {
		return r.EventName()
	}
	return nil
}

// Fields are the --json fields of the commands that print runs: the CLI's
// contract, written out (cmdutil.Field). event is the event that started
// the run whichever field the server put it in (Forgejo 15 leaves event
// empty for a dispatched run and fills trigger_event).
var Fields = append(cmdutil.Fields(&forgejo.ActionRun{},
	"commit_sha", "created", "duration", "html_url", "id", "index_in_repo", "is_fork_pull_request",
	"need_approval", "prettyref", "started", "status", "stopped", "title", "trigger_event",
	"trigger_user", "updated", "workflow_id",
), cmdutil.Field{Name: "event", Get: eventOf})

// viewFields are run view's: a run's fields and its jobs.
var viewFields = append(slices.Clone(Fields), cmdutil.Field{Name: "jobs", Get: func(item any) any {
	if d, ok := item.(*runDoc); ok && d.Jobs != nil {
		return plain(d.Jobs)
	}
	return nil
}})

// plain is v as encoding/json reads it back (maps, slices, strings,
// float64s): what --jq and --template work on.
func plain(v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if json.Unmarshal(data, &out) != nil {
		return nil
	}
	return out
}

// runDoc is what run view prints as JSON: the run and its jobs (nil where
// the server has no jobs route).
type runDoc struct {
	*forgejo.ActionRun
	Jobs []*forgejo.ActionRunJob `json:"jobs"`
}

// Statuses are the states Forgejo gives a run or a job.
var Statuses = []string{"unknown", "waiting", "running", "success", "failure", "cancelled", "skipped", "blocked"}

// NewCmdRun is the 'run' group.
func NewCmdRun(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.GroupCmd("run", "List, view, watch, cancel, download and delete workflow runs (Forgejo Actions)")
	cmd.AddCommand(NewCmdList(f, nil), NewCmdView(f, nil), NewCmdWatch(f, nil), NewCmdCancel(f, nil), NewCmdDownload(f, nil), NewCmdDelete(f, nil))
	return cmd
}

// failed reports whether a final status counts as a failure for
// --exit-status (as gh: anything but success or skipped).
func failed(s forgejo.ActionStatus) bool {
	return s == forgejo.ActionStatusFailure || s == forgejo.ActionStatusCancelled
}

// elapsed is a run's duration for people, "-" when it has not started.
func elapsed(d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	return d.Round(time.Second).String()
}

// ref is the branch or tag a run ran on.
func ref(r *forgejo.ActionRun) string {
	if r.Prettyref != "" {
		return r.Prettyref
	}
	return "-"
}

// runArgs reads [OWNER/REPO] RUN.
func runArgs(cmd *cobra.Command, f *cmdutil.Factory, repoFlag string, args []string) (cmdutil.Repo, int64, error) {
	if len(args) == 0 {
		return cmdutil.Repo{}, 0, cmdutil.Usagef("%s needs a RUN id (see 'forgego run list')", cmd.CommandPath())
	}
	return f.RepoNumber(cmd, repoFlag, args)
}

// prefixWriter writes each line with prefix before it.
type prefixWriter struct {
	w      io.Writer
	prefix string
	mid    bool // inside a line: the prefix has been written
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	n := 0
	for len(b) > 0 {
		if !p.mid {
			if _, err := io.WriteString(p.w, p.prefix); err != nil {
				return n, err
			}
			p.mid = true
		}
		i := slices.Index(b, '\n')
		chunk := b
		if i >= 0 {
			chunk = b[:i+1]
			p.mid = false
		}
		m, err := p.w.Write(chunk)
		n += m
		if err != nil {
			return n, err
		}
		b = b[len(chunk):]
	}
	return n, nil
}

// end finishes a last line without a newline.
func (p *prefixWriter) end() {
	if p.mid {
		fmt.Fprintln(p.w)
		p.mid = false
	}
}

// runTitle is a run's title, else its workflow's file, else "run ID" (Gitea
// sends neither field of Forgejo's model).
func runTitle(r *forgejo.ActionRun) string {
	switch {
	case r.Title != "":
		return r.Title
	case r.WorkflowID != "":
		return r.WorkflowID
	}
	return "run " + strconv.FormatInt(r.ID, 10)
}
