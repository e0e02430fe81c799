package integration

import "testing"

// The route matrix names the server's kind from its version string, not
// from the script that usually starts it.
func TestServerKindFromVersion(t *testing.T) {
	for v, want := range map[string]string{
		"15.0.3+gitea-1.22.0":                    "a real Forgejo (Forgejo 15.0.3+gitea-1.22.0)",
		"16.0.0-dev-539-4695780d41+gitea-1.22.0": "a real Forgejo (Forgejo 16.0.0-dev-539-4695780d41+gitea-1.22.0)",
		"1.27.3":                                 "a real Gitea (`scripts/gitea.sh`, Gitea 1.27.3)",
		"(unknown)":                              "a real server of unknown kind (version (unknown))",
	} {
		if got := serverKind(v); got != want {
			t.Errorf("%q: %q, want %q", v, got, want)
		}
	}
}
