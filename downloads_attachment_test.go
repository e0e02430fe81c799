package forgejo

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestOpenAttachment: an asset's file streams from its browser_download_url
// through the client (token sent, a 503 retried), for an instance at the
// host's root and one below a path; a redirect to another host does not
// carry the token.
func TestOpenAttachment(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			t.Errorf("the object store got Authorization %q", r.Header.Get("Authorization"))
		}
		io.WriteString(w, "from the store")
	}))
	defer other.Close()
	var fails atomic.Int32
	fails.Store(1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "token s3cret" {
			t.Errorf("%s: Authorization %q", r.URL.Path, r.Header.Get("Authorization"))
		}
		switch r.URL.EscapedPath() {
		case "/attachments/7a8b", "/sub/attachments/7a8b", "/o/r/releases/download/v1/a%20b.tar.gz":
			if fails.Add(-1) >= 0 {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			io.WriteString(w, "the file "+r.URL.EscapedPath())
		case "/attachments/moved":
			http.Redirect(w, r, other.URL+"/bucket/obj", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	for _, tc := range []struct{ base, url, uuid, want string }{
		{srv.URL, srv.URL + "/attachments/7a8b", "", "the file /attachments/7a8b"},
		// ROOT_URL names another host: the instance's /attachments/{uuid}.
		{srv.URL, "http://localhost:3000/attachments/7a8b", "7a8b", "the file /attachments/7a8b"},
		{srv.URL + "/sub", "https://forge.example/o/r/releases/download/v1/x", "7a8b", "the file /sub/attachments/7a8b"},
		{srv.URL + "/sub", srv.URL + "/sub/attachments/7a8b", "", "the file /sub/attachments/7a8b"},
		{srv.URL, srv.URL + "/o/r/releases/download/v1/a%20b.tar.gz", "", "the file /o/r/releases/download/v1/a%20b.tar.gz"},
		{srv.URL, strings.Replace(srv.URL, "http://", "HTTP://", 1) + "/attachments/moved", "", "from the store"},
	} {
		fails.Store(1)
		c, err := NewClient(WithBaseURL(tc.base), WithToken("s3cret"), WithRetryPolicy(RetryPolicy{MaxAttempts: 3, Jitter: JitterNone}))
		if err != nil {
			t.Fatal(err)
		}
		rc, resp, err := c.OpenAttachment(context.Background(), &Attachment{BrowserDownloadURL: tc.url, Uuid: tc.uuid})
		if err != nil {
			t.Fatalf("%s: %v", tc.url, err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || string(b) != tc.want {
			t.Errorf("%s: read %q, %v; want %q", tc.url, b, err, tc.want)
		}
		if tc.want != "from the store" && resp.Attempts != 2 {
			t.Errorf("%s: %d attempts, want 2 (a 503 retried)", tc.url, resp.Attempts)
		}
	}
}

// TestOpenAttachmentRefuses: a URL a hostile listing may carry is refused
// before anything is sent, so the token never leaves the instance.
func TestOpenAttachmentRefuses(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.EscapedPath(); !strings.HasPrefix(p, "/forgejo/attachments/") || strings.Count(p, "/") != 3 {
			t.Errorf("a request left /forgejo/attachments/: %q", p)
		}
		if seg := strings.TrimPrefix(r.URL.Path, "/forgejo/attachments/"); seg == ".." || seg == "." {
			t.Errorf("a dot segment was sent: %q", r.URL.EscapedPath())
		}
		if r.URL.Path == "/forgejo/attachments/x" {
			hits.Add(1) // only the external asset's URL would come here
		}
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	c, err := NewClient(WithBaseURL(srv.URL+"/forgejo"), WithToken("s3cret"))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{
		"", " ", "/forgejo/attachments/x", "attachments/x", "forgejo/attachments/x",
		"http://evil.example/forgejo/attachments/x", "https://" + host + "/forgejo/attachments/x", "ftp://" + host + "/forgejo/attachments/x",
		"http://user:pw@" + host + "/forgejo/attachments/x", "http://" + host + "x/forgejo/attachments/x",
		"http://" + strings.Replace(host, ":", ":1", 1) + "/forgejo/attachments/x",
		"http://" + host + "/attachments/x", "http://" + host + "/forgejox/attachments/x", "http://" + host + "/forgejo",
		"http://" + host + "/forgejo/", "http://" + host + "/forgejo/attachments/x?token=s3cret", "http://" + host + "/forgejo/attachments/x?",
		"http://" + host + "/forgejo/attachments/x#frag", "http://" + host + "/forgejo/../api/v1/admin/users",
		"http://" + host + "/forgejo/attachments/%2e%2e/%2e%2e/x", "http://" + host + "/forgejo/attachments/%zz",
		"http://" + host + "/forgejo/attachments/a\x00b", "\thttp://evil.example/x",
		"//evil.example/forgejo/attachments/x", "http:///forgejo/attachments/x",
	} {
		rc, _, err := c.OpenAttachment(context.Background(), &Attachment{BrowserDownloadURL: u})
		var ve *ValidationError
		if rc != nil || !errors.As(err, &ve) {
			t.Errorf("%q: reader %v, error %v; want a *ValidationError", u, rc != nil, err)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%q: the error shows the token: %v", u, err)
		}
	}
	if _, _, err := c.OpenAttachment(context.Background(), nil); err == nil {
		t.Error("a nil attachment was accepted")
	}
	// An external asset is a link to another site: not this client's to
	// fetch, whatever its URL.
	ext := &Attachment{Type: AttachmentTypeExternal, BrowserDownloadURL: "http://" + host + "/forgejo/attachments/x", Uuid: "x"}
	if _, _, err := c.OpenAttachment(context.Background(), ext); err == nil {
		t.Error("an external asset was fetched")
	}
	// A hostile uuid stays one segment below /attachments/, or is refused.
	for _, id := range []string{"..", ".", "../../api/v1/admin", "a/b", "%2e%2e", "a?b", "a#b", "a\x00b"} {
		rc, _, err := c.OpenAttachment(context.Background(), &Attachment{BrowserDownloadURL: "http://evil.example/x", Uuid: id})
		if err == nil {
			rc.Close()
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d refused URLs reached the server", n)
	}
}
