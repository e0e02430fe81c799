package forgejo

import (
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
)

// Tests of the hand-written operations (the contents union, multipart
// uploads, archive downloads, the topic list) and of pull request state.

// gnUpload is what the test server saw of a multipart request.
type gnUpload struct {
	method, path, query string
	fields              map[string]string
	file                struct{ field, name, ctype, content string }
}

func gnUploadServer(t *testing.T, status int, body string) (*httptest.Server, func() []gnUpload) {
	t.Helper()
	var mu sync.Mutex
	var seen []gnUpload
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := gnUpload{method: r.Method, query: r.URL.RawQuery, fields: map[string]string{}}
		u.path, _, _ = strings.Cut(r.RequestURI, "?")
		mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "multipart/form-data" {
			t.Errorf("Content-Type %q", r.Header.Get("Content-Type"))
		} else {
			mr := multipart.NewReader(r.Body, params["boundary"])
			for {
				p, err := mr.NextPart()
				if err != nil {
					break
				}
				data, _ := io.ReadAll(p)
				if p.FileName() != "" {
					u.file.field, u.file.name, u.file.ctype, u.file.content = p.FormName(), p.FileName(), p.Header.Get("Content-Type"), string(data)
				} else {
					u.fields[p.FormName()] = string(data)
				}
			}
		}
		mu.Lock()
		seen = append(seen, u)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []gnUpload {
		mu.Lock()
		defer mu.Unlock()
		return append([]gnUpload(nil), seen...)
	}
}

const gnAttachmentJSON = `{"id":12,"name":"log.txt","size":11,"uuid":"u-1","browser_download_url":"https://x/attachments/u-1"}`

func TestGnCreateIssueAttachment(t *testing.T) {
	srv, seen := gnUploadServer(t, http.StatusCreated, gnAttachmentJSON)
	obs := &gnOps{}
	c := gnClient(t, srv.URL, obs)
	a, resp, err := c.Issues.UploadAttachment(context.Background(), "o", "r", 7,
		&IssueUploadAttachmentOptions{Name: "renamed log", UpdatedAt: gnTime(1)},
		Upload{Name: `crash "1".txt`, Content: strings.NewReader("hello world"), ContentType: "text/plain"})
	if err != nil || resp.StatusCode != http.StatusCreated || a.ID != 12 || a.Uuid != "u-1" {
		t.Fatalf("attachment %+v, err %v", a, err)
	}
	got := seen()
	if len(got) != 1 {
		t.Fatalf("%d requests", len(got))
	}
	u := got[0]
	if u.method != "POST" || u.path != "/api/v1/repos/o/r/issues/7/assets" || u.query != "name=renamed%20log&updated_at=2026-01-02T03%3A04%3A06Z" {
		t.Errorf("request %s %s?%s", u.method, u.path, u.query)
	}
	if u.file.field != "attachment" || u.file.name != `crash "1".txt` || u.file.ctype != "text/plain" || u.file.content != "hello world" {
		t.Errorf("file part %+v", u.file)
	}
	if len(obs.ops) != 1 || obs.ops[0] != "issueCreateIssueAttachment" {
		t.Errorf("operations %v", obs.ops)
	}
}

func TestGnCreateIssueCommentAttachment(t *testing.T) {
	srv, seen := gnUploadServer(t, http.StatusCreated, gnAttachmentJSON)
	c := gnClient(t, srv.URL, nil)
	if _, _, err := c.Issues.UploadCommentAttachment(context.Background(), "o", "r", 9, nil,
		Upload{Name: "a.bin", Content: strings.NewReader("\x00\x01")}); err != nil {
		t.Fatal(err)
	}
	u := seen()[0]
	if u.path != "/api/v1/repos/o/r/issues/comments/9/assets" || u.query != "" || u.file.ctype != "application/octet-stream" || u.file.content != "\x00\x01" {
		t.Errorf("request %s?%s, file %+v", u.path, u.query, u.file)
	}
}

