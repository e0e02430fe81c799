// Package bench compares forgego with a hand-rolled client (net/http and
// encoding/json, "raw") and the Gitea SDK, all against one loopback server
// serving real codeberg.org bodies (../testdata/codeberg). It is a module of
// its own so that the comparison's dependencies stay out of the core's
// go.mod. docs/performance.md says how to run it and what it measured.
package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	forgejo "codeberg.org/forgego/forgejo"
)

const pageSize = 50

// token is the credential every client sends, as an authenticated program
// would: forgego then also pays for keeping it out of every text it
// renders.
const token = "3f2a9c81d4e6b7a05c3d9e8f1a2b4c6d8e0f1a3b"

// ---- the three clients

func forgegoClient(tb testing.TB, url string, opts ...forgejo.ClientOption) *forgejo.Client {
	c, err := forgejo.NewClient(append([]forgejo.ClientOption{forgejo.WithBaseURL(url), forgejo.WithToken(token), forgejo.WithPageSize(pageSize)}, opts...)...)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func giteaClient(tb testing.TB, url string) *gitea.Client {
	c, err := gitea.NewClient(url, gitea.SetGiteaVersion(""), gitea.SetToken(token), gitea.SetHTTPClient(&http.Client{}))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// rawDo is what a careful hand-rolled client does to send: one GET with
// the token, the status checked. The caller reads and closes the body.
func rawDo(hc *http.Client, url string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "token "+token)
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	return resp, nil
}

// rawGet is rawDo with the body decoded with encoding/json into structs of
// the model's shape (here forgego's own types, decoded by reflection).
func rawGet(hc *http.Client, url string, out any) (http.Header, error) {
	resp, err := rawDo(hc, url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	return resp.Header, json.Unmarshal(data, out)
}

// rawDiscard is the floor every client stands on: the same GET with the
// body read and thrown away, nothing decoded.
func rawDiscard(hc *http.Client, url string) error {
	resp, err := rawDo(hc, url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return err
}

// rawNext reads rel="next" from a Link header.
func rawNext(h http.Header) string {
	for _, part := range strings.Split(h.Get("Link"), ",") {
		if strings.Contains(part, `rel="next"`) {
			if i, j := strings.Index(part, "<"), strings.Index(part, ">"); i >= 0 && j > i {
				return part[i+1 : j]
			}
		}
	}
	return ""
}

// cpu reports, per operation, the benchmark process's CPU time (user and
// system) as cpu-ns/op: on a shared machine, wall time also counts the
// waits for a core. With -childserver, total-cpu-ns/op adds the server's.
func cpu(b *testing.B, s *server) func() {
	start := cpuTime()
	if s == nil {
		s = &server{} // nothing served
	}
	var serverStart int64
	if s.serverCPU != nil {
		serverStart = s.serverCPU()
	}
	return func() {
		own := cpuTime() - start
		b.ReportMetric(float64(own)/float64(b.N), "cpu-ns/op")
		if s.serverCPU != nil {
			b.ReportMetric(float64(own+s.serverCPU()-serverStart)/float64(b.N), "total-cpu-ns/op")
		}
	}
}

// machineSteal returns the machine's CPU time stolen by the hypervisor and
// its total CPU time so far, in clock ticks (the cpu line of /proc/stat),
// or zeros where there is none. A virtual machine's host running other
// guests shows as steal; runs that had much of it measure the host, not
// the code, which tails (p99) show first.
func machineSteal() (steal, total int64) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, 0
	}
	for i, v := range f[1:] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, 0
		}
		if i == 7 {
			steal = n
		}
		if i < 8 { // guest time is already counted in user time
			total += n
		}
	}
	return steal, total
}

// reportSteal reports, as steal-%, the share of the machine's CPU time
// stolen since machineSteal returned steal0 and total0.
func reportSteal(b *testing.B, steal0, total0 int64) {
	steal, total := machineSteal()
	if total > total0 {
		b.ReportMetric(100*float64(steal-steal0)/float64(total-total0), "steal-%")
	}
}

func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// ---- the three calls

