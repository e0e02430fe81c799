package release

import (
	"slices"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

func TestNewCmdDownload(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args    []string
		remote  string
		want    func(*DownloadOptions) bool
		wantErr string
	}{
		{[]string{"v1.2.0", "-R", "o/r"}, "", func(o *DownloadOptions) bool {
			return o.Repo.FullName() == "o/r" && o.Tag == "v1.2.0" && o.Dir == "." && !o.Clobber && len(o.Patterns) == 0
		}, ""},
		// No TAG: the latest release; the repository from the git remote.
		{[]string{"-p", "*.tar.gz", "--pattern", "*.zip", "-D", dir, "--clobber"}, "g/remote", func(o *DownloadOptions) bool {
			return o.Repo.FullName() == "g/remote" && o.Tag == "" && o.Dir == dir && o.Clobber && slices.Equal(o.Patterns, []string{"*.tar.gz", "*.zip"})
		}, ""},
		{[]string{"v1", "v2", "-R", "o/r"}, "", nil, "takes one TAG"},
		{[]string{"v1", "-R", "o/r", "-p", "["}, "", nil, "is not a glob"},
		{[]string{"v1", "-R", "o/r", "-D", dir + "/nope"}, "", nil, "no such directory"},
		{[]string{"v1"}, "", nil, "needs OWNER/REPO"},
	}
	for _, tc := range tests {
		f, _, _ := cmdutil.TestFactory(tc.remote)
		var got *DownloadOptions
		err := cmdutil.ExecuteTest(NewCmdDownload(f, func(o *DownloadOptions) error { got = o; return nil }), tc.args...)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%q: error %v, want %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got == nil || !tc.want(got) {
			t.Errorf("%q: %v, options %+v", tc.args, err, got)
		}
	}
}

func TestNewCmdViewAndCreate(t *testing.T) {
	f, _, _ := cmdutil.TestFactory("g/remote")
	for args, want := range map[string]string{"": "g/remote@", "o/r": "o/r@", "v1": "g/remote@v1", "o/r v1": "o/r@v1", "-R o/r v1": "o/r@v1"} {
		var got *ViewOptions
		err := cmdutil.ExecuteTest(NewCmdView(f, func(o *ViewOptions) error { got = o; return nil }), strings.Fields(args)...)
		if err != nil || got.Repo.FullName()+"@"+got.Tag != want {
			t.Errorf("view %q: %v %+v, want %s", args, err, got, want)
		}
	}
	var c *CreateOptions
	err := cmdutil.ExecuteTest(NewCmdCreate(f, func(o *CreateOptions) error { c = o; return nil }), "v1.0", "-R", "o/r", "-t", "One", "-p", "--json", "id,html_url")
	if err != nil || c.Tag != "v1.0" || c.Title != "One" || !c.Prerelease || c.Draft || !slices.Equal(c.JSON.Fields, []string{"id", "html_url"}) {
		t.Errorf("create: %v %+v", err, c)
	}
	err = cmdutil.ExecuteTest(NewCmdCreate(f, func(*CreateOptions) error { return nil }), "v1.0", "missing-file")
	if err == nil || !strings.Contains(err.Error(), "missing-file: no such file") {
		t.Errorf("create with a missing file: %v", err)
	}
}
