package webhook

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// safety bounds how long a test waits for something that must happen far
// sooner; it is reached only when the code under test hangs.
const safety = 10 * time.Second

// parseInBackground runs ParseRequest and returns its result on a channel.
func parseInBackground(p *Parser, r *http.Request) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := p.ParseRequest(r)
		done <- err
	}()
	return done
}

func waitErr(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(safety):
		t.Fatal("ParseRequest did not return")
		return nil
	}
}

// TestParseRequestContext: ParseRequest stops reading when the request's
// context ends, whatever the body does.
func TestParseRequestContext(t *testing.T) {
	p := mustParser(t, WithSecret(testSecret))
	o := Build(EventPush, []byte(`{"ref":"refs/heads/main"}`), BuildOptions{Secret: testSecret})
	newReq := func(ctx context.Context, body io.Reader) *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/", body).WithContext(ctx)
		r.Header = o.HTTPHeader()
		return r
	}
	cause := errors.New("the receiver is shutting down")
	failing := 0
	vectors := map[string]func(t *testing.T) (error, error){
		"body stalls, context cancelled": func(t *testing.T) (error, error) {
			pr, pw := io.Pipe()
			defer pw.Close()
			ctx, cancel := context.WithCancel(context.Background())
			done := parseInBackground(p, newReq(ctx, pr))
			cancel()
			return waitErr(t, done), context.Canceled
		},
		"body drips, context cancelled with a cause": func(t *testing.T) (error, error) {
			pr, pw := io.Pipe()
			defer pw.Close()
			ctx, cancel := context.WithCancelCause(context.Background())
			done := parseInBackground(p, newReq(ctx, pr))
			_, _ = pw.Write(o.Body[:5]) // returns once the parser has read it
			cancel(cause)
			return waitErr(t, done), cause
		},
		"context over before the call": func(t *testing.T) (error, error) {
			ctx, cancel := context.WithDeadline(context.Background(), time.Unix(1, 0))
			defer cancel()
			return waitErr(t, parseInBackground(p, newReq(ctx, strings.NewReader(string(o.Body))))), context.DeadlineExceeded
		},
		"context deadline passes while the body stalls": func(t *testing.T) (error, error) {
			pr, pw := io.Pipe()
			defer pw.Close()
			ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
			defer cancel()
			return waitErr(t, parseInBackground(p, newReq(ctx, pr))), context.DeadlineExceeded
		},
	}
	for name, v := range vectors {
		t.Run(name, func(t *testing.T) {
			err, want := v(t)
			var we *Error
			if !errors.Is(err, ErrTimeout) || !errors.Is(err, want) || !errors.As(err, &we) || we.StatusCode() != http.StatusRequestTimeout {
				failing++
				t.Errorf("got %v, want ErrTimeout with %v", err, want)
			}
		})
	}
	t.Logf("%d vectors, %d failing", len(vectors), failing)
}

// rawPost opens a TCP connection to addr and writes a delivery's request
// line and headers with Content-Length n, and no body yet.
func rawPost(t *testing.T, addr string, o *Outgoing, n int) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(safety))
	var b strings.Builder
	fmt.Fprintf(&b, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n", addr, n)
	for _, f := range o.Header {
		fmt.Fprintf(&b, "%s: %s\r\n", f.Name, f.Value)
	}
	b.WriteString("\r\n")
	if _, err := io.WriteString(conn, b.String()); err != nil {
		t.Fatal(err)
	}
	return conn
}

// TestHandlerReadDeadline: a sender that stalls or drips its body gets 408
// once the handler's read deadline passes (a real socket deadline of a few
// milliseconds, no sleep), and the handler returns.
func TestHandlerReadDeadline(t *testing.T) {
	o := Build(EventPush, []byte(`{"ref":"refs/heads/main"}`), BuildOptions{Secret: testSecret})
	failing := 0
	vectors := map[string]func(conn net.Conn, stop <-chan struct{}){
		"stalls after half the body": func(conn net.Conn, _ <-chan struct{}) {
			_, _ = conn.Write(o.Body[:len(o.Body)/2])
		},
		"stalls before the body": func(net.Conn, <-chan struct{}) {},
		"drips a byte at a time": func(conn net.Conn, stop <-chan struct{}) {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := conn.Write([]byte{' '}); err != nil {
					return
				}
			}
		},
	}
	for name, send := range vectors {
		t.Run(name, func(t *testing.T) {
			returned := make(chan struct{}, 1)
			rt := NewRouter()
			h := must(NewHandler(mustParser(t, WithSecret(testSecret)), rt, WithReadTimeout(5*time.Millisecond)))
			// A plain http.Server, closed without waiting: after a body left
			// unread, net/http lingers half a second before it closes the
			// connection, which httptest.Server.Close would wait for.
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				h.ServeHTTP(w, r)
				returned <- struct{}{}
			})}
			go func() { _ = srv.Serve(ln) }()
			defer srv.Close()
			conn := rawPost(t, ln.Addr().String(), o, 1<<20)
			stop := make(chan struct{})
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done(); send(conn, stop) }()
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			close(stop)
			if err != nil || resp.StatusCode != http.StatusRequestTimeout {
				failing++
				t.Errorf("answer %v %v, want 408", resp, err)
			} else {
				select {
				case <-returned:
				case <-time.After(safety):
					t.Error("the handler did not return")
				}
			}
			conn.Close()
			wg.Wait()
		})
	}
	t.Logf("%d vectors, %d failing", len(vectors), failing)
}

