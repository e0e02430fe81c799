package forgejo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// pgRecorder counts the requests a test server received and keeps their
// raw queries in order.
type pgRecorder struct {
	mu      sync.Mutex
	queries []string
}

func (r *pgRecorder) add(q string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queries = append(r.queries, q)
}

func (r *pgRecorder) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.queries)
}

func (r *pgRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.queries)
}

// pgServer starts a test server whose handler is wrapped to record every
// request, and a client pointed at it with retries off.
func pgServer(t *testing.T, h http.HandlerFunc, opts ...ClientOption) (*Client, *pgRecorder) {
	t.Helper()
	rec := &pgRecorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.add(r.URL.RawQuery)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(append([]ClientOption{WithBaseURL(srv.URL), WithRetryPolicy(RetryOff())}, opts...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c, rec
}

// pgPage reads the page query parameter the way a Forgejo instance does
// (absent means 1).
func pgPage(t *testing.T, r *http.Request) int {
	t.Helper()
	p := r.URL.Query().Get("page")
	if p == "" {
		return 1
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		t.Errorf("server got unreadable page %q", p)
	}
	return n
}

// pgIssues renders issues numbered from..to (inclusive) as a JSON array.
func pgIssues(from, to int) string {
	var b strings.Builder
	b.WriteByte('[')
	for n := from; n <= to; n++ {
		if n > from {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"number":%d,"title":"issue %d","state":"open","assignee":null,"milestone":null}`, 1000+n, n, n)
	}
	b.WriteByte(']')
	return b.String()
}

// pgLink renders one Link element pointing at page of the request's own URL,
// echoing limit as Forgejo does (even when it clamped it).
func pgLink(r *http.Request, limit string, page int, rel string) string {
	return fmt.Sprintf(`<http://%s%s?limit=%s&page=%d>; rel="%s"`, r.Host, r.URL.Path, limit, page, rel)
}

// pgNumbers returns the issue numbers of issues.
func pgNumbers(issues []*Issue) []int64 {
	out := make([]int64, 0, len(issues))
	for _, is := range issues {
		if is == nil {
			out = append(out, -1)
			continue
		}
		out = append(out, is.Number)
	}
	return out
}

// pgSeq returns from..to.
func pgSeq(from, to int64) []int64 {
	var out []int64
	for n := from; n <= to; n++ {
		out = append(out, n)
	}
	return out
}

// pgLinkResponse builds a Response carrying the given Link header, as the
// pipeline would for a real answer.
func pgLinkResponse(link string) *Response {
	h := http.Header{}
	if link != "" {
		h.Set("Link", link)
	}
	return newResponse(&http.Response{StatusCode: 200, Header: h})
}

func pgNextLink(page int) string {
	return fmt.Sprintf(`<https://h/api/v1/x?limit=7&page=%d>; rel="next"`, page)
}

func TestAppendPaging(t *testing.T) {
	filters := []queryParam{{"state", "open"}, {"labels", "bug"}}
	tests := []struct {
		name      string
		pageSize  int // 0: client default
		kind      PagingKind
		opts      ListOptions
		want      []queryParam
		wantField string // non-empty: a *ValidationError on this field
	}{
		{name: "zero options: page 1 and the default size", kind: PagingPageLimit, opts: ListOptions{},
			want: []queryParam{{"state", "open"}, {"labels", "bug"}, {"page", "1"}, {"limit", "30"}}},
		{name: "page and limit after filters", kind: PagingPageLimit, opts: ListOptions{Page: 4, Limit: 10},
			want: []queryParam{{"state", "open"}, {"labels", "bug"}, {"page", "4"}, {"limit", "10"}}},
		{name: "limit alone still sends page", kind: PagingPageLimit, opts: ListOptions{Limit: 2},
			want: []queryParam{{"state", "open"}, {"labels", "bug"}, {"page", "1"}, {"limit", "2"}}},
		{name: "page alone still sends limit", kind: PagingPageLimit, opts: ListOptions{Page: 3},
			want: []queryParam{{"state", "open"}, {"labels", "bug"}, {"page", "3"}, {"limit", "30"}}},
		{name: "limit 0 uses WithPageSize", pageSize: 7, kind: PagingPageLimit, opts: ListOptions{Page: 2},
			want: []queryParam{{"state", "open"}, {"labels", "bug"}, {"page", "2"}, {"limit", "7"}}},
		{name: "explicit limit beats WithPageSize", pageSize: 7, kind: PagingPageLimit, opts: ListOptions{Limit: 3},
			want: []queryParam{{"state", "open"}, {"labels", "bug"}, {"page", "1"}, {"limit", "3"}}},
		{name: "a limit past Codeberg's 50 is sent: the instance clamps", kind: PagingPageLimit, opts: ListOptions{Page: 1, Limit: 1000},
			want: []queryParam{{"state", "open"}, {"labels", "bug"}, {"page", "1"}, {"limit", "1000"}}},
		{name: "limit 100 is sent as asked", kind: PagingPageLimit, opts: ListOptions{Limit: 100},
			want: []queryParam{{"state", "open"}, {"labels", "bug"}, {"page", "1"}, {"limit", "100"}}},
		{name: "limit 1", kind: PagingPageLimit, opts: ListOptions{Limit: 1},
			want: []queryParam{{"state", "open"}, {"labels", "bug"}, {"page", "1"}, {"limit", "1"}}},
		{name: "large page", kind: PagingPageLimit, opts: ListOptions{Page: 99999, Limit: 1},
			want: []queryParam{{"state", "open"}, {"labels", "bug"}, {"page", "99999"}, {"limit", "1"}}},
		{name: "negative page", kind: PagingPageLimit, opts: ListOptions{Page: -1, Limit: 10}, wantField: "page"},
		{name: "negative limit", kind: PagingPageLimit, opts: ListOptions{Page: 1, Limit: -1}, wantField: "limit"},
		{name: "page only sends page", kind: PagingPageOnly, opts: ListOptions{Page: 3, Limit: 10},
			want: []queryParam{{"state", "open"}, {"labels", "bug"}, {"page", "3"}}},
		{name: "page only, page 0 is page 1", kind: PagingPageOnly, opts: ListOptions{},
			want: []queryParam{{"state", "open"}, {"labels", "bug"}, {"page", "1"}}},
		{name: "page only, negative page", kind: PagingPageOnly, opts: ListOptions{Page: -2}, wantField: "page"},
		{name: "per_page variant", kind: PagingPagePerPage, opts: ListOptions{Page: 2, Limit: 5},
			want: []queryParam{{"state", "open"}, {"labels", "bug"}, {"page", "2"}, {"per_page", "5"}}},
		{name: "per_page variant uses the page size", pageSize: 12, kind: PagingPagePerPage, opts: ListOptions{},
			want: []queryParam{{"state", "open"}, {"labels", "bug"}, {"page", "1"}, {"per_page", "12"}}},
		{name: "per_page variant validates the size", kind: PagingPagePerPage, opts: ListOptions{Limit: -2}, wantField: "limit"},
		{name: "no paging leaves the query alone", kind: PagingNone, opts: ListOptions{Page: 5, Limit: 99},
			want: []queryParam{{"state", "open"}, {"labels", "bug"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var opts []ClientOption
			if tc.pageSize != 0 {
				opts = append(opts, WithPageSize(tc.pageSize))
			}
			c, err := NewClient(opts...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.appendPaging(slices.Clone(filters), tc.kind, tc.opts)
			if tc.wantField != "" {
				var ve *ValidationError
				if !errors.As(err, &ve) || ve.Field != tc.wantField {
					t.Fatalf("err = %v (%T), want *ValidationError on %q", err, err, tc.wantField)
				}
				if got != nil {
					t.Errorf("query %v returned along with the error", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("query = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPagingKindString(t *testing.T) {
	for kind, want := range map[PagingKind]string{
		PagingNone: "none", PagingPageLimit: "page+limit", PagingPageOnly: "page", PagingPagePerPage: "page+per_page",
	} {
		if got := kind.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", kind, got, want)
		}
	}
}

// Out-of-range paging is rejected before anything is sent, by the method
// and by its iterator.
func TestPaginationValidationSendsNothing(t *testing.T) {
	c, rec := pgServer(t, func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("request sent: %s", r.URL)
		w.Write([]byte("[]"))
	})
	ctx := context.Background()
	tests := []struct {
		name  string
		field string
		call  func() error
	}{
		{"ListIssues negative page", "page", func() error {
			_, resp, err := c.Issues.List(ctx, "o", "r", &IssueListOptions{ListOptions: ListOptions{Page: -1}})
			if resp == nil || resp.StatusCode != 0 || resp.Attempts != 0 {
				t.Errorf("Response %+v for a call that was not sent, want the empty one", resp)
			}
			return err
		}},
		{"ListIssues limit -1", "limit", func() error {
			_, _, err := c.Issues.List(ctx, "o", "r", &IssueListOptions{State: "open", ListOptions: ListOptions{Limit: -1}})
			return err
		}},
		{"ListIssues negative limit", "limit", func() error {
			_, _, err := c.Issues.List(ctx, "o", "r", &IssueListOptions{ListOptions: ListOptions{Limit: -5}})
			return err
		}},
		{"ListTopics limit -500", "limit", func() error {
			_, _, err := c.Repos.ListTopics(ctx, "o", "r", &ListOptions{Limit: -500})
			return err
		}},
		{"ListIssuesIter limit -3", "limit", func() error {
			var errs []error
			n := 0
			for is, err := range c.Issues.ListIter(ctx, "o", "r", &IssueListOptions{ListOptions: ListOptions{Limit: -3}}) {
				n++
				if is != nil {
					t.Errorf("item %v yielded", is)
				}
				errs = append(errs, err)
			}
			if n != 1 {
				t.Errorf("iterator yielded %d pairs, want exactly one error pair", n)
			}
			return errors.Join(errs...)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Field != tc.field {
				t.Fatalf("err = %v (%T), want *ValidationError on %q", err, err, tc.field)
			}
		})
	}
	if n := rec.count(); n != 0 {
		t.Errorf("%d requests sent, want 0", n)
	}
}

// A walk started at a negative page is rejected as ListIssues rejects it,
// not silently restarted at page 1.
func TestWalkNegativeStartPage(t *testing.T) {
	c, rec := pgServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(pgIssues(1, 2)))
	})
	ctx := context.Background()
	items, err := Collect(ctx, ListOptions{Page: -3}, func(ctx context.Context, o ListOptions) ([]*Issue, *Response, error) {
		return c.Issues.List(ctx, "o", "r", &IssueListOptions{ListOptions: o})
	})
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Field != "page" || len(items) != 0 {
		t.Errorf("Collect from page -3: %d items, err %v; want *ValidationError on page", len(items), err)
	}
	var iterErr error
	for _, err := range c.Issues.ListIter(ctx, "o", "r", &IssueListOptions{ListOptions: ListOptions{Page: -1}}) {
		iterErr = err
	}
	if !errors.As(iterErr, &ve) || ve.Field != "page" {
		t.Errorf("ListIssuesIter from page -1: err %v; want *ValidationError on page", iterErr)
	}
	if n := rec.count(); n != 0 {
		t.Errorf("%d requests sent, want 0", n)
	}
}

// Filters come first, paging last, page before limit, always both.
func TestPaginationQueryOrder(t *testing.T) {
	since := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	before := time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)
	tests := []struct {
		name     string
		pageSize int
		opts     *IssueListOptions
		want     string
	}{
		{name: "nil options", opts: nil, want: "page=1&limit=30"},
		{name: "state open", opts: &IssueListOptions{State: "open"}, want: "state=open&page=1&limit=30"},
		{name: "limit without page", opts: &IssueListOptions{State: "closed", ListOptions: ListOptions{Limit: 3}}, want: "state=closed&page=1&limit=3"},
		{name: "page 0 is page 1", opts: &IssueListOptions{ListOptions: ListOptions{Page: 0, Limit: 2}}, want: "page=1&limit=2"},
		{name: "client page size", pageSize: 10, opts: &IssueListOptions{State: "closed", ListOptions: ListOptions{Page: 4}}, want: "state=closed&page=4&limit=10"},
		{
			name: "every filter, then paging",
			opts: &IssueListOptions{
				State: "all", Labels: []string{"bug", "ui/ux"}, Query: "a b", Type: "issues", Milestones: []string{"v1"},
				Since: since, Before: before, CreatedBy: "alice", AssignedBy: "bob", MentionedBy: "carol", Sort: "oldest",
				ListOptions: ListOptions{Page: 2, Limit: 25},
			},
			want: "state=all&labels=bug%2Cui%2Fux&q=a%20b&type=issues&milestones=v1&since=2026-01-02T03%3A04%3A05Z" +
				"&before=2026-02-03T04%3A05%3A06Z&created_by=alice&assigned_by=bob&mentioned_by=carol&sort=oldest&page=2&limit=25",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var opts []ClientOption
			if tc.pageSize != 0 {
				opts = append(opts, WithPageSize(tc.pageSize))
			}
			var path string
			var mu sync.Mutex
			c, rec := pgServer(t, func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				path = r.URL.EscapedPath()
				mu.Unlock()
				w.Write([]byte("[]"))
			}, opts...)
			issues, _, err := c.Issues.List(context.Background(), "forgejo", "forgejo", tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(issues) != 0 {
				t.Errorf("got %d issues from []", len(issues))
			}
			if got := rec.all(); len(got) != 1 || got[0] != tc.want {
				t.Errorf("query = %q\nwant    %q", got, tc.want)
			}
			mu.Lock()
			defer mu.Unlock()
			if path != "/api/v1/repos/forgejo/forgejo/issues" {
				t.Errorf("path = %q", path)
			}
		})
	}
}

// The iterator starts at opts.Page, keeps the filters and the limit on
// every page, and does not modify the caller's options.
func TestPaginationIterStartsAtPageKeepsFilters(t *testing.T) {
	c, rec := pgServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch pgPage(t, r) {
		case 3:
			w.Header().Set("Link", pgLink(r, "2", 4, "next"))
			w.Write([]byte(pgIssues(5, 6)))
		case 4:
			w.Header().Set("Link", pgLink(r, "2", 3, "prev"))
			w.Write([]byte(pgIssues(7, 7)))
		default:
			t.Errorf("unexpected page request %q", r.URL.RawQuery)
			w.Write([]byte("[]"))
		}
	})
	opts := &IssueListOptions{State: "open", Labels: []string{"bug"}, ListOptions: ListOptions{Page: 3, Limit: 2}}
	var got []*Issue
	for is, err := range c.Issues.ListIter(context.Background(), "o", "r", opts) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, is)
	}
	if want := []int64{5, 6, 7}; !slices.Equal(pgNumbers(got), want) {
		t.Errorf("numbers = %v, want %v", pgNumbers(got), want)
	}
	want := []string{"state=open&labels=bug&page=3&limit=2", "state=open&labels=bug&page=4&limit=2"}
	if q := rec.all(); !slices.Equal(q, want) {
		t.Errorf("queries = %q, want %q", q, want)
	}
	if opts.Page != 3 || opts.Limit != 2 || opts.State != "open" {
		t.Errorf("caller's options modified: %+v", opts)
	}
}

// Response.NextPage, PrevPage, FirstPage and LastPage come from Link;
// TotalCount distinguishes unknown from zero.
func TestPaginationResponseFields(t *testing.T) {
	tests := []struct {
		name                    string
		link                    func(r *http.Request) string
		total                   string // "": not sent
		body                    string
		next, prev, first, last int
		wantTotal               int
		wantTotalOK             bool
	}{
		{
			name: "codeberg first page",
			link: func(r *http.Request) string {
				return pgLink(r, "2", 2, "next") + "," + pgLink(r, "2", 795, "last")
			},
			total: "1590", body: pgIssues(1, 2),
			next: 2, last: 795, wantTotal: 1590, wantTotalOK: true,
		},
		{
			name: "codeberg middle page",
			link: func(r *http.Request) string {
				return pgLink(r, "2", 6, "next") + "," + pgLink(r, "2", 795, "last") + "," +
					pgLink(r, "2", 1, "first") + "," + pgLink(r, "2", 4, "prev")
			},
			total: "1590", body: pgIssues(9, 10),
			next: 6, prev: 4, first: 1, last: 795, wantTotal: 1590, wantTotalOK: true,
		},
		{
			name: "codeberg last page",
			link: func(r *http.Request) string {
				return pgLink(r, "2", 1, "first") + "," + pgLink(r, "2", 794, "prev")
			},
			total: "1590", body: pgIssues(1589, 1590),
			prev: 794, first: 1, wantTotal: 1590, wantTotalOK: true,
		},
		{name: "no headers: total unknown", body: pgIssues(1, 1)},
		{name: "X-Total-Count 0 is a known zero", total: "0", body: "[]", wantTotal: 0, wantTotalOK: true},
		{name: "unreadable X-Total-Count is unknown", total: "lots", body: "[]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := pgServer(t, func(w http.ResponseWriter, r *http.Request) {
				if tc.link != nil {
					w.Header().Set("Link", tc.link(r))
				}
				if tc.total != "" {
					w.Header().Set("X-Total-Count", tc.total)
				}
				w.Write([]byte(tc.body))
			})
			_, resp, err := c.Issues.List(context.Background(), "forgejo", "forgejo", &IssueListOptions{ListOptions: ListOptions{Limit: 2}})
			if err != nil {
				t.Fatal(err)
			}
			if resp.NextPage != tc.next || resp.PrevPage != tc.prev || resp.FirstPage != tc.first || resp.LastPage != tc.last {
				t.Errorf("next/prev/first/last = %d/%d/%d/%d, want %d/%d/%d/%d",
					resp.NextPage, resp.PrevPage, resp.FirstPage, resp.LastPage, tc.next, tc.prev, tc.first, tc.last)
			}
			n, ok := resp.TotalCount()
			if n != tc.wantTotal || ok != tc.wantTotalOK {
				t.Errorf("TotalCount() = %d, %v; want %d, %v", n, ok, tc.wantTotal, tc.wantTotalOK)
			}
			if resp.Attempts != 1 || resp.StatusCode != 200 {
				t.Errorf("Attempts=%d StatusCode=%d", resp.Attempts, resp.StatusCode)
			}
		})
	}
}

