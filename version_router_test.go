package forgejo_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"codeberg.org/forgego/forgejo"
)

// The router's refusal of an operation some supported release lacks is an
// *UnsupportedOperationError wrapping the answer, without WithVersionCheck;
// every other 404 or 405 stays a plain *APIError: a handler's JSON 404 to
// the same operation (a job not started), the router's 404 to an operation
// every release serves, another text, a 405 with a body.
func TestRouterRefusalIsUnsupportedOperation(t *testing.T) {
	type answer struct {
		status      int
		contentType string
		allow       string
		body        string
	}
	routerNotFound := answer{404, "text/plain; charset=utf-8", "", "404 page not found\n"}
	cases := []struct {
		name        string
		call        func(c *forgejo.Client) error
		answer      answer
		unsupported bool
	}{
		{"16.0 operation, router 404", func(c *forgejo.Client) error {
			_, _, err := c.Actions.ListRunJobs(context.Background(), "o", "r", 1)
			return err
		}, routerNotFound, true},
		{"16.0 operation, router 405", func(c *forgejo.Client) error {
			_, err := c.Actions.DeleteRun(context.Background(), "o", "r", 1)
			return err
		}, answer{405, "", "GET", ""}, true},
		{"13.0 operation, router 404", func(c *forgejo.Client) error {
			_, _, err := c.Actions.GetRun(context.Background(), "o", "r", 1)
			return err
		}, routerNotFound, true},
		{"16.0 operation, handler JSON 404", func(c *forgejo.Client) error {
			_, _, err := c.Actions.GetJobLogs(context.Background(), "o", "r", 1, nil)
			return err
		}, answer{404, "application/json", "", `{"message":"job not started"}`}, false},
		{"16.0 operation, other text", func(c *forgejo.Client) error {
			_, _, err := c.Actions.ListRunJobs(context.Background(), "o", "r", 1)
			return err
		}, answer{404, "text/plain", "", "no such run"}, false},
		{"16.0 operation, 405 with a body", func(c *forgejo.Client) error {
			_, err := c.Actions.DeleteRun(context.Background(), "o", "r", 1)
			return err
		}, answer{405, "application/json", "GET", `{"message":""}`}, false},
		{"every release's operation, router 404", func(c *forgejo.Client) error {
			_, _, err := c.Repos.Get(context.Background(), "o", "r")
			return err
		}, routerNotFound, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.answer.contentType != "" {
					w.Header().Set("Content-Type", tc.answer.contentType)
				}
				if tc.answer.allow != "" {
					w.Header().Set("Allow", tc.answer.allow)
				}
				w.WriteHeader(tc.answer.status)
				_, _ = io.WriteString(w, tc.answer.body)
			}))
			defer ts.Close()
			c, err := forgejo.NewClient(forgejo.WithBaseURL(ts.URL), forgejo.WithToken("t0ken"))
			if err != nil {
				t.Fatal(err)
			}
			err = tc.call(c)
			var ue *forgejo.UnsupportedOperationError
			var ae *forgejo.APIError
			if !errors.As(err, &ae) || ae.StatusCode != tc.answer.status || forgejo.StatusCode(err) != tc.answer.status {
				t.Fatalf("err = %v: the *APIError %d must stay reachable", err, tc.answer.status)
			}
			if got := errors.As(err, &ue); got != tc.unsupported {
				t.Fatalf("err = %v: unsupported %v, want %v", err, got, tc.unsupported)
			}
			if tc.unsupported && !strings.Contains(err.Error(), "is served by Forgejo "+ue.Since+" and later; the server has no such route") {
				t.Fatalf("message %q", err)
			}
			if tc.unsupported && (ue.API != ae || ue.ServerVersion != "" || !errors.Is(err, forgejo.ErrUnsupportedOperation)) {
				t.Fatalf("unsupported = %+v", ue)
			}
		})
	}
}
