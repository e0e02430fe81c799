package forgejotest

import (
	"context"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
)

// The combined state is the worst of the latest status per context, in
// Forgejo's order (error, failure, warning, pending, success); a ref that
// names nothing has no statuses, as Forgejo's ResolveRefOrSha keeps it.
func TestCombinedStatusOrder(t *testing.T) {
	srv := NewServer(t)
	srv.AddRepo(srv.DefaultUser(), "demo")
	ctx := context.Background()
	c := srv.Client()
	owner := srv.DefaultUser()
	for _, tc := range []struct {
		context, state string
		want           forgejo.CommitStatusState
	}{
		{"a", "success", "success"},
		{"b", "pending", "pending"},
		{"c", "warning", "warning"},
		{"d", "failure", "failure"},
		{"e", "error", "error"},
		{"e", "success", "failure"}, // the latest of a context counts
	} {
		if _, _, err := c.Repos.CreateStatus(ctx, owner, "demo", "main", forgejo.CreateStatusRequest{Context: tc.context, State: forgejo.CommitStatusState(tc.state)}); err != nil {
			t.Fatal(err)
		}
		cs, _, err := c.Repos.GetCombinedStatus(ctx, owner, "demo", "main", nil)
		if err != nil || cs.State != tc.want {
			t.Errorf("after %s %s: %v %q, want %q", tc.context, tc.state, err, cs.State, tc.want)
		}
	}
	cs, _, err := c.Repos.GetCombinedStatus(ctx, owner, "demo", "no-such-ref", nil)
	if err != nil || cs.State != "" || cs.TotalCount != 0 {
		t.Errorf("a ref that names nothing: %v %+v", err, cs)
	}
}
