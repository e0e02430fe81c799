package issue

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

func TestNewCmdList(t *testing.T) {
	tests := []struct {
		args    []string
		remote  string
		want    func(*ListOptions) bool
		wantErr string
	}{
		{[]string{"o/r"}, "", func(o *ListOptions) bool {
			return o.Repo.FullName() == "o/r" && o.State == "open" && o.List.Limit == 30 && !o.List.All && !o.JSON.On()
		}, ""},
		{[]string{"-R", "o/r", "-s", "closed", "-L", "5", "-l", "bug", "-l", "ui", "-a", "alice", "-A", "bob", "-S", "crash"}, "", func(o *ListOptions) bool {
			return o.Repo.FullName() == "o/r" && o.State == "closed" && o.List.Limit == 5 && slices.Equal(o.Labels, []string{"bug", "ui"}) &&
				o.Assignee == "alice" && o.Author == "bob" && o.Search == "crash"
		}, ""},
		{[]string{"--all", "--json", "number,title", "--jq", ".[].title"}, "g/remote", func(o *ListOptions) bool {
			return o.Repo.FullName() == "g/remote" && o.List.All && slices.Equal(o.JSON.Fields, []string{"number", "title"}) && o.JSON.JQ == ".[].title"
		}, ""},
		{[]string{"o/r", "--state", "merged"}, "", nil, `--state must be open, closed or all, not "merged"`},
		{[]string{"o/r", "--all", "--limit", "3"}, "", nil, "--limit and --all cannot be used together"},
		{[]string{"o/r", "--json", "nope"}, "", nil, `--json: unknown field "nope"`},
		{[]string{"o/r", "--json"}, "", nil, "--json needs one or more comma-separated fields"},
		{[]string{"o/r", "-R", "o/r"}, "", nil, "OWNER/REPO given twice"},
		{nil, "", nil, "needs OWNER/REPO"},
	}
	for _, tc := range tests {
		f, _, _ := cmdutil.TestFactory(tc.remote)
		var got *ListOptions
		cmd := NewCmdList(f, func(o *ListOptions) error { got = o; return nil })
		err := cmdutil.ExecuteTest(cmd, tc.args...)
		if tc.wantErr != "" {
			var ue *cmdutil.UsageError
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.As(err, &ue) {
				t.Errorf("%q: error %v, want a usage error with %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got == nil || !tc.want(got) {
			t.Errorf("%q: %v, options %+v", tc.args, err, got)
		}
	}
}

func TestNewCmdCreateAndEdit(t *testing.T) {
	f, _, _ := cmdutil.TestFactory("")
	var c *CreateOptions
	err := cmdutil.ExecuteTest(NewCmdCreate(f, func(o *CreateOptions) error { c = o; return nil }),
		"o/r", "-t", "It broke", "-b", "text", "-l", "bug", "-a", "alice", "--json", "number,html_url")
	if err != nil || c.Title != "It broke" || c.Body != "text" || !slices.Equal(c.Labels, []string{"bug"}) || !slices.Equal(c.JSON.Fields, []string{"number", "html_url"}) {
		t.Errorf("create: %v %+v", err, c)
	}
	// The old boolean --json is now the field list: alone, it lists them.
	err = cmdutil.ExecuteTest(NewCmdCreate(f, func(*CreateOptions) error { return nil }), "o/r", "-t", "x", "--json")
	if err == nil || !strings.Contains(err.Error(), "--json needs one or more") {
		t.Errorf("create --json: %v", err)
	}
	var e *EditOptions
	err = cmdutil.ExecuteTest(NewCmdEdit(f, func(o *EditOptions) error { e = o; return nil }), "-R", "o/r", "#12", "--milestone", "", "--add-label", "bug")
	if err != nil || e.Number != 12 || e.Title != nil || e.Milestone == nil || *e.Milestone != "" || !slices.Equal(e.AddLabels, []string{"bug"}) {
		t.Errorf("edit: %v %+v", err, e)
	}
	err = cmdutil.ExecuteTest(NewCmdEdit(f, func(*EditOptions) error { return nil }), "o/r", "12")
	if err == nil || !strings.Contains(err.Error(), "needs something to change") {
		t.Errorf("edit without a change: %v", err)
	}
	var s *StateOptions
	err = cmdutil.ExecuteTest(NewCmdState(f, func(o *StateOptions) error { s = o; return nil }, "close"), "o/r", "3", "-c", "done")
	if err != nil || s.State != "closed" || s.Comment != "done" || s.Number != 3 {
		t.Errorf("close: %v %+v", err, s)
	}
}
