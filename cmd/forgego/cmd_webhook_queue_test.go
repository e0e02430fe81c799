package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	webhookcmd "codeberg.org/forgego/forgejo/cmd/forgego/internal/cmd/webhook"

	"codeberg.org/forgego/forgejo/webhook"
)

// redisURL is the redis:// URL of the redis-server named by
// FORGEGO_REDIS_ADDR (scripts/redis.sh start); without it the test skips,
// unless FORGEGO_REDIS_REQUIRE=1 (CI).
func redisURL(t *testing.T) string {
	t.Helper()
	addr := os.Getenv("FORGEGO_REDIS_ADDR")
	if addr == "" {
		if os.Getenv("FORGEGO_REDIS_REQUIRE") == "1" {
			t.Fatal("FORGEGO_REDIS_ADDR is not set (FORGEGO_REDIS_REQUIRE=1)")
		}
		t.Skip("FORGEGO_REDIS_ADDR is not set: run `. \"$(scripts/redis.sh start)\"`")
	}
	return "redis://" + addr + "/0"
}

// worker runs 'webhook work' in the background until stop.
func worker(t *testing.T, args ...string) (out, errb *syncBuffer, stop func() int) {
	t.Helper()
	out, errb = &syncBuffer{}, &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"webhook", "work"}, args...), out, errb, func(string) string { return "" })
	}()
	var once sync.Once
	code := 0
	stop = func() int {
		once.Do(func() { cancel(); code = <-done })
		return code
	}
	t.Cleanup(func() { stop() })
	return out, errb, stop
}

func TestWebhookQueue(t *testing.T) {
	queue := redisURL(t)
	b := make([]byte, 6)
	rand.Read(b)
	name := "cli-test-" + hex.EncodeToString(b)
	const secret = "s3cret-of-the-hook"
	base, _, _, stopListen := listener(t, nil, "--secret", secret, "--queue", queue, "--queue-name", name)

	dir := t.TempDir()
	_, werr, stopWork := worker(t, "--queue", queue, "--queue-name", name, "--concurrency", "2", "--max-attempts", "1",
		"--exec", `if [ -e `+filepath.Join(dir, "fail")+` ]; then exit 3; fi; cat > "`+dir+`/$FORGEJO_DELIVERY.json"; echo "$FORGEJO_EVENT_TYPE $FORGEJO_EVENT_ACTION" > "`+dir+`/$FORGEJO_DELIVERY.env"`)

	const id = "0a1b2c3d-0000-4000-8000-000000000001"
	o := webhook.Build(webhook.EventIssues, []byte(issuePayload), webhook.BuildOptions{Secret: secret, DeliveryID: id})
	if code := deliver(t, base, o); code != http.StatusAccepted {
		t.Fatalf("listen --queue answered %d, want 202", code)
	}
	// Sent twice (a proxy retried): runs once.
	if code := deliver(t, base, o); code != http.StatusAccepted {
		t.Fatalf("second copy answered %d", code)
	}
	canon := webhook.CanonicalDeliveryID(id)
	waitFor(t, "the command", func() bool {
		b, err := os.ReadFile(filepath.Join(dir, canon+".env"))
		return err == nil && len(b) > 0
	})
	if b, _ := os.ReadFile(filepath.Join(dir, canon+".json")); string(b) != issuePayload {
		t.Errorf("stdin of the command: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, canon+".env")); string(b) != "issues opened\n" {
		t.Errorf("environment of the command: %q", b)
	}
	if bad := deliver(t, base, webhook.Build(webhook.EventIssues, []byte(issuePayload), webhook.BuildOptions{Secret: "wrong"})); bad != http.StatusUnauthorized {
		t.Errorf("a forged delivery answered %d", bad)
	}

	// A failing command with --max-attempts 1: a dead letter, listed and requeued.
	os.WriteFile(filepath.Join(dir, "fail"), nil, 0o600)
	const id2 = "0a1b2c3d-0000-4000-8000-000000000002"
	if code := deliver(t, base, webhook.Build(webhook.EventIssues, []byte(issuePayload), webhook.BuildOptions{Secret: secret, DeliveryID: id2})); code != http.StatusAccepted {
		t.Fatalf("answered %d", code)
	}
	canon2 := webhook.CanonicalDeliveryID(id2)
	var list string
	waitFor(t, "the dead letter", func() bool {
		r := cli(t, nil, "webhook", "dead-letters", "list", "--queue", queue, "--queue-name", name)
		list = r.stdout
		return strings.Contains(list, canon2)
	})
	if !strings.Contains(list, "exit status 3") || strings.Contains(list, canon) {
		t.Errorf("dead letters: %q", list)
	}
	os.Remove(filepath.Join(dir, "fail"))
	r := cli(t, nil, "webhook", "dead-letters", "requeue", "--queue", queue, "--queue-name", name, canon2)
	r.want(t, 0)
	waitFor(t, "the requeued delivery", func() bool {
		_, err := os.Stat(filepath.Join(dir, canon2+".env"))
		return err == nil
	})
	r = cli(t, nil, "webhook", "dead-letters", "requeue", "--queue", queue, "--queue-name", name, canon2)
	r.want(t, 1)
	if code := stopWork(); code != exitInterrupt {
		t.Errorf("work exited %d; stderr %s", code, werr.String())
	}
	stopListen()
}

// Redis unreachable: the receiver answers 500, and the password is never
// printed.
func TestWebhookQueueUnavailable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	const pw = "redis-password-never-shown"
	const secret = "s3cret-of-the-hook"
	base, out, errb, stop := listener(t, nil, "--secret", secret, "--queue", "redis://:"+pw+"@"+addr+"/0")
	if code := deliver(t, base, webhook.Build(webhook.EventIssues, []byte(issuePayload), webhook.BuildOptions{Secret: secret})); code != http.StatusInternalServerError {
		t.Errorf("answered %d, want 500", code)
	}
	stop()
	r := cli(t, nil, "webhook", "dead-letters", "list", "--queue", "redis://:"+pw+"@"+addr+"/0")
	r.want(t, 1)
	for _, s := range []string{out.String(), errb.String(), r.stdout, r.stderr} {
		if strings.Contains(s, pw) {
			t.Errorf("the password was printed: %q", s)
		}
	}
}

// TestReceiverGC: listen and work run with GOGC=400, unless the user set
// GOGC, whose value the runtime has already applied.
func TestReceiverGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, tc := range []struct {
		gogc string
		want int
	}{{"", webhookcmd.ReceiverGCPercent}, {"100", 100}, {"off", 100}} {
		debug.SetGCPercent(100)
		webhookcmd.ReceiverGC(func(k string) string {
			if k == "GOGC" {
				return tc.gogc
			}
			return ""
		})
		if got := debug.SetGCPercent(100); got != tc.want {
			t.Errorf("GOGC=%q: GC percent %d, want %d", tc.gogc, got, tc.want)
		}
	}
}
