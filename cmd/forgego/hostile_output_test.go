package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/creack/pty"
)

// The CLI under a hostile instance: whatever text a server puts in any
// field, header-borne message or body, what reaches the terminal or a pipe
// carries no control character, and no secret, however the server cuts or
// disguises it. Every vector runs each command twice: through a pipe and
// on a pseudo-terminal.

// hostileToken is the token the CLI holds in these tests; the server
// echoes it, whole or disguised.
const hostileToken = "f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3"

// hostilePayloads are what a malicious instance puts in every string it
// serves.
var hostilePayloads = []struct{ name, text string }{
	{"clear-screen", "x\x1b[2J\x1b[Hy"},
	{"osc52-clipboard", "x\x1b]52;c;ZWNobyBvd25lZA==\x07y"},
	{"window-title", "x\x1b]0;owned\x07y"},
	{"osc-st", "x\x1b]8;;http://evil.example/\x1b\\link\x1b]8;;\x1b\\y"},
	{"cursor-moves", "x\x1b[10A\x1b[2K\x1b[1;1Hy"},
	{"c1-csi", "x\u009b2J\u009b31my"},
	{"c1-osc", "x\u009d0;owned\u009cy"},
	{"bel-bs-del-nul", "x\x07\x08\x7f\x00y"},
	{"lone-cr", "innocent\rowned"},
	{"vertical-tab-ff", "x\x0b\x0cy"},
	{"bidi-override", "x\u202egnp.exe\u202cy"},
	{"line-separator", "x\u2028y\u2029z"},
	{"token-split-by-escape", hostileToken[:12] + "\x1b[0m" + hostileToken[12:]},
	{"token-split-by-backspace", hostileToken[:12] + "Z\b" + hostileToken[12:]},
	{"token-split-by-zero-width", hostileToken[:12] + "\u200b" + hostileToken[12:]},
	{"token-split-by-csi-c1", hostileToken[:12] + "\u009b0m" + hostileToken[12:]},
	{"token-whole", "x " + hostileToken + " y"},
}

