package forgejo

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/textproto"
	"strconv"
	"strings"
	"time"
)

// This file hand-writes the multipart/form-data uploads: issue and comment
// attachments and release assets. The spec declares them as formData
// parameters; here the file comes from an io.Reader, read once, within a
// size bound, into a body built in memory, so that the request is complete
// before it is sent (and could be repeated byte for byte, although every
// upload is Never retried: a repeat would upload a second file).

// DefaultMaxUploadBytes bounds an [Upload] whose MaxBytes is zero.
const DefaultMaxUploadBytes = 50 << 20

// Upload is a file to send as a multipart/form-data part.
type Upload struct {
	// Name is the file name of the part. The instance names the attachment
	// after it unless the options give another name. Required.
	Name string
	// Content is read to its end before anything is sent. Required.
	Content io.Reader
	// ContentType is the part's media type; empty means
	// application/octet-stream.
	ContentType string
	// MaxBytes bounds how much of Content is read; 0 means
	// DefaultMaxUploadBytes. Content that is longer fails the call with a
	// *ValidationError, and nothing is sent.
	MaxBytes int64
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
// (issueCreateIssueAttachment). Retry: Never (uploads a new attachment; a
// repeat uploads a second one).
func (s *IssuesService) UploadAttachment(ctx context.Context, owner, repo string, index int64, params *IssueUploadAttachmentOptions, file Upload, opts ...CallOption) (*Attachment, *Response, error) {
	req := newRequest(&opIssueCreateIssueAttachment, seg("owner", owner), seg("repo", repo), num("index", index))
	return s.client.upload(ctx, req, params, file, opts)
}

// UploadCommentAttachment uploads file as an attachment of comment id.
//
// Served by every supported release (Forgejo 11.0 and later).
//
// POST /repos/{owner}/{repo}/issues/comments/{id}/assets
// (issueCreateIssueCommentAttachment). Retry: Never (uploads a new
// attachment; a repeat uploads a second one).
func (s *IssuesService) UploadCommentAttachment(ctx context.Context, owner, repo string, id int64, params *IssueUploadAttachmentOptions, file Upload, opts ...CallOption) (*Attachment, *Response, error) {
	req := newRequest(&opIssueCreateIssueCommentAttachment, seg("owner", owner), seg("repo", repo), num("id", id))
	return s.client.upload(ctx, req, params, file, opts)
}

func (c *Client) upload(ctx context.Context, req *request, params *IssueUploadAttachmentOptions, file Upload, opts []CallOption) (*Attachment, *Response, error) {
	p := deref(params)
	req.addQuery("name", p.Name)
	req.addQueryTime("updated_at", p.UpdatedAt)
	req.multipartBody("attachment", &file)
	req.with(opts)
	v := new(Attachment)
	resp, err := c.call(ctx, req, v)
	if noResult(resp, err) {
		return nil, resp, err
	}
	return v, resp, nil
}

// RepoUploadReleaseAssetOptions holds the parameters of
// [ReposService.UploadReleaseAsset] other than the file. Only fields that
// are set are sent.
type RepoUploadReleaseAssetOptions struct {
	// Name of the asset; empty means the upload's file name.
	Name string
	// ExternalURL links an asset hosted elsewhere instead of uploading one:
	// set it and pass a nil file.
	ExternalURL string
}

// UploadReleaseAsset adds an asset to release id: file uploaded, or, with a
// nil file, a link to params.ExternalURL. Exactly one of the two must be
// given.
//
// Served by every supported release (Forgejo 11.0 and later).
//
// POST /repos/{owner}/{repo}/releases/{id}/assets
// (repoCreateReleaseAttachment). Retry: Never (uploads a new asset; a repeat
// uploads a second one).
func (s *ReposService) UploadReleaseAsset(ctx context.Context, owner, repo string, id int64, params *RepoUploadReleaseAssetOptions, file *Upload, opts ...CallOption) (*Attachment, *Response, error) {
	req := newRequest(&opRepoCreateReleaseAttachment, seg("owner", owner), seg("repo", repo), num("id", id))
	o := deref(params)
	req.addQuery("name", o.Name)
	switch {
	case file == nil && isBlank(o.ExternalURL):
		if req.err == nil {
			req.err = &ValidationError{Field: "attachment", Message: "needs a file or an external URL"}
		}
	case file != nil && o.ExternalURL != "":
		if req.err == nil {
			req.err = &ValidationError{Field: "external_url", Message: "must not be set together with a file"}
		}
	case file != nil:
		req.multipartBody("attachment", file)
	default:
		req.multipartBody("attachment", nil, formField{"external_url", o.ExternalURL})
	}
	req.with(opts)
	v := new(Attachment)
	resp, err := s.client.call(ctx, req, v)
	if noResult(resp, err) {
		return nil, resp, err
	}
	return v, resp, nil
}
