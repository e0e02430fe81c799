//go:build unix

package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo/forgejotest"
)

// TestInterruptExits130 sends the test process a real SIGINT while a
// request is in flight, with the context main builds: the command stops at
// once, says so in one line and exits 130.
func TestInterruptExits130(t *testing.T) {
	srv, env := setup(t)
	srv.AddIssues("alice", "proj", 3)
	srv.Inject(forgejotest.Fault{Operation: "issueListIssues", Delay: 10 * time.Second})

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		waitFor(t, "the request", func() bool { return len(srv.Requests()) > 0 || srv.PendingFaults() == 0 })
		time.Sleep(50 * time.Millisecond)
		_ = syscall.Kill(os.Getpid(), syscall.SIGINT)
	}()
	start := time.Now()
	r := cliCtx(t, ctx, env, "issue", "list", "alice/proj")
	r.want(t, exitInterrupt)
	if r.stderr != "forgego: interrupted\n" || r.stdout != "" {
		t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s: the interrupt did not stop the request", d)
	}
	if context.Cause(ctx) == nil || ctx.Err() == nil {
		t.Error("the context was not canceled by the signal")
	}
}
