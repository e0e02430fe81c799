package forgejo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Walks with pages in flight (WithWalkConcurrency) must be indistinguishable
// from sequential walks to their consumer: the same items in the same
// order, the same error, the same truncation. Each case runs sequentially
// and with 4 pages ahead and compares.

// cwListing is a synthetic listing: what each page answers.
type cwListing struct {
	pages      int  // pages that exist
	size       int  // items per page
	total      int  // X-Total-Count, when noLink
	noLink     bool // X-Total-Count only, no Link
	noLast     bool // next links but no rel="last"
	lastClaim  int  // rel="last" when it differs from pages
	emptyFrom  int  // pages from this one on are empty (the listing shrank)
	jumpAt     int  // the next link of this page skips a page
	stuckAt    int  // the next link of this page points back to it
	failAt     int  // this page fails
	nextUntil  int  // pages after this one offer no next link, though last says more
	cancelAt   int  // the walk's ctx is cancelled while this page is fetched
	breakAfter int  // the consumer stops after this many items (All)
}

// cwRun walks the listing with concurrency n and returns the items, the
// error, and the most fetches ever in flight at once.
func cwRun(t *testing.T, l cwListing, n int) (items []int, maxInFlight int, err error) {
	t.Helper()
	c, cerr := NewClient(WithWalkConcurrency(n))
	if cerr != nil {
		t.Fatal(cerr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var inFlight, peak atomic.Int64
	fetch := func(ctx context.Context, o ListOptions) ([]int, *Response, error) {
		now := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			p := peak.Load()
			if now <= p || peak.CompareAndSwap(p, now) {
				break
			}
		}
		if o.Page == l.cancelAt {
			cancel()
		}
		if l.pages < 1000 {
			time.Sleep(time.Duration(o.Page%3) * time.Millisecond) // answers out of order
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if o.Page == l.failAt {
			return nil, nil, fmt.Errorf("page %d failed", o.Page)
		}
		resp := &Response{Header: http.Header{}, client: c}
		var page []int
		if o.Page <= l.pages && (l.emptyFrom == 0 || o.Page < l.emptyFrom) {
			for i := range l.size {
				page = append(page, o.Page*1000+i)
			}
		}
		if l.noLink {
			resp.totalCount, resp.hasTotal = l.total, true
			return page, resp, nil
		}
		resp.hasLink = true
		next := o.Page + 1
		switch o.Page {
		case l.jumpAt:
			next = o.Page + 2
		case l.stuckAt:
			next = o.Page
		}
		if o.Page < l.pages && (l.nextUntil == 0 || o.Page <= l.nextUntil) {
			resp.nextOffered, resp.NextPage = true, next
			if !l.noLast {
				resp.LastPage = l.pages
				if l.lastClaim != 0 {
					resp.LastPage = l.lastClaim
				}
			}
		}
		return page, resp, nil
	}
	for v, e := range All(ctx, ListOptions{Limit: l.size}, fetch) {
		if e != nil {
			err = e
			break
		}
		items = append(items, v)
		if l.breakAfter > 0 && len(items) == l.breakAfter {
			break
		}
	}
	if now := inFlight.Load(); now != 0 {
		t.Errorf("concurrency %d: %d fetches still running after the walk returned", n, now)
	}
	return items, int(peak.Load()), err
}

func TestConcurrentWalkMatchesSequential(t *testing.T) {
	cases := []struct {
		name string
		l    cwListing
		want bool // pages must be fetched ahead
	}{
		{"link with last", cwListing{pages: 30, size: 5}, true},
		{"one page", cwListing{pages: 1, size: 5}, false},
		{"total count, no link", cwListing{pages: 20, size: 7, total: 137, noLink: true}, true},
		{"total count overstated", cwListing{pages: 10, size: 7, total: 300, noLink: true}, false},
		{"next without last: sequential", cwListing{pages: 12, size: 3, noLast: true}, false},
		{"listing shrank under the walk", cwListing{pages: 30, size: 5, emptyFrom: 12}, false},
		{"last overstated, next stops", cwListing{pages: 30, size: 5, nextUntil: 9}, false},
		{"last understated", cwListing{pages: 30, size: 5, lastClaim: 10}, false},
		{"next link jumps", cwListing{pages: 30, size: 5, jumpAt: 6}, false},
		{"truncated: next does not move", cwListing{pages: 30, size: 5, stuckAt: 8}, false},
		{"failing page", cwListing{pages: 30, size: 5, failAt: 7}, true},
		{"failing page beyond a shrunk end", cwListing{pages: 30, size: 5, emptyFrom: 5, failAt: 7}, false},
		{"early break", cwListing{pages: 30, size: 5, breakAfter: 23}, false},
		{"early break on the first page", cwListing{pages: 30, size: 5, breakAfter: 2}, false},
		{"cancelled mid-walk", cwListing{pages: 30, size: 5, cancelAt: 9}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantItems, _, wantErr := cwRun(t, tc.l, 1)
			gotItems, peak, gotErr := cwRun(t, tc.l, 4)
			if tc.l.cancelAt != 0 {
				// Which page first sees the cancellation depends on timing in
				// both walks; what must hold is that both end with it, with
				// a prefix of the listing, in order.
				if !errors.Is(wantErr, context.Canceled) || !errors.Is(gotErr, context.Canceled) {
					t.Fatalf("errors %v and %v, want context.Canceled", wantErr, gotErr)
				}
				if !isPrefix(gotItems, wantItems) && !isPrefix(wantItems, gotItems) {
					t.Fatalf("items differ beyond a prefix")
				}
				return
			}
			if !reflect.DeepEqual(gotItems, wantItems) {
				t.Fatalf("items:\n got %v\nwant %v", gotItems, wantItems)
			}
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Fatalf("err = %v, want %v", gotErr, wantErr)
			}
			var wt1, wt2 *WalkTruncatedError
			if errors.As(wantErr, &wt1) != errors.As(gotErr, &wt2) || (wt1 != nil && *wt1 != *wt2) {
				t.Fatalf("truncation %+v, want %+v", wt2, wt1)
			}
			if peak > 4 {
				t.Errorf("%d fetches in flight at once, want at most 4", peak)
			}
			if tc.want && peak < 3 {
				t.Errorf("only %d fetches in flight at once: pages were not fetched ahead", peak)
			}
		})
	}
}

