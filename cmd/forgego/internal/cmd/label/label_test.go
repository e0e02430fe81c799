package label

import (
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

func TestNewCmdCreateAndEdit(t *testing.T) {
	f, _, _ := cmdutil.TestFactory("g/remote")
	var c *CreateOptions
	err := cmdutil.ExecuteTest(NewCmdCreate(f, func(o *CreateOptions) error { c = o; return nil }), "bug", "--color", "#EE0701", "-d", "Broken")
	if err != nil || c.Repo.FullName() != "g/remote" || c.Name != "bug" || c.Color != "#ee0701" || c.Description != "Broken" {
		t.Errorf("create: %v %+v", err, c)
	}
	for _, args := range [][]string{{"bug"}, {"bug", "--color", "red"}} {
		if err := cmdutil.ExecuteTest(NewCmdCreate(f, func(*CreateOptions) error { return nil }), args...); err == nil || !strings.Contains(err.Error(), "--color") {
			t.Errorf("create %q: %v", args, err)
		}
	}
	var e *EditOptions
	err = cmdutil.ExecuteTest(NewCmdEdit(f, func(o *EditOptions) error { e = o; return nil }), "o/r", "bug", "--name", "defect", "--json", "name")
	if err != nil || e.Repo.FullName() != "o/r" || e.Name != "bug" || e.Edit.Name == nil || *e.Edit.Name != "defect" || e.Edit.Color != nil {
		t.Errorf("edit: %v %+v", err, e)
	}
	if err := cmdutil.ExecuteTest(NewCmdDelete(f, func(*DeleteOptions) error { return nil }), "bug"); err == nil || !strings.Contains(err.Error(), "--yes") {
		t.Errorf("delete without --yes: %v", err)
	}
}
