package main

import (
	"bytes"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/iostreams"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
	"codeberg.org/forgego/forgejo/webhook"
)

// cliWith runs the program with the app adjusted first (progress forced
// on, say).
func cliWith(t *testing.T, env map[string]string, adjust func(*app), args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	a := newApp(context.Background(), &out, &errb, func(k string) string { return env[k] })
	a.dir = t.TempDir()
	adjust(a)
	code := a.execute(args)
	return result{code, out.String(), errb.String()}
}

func TestAPI(t *testing.T) {
	srv, env := setup(t, forgejotest.WithMaxResponseItems(10))
	srv.AddIssues("alice", "proj", 23)
	for _, l := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		srv.AddLabel("alice", "proj", l, "")
	}

	r := cli(t, env, "api", "-X", "GET", "/repos/alice/proj/issues?state=all", "-f", "limit=2", "-f", "page=3")
	r.want(t, 0)
	var issues []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &issues); err != nil || len(issues) != 2 || issues[0]["number"].(float64) != 19 {
		t.Fatalf("GET: %v\n%s", err, r.stdout)
	}
	if !strings.Contains(r.stdout, "\n  {\n    \"id\": ") {
		t.Errorf("not indented:\n%.200s", r.stdout)
	}
	log := srv.Requests()
	if q := log[len(log)-1].Query; q.Get("state") != "all" || q.Get("limit") != "2" || q.Get("page") != "3" {
		t.Errorf("query %v", q)
	}

	r = cli(t, env, "api", "-X", "POST", "repos/alice/proj/issues", "-f", "title=From api", "-F", "closed=true", "--field", "milestone=0", "--raw-field", "ref=1")
	r.want(t, 0)
	log = srv.Requests()
	if body := string(log[len(log)-1].Body); body != `{"closed":true,"milestone":0,"ref":"1","title":"From api"}` {
		t.Errorf("body %s", body)
	}
	if !strings.Contains(r.stdout, `"title": "From api"`) || !strings.Contains(r.stdout, `"state": "closed"`) {
		t.Errorf("POST output:\n%.300s", r.stdout)
	}
	// --jq and --silent, as in gh.
	r = cli(t, env, "api", "/repos/alice/proj", "--jq", ".full_name")
	r.want(t, 0)
	if r.stdout != "alice/proj\n" {
		t.Errorf("--jq %q", r.stdout)
	}
	r = cli(t, env, "api", "--paginate", "-X", "GET", "/repos/alice/proj/issues", "-f", "state=all", "-q", "length")
	r.want(t, 0)
	if r.stdout != "24\n" {
		t.Errorf("--paginate --jq %q %q", r.stdout, r.stderr)
	}
	r = cli(t, env, "api", "/repos/alice/proj", "--silent")
	if r.want(t, 0); r.stdout != "" {
		t.Errorf("--silent %q", r.stdout)
	}
	cli(t, env, "api", "/repos/alice/proj", "--jq", ".[").want(t, 2)
	cli(t, env, "api", "/repos/alice/proj", "--jq", ".", "--silent").want(t, 2)
	// -F key=@FILE sends the file's text, as gh does.
	bodyFile := t.TempDir() + "/body.md"
	if err := os.WriteFile(bodyFile, []byte("line 1\nline 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv.AddRepo("alice", "files")
	cli(t, env, "api", "-X", "POST", "repos/alice/files/issues", "-f", "title=From a file", "-F", "body=@"+bodyFile).want(t, 0)
	log = srv.Requests()
	if body := string(log[len(log)-1].Body); body != `{"body":"line 1\nline 2\n","title":"From a file"}` {
		t.Errorf("body %s", body)
	}
	cli(t, env, "api", "-X", "POST", "repos/alice/files/issues", "-F", "body=@/nonexistent/x").want(t, 2)
	r = cli(t, env, "api", "--method", "PUT", "/api/v1/user/starred/alice/proj")
	r.want(t, 0)
	if r.stdout != "" {
		t.Errorf("204 printed %q", r.stdout)
	}

	// --paginate follows Link on issues and X-Total-Count on labels
	// (which send no Link), clamped to 10 per page, and prints one array.
	for _, tc := range []struct {
		path  string
		items int
		reqs  int
	}{{"/repos/alice/proj/issues?state=all", 24, 3}, {"/repos/alice/proj/labels", 12, 2}} {
		srv.ResetRequests()
		r = cli(t, env, "api", "--paginate", tc.path)
		r.want(t, 0)
		var all []json.RawMessage
		if err := json.Unmarshal([]byte(r.stdout), &all); err != nil || len(all) != tc.items {
			t.Errorf("%s: %v, %d items", tc.path, err, len(all))
		}
		if n := len(srv.Requests()); n != tc.reqs {
			t.Errorf("%s: %d requests, want %d", tc.path, n, tc.reqs)
		}
	}
	r = cli(t, env, "api", "--paginate", "/repos/alice/proj")
	r.want(t, 1)
	if r.stderr != "forgego: --paginate: /repos/alice/proj does not answer a JSON array\n" {
		t.Errorf("stderr %q", r.stderr)
	}
	r = cli(t, env, "api", "--paginate", "-X", "POST", "/repos/alice/proj/issues")
	r.want(t, 2)
	r = cli(t, env, "api")
	r.want(t, 2)
	r = cli(t, env, "api", "/repos/alice/nope")
	r.want(t, 1)
	if r.stderr != "forgego: GET "+srv.URL+"/api/v1/repos/alice/nope: 404 Not Found: The target couldn't be found.\n" {
		t.Errorf("stderr %q", r.stderr)
	}
	r = cli(t, env, "api", "/version", "-f", "novalue")
	r.want(t, 2)
	if !strings.Contains(r.stderr, `"novalue" is not key=value`) {
		t.Errorf("stderr %q", r.stderr)
	}
}

// releaseServer answers the release routes the fake does not implement.
func releaseServer(t *testing.T) *httptest.Server {
	t.Helper()
	rel := func(tag, name string, pre bool) map[string]any {
		return map[string]any{"id": 1, "tag_name": tag, "name": name, "prerelease": pre, "draft": false, "body": "Notes for " + tag,
			"author": map[string]any{"login": "alice"}, "target_commitish": "main", "html_url": "https://example.org/o/r/releases/tag/" + tag,
			"created_at": "2025-03-01T10:00:00Z", "published_at": "2025-03-02T10:00:00Z",
			"assets": []any{map[string]any{"name": "forgego.tar.gz", "size": 1536, "download_count": 7, "browser_download_url": "https://example.org/a"}}}
	}
	all := []any{rel("v1.1.0-rc1", "Candidate", true), rel("v1.0.0", "First", false)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v1/repos/o/r/releases":
			w.Header().Set("X-Total-Count", "2")
			_ = json.NewEncoder(w).Encode(all)
		case "/api/v1/repos/o/r/releases/latest", "/api/v1/repos/o/r/releases/tags/v1.0.0":
			_ = json.NewEncoder(w).Encode(all[1])
		default:
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"message":"The target couldn't be found.","url":"x"}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestReleases(t *testing.T) {
	srv := releaseServer(t)
	env := map[string]string{"FORGEJO_URL": srv.URL}
	r := cli(t, env, "release", "list", "o/r")
	r.want(t, 0)
	want := "TAG         NAME       TYPE         PUBLISHED\nv1.1.0-rc1  Candidate  pre-release  2025-03-02\nv1.0.0      First                   2025-03-02\n"
	if r.stdout != want || r.stderr != "showing 2 of 2 releases in o/r\n" {
		t.Errorf("got\n%s%s\nwant\n%s", r.stdout, r.stderr, want)
	}
	r = cli(t, env, "release", "ls", "-R", "o/r", "--json", "tag_name,name,draft,prerelease,assets")
	r.want(t, 0)
	var rels []forgejo.Release
	if err := json.Unmarshal([]byte(r.stdout), &rels); err != nil || len(rels) != 2 || rels[0].TagName != "v1.1.0-rc1" || !rels[0].Prerelease || len(rels[1].Assets) != 1 {
		t.Errorf("json %v %s", err, r.stdout)
	}
	for _, args := range [][]string{{"release", "view", "o/r", "v1.0.0"}, {"release", "view", "-R", "o/r"}, {"release", "view", "o/r"}} {
		r = cli(t, env, args...)
		r.want(t, 0)
		for _, s := range []string{"First\n\n  tag        v1.0.0\n", "  author     alice\n", "\nNotes for v1.0.0\n", "\nASSETS\n  forgego.tar.gz  1.5 KiB  7 downloads\n"} {
			if !strings.Contains(r.stdout, s) {
				t.Errorf("%v: missing %q in\n%s", args, s, r.stdout)
			}
		}
	}
	r = cli(t, env, "release", "view", "o/r", "v9")
	r.want(t, 1)
	if r.stderr != "forgego: GET "+srv.URL+"/api/v1/repos/o/r/releases/tags/v9: 404 Not Found: The target couldn't be found.\n" {
		t.Errorf("stderr %q", r.stderr)
	}
	cli(t, env, "release", "view", "o/r", "a", "b").want(t, 2)
}

func TestExitCode(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	live := context.Background()
	transportCanceled := &forgejo.TransportError{Kind: forgejo.TransportCanceled, Err: context.Canceled}
	for _, tc := range []struct {
		ctx  context.Context
		err  error
		want int
	}{
		{live, nil, 0},
		{canceled, nil, 0}, // finished before the interrupt mattered
		{canceled, &runError{Err: transportCanceled}, 130},
		{canceled, &runError{Err: &forgejo.RetriesExhaustedError{Attempts: 2, Last: transportCanceled}}, 130},
		{canceled, &runError{Err: context.Canceled}, 130},
		{canceled, &runError{Err: errors.New("boom")}, 1},
		{live, &runError{Err: context.Canceled}, 1}, // not ours to call an interrupt
		{live, &runError{Err: errors.New("boom")}, 1},
		{live, usagef("bad"), 2},
		{live, errors.New(`unknown flag: --x`), 2}, // cobra's own
	} {
		if got := exitCode(tc.ctx, tc.err); got != tc.want {
			t.Errorf("exitCode(ctx err %v, %v) = %d, want %d", tc.ctx.Err(), tc.err, got, tc.want)
		}
	}
}

func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	p := newProgress(&buf, true)
	p.now = func() time.Time { return now }
	p.tick = time.Hour // redraw by hand below
	p.set("fetched %d of %d issues…", 50, 240)
	p.waiting(waitReason(&forgejo.APIError{StatusCode: 503}), time.Second)
	if got := buf.String(); !strings.HasSuffix(got, "\r\033[Kfetched 50 of 240 issues… · retry in 1s after 503 Service Unavailable") {
		t.Errorf("%q", got)
	}
	now = now.Add(600 * time.Millisecond)
	p.mu.Lock()
	p.draw()
	p.mu.Unlock()
	if got := buf.String(); !strings.HasSuffix(got, "retry in 0.4s after 503 Service Unavailable") {
		t.Errorf("countdown %q", got)
	}
	p.resume()
	if got := buf.String(); !strings.HasSuffix(got, "\r\033[Kfetched 50 of 240 issues…") {
		t.Errorf("resume %q", got)
	}
	p.waiting("rate limit spent: waiting %s for the reset", 2500*time.Millisecond)
	if got := buf.String(); !strings.HasSuffix(got, "· rate limit spent: waiting 3s for the reset") {
		t.Errorf("pacing %q", got)
	}
	p.done()
	if got := buf.String(); !strings.HasSuffix(got, "\r\033[K") {
		t.Errorf("done %q", got)
	}
	for err, want := range map[error]string{
		&forgejo.APIError{StatusCode: 429}:                           "rate limit (429): retry in %s, when the instance allows",
		&forgejo.TransportError{Kind: forgejo.TransportConnection}:   "retry in %s after connection failed",
		&forgejo.RetriesExhaustedError{Last: errors.New("whatever")}: "retry in %s",
	} {
		if got := waitReason(err); got != want {
			t.Errorf("waitReason(%T) = %q", err, got)
		}
	}
	// Off, it writes nothing.
	buf.Reset()
	off := newProgress(&buf, false)
	off.set("x")
	off.waiting("y %s", time.Second)
	off.done()
	if buf.Len() != 0 || iostreams.IsTerminal(&buf) {
		t.Errorf("disabled progress wrote %q", buf.String())
	}
}

func TestProgressSaysWhatItWaitsFor(t *testing.T) {
	srv, env := setup(t, forgejotest.WithMaxResponseItems(10))
	srv.AddIssues("alice", "proj", 24)
	srv.Inject(forgejotest.Fault{Operation: "issueListIssues", Statuses: []int{0, 503}, RetryAfter: "1"})
	force := func(a *app) { a.forceProgress = true }
	r := cliWith(t, env, force, "issue", "list", "alice/proj", "--all")
	r.want(t, 0)
	for _, s := range []string{"\r\033[Kfetched 10 of 24 issues…", "\r\033[Kfetched 10 of 24 issues… · retry in 1s after 503 Service Unavailable", "\r\033[Kfetched 24 of 24 issues…"} {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("missing %q in %q", s, r.stderr)
		}
	}
	if !strings.HasSuffix(r.stderr, "\r\033[Kshowing 24 of 24 open issues in alice/proj\n") {
		t.Errorf("the line is not cleared before the summary: %q", r.stderr)
	}
	// api --paginate shows the total when the instance sends it.
	r = cliWith(t, env, force, "api", "--paginate", "/repos/alice/proj/issues")
	r.want(t, 0)
	if !strings.Contains(r.stderr, "fetched 10 of 24 items…") || !strings.Contains(r.stderr, "fetched 24 of 24 items…") {
		t.Errorf("paginate progress %q", r.stderr)
	}
	// -v tells the story line by line instead.
	r = cliWith(t, env, force, "issue", "list", "alice/proj", "-v")
	if strings.Contains(r.stderr, "\r") {
		t.Errorf("progress drawn with -v: %q", r.stderr)
	}
}