func BenchmarkGetRepository(b *testing.B) {
	s := benchServer(b, 1, 0)
	ctx := context.Background()
	fc, gc, hc := forgegoClient(b, s.URL), giteaClient(b, s.URL), &http.Client{}
	b.Run("forgego", func(b *testing.B) {
		b.ReportAllocs()
		defer cpu(b, s)()
		for b.Loop() {
			if r, _, err := fc.Repos.Get(ctx, "o", "r"); err != nil || r.ID == 0 {
				b.Fatal(err)
			}
		}
	})
	b.Run("raw", func(b *testing.B) {
		b.ReportAllocs()
		defer cpu(b, s)()
		for b.Loop() {
			var r forgejo.Repository
			if _, err := rawGet(hc, s.URL+"/api/v1/repos/o/r", &r); err != nil || r.ID == 0 {
				b.Fatal(err)
			}
		}
	})
	b.Run("forgego-nodecode", func(b *testing.B) {
		b.ReportAllocs()
		defer cpu(b, s)()
		for b.Loop() {
			if _, err := fc.Do(ctx, &forgejo.Request{Method: "GET", Path: "/repos/o/r", Retry: forgejo.RetryIdempotentOnly}, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("floor", func(b *testing.B) {
		b.ReportAllocs()
		defer cpu(b, s)()
		for b.Loop() {
			if err := rawDiscard(hc, s.URL+"/api/v1/repos/o/r"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gitea", func(b *testing.B) {
		b.ReportAllocs()
		defer cpu(b, s)()
		for b.Loop() {
			if r, _, err := gc.GetRepo("o", "r"); err != nil || r.ID == 0 {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkIssuePage50(b *testing.B) {
	s := benchServer(b, 200, 0)
	ctx := context.Background()
	fc, gc, hc := forgegoClient(b, s.URL), giteaClient(b, s.URL), &http.Client{}
	b.Run("forgego", func(b *testing.B) {
		b.ReportAllocs()
		defer cpu(b, s)()
		for b.Loop() {
			if is, _, err := fc.Issues.List(ctx, "o", "r", &forgejo.IssueListOptions{ListOptions: forgejo.ListOptions{Page: 1, Limit: pageSize}}); err != nil || len(is) != pageSize {
				b.Fatal(err)
			}
		}
	})
	b.Run("raw", func(b *testing.B) {
		b.ReportAllocs()
		defer cpu(b, s)()
		for b.Loop() {
			var is []*forgejo.Issue
			if _, err := rawGet(hc, s.URL+"/api/v1/repos/o/r/issues?page=1&limit=50", &is); err != nil || len(is) != pageSize {
				b.Fatal(err)
			}
		}
	})
	b.Run("gitea", func(b *testing.B) {
		b.ReportAllocs()
		defer cpu(b, s)()
		for b.Loop() {
			if is, _, err := gc.ListRepoIssues("o", "r", gitea.ListIssueOption{ListOptions: gitea.ListOptions{Page: 1, PageSize: pageSize}}); err != nil || len(is) != pageSize {
				b.Fatal(err)
			}
		}
	})
}

// walkers walk the whole listing of a server and return the item count.
var walkers = []struct {
	name string
	walk func(tb testing.TB, url string, visit func()) int
}{
	{"forgego", func(tb testing.TB, url string, visit func()) int {
		return forgegoWalk(tb, forgegoClient(tb, url), visit)
	}},
	{"raw", func(tb testing.TB, url string, visit func()) int {
		hc, n := &http.Client{}, 0
		for url := url + "/api/v1/repos/o/r/issues?page=1&limit=50"; url != ""; {
			var is []*forgejo.Issue
			h, err := rawGet(hc, url, &is)
			if err != nil {
				tb.Fatal(err)
			}
			for range is {
				n++
				visit()
			}
			url = rawNext(h)
		}
		return n
	}},
	{"gitea", func(tb testing.TB, url string, visit func()) int {
		gc, n := giteaClient(tb, url), 0
		for page := 1; page != 0; {
			is, resp, err := gc.ListRepoIssues("o", "r", gitea.ListIssueOption{ListOptions: gitea.ListOptions{Page: page, PageSize: pageSize}})
			if err != nil {
				tb.Fatal(err)
			}
			for range is {
				n++
				visit()
			}
			page = resp.NextPage
		}
		return n
	}},
}

func forgegoWalk(tb testing.TB, c *forgejo.Client, visit func()) int {
	n := 0
	for is, err := range c.Issues.ListIter(context.Background(), "o", "r", &forgejo.IssueListOptions{ListOptions: forgejo.ListOptions{Limit: pageSize}}) {
		if err != nil {
			tb.Fatal(err)
		}
		if is.Number == 0 {
			tb.Fatal("no number")
		}
		n++
		visit()
	}
	return n
}

func BenchmarkWalk10000(b *testing.B) {
	s := benchServer(b, 200, 0)
	for _, w := range walkers {
		b.Run(w.name, func(b *testing.B) {
			b.ReportAllocs()
			defer cpu(b, s)()
			for b.Loop() {
				if n := w.walk(b, s.URL, func() {}); n != 200*pageSize {
					b.Fatalf("%d items", n)
				}
			}
		})
	}
}

// BenchmarkWalk50000Heap reports the peak live heap of a 50 000-issue walk
// (HeapAlloc sampled after each page, after a GC before the walk).
func BenchmarkWalk50000Heap(b *testing.B) {
	s := benchServer(b, 1000, 0)
	for _, w := range walkers {
		b.Run(w.name, func(b *testing.B) {
			var peak uint64
			for b.Loop() {
				runtime.GC()
				count := 0
				var ms runtime.MemStats
				w.walk(b, s.URL, func() {
					if count++; count%pageSize == 0 {
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapAlloc)
					}
				})
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}

// BenchmarkWalkLatency walks 200 pages from a server that answers each
// request after 20 ms, as a network round trip would: one page at a time,
// and with 4 pages in flight.
func BenchmarkWalkLatency(b *testing.B) {
	s := benchServer(b, 200, 20*time.Millisecond)
	for _, n := range []int{1, 4} {
		b.Run("concurrency="+strconv.Itoa(n), func(b *testing.B) {
			c := forgegoClient(b, s.URL, forgejo.WithWalkConcurrency(n))
			for b.Loop() {
				if got := forgegoWalk(b, c, func() {}); got != 200*pageSize {
					b.Fatalf("%d items", got)
				}
			}
		})
	}
}

// ---- the clients alone: an in-memory transport, no server, no network

type memTransport struct{ body []byte }

func (m memTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(m.body)), ContentLength: int64(len(m.body)), Request: r}, nil
}

// BenchmarkInMemory is GET one repository and GET a 50-issue page with
// the answer handed over in memory: what each client itself costs, without
// the server's and the network stack's share, which every client pays
// alike and which dominates the loopback benchmarks.
func BenchmarkInMemory(b *testing.B) {
	repo, err := fixture("repository/repo-single.json")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name, path string
		body       []byte
		forgego    func(c *forgejo.Client) error
		raw        func(hc *http.Client, url string) error
	}{
		{"repository", "/api/v1/repos/o/r", repo,
			func(c *forgejo.Client) error { _, _, err := c.Repos.Get(ctx, "o", "r"); return err },
			func(hc *http.Client, url string) error {
				var r forgejo.Repository
				_, err := rawGet(hc, url, &r)
				return err
			}},
		{"issues50", "/api/v1/repos/o/r/issues?page=1&limit=50", mustPages(b, 1)[0],
			func(c *forgejo.Client) error {
				_, _, err := c.Issues.List(ctx, "o", "r", &forgejo.IssueListOptions{ListOptions: forgejo.ListOptions{Page: 1, Limit: pageSize}})
				return err
			},
			func(hc *http.Client, url string) error {
				var is []*forgejo.Issue
				_, err := rawGet(hc, url, &is)
				return err
			}},
	} {
		hc := &http.Client{Transport: memTransport{tc.body}}
		fc := forgegoClient(b, "http://mem.invalid", forgejo.WithHTTPClient(hc))
		url := "http://mem.invalid" + tc.path
		for _, client := range []struct {
			name string
			call func() error
		}{
			{"forgego", func() error { return tc.forgego(fc) }},
			{"raw", func() error { return tc.raw(hc, url) }},
			{"floor", func() error { return rawDiscard(hc, url) }},
		} {
			b.Run(tc.name+"/"+client.name, func(b *testing.B) {
				b.SetBytes(int64(len(tc.body)))
				b.ReportAllocs()
				defer cpu(b, nil)()
				for b.Loop() {
					if err := client.call(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestSameItems checks that every walker sees the same 10 000 issues, the
// concurrent walk included, in the same order.
func TestSameItems(t *testing.T) {
	s := newServer(t, 200, 0)
	var want []int64
	for is, err := range forgegoClient(t, s.URL).Issues.ListIter(context.Background(), "o", "r", nil) {
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, is.Number)
	}
	var got []int64
	var mu sync.Mutex
	for is, err := range forgegoClient(t, s.URL, forgejo.WithWalkConcurrency(4)).Issues.ListIter(context.Background(), "o", "r", nil) {
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		got = append(got, is.Number)
		mu.Unlock()
	}
	if len(want) != 200*pageSize || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("concurrent walk: %d items, sequential %d, or a different order", len(got), len(want))
	}
	for _, w := range walkers {
		if n := w.walk(t, s.URL, func() {}); n != len(want) {
			t.Errorf("%s walked %d items", w.name, n)
		}
	}
}