// hostileServer answers every route the commands below call with the
// payload in every string a person sees. Non-JSON bodies (a diff) carry
// it raw, plus a raw 0x9b byte (C1 CSI in an 8-bit terminal).
func hostileServer(t *testing.T, p string) *httptest.Server {
	t.Helper()
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	P := q(p)
	user := `{"id":1,"login":` + P + `,"full_name":` + P + `}`
	label := `{"id":1,"name":` + P + `,"color":"ff0000","description":` + P + `}`
	milestone := `{"id":1,"title":` + P + `}`
	issue := `{"id":1,"number":1,"title":` + P + `,"body":` + P + `,"state":"open","user":` + user + `,"labels":[` + label + `],"milestone":` + milestone +
		`,"assignees":[` + user + `],"comments":1,"created_at":"2025-01-01T00:00:00Z","updated_at":"2025-01-02T00:00:00Z","html_url":` + q("https://x.example/"+p) + `}`
	comment := `{"id":1,"body":` + P + `,"user":` + user + `,"created_at":"2025-01-01T00:00:00Z"}`
	branch := `{"ref":` + P + `,"label":` + P + `,"sha":"abc","repo":{"id":1,"full_name":` + P + `}}`
	pull := `{"id":1,"number":1,"title":` + P + `,"body":` + P + `,"state":"open","user":` + user + `,"labels":[` + label + `],"head":` + branch + `,"base":` + branch +
		`,"created_at":"2025-01-01T00:00:00Z","updated_at":"2025-01-02T00:00:00Z","html_url":` + P + `}`
	release := `{"id":1,"tag_name":"v1","name":` + P + `,"body":` + P + `,"author":` + user + `,"target_commitish":` + P +
		`,"created_at":"2025-01-01T00:00:00Z","published_at":"2025-01-01T00:00:00Z","html_url":` + P +
		`,"assets":[{"id":1,"name":` + P + `,"size":10,"download_count":1,"browser_download_url":"https://x.example/a"}]}`
	repo := `{"id":1,"name":"r","full_name":` + P + `,"description":` + P + `,"website":` + P + `,"owner":` + user +
		`,"default_branch":` + P + `,"topics":[` + P + `],"html_url":` + P + `,"clone_url":` + P + `,"language":` + P + `}`
	// Status "completed" (as Gitea ends a run) makes the CLI show the
	// conclusion: the payload.
	run := `{"id":1,"index_in_repo":1,"title":` + P + `,"status":"completed","conclusion":` + P + `,"path":` + P + `,"event":` + P + `,"trigger_event":` + P + `,"workflow_id":` + P +
		`,"prettyref":` + P + `,"commit_sha":` + P + `,"html_url":` + P + `,"trigger_user":` + user + `,"created":"2025-01-01T00:00:00Z","duration":1000000000}`
	job := `{"id":1,"name":` + P + `,"status":"completed","conclusion":` + P + `,"runs_on":[` + P + `],"needs":[` + P + `],"task_id":1,"attempt":1}`
	routes := map[string]string{
		"/api/v1/repos/o/r/actions/runs":        `{"total_count":1,"workflow_runs":[` + run + `]}`,
		"/api/v1/repos/o/r/actions/runs/1":      run,
		"/api/v1/repos/o/r/actions/runs/1/jobs": "[" + job + "]",
		"/api/v1/repos/o/r/actions/variables":   `[{"name":` + P + `,"data":` + P + `}]`,
		"/api/v1/repos/o/r/actions/secrets":     `[{"name":` + P + `,"created_at":"2025-01-01T00:00:00Z"}]`,
		"/api/v1/repos/o/r/issues":              "[" + issue + "]",
		"/api/v1/repos/o/r/issues/1":            issue,
		"/api/v1/repos/o/r/issues/1/comments":   "[" + comment + "]",
		"/api/v1/repos/o/r/pulls":               "[" + pull + "]",
		"/api/v1/repos/o/r/pulls/1":             pull,
		"/api/v1/repos/o/r/labels":              "[" + label + "]",
		"/api/v1/repos/o/r/releases":            "[" + release + "]",
		"/api/v1/repos/o/r/releases/tags/v1":    release,
		"/api/v1/repos/o/r/releases/latest":     release,
		"/api/v1/repos/o/r":                     repo,
		"/api/v1/users/o/repos":                 "[" + repo + "]",
		"/api/v1/repos/o/r/topics":              `{"topics":[` + P + `]}`,
		"/api/v1/version":                       `{"version":` + P + `}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/repos/o/r/actions/jobs/1/logs" {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = io.WriteString(w, p+"\n\x9b2J raw "+p+"\nno newline at the end "+p)
			return
		}
		if r.URL.Path == "/api/v1/repos/o/r/pulls/1.diff" || r.URL.Path == "/api/v1/repos/o/r/pulls/1.patch" {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = io.WriteString(w, "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-"+p+"\n+\x9b2J raw "+p+"\n")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if body, ok := routes[r.URL.Path]; ok {
			w.Header().Set("X-Total-Count", "1")
			_, _ = io.WriteString(w, body)
			return
		}
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"message":`+P+`,"errors":[`+P+`],"url":`+P+`}`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// hostileCommands are the commands that print what the server sent: views,
// tables, every JSON mode, errors quoting a body, -v, diffs and api.
var hostileCommands = []struct {
	name string
	args []string
}{
	{"issue-list", []string{"issue", "list", "o/r"}},
	{"issue-view", []string{"issue", "view", "o/r", "1", "--comments"}},
	{"pr-list", []string{"pr", "list", "o/r"}},
	{"pr-view", []string{"pr", "view", "o/r", "1"}},
	{"pr-diff", []string{"pr", "diff", "o/r", "1"}},
	{"label-list", []string{"label", "list", "o/r"}},
	{"release-list", []string{"release", "list", "o/r"}},
	{"release-view", []string{"release", "view", "o/r", "v1"}},
	{"repo-view", []string{"repo", "view", "o/r"}},
	{"repo-list", []string{"repo", "list", "o"}},
	{"run-list", []string{"run", "list", "o/r"}},
	{"run-view", []string{"run", "view", "o/r", "1"}},
	{"run-view-log", []string{"run", "view", "o/r", "1", "--log"}},
	{"run-view-json", []string{"run", "view", "o/r", "1", "--json", "title,jobs", "--jq", ".jobs[].name, .title"}},
	{"run-watch", []string{"run", "watch", "o/r", "1"}},
	{"variable-list", []string{"variable", "list", "-R", "o/r"}},
	{"secret-list", []string{"secret", "list", "-R", "o/r"}},
	{"run-error-404", []string{"run", "view", "o/r", "99"}},
	{"error-404", []string{"issue", "view", "o/r", "99"}},
	{"verbose", []string{"issue", "list", "o/r", "-v"}},
	{"json-fields", []string{"issue", "list", "o/r", "--json", "title,body,labels,user,milestone"}},
	{"json-view", []string{"issue", "view", "o/r", "1", "--json", "title,body,user"}},
	{"jq-raw", []string{"issue", "list", "o/r", "--jq", ".[].title"}},
	{"template", []string{"issue", "list", "o/r", "--template", "{{range .}}{{.title}} {{.body}}{{end}}"}},
	{"api-json", []string{"api", "/repos/o/r"}},
	{"api-jq", []string{"api", "/repos/o/r", "--jq", ".description"}},
	{"api-paginate", []string{"api", "--paginate", "/repos/o/r/issues"}},
	{"api-include", []string{"api", "-i", "/repos/o/r/labels"}},
	{"api-error", []string{"api", "/repos/o/r/nothing"}},
}

// runOnPTY runs the CLI with stdout and stderr on a pseudo-terminal and
// returns what the terminal received (ONLCR's \r\n turned back into \n).
func runOnPTY(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	var got bytes.Buffer
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _, _ = io.Copy(&got, ptmx) }()
	a := newApp(context.Background(), tty, tty, func(k string) string { return env[k] })
	a.dir = t.TempDir()
	code := a.execute(args)
	tty.Close()
	wg.Wait()
	out := strings.ReplaceAll(got.String(), "\r\n", "\n")
	return result{code: code, stdout: out}
}

// shown is what a terminal would display of out: escape sequences obeyed
// (dropped), backspaces erasing, zero-width characters invisible. A token
// that is in shown is on the person's screen.
func shown(out string) string {
	out = regexp.MustCompile("\x1b\\[[0-9;?]*[ -/]*[@-~]|\u009b[0-9;?]*[ -/]*[@-~]|\x1b\\][^\x07\x1b\u009c]*(\x07|\x1b\\\\|\u009c)|\u009d[^\x07\u009c]*(\x07|\u009c)").ReplaceAllString(out, "")
	var b []rune
	for _, r := range out {
		switch {
		case r == '\b':
			if len(b) > 0 {
				b = b[:len(b)-1]
			}
		case r == '\u200b' || r == '\u200c' || r == '\u2060' || r == '\ufeff':
		default:
			b = append(b, r)
		}
	}
	return string(b)
}

// unsafeOutput names the first byte or character of out that must not
// reach a terminal: C0 controls but tab and newline (and the progress
// line's own "\r\x1b[K"), DEL, C1 controls, invalid UTF-8 and the
// invisible format characters that reorder or hide text.
func unsafeOutput(out string) string {
	out = strings.ReplaceAll(out, "\r\x1b[K", "") // the progress line's own redraw
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRuneInString(out[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return fmt.Sprintf("invalid UTF-8 byte %#x at %d", out[i], i)
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029, r == 0x200b, r == 0x2060, r == 0xfeff:
			return fmt.Sprintf("%U at %d in %q", r, i, clip(out, i))
		}
		i += size
	}
	return ""
}

func clip(s string, i int) string {
	lo, hi := max(0, i-20), min(len(s), i+20)
	return s[lo:hi]
}

// TestHostileServerTextNeverObeyed is the table of vectors of the first
// class: payload × command × (pipe, terminal).
func TestHostileServerTextNeverObeyed(t *testing.T) {
	for _, p := range hostilePayloads {
		srv := hostileServer(t, p.text)
		env := map[string]string{"FORGEJO_URL": srv.URL, "FORGEJO_TOKEN": hostileToken}
		for _, c := range hostileCommands {
			for _, mode := range []string{"pipe", "tty"} {
				t.Run(p.name+"/"+c.name+"/"+mode, func(t *testing.T) {
					var r result
					if mode == "pipe" {
						r = cli(t, env, c.args...)
					} else {
						r = runOnPTY(t, env, c.args...)
					}
					out := r.stdout + r.stderr
					if bad := unsafeOutput(out); bad != "" {
						t.Errorf("exit %d; a control character reached the output: %s", r.code, bad)
					}
					if strings.Contains(shown(out), hostileToken) {
						t.Errorf("exit %d; the token is on the screen:\n%q", r.code, out)
					}
				})
			}
		}
	}
}

// TestJSONKeepsTheData: --json escapes what it must not write raw, and a
// JSON parser still gets the server's strings back exactly.
func TestJSONKeepsTheData(t *testing.T) {
	for _, p := range hostilePayloads {
		if strings.Contains(p.text, hostileToken[:8]) || strings.Contains(p.text, hostileToken[12:20]) {
			continue // a run of the token is masked on purpose
		}
		t.Run(p.name, func(t *testing.T) {
			srv := hostileServer(t, p.text)
			env := map[string]string{"FORGEJO_URL": srv.URL, "FORGEJO_TOKEN": hostileToken}
			r := cli(t, env, "issue", "view", "o/r", "1", "--json", "title,body")
			r.want(t, 0)
			if bad := unsafeOutput(r.stdout); bad != "" {
				t.Errorf("--json wrote %s", bad)
			}
			var got struct{ Title, Body string }
			if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
				t.Fatalf("--json is not JSON: %v\n%s", err, r.stdout)
			}
			if got.Title != p.text || got.Body != p.text {
				t.Errorf("--json changed the data: %q, want %q", got.Title, p.text)
			}
		})
	}
}