// listener runs 'webhook listen' in the background and returns its base
// URL, its output and a function that stops it and returns the exit code.
func listener(t *testing.T, env map[string]string, args ...string) (base string, out, errb *syncBuffer, stop func() int) {
	t.Helper()
	out, errb = &syncBuffer{}, &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"webhook", "listen"}, args...), out, errb, func(k string) string { return env[k] })
	}()
	re := regexp.MustCompile(`listening for deliveries on (http://127\.0\.0\.1:\d+/)`)
	waitFor(t, "the listener", func() bool { return re.MatchString(errb.String()) })
	base = re.FindStringSubmatch(errb.String())[1]
	var once sync.Once
	code := 0
	stop = func() int {
		once.Do(func() { cancel(); code = <-done })
		return code
	}
	t.Cleanup(func() { stop() })
	return base, out, errb, stop
}

func deliver(t *testing.T, url string, o *webhook.Outgoing) int {
	t.Helper()
	req, err := o.NewRequest(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

const issuePayload = `{"action":"opened","number":12,"issue":{"id":7,"number":12,"title":"It broke","state":"open"},` +
	`"repository":{"id":3,"full_name":"alice/proj"},"sender":{"id":1,"login":"alice"}}`

func TestWebhookListen(t *testing.T) {
	const secret = "s3cret-of-the-hook"
	type received struct {
		body   string
		header http.Header
	}
	var (
		mu    sync.Mutex
		got   []received
		reply = http.StatusNoContent
	)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		got = append(got, received{string(body), r.Header.Clone()})
		w.WriteHeader(reply)
	}))
	defer target.Close()

	env := map[string]string{"FORGEJO_WEBHOOK_SECRET": secret}
	base, out, errb, stop := listener(t, env, "--addr", "127.0.0.1:0", "--forward", target.URL+"/hook")

	o := webhook.Build(webhook.EventIssues, []byte(issuePayload), webhook.BuildOptions{Secret: secret, DeliveryID: "d-0001"})
	if code := deliver(t, base, o); code != http.StatusOK {
		t.Fatalf("delivery answered %d\n%s", code, errb.String())
	}
	if want := "issues  d-0001  alice/proj: alice opened issue #12 \"It broke\"\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	mu.Lock()
	if len(got) != 1 || got[0].body != issuePayload || got[0].header.Get("X-Forgejo-Signature") != webhook.Sign(secret, []byte(issuePayload)) ||
		got[0].header.Get("X-Forgejo-Event-Type") != "issues" || got[0].header.Get("X-Forgejo-Delivery") != "d-0001" {
		t.Errorf("forwarded %+v", got)
	}
	mu.Unlock()
	if !strings.Contains(errb.String(), "  forwarded to "+target.URL+"/hook: 204 No Content\n") {
		t.Errorf("stderr %q", errb.String())
	}

	// A bad signature is rejected, printed on stderr, and not forwarded.
	bad := webhook.Build(webhook.EventIssues, []byte(issuePayload), webhook.BuildOptions{Secret: "another-secret", DeliveryID: "d-0002"})
	if code := deliver(t, base, bad); code < 400 || code > 499 {
		t.Errorf("bad signature answered %d", code)
	}
	if strings.Contains(out.String(), "d-0002") || !strings.Contains(errb.String(), "rejected a delivery from 127.0.0.1:") || !strings.Contains(errb.String(), "signature") {
		t.Errorf("stdout %q\nstderr %q", out.String(), errb.String())
	}
	// The forward target's failure is what the sender sees.
	mu.Lock()
	reply = http.StatusBadGateway
	mu.Unlock()
	if code := deliver(t, base, webhook.Build(webhook.EventPush, []byte(`{"ref":"refs/heads/main","commits":[{},{}],"repository":{"full_name":"alice/proj"},"pusher":{"login":"bob"}}`),
		webhook.BuildOptions{Secret: secret, DeliveryID: "d-0003"})); code != http.StatusInternalServerError {
		t.Errorf("failed forward answered %d", code)
	}
	if !strings.Contains(out.String(), "push  d-0003  alice/proj: bob pushed 2 commits to refs/heads/main\n") || !strings.Contains(errb.String(), ": 502 Bad Gateway\n") {
		t.Errorf("stdout %q\nstderr %q", out.String(), errb.String())
	}
	mu.Lock()
	n := len(got)
	mu.Unlock()
	if n != 2 {
		t.Errorf("%d deliveries forwarded, want 2", n)
	}
	if code := stop(); code != exitInterrupt {
		t.Errorf("exit %d", code)
	}
	if strings.Contains(out.String()+errb.String(), secret) {
		t.Error("the secret was printed")
	}

	// --json prints the whole event, one line each.
	base, out, _, _ = listener(t, nil, "--secret", secret, "--json")
	if code := deliver(t, base, o); code != http.StatusOK {
		t.Fatalf("answered %d", code)
	}
	var ev struct {
		Event, Delivery string
		Payload         map[string]any
	}
	if err := json.Unmarshal([]byte(out.String()), &ev); err != nil || ev.Event != "issues" || ev.Delivery != "d-0001" || ev.Payload["action"] != "opened" || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("json %v %q", err, out.String())
	}

	// No secret: a usage error, nothing listens.
	r := cli(t, nil, "webhook", "listen")
	r.want(t, 2)
	if got := lines(r.stderr); len(got) != 3 || got[2] != "Give --secret SECRET or set FORGEJO_WEBHOOK_SECRET; deliveries are verified with it." {
		t.Errorf("%q", r.stderr)
	}
	cli(t, nil, "webhook", "listen", "--secret", "x1234", "--forward", "ftp://x").want(t, 2)
	r = cli(t, nil, "webhook", "listen", "--secret", "x1234", "--addr", "256.0.0.1:1")
	r.want(t, 1)
	if len(lines(r.stderr)) != 1 {
		t.Errorf("%q", r.stderr)
	}
}
