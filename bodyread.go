package forgejo

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"slices"
	"sync"
)

// readChunk is the unit readUnsized reads in; chunks are pooled, so that a
// body of unknown length (chunked, or compressed on the way) costs one
// allocation of its own size instead of a buffer doubled up to twice it.
const readChunk = 32 << 10

var readChunks = sync.Pool{New: func() any { b := make([]byte, readChunk); return &b }}

// readUnsized reads r to its end (or first error) and returns what it read
// in a slice of exactly that length, and the error (nil at EOF), as
// bytes.Buffer.ReadFrom does.
func readUnsized(r io.Reader) ([]byte, error) {
	var chunks []*[]byte
	defer func() {
		for _, c := range chunks {
			readChunks.Put(c)
		}
	}()
	total, fill := 0, readChunk
	var err error
	for {
		if fill == readChunk {
			chunks = append(chunks, readChunks.Get().(*[]byte))
			fill = 0
		}
		var n int
		n, err = r.Read((*chunks[len(chunks)-1])[fill:])
		fill += n
		total += n
		if err != nil {
			break
		}
	}
	if err == io.EOF {
		err = nil
	}
	out := make([]byte, total)
	off := 0
	for _, c := range chunks {
		off += copy(out[off:], (*c)[:min(readChunk, total-off)])
	}
	return out, err
}

// bodyBuffers holds the buffers JSON success bodies are read into: decoding
// copies what it keeps, so a call's body needs no allocation of its own.
var bodyBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledBody is the largest buffer kept for reuse: a rare huge body
// should not stay pinned in the pool.
const maxPooledBody = 4 << 20

// releaseBody hands a buffer from readBody back to the pool; nil is a no-op.
func releaseBody(held *[]byte) {
	if held == nil || cap(*held) > maxPooledBody {
		return
	}
	*held = (*held)[:0]
	bodyBuffers.Put(held)
}

// readInto appends r's content, to its end or first error, to buf and
// returns it, with the error (nil at EOF). size, when known (≥ 0), sizes
// the buffer up front.
func readInto(buf []byte, r io.Reader, size int64) ([]byte, error) {
	if size >= 0 && int64(cap(buf)-len(buf)) <= size {
		// A claimed length sizes the buffer only up to maxPooledBody:
		// past that, it grows as the bytes actually arrive.
		buf = slices.Grow(buf, int(min(size, maxPooledBody))+1)
	}
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, max(512, cap(buf)))
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return buf, err
		}
	}
}

// errResponseTooLarge marks a body past its configured bound.
var errResponseTooLarge = errors.New("response body exceeds the configured limit")

// maxErrorBody bounds how much of an error body is read for its message;
// the rest is discarded, so an oversized error body never masks the status.
const maxErrorBody = 64 << 10

// readBody reads at most limit bytes. Past the bound it fails, unless
// truncate is set (error bodies), where it keeps the prefix plus pad more
// bytes, so that the caller can scrub across the cut before cutting. The
// body is always closed. With pooled set, data lives in a pooled buffer
// that the caller hands back with releaseBody once nothing refers to it
// (held is nil otherwise).
func readBody(resp *http.Response, limit int64, pad int, truncate, pooled bool) (data []byte, held *[]byte, err error) {
	defer resp.Body.Close()
	if resp.ContentLength > limit && !truncate {
		return nil, nil, errResponseTooLarge
	}
	keep := limit
	if truncate {
		keep += int64(pad)
	}
	body := io.LimitReader(resp.Body, keep+1)
	switch {
	case pooled:
		held = bodyBuffers.Get().(*[]byte)
		data, err = readInto((*held)[:0], body, resp.ContentLength)
		*held = data
	case resp.ContentLength < 0:
		// Unknown length: pooled chunks and one exact allocation, not a
		// buffer doubled up to twice the body (readUnsized).
		data, err = readUnsized(body)
	default:
		buf := bytes.NewBuffer(make([]byte, 0, min(resp.ContentLength, keep)+1))
		_, err = buf.ReadFrom(body)
		data = buf.Bytes()
	}
	if int64(len(data)) > limit {
		if !truncate {
			releaseBody(held)
			return nil, nil, errResponseTooLarge
		}
		data = data[:min(int64(len(data)), keep)]
		err = nil
	}
	if err != nil && !truncate {
		releaseBody(held)
		return nil, nil, err
	}
	return data, held, nil
}