func isPrefix(a, b []int) bool { return len(a) <= len(b) && reflect.DeepEqual(a, b[:len(a)]) }

// MaxPages bounds a concurrent walk exactly as a sequential one.
func TestConcurrentWalkMaxPages(t *testing.T) {
	l := cwListing{pages: MaxPages + 500, size: 1}
	want, _, wantErr := cwRun(t, l, 1)
	got, _, gotErr := cwRun(t, l, 4)
	var wt *WalkTruncatedError
	if !errors.As(gotErr, &wt) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) || len(got) != MaxPages {
		t.Fatalf("got %d items, err %v; want %d, %v", len(got), gotErr, len(want), wantErr)
	}
}

// A panicking fetch panics in the walk's goroutine, as it would
// sequentially.
func TestConcurrentWalkPanicInFetch(t *testing.T) {
	c, _ := NewClient(WithWalkConcurrency(3))
	fetch := func(_ context.Context, o ListOptions) ([]int, *Response, error) {
		if o.Page == 3 {
			panic("boom")
		}
		return []int{o.Page}, &Response{Header: http.Header{}, client: c, hasLink: true, nextOffered: true, NextPage: o.Page + 1, LastPage: 9}, nil
	}
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want boom", r)
		}
	}()
	_, _ = Collect(context.Background(), ListOptions{}, fetch)
}

// cwServer serves n issue pages of size issues with Link next/last, each
// answer after delay; hook may answer instead.
func cwServer(t testing.TB, n, size int, delay time.Duration, hook func(w http.ResponseWriter, page int) bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay)
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if hook != nil && hook(w, page) {
			return
		}
		if page < n {
			w.Header().Set("Link", fmt.Sprintf(`<http://x/api/v1/repos/o/r/issues?page=%d&limit=%d>; rel="next", <http://x/api/v1/repos/o/r/issues?page=%d&limit=%d>; rel="last"`, page+1, size, n, size))
		}
		w.Header().Set("Content-Type", "application/json")
		body := []byte("[")
		for i := range size {
			if i > 0 {
				body = append(body, ',')
			}
			body = fmt.Appendf(body, `{"id":%d,"number":%d,"title":"issue %d"}`, page*1000+i, page*1000+i, page*1000+i)
		}
		_, _ = w.Write(append(body, ']'))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func cwNumbers(t testing.TB, c *Client) ([]int64, error) {
	var out []int64
	for is, err := range c.Issues.ListIter(context.Background(), "o", "r", &IssueListOptions{ListOptions: ListOptions{Limit: 10}}) {
		if err != nil {
			return out, err
		}
		out = append(out, is.Number)
	}
	return out, nil
}

