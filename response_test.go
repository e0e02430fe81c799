package forgejo

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// Reading any field or method of whatever *Response a call returned never
// panics: after a rejected argument, a transport failure, a cancellation,
// an error status and a success.
func TestResponseNeverNilAndSafe(t *testing.T) {
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "missing") {
			w.WriteHeader(404)
			return
		}
		w.Write([]byte(`{"id":1}`))
	}))
	defer ok.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	canceled, cancel := context.WithCancel(context.Background())
	cancel()

	good, _ := NewClient(WithBaseURL(ok.URL), WithRetryPolicy(RetryOff()))
	dead, _ := NewClient(WithBaseURL(closedURL), WithRetryPolicy(RetryOff()))
	cases := []struct {
		name   string
		call   func() (*Response, error)
		status int
	}{
		{"rejected argument", func() (*Response, error) { _, r, err := good.Repos.Get(context.Background(), "", "r"); return r, err }, 0},
		{"transport failure", func() (*Response, error) { _, r, err := dead.Repos.Get(context.Background(), "o", "r"); return r, err }, 0},
		{"canceled", func() (*Response, error) { _, r, err := good.Repos.Get(canceled, "o", "r"); return r, err }, 0},
		{"nil Do request", func() (*Response, error) { return good.Do(context.Background(), nil, nil) }, 0},
		{"404", func() (*Response, error) {
			_, r, err := good.Repos.Get(context.Background(), "o", "missing")
			return r, err
		}, 404},
		{"success", func() (*Response, error) { _, r, err := good.Repos.Get(context.Background(), "o", "r"); return r, err }, 200},
		{"iterator page", func() (*Response, error) {
			_, r, err := good.Issues.List(context.Background(), "", "r", nil)
			return r, err
		}, 0},
	}
	for _, tc := range cases {
		resp, _ := tc.call()
		if resp == nil {
			t.Errorf("%s: nil *Response", tc.name)
			continue
		}
		if resp.StatusCode != tc.status {
			t.Errorf("%s: StatusCode %d, want %d", tc.name, resp.StatusCode, tc.status)
		}
		// Every field and every method of the Response.
		_ = resp.Header.Get("X-Anything")
		_, _ = resp.TotalCount()
		_, _ = resp.RateLimit()
		_ = resp.RequestID()
		v := reflect.ValueOf(resp).Elem()
		for i := range v.NumField() {
			_ = v.Field(i).String()
		}
	}
	// Methods on a nil *Response are safe too.
	var nilResp *Response
	_, _ = nilResp.TotalCount()
	_, _ = nilResp.RateLimit()
	_ = nilResp.RequestID()
}
