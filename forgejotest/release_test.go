package forgejotest

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/internal/api"
)

// missingOn15 are the operations Forgejo 15.0.3 does not serve, as measured
// on a real 15.0.3 (the router's 404 for each, 405 for DeleteActionRun,
// whose path 15.0 serves for GET).
var missingOn15 = []string{
	"CancelActionRun", "DeleteActionArtifact", "DeleteActionRun", "DownloadActionArtifact",
	"GetActionArtifact", "ListActionArtifacts", "ListActionRunArtifacts", "ListActionRunJobs",
	"adminCreateUserAccessToken", "adminDeleteUserAccessToken", "adminListUserAccessTokens",
	"getActionsRun", "repoGetActionJobLogs", "repoGetActionRunLogs", "userCurrentActivityPubFollow",
}

// releaseCall sends one request with the default user's token.
func releaseCall(t *testing.T, srv *Server, method, path string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+"/api/v1"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+srv.Token())
	resp, err := srv.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// notServed lists the operations of the library's table that a release line
// does not serve, by the library's knowledge.
func notServed(line string) []forgejo.Operation {
	var out []forgejo.Operation
	for _, op := range forgejo.Operations() {
		if op.Since != "" && !inRelease(line, op.Since, op.Until) {
			out = append(out, op)
		}
	}
	return out
}

