package forgejo

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"mime/multipart"
	"net/textproto"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// This file hand-writes the multipart/form-data uploads: issue and comment
// attachments and release assets. The spec declares them as formData
// parameters. A file whose length is known is streamed: the body is the
// multipart preamble, the caller's reader, held to exactly that length, and
// the epilogue, with an exact Content-Length, so nothing is buffered
// (bodyStream). A file of unknown length is read first, within a bound,
// into a body built in memory. Either way the request is sent once: every
// upload is Never retried (a repeat would upload a second file), so the
// reader need not rewind.

// DefaultMaxUploadBytes bounds an [Upload] of unknown length whose MaxBytes
// is zero, since it is held in memory. An upload of known length has no
// bound but its MaxBytes.
const DefaultMaxUploadBytes = 50 << 20

// Upload is a file to send as a multipart/form-data part.
//
// When its length is known (Size, or what Content tells of itself), it is
// streamed: Content is read while the request is sent, never held in
// memory, and only MaxBytes bounds it (a default Forgejo accepts 2 048 MiB
// per file, [attachment] MAX_SIZE; it answers a larger one with 413, an
// *APIError). Content must then hold exactly that many bytes: one that
// ends early, holds more or fails to read cuts the request off before its
// body is complete, so the instance creates nothing, and the call fails
// with a *TransportError whose cause is an *UploadError. The request is sent
// once and Content read once, never rewound; when the method returns,
// Content is no longer read (a transport that answered early is cut off),
// and it is not closed: it stays the caller's.
//
// When its length is unknown, Content is read to its end, within MaxBytes
// (DefaultMaxUploadBytes when zero), before anything is sent.
type Upload struct {
	// Name is the file name of the part. The instance names the attachment
	// after it unless the options give another name. Required.
	Name string
	// Content is the file. Required.
	Content io.Reader
	// Size is Content's exact length in bytes. Zero means unknown, unless
	// Content tells: a *bytes.Reader, *bytes.Buffer or *strings.Reader (its
	// unread length), a regular *os.File or another io.Seeker (the length
	// from its current offset to its end). Negative is refused.
	Size int64
	// ContentType is the part's media type; empty means
	// application/octet-stream.
	ContentType string
	// MaxBytes bounds the file: a streamed upload larger than MaxBytes is
	// refused before anything is sent, and 0 means no bound; an upload of
	// unknown length reads at most MaxBytes (0 means
	// DefaultMaxUploadBytes). Either way, content that is longer fails the
	// call with a *ValidationError, and nothing is sent.
	MaxBytes int64
}

// isUploadFailure reports whether a transport failure was the caller's
// streamed content failing (retry.go: never retried).
func isUploadFailure(err error) bool {
	var ue *UploadError
	return errors.As(err, &ue)
}

// errStreamUsed refuses to send a streamed body twice; every upload is
// Never retried, so only a bug reaches it.
var errStreamUsed = errors.New("a streamed body is sent once")

// errStreamDetached is what the transport reads from a streamed body once
// the call has returned.
var errStreamDetached = errors.New("the call has returned")

// bodyStream is a request body streamed from the caller's reader: a
// preamble, content of exactly size bytes, an epilogue. The pipeline sends
// it once with Content-Length length (newHTTPRequest); detach ends every
// later read of the content.
type bodyStream struct {
	length   int64
	pre, epi []byte

	mu       sync.Mutex // serializes content reads with detach
	content  io.Reader
	field    string
	size     int64
	read     int64
	idle     int  // consecutive reads that returned nothing
	checked  bool // content was seen to end at size
	opened   bool
	detached bool
	err      error // sticky
}

// open returns the body, once.
func (s *bodyStream) open() (io.Reader, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opened {
		return nil, errStreamUsed
	}
	s.opened = true
	return io.MultiReader(bytes.NewReader(s.pre), (*exactReader)(s), bytes.NewReader(s.epi)), nil
}

