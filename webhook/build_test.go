package webhook

import (
	"context"
	"net/http/httptest"
	"regexp"
	"testing"
)

func TestBuildWithoutSecret(t *testing.T) {
	out := Build(EventPackage, []byte(`{"action":"created","package":{"id":1}}`), BuildOptions{})
	h := out.HTTPHeader()
	for name, want := range map[string]string{
		"X-Forgejo-Signature": "", "X-Gitea-Signature": "", "X-Gogs-Signature": "",
		"X-Hub-Signature": "sha1=", "X-Hub-Signature-256": "sha256=",
		"X-Forgejo-Event": "", "X-GitHub-Event": "", "X-Forgejo-Event-Type": "package",
	} {
		vs, ok := h[name]
		if !ok || len(vs) != 1 || vs[0] != want {
			t.Errorf("%s = %q (present %v), want %q", name, vs, ok, want)
		}
	}
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	// Forgejo's spelling, not the canonical X-Github-Delivery: HTTPHeader
	// keeps it, as Forgejo sets it.
	github := "X-GitHub-Delivery"
	if id := h["X-Forgejo-Delivery"][0]; !uuid.MatchString(id) || id != h[github][0] {
		t.Errorf("delivery id %q", id)
	}
	if Build(EventPush, nil, BuildOptions{}).HTTPHeader()["X-Forgejo-Delivery"][0] == h["X-Forgejo-Delivery"][0] {
		t.Error("two random delivery IDs are equal")
	}
	// Such a delivery is refused unless the receiver allows unsigned ones.
	if _, err := mustParser(t, WithSecret("s")).Parse(out.Body, h); err == nil {
		t.Error("unsigned accepted")
	}
	if _, err := mustParser(t, AllowUnsigned()).Parse(out.Body, h); err != nil {
		t.Error(err)
	}
}

func TestBuildAuthorizationAndRequest(t *testing.T) {
	out := Build(EventWiki, []byte(`{"action":"created","page":"Home"}`), BuildOptions{Secret: "s", Form: true, Authorization: "Bearer x"})
	if out.Header[0] != (HeaderField{"Authorization", "Bearer x"}) || out.Header[1].Name != "Content-Type" {
		t.Errorf("header order: %v", out.Header[:2])
	}
	var got *WikiEvent
	rt := NewRouter()
	h := must(NewHandler(mustParser(t, WithSecret("s")), rt))
	On(rt, EventWiki, func(_ context.Context, e *WikiEvent) error { got = e; return nil })
	srv := httptest.NewServer(h)
	defer srv.Close()
	req, err := out.NewRequest(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || got == nil || got.Page != "Home" || got.ContentType() != "form" || got.Header().Get("Authorization") != "Bearer x" {
		t.Errorf("%d %+v", resp.StatusCode, got)
	}
	if _, err := out.NewRequest(context.Background(), "://bad"); err == nil {
		t.Error("bad URL accepted")
	}
}
