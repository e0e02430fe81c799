package forgeredis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// These tests run against a real redis-server: scripts/redis.sh start
// prints an env file exporting FORGEGO_REDIS_ADDR. The variable is read in
// each test, never in TestMain, so that go test's cache sees it. Without it
// the tests skip, unless FORGEGO_REDIS_REQUIRE=1 (CI), where they fail.

func required() bool { return os.Getenv("FORGEGO_REDIS_REQUIRE") == "1" }

func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	if required() {
		t.Fatalf(format+" (FORGEGO_REDIS_REQUIRE=1)", args...)
	}
	t.Skipf(format, args...)
}

// sharedRedis is a client of the redis-server named by FORGEGO_REDIS_ADDR.
func sharedRedis(t *testing.T) (*redis.Client, string) {
	t.Helper()
	addr := os.Getenv("FORGEGO_REDIS_ADDR")
	if addr == "" {
		skipOrFail(t, "FORGEGO_REDIS_ADDR is not set: run `. \"$(scripts/redis.sh start)\"` to test against a real redis-server")
	}
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { rdb.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := rdb.Ping(ctx).Err(); err != nil {
		t.Fatalf("FORGEGO_REDIS_ADDR=%s does not answer PING: %v", addr, err)
	}
	return rdb, addr
}

// uniqueName is a quota name no other test (or earlier run) uses; its key
// is deleted when the test ends.
func uniqueName(t *testing.T, rdb *redis.Client) string {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	name := "test/" + t.Name() + "/" + hex.EncodeToString(b)
	if rdb != nil {
		t.Cleanup(func() { rdb.Del(context.Background(), DefaultPacerPrefix+name) })
	}
	return name
}

func newPacer(t *testing.T, rdb redis.UniversalClient, name string, opts ...PacerOption) *Pacer {
	t.Helper()
	p, err := NewPacer(rdb, name, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// ownRedis is a redis-server of the test's own (the binary from PATH, a
// free loopback port, a temporary directory), for tests that kill it.
type ownRedis struct {
	addr string
	cmd  *exec.Cmd
	done chan struct{}
}

func startOwnRedis(t *testing.T) *ownRedis {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		skipOrFail(t, "redis-server is not on PATH (scripts/redis.sh start installs it)")
	}
	dir := t.TempDir()
	for try := 0; try < 5; try++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		addr := "127.0.0.1:" + strconv.Itoa(port)
		cmd := exec.Command(bin, "--bind", "127.0.0.1", "--port", strconv.Itoa(port),
			"--save", "", "--appendonly", "no", "--dir", dir, "--logfile", filepath.Join(dir, "redis.log"))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := &ownRedis{addr: addr, cmd: cmd, done: make(chan struct{})}
		go func() { cmd.Wait(); close(r.done) }()
		rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			err = rdb.Ping(ctx).Err()
			cancel()
			if err == nil {
				break
			}
			select {
			case <-r.done:
				deadline = time.Time{} // exited: port taken, try another
			case <-time.After(20 * time.Millisecond):
			}
		}
		rdb.Close()
		if err == nil {
			t.Cleanup(r.kill)
			return r
		}
		r.kill()
	}
	t.Fatalf("could not start redis-server (see its log in %s)", dir)
	return nil
}

// kill ends the server at once (SIGKILL) and waits for it.
func (r *ownRedis) kill() {
	select {
	case <-r.done:
		return
	default:
	}
	r.cmd.Process.Kill()
	<-r.done
}
