package forgejotest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
)

func TestHandle(t *testing.T) {
	srv := NewServer(t)
	srv.AddRepo(srv.DefaultUser(), "demo")
	ctx := context.Background()
	c := srv.Client()

	// An operation the fake does not implement, with its path parameters.
	var got string
	srv.Handle("repoGetEditorConfig", func(w http.ResponseWriter, r *http.Request) {
		got = r.PathValue("owner") + " " + r.PathValue("repo") + " " + r.PathValue("filepath") + " " + r.URL.Query().Get("ref")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"indent_style":"tab"}`)
	})
	var out map[string]string
	_, err := c.Do(ctx, &forgejo.Request{Method: "GET", Path: "/repos/" + srv.DefaultUser() + "/demo/editorconfig/a/b.go", Query: map[string][]string{"ref": {"dev"}}}, &out)
	if err != nil || out["indent_style"] != "tab" || got != srv.DefaultUser()+" demo a/b.go dev" {
		t.Errorf("editorconfig: %v %v %q", err, out, got)
	}
	if srv.Count("repoGetEditorConfig") != 1 {
		t.Errorf("count %d", srv.Count("repoGetEditorConfig"))
	}

	// One the fake implements, answered differently, with the body; then
	// given back.
	srv.Handle("issueCreateIssue", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(b), `"title":"hi"`) {
			t.Errorf("handler body %s", b)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"message":"spam filter","url":"x"}`)
	})
	_, _, err = c.Issues.Create(ctx, srv.DefaultUser(), "demo", forgejo.CreateIssueRequest{Title: "hi"})
	var e *forgejo.APIError
	if !errors.As(err, &e) || e.StatusCode != 403 || e.Message != "spam filter" {
		t.Errorf("overridden create: %v", err)
	}
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1]; last.Status != 403 || last.Operation != "issueCreateIssue" || !strings.Contains(string(last.Body), "hi") {
		t.Errorf("logged %+v", last)
	}
	srv.Handle("issueCreateIssue", nil)
	if is, _, err := c.Issues.Create(ctx, srv.DefaultUser(), "demo", forgejo.CreateIssueRequest{Title: "hi"}); err != nil || is.Number != 1 {
		t.Errorf("given back: %v", err)
	}

	// A fault still comes first.
	srv.Handle("repoGetEditorConfig", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
	srv.Inject(Fault{Operation: "repoGetEditorConfig", Statuses: []int{503, 503, 503}})
	_, err = c.Do(ctx, &forgejo.Request{Method: "GET", Path: "/repos/" + srv.DefaultUser() + "/demo/editorconfig/x", Retry: forgejo.RetryIdempotentOnly}, nil)
	if !errors.As(err, &e) || e.StatusCode != 503 {
		t.Errorf("fault first: %v", err)
	}
}

func TestHandleUnknownOperation(t *testing.T) {
	srv, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `"repoNoSuchThing" is no operationId`) {
			t.Errorf("panic %v", r)
		}
	}()
	srv.Handle("repoNoSuchThing", func(http.ResponseWriter, *http.Request) {})
}
