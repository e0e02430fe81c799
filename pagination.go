package forgejo

import (
	"context"
	"iter"
	"strconv"
	"sync"
)

// MaxPages bounds every page walk: 10 000 pages of 50 is 500 000 items.
// Reaching it while a next page is still offered fails the walk with a
// [*WalkTruncatedError]; it never returns a short result as complete.
const MaxPages = 10_000

// ListOptions selects one page of a listing.
type ListOptions struct {
	// Page is 1-based; 0 means the first page.
	Page int
	// Limit is the page size, any positive number; 0 means the client's
	// page size ([WithPageSize]). The largest page is each instance's
	// setting (max_response_items: 50 on Codeberg), and the instance clamps
	// a larger Limit without saying so, which is why walks follow Link
	// rather than counting items.
	Limit int
}

// appendPaging renders the paging query of one page after the operation's
// own filters: page and limit together, always, in that order, because
// Forgejo ignores a lone limit and returns everything (862 forks in one
// response). This is the one place paging parameters are rendered.
func (c *Client) appendPaging(q []queryParam, kind PagingKind, opts ListOptions) ([]queryParam, error) {
	if kind == PagingNone {
		return q, nil
	}
	if opts.Page < 0 {
		return nil, &ValidationError{Field: "page", Message: "must not be negative"}
	}
	page := max(opts.Page, 1)
	q = append(q, queryParam{"page", strconv.Itoa(page)})
	if kind == PagingPageOnly {
		return q, nil
	}
	limit := opts.Limit
	if limit == 0 {
		limit = c.pageSize
	} else if err := checkPageSize("limit", limit); err != nil {
		return nil, err
	}
	name := "limit"
	if kind == PagingPagePerPage {
		name = "per_page"
	}
	return append(q, queryParam{name, strconv.Itoa(limit)}), nil
}

// checkPageSize accepts any positive page size: the maximum is each
// instance's own setting, which it applies itself.
func checkPageSize(field string, n int) error {
	if n < 1 {
		return &ValidationError{Field: field, Message: "must be positive"}
	}
	return nil
}

// PageFunc fetches one page of a listing. Every generated listing method
// fits it once its other arguments are bound, for example:
//
//	func(ctx context.Context, o forgejo.ListOptions) ([]*forgejo.Issue, *forgejo.Response, error) {
//		return client.Issues.List(ctx, "forgejo", "forgejo", &forgejo.IssueListOptions{ListOptions: o})
//	}
type PageFunc[T any] func(ctx context.Context, opts ListOptions) ([]T, *Response, error)

// WalkPages fetches the pages of a listing in order, starting at start, and
// calls visit with each page before moving to the next. It stops when the
// instance offers no next page, on an empty page, or at the first error
// (from fetch or visit), which it returns.
//
// The next page comes from the Link header. For listings that send
// X-Total-Count but no Link at all (forks, stargazers, labels, milestones,
// issue comments, pull request reviews, commits and files), it continues
// while the items seen are fewer than the total and the last page was not
// empty. A walk that reaches [MaxPages], or that is offered a next page it
// cannot follow, fails with a [*WalkTruncatedError].
//
// One request is in flight at a time, unless the pages come from a client
// made with [WithWalkConcurrency]: then, once the first page tells how many
// pages there are, later pages are fetched ahead, concurrently, while visit
// still sees every page once and in order, and the walk stops, fails and
// truncates exactly where a sequential one would.
func WalkPages[T any](ctx context.Context, start ListOptions, fetch PageFunc[T], visit func(items []T, resp *Response) error) error {
	if start.Page < 0 {
		return &ValidationError{Field: "page", Message: "must not be negative"}
	}
	page := start
	page.Page = max(page.Page, 1)
	ahead := &prefetch[T]{ctx: ctx, fetch: fetch, opts: page}
	defer ahead.stop()
	seen := 0
	for visited := 1; ; visited++ {
		items, resp, err := ahead.get(page.Page)
		if err != nil {
			return err
		}
		if resp != nil && resp.NotModified {
			// A conditional option (IfNoneMatch) on a walk: the page has no
			// items to give, and ending here would pass for the end.
			return &WalkTruncatedError{PagesVisited: visited - 1, ResumeFrom: ListOptions{Page: page.Page, Limit: page.Limit},
				Reason: "the page was answered 304 Not Modified: a walk cannot reuse a copy it does not hold"}
		}
		if visited == 1 {
			ahead.plan(resp, len(items))
		}
		if err := visit(items, resp); err != nil {
			return err
		}
		seen += len(items)
		if len(items) == 0 {
			return nil // past the end Forgejo answers 200 [], sometimes still offering next
		}
		next, truncated := nextPage(resp, page.Page, seen)
		if truncated != "" {
			return &WalkTruncatedError{PagesVisited: visited, ResumeFrom: ListOptions{Page: page.Page + 1, Limit: page.Limit}, Reason: truncated}
		}
		if next == 0 {
			return nil
		}
		if visited >= MaxPages {
			return &WalkTruncatedError{PagesVisited: visited, ResumeFrom: ListOptions{Page: next, Limit: page.Limit}, Reason: "reached MaxPages"}
		}
		page.Page = next
	}
}

