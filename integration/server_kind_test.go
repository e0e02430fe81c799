package integration

import (
	"context"
	"sync"
	"testing"

	"codeberg.org/forgego/forgejo"
)

// The suite runs unchanged against Gitea (CI) and Forgejo
// (docs/HAZARDS.md §22): where the two document different answers, a test
// asks which one it is talking to and accepts that server's answer.

var (
	kindOnce sync.Once
	kindInfo forgejo.VersionInfo
	kindRaw  string
)

// serverInfo is the server's version, asked once.
func serverInfo(t *testing.T) (forgejo.VersionInfo, string) {
	t.Helper()
	e := need(t)
	kindOnce.Do(func() {
		c, err := forgejo.NewClient(forgejo.WithBaseURL(e.url))
		if err != nil {
			return
		}
		v, _, err := c.Misc.GetVersion(context.Background())
		if err != nil {
			return
		}
		kindRaw = v.Version
		kindInfo, _ = v.Info()
	})
	return kindInfo, kindRaw
}

// onForgejo reports whether the server under test is a Forgejo (its version
// names a Gitea compatibility level); false means Gitea.
func onForgejo(t *testing.T) bool {
	info, _ := serverInfo(t)
	return info.Forgejo
}

// forgejoServes reports whether the server is a Forgejo whose release
// serves the operation (false on Gitea, whose coverage the version table
// does not describe).
func forgejoServes(t *testing.T, op string) bool {
	t.Helper()
	if !onForgejo(t) {
		return false
	}
	ok, err := client(t, need(t).adminToken).Serves(ctx(t), op)
	if err != nil {
		t.Fatalf("Serves(%s): %v", op, err)
	}
	return ok
}
