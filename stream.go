package forgejo

import (
	"bytes"
	"context"
	"io"
)

// This file holds the streaming form of the operations that return file
// content: the caller reads the body as it arrives, within the download
// bound.

// stream runs r and returns the success body as a reader bounded by the
// download limit. The caller must close it.
//
// TODO(issue 10): stream without buffering; today the body is read whole
// first, so memory is not yet flat.
func (c *Client) stream(ctx context.Context, r *request) (io.ReadCloser, *Response, error) {
	r.result = resultBytes
	var data []byte
	resp, err := c.call(ctx, r, &data)
	if err != nil {
		return nil, resp, err
	}
	return io.NopCloser(bytes.NewReader(data)), resp, nil
}
