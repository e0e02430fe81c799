package auth

import (
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
)

// The checks before anything is sent, on a factory with no client.
func TestAuthFlags(t *testing.T) {
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"login"}, "needs --with-token"},
		{"", []string{"login", "--with-token"}, "standard input holds no token"},
		{"a b\n", []string{"login", "--with-token"}, "spaces or control characters"},
		{"", []string{"login", "--with-token", "--hostname", "ftp://x"}, "--hostname"},
		{"", []string{"status", "extra"}, "takes no arguments"},
		{"t\n", []string{"login", "--with-token", "--user", "a/b"}, "--user"},
		{"", []string{"token"}, "no token stored for https://codeberg.org"},
	} {
		f, _, _ := cmdutil.TestFactory("")
		f.IOStreams.In = strings.NewReader(tc.stdin)
		if err := cmdutil.ExecuteTest(NewCmdAuth(f), tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
	}
}

func TestNewCmdLogin(t *testing.T) {
	f, _, _ := cmdutil.TestFactory("")
	f.IOStreams.In = strings.NewReader("  tok123  \nsecond line\n")
	var got *LoginOptions
	err := cmdutil.ExecuteTest(NewCmdLogin(f, func(o *LoginOptions) error { got = o; return nil }), "--with-token", "--hostname", "git.example.org", "--user", "al.ice_1")
	if err != nil || got.Host != "https://git.example.org" || got.Token != "tok123" || got.User != "al.ice_1" {
		t.Fatalf("%v %+v", err, got)
	}
	var tok *TokenOptions
	if err := cmdutil.ExecuteTest(NewCmdToken(f, func(o *TokenOptions) error { tok = o; return nil }), "--hostname", "codeberg.org"); err != nil || tok.Hostname != "codeberg.org" {
		t.Fatalf("token: %v %+v", err, tok)
	}
}
