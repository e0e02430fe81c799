package secret

import (
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

// The value comes from standard input (its last line end dropped) or
// --body, never from an argument, and is masked from the moment it is
// read.
func TestNewCmdSetValue(t *testing.T) {
	const value = "hunter2-but-longer"
	f, _, _ := cmdutil.TestFactory("g/remote")
	f.IOStreams.In = strings.NewReader(value + "\r\n")
	var got *SetOptions
	if err := cmdutil.ExecuteTest(NewCmdSet(f, func(o *SetOptions) error { got = o; return nil }), "KEY"); err != nil ||
		got.Value != value || got.Name != "KEY" || got.Scope.Repo.FullName() != "g/remote" {
		t.Fatalf("%v %+v", err, got)
	}
	if m := f.IOStreams.Mask.Mask("x " + value + " y"); strings.Contains(m, value) {
		t.Errorf("the value is not masked: %q", m)
	}
	if err := cmdutil.ExecuteTest(NewCmdSet(f, func(o *SetOptions) error { got = o; return nil }), "KEY", "--org", "acme", "--body", "multi\nline\n"); err != nil ||
		got.Value != "multi\nline\n" || got.Scope.Org != "acme" {
		t.Fatalf("--body: %v %+v", err, got)
	}
	for args, msg := range map[string]string{
		"KEY " + value:       "never as an argument",
		"":                   "needs one NAME",
		"KEY --org a --user": "give one of them",
		"KEY -R o/r --user":  "give one of them",
		"KEY --body=":        "empty",
	} {
		err := cmdutil.ExecuteTest(NewCmdSet(f, func(*SetOptions) error { return nil }), strings.Fields(args)...)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v, want %q", args, err, msg)
		}
		if err != nil && strings.Contains(err.Error(), value) {
			t.Errorf("%q: the error repeats the value: %v", args, err)
		}
	}
	var l *ListOptions
	if err := cmdutil.ExecuteTest(NewCmdList(f, func(o *ListOptions) error { l = o; return nil }), "--org", "acme"); err != nil || l.Scope.Org != "acme" {
		t.Errorf("list --org: %v %+v", err, l)
	}
	if err := cmdutil.ExecuteTest(NewCmdList(f, func(*ListOptions) error { return nil }), "--user"); err == nil {
		t.Error("list --user accepted: Forgejo cannot list a user's secrets")
	}
}
