package pr

import (
	"strconv"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

func TestNewCmdCheckout(t *testing.T) {
	tests := []struct {
		args    []string
		remote  string
		want    string // OWNER/REPO#N@BRANCH
		wantErr string
	}{
		{[]string{"7"}, "g/remote", "g/remote#7@", ""},
		{[]string{"#7", "--branch", "review-7"}, "g/remote", "g/remote#7@review-7", ""},
		{[]string{"o/r", "7", "-b", "x"}, "", "o/r#7@x", ""},
		{[]string{"-R", "o/r", "12"}, "g/remote", "o/r#12@", ""},
		{[]string{"seven"}, "g/remote", "", `"seven" is not a number`},
		{[]string{"7"}, "", "", "needs OWNER/REPO"},
		{[]string{"o/r", "7", "8"}, "", "", "takes OWNER/REPO and one argument"},
	}
	for _, tc := range tests {
		f, _, _ := cmdutil.TestFactory(tc.remote)
		var got *CheckoutOptions
		err := cmdutil.ExecuteTest(NewCmdCheckout(f, func(o *CheckoutOptions) error { got = o; return nil }), tc.args...)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%q: error %v, want %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got == nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if s := got.Repo.FullName() + "#" + strconv.FormatInt(got.Number, 10) + "@" + got.Branch; s != tc.want {
			t.Errorf("%q: %s, want %s", tc.args, s, tc.want)
		}
	}
}

func TestNewCmdListAndMerge(t *testing.T) {
	f, _, _ := cmdutil.TestFactory("")
	var l *ListOptions
	err := cmdutil.ExecuteTest(NewCmdList(f, func(o *ListOptions) error { l = o; return nil }), "o/r", "--state", "merged", "-L", "3", "--json", "number,merged")
	if err != nil || l.State != "merged" || l.List.Limit != 3 || len(l.JSON.Fields) != 2 {
		t.Errorf("list: %v %+v", err, l)
	}
	err = cmdutil.ExecuteTest(NewCmdList(f, func(*ListOptions) error { return nil }), "o/r", "--state", "draft")
	if err == nil || !strings.Contains(err.Error(), "open, closed, merged or all") {
		t.Errorf("list --state draft: %v", err)
	}
	var m *MergeOptions
	err = cmdutil.ExecuteTest(NewCmdMerge(f, func(o *MergeOptions) error { m = o; return nil }), "o/r", "7", "--squash", "-d", "-t", "Subject")
	if err != nil || m.Style != "squash" || !m.DeleteBranch || m.Subject != "Subject" || m.Number != 7 {
		t.Errorf("merge: %v %+v", err, m)
	}
	err = cmdutil.ExecuteTest(NewCmdMerge(f, func(*MergeOptions) error { return nil }), "o/r", "7", "--squash", "--rebase")
	if err == nil || !strings.Contains(err.Error(), "exactly one of") {
		t.Errorf("merge with two styles: %v", err)
	}
}
