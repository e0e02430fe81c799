package forgejotest

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
)

// Uploads are streamed: a release asset larger than the 32 MiB every body
// used to be cut at goes through, counted and not held; the request log
// keeps its first MiB and its size.
func TestUploadStreamed(t *testing.T) {
	srv := NewServer(t)
	srv.AddRepo(srv.DefaultUser(), "demo")
	ctx := context.Background()
	c := srv.Client()
	rel, _, err := c.Repos.CreateRelease(ctx, srv.DefaultUser(), "demo", forgejo.CreateReleaseRequest{TagName: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	const size = 51 << 20
	a, resp, err := c.Repos.UploadReleaseAsset(ctx, srv.DefaultUser(), "demo", rel.ID, nil,
		forgejo.Upload{Name: "big.bin", Content: io.LimitReader(zeros{}, size), Size: size})
	if err != nil || resp.StatusCode != 201 || a.Size != size || a.Name != "big.bin" {
		t.Fatalf("51 MiB asset: %v %+v", err, a)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if last.Operation != "repoCreateReleaseAttachment" || len(last.Body) != maxRecorded || last.BodySize <= size {
		t.Errorf("logged %s with %d bytes of %d", last.Operation, len(last.Body), last.BodySize)
	}
	if first := reqs[len(reqs)-2]; first.BodySize != int64(len(first.Body)) || first.BodySize == 0 {
		t.Errorf("a JSON body logged with size %d, %d bytes", first.BodySize, len(first.Body))
	}

	// Forgejo takes a release asset as the raw body too, named by ?name=.
	req, _ := http.NewRequest("POST", srv.URL+"/api/v1/repos/"+srv.DefaultUser()+"/demo/releases/1/assets?name=raw.txt", strings.NewReader("raw body"))
	req.Header.Set("Authorization", "token "+srv.Token())
	req.Header.Set("Content-Type", "application/octet-stream")
	hr, err := srv.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	hr.Body.Close()
	as, _, err := c.Repos.ListReleaseAssets(ctx, srv.DefaultUser(), "demo", rel.ID)
	if err != nil || hr.StatusCode != 201 || len(as) != 2 || as[1].Name != "raw.txt" || as[1].Size != 8 {
		t.Errorf("raw asset: %d %v %d", hr.StatusCode, err, len(as))
	}
}

// Past the attachment bound the upload is refused with 413, and the fake
// stops reading.
func TestUploadBound(t *testing.T) {
	srv := NewServer(t, WithMaxAttachmentSize(1<<20))
	srv.AddRepo(srv.DefaultUser(), "demo")
	ctx := context.Background()
	c := srv.Client()
	is, _, err := c.Issues.Create(ctx, srv.DefaultUser(), "demo", forgejo.CreateIssueRequest{Title: "t"})
	if err != nil {
		t.Fatal(err)
	}
	up := func(n int64) error {
		_, _, err := c.Issues.UploadAttachment(ctx, srv.DefaultUser(), "demo", is.Number, nil,
			forgejo.Upload{Name: "f.bin", Content: io.LimitReader(zeros{}, n), Size: n})
		return err
	}
	if err := up(1 << 20); err != nil {
		t.Errorf("at the bound: %v", err)
	}
	err = up(1<<20 + 1)
	var e *forgejo.APIError
	if !errors.As(err, &e) || e.StatusCode != http.StatusRequestEntityTooLarge || e.Message != "attachment size exceeds limit 1048576" {
		t.Errorf("past the bound: %v", err)
	}
	if err := up(8 << 20); err == nil {
		t.Errorf("8 MiB past a 1 MiB bound: no error")
	}
	as, _, err := c.Issues.ListAttachments(ctx, srv.DefaultUser(), "demo", is.Number)
	if err != nil || len(as) != 1 {
		t.Errorf("attachments: %d %v", len(as), err)
	}
}
