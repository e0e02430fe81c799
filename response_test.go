package forgejo

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
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

	good, _ := NewClient(WithBaseURL(ok.URL), WithRetryPolicy(RetryOff))
	dead, _ := NewClient(WithBaseURL(closedURL), WithRetryPolicy(RetryOff))
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

// The status sentinels match through retries.
func TestStatusSentinels(t *testing.T) {
	for _, code := range []int{400, 401, 403, 404, 409, 422, 423, 429, 503} {
		srv := tsNewServer(t, tsStep{status: code})
		c, _ := tsClient(t, srv.URL)
		_, _, err := c.Repos.Get(context.Background(), "o", "r")
		for sentinel, want := range map[error]int{ErrBadRequest: 400, ErrUnauthorized: 401, ErrForbidden: 403, ErrNotFound: 404,
			ErrConflict: 409, ErrUnprocessable: 422, ErrLocked: 423, ErrRateLimited: 429} {
			if got := errors.Is(err, sentinel); got != (code == want) {
				t.Errorf("status %d: errors.Is(err, %v) = %v", code, sentinel, got)
			}
		}
		if StatusCode(err) != code {
			t.Errorf("StatusCode = %d, want %d", StatusCode(err), code)
		}
		if code == 429 || code == 503 {
			var re *RetriesExhaustedError
			if !errors.As(err, &re) {
				t.Errorf("status %d: %v is not a RetriesExhaustedError; the sentinel must match through it", code, err)
			}
		}
	}
	if StatusCode(nil) != 0 || StatusCode(errors.New("x")) != 0 {
		t.Error("StatusCode of a non-API error is not 0")
	}
}

// Page sizes past Codeberg's 50 reach the server as asked: the instance
// clamps, not the client.
func TestPageSizesReachTheServer(t *testing.T) {
	for _, n := range []int{100, 1000} {
		var got string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got = r.URL.Query().Get("limit")
			w.Write([]byte(`[]`))
		}))
		c, err := NewClient(WithBaseURL(srv.URL), WithPageSize(n))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Issues.List(context.Background(), "o", "r", nil); err != nil || got != strconv.Itoa(n) {
			t.Errorf("WithPageSize(%d): the server saw limit=%q (err %v)", n, got, err)
		}
		if _, _, err := c.Issues.List(context.Background(), "o", "r", &IssueListOptions{ListOptions: ListOptions{Limit: n}}); err != nil || got != strconv.Itoa(n) {
			t.Errorf("Limit %d: the server saw limit=%q (err %v)", n, got, err)
		}
		srv.Close()
	}
}
