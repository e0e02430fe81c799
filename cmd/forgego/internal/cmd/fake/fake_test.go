package fake

import (
	"strings"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

func TestNewCmdServe(t *testing.T) {
	f, _, stderr := cmdutil.TestFactory("")
	var got *ServeOptions
	err := cmdutil.ExecuteTest(NewCmdServe(f, func(o *ServeOptions) error { got = o; return nil }), "--addr", "127.0.0.1:3000", "--seed", "demo", "--rate-limit", "100/1m")
	if err != nil || got.Addr != "127.0.0.1:3000" || got.Seed != "demo" || got.Quota != 100 || got.Window != time.Minute {
		t.Fatalf("%v %+v", err, got)
	}
	err = cmdutil.ExecuteTest(NewCmdServe(f, func(o *ServeOptions) error { got = o; return nil }), "--addr", "0.0.0.0:0", "--allow-remote", "--rate-limit", "5/30")
	if f.IOStreams.Flush(); err != nil || got.Window != 30*time.Second || !strings.Contains(stderr.String(), "warning: serving on 0.0.0.0:0") {
		t.Fatalf("%v %+v %q", err, got, stderr.String())
	}
	for _, rel := range []string{"15", "15.0", "15.0.3", "11.0.15", "16.0"} {
		err = cmdutil.ExecuteTest(NewCmdServe(f, func(o *ServeOptions) error { got = o; return nil }), "--release", rel)
		if err != nil || got.Release != rel {
			t.Errorf("--release %s: %v %+v", rel, err, got)
		}
	}
	for args, want := range map[string]string{
		"--addr 0.0.0.0:0":     "not a loopback address",
		"--addr nope":          "is not HOST:PORT",
		"--seed full":          "--seed must be demo or empty",
		"--rate-limit 5":       "is not Q/W",
		"--rate-limit 5/500ms": "at least 1s",
		"extra":                "takes no arguments",
		"--release 12.0":       `--release "12.0" is not a known Forgejo release: 11.0, 13.0, 14.0, 15.0, 16.0`,
		"--release 15.0.x":     "is not a known Forgejo release",
	} {
		if err := cmdutil.ExecuteTest(NewCmdServe(f, func(*ServeOptions) error { return nil }), strings.Fields(args)...); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", args, err, want)
		}
	}
}