// TestDeepJSONIsBounded: a small body nested thousands of levels deep is
// refused with one line, and printing it takes little memory (it took
// about 590 MB for 20 kB: indentation grows with the square of the
// depth).
func TestDeepJSONIsBounded(t *testing.T) {
	nest := func(n int, open, close string) string { return strings.Repeat(open, n) + strings.Repeat(close, n) }
	bodies := []struct{ name, body string }{
		{"arrays-1001", nest(1001, "[", "]")},
		{"arrays-10001", nest(10001, "[", "]")},
		{"arrays-100000", nest(100000, "[", "]")},
		{"objects-5000", nest(5000, `{"a":`, "}")},
		{"paginated-items-5000", "[" + nest(5000, "[", "]") + "]"},
		{"unterminated-100000", strings.Repeat("[", 100000)},
	}
	for _, b := range bodies {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, b.body)
		}))
		env := map[string]string{"FORGEJO_URL": srv.URL, "FORGEJO_TOKEN": hostileToken}
		for _, args := range [][]string{{"api", "/x"}, {"api", "/x", "--jq", "."}, {"api", "--paginate", "/x"}} {
			for _, mode := range []string{"pipe", "tty"} {
				t.Run(b.name+"/"+strings.Join(args, "_")+"/"+mode, func(t *testing.T) {
					var before, after runtime.MemStats
					runtime.GC()
					runtime.ReadMemStats(&before)
					var r result
					if mode == "pipe" {
						r = cli(t, env, args...)
					} else {
						r = runOnPTY(t, env, args...)
					}
					runtime.ReadMemStats(&after)
					if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 32 {
						t.Errorf("took %d MB to answer a %d-byte body", mb, len(b.body))
					}
					out := r.stdout + r.stderr
					if i := strings.LastIndex(out, "\r\x1b[K"); i >= 0 {
						out = out[i+len("\r\x1b[K"):] // the progress line, erased
					}
					if r.code != 1 || len(lines(out)) != 1 || !strings.HasPrefix(out, "forgego: ") {
						t.Errorf("exit %d, want 1 with one line; output %d bytes: %.300q", r.code, len(out), out)
					}
				})
			}
		}
		srv.Close()
	}
}

