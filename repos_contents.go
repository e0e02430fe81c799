package forgejo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
)

// This file hand-writes repoGetContents: the instance answers an object for
// a file (or symlink, or submodule) and an array of the same objects for a
// directory, a union the spec does not declare (it names only the object).

// Contents is the answer of [ReposService.GetContents]: exactly one of File
// and Dir is set, depending on what the path names.
type Contents struct {
	// File is the entry when the path names a file, a symlink or a
	// submodule; for a file, Content carries the base64-encoded bytes.
	File *ContentsResponse
	// Dir lists the entries when the path names a directory (not paged);
	// Content is empty in each of them.
	Dir []*ContentsResponse
}

// errContentsShape is the decode failure of an answer that is neither an
// object nor an array.
var errContentsShape = errors.New("contents: the answer is neither a JSON object (a file) nor an array (a directory)")

// IsDir reports whether the path named a directory.
func (c *Contents) IsDir() bool { return c != nil && c.File == nil && c.Dir != nil }

// UnmarshalJSON decodes either shape: an object into File, an array into
// Dir (an empty directory gives an empty, non-nil Dir). JSON null leaves
// both unset.
func (c *Contents) UnmarshalJSON(data []byte) error {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	switch {
	case len(trimmed) > 0 && trimmed[0] == '[':
		dir := []*ContentsResponse{}
		if err := json.Unmarshal(data, &dir); err != nil {
			return err
		}
		c.File, c.Dir = nil, dir
	case len(trimmed) > 0 && trimmed[0] == '{':
		file := new(ContentsResponse)
		if err := json.Unmarshal(data, file); err != nil {
			return err
		}
		c.File, c.Dir = file, nil
	case bytes.Equal(bytes.TrimSpace(trimmed), []byte("null")):
		c.File, c.Dir = nil, nil
	default:
		return errContentsShape
	}
	return nil
}

// RepoGetContentsOptions holds the query parameters of
// [ReposService.GetContents]. Only fields that are set are sent.
type RepoGetContentsOptions struct {
	// Ref is the commit, branch or tag to read; empty means the repository's
	// default branch.
	Ref string
}

// GetContents returns the metadata and contents of a file, or the entries of
// a directory, at filepath ("src/a.go"; sent as several path segments). The
// repository's root directory is [ReposService.ListContents].
//
// Served by every supported release (Forgejo 11.0 and later).
//
// GET /repos/{owner}/{repo}/contents/{filepath} (repoGetContents). Token scope:
// read:repository. Retry: RetryIdempotentOnly (a read).
func (s *ReposService) GetContents(ctx context.Context, owner, repo, filepath string, params *RepoGetContentsOptions, opts ...RequestOption) (*Contents, *Response, error) {
	req := newRequest(&opRepoGetContents, seg("owner", owner), seg("repo", repo), segs("filepath", filepath))
	req.addQuery("ref", deref(params).Ref)
	req.with(opts)
	v := new(Contents)
	resp, err := s.client.call(ctx, req, v)
	if noResult(resp, err) {
		return nil, resp, err
	}
	return v, resp, nil
}
