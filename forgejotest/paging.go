package forgejotest

import (
	"strconv"
	"strings"
)

// pagingMode is how a listing pages, as Forgejo (and Codeberg in front of
// it) does it.
type pagingMode int

const (
	// pageLinked: page and limit, X-Total-Count and a Link header.
	pageLinked pagingMode = iota
	// pageTotalOnly: page and limit and X-Total-Count, but no Link (labels,
	// milestones, topics, pull reviews and commits on Codeberg).
	pageTotalOnly
	// pageLoneLimitAll: as pageTotalOnly, and a request without page gets
	// the whole collection whatever its limit (forks and stargazers on
	// Codeberg: ?limit=2 returned all 862 forks).
	pageLoneLimitAll
	// pageIgnored: page and limit are ignored, everything is returned with
	// X-Total-Count (issue comments).
	pageIgnored
)

// formInt reads an integer query parameter as Forgejo's FormInt does: 0 when
// absent or unreadable.
func (c *call) formInt(name string) int {
	n, err := strconv.Atoi(strings.TrimSpace(c.q.Get(name)))
	if err != nil {
		return 0
	}
	return n
}

// paginate cuts one page out of items and sets the paging headers. The page
// size is the limit asked for, or default_paging_num without one, clamped
// to max_response_items; Link echoes the limit that was asked for, not the
// one applied. Past the end the page is empty (200 []).
func paginate[T any](c *call, items []T, mode pagingMode) []T {
	total := len(items)
	c.header.Set("X-Total-Count", strconv.Itoa(total))
	c.header.Set("Access-Control-Expose-Headers", "X-Total-Count")
	if items == nil {
		items = []T{}
	}
	pageN, limit := c.formInt("page"), c.formInt("limit")
	if mode == pageIgnored || (mode == pageLoneLimitAll && pageN <= 0) {
		return items
	}
	size := limit
	if size <= 0 {
		size = c.s.cfg.pagingNum
	}
	size = min(size, c.s.cfg.maxItems)
	pageN = max(pageN, 1)
	start := min((pageN-1)*size, total)
	out := items[start:min(start+size, total)]
	if mode == pageLinked {
		if links := c.links(total, size, pageN); links != "" {
			c.header.Set("Link", links)
			c.header.Set("Access-Control-Expose-Headers", "Link, X-Total-Count")
		}
	}
	return out
}

// links builds the Link header as Forgejo does: next and last while more
// items follow, first and prev after the first page, the current page
// clamped to the last one (so past the end prev names the last page), each
// URL the request's own with page replaced and the query re-encoded.
func (c *call) links(total, size, page int) string {
	pages := max((total+size-1)/size, 1)
	page = min(page, pages)
	var out []string
	add := func(p int, rel string) {
		q := c.r.URL.Query()
		q.Set("page", strconv.Itoa(p))
		out = append(out, "<"+c.s.URL+c.r.URL.EscapedPath()+"?"+q.Encode()+`>; rel="`+rel+`"`)
	}
	if total > page*size {
		add(page+1, "next")
		add(pages, "last")
	}
	if page != 1 {
		add(1, "first")
		add(page-1, "prev")
	}
	return strings.Join(out, ",")
}
