package forgejo

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
)

// zeroReader yields n zero bytes without holding them.
type zeroReader struct{ n int64 }

func (z *zeroReader) Read(p []byte) (int, error) {
	if z.n <= 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), z.n)
	clear(p[:k])
	z.n -= k
	return int(k), nil
}

// streamServer serves size bytes at every path, with or without a
// Content-Length.
func streamServer(t testing.TB, size int64, declare bool, hits *atomic.Int64) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits != nil {
			hits.Add(1)
		}
		if declare {
			w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
		}
		w.Header().Set("ETag", `"v1"`)
		_, _ = io.Copy(w, &zeroReader{n: size})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestStreamReadsWithinTheBound(t *testing.T) {
	for _, declare := range []bool{true, false} {
		srv := streamServer(t, 1000, declare, nil)
		c, _ := NewClient(WithBaseURL(srv.URL), WithMaxDownloadBytes(1000))
		body, resp, err := c.Repos.OpenRawFile(context.Background(), "o", "r", "a/b.bin", nil)
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, body)
		body.Close()
		if err != nil || n != 1000 || resp.StatusCode != 200 || resp.Header.Get("ETag") != `"v1"` {
			t.Fatalf("declare=%v: read %d, err %v, status %d", declare, n, err, resp.StatusCode)
		}
	}
}

// Past the bound the stream fails with the response-too-large error a
// buffered call gets: before it starts when the length is declared, while
// reading when it is not; neither is retried.
func TestStreamBoundEnforced(t *testing.T) {
	for _, declare := range []bool{true, false} {
		var hits atomic.Int64
		srv := streamServer(t, 5000, declare, &hits)
		c, _ := NewClient(WithBaseURL(srv.URL), WithMaxDownloadBytes(4096))
		body, _, err := c.Repos.OpenRawFile(context.Background(), "o", "r", "big.bin", nil)
		if err == nil {
			var n int64
			n, err = io.Copy(io.Discard, body)
			body.Close()
			if n > 4096 {
				t.Errorf("declare=%v: %d bytes handed over past a 4096-byte bound", declare, n)
			}
		}
		var te *TransportError
		if !errors.As(err, &te) || te.Kind != TransportResponseTooLarge {
			t.Errorf("declare=%v: err = %v, want a response-too-large *TransportError", declare, err)
		}
		if hits.Load() != 1 {
			t.Errorf("declare=%v: %d requests, want 1", declare, hits.Load())
		}
	}
}

// A stream that fails midway reports a *TransportError from Read and is
// not retried behind the caller's back.
func TestStreamFailingMidwayNotRetried(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Length", "100000")
		w.Write(bytes.Repeat([]byte("x"), 1000))
		w.(http.Flusher).Flush()
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.(*net.TCPConn).SetLinger(0)
		conn.Close()
	}))
	defer srv.Close()
	c, _ := NewClient(WithBaseURL(srv.URL))
	body, _, err := c.Repos.OpenRawFile(context.Background(), "o", "r", "f", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.Copy(io.Discard, body)
	body.Close()
	var te *TransportError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v, want a *TransportError", err)
	}
	if hits.Load() != 1 {
		t.Fatalf("%d requests, want 1", hits.Load())
	}
}

// An error status is read and mapped as for any call, and a 5xx before the
// stream starts is retried like any read.
func TestStreamErrorStatusRetriedBeforeTheBody(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			w.WriteHeader(503)
			return
		}
		w.Write([]byte("content"))
	}))
	defer srv.Close()
	c, _ := tsClient(t, srv.URL)
	body, resp, err := c.Repos.OpenRawFile(context.Background(), "o", "r", "f", nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(body)
	body.Close()
	if string(got) != "content" || resp.Attempts != 2 {
		t.Fatalf("got %q after %d attempts", got, resp.Attempts)
	}
}

// Conditional requests: a 304 is a distinct, non-error outcome.
func TestConditionalNotModified(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` || r.Header.Get("If-Modified-Since") != "" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Write([]byte("data"))
	}))
	defer srv.Close()
	c, _ := NewClient(WithBaseURL(srv.URL))
	ctx := context.Background()
	data, resp, err := c.Repos.GetRawFile(ctx, "o", "r", "f", nil)
	if err != nil || string(data) != "data" || resp.NotModified {
		t.Fatalf("first read: %q %v %+v", data, err, resp)
	}
	data, resp, err = c.Repos.GetRawFile(ctx, "o", "r", "f", nil, IfNoneMatch(resp.Header.Get("ETag")))
	if err != nil || data != nil || !resp.NotModified || resp.StatusCode != 304 {
		t.Fatalf("conditional read: %q, err %v, NotModified %v, status %d", data, err, resp.NotModified, resp.StatusCode)
	}
	// A stream answered 304 is an empty reader, never nil.
	body, resp, err := c.Repos.OpenRawFile(ctx, "o", "r", "f", nil, IfModifiedSince(rlNow))
	if err != nil || body == nil || !resp.NotModified {
		t.Fatalf("conditional stream: %v, err %v, %+v", body, err, resp)
	}
	if got, rerr := io.ReadAll(body); len(got) != 0 || rerr != nil || body.Close() != nil {
		t.Fatalf("conditional stream read %q, %v", got, rerr)
	}
	// Without a condition a 304 is unusable: an *APIError.
	_, _, err = c.Repos.GetRawFile(ctx, "o", "r", "f", nil, Header("If-None-Match", `"v1"`))
	if err != nil {
		t.Fatalf("If-None-Match through WithHeader is still conditional: %v", err)
	}
}

// BenchmarkStreamArchive1GiB streams a 1 GiB archive: bytes allocated per
// operation stay a few tens of kilobytes (flat), where the buffered form
// would hold the whole GiB.
func BenchmarkStreamArchive1GiB(b *testing.B) {
	const size = 1 << 30
	srv := streamServer(b, size, true, nil)
	c, _ := NewClient(WithBaseURL(srv.URL), WithMaxDownloadBytes(2<<30), WithAttemptTimeout(0))
	buf := make([]byte, 64<<10)
	b.SetBytes(size)
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		body, _, err := c.Repos.OpenArchive(context.Background(), "o", "r", "main", ArchiveZip)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.CopyBuffer(io.Discard, body, buf)
		body.Close()
		if err != nil || n != size {
			b.Fatalf("read %d, %v", n, err)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	b.ReportMetric(float64(peak)/(1<<20), "MiB-heap-inuse")
}
