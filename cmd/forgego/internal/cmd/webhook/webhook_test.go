package webhook

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo/webhook"
)

// TestWebhookListenServerTimeouts: the listener sets every server timeout
// a receiver on the network needs, each bounded.
func TestWebhookListenServerTimeouts(t *testing.T) {
	srv := listenServer(context.Background(), http.NotFoundHandler())
	for name, d := range map[string]time.Duration{
		"ReadHeaderTimeout": srv.ReadHeaderTimeout, "ReadTimeout": srv.ReadTimeout,
		"WriteTimeout": srv.WriteTimeout, "IdleTimeout": srv.IdleTimeout,
	} {
		if d <= 0 || d > 2*time.Minute {
			t.Errorf("%s = %v", name, d)
		}
	}
	if srv.ReadTimeout < webhook.DefaultReadTimeout || srv.WriteTimeout <= forwardTimeout {
		t.Errorf("ReadTimeout %v, WriteTimeout %v", srv.ReadTimeout, srv.WriteTimeout)
	}
	if srv.MaxHeaderBytes <= 0 || srv.MaxHeaderBytes > 1<<20 {
		t.Errorf("MaxHeaderBytes = %d", srv.MaxHeaderBytes)
	}

	// Headers over the bound are refused (431) before anything is read.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	big := make([]byte, srv.MaxHeaderBytes+8192)
	for i := range big {
		big[i] = 'a'
	}
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nX-Big: %s\r\n\r\n", big)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil || resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("oversized headers: %v %v", resp, err)
	}
}

func TestSummarizeComment(t *testing.T) {
	for _, tc := range []struct {
		event   webhook.EventType
		payload string
		want    string
	}{
		{webhook.EventIssueComment, `{"action":"created","issue":{"number":3,"title":"It broke"},"comment":{"id":9,"body":"Same here"},"repository":{"full_name":"alice/proj"},"sender":{"login":"bob"},"is_pull":false}`,
			`alice/proj: bob commented on issue #3 "It broke"`},
		{webhook.EventIssueComment, `{"action":"edited","issue":{"number":4,"title":"Add x"},"comment":{"id":10},"repository":{"full_name":"alice/proj"},"sender":{"login":"bob"},"is_pull":true}`,
			`alice/proj: bob edited a comment on pull request #4 "Add x"`},
		{webhook.EventIssueComment, `{"action":"deleted","issue":{"number":3,"title":"It broke"},"comment":{"id":9},"sender":{"login":"bob"}}`,
			`bob deleted a comment on issue #3 "It broke"`},
	} {
		ev, err := webhook.Decode(tc.event, []byte(tc.payload))
		if err != nil {
			t.Fatalf("%s: %v", tc.payload, err)
		}
		if got := summarize(ev); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}