// The clamp hazard: the caller asks for 50, the instance serves 20 a page
// and its Link still echoes limit=50. The walk follows Link, never counts
// items, so it neither stops at the first short page nor skips any.
func TestPaginationClampHazard(t *testing.T) {
	const total, served = 120, 20
	handler := func(w http.ResponseWriter, r *http.Request) {
		page := pgPage(t, r)
		if got := r.URL.Query().Get("limit"); got != "50" {
			t.Errorf("page %d asked with limit %q, want 50 on every page", page, got)
		}
		last := (total + served - 1) / served
		from := (page-1)*served + 1
		to := min(page*served, total)
		links := []string{pgLink(r, "50", last, "last")}
		if page < last {
			links = append([]string{pgLink(r, "50", page+1, "next")}, links...)
		}
		if page > 1 {
			links = append(links, pgLink(r, "50", 1, "first"), pgLink(r, "50", page-1, "prev"))
		}
		w.Header().Set("Link", strings.Join(links, ","))
		w.Header().Set("X-Total-Count", strconv.Itoa(total))
		if from > total {
			w.Write([]byte("[]"))
			return
		}
		w.Write([]byte(pgIssues(from, to)))
	}
	wantQueries := []string{
		"state=open&page=1&limit=50", "state=open&page=2&limit=50", "state=open&page=3&limit=50",
		"state=open&page=4&limit=50", "state=open&page=5&limit=50", "state=open&page=6&limit=50",
	}

	t.Run("Iter", func(t *testing.T) {
		c, rec := pgServer(t, handler)
		var got []*Issue
		for is, err := range c.Issues.ListIter(context.Background(), "o", "r", &IssueListOptions{State: "open", ListOptions: ListOptions{Limit: 50}}) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, is)
		}
		if !slices.Equal(pgNumbers(got), pgSeq(1, total)) {
			t.Errorf("numbers = %v, want 1..%d once each in order", pgNumbers(got), total)
		}
		if q := rec.all(); !slices.Equal(q, wantQueries) {
			t.Errorf("queries = %q\nwant %q", q, wantQueries)
		}
	})

	t.Run("Collect", func(t *testing.T) {
		c, rec := pgServer(t, handler)
		got, err := Collect(context.Background(), ListOptions{Limit: 50}, func(ctx context.Context, o ListOptions) ([]*Issue, *Response, error) {
			return c.Issues.List(ctx, "o", "r", &IssueListOptions{State: "open", ListOptions: o})
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != total || !slices.Equal(pgNumbers(got), pgSeq(1, total)) {
			t.Errorf("Collect returned %d items %v, want 1..%d", len(got), pgNumbers(got), total)
		}
		if n := rec.count(); n != 6 {
			t.Errorf("%d requests, want 6", n)
		}
	})
}

// Listings that send X-Total-Count but no Link (forks, labels, comments,
// and topics) continue while the items seen are fewer than the total and
// the last page was not empty.
func TestWalkPagesWithoutLink(t *testing.T) {
	tests := []struct {
		name         string
		total        string // X-Total-Count sent; "" for none
		exist        int    // topics that really exist
		perPage      int    // the instance's page size
		ignorePaging bool   // answers the full list whatever page says
		limit        int
		wantItems    int
		wantQueries  []string
	}{
		{
			name: "total 45 in pages of 20", total: "45", exist: 45, perPage: 20, limit: 20, wantItems: 45,
			wantQueries: []string{"page=1&limit=20", "page=2&limit=20", "page=3&limit=20"},
		},
		{
			name: "clamped to 20 while 50 asked, total 45", total: "45", exist: 45, perPage: 20, limit: 50, wantItems: 45,
			wantQueries: []string{"page=1&limit=50", "page=2&limit=50", "page=3&limit=50"},
		},
		{
			name: "exact multiple: total 40 in pages of 20", total: "40", exist: 40, perPage: 20, limit: 20, wantItems: 40,
			wantQueries: []string{"page=1&limit=20", "page=2&limit=20"},
		},
		{
			name: "ignores paging, full list every time", total: "5", exist: 5, perPage: 100, ignorePaging: true, limit: 2, wantItems: 5,
			wantQueries: []string{"page=1&limit=2"},
		},
		{
			name: "total larger than reality stops on the empty page", total: "50", exist: 40, perPage: 20, limit: 20, wantItems: 40,
			wantQueries: []string{"page=1&limit=20", "page=2&limit=20", "page=3&limit=20"},
		},
		{
			name: "no total and no Link: one page only", total: "", exist: 45, perPage: 20, limit: 20, wantItems: 20,
			wantQueries: []string{"page=1&limit=20"},
		},
		{
			name: "unreadable total: one page only", total: "n/a", exist: 45, perPage: 20, limit: 20, wantItems: 20,
			wantQueries: []string{"page=1&limit=20"},
		},
		{
			name: "total 0 with an empty page", total: "0", exist: 0, perPage: 20, limit: 20, wantItems: 0,
			wantQueries: []string{"page=1&limit=20"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			names := make([]string, tc.exist)
			for i := range names {
				names[i] = fmt.Sprintf("topic-%03d", i+1)
			}
			c, rec := pgServer(t, func(w http.ResponseWriter, r *http.Request) {
				page := pgPage(t, r)
				part := names
				if !tc.ignorePaging {
					from := min((page-1)*tc.perPage, len(names))
					part = names[from:min(from+tc.perPage, len(names))]
				}
				if tc.total != "" {
					w.Header().Set("X-Total-Count", tc.total)
				}
				fmt.Fprintf(w, `{"topics":[%s]}`, pgQuoted(part))
			})
			var got []string
			for name, err := range c.Repos.ListTopicsIter(context.Background(), "forgejo", "forgejo", &ListOptions{Limit: tc.limit}) {
				if err != nil {
					t.Fatalf("after %d items: %v", len(got), err)
				}
				got = append(got, name)
			}
			if want := names[:tc.wantItems]; !slices.Equal(got, want) {
				t.Errorf("got %d items %v, want %d", len(got), got, len(want))
			}
			if q := rec.all(); !slices.Equal(q, tc.wantQueries) {
				t.Errorf("queries = %q, want %q", q, tc.wantQueries)
			}
		})
	}
}

func pgQuoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ",")
}

