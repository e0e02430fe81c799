package forgeredis

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
	"github.com/redis/go-redis/v9"
)

// Issue 19, class A: the wait Redis replies with is a duration from outside
// the process. A huge one must become the longest wait (maxDuration, which
// the client bounds by MaxWait), never a short, zero or negative one; a
// reply that is no number at all is an error (the client paces locally).
// A real Redis can be made to reply hugely only through its state, so the
// replies themselves come from a fake one (fakeRedis, RESP3 on 127.0.0.1).

// fakeRedis answers HELLO with a RESP3 map, EVALSHA and EVAL with reply
// (raw RESP), anything else with +OK.
func fakeRedis(t *testing.T, reply string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Go(func() { serveFakeRedis(c, reply) })
		}
	})
	return l.Addr().String()
}

func serveFakeRedis(c net.Conn, reply string) {
	defer c.Close()
	r := bufio.NewReader(c)
	for {
		args, err := readCommand(r)
		if err != nil {
			return
		}
		out := "+OK\r\n"
		switch strings.ToUpper(args[0]) {
		case "HELLO":
			out = "%1\r\n+proto\r\n:3\r\n"
		case "EVALSHA", "EVAL":
			out = reply
		}
		if _, err := io.WriteString(c, out); err != nil {
			return
		}
	}
}

// readCommand reads one RESP array of bulk strings.
func readCommand(r *bufio.Reader) ([]string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	if len(line) < 3 || line[0] != '*' {
		return nil, errors.New("not an array")
	}
	n, err := strconv.Atoi(strings.TrimSpace(line[1:]))
	if err != nil || n < 1 {
		return nil, errors.New("bad array length")
	}
	args := make([]string, n)
	for i := range args {
		line, err := r.ReadString('\n')
		if err != nil || len(line) < 3 || line[0] != '$' {
			return nil, errors.New("not a bulk string")
		}
		size, err := strconv.Atoi(strings.TrimSpace(line[1:]))
		if err != nil || size < 0 {
			return nil, errors.New("bad bulk length")
		}
		b := make([]byte, size+2)
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, err
		}
		args[i] = string(b[:size])
	}
	return args, nil
}

// hostileReplies are Reserve's replies: raw RESP, and the wait wanted
// (maxDuration: at least the longest wait; errReply: an error, so that the
// client paces locally).
var hostileReplies = []struct {
	name  string
	reply string
	want  time.Duration
}{
	{"int64 max", ":9223372036854775807\r\n", maxDuration},
	{"near int64 max", ":9223372036854775000\r\n", maxDuration},
	{"one past the Duration's milliseconds", ":9223372036855\r\n", maxDuration},
	{"at the Duration's milliseconds", ":9223372036854\r\n", maxDuration},
	{"a day and a millisecond", ":86400001\r\n", maxDuration},
	{"int64 min (Redis's conversion of a huge Lua number)", ":-9223372036854775808\r\n", maxDuration},
	{"minus one", ":-1\r\n", maxDuration},
	{"double 1e300", ",1e300\r\n", maxDuration},
	{"double inf", ",inf\r\n", maxDuration},
	{"double -inf", ",-inf\r\n", maxDuration},
	{"double 9.3e18", ",9.3e18\r\n", maxDuration},
	{"double fraction", ",1.5\r\n", 1500 * time.Microsecond},
	{"big number", "(99999999999999999999999999\r\n", maxDuration},
	{"negative big number", "(-99999999999999999999999999\r\n", maxDuration},
	{"string int64 max", "$19\r\n9223372036854775807\r\n", maxDuration},
	{"string past int64", "$20\r\n99999999999999999999\r\n", maxDuration},
	{"string 1e20", "$4\r\n1e20\r\n", maxDuration},
	{"string -5", "$2\r\n-5\r\n", maxDuration},
	{"simple string int64 max", "+9223372036854775807\r\n", maxDuration},
	{"double nan", ",nan\r\n", errReply},
	{"string garbage", "$3\r\nabc\r\n", errReply},
	{"string nan", "$3\r\nNaN\r\n", errReply},
	{"null", "_\r\n", errReply},
	{"boolean", "#t\r\n", errReply},
	{"array", "*1\r\n:5\r\n", errReply},
	{"error", "-ERR boom\r\n", errReply},
	{"integer past int64 (malformed RESP)", ":99999999999999999999\r\n", errReply},
	{"healthy 1.5 s", ":1500\r\n", 1500 * time.Millisecond},
	{"healthy zero", ":0\r\n", 0},
}

const errReply = time.Duration(-1)

