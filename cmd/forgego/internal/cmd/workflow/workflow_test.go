package workflow

import (
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

func TestNameOf(t *testing.T) {
	for content, want := range map[string]string{
		"name: CI\non: push\n":              "CI",
		"on: push\nname: 'Build it'  # x\n": "Build it",
		"name: \"A # not a comment\"\n":     "A # not a comment",
		"name: Deploy # to prod\n":          "Deploy",
		"jobs:\n  a:\n    name: inner\n":    "",
		"name:\r\n":                         "",
		"run-name: r\nname: n\r\n":          "n",
	} {
		if got := nameOf(content); got != want {
			t.Errorf("%q: %q, want %q", content, got, want)
		}
	}
}

func TestNewCmdRunInputs(t *testing.T) {
	f, _, _ := cmdutil.TestFactory("g/remote")
	f.IOStreams.In = strings.NewReader("from stdin\n")
	var got *RunOptions
	err := cmdutil.ExecuteTest(NewCmdRun(f, func(o *RunOptions) error { got = o; return nil }),
		"ci.yml", "--ref", "dev", "-f", "a=1=2", "-f", "empty=", "-F", "s=@-", "-f", "at=@literal")
	if err != nil || got.Workflow != "ci.yml" || got.Ref != "dev" || got.Repo.FullName() != "g/remote" ||
		got.Inputs["a"] != "1=2" || got.Inputs["empty"] != "" || got.Inputs["s"] != "from stdin\n" || got.Inputs["at"] != "@literal" {
		t.Fatalf("%v %+v", err, got)
	}
	for args, msg := range map[string]string{
		"":                      "needs a WORKFLOW",
		"ci.yml -f novalue":     "is not KEY=VALUE",
		"ci.yml -f =v":          "is not KEY=VALUE",
		"ci.yml -f a=1 -F a=2":  "given twice",
		"ci.yml -F a=@/no/such": "no such file",
		"ci.yml --json nope":    "unknown field",
	} {
		err := cmdutil.ExecuteTest(NewCmdRun(f, func(*RunOptions) error { return nil }), strings.Fields(args)...)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v, want %q", args, err, msg)
		}
	}
	if err := cmdutil.ExecuteTest(NewCmdView(f, func(*ViewOptions) error { return nil }), "ci.yml", "--yaml", "--json", "name"); err == nil {
		t.Error("view --yaml --json accepted")
	}
}
