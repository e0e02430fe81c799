package bench

import (
	"context"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

// uploadSize is the release asset BenchmarkUploadReleaseAsset uploads. CI
// runs every benchmark once, so the default stays small; the 1 GiB figure
// in docs/performance.md is taken by hand:
//
//	go test -run '^$' -bench UploadReleaseAsset -benchtime 1x -uploadsize 1073741824
var uploadSize = flag.Int64("uploadsize", 128<<20, "bytes of the release asset BenchmarkUploadReleaseAsset uploads")

// patternReader generates n bytes on the fly, so the content itself takes
// no memory; every 16 MiB it samples the heap in use.
type patternReader struct {
	left, sinceSample int64
	peak              *uint64
}

func (r *patternReader) Read(p []byte) (int, error) {
	if r.left == 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), r.left)
	for i := range p[:n] {
		p[i] = byte(i)
	}
	r.left -= n
	if r.sinceSample += n; r.sinceSample >= 16<<20 {
		r.sinceSample = 0
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		*r.peak = max(*r.peak, ms.HeapInuse)
	}
	return int(n), nil
}

// hidden keeps the reader's type from the client, so that only Upload.Size
// tells the length (a buffered upload: no Size, MaxBytes large enough).
type hidden struct{ io.Reader }

// BenchmarkUploadReleaseAsset uploads one release asset to a server that
// counts and discards the body. "streamed" declares the size, so the body
// streams from the reader; "buffered" does not (at most 64 MiB of it), so
// the client reads it into memory first, as every upload did before.
// heap-inuse-MiB is the peak heap in use during the upload, over the heap
// in use before it (after a GC); alloc-MiB what the call allocated.
func BenchmarkUploadReleaseAsset(b *testing.B) {
	var received atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := io.Copy(io.Discard, r.Body)
		received.Store(n)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"id":1,"name":"asset.bin","size":`+strconv.FormatInt(n, 10)+`}`)
	}))
	b.Cleanup(srv.Close)
	c := forgegoClient(b, srv.URL)
	ctx := context.Background()
	for _, mode := range []struct {
		name     string
		size     int64
		streamed bool
	}{
		{"streamed", *uploadSize, true},
		{"buffered", min(*uploadSize, 64<<20), false},
	} {
		b.Run(mode.name+"/MiB="+strconv.FormatInt(mode.size>>20, 10), func(b *testing.B) {
			var peakOver, allocated float64
			for b.Loop() {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				peak := before.HeapInuse
				file := forgejo.Upload{Name: "asset.bin", Content: hidden{&patternReader{left: mode.size, peak: &peak}}}
				if mode.streamed {
					file.Size = mode.size
				} else {
					file.MaxBytes = mode.size
				}
				start := time.Now()
				if _, _, err := c.Repos.UploadReleaseAsset(ctx, "o", "r", 1, nil, file); err != nil {
					b.Fatal(err)
				}
				elapsed := time.Since(start)
				runtime.ReadMemStats(&after)
				peak = max(peak, after.HeapInuse)
				if got := received.Load(); got < mode.size {
					b.Fatalf("the server received %d bytes, want at least %d", got, mode.size)
				}
				peakOver = max(peakOver, float64(peak-before.HeapInuse)/(1<<20))
				allocated = float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20)
				b.ReportMetric(float64(mode.size)/(1<<20)/elapsed.Seconds(), "MiB/s")
			}
			b.ReportMetric(peakOver, "heap-inuse-MiB")
			b.ReportMetric(allocated, "alloc-MiB")
		})
	}
}
