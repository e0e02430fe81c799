package bench

import (
	"context"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
)

func TestDbg(t *testing.T) {
	s := newServer(t, 10, 20*time.Millisecond)
	c := forgegoClient(t, s.URL, forgejo.WithWalkConcurrency(4))
	_, resp, err := c.Issues.List(context.Background(), "o", "r", nil)
	t.Logf("%v last=%d next=%d hdr=%q", err, resp.LastPage, resp.NextPage, resp.Header.Get("Link"))
	start := time.Now()
	forgegoWalk(t, c, func() {})
	t.Log(time.Since(start))
}
