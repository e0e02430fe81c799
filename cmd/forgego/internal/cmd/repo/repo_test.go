package repo

import (
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

func TestNewCmdCreateForkClone(t *testing.T) {
	f, _, _ := cmdutil.TestFactory("g/remote")
	var c *CreateOptions
	err := cmdutil.ExecuteTest(NewCmdCreate(f, func(o *CreateOptions) error { c = o; return nil }), "my-org/site", "--private", "--license", "MIT", "--json", "full_name")
	if err != nil || c.Owner != "my-org" || c.Name != "site" || !c.Option.Private || !c.Option.AutoInit || c.Option.License != "MIT" {
		t.Errorf("create: %v %+v", err, c)
	}
	for args, want := range map[string]string{"a/b/c": "is not NAME or OWNER/NAME", "x --private --public": "cannot be used together", "": "needs one NAME"} {
		if err := cmdutil.ExecuteTest(NewCmdCreate(f, func(*CreateOptions) error { return nil }), strings.Fields(args)...); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("create %q: %v, want %q", args, err, want)
		}
	}
	var fo *ForkOptions
	err = cmdutil.ExecuteTest(NewCmdFork(f, func(o *ForkOptions) error { fo = o; return nil }), "--org", "o", "--fork-name", "n")
	if err != nil || fo.Repo.FullName() != "g/remote" || fo.Organization != "o" || fo.Name != "n" {
		t.Errorf("fork: %v %+v", err, fo)
	}
	var cl *CloneOptions
	err = cmdutil.ExecuteTest(NewCmdClone(f, func(o *CloneOptions) error { cl = o; return nil }), "forgejo/forgejo")
	if err != nil || cl.Repo.FullName() != "forgejo/forgejo" || cl.Dir != "forgejo" {
		t.Errorf("clone: %v %+v", err, cl)
	}
	var l *ListOptions
	err = cmdutil.ExecuteTest(NewCmdList(f, func(o *ListOptions) error { l = o; return nil }), "forgejo", "--all")
	if err != nil || l.Owner != "forgejo" || !l.List.All {
		t.Errorf("list: %v %+v", err, l)
	}
}
