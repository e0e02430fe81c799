package forgejo

import (
	"context"
	"fmt"
	"io"
)

// This file downloads a run's artifacts: streamed through the client (its
// retries until the headers arrive, pacing, redaction, the download bound
// and the redirect rule of every download: the token never leaves the
// base URL's origin), into the caller's writer through one fixed buffer.

// DownloadArtifactTo streams one artifact (a zip) to w and returns how many
// bytes it wrote. The download goes through the client like every call
// (paced, retried until its headers arrive, redacted), is bounded by the
// download limit ([WithMaxDownloadBytes]), and is copied through one fixed
// buffer whatever its size. A read failure midway is returned as a
// *TransportError after the bytes before it were written: w then holds a
// truncated zip, to be discarded (the download is not resumed).
//
// Artifacts are Forgejo 16.0's: on an older release DownloadArtifactTo
// fails with an [*UnsupportedOperationError], before sending when the
// client knows the server's release and otherwise on the server's 404.
func (s *ActionsService) DownloadArtifactTo(ctx context.Context, owner, repo string, artifactID int64, w io.Writer, opts ...RequestOption) (int64, *Response, error) {
	if w == nil {
		return 0, newResponse(nil), &ValidationError{Field: "w", Message: "must not be nil"}
	}
	body, resp, err := s.OpenArtifact(ctx, owner, repo, artifactID, withKnownRelease(opts)...)
	if err != nil {
		return 0, resp, err
	}
	defer body.Close()
	n, err := io.CopyBuffer(onlyWriter{w}, body, make([]byte, followBufSize))
	return n, resp, err
}

// onlyWriter hides a writer's ReadFrom, so that a copy goes through the
// fixed buffer rather than a reader of the writer's choosing.
type onlyWriter struct{ w io.Writer }

func (o onlyWriter) Write(p []byte) (int, error) { return o.w.Write(p) }

// FindRunArtifact returns the artifact of a run named name (exactly), or
// an error matching [ErrNotFound] when the run has none by that name. It
// walks [ActionsService.ListRunArtifactsIter] with the name filter, which
// Forgejo 16.0 added along with artifacts: on an older release it fails
// with an [*UnsupportedOperationError].
func (s *ActionsService) FindRunArtifact(ctx context.Context, owner, repo string, runID int64, name string, opts ...RequestOption) (*ActionArtifact, error) {
	if isBlank(name) {
		return nil, &ValidationError{Field: "name", Message: "must not be blank"}
	}
	params := &ActionListRunArtifactsOptions{Name: name}
	for a, err := range s.ListRunArtifactsIter(ctx, owner, repo, runID, params, withKnownRelease(opts)...) {
		if err != nil {
			return nil, err
		}
		if a != nil && a.Name == name {
			return a, nil
		}
	}
	return nil, fmt.Errorf("forgejo: run %d of %s/%s has no artifact named %q: %w", runID, bound(owner), bound(repo), bound(name), ErrNotFound)
}
