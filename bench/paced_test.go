package bench

import (
	"context"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/forgejotest"
)

// delayed puts a proxy in front of a forgejotest server that answers every
// request after delay (a round trip) and counts the 429s it passes on.
func delayed(tb testing.TB, target string, delay time.Duration, refused *atomic.Int64) string {
	u, err := url.Parse(target)
	if err != nil {
		tb.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.ModifyResponse = func(r *http.Response) error {
		if r.StatusCode == http.StatusTooManyRequests {
			refused.Add(1)
		}
		return nil
	}
	s := newServer(tb, 1, 0) // for its lifecycle only
	s.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay)
		proxy.ServeHTTP(w, r)
	})
	return s.URL
}

// BenchmarkWalkLatencyPaced is BenchmarkWalkLatency against forgejotest's
// emulation of Codeberg's rate limiter (q=100 per 2 s window), with pacing
// on: the walk must see no 429 at all. It reports the 429s and the walk's
// wall time.
func BenchmarkWalkLatencyPaced(b *testing.B) {
	for _, n := range []int{1, 4} {
		b.Run("concurrency="+itoa(n), func(b *testing.B) {
			fs := forgejotest.NewServer(b, forgejotest.WithRateLimit(100, 2*time.Second), forgejotest.WithMaxResponseItems(pageSize))
			fs.AddRepo("o", "r")
			fs.AddIssues("o", "r", 200*pageSize)
			var refused atomic.Int64
			base := delayed(b, fs.URL, 20*time.Millisecond, &refused)
			c := forgegoClient(b, base, forgejo.WithToken(fs.Token()), forgejo.WithWalkConcurrency(n), forgejo.WithRateLimitPacing(forgejo.Pacing{}))
			for b.Loop() {
				got := 0
				for is, err := range c.Issues.ListIter(context.Background(), "o", "r", &forgejo.IssueListOptions{State: forgejo.StateAll, ListOptions: forgejo.ListOptions{Limit: pageSize}}) {
					if err != nil {
						b.Fatal(err)
					}
					_ = is
					got++
				}
				if got != 200*pageSize {
					b.Fatalf("%d items", got)
				}
			}
			b.ReportMetric(float64(refused.Load()), "429s")
		})
	}
}

func itoa(n int) string { return string(rune('0' + n)) }
