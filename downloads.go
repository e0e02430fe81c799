package forgejo

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// This file hand-writes repoGetArchive, whose single path parameter packs a
// ref and a format ("main.zip"): here they are two arguments, and the
// format is checked before anything is sent. GetArchive reads the archive
// whole and OpenArchive streams it, both bounded by the download limit
// ([WithMaxDownloadBytes]), like every file-content operation (raw files,
// Actions logs and artifacts, which are generated).

// ArchiveFormat is the format of a repository archive.
type ArchiveFormat string

// The archive formats Forgejo serves.
const (
	ArchiveZip    ArchiveFormat = "zip"
	ArchiveTarGz  ArchiveFormat = "tar.gz"
	ArchiveBundle ArchiveFormat = "bundle"
)

// GetArchive downloads an archive of the repository at ref (a branch, tag
// or commit; a branch name may contain slashes) in format: a zip, a tar.gz
// or a git bundle. The body is returned whole, bounded by the download
// limit ([WithMaxDownloadBytes]); past it the call fails with a
// response-too-large *TransportError.
//
// Served by every supported release (Forgejo 11.0 and later).
//
// GET /repos/{owner}/{repo}/archive/{archive} (repoGetArchive). Token scope:
// read:repository. Retry: RetryIdempotentOnly (a read).
func (s *ReposService) GetArchive(ctx context.Context, owner, repo, ref string, format ArchiveFormat, opts ...RequestOption) ([]byte, *Response, error) {
	req := archiveRequest(owner, repo, ref, format, opts)
	req.result = resultBytes
	var v []byte
	resp, err := s.client.call(ctx, req, &v)
	if noResult(resp, err) {
		return nil, resp, err
	}
	return v, resp, nil
}

// OpenArchive is [ReposService.GetArchive] as a stream: it returns the
// archive as it arrives, bounded by the download limit
// ([WithMaxDownloadBytes]), instead of reading it whole. The caller must
// close the reader. A conditional call ([IfNoneMatch], [IfModifiedSince])
// answered 304 Not Modified returns an empty reader, still to be closed,
// with Response.NotModified true; an error returns a nil reader.
//
// GET /repos/{owner}/{repo}/archive/{archive} (repoGetArchive). Token scope:
// read:repository. Retry: RetryIdempotentOnly (a read).
func (s *ReposService) OpenArchive(ctx context.Context, owner, repo, ref string, format ArchiveFormat, opts ...RequestOption) (io.ReadCloser, *Response, error) {
	return s.client.stream(ctx, archiveRequest(owner, repo, ref, format, opts))
}

func archiveRequest(owner, repo, ref string, format ArchiveFormat, opts []RequestOption) *request {
	req := newRequest(&opRepoGetArchive, seg("owner", owner), seg("repo", repo), segs("archive", strings.TrimSpace(ref)+"."+string(format)))
	switch {
	case req.err != nil:
	case isBlank(ref):
		req.err = &ValidationError{Field: "ref", Message: "must not be blank"}
	case format != ArchiveZip && format != ArchiveTarGz && format != ArchiveBundle:
		req.err = &ValidationError{Field: "format", Message: "must be zip, tar.gz or bundle"}
	}
	req.with(opts)
	return req
}

// opOpenAttachment is the download of an attachment's file, which is not an
// operation of the API: its URL is below the instance root, not /api/v1.
var opOpenAttachment = Operation{ID: "openAttachment", Method: http.MethodGet, Path: "/attachments/{uuid}",
	Service: "Client", Name: "OpenAttachment", Retry: RetryIdempotentOnly, RetryReason: "a read"}

// OpenAttachment streams the file of an attachment (a release asset, or a
// file attached to an issue or a comment) through the client like any
// call: paced, retried until its headers arrive (a read), observed and
// redacted, bounded by the download limit ([WithMaxDownloadBytes]). The
// token goes to this client's instance only: a redirect elsewhere (an
// object store serving the file) does not carry it. The caller must close
// the reader.
//
// The file is fetched from a.BrowserDownloadURL when that is on this
// client's instance, below its root (the base URL without /api/v1), and
// otherwise from the instance's /attachments/{uuid} (a.Uuid), where
// Forgejo serves every attachment too: an instance whose ROOT_URL names
// another host than the one the client uses still works, and a listing
// from a hostile server cannot make the client send its token elsewhere.
// An attachment with neither, and an external release asset (Type
// external: a link to a file on another site, fetched without this
// client), are refused with a *ValidationError before anything is sent.
func (c *Client) OpenAttachment(ctx context.Context, a *Attachment, opts ...RequestOption) (io.ReadCloser, *Response, error) {
	r := &request{op: &opOpenAttachment, root: true}
	switch {
	case a == nil:
		r.err = &ValidationError{Field: "attachment", Message: "must not be nil"}
	case a.Type == AttachmentTypeExternal:
		r.err = &ValidationError{Field: "attachment.type", Message: "is external: the file is on another site, not this instance"}
	default:
		r.path, r.err = c.instancePath("attachment.browser_download_url", a.BrowserDownloadURL)
		if r.err != nil && strings.TrimSpace(a.Uuid) != "" {
			r.path, r.err = expandPath("/attachments/{uuid}", seg("uuid", strings.TrimSpace(a.Uuid)))
		}
	}
	r.with(opts)
	return c.stream(ctx, r)
}

// instanceRoot is the base URL without its /api/v1.
func (c *Client) instanceRoot() string { return c.baseURL[:len(c.baseURL)-len("/api/v1")] }

// instancePath returns the escaped path of raw, an absolute URL, relative
// to the instance root, refusing a URL on another origin or outside the
// root (field names it in the error).
func (c *Client) instancePath(field, raw string) (string, error) {
	fail := func(msg string) error { return &ValidationError{Field: field, Message: msg} }
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return "", fail("must be an absolute http(s) URL")
	}
	root, _ := url.Parse(c.instanceRoot())
	if !strings.EqualFold(u.Scheme, root.Scheme) || !strings.EqualFold(u.Host, root.Host) || u.User != nil {
		return "", fail("is not on this client's instance (" + root.Scheme + "://" + root.Host + ")")
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.ContainsAny(raw, "?#") {
		return "", fail("must not carry a query or a fragment")
	}
	p, prefix := u.EscapedPath(), strings.TrimRight(root.EscapedPath(), "/")
	if !strings.HasPrefix(p, prefix+"/") || len(p) == len(prefix)+1 {
		return "", fail("is not below this client's instance root")
	}
	rest := p[len(prefix):]
	if err := checkRawPath(http.MethodGet, rest); err != nil {
		var ve *ValidationError
		if errors.As(err, &ve) {
			ve.Field = field
		}
		return "", err
	}
	return rest, nil
}