// TestEmptyListIsAnEmptyArray: gh prints [] for an empty list under
// --json, --jq and --template, whatever the server answered (null, []).
func TestEmptyListIsAnEmptyArray(t *testing.T) {
	for _, answer := range []string{"null", "[]"} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-Total-Count", "0")
			_, _ = io.WriteString(w, answer)
		}))
		env := map[string]string{"FORGEJO_URL": srv.URL, "FORGEJO_TOKEN": hostileToken}
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"pr", "list", "o/r", "--state", "merged", "--json", "number"}, "[]\n"},
			{[]string{"issue", "list", "o/r", "--json", "number,title"}, "[]\n"},
			{[]string{"label", "list", "o/r", "--json", "name"}, "[]\n"},
			{[]string{"release", "list", "o/r", "--json", "tag_name"}, "[]\n"},
			{[]string{"pr", "list", "o/r", "--json", "number", "--jq", ".[]"}, ""},
			{[]string{"issue", "list", "o/r", "--jq", "length"}, "0\n"},
			{[]string{"issue", "list", "o/r", "--template", "{{len .}}"}, "0"},
		} {
			t.Run(answer+"/"+strings.Join(tc.args, "_"), func(t *testing.T) {
				r := cli(t, env, tc.args...)
				r.want(t, 0)
				if r.stdout != tc.want {
					t.Errorf("stdout %q, want %q", r.stdout, tc.want)
				}
			})
		}
		srv.Close()
	}
}