// detach ends the stream's use of the caller's reader: it waits for a read
// in progress, and every later read fails. The upload methods call it when
// the call returns, since net/http may still be writing a body the server
// answered early.
func (s *bodyStream) detach() {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.detached = true
	s.mu.Unlock()
}

// exactReader is the content part of a bodyStream: it delivers exactly
// size bytes, and before it hands over the last of them it makes sure the
// content ends there, so that an over-long content never completes a
// request that would pass for the whole file.
type exactReader bodyStream

func (e *exactReader) fail(cause error) error {
	if e.err == nil {
		e.err = &UploadError{Field: e.field, Size: e.size, Read: e.read, Err: cause}
	}
	return e.err
}

func (e *exactReader) Read(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.detached:
		return 0, errStreamDetached
	case e.err != nil:
		return 0, e.err
	case len(p) == 0:
		return 0, nil
	}
	left := e.size - e.read
	if left == 0 {
		if !e.checked {
			if err := e.probe(); err != nil {
				return 0, err
			}
		}
		return 0, io.EOF
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := e.content.Read(p)
	if n < 0 || n > len(p) {
		return 0, e.fail(errors.New("the reader returned an invalid count"))
	}
	e.read += int64(n)
	switch {
	case err != nil && err != io.EOF:
		return 0, e.fail(err)
	case e.read == e.size:
		if err == io.EOF {
			e.checked = true
		} else if perr := e.probe(); perr != nil {
			return 0, perr // the last bytes withheld: the body never completes
		}
	case err == io.EOF:
		return 0, e.fail(ErrUploadTooShort)
	case n == 0:
		if e.idle++; e.idle >= maxIdleReads {
			return 0, e.fail(io.ErrNoProgress)
		}
		return 0, nil
	}
	e.idle = 0
	return n, nil
}

// maxIdleReads bounds how often a reader may return nothing and no error
// in a row.
const maxIdleReads = 100

// probe reads past the declared size: only EOF lets the body complete.
func (e *exactReader) probe() error {
	e.checked = true
	var b [1]byte
	for range maxIdleReads {
		n, err := e.content.Read(b[:])
		switch {
		case n > 0:
			return e.fail(ErrUploadTooLong)
		case err == io.EOF:
			return nil
		case err != nil:
			return e.fail(err)
		}
	}
	return e.fail(io.ErrNoProgress)
}

// uploadSize is the length of an upload's content when it is known: Size,
// or what the content tells of itself.
func uploadSize(field string, f *Upload) (size int64, known bool, err error) {
	if f.Size < 0 {
		return 0, false, &ValidationError{Field: field, Message: "size must not be negative"}
	}
	if f.Size > 0 {
		return f.Size, true, nil
	}
	switch c := f.Content.(type) {
	case *bytes.Reader:
		return int64(c.Len()), true, nil
	case *bytes.Buffer:
		return int64(c.Len()), true, nil
	case *strings.Reader:
		return int64(c.Len()), true, nil
	case *os.File:
		fi, err := c.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return 0, false, nil // a pipe, a device: read within the bound
		}
		off, err := c.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0, false, nil
		}
		return max(fi.Size()-off, 0), true, nil
	case io.Seeker:
		cur, err := c.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0, false, nil
		}
		end, err := c.Seek(0, io.SeekEnd)
		if _, serr := c.Seek(cur, io.SeekStart); serr != nil {
			return 0, false, &ValidationError{Field: field, Message: "could not be read: " + serr.Error()}
		}
		if err != nil || end < cur {
			return 0, false, nil
		}
		return end - cur, true, nil
	}
	return 0, false, nil
}

// formField is a text field of a multipart body.
type formField struct{ name, value string }

var quoteEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// multipartBody sets a multipart/form-data body: the text fields, then file
// (when non-nil) as the part named field.
func (r *request) multipartBody(field string, file *Upload, fields ...formField) {
	if r.err != nil {
		return
	}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range fields {
		if err := w.WriteField(f.name, f.value); err != nil {
			r.err = &ValidationError{Field: f.name, Message: "cannot be encoded: " + err.Error()}
			return
		}
	}
	if file != nil {
		if r.err = checkUpload(field, file); r.err != nil {
			return
		}
		size, known, err := uploadSize(field, file)
		if err != nil {
			r.err = err
			return
		}
		if known && file.MaxBytes > 0 && size > file.MaxBytes {
			r.err = &ValidationError{Field: field, Message: "is larger than " + strconv.FormatInt(file.MaxBytes, 10) + " bytes"}
			return
		}
		h := make(textproto.MIMEHeader)
		h.Set("Content-Disposition", `form-data; name="`+quoteEscaper.Replace(field)+`"; filename="`+quoteEscaper.Replace(file.Name)+`"`)
		ct := file.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		h.Set("Content-Type", ct)
		part, err := w.CreatePart(h)
		if err != nil {
			r.err = &ValidationError{Field: field, Message: "cannot be encoded: " + err.Error()}
			return
		}
		if known {
			r.streamBody(w, &buf, field, file.Content, size)
			return
		}
		limit := file.MaxBytes
		if limit <= 0 {
			limit = DefaultMaxUploadBytes
		}
		n, err := io.Copy(part, io.LimitReader(file.Content, limit+1))
		switch {
		case err != nil:
			r.err = &ValidationError{Field: field, Message: "could not be read: " + err.Error()}
			return
		case n > limit:
			r.err = &ValidationError{Field: field, Message: "is larger than " + strconv.FormatInt(limit, 10) + " bytes"}
			return
		}
	}
	if err := w.Close(); err != nil {
		r.err = &ValidationError{Field: field, Message: "cannot be encoded: " + err.Error()}
		return
	}
	r.body, r.bodyType = buf.Bytes(), w.FormDataContentType()
}

// streamBody sets a streamed body: buf holds the preamble, up to the file
// part's headers, and w writes the epilogue.
func (r *request) streamBody(w *multipart.Writer, buf *bytes.Buffer, field string, content io.Reader, size int64) {
	pre := bytes.Clone(buf.Bytes())
	buf.Reset()
	if err := w.Close(); err != nil {
		r.err = &ValidationError{Field: field, Message: "cannot be encoded: " + err.Error()}
		return
	}
	epi := bytes.Clone(buf.Bytes())
	if size > math.MaxInt64-int64(len(pre)+len(epi)) {
		r.err = &ValidationError{Field: field, Message: "is too large"}
		return
	}
	r.stream = &bodyStream{length: int64(len(pre)) + size + int64(len(epi)), pre: pre, epi: epi,
		content: content, field: field, size: size}
	r.bodyType = w.FormDataContentType()
}

func checkUpload(field string, f *Upload) error {
	switch {
	case isBlank(f.Name):
		return &ValidationError{Field: field, Message: "needs a file name"}
	case hasControl(f.Name) || hasControl(f.ContentType):
		return &ValidationError{Field: field, Message: "file name and content type must not contain control characters"}
	case f.Content == nil:
		return &ValidationError{Field: field, Message: "needs content"}
	}
	return nil
}

// IssueUploadAttachmentOptions holds the query parameters of
// [IssuesService.UploadAttachment] and
// [IssuesService.UploadCommentAttachment]. Only fields that are set are
// sent.
type IssueUploadAttachmentOptions struct {
	// Name of the attachment; empty means the upload's file name.
	Name string
	// UpdatedAt is the time to record as the attachment's creation; zero
	// means now.
	UpdatedAt time.Time
}

// UploadAttachment uploads file as an attachment of issue index.
//
// Served by every supported release (Forgejo 11.0 and later).
//
// POST /repos/{owner}/{repo}/issues/{index}/assets
// (issueCreateIssueAttachment). Token scope: write:issue. Retry: RetryNever
// (uploads a new attachment; a repeat uploads a second one).
func (s *IssuesService) UploadAttachment(ctx context.Context, owner, repo string, index int64, params *IssueUploadAttachmentOptions, file Upload, opts ...RequestOption) (*Attachment, *Response, error) {
	req := newRequest(&opIssueCreateIssueAttachment, seg("owner", owner), seg("repo", repo), num("index", index))
	return s.client.upload(ctx, req, params, file, opts)
}

