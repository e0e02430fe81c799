package forgejo

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Tests of streamed uploads (uploads.go, bodyStream): a file of known
// length is sent from the caller's reader with an exact Content-Length, and
// a content that does not hold its declared size never completes a request.

// usSeen is what the upload server saw of one request.
type usSeen struct {
	contentLength int64
	chunked       bool
	complete      bool // the multipart body parsed to its end
	fileName      string
	content       []byte
	received      int64 // body bytes read
}

// usServer answers 201 with an attachment to a multipart body that parses
// to its end, 400 to one that does not; before answers first instead,
// when it returns true.
func usServer(t *testing.T, before func(w http.ResponseWriter, r *http.Request) bool) (*httptest.Server, func() []usSeen) {
	t.Helper()
	var mu sync.Mutex
	var seen []usSeen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := usSeen{contentLength: r.ContentLength, chunked: len(r.TransferEncoding) > 0}
		defer func() {
			mu.Lock()
			seen = append(seen, s)
			mu.Unlock()
		}()
		if before != nil && before(w, r) {
			return
		}
		counted := &countingReader{r: r.Body}
		_, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		mr := multipart.NewReader(counted, params["boundary"])
		ok := true
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				ok = false
				break
			}
			data, err := io.ReadAll(p)
			if err != nil {
				ok = false
				break
			}
			if p.FormName() == "attachment" {
				s.fileName, s.content = p.FileName(), data
			}
		}
		if _, err := io.Copy(io.Discard, counted); err != nil {
			ok = false
		}
		s.received = counted.n.Load()
		s.complete = ok && s.received == r.ContentLength
		if !s.complete {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"id":3,"name":`+strconv.Quote(s.fileName)+`,"size":`+strconv.Itoa(len(s.content))+`}`)
	}))
	return srv, func() []usSeen {
		srv.Close() // waits for every handler
		mu.Lock()
		defer mu.Unlock()
		return append([]usSeen(nil), seen...)
	}
}

type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// opaque hides everything of a reader but Read, so that only Size tells its
// length.
type opaque struct{ r io.Reader }

func (o opaque) Read(p []byte) (int, error) { return o.r.Read(p) }

// usReader is a reader of n bytes that counts its reads, fails with err
// after them when err is set, and returns nothing at all when stuck.
type usReader struct {
	mu    sync.Mutex
	left  int64
	err   error
	stuck bool
	reads int
}

func (r *usReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reads++
	switch {
	case r.stuck:
		return 0, nil
	case r.left == 0 && r.err != nil:
		return 0, r.err
	case r.left == 0:
		return 0, io.EOF
	}
	n := min(int64(len(p)), r.left)
	for i := range p[:n] {
		p[i] = 'x'
	}
	r.left -= n
	return int(n), nil
}

func (r *usReader) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reads
}

// TestUploadStreamHostile: content that is shorter or longer than its
// declared size, that fails or never progresses, a server that answers
// 413 or hangs up early: never a success, always a typed error, and no
// request the server could take for a whole file.
func TestUploadStreamHostile(t *testing.T) {
	const token = "tok-5e3a9c1d7b2f4e60"
	big := int64(4 << 20)
	cases := []struct {
		name    string
		file    Upload
		before  func(w http.ResponseWriter, r *http.Request) bool
		check   func(t *testing.T, err error)
		sent    bool // a request may reach the server
		success bool
		content string // the file the server received, on success
	}{
		{name: "exact", file: Upload{Name: "a.txt", Content: opaque{strings.NewReader("hello")}, Size: 5},
			sent: true, success: true, content: "hello"},
		{name: "zero-length", file: Upload{Name: "empty.txt", Content: strings.NewReader("")},
			sent: true, success: true, content: ""},
		{name: "shorter than declared", file: Upload{Name: "a", Content: opaque{strings.NewReader("hello")}, Size: 10},
			sent: true, check: wantUploadError(ErrUploadTooShort, 10, 5)},
		{name: "longer than declared", file: Upload{Name: "a", Content: opaque{strings.NewReader("hello")}, Size: 3},
			sent: true, check: wantUploadError(ErrUploadTooLong, 3, 3)},
		{name: "one byte longer, past a buffer", file: Upload{Name: "a", Content: opaque{&usReader{left: 32<<10 + 1}}, Size: 32 << 10},
			sent: true, check: wantUploadError(ErrUploadTooLong, 32<<10, 32<<10)},
		{name: "empty declared as one byte", file: Upload{Name: "a", Content: opaque{strings.NewReader("")}, Size: 1},
			sent: true, check: wantUploadError(ErrUploadTooShort, 1, 0)},
		{name: "read error", file: Upload{Name: "a", Content: opaque{&usReader{left: 100, err: errors.New("disk on fire")}}, Size: 200},
			sent: true, check: func(t *testing.T, err error) {
				var ue *UploadError
				if !errors.As(err, &ue) || ue.Err == nil || ue.Err.Error() != "disk on fire" || ue.Read != 100 {
					t.Errorf("err = %v, want the read error as an *UploadError", err)
				}
			}},
		{name: "read error where the size ends", file: Upload{Name: "a", Content: opaque{&usReader{left: 100, err: errors.New("disk on fire")}}, Size: 100},
			sent: true, check: wantUploadError(nil, 100, 100)},
		{name: "no progress", file: Upload{Name: "a", Content: opaque{&usReader{stuck: true}}, Size: 10},
			sent: true, check: wantUploadError(io.ErrNoProgress, 10, 0)},
		{name: "413 before reading", file: Upload{Name: "a", Content: opaque{&usReader{left: 100}}, Size: 100},
			before: func(w http.ResponseWriter, r *http.Request) bool {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusRequestEntityTooLarge)
				_, _ = io.WriteString(w, `{"message":"too large for `+token+`"}`)
				return true
			},
			sent: true, check: wantStatus(http.StatusRequestEntityTooLarge, token)},
		{name: "413 before reading, large", file: Upload{Name: "a", Content: opaque{&usReader{left: big}}, Size: big},
			before: func(w http.ResponseWriter, r *http.Request) bool {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusRequestEntityTooLarge)
				_, _ = io.WriteString(w, `{"message":"too large"}`)
				return true
			},
			sent: true, check: func(t *testing.T, err error) {
				// The server answered and closed while the client was still
				// writing: net/http reports the answer or the broken
				// connection, depending on which it sees first.
				var ae *APIError
				var te *TransportError
				if !(errors.As(err, &ae) && ae.StatusCode == 413) && !errors.As(err, &te) {
					t.Errorf("err = %v, want the 413 or a transport failure", err)
				}
			}},
		{name: "server hangs up early", file: Upload{Name: "a", Content: opaque{&usReader{left: big}}, Size: big},
			before: func(w http.ResponseWriter, r *http.Request) bool {
				_, _ = io.CopyN(io.Discard, r.Body, 1024)
				if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
					_ = conn.Close()
				}
				return true
			},
			sent: true, check: func(t *testing.T, err error) {
				var te *TransportError
				if !errors.As(err, &te) {
					t.Errorf("err = %v, want a *TransportError", err)
				}
			}},
		{name: "larger than MaxBytes", file: Upload{Name: "a", Content: opaque{strings.NewReader("hello")}, Size: 5, MaxBytes: 4},
			check: wantValidation},
		{name: "negative size", file: Upload{Name: "a", Content: strings.NewReader("hello"), Size: -1},
			check: wantValidation},
		{name: "file name with quotes and backslashes", file: Upload{Name: `say "hi" \ ok.txt`, Content: strings.NewReader("q")},
			sent: true, success: true, content: "q"},
		{name: "file name in unicode", file: Upload{Name: "résumé – 履歴書 🚀.pdf", Content: strings.NewReader("u")},
			sent: true, success: true, content: "u"},
		{name: "file name with a newline", file: Upload{Name: "a\nContent-Type: text/html", Content: strings.NewReader("n")},
			check: wantValidation},
		{name: "file name with CR", file: Upload{Name: "a\r.txt", Content: strings.NewReader("n")},
			check: wantValidation},
		{name: "file name with U+2028", file: Upload{Name: "a\u2028b", Content: strings.NewReader("n")},
			check: wantValidation},
		{name: "content type with a newline", file: Upload{Name: "a", Content: strings.NewReader("n"), ContentType: "text/plain\r\nX: y"},
			check: wantValidation},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, seen := usServer(t, tc.before)
			c, err := NewClient(WithBaseURL(srv.URL), WithToken(token))
			if err != nil {
				t.Fatal(err)
			}
			file := tc.file
			a, _, err := c.Repos.UploadReleaseAsset(context.Background(), "o", "r", 1, nil, file)
			got := seen()
			if tc.success {
				if err != nil || a == nil {
					t.Fatalf("err = %v", err)
				}
			} else {
				if err == nil || a != nil {
					t.Fatalf("a failed upload reported success: %+v", a)
				}
				tc.check(t, err)
				if strings.Contains(err.Error(), token) {
					t.Errorf("the token leaked: %v", err)
				}
			}
			if !tc.sent {
				if len(got) != 0 {
					t.Errorf("%d requests sent, want none", len(got))
				}
				return
			}
			// A failed upload may reach the server or not (net/http buffers
			// the start of the body), but never twice, never whole.
			if len(got) > 1 || tc.success && len(got) != 1 {
				t.Fatalf("%d requests", len(got))
			}
			if len(got) == 0 {
				return
			}
			s := got[0]
			if s.chunked || s.contentLength <= 0 {
				t.Errorf("Content-Length %d, chunked %v: want an exact length", s.contentLength, s.chunked)
			}
			if s.complete != tc.success {
				t.Errorf("the server received a complete body: %v, want %v", s.complete, tc.success)
			}
			if tc.success && (s.fileName != file.Name || string(s.content) != tc.content) {
				t.Errorf("the server received %q: %q", s.fileName, s.content)
			}
		})
	}
}

func wantUploadError(cause error, size, read int64) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		var te *TransportError
		var ue *UploadError
		if !errors.As(err, &te) || !errors.As(err, &ue) {
			t.Fatalf("err = %v, want a *TransportError caused by an *UploadError", err)
		}
		if cause != nil && !errors.Is(err, cause) {
			t.Errorf("err = %v, want %v", err, cause)
		}
		if ue.Field != "attachment" || ue.Size != size || ue.Read != read {
			t.Errorf("UploadError %+v, want size %d, read %d", ue, size, read)
		}
		if retryable(te) {
			t.Error("an upload failure is retryable")
		}
	}
}

func wantStatus(code int, token string) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		var ae *APIError
		if !errors.As(err, &ae) || ae.StatusCode != code {
			t.Fatalf("err = %v, want a %d", err, code)
		}
		if strings.Contains(ae.Message, token) {
			t.Errorf("message %q carries the token", ae.Message)
		}
	}
}

func wantValidation(t *testing.T, err error) {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Errorf("err = %v, want a *ValidationError", err)
	}
}

// TestUploadStreamDetaches: once the call has returned, the content is
// never read again, even when the server answered before reading it.
func TestUploadStreamDetaches(t *testing.T) {
	srv, seen := usServer(t, func(w http.ResponseWriter, r *http.Request) bool {
		w.WriteHeader(http.StatusRequestEntityTooLarge)
		return true
	})
	c, err := NewClient(WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	content := &usReader{left: 64 << 20}
	_, _, err = c.Repos.UploadReleaseAsset(context.Background(), "o", "r", 1, nil, Upload{Name: "a", Content: opaque{content}, Size: 64 << 20})
	if err == nil {
		t.Fatal("success")
	}
	n := content.count()
	time.Sleep(50 * time.Millisecond)
	if later := content.count(); later != n {
		t.Errorf("the content was read %d times after the call returned", later-n)
	}
	seen()
}

// TestUploadStreamKnownLengths: the length is taken from Size, or from a
// reader that tells it (a file, a seeker at an offset), and the body is
// streamed with an exact Content-Length; a reader that does not tell is
// read within the bound first, as before.
func TestUploadStreamKnownLengths(t *testing.T) {
	path := filepath.Join(t.TempDir(), "asset.bin")
	if err := os.WriteFile(path, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(4, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		content io.Reader
		want    string
	}{
		{"file at an offset", f, "456789"},
		{"section reader", io.NewSectionReader(strings.NewReader("abcdefgh"), 2, 3), "cde"},
		{"bytes.Buffer", bytes.NewBufferString("buffer"), "buffer"},
		{"bytes.Reader", bytes.NewReader([]byte("reader")), "reader"},
		{"unknown length", opaque{strings.NewReader("opaque")}, "opaque"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRequest(&opRepoCreateReleaseAttachment, seg("owner", "o"), seg("repo", "r"), num("id", 1))
			r.multipartBody("attachment", &Upload{Name: "a", Content: tc.content})
			if r.err != nil {
				t.Fatal(r.err)
			}
			if _, known := tc.content.(opaque); known != (r.stream == nil) {
				t.Fatalf("streamed %v", r.stream != nil)
			}
			var body []byte
			if r.stream != nil {
				b, err := r.stream.open()
				if err != nil {
					t.Fatal(err)
				}
				if body, err = io.ReadAll(b); err != nil {
					t.Fatal(err)
				}
				if int64(len(body)) != r.stream.length {
					t.Errorf("body %d bytes, Content-Length %d", len(body), r.stream.length)
				}
				if _, err := r.stream.open(); err == nil {
					t.Error("a stream opened twice")
				}
			} else {
				body = r.body
			}
			_, params, _ := mime.ParseMediaType(r.bodyType)
			p, err := multipart.NewReader(bytes.NewReader(body), params["boundary"]).NextPart()
			if err != nil {
				t.Fatal(err)
			}
			if data, _ := io.ReadAll(p); string(data) != tc.want {
				t.Errorf("file %q, want %q", data, tc.want)
			}
		})
	}
}