// deadlineConn records the read deadlines set on a connection.
type deadlineConn struct {
	net.Conn
	mu      sync.Mutex
	last    time.Time
	nonZero int // deadlines set that were not the zero time
}

func (c *deadlineConn) SetReadDeadline(d time.Time) error {
	c.mu.Lock()
	c.last = d
	if !d.IsZero() {
		c.nonZero++
	}
	c.mu.Unlock()
	return c.Conn.SetReadDeadline(d)
}

type deadlineListener struct {
	net.Listener
	conns chan *deadlineConn
}

func (l deadlineListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	dc := &deadlineConn{Conn: c}
	l.conns <- dc
	return dc, nil
}

// TestHandlerReadDeadlineLifted: once the body is read the deadline is
// lifted, so that the event function runs without it (a passed read
// deadline would make the server cancel the request's context), and the
// default deadline is DefaultReadTimeout.
func TestHandlerReadDeadlineLifted(t *testing.T) {
	if h := must(NewHandler(mustParser(t, AllowUnsigned()), NewRouter())); h.readTimeout != DefaultReadTimeout || DefaultReadTimeout != 5*time.Second {
		t.Errorf("default read timeout %v", h.readTimeout)
	}
	o := Build(EventPush, []byte(`{"ref":"refs/heads/main"}`), BuildOptions{Secret: testSecret})
	conns := make(chan *deadlineConn, 1)
	rt := NewRouter()
	h := must(NewHandler(mustParser(t, WithSecret(testSecret)), rt))
	var seen time.Time
	var sets int
	rt.HandleDefault(func(context.Context, Event) error {
		c := <-conns
		c.mu.Lock()
		seen, sets = c.last, c.nonZero
		c.mu.Unlock()
		return nil
	})
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = deadlineListener{srv.Listener, conns}
	srv.Start()
	defer srv.Close()
	req, _ := o.NewRequest(context.Background(), srv.URL)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !seen.IsZero() || sets != 1 {
		t.Errorf("status %d; during the event function the read deadline was %v, after %d deadlines set", resp.StatusCode, seen, sets)
	}
}

// TestHandlerContextEndsRead: when the request's context ends while the
// Handler is blocked reading the body (a middleware's timeout, a shutdown),
// the Handler answers 408 at once instead of waiting out its read timeout
// (a minute here), and returns.
func TestHandlerContextEndsRead(t *testing.T) {
	o := Build(EventPush, []byte(`{"ref":"refs/heads/main"}`), BuildOptions{Secret: testSecret})
	for name, sent := range map[string]int{"stalls before the body": 0, "stalls after half the body": len(o.Body) / 2} {
		t.Run(name, func(t *testing.T) {
			rt := NewRouter()
			h := must(NewHandler(mustParser(t, WithSecret(testSecret)), rt, WithReadTimeout(time.Minute)))
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			end := make(chan struct{})
			returned := make(chan struct{}, 1)
			srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				ctx, cancel := context.WithCancel(r.Context())
				defer cancel()
				go func() { <-end; cancel() }()
				h.ServeHTTP(w, r.WithContext(ctx))
				returned <- struct{}{}
			})}
			go func() { _ = srv.Serve(ln) }()
			defer srv.Close()
			conn := rawPost(t, ln.Addr().String(), o, len(o.Body))
			if _, err := conn.Write(o.Body[:sent]); err != nil {
				t.Fatal(err)
			}
			close(end)
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil || resp.StatusCode != http.StatusRequestTimeout {
				t.Fatalf("answer %v %v, want 408", resp, err)
			}
			select {
			case <-returned:
			case <-time.After(safety):
				t.Error("the handler did not return")
			}
		})
	}
}