// WithWalkConcurrency lets every walk over this client's listings
// ([WalkPages], [All], [Collect] and the …Iter methods) keep up to n pages
// in flight: once the first page says how many pages exist (a rel="last"
// link, or X-Total-Count on the listings without Link), the next n pages are
// fetched concurrently while the current one is consumed. Items still
// arrive in page order, exactly once, and a walk stops, fails and truncates
// where a sequential walk would; a walk whose first page does not tell the
// page count goes one page at a time. Stopping early or cancelling ctx
// stops every fetch. Each fetch is a call like any other: retries, the
// retry budget and rate-limit pacing apply, and a paced walk keeps no more
// requests in flight than the estimated remaining budget.
//
// n = 1 (the default) is the sequential walk. Use more only where the
// instance's fair-use expectations allow it: on a public instance such as
// Codeberg, run by donations, a walk is one user's burst, and a few pages
// in flight are several requests at once. Pages can shift under a walk
// when the listing changes meanwhile, exactly as they can sequentially.
func WithWalkConcurrency(n int) ClientOption {
	return func(c *config) error {
		if n < 1 || n > MaxWalkConcurrency {
			return &ValidationError{Field: "walkConcurrency", Message: "must be in [1, " + strconv.Itoa(MaxWalkConcurrency) + "]"}
		}
		c.walkConcurrency = n
		return nil
	}
}

// MaxWalkConcurrency bounds [WithWalkConcurrency].
const MaxWalkConcurrency = 16

// prefetch fetches the pages of one walk, ahead of it when the client
// allows and the first page gave the page count.
type prefetch[T any] struct {
	ctx    context.Context
	fetch  PageFunc[T]
	opts   ListOptions // the walk's options; Page varies
	client *Client
	n      int // pages in flight at most; 0: none ahead
	last   int // the last page known to exist
	next   int // the next page to launch
	slots  map[int]*pageSlot[T]
	cancel context.CancelFunc
	wctx   context.Context
	wg     sync.WaitGroup
}

// pageSlot is one page fetched ahead.
type pageSlot[T any] struct {
	done  chan struct{}
	items []T
	resp  *Response
	err   error
	panic any
}

// plan reads the first page's answer: the client's concurrency and how
// many pages follow.
func (w *prefetch[T]) plan(resp *Response, firstItems int) {
	if resp == nil || resp.client == nil || resp.client.walkConcurrency < 2 || firstItems == 0 {
		return
	}
	first := w.opts.Page
	last := 0
	switch {
	case resp.hasLink && resp.nextOffered && resp.LastPage > first:
		last = resp.LastPage
	case !resp.hasLink:
		if total, ok := resp.TotalCount(); ok && total > firstItems {
			last = first + (total-firstItems+firstItems-1)/firstItems
		}
	}
	if last <= first {
		return // one page, or no count: sequential
	}
	w.client, w.n = resp.client, resp.client.walkConcurrency
	w.last = min(last, first+MaxPages-1)
	w.next = first + 1
	w.slots = map[int]*pageSlot[T]{}
	w.wctx, w.cancel = context.WithCancel(w.ctx)
	w.fill(first) // while the first page is visited
}