func TestHostileRedisReplies(t *testing.T) {
	for _, tc := range hostileReplies {
		t.Run(tc.name, func(t *testing.T) {
			rdb := redis.NewClient(&redis.Options{Addr: fakeRedis(t, tc.reply), MaxRetries: -1})
			t.Cleanup(func() { rdb.Close() })
			p := newPacer(t, rdb, "hostile", WithPacerTimeout(2*time.Second))
			d, err := p.Reserve(bg, forgejo.CallContext{}, time.Now())
			switch {
			case tc.want == errReply:
				if err == nil || !errors.Is(err, ErrUnavailable) {
					t.Errorf("Reserve = %v, %v; want an error wrapping ErrUnavailable", d, err)
				}
			case tc.want == maxDuration && (err != nil || d < maxDuration):
				t.Errorf("Reserve = %v, %v; want at least the longest wait %v", d, err, maxDuration)
			case tc.want != maxDuration && (err != nil || d != tc.want):
				t.Errorf("Reserve = %v, %v; want %v", d, err, tc.want)
			}
		})
	}
}

// dhClock is a fake clock: waits only advance it.
type dhClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

func (k *dhClock) Now() time.Time {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.now
}

func (k *dhClock) Sleep(ctx context.Context, d time.Duration) error {
	k.mu.Lock()
	k.sleeps = append(k.sleeps, d)
	k.now = k.now.Add(d)
	k.mu.Unlock()
	return ctx.Err()
}

// Timer moves the time on by d as Sleep does and fires at once.
func (k *dhClock) Timer(d time.Duration) (<-chan time.Time, func()) {
	_ = k.Sleep(context.Background(), d)
	c := make(chan time.Time, 1)
	c <- k.Now()
	return c, func() {}
}

// TestHostileRedisRepliesThroughTheClient: a client paced by the Pacer
// waits exactly one MaxWait on a huge reply, and on a reply that is no
// number paces locally (no snapshot yet: no wait) and reports it; it never
// sends at once on a huge wait.
func TestHostileRedisRepliesThroughTheClient(t *testing.T) {
	const maxWait = 45 * time.Second
	srv := forgejotest.NewServer(t)
	srv.AddRepo("alice", "demo")
	srv.AddIssues("alice", "demo", 1)
	for _, tc := range hostileReplies {
		t.Run(tc.name, func(t *testing.T) {
			rdb := redis.NewClient(&redis.Options{Addr: fakeRedis(t, tc.reply), MaxRetries: -1})
			t.Cleanup(func() { rdb.Close() })
			k := &dhClock{now: time.Unix(1_800_000_000, 0)}
			rec := &fallbacks{}
			c := srv.Client(forgejo.WithClock(k), forgejo.WithHooks(forgejo.Hooks{PacerFallback: rec.OnPacerFallback}),
				forgejo.WithPacer(newPacer(t, rdb, "hostile", WithPacerTimeout(2*time.Second))),
				forgejo.WithRateLimitPacing(forgejo.Pacing{MaxWait: maxWait}))
			if _, _, err := c.Issues.Get(bg, "alice", "demo", 1); err != nil {
				t.Fatal(err)
			}
			want, fell := min(tc.want, maxWait), 0
			if tc.want == errReply {
				want, fell = 0, 1
			}
			var got time.Duration
			if len(k.sleeps) > 0 {
				got = k.sleeps[0]
			}
			if len(k.sleeps) > 1 || got != want || rec.count() != fell {
				t.Errorf("waits %v with %d fallbacks, want %v with %d", k.sleeps, rec.count(), want, fell)
			}
		})
	}
}

// TestHostileRedisState: a real Redis replies hugely when the shared state
// holds a huge time (written by another writer, or corrupted): Redis turns a
// Lua number beyond int64 into int64 min, and one just inside it wraps when
// multiplied into a Duration. Either way the wait must be the longest one.
func TestHostileRedisState(t *testing.T) {
	rdb, _ := sharedRedis(t)
	for _, tc := range []struct {
		name   string
		fields []any
	}{
		{"block 1e300", []any{"block", "1e300"}},
		{"block inf", []any{"block", "inf"}},
		{"block near int64 max", []any{"block", "9200000000000000000"}},
		{"block past the Duration's milliseconds", []any{"block", "9300000000000000"}},
		{"spent, reset 1e300", []any{"est", "0", "reset", "1e300"}},
		{"spent, reset near int64 max", []any{"est", "0", "reset", "9200000000000000000"}},
		{"spent, reset inf", []any{"est", "0", "reset", "inf"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := uniqueName(t, rdb)
			p := newPacer(t, rdb, name)
			if err := rdb.HSet(bg, p.Key(), tc.fields...).Err(); err != nil {
				t.Fatal(err)
			}
			if d := reserve(t, p); d < maxDuration {
				t.Errorf("Reserve = %v, want at least the longest wait %v", d, maxDuration)
			}
		})
	}
}
