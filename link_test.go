package forgejo

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// lkIssues is the Codeberg issue listing URL the Link headers measured on
// codeberg.org point at.
const lkIssues = "https://codeberg.org/api/v1/repos/forgejo/forgejo/issues"

// lkCase is one parseLinks vector. The table is package-level so that
// FuzzParseLinks can seed its corpus with it.
type lkCase struct {
	name string
	in   []string
	want pageLinks
}

var lkCases = []lkCase{
	// Shapes measured on codeberg.org.
	{
		name: "codeberg first page: next and last",
		in:   []string{`<` + lkIssues + `?limit=2&page=2>; rel="next",<` + lkIssues + `?limit=2&page=795>; rel="last"`},
		want: pageLinks{next: 2, last: 795, nextOffered: true, any: true},
	},
	{
		name: "codeberg middle page: all four rels",
		in: []string{`<` + lkIssues + `?limit=2&page=6>; rel="next",<` + lkIssues + `?limit=2&page=795>; rel="last",<` +
			lkIssues + `?limit=2&page=1>; rel="first",<` + lkIssues + `?limit=2&page=4>; rel="prev"`},
		want: pageLinks{next: 6, prev: 4, first: 1, last: 795, nextOffered: true, any: true},
	},
	{
		name: "codeberg last page: first and prev only",
		in:   []string{`<` + lkIssues + `?limit=2&page=1>; rel="first",<` + lkIssues + `?limit=2&page=794>; rel="prev"`},
		want: pageLinks{prev: 794, first: 1, any: true},
	},
	{
		name: "codeberg past the end: 200 [] with first and prev",
		in:   []string{`<` + lkIssues + `?limit=1&page=1>; rel="first",<` + lkIssues + `?limit=1&page=99998>; rel="prev"`},
		want: pageLinks{prev: 99998, first: 1, any: true},
	},
	{
		name: "codeberg clamp: Link echoes limit=500 while last is computed from 50",
		in:   []string{`<` + lkIssues + `?limit=500&page=2>; rel="next",<` + lkIssues + `?limit=500&page=32>; rel="last"`},
		want: pageLinks{next: 2, last: 32, nextOffered: true, any: true},
	},
	{
		name: "codeberg filters before paging in the target",
		in:   []string{`<https://codeberg.org/api/v1/repos/codeberg/Community/issues?limit=3&page=2&state=open>; rel="next",<https://codeberg.org/api/v1/repos/codeberg/Community/issues?limit=3&page=147&state=open>; rel="last"`},
		want: pageLinks{next: 2, last: 147, nextOffered: true, any: true},
	},

	// Header lines and element splitting.
	{
		name: "several header lines are joined",
		in:   []string{`<https://h/x?page=2>; rel="next"`, `<https://h/x?page=9>; rel="last"`, `<https://h/x?page=1>; rel="first"`},
		want: pageLinks{next: 2, first: 1, last: 9, nextOffered: true, any: true},
	},
	{
		name: "a rel on the second line does not override the first line",
		in:   []string{`<https://h/x?page=2>; rel="next"`, `<https://h/x?page=3>; rel="next"`},
		want: pageLinks{next: 2, nextOffered: true, any: true},
	},
	{
		name: "comma inside the target",
		in:   []string{`<https://h/x?labels=a,b,c&page=3>; rel="next", <https://h/x?labels=a,b&page=7>; rel="last"`},
		want: pageLinks{next: 3, last: 7, nextOffered: true, any: true},
	},
	{
		name: "comma inside a quoted parameter",
		in:   []string{`<https://h/x?page=3>; title="a, b, <c>"; rel="next", <https://h/x?page=4>; rel="last"`},
		want: pageLinks{next: 3, last: 4, nextOffered: true, any: true},
	},
	{
		name: "semicolon and rel= inside a quoted parameter",
		in:   []string{`<https://h/x?page=3>; title="a; rel=last"; rel="next"`},
		want: pageLinks{next: 3, nextOffered: true, any: true},
	},
	{
		name: "escaped quote inside a quoted parameter",
		in:   []string{`<https://h/x?page=2>; title="say \", then"; rel="next", <https://h/x?page=5>; rel="last"`},
		want: pageLinks{next: 2, last: 5, nextOffered: true, any: true},
	},
	{
		name: "no space after the comma",
		in:   []string{`<https://h/x?page=2>;rel="next",<https://h/x?page=3>;rel="last"`},
		want: pageLinks{next: 2, last: 3, nextOffered: true, any: true},
	},
	{
		name: "empty elements are skipped",
		in:   []string{` , ,<https://h/x?page=2>; rel="next",, ,`},
		want: pageLinks{next: 2, nextOffered: true, any: true},
	},

	// The rel parameter.
	{
		name: "unquoted rel",
		in:   []string{`<https://h/x?page=2>; rel=next, <https://h/x?page=8>; rel=last`},
		want: pageLinks{next: 2, last: 8, nextOffered: true, any: true},
	},
	{
		name: "several rels in one value",
		in:   []string{`<https://h/x?page=9>; rel="next last"`},
		want: pageLinks{next: 9, last: 9, nextOffered: true, any: true},
	},
	{
		name: "several rels with extra whitespace and spaces around =",
		in:   []string{`<https://h/x?page=1>;  rel = "  first   prev  "`},
		want: pageLinks{prev: 1, first: 1, any: true},
	},
	{
		name: "previous is a synonym of prev",
		in:   []string{`<https://h/x?page=4>; rel="previous"`},
		want: pageLinks{prev: 4, any: true},
	},
	{
		name: "first occurrence wins: next",
		in:   []string{`<https://h/x?page=2>; rel="next", <https://h/x?page=5>; rel="next"`},
		want: pageLinks{next: 2, nextOffered: true, any: true},
	},
	{
		name: "first occurrence wins: previous then prev",
		in:   []string{`<https://h/x?page=3>; rel="previous", <https://h/x?page=4>; rel="prev"`},
		want: pageLinks{prev: 3, any: true},
	},
	{
		name: "first occurrence wins even when its page is unreadable",
		in:   []string{`<https://h/x?limit=2>; rel="next", <https://h/x?page=5>; rel="next"`},
		want: pageLinks{nextOffered: true, any: true},
	},
	{
		name: "only the first rel parameter of an element counts",
		in:   []string{`<https://h/x?page=2>; rel="last"; rel="next"`},
		want: pageLinks{last: 2, any: true},
	},
	{
		name: "other parameters before rel",
		in:   []string{`<https://h/x?page=2>; type="application/json"; title=x; rel="next"`},
		want: pageLinks{next: 2, nextOffered: true, any: true},
	},
	{
		name: "rel name and values are case-insensitive",
		in:   []string{`<https://h/x?page=4>; REL="NEXT", <https://h/x?page=2>; Rel="Prev", <https://h/x?page=9>; rEl=LaSt, <https://h/x?page=1>; rel="First"`},
		want: pageLinks{next: 4, prev: 2, first: 1, last: 9, nextOffered: true, any: true},
	},
	{
		name: "unknown rels are readable links but offer no page",
		in:   []string{`<https://h/x?page=2>; rel="alternate nofollow"`},
		want: pageLinks{any: true},
	},
	{
		name: "rev and xrel are not rel",
		in:   []string{`<https://h/x?page=2>; rev="next"; xrel="next"`},
		want: pageLinks{},
	},

	// Malformed elements are skipped without failing.
	{name: "nil", in: nil, want: pageLinks{}},
	{name: "one blank line", in: []string{""}, want: pageLinks{}},
	{name: "whitespace only", in: []string{"  \t "}, want: pageLinks{}},
	// A next that is offered but cannot be read is still offered (with no
	// page), so that a walk fails instead of ending short.
	{name: "no angle brackets", in: []string{`https://h/x?page=2; rel="next"`}, want: pageLinks{nextOffered: true}},
	{name: "empty target", in: []string{`<>; rel="next"`}, want: pageLinks{nextOffered: true}},
	{name: "blank target", in: []string{`<   >; rel="next"`}, want: pageLinks{nextOffered: true}},
	{name: "unclosed target", in: []string{`<https://h/x?page=2; rel="next"`}, want: pageLinks{nextOffered: true}},
	{name: "single-quoted next", in: []string{`<https://h/x?page=2>; rel='next'`}, want: pageLinks{nextOffered: true, any: true}},
	{name: "unquoted next without target", in: []string{`<>; rel=next`}, want: pageLinks{nextOffered: true}},
	{name: "unreadable last is not a next", in: []string{`<>; rel="last"`}, want: pageLinks{}},
	{name: "no rel parameter", in: []string{`<https://h/x?page=2>`}, want: pageLinks{}},
	{name: "rel without a value", in: []string{`<https://h/x?page=2>; rel`}, want: pageLinks{}},
	{name: "title mentioning next is not a rel", in: []string{`<https://h/x?page=2>; title="next"`}, want: pageLinks{}},
	{name: "unterminated quoted rel", in: []string{`<https://h/x?page=2>; rel="next`}, want: pageLinks{nextOffered: true, any: true}},
	{
		name: "malformed element followed by a good one",
		in:   []string{`junk; rel="next", <>; rel="next", <https://h/x?page=3>; rel="last"`},
		want: pageLinks{last: 3, nextOffered: true, any: true},
	},
	{
		name: "a readable next wins over an unreadable one",
		in:   []string{`<>; rel="next", <https://h/x?page=4>; rel="next"`},
		want: pageLinks{next: 4, nextOffered: true, any: true},
	},
	{
		name: "a malformed line does not spoil the next line",
		in:   []string{`<<<>>>;;;,,,"`, `<https://h/x?page=3>; rel="next"`},
		want: pageLinks{next: 3, nextOffered: true, any: true},
	},

	// Page numbers.
	{name: "missing page param", in: []string{`<https://h/x?limit=2>; rel="next"`}, want: pageLinks{nextOffered: true, any: true}},
	{name: "no query at all", in: []string{`<https://h/x>; rel="next"`}, want: pageLinks{nextOffered: true, any: true}},
	{name: "empty query", in: []string{`<https://h/x?>; rel="next"`}, want: pageLinks{nextOffered: true, any: true}},
	{name: "page=0", in: []string{`<https://h/x?page=0>; rel="next"`}, want: pageLinks{nextOffered: true, any: true}},
	{name: "negative page", in: []string{`<https://h/x?page=-3>; rel="next"`}, want: pageLinks{nextOffered: true, any: true}},
	{name: "non-numeric page", in: []string{`<https://h/x?page=two>; rel="next"`}, want: pageLinks{nextOffered: true, any: true}},
	{name: "empty page value", in: []string{`<https://h/x?page=&limit=2>; rel="next"`}, want: pageLinks{nextOffered: true, any: true}},
	{name: "page without =", in: []string{`<https://h/x?page&limit=2>; rel="next"`}, want: pageLinks{nextOffered: true, any: true}},
	{name: "fractional page", in: []string{`<https://h/x?page=1.5>; rel="next"`}, want: pageLinks{nextOffered: true, any: true}},
	{name: "page beyond int", in: []string{`<https://h/x?page=99999999999999999999999>; rel="next"`}, want: pageLinks{nextOffered: true, any: true}},
	{name: "percent-encoded page is not decoded", in: []string{`<https://h/x?page=%32>; rel="next"`}, want: pageLinks{nextOffered: true, any: true}},
	{name: "unreadable page on prev", in: []string{`<https://h/x?page=x>; rel="prev"`}, want: pageLinks{any: true}},
	{name: "page key is case-insensitive", in: []string{`<https://h/x?PAGE=3>; rel="next", <https://h/x?Page=7>; rel="last"`}, want: pageLinks{next: 3, last: 7, nextOffered: true, any: true}},
	{name: "page key and value are trimmed", in: []string{`<https://h/x?limit=2& page = 4 >; rel="next"`}, want: pageLinks{next: 4, nextOffered: true, any: true}},
	{name: "target is trimmed", in: []string{`<  https://h/x?page=2  >; rel="next"`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "page is not matched as a prefix or suffix", in: []string{`<https://h/x?pages=9&per_page=50&xpage=8&page=2>; rel="next"`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "first page param wins", in: []string{`<https://h/x?page=2&page=5>; rel="next"`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "relative target", in: []string{`</api/v1/repos/o/r/issues?state=open&page=3&limit=50>; rel="next"`}, want: pageLinks{next: 3, nextOffered: true, any: true}},
	{name: "large page number", in: []string{`<https://h/x?page=193825>; rel="last"`}, want: pageLinks{last: 193825, any: true}},

	// Fragments.
	{name: "fragment after page", in: []string{`<https://h/x?page=2#frag>; rel="next"`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "page in the fragment is ignored", in: []string{`<https://h/x?limit=2#page=3>; rel="next"`}, want: pageLinks{nextOffered: true, any: true}},
	{name: "query page wins over a fragment page", in: []string{`<https://h/x?page=2#page=9>; rel="next"`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
}

func TestParseLinks(t *testing.T) {
	for _, tc := range lkCases {
		t.Run(tc.name, func(t *testing.T) {
			got := parseLinks(tc.in)
			if got != tc.want {
				t.Errorf("parseLinks(%q)\n got %+v\nwant %+v", tc.in, got, tc.want)
			}
		})
	}
}

// A '?' inside a fragment does not start a query: the target
// "https://h/x#a?page=3" has no query at all, so it carries no page.
func TestParseLinksQuestionMarkInFragment(t *testing.T) {
	got := parseLinks([]string{`<https://h/x#a?page=3>; rel="next"`})
	want := pageLinks{nextOffered: true, any: true}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// newResponse exposes the parsed Link as the Response's page fields, and
// remembers whether next was offered even when its page is unreadable.
func TestResponseLinkFields(t *testing.T) {
	tests := []struct {
		name                           string
		header                         http.Header
		next, prev, first, last        int
		nextOffered, hasLink, hasTotal bool
		total                          int
	}{
		{
			name: "codeberg middle page",
			header: http.Header{
				"Link": {`<` + lkIssues + `?limit=2&page=6>; rel="next",<` + lkIssues + `?limit=2&page=795>; rel="last",<` +
					lkIssues + `?limit=2&page=1>; rel="first",<` + lkIssues + `?limit=2&page=4>; rel="prev"`},
				"X-Total-Count": {"1590"},
			},
			next: 6, prev: 4, first: 1, last: 795, nextOffered: true, hasLink: true, hasTotal: true, total: 1590,
		},
		{
			name:   "split across two Link lines",
			header: http.Header{"Link": {`<https://h/x?page=3>; rel="next"`, `<https://h/x?page=1>; rel="first"`}},
			next:   3, first: 1, nextOffered: true, hasLink: true,
		},
		{
			name:     "no Link, X-Total-Count only (forks, labels, comments)",
			header:   http.Header{"X-Total-Count": {"862"}},
			hasTotal: true, total: 862,
		},
		{
			name:        "next offered with an unreadable page",
			header:      http.Header{"Link": {`<https://h/x?limit=2>; rel="next"`}},
			nextOffered: true, hasLink: true,
		},
		{
			name:   "nothing at all",
			header: http.Header{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newResponse(&http.Response{StatusCode: 200, Header: tc.header})
			if r.NextPage != tc.next || r.PrevPage != tc.prev || r.FirstPage != tc.first || r.LastPage != tc.last {
				t.Errorf("pages next/prev/first/last = %d/%d/%d/%d, want %d/%d/%d/%d",
					r.NextPage, r.PrevPage, r.FirstPage, r.LastPage, tc.next, tc.prev, tc.first, tc.last)
			}
			if r.nextOffered != tc.nextOffered || r.hasLink != tc.hasLink {
				t.Errorf("nextOffered=%v hasLink=%v, want %v %v", r.nextOffered, r.hasLink, tc.nextOffered, tc.hasLink)
			}
			n, ok := r.TotalCount()
			if ok != tc.hasTotal || n != tc.total {
				t.Errorf("TotalCount() = %d, %v; want %d, %v", n, ok, tc.total, tc.hasTotal)
			}
		})
	}

	t.Run("nil response", func(t *testing.T) {
		var r *Response
		if n, ok := r.TotalCount(); n != 0 || ok {
			t.Errorf("nil TotalCount() = %d, %v; want 0, false", n, ok)
		}
		if got := newResponse(nil); got == nil || got.NextPage != 0 || got.hasLink {
			t.Errorf("newResponse(nil) = %+v; want an empty non-nil Response", got)
		}
	})
}

func TestParseTotalCount(t *testing.T) {
	tests := []struct {
		name   string
		values []string // nil: header absent
		want   int
		wantOK bool
	}{
		{name: "absent", values: nil, want: 0, wantOK: false},
		{name: "blank", values: []string{""}, want: 0, wantOK: false},
		{name: "spaces", values: []string{"   "}, want: 0, wantOK: false},
		{name: "negative", values: []string{"-1"}, want: 0, wantOK: false},
		{name: "non-numeric", values: []string{"many"}, want: 0, wantOK: false},
		{name: "trailing junk", values: []string{"12abc"}, want: 0, wantOK: false},
		{name: "fraction", values: []string{"1.5"}, want: 0, wantOK: false},
		{name: "exponent", values: []string{"1e3"}, want: 0, wantOK: false},
		{name: "hex", values: []string{"0x10"}, want: 0, wantOK: false},
		{name: "huge", values: []string{"99999999999999999999999"}, want: 0, wantOK: false},
		{name: "zero is known", values: []string{"0"}, want: 0, wantOK: true},
		{name: "codeberg 1590", values: []string{"1590"}, want: 1590, wantOK: true},
		{name: "trimmed", values: []string{" \t42 "}, want: 42, wantOK: true},
		{name: "first line wins", values: []string{"7", "9"}, want: 7, wantOK: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			for _, v := range tc.values {
				h.Add("X-Total-Count", v)
			}
			n, ok := parseTotalCount(h)
			if n != tc.want || ok != tc.wantOK {
				t.Errorf("parseTotalCount(%q) = %d, %v; want %d, %v", tc.values, n, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func FuzzParseLinks(f *testing.F) {
	for _, tc := range append(slices.Clip(lkCases), lkExtCases...) {
		a, b := "", ""
		if len(tc.in) > 0 {
			a = tc.in[0]
		}
		if len(tc.in) > 1 {
			b = strings.Join(tc.in[1:], ", ")
		}
		f.Add(a, b)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		pl := parseLinks([]string{a, b})
		if pl.next < 0 || pl.prev < 0 || pl.first < 0 || pl.last < 0 {
			t.Fatalf("negative page in %+v for %q, %q", pl, a, b)
		}
		if pl.next != 0 && !pl.nextOffered {
			t.Fatalf("next page %d without nextOffered for %q, %q", pl.next, a, b)
		}
		if pl.next != 0 && !pl.any {
			t.Fatalf("a next page without any readable link for %q, %q", a, b)
		}
		// rel* may percent-encode its value (RFC 8187): "next" must be
		// there once decoded.
		if pl.nextOffered && !strings.Contains(strings.ToLower(lenientUnescape(a+"\n"+b)), "next") {
			t.Fatalf("nextOffered for input without \"next\": %q, %q", a, b)
		}
		// Parsing is deterministic, and a blank extra line changes nothing.
		if again := parseLinks([]string{a, b}); again != pl {
			t.Fatalf("parseLinks not deterministic: %+v then %+v", pl, again)
		}
		if b == "" {
			if single := parseLinks([]string{a}); single != pl {
				t.Fatalf("a blank second line changed the result: %+v vs %+v", single, pl)
			}
		}
	})
}
