package variable

import (
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

func TestNewCmdVariableFlags(t *testing.T) {
	f, _, _ := cmdutil.TestFactory("")
	f.IOStreams.In = strings.NewReader("eu-west\n")
	var got *Options
	if err := cmdutil.ExecuteTest(NewCmdSet(f, func(o *Options) error { got = o; return nil }), "REGION", "--user"); err != nil ||
		got.Value != "eu-west" || got.Name != "REGION" || !got.Scope.User {
		t.Fatalf("%v %+v", err, got)
	}
	if err := cmdutil.ExecuteTest(NewCmdGet(f, func(o *Options) error { got = o; return nil }), "REGION", "-o", "acme", "--json", "name,value"); err != nil ||
		got.Scope.Org != "acme" || !got.JSON.On() {
		t.Fatalf("get: %v %+v", err, got)
	}
	for _, tc := range []struct {
		cmd  func() error
		want string
	}{
		{func() error { return cmdutil.ExecuteTest(NewCmdList(f, nil), "extra", "--user") }, "takes no arguments"},
		{func() error { return cmdutil.ExecuteTest(NewCmdGet(f, nil), "--user") }, "needs one NAME"},
		{func() error { return cmdutil.ExecuteTest(NewCmdDelete(f, nil), "X") }, "needs OWNER/REPO"},
		{func() error { return cmdutil.ExecuteTest(NewCmdSet(f, nil), "X", "--user", "--body", "") }, "empty"},
	} {
		if err := tc.cmd(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v, want %q", err, tc.want)
		}
	}
}
