package forgejo

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// A stream call never returns a nil reader with a nil error.
// A 304 to a conditional Open… call gives an empty reader to close, with
// NotModified true; every failure gives a nil reader and its error.

// nmStreams is every Open… method: the generated ones (Operations() rows
// with a streaming form) and the hand-written OpenArchive.
var nmStreams = []struct {
	name string
	open func(ctx context.Context, c *Client, opts ...RequestOption) (io.ReadCloser, *Response, error)
}{
	{"Actions.OpenArtifact", func(ctx context.Context, c *Client, o ...RequestOption) (io.ReadCloser, *Response, error) {
		return c.Actions.OpenArtifact(ctx, "o", "r", 1, o...)
	}},
	{"Actions.OpenJobLogs", func(ctx context.Context, c *Client, o ...RequestOption) (io.ReadCloser, *Response, error) {
		return c.Actions.OpenJobLogs(ctx, "o", "r", 1, nil, o...)
	}},
	{"Actions.OpenRunLogs", func(ctx context.Context, c *Client, o ...RequestOption) (io.ReadCloser, *Response, error) {
		return c.Actions.OpenRunLogs(ctx, "o", "r", 1, o...)
	}},
	{"PullRequests.OpenDiff", func(ctx context.Context, c *Client, o ...RequestOption) (io.ReadCloser, *Response, error) {
		return c.PullRequests.OpenDiff(ctx, "o", "r", 1, "diff", nil, o...)
	}},
	{"Repos.OpenCommitDiff", func(ctx context.Context, c *Client, o ...RequestOption) (io.ReadCloser, *Response, error) {
		return c.Repos.OpenCommitDiff(ctx, "o", "r", "abc", "diff", o...)
	}},
	{"Repos.OpenMedia", func(ctx context.Context, c *Client, o ...RequestOption) (io.ReadCloser, *Response, error) {
		return c.Repos.OpenMedia(ctx, "o", "r", "a.bin", nil, o...)
	}},
	{"Repos.OpenRawFile", func(ctx context.Context, c *Client, o ...RequestOption) (io.ReadCloser, *Response, error) {
		return c.Repos.OpenRawFile(ctx, "o", "r", "a.txt", nil, o...)
	}},
	{"Repos.OpenArchive (hand-written)", func(ctx context.Context, c *Client, o ...RequestOption) (io.ReadCloser, *Response, error) {
		return c.Repos.OpenArchive(ctx, "o", "r", "main", ArchiveTarGz, o...)
	}},
}

// Every Open… method is in nmStreams: found by reflection over the
// Client's services (every method returning an io.ReadCloser).
func TestNotModifiedStreamTableIsComplete(t *testing.T) {
	names := map[string]bool{}
	for _, s := range nmStreams {
		name, _, _ := strings.Cut(s.name, " ")
		names[name] = true
	}
	c, err := NewClient()
	if err != nil {
		t.Fatal(err)
	}
	readCloser := reflect.TypeFor[io.ReadCloser]()
	cv := reflect.ValueOf(c).Elem()
	found := 0
	for i := range cv.NumField() {
		f := cv.Type().Field(i)
		if !f.IsExported() || f.Type.Kind() != reflect.Pointer || !strings.HasSuffix(f.Type.Elem().Name(), "Service") {
			continue
		}
		for j := range f.Type.NumMethod() {
			m := f.Type.Method(j)
			if m.Type.NumOut() != 3 || m.Type.Out(0) != readCloser {
				continue
			}
			found++
			if !names[f.Name+"."+m.Name] {
				t.Errorf("%s.%s streams, missing from nmStreams", f.Name, m.Name)
			}
		}
	}
	if found != len(nmStreams) || found == 0 {
		t.Errorf("%d streaming methods, %d in nmStreams", found, len(nmStreams))
	}
}

func TestNotModifiedStream(t *testing.T) {
	for _, tc := range nmStreams {
		for _, cond := range nmConditions {
			t.Run(tc.name+"/"+cond.name, func(t *testing.T) {
				srv, _ := nmServer(t)
				c := gnClient(t, srv.URL, nil)
				rc, resp, err := tc.open(context.Background(), c, cond.opt)
				if err != nil {
					t.Fatalf("err = %v, want nil", err)
				}
				if rc == nil {
					t.Fatal("nil reader with a nil error")
				}
				if !resp.NotModified {
					t.Error("NotModified is false")
				}
				data, rerr := io.ReadAll(rc)
				if len(data) != 0 || rerr != nil {
					t.Errorf("read %q, %v; want nothing, nil", data, rerr)
				}
				if cerr := rc.Close(); cerr != nil {
					t.Errorf("Close: %v", cerr)
				}
			})
		}
	}
}

// A stream that fails returns a nil reader with its error, whatever the
// failure: an error status, an unconditional 304, a refused argument, a
// dead server.
func TestStreamErrorsGiveNilReader(t *testing.T) {
	statuses := []int{http.StatusNotModified, http.StatusNotFound, http.StatusInternalServerError, http.StatusFound}
	for _, tc := range nmStreams {
		for _, st := range statuses {
			t.Run(tc.name+"/"+http.StatusText(st), func(t *testing.T) {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.WriteHeader(st)
				}))
				defer srv.Close()
				c := gnClient(t, srv.URL, nil)
				rc, resp, err := tc.open(context.Background(), c) // not conditional
				var ae *APIError
				if rc != nil || !errors.As(err, &ae) || ae.StatusCode != st || resp == nil || resp.NotModified {
					t.Errorf("reader %v, err %v, resp %+v; want nil, *APIError %d", rc, err, resp, st)
				}
			})
		}
		t.Run(tc.name+"/canceled", func(t *testing.T) {
			srv, n := nmServer(t)
			c := gnClient(t, srv.URL, nil)
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			rc, resp, err := tc.open(ctx, c, IfNoneMatch(`"e1"`))
			if rc != nil || err == nil || resp == nil || n.Load() != 0 {
				t.Errorf("reader %v, err %v, %d requests; want nil, an error, none", rc, err, n.Load())
			}
		})
	}
}