// UploadCommentAttachment uploads file as an attachment of comment id.
//
// Served by every supported release (Forgejo 11.0 and later).
//
// POST /repos/{owner}/{repo}/issues/comments/{id}/assets
// (issueCreateIssueCommentAttachment). Token scope: write:issue. Retry:
// RetryNever (uploads a new attachment; a repeat uploads a second one).
func (s *IssuesService) UploadCommentAttachment(ctx context.Context, owner, repo string, id int64, params *IssueUploadAttachmentOptions, file Upload, opts ...RequestOption) (*Attachment, *Response, error) {
	req := newRequest(&opIssueCreateIssueCommentAttachment, seg("owner", owner), seg("repo", repo), num("id", id))
	return s.client.upload(ctx, req, params, file, opts)
}

func (c *Client) upload(ctx context.Context, req *request, params *IssueUploadAttachmentOptions, file Upload, opts []RequestOption) (*Attachment, *Response, error) {
	p := deref(params)
	req.addQuery("name", p.Name)
	req.addQueryTime("updated_at", p.UpdatedAt)
	req.multipartBody("attachment", &file)
	return c.sendAttachment(ctx, req, opts)
}

// RepoUploadReleaseAssetOptions holds the query parameters of
// [ReposService.UploadReleaseAsset]. Only fields that are set are sent.
type RepoUploadReleaseAssetOptions struct {
	// Name of the asset; empty means the upload's file name.
	Name string
}

// UploadReleaseAsset uploads file as an asset of release id. To add an
// asset hosted elsewhere, use [ReposService.LinkReleaseAsset].
//
// Served by every supported release (Forgejo 11.0 and later).
//
// POST /repos/{owner}/{repo}/releases/{id}/assets
// (repoCreateReleaseAttachment). Token scope: write:repository. Retry:
// RetryNever (uploads a new asset; a repeat uploads a second one).
func (s *ReposService) UploadReleaseAsset(ctx context.Context, owner, repo string, id int64, params *RepoUploadReleaseAssetOptions, file Upload, opts ...RequestOption) (*Attachment, *Response, error) {
	req := newRequest(&opRepoCreateReleaseAttachment, seg("owner", owner), seg("repo", repo), num("id", id))
	req.addQuery("name", deref(params).Name)
	req.multipartBody("attachment", &file)
	return s.client.sendAttachment(ctx, req, opts)
}

// LinkReleaseAsset adds to release id an asset hosted elsewhere, named
// name, whose download link is url; nothing is uploaded. name is required.
// Forgejo serves such assets; Gitea refuses them (500 "http: no such
// file").
//
// Served by every supported release (Forgejo 11.0 and later).
//
// POST /repos/{owner}/{repo}/releases/{id}/assets (repoCreateReleaseAttachment,
// with the external_url form field). Token scope: write:repository. Retry:
// RetryNever (adds a new asset; a repeat adds a second one).
func (s *ReposService) LinkReleaseAsset(ctx context.Context, owner, repo string, id int64, name, url string, opts ...RequestOption) (*Attachment, *Response, error) {
	req := newRequest(&opRepoCreateReleaseAttachment, seg("owner", owner), seg("repo", repo), num("id", id))
	req.requireText("name", name)
	req.requireText("url", url)
	req.addQuery("name", name)
	req.multipartBody("attachment", nil, formField{"external_url", url})
	return s.client.sendAttachment(ctx, req, opts)
}

// sendAttachment sends an attachment request built with its body and
// decodes the attachment, detaching a streamed body when the call returns.
func (c *Client) sendAttachment(ctx context.Context, req *request, opts []RequestOption) (*Attachment, *Response, error) {
	req.with(opts)
	v := new(Attachment)
	resp, err := c.call(ctx, req, v)
	req.stream.detach()
	if noResult(resp, err) {
		return nil, resp, err
	}
	return v, resp, nil
}
