package cmdutil

import (
	"context"
	"errors"
	"fmt"

	forgejo "codeberg.org/forgego/forgejo"
	"github.com/spf13/cobra"
)

// PageAsk is the page size a listing asks for. It is above Codeberg's
// maximum (50) on purpose: an instance serves at most its
// max_response_items and says so only by serving fewer, so asking more
// costs nothing there and saves requests on instances that allow more.
const PageAsk = 100

// ListFlags are the flags of every listing command.
type ListFlags struct {
	Limit int
	All   bool
	// limitSet is whether --limit was given.
	limitSet func() bool
}

// AddListFlags gives cmd --limit and --all.
func AddListFlags(cmd *cobra.Command, l *ListFlags, noun string) {
	cmd.Flags().IntVarP(&l.Limit, "limit", "L", 30, "list at most `N` "+noun)
	cmd.Flags().BoolVar(&l.All, "all", false, "list every one of the "+noun+" (walks every page)")
	l.limitSet = func() bool { return cmd.Flags().Changed("limit") }
}

// Check refuses --limit with --all, and a limit below 1.
func (l *ListFlags) Check() error {
	switch {
	case l.All && l.limitSet != nil && l.limitSet():
		return Usagef("--limit and --all cannot be used together")
	case l.Limit < 1:
		return Usagef("--limit must be at least 1, not %d", l.Limit)
	}
	return nil
}

// errEnough stops a walk once --limit items are in.
var errEnough = errors.New("enough items")

// Listing is what Collect found: the items and, when the instance said,
// how many there are in all (-1 when it did not).
type Listing[T any] struct {
	Items []T
	Total int
}

// Collect is the one walk of a listing's pages: until --limit items are in
// (or every page, with --all), from start (the first page, PageAsk a page,
// when start is the zero value) and of the items keep accepts (all, when
// keep is nil: a filter the instance has not, such as merged pull
// requests; --limit counts those, and the instance's total, which counts
// them all, is dropped). It draws the progress line and, with -v, says
// when the instance served smaller pages than asked.
func Collect[T any](ctx context.Context, f *Factory, noun string, lf ListFlags, fetch forgejo.PageFunc[T], opts ...CollectOption[T]) (Listing[T], error) {
	var c collectConfig[T]
	for _, o := range opts {
		o(&c)
	}
	start := c.start
	if start.Limit == 0 {
		start.Limit = PageAsk
		if !lf.All && c.keep == nil {
			start.Limit = min(lf.Limit, PageAsk)
		}
	}
	keep := c.keep
	out := Listing[T]{Total: -1}
	ask := start.Limit
	prog := f.Progress()
	first := true
	err := forgejo.WalkPages(ctx, start, fetch, func(page []T, resp *forgejo.Response) error {
		if n, ok := resp.TotalCount(); ok && out.Total < 0 {
			out.Total = n
		}
		if first {
			first = false
			more := resp.NextPage > 0 || out.Total > len(page)
			if len(page) < ask && more {
				f.IOStreams.Verbosef("~ the instance clamped the page size: asked for %d %s, served %d; following its pages\n", ask, noun, len(page))
			}
		}
		for _, it := range page {
			if !lf.All && len(out.Items) >= lf.Limit {
				return errEnough
			}
			if keep == nil || keep(it) {
				out.Items = append(out.Items, it)
			}
		}
		if keep != nil {
			out.Total = -1
		}
		if out.Total >= 0 {
			prog.Set("fetched %d of %d %s…", len(out.Items), out.Total, noun)
		} else {
			prog.Set("fetched %d %s…", len(out.Items), noun)
		}
		if !lf.All && len(out.Items) >= lf.Limit {
			return errEnough
		}
		return nil
	})
	prog.Done()
	if err != nil && !errors.Is(err, errEnough) {
		return out, err
	}
	return out, nil
}

// CollectOption adjusts a Collect.
type CollectOption[T any] func(*collectConfig[T])

type collectConfig[T any] struct {
	start forgejo.ListOptions
	keep  func(T) bool
}

// Where keeps only the items keep accepts.
func Where[T any](keep func(T) bool) CollectOption[T] {
	return func(c *collectConfig[T]) { c.keep = keep }
}

// From starts at a given page and page size.
func From[T any](start forgejo.ListOptions) CollectOption[T] {
	return func(c *collectConfig[T]) { c.start = start }
}

// All is the ListFlags of a walk of every page (a lookup, not a listing).
var All = ListFlags{All: true}

// Summary prints "showing 30 of 240 open issues in o/r" on stderr, or says
// there are none.
func Summary(f *Factory, shown, total int, what, where string) {
	w := f.IOStreams.ErrOut
	if shown == 0 {
		fmt.Fprintf(w, "no %s in %s\n", what, where)
		return
	}
	if total >= 0 {
		fmt.Fprintf(w, "showing %d of %d %s in %s\n", shown, total, what, where)
	} else {
		fmt.Fprintf(w, "showing %d %s in %s\n", shown, what, where)
	}
}

// AddStateFlag gives cmd --state with its completions.
func AddStateFlag(cmd *cobra.Command, state *string, noun string) {
	cmd.Flags().StringVarP(state, "state", "s", "open", "list the "+noun+" in this `STATE`: open, closed or all")
	_ = cmd.RegisterFlagCompletionFunc("state", cobra.FixedCompletions([]string{"open", "closed", "all"}, cobra.ShellCompDirectiveNoFileComp))
}

// CheckState refuses a --state other than open, closed or all.
func CheckState(state string) error {
	if state != "open" && state != "closed" && state != "all" {
		return Usagef("--state must be open, closed or all, not %q", state)
	}
	return nil
}

// StateWhat is "open issues", "closed issues" or "issues".
func StateWhat(state, noun string) string {
	if state == "all" {
		return noun
	}
	return state + " " + noun
}

// NoFiles completes no file names.
func NoFiles(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveNoFileComp
}
