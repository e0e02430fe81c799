package forgeredis

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
	"github.com/redis/go-redis/v9"
)

// echoServer is a hostile Redis: it answers every command with an error
// that quotes the command, so the password sent with HELLO or AUTH comes
// back in the text of the error the client returns.
func echoServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					args, err := readCommand(r)
					if err != nil {
						return
					}
					if _, err := c.Write([]byte("-ERR no " + strings.ReplaceAll(strings.Join(args, " "), "\r\n", " ") + "\r\n")); err != nil {
						return
					}
				}
			}()
		}
	}()
	return l.Addr().String()
}

// TestErrorsNeverNameThePassword: whatever kind of client a Queue, a Guard
// and a Pacer are given (a Client, a ClusterClient, a Ring, or what
// NewUniversalClient returns), no error of theirs names the password, even
// when the server quotes it back.
func TestErrorsNeverNameThePassword(t *testing.T) {
	const password = "pw-5b1d93e0c7-secret"
	addr := echoServer(t)
	clients := map[string]redis.UniversalClient{
		"Client": redis.NewClient(&redis.Options{Addr: addr, Password: password, MaxRetries: -1}),
		"ClusterClient": redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{addr}, Password: password,
			MaxRetries: -1, MaxRedirects: -1}),
		"Ring": redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"a": addr}, Password: password,
			MaxRetries: -1, HeartbeatFrequency: time.Hour}),
		"Universal": redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{addr, addr}, Password: password,
			MaxRetries: -1, MaxRedirects: -1}),
	}
	for name, rdb := range clients {
		t.Run(name, func(t *testing.T) {
			defer rdb.Close()
			ctx := context.Background()
			q, err := NewQueue(rdb, "hooks", WithQueueTimeout(time.Second))
			if err != nil {
				t.Fatal(err)
			}
			g, err := NewGuard(rdb, "hooks")
			if err != nil {
				t.Fatal(err)
			}
			p, err := NewPacer(rdb, "quota", WithPacerTimeout(time.Second), WithPacerCooldown(0))
			if err != nil {
				t.Fatal(err)
			}
			_, gerr := g.Claim(ctx, "A")
			_, rerr := q.Receive(ctx, "c", time.Second)
			_, derr := q.DeadLetters(ctx, 0)
			_, perr := p.Reserve(ctx, forgejo.CallContext{}, time.Now())
			errs := []error{gerr, g.Release(ctx, "A"), rerr, derr, q.Requeue(ctx, "A"), perr}
			for i, err := range errs {
				if err == nil {
					t.Errorf("error %d: none from a server that answers every command with an error", i)
					continue
				}
				if strings.Contains(err.Error(), password) {
					t.Errorf("error %d names the password: %v", i, err)
				}
			}
		})
	}
}
