package main

import (
	"errors"
	"fmt"

	forgejo "codeberg.org/forgego/forgejo"
	"github.com/spf13/cobra"
)

// pageAsk is the page size a listing asks for. It is above Codeberg's
// maximum (50) on purpose: an instance serves at most its
// max_response_items and says so only by serving fewer, so asking more
// costs nothing there and saves requests on instances that allow more.
const pageAsk = 100

// listFlags are the flags of every listing command.
type listFlags struct {
	limit int
	all   bool
}

func (l *listFlags) register(cmd *cobra.Command, noun string) {
	cmd.Flags().IntVarP(&l.limit, "limit", "L", 30, "list at most `N` "+noun)
	cmd.Flags().BoolVar(&l.all, "all", false, "list every one of the "+noun+" (walks every page)")
}

func (l *listFlags) check(cmd *cobra.Command) error {
	switch {
	case l.all && cmd.Flags().Changed("limit"):
		return usagef("--limit and --all cannot be used together")
	case l.limit < 1:
		return usagef("--limit must be at least 1, not %d", l.limit)
	}
	return nil
}

// errEnough stops a walk once --limit items are in.
var errEnough = errors.New("enough items")

// listing is what collect found: the items and, when the instance said,
// how many there are in all (-1 when it did not).
type listing[T any] struct {
	items []T
	total int
}

// collect walks a listing's pages until --limit items are in (or every
// page, with --all), drawing the progress line and, with -v, saying when
// the instance served smaller pages than asked.
func collect[T any](a *app, noun string, lf listFlags, fetch forgejo.PageFunc[T]) (listing[T], error) {
	ask := pageAsk
	if !lf.all {
		ask = min(lf.limit, pageAsk)
	}
	return collectFrom(a, noun, lf, forgejo.ListOptions{Limit: ask}, fetch)
}

// collectWhere is collect of the items keep accepts (a filter the
// instance has not, such as merged pull requests): --limit counts those,
// and the instance's total, which counts them all, is dropped.
func collectWhere[T any](a *app, noun string, lf listFlags, fetch forgejo.PageFunc[T], keep func(T) bool) (listing[T], error) {
	start := forgejo.ListOptions{Limit: pageAsk}
	return collectFromWhere(a, noun, lf, start, fetch, keep)
}

// collectFrom is collect from a given page and page size.
func collectFrom[T any](a *app, noun string, lf listFlags, start forgejo.ListOptions, fetch forgejo.PageFunc[T]) (listing[T], error) {
	return collectFromWhere(a, noun, lf, start, fetch, nil)
}

func collectFromWhere[T any](a *app, noun string, lf listFlags, start forgejo.ListOptions, fetch forgejo.PageFunc[T], keep func(T) bool) (listing[T], error) {
	out := listing[T]{total: -1}
	ask := start.Limit
	prog := a.progress()
	first := true
	err := forgejo.WalkPages(a.ctx, start, fetch, func(page []T, resp *forgejo.Response) error {
		if n, ok := resp.TotalCount(); ok && out.total < 0 {
			out.total = n
		}
		if first {
			first = false
			more := resp.NextPage > 0 || out.total > len(page)
			if len(page) < ask && more {
				a.verbosef("~ the instance clamped the page size: asked for %d %s, served %d; following its pages\n", ask, noun, len(page))
			}
		}
		for _, it := range page {
			if !lf.all && len(out.items) >= lf.limit {
				return errEnough
			}
			if keep == nil || keep(it) {
				out.items = append(out.items, it)
			}
		}
		if keep != nil {
			out.total = -1
		}
		if out.total >= 0 {
			prog.set("fetched %d of %d %s…", len(out.items), out.total, noun)
		} else {
			prog.set("fetched %d %s…", len(out.items), noun)
		}
		if !lf.all && len(out.items) >= lf.limit {
			return errEnough
		}
		return nil
	})
	prog.done()
	if err != nil && !errors.Is(err, errEnough) {
		return out, err
	}
	return out, nil
}

// summary prints "showing 30 of 240 open issues in o/r" on stderr, or says
// there are none.
func (a *app) summary(shown, total int, what, where string) {
	if shown == 0 {
		fmt.Fprintf(a.stderr, "no %s in %s\n", what, where)
		return
	}
	if total >= 0 {
		fmt.Fprintf(a.stderr, "showing %d of %d %s in %s\n", shown, total, what, where)
	} else {
		fmt.Fprintf(a.stderr, "showing %d %s in %s\n", shown, what, where)
	}
}

// stateFlag registers --state with its completions.
func stateFlag(cmd *cobra.Command, state *string, noun string) {
	cmd.Flags().StringVarP(state, "state", "s", "open", "list the "+noun+" in this `STATE`: open, closed or all")
	_ = cmd.RegisterFlagCompletionFunc("state", cobra.FixedCompletions([]string{"open", "closed", "all"}, cobra.ShellCompDirectiveNoFileComp))
}

func checkState(state string) error {
	if state != "open" && state != "closed" && state != "all" {
		return usagef("--state must be open, closed or all, not %q", state)
	}
	return nil
}

// stateWhat is "open issues", "closed issues" or "issues".
func stateWhat(state, noun string) string {
	if state == "all" {
		return noun
	}
	return state + " " + noun
}

func noFiles(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveNoFileComp
}