// Past the end Forgejo answers 200 [] and may still offer next: the walk
// stops there, without an error.
func TestWalkStopsOnEmptyPageDespiteNext(t *testing.T) {
	c, rec := pgServer(t, func(w http.ResponseWriter, r *http.Request) {
		page := pgPage(t, r)
		w.Header().Set("Link", pgLink(r, "2", page+1, "next")+","+pgLink(r, "2", 1, "first"))
		w.Header().Set("X-Total-Count", "1000")
		if page == 1 {
			w.Write([]byte(pgIssues(1, 2)))
			return
		}
		w.Write([]byte("[]"))
	})
	var got []*Issue
	for is, err := range c.Issues.ListIter(context.Background(), "o", "r", &IssueListOptions{ListOptions: ListOptions{Limit: 2}}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, is)
	}
	if !slices.Equal(pgNumbers(got), []int64{1, 2}) {
		t.Errorf("numbers = %v, want [1 2]", pgNumbers(got))
	}
	if n := rec.count(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

// A walk never returns a short result as complete: reaching MaxPages, or a
// next link it cannot follow, is a *WalkTruncatedError.
func TestWalkTruncated(t *testing.T) {
	ctx := context.Background()

	// pgForever always offers the following page.
	pgForever := func(calls *int) PageFunc[int] {
		return func(_ context.Context, o ListOptions) ([]int, *Response, error) {
			*calls++
			if o.Limit != 7 {
				return nil, nil, fmt.Errorf("page %d fetched with limit %d, want 7", o.Page, o.Limit)
			}
			return []int{o.Page}, pgLinkResponse(pgNextLink(o.Page + 1)), nil
		}
	}

	t.Run("MaxPages reached while next is offered", func(t *testing.T) {
		for _, start := range []int{0, 1, 5} {
			calls, items := 0, 0
			err := WalkPages(ctx, ListOptions{Page: start, Limit: 7}, pgForever(&calls), func(page []int, _ *Response) error {
				items += len(page)
				return nil
			})
			var wt *WalkTruncatedError
			if !errors.As(err, &wt) {
				t.Fatalf("start %d: err = %v (%T), want *WalkTruncatedError", start, err, err)
			}
			first := max(start, 1)
			if wt.PagesVisited != MaxPages || wt.ResumeFrom != (ListOptions{Page: first + MaxPages, Limit: 7}) {
				t.Errorf("start %d: PagesVisited=%d ResumeFrom=%+v; want %d and {%d 7}", start, wt.PagesVisited, wt.ResumeFrom, MaxPages, first+MaxPages)
			}
			if calls != MaxPages || items != MaxPages {
				t.Errorf("start %d: %d fetches, %d items; want %d each", start, calls, items, MaxPages)
			}
			if wt.Reason == "" || !strings.Contains(wt.Error(), strconv.Itoa(first+MaxPages)) {
				t.Errorf("error %q should give a reason and the resume page", wt.Error())
			}
		}
	})

	t.Run("All ends with the truncation error after MaxPages items", func(t *testing.T) {
		calls, n := 0, 0
		var last error
		for v, err := range All(ctx, ListOptions{Limit: 7}, pgForever(&calls)) {
			if err != nil {
				last = err
				continue
			}
			n++
			if v != n {
				t.Fatalf("item %d is page %d", n, v)
			}
		}
		var wt *WalkTruncatedError
		if !errors.As(last, &wt) || n != MaxPages || calls != MaxPages {
			t.Errorf("All: %d items, %d fetches, final err %v; want %d, %d, *WalkTruncatedError", n, calls, last, MaxPages, MaxPages)
		}
	})

	t.Run("Collect keeps the items and returns the truncation", func(t *testing.T) {
		calls := 0
		items, err := Collect(ctx, ListOptions{Limit: 7}, pgForever(&calls))
		var wt *WalkTruncatedError
		if !errors.As(err, &wt) || len(items) != MaxPages || items[MaxPages-1] != MaxPages {
			t.Errorf("Collect: %d items, err %v", len(items), err)
		}
	})

	t.Run("the MaxPages-th page offers no next: success", func(t *testing.T) {
		calls := 0
		items, err := Collect(ctx, ListOptions{Limit: 7}, func(_ context.Context, o ListOptions) ([]int, *Response, error) {
			calls++
			link := pgNextLink(o.Page+1) + `, <https://h/x?page=1>; rel="first"`
			if o.Page == MaxPages {
				link = `<https://h/x?page=1>; rel="first", <https://h/x?page=9999>; rel="prev"`
			}
			return []int{o.Page}, pgLinkResponse(link), nil
		})
		if err != nil {
			t.Fatalf("err = %v, want nil", err)
		}
		if calls != MaxPages || len(items) != MaxPages {
			t.Errorf("%d fetches, %d items; want %d", calls, len(items), MaxPages)
		}
	})

	bad := []struct {
		name        string
		badAt       int    // the page that carries the bad link
		link        string // its Link header
		wantVisited int
	}{
		{"next points at the current page", 1, pgNextLink(1), 1},
		{"next points backwards", 3, pgNextLink(2), 3},
		{"next without a page", 1, `<https://h/x?limit=7>; rel="next"`, 1},
		{"next with page=0", 2, pgNextLink(0), 2},
		{"next with a non-numeric page", 2, `<https://h/x?page=two&limit=7>; rel="next"`, 2},
		{"next with a negative page", 1, `<https://h/x?page=-4>; rel="next", <https://h/x?page=9>; rel="last"`, 1},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			items, err := Collect(ctx, ListOptions{Limit: 7}, func(_ context.Context, o ListOptions) ([]int, *Response, error) {
				calls++
				if o.Page == tc.badAt {
					return []int{o.Page}, pgLinkResponse(tc.link), nil
				}
				return []int{o.Page}, pgLinkResponse(pgNextLink(o.Page + 1)), nil
			})
			var wt *WalkTruncatedError
			if !errors.As(err, &wt) {
				t.Fatalf("err = %v (%T), want *WalkTruncatedError, never a silent short result", err, err)
			}
			if wt.PagesVisited != tc.wantVisited || wt.ResumeFrom != (ListOptions{Page: tc.badAt + 1, Limit: 7}) {
				t.Errorf("PagesVisited=%d ResumeFrom=%+v; want %d and {%d 7}", wt.PagesVisited, wt.ResumeFrom, tc.wantVisited, tc.badAt+1)
			}
			if calls != tc.wantVisited || len(items) != tc.wantVisited {
				t.Errorf("%d fetches, %d items; want %d (stop immediately)", calls, len(items), tc.wantVisited)
			}
			if wt.Reason == "" {
				t.Error("no Reason")
			}
		})
	}

	t.Run("an empty page ends the walk even with an unusable next", func(t *testing.T) {
		calls := 0
		err := WalkPages(ctx, ListOptions{}, func(_ context.Context, o ListOptions) ([]int, *Response, error) {
			calls++
			return nil, pgLinkResponse(pgNextLink(o.Page)), nil
		}, func([]int, *Response) error { return nil })
		if err != nil || calls != 1 {
			t.Errorf("err = %v after %d fetches; want nil after 1", err, calls)
		}
	})

	t.Run("a nil Response ends the walk", func(t *testing.T) {
		calls := 0
		items, err := Collect(ctx, ListOptions{}, func(_ context.Context, o ListOptions) ([]int, *Response, error) {
			calls++
			return []int{1, 2}, nil, nil
		})
		if err != nil || calls != 1 || len(items) != 2 {
			t.Errorf("err=%v calls=%d items=%d; want nil, 1, 2", err, calls, len(items))
		}
	})
}