// get returns page p: fetched ahead, or fetched now.
func (w *prefetch[T]) get(p int) ([]T, *Response, error) {
	if w.n == 0 {
		return w.fetch(w.ctx, w.at(p))
	}
	slot, ok := w.slots[p]
	if !ok && p == w.next && p <= w.last {
		// The next page, not launched for want of budget: now.
		w.launch(p)
		w.next++
		slot, ok = w.slots[p], true
	}
	if !ok {
		// Not a page fetched ahead (the walk jumped, or went past the
		// count): drop what was fetched ahead and go on one at a time.
		w.stop()
		w.n = 0
		return w.fetch(w.ctx, w.at(p))
	}
	delete(w.slots, p)
	for q := range w.slots {
		if q < p {
			delete(w.slots, q) // skipped over; its fetch is cancelled at stop
		}
	}
	<-slot.done
	if slot.panic != nil {
		panic(slot.panic)
	}
	w.fill(p) // page p is in: up to n later pages in flight while it is visited
	return slot.items, slot.resp, slot.err
}

// fill launches pages after current: at most n ahead of it, at most n
// fetches running, and, when pacing is on, no more running than the
// estimated budget (counting this walk's running fetches against it even
// when they have already been counted: short of budget, it errs on the
// side of fewer).
func (w *prefetch[T]) fill(current int) {
	if w.next <= current {
		w.next = current + 1
	}
	running := 0
	for _, s := range w.slots {
		select {
		case <-s.done:
		default:
			running++
		}
	}
	allowed := min(w.n, w.client.limits.walkPermits(w.n, w.client.now())) - running
	for ; allowed > 0 && w.next <= w.last && w.next <= current+w.n; allowed-- {
		w.launch(w.next)
		w.next++
	}
}

// launch fetches page p in a goroutine of its own.
func (w *prefetch[T]) launch(p int) {
	slot := &pageSlot[T]{done: make(chan struct{})}
	w.slots[p] = slot
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		defer close(slot.done)
		defer func() {
			if r := recover(); r != nil {
				slot.panic = r // raised again in the walk's goroutine
			}
		}()
		slot.items, slot.resp, slot.err = w.fetch(w.wctx, w.at(p))
	}()
}

func (w *prefetch[T]) at(p int) ListOptions {
	o := w.opts
	o.Page = p
	return o
}

// stop cancels every fetch ahead and waits for them: no goroutine outlives
// the walk.
func (w *prefetch[T]) stop() {
	if w.cancel != nil {
		w.cancel()
		w.wg.Wait()
		w.cancel = nil
	}
	w.slots = nil
}

// nextPage decides where a walk goes after page current: 0 to stop, or a
// reason when the walk must fail rather than stop.
func nextPage(resp *Response, current, seen int) (next int, truncated string) {
	if resp == nil {
		return 0, ""
	}
	if resp.nextOffered {
		switch {
		case resp.NextPage == 0:
			return 0, "the next link carries no readable page number"
		case resp.NextPage <= current:
			return 0, "the next link does not move forward"
		}
		return resp.NextPage, ""
	}
	if !resp.hasLink {
		if total, ok := resp.TotalCount(); ok && seen < total {
			return current + 1, ""
		}
	}
	return 0, ""
}

// All returns an iterator over every item of a listing, walking pages as
// [WalkPages] does: one request in flight at a time, the next page fetched
// only once the current one has been consumed, unless the client allows
// pages ahead ([WithWalkConcurrency]). An error ends the
// iteration as the final pair. Stopping the loop early stops the walk.
func All[T any](ctx context.Context, start ListOptions, fetch PageFunc[T]) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		stopped := false
		err := WalkPages(ctx, start, fetch, func(items []T, _ *Response) error {
			for _, it := range items {
				if !yield(it, nil) {
					stopped = true
					return errStopWalk
				}
			}
			return nil
		})
		if err != nil && !stopped {
			var zero T
			yield(zero, err)
		}
	}
}

// Collect walks a whole listing into memory. On error it returns the items
// gathered so far together with the error; they are not the complete
// listing.
func Collect[T any](ctx context.Context, start ListOptions, fetch PageFunc[T]) ([]T, error) {
	var all []T
	err := WalkPages(ctx, start, fetch, func(items []T, _ *Response) error {
		all = append(all, items...)
		return nil
	})
	return all, err
}

// errStopWalk ends a walk when an iterator's consumer stops early.
var errStopWalk = &ValidationError{Field: "walk", Message: "stopped by the consumer"}
