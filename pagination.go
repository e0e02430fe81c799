package forgejo

import (
	"context"
	"iter"
	"strconv"
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

// PagingKind is how an operation pages, as the operations table says.
type PagingKind int

const (
	// PagingNone: the operation takes no paging parameters.
	PagingNone PagingKind = iota
	// PagingPageLimit: page and limit, always sent together.
	PagingPageLimit
	// PagingPageOnly: page alone; the instance picks the size
	// (repoGetWikiPageRevisions).
	PagingPageOnly
	// PagingPagePerPage: page and per_page (GetTree ignores limit).
	PagingPagePerPage
)

// String names the kind as the operations table does.
func (k PagingKind) String() string {
	switch k {
	case PagingPageLimit:
		return "page+limit"
	case PagingPageOnly:
		return "page"
	case PagingPagePerPage:
		return "page+per_page"
	default:
		return "none"
	}
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

// WalkPages fetches the pages of a listing in order, one request at a time,
// starting at start, and calls visit with each page before fetching the
// next. It stops when the instance offers no next page, on an empty page, or
// at the first error (from fetch or visit), which it returns.
//
// The next page comes from the Link header. For listings that send
// X-Total-Count but no Link at all (forks, stargazers, labels, milestones,
// issue comments, pull request reviews, commits and files), it continues
// while the items seen are fewer than the total and the last page was not
// empty. A walk that reaches [MaxPages], or that is offered a next page it
// cannot follow, fails with a [*WalkTruncatedError].
func WalkPages[T any](ctx context.Context, start ListOptions, fetch PageFunc[T], visit func(items []T, resp *Response) error) error {
	if start.Page < 0 {
		return &ValidationError{Field: "page", Message: "must not be negative"}
	}
	page := start
	page.Page = max(page.Page, 1)
	seen := 0
	for visited := 1; ; visited++ {
		items, resp, err := fetch(ctx, page)
		if err != nil {
			return err
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
// [WalkPages] does; one request is in flight at a time and the next page is
// fetched only once the current one has been consumed. An error ends the
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
