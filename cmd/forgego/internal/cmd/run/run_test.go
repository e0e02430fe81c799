package run

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

func TestNewCmdListFlags(t *testing.T) {
	f, _, _ := cmdutil.TestFactory("g/remote")
	var got *ListOptions
	err := cmdutil.ExecuteTest(NewCmdList(f, func(o *ListOptions) error { got = o; return nil }),
		"-w", "ci.yml", "-b", "main", "-s", "failure", "-e", "push", "-L", "5")
	if err != nil || got.Repo.FullName() != "g/remote" || got.Workflow != "ci.yml" || got.Branch != "main" ||
		got.Status != "failure" || got.Event != "push" || got.List.Limit != 5 {
		t.Fatalf("%v %+v", err, got)
	}
	for _, args := range [][]string{{"-s", "queued"}, {"-L", "0"}, {"--json", "nope"}, {"a/b", "c/d"}} {
		if err := cmdutil.ExecuteTest(NewCmdList(f, func(*ListOptions) error { return nil }), args...); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

func TestNewCmdViewFlags(t *testing.T) {
	f, _, _ := cmdutil.TestFactory("g/remote")
	for args, want := range map[string]string{"42": "g/remote#42", "o/r 42": "o/r#42", "-R o/r 42": "o/r#42", "42 --log --job 7": "g/remote#42"} {
		var got *ViewOptions
		err := cmdutil.ExecuteTest(NewCmdView(f, func(o *ViewOptions) error { got = o; return nil }), strings.Fields(args)...)
		if err != nil || got.Repo.FullName()+"#"+itoa(got.RunID) != want {
			t.Errorf("%q: %v %+v", args, err, got)
		}
	}
	for args, msg := range map[string]string{
		"":                      "needs a RUN id",
		"abc":                   "is not a number",
		"42 --log --log-failed": "cannot be used together",
		"42 --log --json id":    "cannot be used together",
		"42 --json nope":        "unknown field",
		"o/r 42 extra":          "takes OWNER/REPO and one argument",
		"-R o/r o/r 42":         "given twice",
	} {
		err := cmdutil.ExecuteTest(NewCmdView(f, func(*ViewOptions) error { return nil }), strings.Fields(args)...)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v, want %q", args, err, msg)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestNewCmdWatchAndDownloadFlags(t *testing.T) {
	f, _, _ := cmdutil.TestFactory("g/remote")
	var w *WatchOptions
	if err := cmdutil.ExecuteTest(NewCmdWatch(f, func(o *WatchOptions) error { w = o; return nil }), "7", "-i", "10", "--exit-status"); err != nil ||
		w.RunID != 7 || w.Interval != 10*time.Second || !w.ExitStatus {
		t.Errorf("watch: %v %+v", err, w)
	}
	if err := cmdutil.ExecuteTest(NewCmdWatch(f, func(*WatchOptions) error { return nil }), "7", "-i", "0"); err == nil {
		t.Error("--interval 0 accepted")
	}
	dir := t.TempDir()
	var d *DownloadOptions
	if err := cmdutil.ExecuteTest(NewCmdDownload(f, func(o *DownloadOptions) error { d = o; return nil }), "7", "-n", "a", "-n", "b", "-p", "*.zip", "-D", dir); err != nil ||
		d.RunID != 7 || !slices.Equal(d.Names, []string{"a", "b"}) || d.Dir != dir || !d.wants("b") || !d.wants("x.zip") || d.wants("c") {
		t.Errorf("download: %v %+v", err, d)
	}
	for _, args := range [][]string{{"7", "-p", "["}, {"7", "-D", dir + "/nope"}, {}} {
		if err := cmdutil.ExecuteTest(NewCmdDownload(f, func(*DownloadOptions) error { return nil }), args...); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

// The log of a job is written line by line after the job's name, a last
// line without its newline finished.
func TestPrefixWriter(t *testing.T) {
	var b bytes.Buffer
	p := &prefixWriter{w: &b, prefix: "build\t"}
	for _, chunk := range []string{"one\ntw", "o\n", "", "\nthree"} {
		p.Write([]byte(chunk))
	}
	p.end()
	if want := "build\tone\nbuild\ttwo\nbuild\t\nbuild\tthree\n"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
	if cmdutil.OneLine("a\nb\tc\rd") != "a b c d" {
		t.Error("oneLine")
	}
}