// An error on page 3 ends the walk after pages 1 and 2: the iterator yields
// it as the final pair, Collect returns the partial items with it.
func TestWalkErrorOnPage3(t *testing.T) {
	handler := func(w http.ResponseWriter, r *http.Request) {
		page := pgPage(t, r)
		if page == 3 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"message":"boom on page 3","url":"https://codeberg.org/api/swagger"}`))
			return
		}
		if page > 3 {
			t.Errorf("page %d fetched after the error", page)
		}
		w.Header().Set("Link", pgLink(r, "2", page+1, "next"))
		w.Write([]byte(pgIssues(2*page-1, 2*page)))
	}
	check := func(t *testing.T, err error) {
		t.Helper()
		var ae *APIError
		if !errors.As(err, &ae) || ae.StatusCode != 500 || ae.Message != "boom on page 3" {
			t.Fatalf("err = %v (%T), want the page-3 *APIError 500", err, err)
		}
		if !strings.Contains(ae.Call.URL, "page=3") {
			t.Errorf("error URL %q does not name page 3", ae.Call.URL)
		}
	}

	t.Run("Iter", func(t *testing.T) {
		c, rec := pgServer(t, handler)
		var got []*Issue
		var errs []error
		pairs := 0
		for is, err := range c.Issues.ListIter(context.Background(), "o", "r", &IssueListOptions{ListOptions: ListOptions{Limit: 2}}) {
			pairs++
			if err != nil {
				if is != nil {
					t.Errorf("error pair carries item %v", is)
				}
				errs = append(errs, err)
				continue
			}
			if len(errs) > 0 {
				t.Errorf("item %d yielded after the error", is.Number)
			}
			got = append(got, is)
		}
		if !slices.Equal(pgNumbers(got), []int64{1, 2, 3, 4}) {
			t.Errorf("items = %v, want pages 1-2: [1 2 3 4]", pgNumbers(got))
		}
		if pairs != 5 || len(errs) != 1 {
			t.Fatalf("%d pairs, %d errors; want 4 items then exactly one error", pairs, len(errs))
		}
		check(t, errs[0])
		if n := rec.count(); n != 3 {
			t.Errorf("%d requests, want 3", n)
		}
	})

	t.Run("Collect", func(t *testing.T) {
		c, rec := pgServer(t, handler)
		got, err := Collect(context.Background(), ListOptions{Limit: 2}, func(ctx context.Context, o ListOptions) ([]*Issue, *Response, error) {
			return c.Issues.List(ctx, "o", "r", &IssueListOptions{ListOptions: o})
		})
		check(t, err)
		if !slices.Equal(pgNumbers(got), []int64{1, 2, 3, 4}) {
			t.Errorf("partial items = %v, want [1 2 3 4]", pgNumbers(got))
		}
		if n := rec.count(); n != 3 {
			t.Errorf("%d requests, want 3", n)
		}
	})

	t.Run("WalkPages visit sees pages 1 and 2 with their Response", func(t *testing.T) {
		c, _ := pgServer(t, handler)
		var nexts []int
		err := WalkPages(context.Background(), ListOptions{Limit: 2}, func(ctx context.Context, o ListOptions) ([]*Issue, *Response, error) {
			return c.Issues.List(ctx, "o", "r", &IssueListOptions{ListOptions: o})
		}, func(items []*Issue, resp *Response) error {
			nexts = append(nexts, resp.NextPage)
			return nil
		})
		check(t, err)
		if !slices.Equal(nexts, []int{2, 3}) {
			t.Errorf("visit saw NextPage %v, want [2 3]", nexts)
		}
	})
}

// Breaking out of the loop stops fetching; a visit error stops the walk
// and is returned as is.
func TestWalkStopsEarly(t *testing.T) {
	handler := func(w http.ResponseWriter, r *http.Request) {
		page := pgPage(t, r)
		w.Header().Set("Link", pgLink(r, "2", page+1, "next")+","+pgLink(r, "2", 50, "last"))
		w.Write([]byte(pgIssues(2*page-1, 2*page)))
	}
	for _, tc := range []struct {
		breakAfter   int
		wantRequests int
	}{{1, 1}, {2, 1}, {3, 2}, {4, 2}, {7, 4}} {
		t.Run(fmt.Sprintf("break after %d items", tc.breakAfter), func(t *testing.T) {
			c, rec := pgServer(t, handler)
			var got []*Issue
			for is, err := range c.Issues.ListIter(context.Background(), "o", "r", &IssueListOptions{ListOptions: ListOptions{Limit: 2}}) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, is)
				if len(got) == tc.breakAfter {
					break
				}
			}
			if !slices.Equal(pgNumbers(got), pgSeq(1, int64(tc.breakAfter))) {
				t.Errorf("items = %v", pgNumbers(got))
			}
			if n := rec.count(); n != tc.wantRequests {
				t.Errorf("%d requests, want %d", n, tc.wantRequests)
			}
		})
	}

	t.Run("visit error", func(t *testing.T) {
		c, rec := pgServer(t, handler)
		stop := errors.New("enough")
		pages := 0
		err := WalkPages(context.Background(), ListOptions{Limit: 2}, func(ctx context.Context, o ListOptions) ([]*Issue, *Response, error) {
			return c.Issues.List(ctx, "o", "r", &IssueListOptions{ListOptions: o})
		}, func(items []*Issue, _ *Response) error {
			pages++
			if pages == 2 {
				return stop
			}
			return nil
		})
		if err != stop {
			t.Errorf("err = %v, want the visit's error itself", err)
		}
		if n := rec.count(); n != 2 {
			t.Errorf("%d requests, want 2", n)
		}
	})
}

// Canceling the caller's context mid-walk ends the walk with an error that
// is context.Canceled.
func TestWalkContextCanceled(t *testing.T) {
	t.Run("canceled between pages", func(t *testing.T) {
		c, rec := pgServer(t, func(w http.ResponseWriter, r *http.Request) {
			page := pgPage(t, r)
			w.Header().Set("Link", pgLink(r, "2", page+1, "next"))
			w.Write([]byte(pgIssues(2*page-1, 2*page)))
		})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var got []*Issue
		var final error
		for is, err := range c.Issues.ListIter(ctx, "o", "r", &IssueListOptions{ListOptions: ListOptions{Limit: 2}}) {
			if err != nil {
				final = err
				continue
			}
			got = append(got, is)
			if len(got) == 2 {
				cancel() // consumed page 1, then give up
			}
		}
		if !errors.Is(final, context.Canceled) {
			t.Fatalf("final err = %v (%T), want errors.Is context.Canceled", final, final)
		}
		var te *TransportError
		if !errors.As(final, &te) || te.Kind != TransportCanceled {
			t.Errorf("err = %#v, want *TransportError of kind TransportCanceled", final)
		}
		if len(got) != 2 || rec.count() > 1 {
			t.Errorf("%d items, %d requests; want 2 items from 1 request", len(got), rec.count())
		}
	})

	t.Run("canceled while page 2 is in flight", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c, rec := pgServer(t, func(w http.ResponseWriter, r *http.Request) {
			page := pgPage(t, r)
			if page == 2 {
				cancel()
				select {
				case <-r.Context().Done(): // the client hung up
				case <-time.After(10 * time.Second): // safety net only; never reached when the client behaves
					t.Error("client did not abandon the request after cancel")
				}
				return
			}
			w.Header().Set("Link", pgLink(r, "2", page+1, "next"))
			w.Write([]byte(pgIssues(1, 2)))
		})
		items, err := Collect(ctx, ListOptions{Limit: 2}, func(ctx context.Context, o ListOptions) ([]*Issue, *Response, error) {
			return c.Issues.List(ctx, "o", "r", &IssueListOptions{ListOptions: o})
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v (%T), want errors.Is context.Canceled", err, err)
		}
		if len(items) != 2 || rec.count() != 2 {
			t.Errorf("%d items, %d requests; want 2 partial items, 2 requests", len(items), rec.count())
		}
	})
}

// Page sizes past Codeberg's 50 reach the server as asked: the instance
// clamps, not the client.
func TestPageSizesReachTheServer(t *testing.T) {
	for _, n := range []int{100, 1000} {
		var got string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got = r.URL.Query().Get("limit")
			w.Write([]byte(`[]`))
		}))
		c, err := NewClient(WithBaseURL(srv.URL), WithPageSize(n))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Issues.List(context.Background(), "o", "r", nil); err != nil || got != strconv.Itoa(n) {
			t.Errorf("WithPageSize(%d): the server saw limit=%q (err %v)", n, got, err)
		}
		if _, _, err := c.Issues.List(context.Background(), "o", "r", &IssueListOptions{ListOptions: ListOptions{Limit: n}}); err != nil || got != strconv.Itoa(n) {
			t.Errorf("Limit %d: the server saw limit=%q (err %v)", n, got, err)
		}
		srv.Close()
	}
}