// wantRouterAnswer checks a router-level refusal: 404 text/plain "404 page
// not found", or 405 with an empty body and the allowed methods.
func wantRouterAnswer(t *testing.T, srv *Server, op forgejo.Operation, allow string) {
	t.Helper()
	resp, body := releaseCall(t, srv, op.Method, samplePath(op.Path))
	if allow != "" {
		if resp.StatusCode != http.StatusMethodNotAllowed || body != "" || resp.Header.Get("Content-Type") != "" || strings.Join(resp.Header.Values("Allow"), ",") != allow {
			t.Errorf("%s %s %s: %d %q %q Allow %v, want 405, empty, Allow %s", op.ID, op.Method, op.Path, resp.StatusCode, resp.Header.Get("Content-Type"), body, resp.Header.Values("Allow"), allow)
		}
		return
	}
	if resp.StatusCode != http.StatusNotFound || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" || body != "404 page not found\n" {
		t.Errorf("%s %s %s: %d %q %q, want the router's 404", op.ID, op.Method, op.Path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

func TestRelease15AnswersAsForgejo15(t *testing.T) {
	srv := NewServer(t, WithRelease("15.0.3"))
	var got []string
	for _, op := range notServed("15.0") {
		got = append(got, op.ID)
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(missingOn15))
	if !slices.Equal(got, want) {
		t.Fatalf("the library's knowledge: 15.0 lacks %v, the measurement %v", got, want)
	}
	for _, op := range notServed("15.0") {
		allow := ""
		if op.ID == "DeleteActionRun" {
			allow = "GET"
		}
		wantRouterAnswer(t, srv, op, allow)
	}
	// Before credentials: anonymous gets the same 404, not a 401.
	resp, err := http.Get(srv.URL + "/api/v1/admin/users/x/tokens")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("anonymous on a missing route: %d", resp.StatusCode)
	}
	// A handler of the test's own does not bring the route back.
	srv.Handle("getActionsRun", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	if resp, body := releaseCall(t, srv, "GET", "/actions/run"); resp.StatusCode != http.StatusNotFound || body != "404 page not found\n" {
		t.Errorf("a Handle'd operation 15.0 lacks: %d %q", resp.StatusCode, body)
	}
	// Still logged under the operation the path names.
	if n := srv.Count("ListActionRunJobs"); n != 1 {
		t.Errorf("Count(ListActionRunJobs) = %d", n)
	}

	c := srv.Client()
	ctx := context.Background()
	v, _, err := c.Misc.GetVersion(ctx)
	if err != nil || v.Version != "15.0.3+gitea-1.22.0" {
		t.Fatalf("version %v %v", v, err)
	}
	srv.AddRepo(srv.DefaultUser(), "demo")
	if _, _, err := c.Repos.Get(ctx, srv.DefaultUser(), "demo"); err != nil {
		t.Errorf("a route 15.0 serves: %v", err)
	}
	if _, _, err := c.Actions.ListRuns(ctx, srv.DefaultUser(), "demo", nil); err != nil {
		t.Errorf("a route 15.0 serves: %v", err)
	}
}

// The client against a 15.0 fake gets what it gets from a real 15.0.3:
// without the version check the router's answers, with it a refusal before
// sending.
func TestRelease15Client(t *testing.T) {
	srv := NewServer(t, WithRelease("15"))
	ctx := context.Background()
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")

	c := srv.Client()
	_, _, err := c.Actions.ListRunJobs(ctx, owner, "demo", 1)
	var apiErr *forgejo.APIError
	if forgejo.StatusCode(err) != http.StatusNotFound || !errors.As(err, &apiErr) || apiErr.URL != "" {
		t.Errorf("ListRunJobs unchecked: %v", err)
	}
	if _, err := c.Actions.DeleteRun(ctx, owner, "demo", 1); forgejo.StatusCode(err) != http.StatusMethodNotAllowed {
		t.Errorf("DeleteRun unchecked: %v", err)
	}

	checked := srv.Client(forgejo.WithVersionCheck())
	before := len(srv.Requests())
	for name, call := range map[string]func() error{
		"ListActionRunJobs": func() error { _, _, err := checked.Actions.ListRunJobs(ctx, owner, "demo", 1); return err },
		"DeleteActionRun":   func() error { _, err := checked.Actions.DeleteRun(ctx, owner, "demo", 1); return err },
	} {
		var unsup *forgejo.UnsupportedOperationError
		if err := call(); !errors.As(err, &unsup) || unsup.Operation != name || unsup.ServerVersion != "15.0.3+gitea-1.22.0" {
			t.Errorf("%s checked: %v", name, err)
		}
	}
	if reqs := srv.Requests()[before:]; len(reqs) != 1 || reqs[0].Operation != "getVersion" {
		t.Errorf("requests sent with the check on: %+v", reqs)
	}
	if ok, err := checked.Serves(ctx, "ListActionRunJobs"); ok || err != nil {
		t.Errorf("Serves: %v %v", ok, err)
	}
}

func TestRelease11(t *testing.T) {
	srv := NewServer(t, WithRelease("11.0"))
	missing := notServed("11.0")
	if len(missing) < len(missingOn15) {
		t.Fatalf("11.0 lacks only %d operations", len(missing))
	}
	// 405 where 11.0 serves the path for another method (as its router
	// does), else the router's 404.
	served := releaseOps("11.0")
	n405 := 0
	for _, op := range missing {
		var allow []string
		for _, k := range served {
			if k.method != op.Method && sameTemplate(k.tmpl.raw, op.Path) {
				allow = append(allow, k.method)
			}
		}
		slices.Sort(allow)
		if len(allow) > 0 {
			n405++
		}
		wantRouterAnswer(t, srv, op, strings.Join(slices.Compact(allow), ","))
	}
	t.Logf("11.0 lacks %d operations of the pinned spec: %d answer 405, %d 404", len(missing), n405, len(missing)-n405)
	names := map[string]bool{}
	for _, op := range missing {
		names[op.ID] = true
	}
	for _, id := range []string{"ListActionRunJobs", "DeleteActionRun", "adminListUserAccessTokens"} {
		if !names[id] {
			t.Errorf("11.0 serves %s?", id)
		}
	}
	if v, _, err := srv.Client().Misc.GetVersion(context.Background()); err != nil || v.Version != "11.0.15+gitea-1.22.0" {
		t.Errorf("version %v %v", v, err)
	}
}

// sameTemplate: the same route, variables' names aside.
func sameTemplate(a, b string) bool {
	return paramRE.ReplaceAllString(a, "{}") == paramRE.ReplaceAllString(b, "{}")
}

// An operation whose path moved is served at the release's path, with the
// pinned template's parameter names, and the client's version check sends
// it there.
func TestRelease11MovedPaths(t *testing.T) {
	srv := NewServer(t, WithRelease("11"))
	srv.SetAdmin(srv.DefaultUser(), true)
	ctx := context.Background()
	if resp, body := releaseCall(t, srv, "GET", "/admin/actions/runners/registration-token"); resp.StatusCode != http.StatusNotFound || body != "404 page not found\n" {
		t.Errorf("the 15.0 path on 11.0: %d %q", resp.StatusCode, body)
	}
	checked := srv.Client(forgejo.WithVersionCheck())
	//lint:ignore SA1019 the path that moved in 15.0 is what this tests
	if tok, _, err := checked.Actions.GetAdminRegistrationToken(ctx); err != nil || tok.Token == "" {
		t.Errorf("GetAdminRegistrationToken on 11.0: %v %v", tok, err)
	}
	if n := srv.CountPath("GET", "/api/v1/admin/runners/registration-token"); n != 1 {
		t.Errorf("sent to the 11.0 path %d times", n)
	}

	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	srv.AddLabel(owner, "demo", "bug", "ff0000")
	n := srv.AddIssue(owner, "demo", IssueSpec{Title: "t", Labels: []string{"bug"}})
	if _, err := checked.Issues.RemoveLabelForIssue(ctx, owner, "demo", n, "bug"); err != nil {
		t.Fatalf("RemoveLabelForIssue at 11.0's {id}: %v", err)
	}
	if iss, _, err := checked.Issues.Get(ctx, owner, "demo", n); err != nil || len(iss.Labels) != 0 {
		t.Errorf("after removing: %+v %v", iss, err)
	}
}

func TestWithReleaseForms(t *testing.T) {
	for in, want := range map[string]string{
		"15":     "15.0.3+gitea-1.22.0",
		"15.0":   "15.0.3+gitea-1.22.0",
		"15.0.3": "15.0.3+gitea-1.22.0",
		"15.0.7": "15.0.7+gitea-1.22.0",
		"11":     "11.0.15+gitea-1.22.0",
		"16.0":   "16.0.0-dev-539-4695780d41+gitea-1.22.0",
	} {
		if _, got, err := parseRelease(in); err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "12", "12.0", "v15", "15.0.3.1", "15.x", "15.0.3+gitea-1.22.0", "-15", "17"} {
		if _, err := Start(WithRelease(in)); err == nil || !strings.Contains(err.Error(), "known: 11.0, 13.0, 14.0, 15.0, 16.0") {
			t.Errorf("%q: %v", in, err)
		}
	}
	// A later WithVersion says what /version answers.
	srv := NewServer(t, WithRelease("15"), WithVersion("15.0.9+gitea-1.22.0"))
	if v, _, err := srv.Client().Misc.GetVersion(context.Background()); err != nil || v.Version != "15.0.9+gitea-1.22.0" {
		t.Errorf("version %v %v", v, err)
	}
}

// The release table is the library's: its release lines and the builds its
// knowledge was measured on.
func TestReleasesMatchLibrary(t *testing.T) {
	if len(api.Releases) != len(releases) {
		t.Fatalf("library releases %d, forgejotest %d", len(api.Releases), len(releases))
	}
	for i, r := range api.Releases {
		if releases[i].line != r.Version || releases[i].served != r.Served {
			t.Errorf("release %d: forgejotest %v, library %s %s", i, releases[i], r.Version, r.Served)
		}
	}
	// The default server serves the pinned spec, the newest release: its
	// /version must say so, or a version-checking client refuses the
	// operations that release added.
	if newest := releases[len(releases)-1].served; DefaultVersion != newest {
		t.Errorf("DefaultVersion %q, the pinned spec's build %q", DefaultVersion, newest)
	}
}

// A default server reports the build whose spec it serves, so a client with
// the version check is let through to an operation only the newest release
// serves, and reaches the handler.
func TestDefaultVersionLetsCheckedClientThrough(t *testing.T) {
	srv := NewServer(t)
	ctx := context.Background()
	owner := srv.DefaultUser()
	srv.AddRepo(owner, "demo")
	checked := srv.Client(forgejo.WithVersionCheck())
	for _, id := range []string{"ListActionRunJobs", "DeleteActionRun"} {
		if ok, err := checked.Serves(ctx, id); !ok || err != nil {
			t.Errorf("Serves(%s) on the default server: %v %v", id, ok, err)
		}
	}
	_, _, err := checked.Actions.ListRunJobs(ctx, owner, "demo", 1)
	var unsup *forgejo.UnsupportedOperationError
	if errors.As(err, &unsup) {
		t.Fatalf("refused before sending: %v", err)
	}
	if srv.Count("ListActionRunJobs") != 1 {
		t.Errorf("ListActionRunJobs not sent: %v", err)
	}
}
