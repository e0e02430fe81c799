package forgejo

import (
	"io"
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
