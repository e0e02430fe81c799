package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

var update = flag.Bool("update", false, "rewrite testdata/transcript.txt from this run")

// TestTranscript runs a session of every command against one fake, in
// order (each sees what the ones before it made), and compares what each
// printed on stdout and stderr, and its exit status, with
// testdata/transcript.txt. The server's address, dates, times and
// temporary directories are replaced by $URL, DATE, TIME and $TMP. After a
// deliberate change of output: go test -run TestTranscript -update.
//
// git's commands (repo clone, pr checkout) and release download are
// transcribed in their own tests (git_test.go, download_test.go): they
// need a git server and asset contents the fake does not keep.
func TestTranscript(t *testing.T) {
	srv := forgejotest.NewServer(t, forgejotest.WithDefaultUser("alice"))
	srv.AddRepo("alice", "proj")
	srv.SetRepo("alice", "proj", "A project", false, false)
	srv.AddUser("bob")
	srv.AddRepo("bob", "lib")
	srv.AddBranch("alice", "proj", "feature")
	env, _ := authEnv(t)
	tmp := t.TempDir()
	asset := filepath.Join(tmp, "notes.txt")
	if err := os.WriteFile(asset, []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	body := filepath.Join(tmp, "edit.json")
	if err := os.WriteFile(body, []byte(`{"title":"Edited through api"}`), 0o644); err != nil {
		t.Fatal(err)
	}

	steps := []struct {
		stdin string
		args  []string
	}{
		{"", []string{"--url", srv.URL, "issue", "create", "alice/proj", "-t", "no token yet"}},
		{srv.Token() + "\n", []string{"auth", "login", "--hostname", srv.URL, "--with-token"}},
		{"", []string{"auth", "status"}},
		{"", []string{"version"}},
		{"", []string{"repo", "view", "alice/proj"}},
		{"", []string{"repo", "list", "alice"}},
		{"", []string{"repo", "create", "tools", "--description", "Scripts"}},
		{"", []string{"repo", "fork", "bob/lib"}},
		{"", []string{"label", "create", "bug", "--color", "ee0701", "--description", "Broken", "-R", "alice/proj"}},
		{"", []string{"label", "create", "ui", "--color", "#00ff00", "-R", "alice/proj"}},
		{"", []string{"label", "edit", "ui", "--name", "design", "-R", "alice/proj"}},
		{"", []string{"label", "list", "-R", "alice/proj"}},
		{"", []string{"label", "delete", "design", "--yes", "-R", "alice/proj"}},
		{"", []string{"issue", "create", "-R", "alice/proj", "--title", "It broke", "--body", "Steps: run it.", "--label", "bug"}},
		{"", []string{"issue", "create", "-R", "alice/proj", "--title", "A second one"}},
		{"", []string{"issue", "comment", "1", "--body", "Same here.", "-R", "alice/proj"}},
		{"", []string{"issue", "edit", "2", "--title", "A second issue", "--add-label", "bug", "-R", "alice/proj"}},
		{"", []string{"issue", "list", "-R", "alice/proj"}},
		{"", []string{"issue", "list", "-R", "alice/proj", "--label", "bug", "--json", "number,title,state"}},
		{"", []string{"issue", "close", "1", "--comment", "Fixed.", "-R", "alice/proj"}},
		{"", []string{"issue", "view", "1", "--comments", "-R", "alice/proj"}},
		{"", []string{"issue", "reopen", "1", "-R", "alice/proj"}},
		{"", []string{"issue", "view", "1", "-R", "alice/proj", "--template", "{{.number}} {{.state}} {{join \",\" .labels}}\n"}},
		{"", []string{"issue", "list", "-R", "alice/proj", "--json", "nope"}},
		{"", []string{"pr", "create", "-R", "alice/proj", "--head", "feature", "--title", "Add a feature", "--body", "Please."}},
		{"", []string{"pr", "list", "-R", "alice/proj"}},
		{"", []string{"pr", "view", "3", "-R", "alice/proj"}},
		{"", []string{"pr", "comment", "3", "--body", "Looks good.", "-R", "alice/proj"}},
		{"", []string{"pr", "close", "3", "-R", "alice/proj"}},
		{"", []string{"pr", "reopen", "3", "-R", "alice/proj"}},
		{"", []string{"pr", "diff", "3", "-R", "alice/proj"}},
		{"", []string{"pr", "merge", "3", "-R", "alice/proj"}},
		{"", []string{"pr", "merge", "3", "--squash", "-R", "alice/proj"}},
		{"", []string{"pr", "list", "-R", "alice/proj", "--state", "merged", "--json", "number,state,merged"}},
		{"", []string{"pr", "checkout", "3", "-R", "alice/proj"}},
		{"", []string{"release", "create", "v1.0.0", "--title", "1.0.0", "--notes", "The first.", "-R", "alice/proj", asset}},
		{"", []string{"release", "upload", "v1.0.0", asset, "-R", "alice/proj"}},
		{"", []string{"release", "list", "-R", "alice/proj"}},
		{"", []string{"release", "view", "v1.0.0", "-R", "alice/proj", "--json", "tag_name,name,assets", "--jq", `"\(.tag_name) \(.name) \([.assets[].name]|join(","))"`}},
		{"", []string{"release", "delete", "v1.0.0", "-R", "alice/proj"}},
		{"", []string{"release", "delete", "v1.0.0", "--yes", "-R", "alice/proj"}},
		{"", []string{"api", "/repos/alice/proj/issues/2", "--jq", ".title"}},
		{"", []string{"api", "-X", "PATCH", "/repos/alice/proj/issues/2", "--input", body, "--jq", ".title"}},
		{"", []string{"api", "repos/alice/proj/labels", "-f", "name=docs", "-f", "color=0075ca", "--silent"}},
		{"", []string{"api", "--paginate", "/repos/alice/proj/labels", "--jq", ".[].name"}},
		{"", []string{"ratelimit"}},
		{"", []string{"completion", "tcsh"}},
		{"", []string{"auth", "logout", "--hostname", srv.URL}},
		{"", []string{"auth", "status"}},
	}
	var b strings.Builder
	for _, st := range steps {
		r := cliWith(t, env, func(a *app) {
			a.dir = tmp
			a.stdin = strings.NewReader(st.stdin)
		}, st.args...)
		fmt.Fprintf(&b, "$ forgego %s\nexit %d\n", quoteArgs(st.args), r.code)
		for _, s := range []struct{ name, text string }{{"stdout", r.stdout}, {"stderr", r.stderr}} {
			if s.text == "" {
				continue
			}
			fmt.Fprintf(&b, "--- %s\n%s", s.name, s.text)
			if !strings.HasSuffix(s.text, "\n") {
				b.WriteString("\n")
			}
		}
		b.WriteString("\n")
		if strings.Contains(r.stdout+r.stderr, srv.Token()) {
			t.Errorf("%v printed the token", st.args)
		}
	}
	got := normalize(b.String(), srv.URL, tmp)
	path := filepath.Join("testdata", "transcript.txt")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestTranscript -update)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			g, w := "", ""
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("transcript differs at line %d:\ngot  %q\nwant %q\n(run go test -run TestTranscript -update after a deliberate change)", i+1, g, w)
			}
		}
	}
}

var (
	rfc3339 = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`)
	isoDay  = regexp.MustCompile(`\b\d{4}-\d\d-\d\d\b`)
	resetIn = regexp.MustCompile(`resets in [0-9hms.]+`)
)

func normalize(s, url, tmp string) string {
	s = strings.ReplaceAll(s, url, "$URL")
	s = strings.ReplaceAll(s, strings.TrimPrefix(url, "http://"), "$HOST")
	s = strings.ReplaceAll(s, tmp, "$TMP")
	s = strings.ReplaceAll(s, "forgego "+forgejo.Version+"\n", "forgego $VERSION\n")
	s = strings.ReplaceAll(s, forgejotest.DefaultVersion, "$SERVER_VERSION")
	s = rfc3339.ReplaceAllString(s, "TIME")
	s = isoDay.ReplaceAllString(s, "DATE")
	return resetIn.ReplaceAllString(s, "resets in …")
}

func quoteArgs(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n\"'\\$*{}[]|,()") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}