// A 429 on one page mid-walk is retried like any call; the walk yields
// the same items, and the pages around it wait their turn in order.
func TestConcurrentWalk429MidWalk(t *testing.T) {
	var once sync.Once
	var hits atomic.Int64
	srv := cwServer(t, 20, 10, time.Millisecond, func(w http.ResponseWriter, page int) bool {
		refused := false
		if page == 7 {
			once.Do(func() {
				refused = true
				hits.Add(1)
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(http.StatusTooManyRequests)
			})
		}
		return refused
	})
	policy := RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond, RespectRetryAfter: true}
	seq, _ := NewClient(WithBaseURL(srv.URL), WithRetryPolicy(policy))
	want, err := cwNumbers(t, seq)
	if err != nil {
		t.Fatal(err)
	}
	once = sync.Once{}
	con, _ := NewClient(WithBaseURL(srv.URL), WithRetryPolicy(policy), WithWalkConcurrency(4))
	got, err := cwNumbers(t, con)
	if err != nil || !reflect.DeepEqual(got, want) || len(got) != 200 || hits.Load() != 2 {
		t.Fatalf("err %v, %d items (want %d), 429s served %d", err, len(got), len(want), hits.Load())
	}
}

// A failing page fails the walk with that page's error after the pages
// before it, sequentially and concurrently alike.
func TestConcurrentWalkFailingPageHTTP(t *testing.T) {
	srv := cwServer(t, 20, 10, time.Millisecond, func(w http.ResponseWriter, page int) bool {
		if page == 9 {
			w.WriteHeader(http.StatusInternalServerError)
			return true
		}
		return false
	})
	seq, _ := NewClient(WithBaseURL(srv.URL), WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	con, _ := NewClient(WithBaseURL(srv.URL), WithRetryPolicy(RetryPolicy{MaxAttempts: 1}), WithWalkConcurrency(4))
	want, werr := cwNumbers(t, seq)
	got, gerr := cwNumbers(t, con)
	if !reflect.DeepEqual(got, want) || len(got) != 80 || StatusCode(gerr) != 500 || StatusCode(werr) != 500 {
		t.Fatalf("got %d items, %v; want %d, %v", len(got), gerr, len(want), werr)
	}
}

// Under pacing, a walk keeps no more requests in flight than the estimated
// budget: with 5 requests left in the window, at most 5 are sent before
// the window resets, whatever the concurrency.
func TestConcurrentWalkPacedWindow(t *testing.T) {
	var mu sync.Mutex
	window := time.Now()
	used, refused, peak, inFlight := 0, 0, 0, 0
	const quota = 12
	srv := cwServer(t, 40, 5, 2*time.Millisecond, func(w http.ResponseWriter, page int) bool {
		mu.Lock()
		inFlight++
		peak = max(peak, inFlight)
		now := time.Now()
		if now.Sub(window) >= 300*time.Millisecond {
			window, used = now, 0
		}
		used++
		left := quota - used
		limited := left < 0
		if limited {
			refused++
		}
		mu.Unlock()
		defer func() { mu.Lock(); inFlight--; mu.Unlock() }()
		// The server keeps sub-second windows: t in whole seconds would
		// make the test slow, so it reports milliseconds as a fraction.
		w.Header().Set("RateLimit-Policy", `"baseline";q=`+strconv.Itoa(quota)+";w=1")
		w.Header().Set("RateLimit", `"baseline";r=`+strconv.Itoa(max(left, 0))+";t=1")
		if limited {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return true
		}
		return false
	})
	c, _ := NewClient(WithBaseURL(srv.URL), WithWalkConcurrency(8), WithRateLimitPacing(Pacing{MaxWait: 2 * time.Second}),
		WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	got, err := cwNumbers(t, c)
	if err != nil || len(got) != 200 {
		t.Fatalf("err %v after %d items", err, len(got))
	}
	if refused != 0 {
		t.Errorf("%d requests refused with 429 under pacing", refused)
	}
}
