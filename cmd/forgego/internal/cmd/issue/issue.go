// Package issue is 'forgego issue': list, view, create, edit, close,
// reopen and comment.
package issue

import (
	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// Fields are the --json fields of the commands that print issues: the
// CLI's contract, written out (cmdutil.Field).
var Fields = cmdutil.Fields(&forgejo.Issue{},
	"assets", "assignee", "assignees", "body", "closed_at", "comments", "created_at",
	"due_date", "html_url", "id", "is_locked", "labels", "milestone", "number",
	"original_author", "original_author_id", "pin_order", "pull_request", "ref", "repository",
	"state", "title", "updated_at", "url", "user",
)

// NewCmdIssue is the 'issue' group.
func NewCmdIssue(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.GroupCmd("issue", "List, view, create, edit, close and comment on issues")
	cmd.AddCommand(NewCmdList(f, nil), NewCmdView(f, nil), NewCmdCreate(f, nil), NewCmdEdit(f, nil),
		NewCmdState(f, nil, "close"), NewCmdState(f, nil, "reopen"),
		NewCmdComment(f, nil, "issue", "issue", "Comment on an issue", `  forgego issue comment 12 --body "Fixed in 1.2"`))
	return cmd
}
