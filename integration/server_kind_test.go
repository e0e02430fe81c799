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
