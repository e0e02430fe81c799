package forgejo

import (
	"context"
	"io"
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
// GET /repos/{owner}/{repo}/archive/{archive} (repoGetArchive). Retry:
// IdempotentOnly (a read).
func (s *ReposService) GetArchive(ctx context.Context, owner, repo, ref string, format ArchiveFormat, opts ...CallOption) ([]byte, *Response, error) {
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
// GET /repos/{owner}/{repo}/archive/{archive} (repoGetArchive). Retry:
// IdempotentOnly (a read).
func (s *ReposService) OpenArchive(ctx context.Context, owner, repo, ref string, format ArchiveFormat, opts ...CallOption) (io.ReadCloser, *Response, error) {
	return s.client.stream(ctx, archiveRequest(owner, repo, ref, format, opts))
}

func archiveRequest(owner, repo, ref string, format ArchiveFormat, opts []CallOption) *request {
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
