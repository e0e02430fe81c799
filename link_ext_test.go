package forgejo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// The RFC 8187 extended form of rel (rel*=UTF-8''next, RFC
// 8288 §3 and Appendix B.2, where it replaces rel) is read; a malformed
// extended value that mentions next offers a next page it cannot follow,
// so that a walk fails with a *WalkTruncatedError instead of ending with a
// nil error.

const lkT = `<https://h/x?page=2>`

var lkExtCases = []lkCase{
	// Read correctly.
	{name: "ext UTF-8 next", in: []string{lkT + `; rel*=UTF-8''next`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "ext charset is case-insensitive", in: []string{lkT + `; rel*=utf-8''next`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "ext name is case-insensitive", in: []string{lkT + `; REL*=UTF-8''NEXT`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "ext language tag", in: []string{lkT + `; rel*=UTF-8'en'next`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "ext language tag with subtag", in: []string{lkT + `; rel*=UTF-8'en-US'next`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "ext percent-encoded letters", in: []string{lkT + `; rel*=UTF-8''%6Eext`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "ext fully percent-encoded, lower-case hex", in: []string{lkT + `; rel*=UTF-8''%6e%65%78%74`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "ext two relations", in: []string{lkT + `; rel*=UTF-8''last%20next`}, want: pageLinks{next: 2, last: 2, nextOffered: true, any: true}},
	{name: "ext ISO-8859-1", in: []string{lkT + `; rel*=ISO-8859-1''next`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "ext with spaces around =", in: []string{lkT + ` ; rel* = UTF-8''next `}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "ext after other params", in: []string{lkT + `; title="a; b"; type=x; rel*=UTF-8''next`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "ext quoted (any link-param may be quoted)", in: []string{lkT + `; rel*="UTF-8''next"`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "ext prev and last", in: []string{`<https://h/x?page=1>; rel*=UTF-8''prev, <https://h/x?page=9>; rel*=UTF-8''last`}, want: pageLinks{prev: 1, last: 9, any: true}},
	{name: "ext replaces rel (both say next)", in: []string{lkT + `; rel="next"; rel*=UTF-8''next`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "ext replaces rel (ext says next)", in: []string{lkT + `; rel="last"; rel*=UTF-8''next`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
	{name: "ext beside a plain next element", in: []string{`<https://h/x?page=3>; rel="next", <https://h/x?page=9>; rel*=UTF-8''last`}, want: pageLinks{next: 3, last: 9, nextOffered: true, any: true}},
	{name: "ext empty value offers nothing", in: []string{lkT + `; rel*=UTF-8''`}, want: pageLinks{any: true}},
	{name: "ext without next offers no next", in: []string{lkT + `; rel*=UTF-8''nextish`}, want: pageLinks{any: true}},

	// Malformed, mentioning next: offered, not followable. With no rel
	// beside it the element is unreadable (as one without rel is).
	{name: "ext one quote", in: []string{lkT + `; rel*=UTF-8'next`}, want: pageLinks{nextOffered: true}},
	{name: "ext no charset", in: []string{lkT + `; rel*=next`}, want: pageLinks{nextOffered: true}},
	{name: "ext unknown charset", in: []string{lkT + `; rel*=UTF-16''next`}, want: pageLinks{nextOffered: true}},
	{name: "ext bad escape", in: []string{lkT + `; rel*=UTF-8''next%zz`}, want: pageLinks{nextOffered: true}},
	{name: "ext cut escape", in: []string{lkT + `; rel*=UTF-8''next%2`}, want: pageLinks{nextOffered: true}},
	{name: "ext literal space", in: []string{lkT + `; rel*=UTF-8''next last`}, want: pageLinks{nextOffered: true}},
	{name: "ext invalid UTF-8", in: []string{lkT + `; rel*=UTF-8''next%FF`}, want: pageLinks{nextOffered: true}},
	{name: "ext bad language tag", in: []string{lkT + `; rel*=UTF-8'e n'next`}, want: pageLinks{nextOffered: true}},
	{name: "ext encoded next in a malformed value", in: []string{lkT + `; rel*=UTF8''%6Eext`}, want: pageLinks{nextOffered: true}},
	{name: "ext single-quoted next inside", in: []string{lkT + `; rel*=UTF-8''%27next%27`}, want: pageLinks{nextOffered: true, any: true}},
	{name: "ext without a target", in: []string{`<>; rel*=UTF-8''next`}, want: pageLinks{nextOffered: true}},
	{name: "ext unbracketed target", in: []string{`https://h/x?page=2; rel*=UTF-8''next`}, want: pageLinks{nextOffered: true}},
	{name: "ext malformed, plain rel last", in: []string{lkT + `; rel="last"; rel*=UTF-8'next`}, want: pageLinks{last: 2, nextOffered: true, any: true}},
	{name: "ext drops a plain next", in: []string{lkT + `; rel="next"; rel*=UTF-8''last`}, want: pageLinks{last: 2, nextOffered: true, any: true}},
	{name: "ext malformed but a readable next wins", in: []string{lkT + `; rel*=UTF-8'next, <https://h/x?page=5>; rel="next"`}, want: pageLinks{next: 5, nextOffered: true, any: true}},
	{name: "ext malformed without next offers nothing", in: []string{lkT + `; rel*=UTF-8'last`}, want: pageLinks{}},
	{name: "space before the star", in: []string{lkT + `; rel *=UTF-8''next`}, want: pageLinks{next: 2, nextOffered: true, any: true}},
}

func TestParseLinksExtended(t *testing.T) {
	failing := 0
	for _, tc := range lkExtCases {
		t.Run(tc.name, func(t *testing.T) {
			got := parseLinks(tc.in)
			if got != tc.want {
				failing++
				t.Errorf("parseLinks(%q)\n got %+v\nwant %+v", tc.in, got, tc.want)
			}
		})
	}
	t.Logf("%d vectors, %d failing", len(lkExtCases), failing)
}

// A walk over a server whose Link uses the extended form: a readable one
// is followed to the end; a malformed one naming next fails the walk.
func TestWalkExtendedRel(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rel       string // the parameter offering the next page
		wantPages int
		truncated bool
	}{
		{"rel*=UTF-8''next", `rel*=UTF-8''next`, 3, false},
		{"rel*=utf-8'en'%6Eext", `rel*=utf-8'en'%6Eext`, 3, false},
		{"rel*=UTF-8'next (malformed)", `rel*=UTF-8'next`, 1, true},
		{"rel*=UTF-16''next (unknown charset)", `rel*=UTF-16''next`, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				page, _ := strconv.Atoi(r.URL.Query().Get("page"))
				if page < 3 {
					w.Header().Set("Link", fmt.Sprintf(`<http://%s%s?page=%d&limit=1>; %s`, r.Host, r.URL.Path, page+1, tc.rel))
				}
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `[{"name":"b%d"}]`, page)
			}))
			defer srv.Close()
			c := gnClient(t, srv.URL, nil)
			pages := 0
			err := WalkPages(context.Background(), ListOptions{Limit: 1}, func(ctx context.Context, lo ListOptions) ([]*Branch, *Response, error) {
				return c.Repos.ListBranches(ctx, "o", "r", &lo)
			}, func(items []*Branch, _ *Response) error {
				pages++
				return nil
			})
			var wt *WalkTruncatedError
			switch {
			case tc.truncated && !errors.As(err, &wt):
				t.Errorf("err = %v, want *WalkTruncatedError", err)
			case !tc.truncated && err != nil:
				t.Errorf("err = %v, want nil", err)
			}
			if pages != tc.wantPages {
				t.Errorf("%d pages visited, want %d", pages, tc.wantPages)
			}
		})
	}
}
