package api

import (
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

func parse(t *testing.T, remote, stdin string, args ...string) (*Options, error) {
	t.Helper()
	f, _, _ := cmdutil.TestFactory(remote)
	f.IOStreams.In = strings.NewReader(stdin)
	var got *Options
	err := cmdutil.ExecuteTest(NewCmdAPI(f, func(o *Options) error { got = o; return nil }), args...)
	return got, err
}

func TestNewCmdAPI(t *testing.T) {
	o, err := parse(t, "", "", "-X", "get", "/api/v1/repos/o/r/issues?state=closed", "-f", "limit=5")
	if err != nil || o.Request.Method != "GET" || o.Request.Path != "/repos/o/r/issues" ||
		o.Request.Query.Get("state") != "closed" || o.Request.Query.Get("limit") != "5" || o.Request.Body != nil {
		t.Fatalf("GET with fields: %v %+v", err, o)
	}
	// Fields without -X: POST, a JSON body with typed -F values.
	o, err = parse(t, "", "", "repos/o/r/issues", "-f", "title=Bug", "-F", "closed=false", "-F", "n=3")
	body, _ := o.Request.Body.(map[string]any)
	if err != nil || o.Request.Method != "POST" || body["title"] != "Bug" || body["closed"] != false || body["n"] != int64(3) {
		t.Fatalf("POST: %v %+v", err, o)
	}
	// {owner}/{repo} from the git remote; --input - from stdin; --jq.
	o, err = parse(t, "g/remote", `{"title":"x"}`, "-X", "PATCH", "/repos/{owner}/{repo}/issues/3", "--input", "-", "-q", ".title", "-H", "X-Trace: 1")
	if err != nil || o.Request.Method != "PATCH" || o.Request.Path != "/repos/g/remote/issues/3" ||
		string(o.Request.Body.([]byte)) != `{"title":"x"}` || o.JQ.JQ != ".title" || len(o.CallOpts) != 1 {
		t.Fatalf("PATCH: %v %+v", err, o)
	}
	o, err = parse(t, "", "", "--paginate", "/repos/o/r/labels", "-i")
	if err != nil || !o.Paginate || !o.Include || o.Silent {
		t.Fatalf("paginate: %v %+v", err, o)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"https://codeberg.org/api/v1/version"}, "not a URL"},
		{[]string{"/a", "/b"}, "exactly one PATH"},
		{[]string{"/version", "-H", "Authorization: token x"}, "cannot be set"},
		{[]string{"-X", "POST", "--paginate", "/x"}, "--paginate works with GET only"},
		{[]string{"/version", "--jq", ".[", "--silent"}, "--jq"},
		{[]string{"/repos/{owner}/{repo}"}, "need the git remote"},
		{[]string{"/x", "-f", "novalue"}, "is not key=value"},
	} {
		if _, err := parse(t, "", "", tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
	}
}
