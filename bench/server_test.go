package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The benchmarks' server runs in the benchmark's own process, as the
// issue's first measurements did, and cpu-ns/op then counts its CPU time
// too (the same for every client). With -childserver it runs in a child
// process (this test binary, started again with serveEnv set): cpu-ns/op is
// then the client's own CPU time and total-cpu-ns/op adds the server's.
// Across processes every answer wakes a sleeping scheduler, whose spinning
// costs every client alike, so the ratios come out closer to 1, not
// further (docs/performance.md).

var childServer = flag.Bool("childserver", false, "serve the benchmarks from a child process (cpu-ns/op is then the client's alone)")

// serveEnv carries "totalPages,delay" to a child that is to serve.
const serveEnv = "FORGEGO_BENCH_SERVE"

func TestMain(m *testing.M) {
	if spec := os.Getenv(serveEnv); spec != "" {
		os.Exit(serveChild(spec))
	}
	if spec := os.Getenv(sendEnv); spec != "" {
		os.Exit(sendChild(spec))
	}
	os.Exit(m.Run())
}

// fixture reads a capture, compacted as an instance sends it.
func fixture(name string) ([]byte, error) {
	raw, err := os.ReadFile("../testdata/codeberg/" + name)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return buf.Bytes(), nil
}

// issuePages builds n distinct 50-issue pages from every captured issue,
// each issue given its own number, id, title and URLs.
func issuePages(n int) ([][]byte, error) {
	var base []map[string]any
	for _, name := range []string{"issue/list-open.json", "issue/list-closed.json", "issue/list-labelled.json", "issue/search.json", "pull/list-all.json", "issue/single.json"} {
		data, err := fixture(name)
		if err != nil {
			return nil, err
		}
		if !bytes.HasPrefix(data, []byte("[")) {
			data = append(append([]byte("["), data...), ']')
		}
		var list []map[string]any
		if err := json.Unmarshal(data, &list); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, is := range list {
			delete(is, "merged") // pull listings: keep the issue shape
			base = append(base, is)
		}
	}
	pages := make([][]byte, n)
	for p := range pages {
		page := make([]map[string]any, pageSize)
		for i := range page {
			k := p*pageSize + i
			is := map[string]any{}
			for key, v := range base[k%len(base)] {
				is[key] = v
			}
			is["number"], is["id"] = k+1, 100000+k
			is["title"] = fmt.Sprintf("%v (%d)", is["title"], k)
			is["html_url"] = "https://codeberg.org/o/r/issues/" + strconv.Itoa(k+1)
			is["url"] = "https://codeberg.org/api/v1/repos/o/r/issues/" + strconv.Itoa(k+1)
			page[i] = is
		}
		out, err := json.Marshal(page)
		if err != nil {
			return nil, err
		}
		pages[p] = out
	}
	return pages, nil
}

// mustPages is issuePages for a test.
func mustPages(tb testing.TB, n int) [][]byte {
	tb.Helper()
	pages, err := issuePages(n)
	if err != nil {
		tb.Fatal(err)
	}
	return pages
}

// handler answers GET /repos/o/r and the issue listing of o/r, as many
// pages as totalPages says (the page bodies repeat every len(pages)), after
// delay, and GET /_cpu with the serving process's CPU time in ns.
type handler struct {
	base       string // the server's URL, for Link
	repo       []byte
	pages      [][]byte
	totalPages int
	delay      time.Duration
}

func newHandler(totalPages int, delay time.Duration) (*handler, error) {
	repo, err := fixture("repository/repo-single.json")
	if err != nil {
		return nil, err
	}
	pages, err := issuePages(4)
	if err != nil {
		return nil, err
	}
	return &handler{repo: repo, pages: pages, totalPages: totalPages, delay: delay}, nil
}

func (s *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/_cpu" {
		_, _ = io.WriteString(w, strconv.FormatInt(cpuTime(), 10))
		return
	}
	if s.delay > 0 {
		time.Sleep(s.delay)
	}
	w.Header().Set("Content-Type", "application/json;charset=utf-8")
	switch r.URL.Path {
	case "/api/v1/repos/o/r":
		_, _ = w.Write(s.repo)
	case "/api/v1/repos/o/r/issues":
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		if page > s.totalPages {
			_, _ = w.Write([]byte("[]"))
			return
		}
		link := func(p int, rel string) string {
			return fmt.Sprintf(`<%s/api/v1/repos/o/r/issues?limit=%d&page=%d>; rel="%s"`, s.base, pageSize, p, rel)
		}
		var links []string
		if page < s.totalPages {
			links = append(links, link(page+1, "next"), link(s.totalPages, "last"))
		}
		if page > 1 {
			links = append(links, link(1, "first"), link(page-1, "prev"))
		}
		if len(links) > 0 {
			w.Header().Set("Link", strings.Join(links, ","))
		}
		w.Header().Set("X-Total-Count", strconv.Itoa(s.totalPages*pageSize))
		_, _ = w.Write(s.pages[(page-1)%len(s.pages)])
	default:
		http.NotFound(w, r)
	}
}

// server is a running benchmark server.
type server struct {
	URL string
	// serverCPU is the serving process's CPU time so far in ns; nil when
	// the server runs in this process.
	serverCPU func() int64
	// Config is the in-process server's, for tests that swap its handler.
	Config *http.Server
}

// newServer starts an in-process server.
func newServer(tb testing.TB, totalPages int, delay time.Duration) *server {
	tb.Helper()
	h, err := newHandler(totalPages, delay)
	if err != nil {
		tb.Fatal(err)
	}
	s := httptest.NewServer(h)
	tb.Cleanup(s.Close)
	h.base = s.URL
	return &server{URL: s.URL, Config: s.Config}
}

// benchServer starts the server the benchmarks measure against: in this
// process, or in a child with -childserver.
func benchServer(b *testing.B, totalPages int, delay time.Duration) *server {
	b.Helper()
	if !*childServer {
		return newServer(b, totalPages, delay)
	}
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), serveEnv+"="+strconv.Itoa(totalPages)+","+delay.String())
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = stdin.Close() // the child exits when its stdin closes
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("benchmark server did not start: %v", err)
	}
	url := strings.TrimSpace(line)
	probe := &http.Client{Transport: &http.Transport{}}
	return &server{URL: url, serverCPU: func() int64 {
		resp, err := probe.Get(url + "/_cpu")
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		ns, err := strconv.ParseInt(string(data), 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		return ns
	}}
}

// serveChild is the child's side: serve on a loopback port, print the URL,
// stop when stdin closes.
func serveChild(spec string) int {
	pages, delayText, _ := strings.Cut(spec, ",")
	total, err := strconv.Atoi(pages)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bad", serveEnv, err)
		return 2
	}
	delay, err := time.ParseDuration(delayText)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bad", serveEnv, err)
		return 2
	}
	h, err := newHandler(total, delay)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	h.base = "http://" + ln.Addr().String()
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	fmt.Println(h.base)
	_ = http.Serve(ln, h)
	return 1
}
