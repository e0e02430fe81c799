package misc

import (
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

func TestNewCmdVersionAndRateLimit(t *testing.T) {
	f, _, _ := cmdutil.TestFactory("")
	var got *Options
	if err := cmdutil.ExecuteTest(NewCmdRateLimit(f, func(o *Options) error { got = o; return nil }), "--json", "known,remaining"); err != nil || len(got.JSON.Fields) != 2 {
		t.Errorf("ratelimit --json: %v %+v", err, got)
	}
	// The old boolean --json alone now lists the fields.
	if err := cmdutil.ExecuteTest(NewCmdRateLimit(f, func(*Options) error { return nil }), "--json"); err == nil || !strings.Contains(err.Error(), "--json needs one or more") {
		t.Errorf("ratelimit --json alone: %v", err)
	}
	if err := cmdutil.ExecuteTest(NewCmdVersion(f, func(*Options) error { return nil }), "extra"); err == nil || !strings.Contains(err.Error(), "takes no arguments") {
		t.Errorf("version extra: %v", err)
	}
	if err := cmdutil.ExecuteTest(NewCmdVersion(f, func(*Options) error { return nil }), "--json", "serverr"); err == nil || !strings.Contains(err.Error(), `unknown field "serverr"`) {
		t.Errorf("version --json serverr: %v", err)
	}
}