func TestGnUploadRejectsBeforeSending(t *testing.T) {
	srv, seen := gnUploadServer(t, http.StatusCreated, gnAttachmentJSON)
	c := gnClient(t, srv.URL, nil)
	ctx := context.Background()
	cases := map[string]struct {
		file  Upload
		field string
	}{
		"too large":   {Upload{Name: "a", Content: strings.NewReader("12345"), MaxBytes: 4}, "attachment"},
		"no name":     {Upload{Name: " ", Content: strings.NewReader("x")}, "attachment"},
		"no content":  {Upload{Name: "a"}, "attachment"},
		"header CRLF": {Upload{Name: "a\r\nX-Evil: 1", Content: strings.NewReader("x")}, "attachment"},
		"read error":  {Upload{Name: "a", Content: io.MultiReader(strings.NewReader("x"), gnErrReader{})}, "attachment"},
	}
	for name, tc := range cases {
		_, _, err := c.Issues.UploadAttachment(ctx, "o", "r", 1, nil, tc.file)
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Field != tc.field {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	// Exactly at the bound is fine.
	if _, _, err := c.Issues.UploadAttachment(ctx, "o", "r", 1, nil, Upload{Name: "a", Content: strings.NewReader("1234"), MaxBytes: 4}); err != nil {
		t.Errorf("at the bound: %v", err)
	}
	if n := len(seen()); n != 1 {
		t.Errorf("%d requests sent, want only the one within the bound", n)
	}
}

type gnErrReader struct{}

func (gnErrReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestGnUploadIsNeverRetried(t *testing.T) {
	srv, seen := gnUploadServer(t, http.StatusServiceUnavailable, `{"message":"busy"}`)
	c, err := NewClient(WithBaseURL(srv.URL)) // the default policy retries 503s of eligible calls
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Issues.UploadAttachment(context.Background(), "o", "r", 1, nil, Upload{Name: "a", Content: strings.NewReader("x")})
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 503 || len(seen()) != 1 {
		t.Errorf("err = %v after %d attempts; want the bare 503 after one", err, len(seen()))
	}
}

func TestGnCreateReleaseAttachment(t *testing.T) {
	ctx := context.Background()
	t.Run("file", func(t *testing.T) {
		srv, seen := gnUploadServer(t, http.StatusCreated, gnAttachmentJSON)
		obs := &gnOps{}
		c := gnClient(t, srv.URL, obs)
		a, _, err := c.Repos.UploadReleaseAsset(ctx, "o", "r", 5, &RepoUploadReleaseAssetOptions{Name: "v1.zip"},
			Upload{Name: "build.zip", Content: strings.NewReader("PK")})
		if err != nil || a.Name != "log.txt" {
			t.Fatalf("%+v %v", a, err)
		}
		u := seen()[0]
		if u.path != "/api/v1/repos/o/r/releases/5/assets" || u.query != "name=v1.zip" || u.file.name != "build.zip" || u.file.content != "PK" || len(u.fields) != 0 {
			t.Errorf("request %s?%s %+v %v", u.path, u.query, u.file, u.fields)
		}
		if obs.ops[0] != "repoCreateReleaseAttachment" {
			t.Errorf("operations %v", obs.ops)
		}
	})
	t.Run("external URL", func(t *testing.T) {
		srv, seen := gnUploadServer(t, http.StatusCreated, gnAttachmentJSON)
		obs := &gnOps{}
		c := gnClient(t, srv.URL, obs)
		if _, _, err := c.Repos.LinkReleaseAsset(ctx, "o", "r", 5, "mirror", "https://example.org/a.zip"); err != nil {
			t.Fatal(err)
		}
		u := seen()[0]
		if u.path != "/api/v1/repos/o/r/releases/5/assets" || u.query != "name=mirror" || u.fields["external_url"] != "https://example.org/a.zip" || u.file.field != "" {
			t.Errorf("request %s?%s, fields %v, file %+v", u.path, u.query, u.fields, u.file)
		}
		if obs.ops[0] != "repoCreateReleaseAttachment" {
			t.Errorf("operations %v", obs.ops)
		}
	})
	t.Run("missing file, name or URL", func(t *testing.T) {
		srv, seen := gnUploadServer(t, http.StatusCreated, gnAttachmentJSON)
		c := gnClient(t, srv.URL, nil)
		var ve *ValidationError
		_, _, err := c.Repos.UploadReleaseAsset(ctx, "o", "r", 5, nil, Upload{})
		if !errors.As(err, &ve) || ve.Field != "attachment" {
			t.Errorf("no file: %v", err)
		}
		_, _, err = c.Repos.LinkReleaseAsset(ctx, "o", "r", 5, "", "https://x")
		if !errors.As(err, &ve) || ve.Field != "name" {
			t.Errorf("no name: %v", err)
		}
		_, _, err = c.Repos.LinkReleaseAsset(ctx, "o", "r", 5, "a", " ")
		if !errors.As(err, &ve) || ve.Field != "url" {
			t.Errorf("no URL: %v", err)
		}
		if len(seen()) != 0 {
			t.Error("a rejected call was sent")
		}
	})
}

func TestGnGetContents(t *testing.T) {
	file, err := os.ReadFile("testdata/codeberg/repository/contents-file.json")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.ReadFile("testdata/codeberg/repository/contents-dir-small.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	t.Run("file", func(t *testing.T) {
		srv, seen := tsReplyServer(t, 200, "application/json", string(file))
		obs := &gnOps{}
		v, _, err := gnClient(t, srv.URL, obs).Repos.GetContents(ctx, "o", "r", "docs/read me.md", &RepoGetContentsOptions{Ref: "release/v1"})
		if err != nil || v.IsDir() || v.File == nil || v.File.Name != "README.md" || v.File.Encoding != "base64" || v.Dir != nil {
			t.Fatalf("%+v %v", v, err)
		}
		s := seen()[0]
		if s.method != "GET" || s.path != "/api/v1/repos/o/r/contents/docs/read%20me.md" || s.query != "ref=release%2Fv1" {
			t.Errorf("request %s %s?%s", s.method, s.path, s.query)
		}
		if obs.ops[0] != "repoGetContents" {
			t.Errorf("operations %v", obs.ops)
		}
	})
	t.Run("directory", func(t *testing.T) {
		srv, _ := tsReplyServer(t, 200, "application/json", string(dir))
		v, _, err := gnClient(t, srv.URL, nil).Repos.GetContents(ctx, "o", "r", "docs", nil)
		if err != nil || !v.IsDir() || v.File != nil || len(v.Dir) == 0 || v.Dir[0].Name == "" {
			t.Fatalf("%+v %v", v, err)
		}
	})
	t.Run("empty directory", func(t *testing.T) {
		srv, _ := tsReplyServer(t, 200, "application/json", " []")
		v, _, err := gnClient(t, srv.URL, nil).Repos.GetContents(ctx, "o", "r", "empty", nil)
		if err != nil || !v.IsDir() || len(v.Dir) != 0 {
			t.Fatalf("%+v %v", v, err)
		}
	})
	t.Run("neither shape", func(t *testing.T) {
		srv, _ := tsReplyServer(t, 200, "application/json", `"README.md"`)
		_, _, err := gnClient(t, srv.URL, nil).Repos.GetContents(ctx, "o", "r", "x", nil)
		var de *DecodeError
		if !errors.As(err, &de) {
			t.Fatalf("err = %v, want a *DecodeError", err)
		}
	})
	t.Run("path safety", func(t *testing.T) {
		srv, seen := tsReplyServer(t, 200, "application/json", "{}")
		for _, p := range []string{"", "a//b", "../etc", "/abs", "a/./b"} {
			_, _, err := gnClient(t, srv.URL, nil).Repos.GetContents(ctx, "o", "r", p, nil)
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Field != "filepath" {
				t.Errorf("%q: err = %v", p, err)
			}
		}
		if len(seen()) != 0 {
			t.Errorf("%d requests sent", len(seen()))
		}
	})
}

func TestGnGetArchive(t *testing.T) {
	ctx := context.Background()
	srv, seen := tsReplyServer(t, 200, "application/zip", "PK\x03\x04archive")
	obs := &gnOps{}
	data, _, err := gnClient(t, srv.URL, obs).Repos.GetArchive(ctx, "o", "r", "feature/new ui", ArchiveTarGz)
	if err != nil || string(data) != "PK\x03\x04archive" {
		t.Fatalf("%q %v", data, err)
	}
	if s := seen()[0]; s.method != "GET" || s.path != "/api/v1/repos/o/r/archive/feature/new%20ui.tar.gz" || s.query != "" {
		t.Errorf("request %s %s?%s", s.method, s.path, s.query)
	}
	if obs.ops[0] != "repoGetArchive" {
		t.Errorf("operations %v", obs.ops)
	}
	c := gnClient(t, srv.URL, nil)
	for name, call := range map[string]func() error{
		"format": func() error { _, _, err := c.Repos.GetArchive(ctx, "o", "r", "main", "rar"); return err },
		"ref":    func() error { _, _, err := c.Repos.GetArchive(ctx, "o", "r", " ", ArchiveZip); return err },
	} {
		var ve *ValidationError
		if err := call(); !errors.As(err, &ve) || ve.Field != name {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	// The download limit bounds the body.
	small, err := NewClient(WithBaseURL(srv.URL), WithMaxDownloadBytes(4), WithRetryPolicy(RetryOff()))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = small.Repos.GetArchive(ctx, "o", "r", "main", ArchiveZip)
	var te *TransportError
	if !errors.As(err, &te) || te.Kind != TransportResponseTooLarge {
		t.Errorf("over the download limit: err = %v", err)
	}
}

func TestGnUpdateTopics(t *testing.T) {
	for _, tc := range []struct {
		topics []string
		want   string
	}{{nil, `{"topics":[]}`}, {[]string{"go", "forgejo"}, `{"topics":["go","forgejo"]}`}} {
		srv, seen := tsReplyServer(t, http.StatusNoContent, "", "")
		obs := &gnOps{}
		if _, err := gnClient(t, srv.URL, obs).Repos.ReplaceTopics(context.Background(), "o", "r", tc.topics); err != nil {
			t.Fatal(err)
		}
		s := seen()[0]
		if s.method != "PUT" || s.path != "/api/v1/repos/o/r/topics" || string(s.body) != tc.want || s.ctype != "application/json" {
			t.Errorf("request %s %s %s %q", s.method, s.path, s.body, s.ctype)
		}
		if obs.ops[0] != "repoUpdateTopics" {
			t.Errorf("operations %v", obs.ops)
		}
	}
}

func TestGnPullRequestEffectiveState(t *testing.T) {
	for _, tc := range []struct {
		pr   *PullRequest
		want StateType
	}{
		{nil, ""},
		{&PullRequest{State: "open"}, StateOpen},
		{&PullRequest{State: "closed"}, StateClosed},
		{&PullRequest{State: "closed", Merged: true}, StateMerged},
		{&PullRequest{State: "closed", MergedAt: gnTime(0)}, StateMerged},
		{&PullRequest{State: "draft-ish"}, "draft-ish"}, // an unknown state is kept
	} {
		if got := tc.pr.EffectiveState(); got != tc.want {
			t.Errorf("%+v: EffectiveState() = %q, want %q", tc.pr, got, tc.want)
		}
		if tc.pr.IsMerged() != (tc.want == StateMerged) {
			t.Errorf("%+v: IsMerged() = %v", tc.pr, tc.pr.IsMerged())
		}
	}
}

func TestGnRequiredArgumentsAreCheckedBeforeSending(t *testing.T) {
	srv, seen := tsReplyServer(t, 200, "application/json", "{}")
	c := gnClient(t, srv.URL, nil)
	ctx := context.Background()
	for field, call := range map[string]func() error{
		"title": func() error {
			_, _, err := c.Issues.Create(ctx, "o", "r", CreateIssueRequest{Title: " \t"})
			return err
		},
		"name": func() error {
			_, _, err := c.Orgs.EditTeam(ctx, 3, EditTeamRequest{Description: Ptr("d")})
			return err
		},
		"shas": func() error { _, _, err := c.Repos.ListBlobs(ctx, "o", "r", nil); return err },
		"subject": func() error {
			_, _, err := c.Users.CheckQuota(ctx, &UserCheckQuotaOptions{})
			return err
		},
		"q": func() error { _, _, err := c.Repos.SearchTopics(ctx, nil); return err },
	} {
		var ve *ValidationError
		if err := call(); !errors.As(err, &ve) || ve.Field != field {
			t.Errorf("%s: err = %v, want a *ValidationError on %s", field, err, field)
		}
	}
	if len(seen()) != 0 {
		t.Errorf("%d requests sent", len(seen()))
	}
}

func TestGnOpenEnumsKeepUnknownValues(t *testing.T) {
	srv, _ := tsReplyServer(t, 200, "application/json",
		`{"id":1,"subject":{"type":"Discussion","state":"triaged","title":"t"},"repository":null}`)
	n, _, err := gnClient(t, srv.URL, nil).Notifications.GetThread(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if n.Subject.Type != "Discussion" || n.Subject.State != "triaged" || n.Subject.Type == NotifySubjectIssue {
		t.Errorf("subject %+v", n.Subject)
	}
	if n.Repository != nil {
		t.Errorf("null repository decoded as %+v", n.Repository)
	}
}
