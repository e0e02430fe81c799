package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/iostreams"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// field is one -f or -F key=value.
type field struct {
	key   string
	value any    // the JSON value in a body
	raw   string // the text in a query
}

// fieldList collects repeated -f (string) or -F (typed) fields, in order.
type fieldList struct {
	typed  bool
	fields *[]field
}

var _ pflag.Value = fieldList{}

func (f fieldList) String() string { return "" }
func (f fieldList) Type() string   { return "key=value" }

func (f fieldList) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("%q is not key=value", s)
	}
	var val any = v
	if f.typed {
		switch {
		case v == "true":
			val = true
		case v == "false":
			val = false
		case v == "null":
			val = nil
		case strings.HasPrefix(v, "@"):
			data, err := os.ReadFile(v[1:])
			if err != nil {
				return fmt.Errorf("%s: reading %s: %v", k, v[1:], errors.Unwrap(err))
			}
			val = string(data)
		default:
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				val = n
			}
		}
	}
	*f.fields = append(*f.fields, field{key: k, value: val, raw: v})
	return nil
}

const apiLong = `Send one request to the API and print the answer's body, indented when it
is JSON. PATH is relative to /api/v1 (a leading /api/v1 is accepted too) and
may carry a query.

Fields:
  -f key=value   a string field (--raw-field, as in gh)
  -F key=value   a typed field (--field, as in gh): true, false, null and
                 integers become JSON values, @FILE is the file's text;
                 anything else stays a string
The method is GET, or POST when there are fields or --input (as in gh);
-X names another. With GET, HEAD and DELETE, or with --input, the fields go
in the query; with other methods they make a JSON object sent as the body.
--input FILE sends the file (- for standard input) as the body, as it is.

{owner} and {repo} in PATH are replaced by the repository of the current
directory's git remote, as in gh.

-H 'Name: value' adds a request header (repeatable); Authorization, Cookie,
Content-Type and the headers the connection manages cannot be set.
-i/--include prints the answer's status line and headers before its body
("HTTP 200 OK": the library does not say which HTTP version carried it).

Reads (GET, HEAD) are retried on 429, 5xx and connection failures; other
methods are sent once, since the API cannot say whether a failed write
took effect.

--paginate follows every page (the Link header, or X-Total-Count where an
endpoint sends no Link) and prints one JSON array; the progress line shows
the total when the instance sends it.`

func (a *app) apiCmd() *cobra.Command {
	var (
		method   string
		paginate bool
		silent   bool
		include  bool
		input    string
		headers  []string
		fields   []field
		jf       jsonFlags
	)
	cmd := &cobra.Command{
		Use:   "api PATH",
		Short: "Make an API request, like 'gh api'",
		Long:  apiLong,
		Example: `  forgego api /version
  forgego api -X GET /repos/forgejo/forgejo/issues -f state=closed -f limit=5
  forgego api repos/{owner}/{repo}/labels -i            # the git remote's repository
  forgego api -X PATCH /repos/OWNER/REPO/issues/3 --input edit.json
  forgego api -X POST /repos/OWNER/REPO/issues -f title="Found a bug" -F closed=false
  forgego api --paginate /repos/forgejo/forgejo/labels`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: noFiles,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("api needs exactly one PATH, got %d arguments", len(args))
			}
			if jf.jq != "" {
				if _, err := jf.compile(); err != nil {
					return err
				}
				if silent {
					return usagef("--jq and --silent cannot be used together")
				}
			}
			m := strings.ToUpper(method)
			if !cmd.Flags().Changed("method") && (len(fields) > 0 || input != "") {
				m = http.MethodPost // gh's default with fields or a body
			}
			if strings.Contains(args[0], "://") {
				return usagef("api: PATH is relative to /api/v1 (such as /repos/OWNER/REPO), not a URL; the instance is --url's")
			}
			path, rawQuery, _ := strings.Cut(args[0], "?")
			path = "/" + strings.TrimPrefix(strings.TrimPrefix(path, "/"), "api/v1/")
			if strings.Contains(path, "{owner}") || strings.Contains(path, "{repo}") {
				owner, name, err := a.repoFromRemote()
				if err != nil {
					return usagef("api: {owner} and {repo} need the git remote of the current directory (%v)", err)
				}
				path = strings.NewReplacer("{owner}", url.PathEscape(owner), "{repo}", url.PathEscape(name)).Replace(path)
			}
			query, err := url.ParseQuery(rawQuery)
			if err != nil {
				return usagef("api: bad query in PATH: %v", err)
			}
			if paginate && m != http.MethodGet {
				return usagef("--paginate works with GET only")
			}
			var callOpts []forgejo.RequestOption
			for _, h := range headers {
				k, v, ok := strings.Cut(h, ":")
				k = strings.TrimSpace(k)
				if !ok || k == "" {
					return usagef("-H %q is not 'Name: value'", h)
				}
				if apiReservedHeaders[http.CanonicalHeaderKey(k)] {
					return usagef("-H: %s cannot be set (the client sets it)", http.CanonicalHeaderKey(k))
				}
				callOpts = append(callOpts, forgejo.Header(k, strings.TrimSpace(v)))
			}
			var inputBody []byte
			if input != "" {
				var err error
				if input == "-" {
					inputBody, err = io.ReadAll(a.stdin)
				} else {
					inputBody, err = os.ReadFile(input)
				}
				if err != nil {
					return usagef("--input: %v", oneLine(err.Error()))
				}
			}
			var body map[string]any
			for _, f := range fields {
				if input != "" || m == http.MethodGet || m == http.MethodHead || m == http.MethodDelete {
					query.Add(f.key, f.raw)
					continue
				}
				if body == nil {
					body = map[string]any{}
				}
				body[f.key] = f.value
			}
			retry := forgejo.RetryNever // a request we know nothing about is not repeated…
			if m == http.MethodGet || m == http.MethodHead {
				retry = forgejo.RetryIdempotentOnly // …unless it is a read
			}
			req := &forgejo.Request{Method: m, Path: path, Query: query, Retry: retry, Operation: "api"}
			if body != nil {
				req.Body = body
			}
			if inputBody != nil {
				req.Body = inputBody
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			if paginate {
				return a.apiPaginate(c, req, &jf, silent, include, callOpts)
			}
			var raw []byte
			resp, err := c.Do(a.ctx, req, &raw, callOpts...)
			if include {
				a.printHead(resp)
			}
			if err != nil {
				return err
			}
			return a.apiOutput(raw, &jf, silent)
		}),
	}
	cmd.Flags().StringVarP(&method, "method", "X", "GET", "the HTTP `METHOD`")
	cmd.Flags().BoolVar(&paginate, "paginate", false, "follow every page and print one JSON array")
	cmd.Flags().StringVarP(&jf.jq, "jq", "q", "", "filter the answer with a jq `EXPRESSION`")
	cmd.Flags().BoolVar(&silent, "silent", false, "do not print the answer's body")
	cmd.Flags().BoolVarP(&include, "include", "i", false, "print the answer's status line and headers before the body")
	cmd.Flags().StringVar(&input, "input", "", "send this `FILE` as the body (- for standard input); the fields go in the query")
	cmd.Flags().StringArrayVarP(&headers, "header", "H", nil, "add a request header, `'Name: value'` (repeatable)")
	// gh's names: -f/--raw-field is the string one, -F/--field the typed one.
	cmd.Flags().VarP(fieldList{fields: &fields}, "raw-field", "f", "add a string field (repeatable)")
	cmd.Flags().VarP(fieldList{typed: true, fields: &fields}, "field", "F", "add a typed field: true, false, null, integers, @FILE (repeatable)")
	_ = cmd.RegisterFlagCompletionFunc("method", cobra.FixedCompletions([]string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// apiPaginate walks every page of a listing with the library's walker and
// prints one JSON array. The page and limit of PATH's query, if any, are
// where it starts and the size it asks.
func (a *app) apiPaginate(c *forgejo.Client, req *forgejo.Request, jf *jsonFlags, silent, include bool, callOpts []forgejo.RequestOption) error {
	start := forgejo.ListOptions{Limit: pageAsk}
	if l, err := strconv.Atoi(req.Query.Get("limit")); err == nil && l > 0 {
		start.Limit = l
	}
	if p, err := strconv.Atoi(req.Query.Get("page")); err == nil && p > 0 {
		start.Page = p
	}
	var all []json.RawMessage
	fetch := func(ctx context.Context, lo forgejo.ListOptions) ([]json.RawMessage, *forgejo.Response, error) {
		r := *req
		r.Query = url.Values{}
		for k, v := range req.Query {
			r.Query[k] = v
		}
		r.Query.Set("page", strconv.Itoa(lo.Page))
		r.Query.Set("limit", strconv.Itoa(lo.Limit))
		var raw []byte
		resp, err := c.Do(ctx, &r, &raw, callOpts...)
		if include {
			a.printHead(resp) // each page's, as gh does
		}
		if err != nil {
			return nil, resp, err
		}
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, resp, errNotArray
		}
		return items, resp, nil
	}
	// collect with --all: the same progress line ("fetched 100 of 240
	// items…") and clamp note as the listing commands.
	got, err := collectFrom(a, "items", listFlags{all: true}, start, fetch)
	if errors.Is(err, errNotArray) {
		return fmt.Errorf("--paginate: %s does not answer a JSON array", req.Path)
	}
	if err != nil {
		return err
	}
	all = got.items
	if all == nil {
		all = []json.RawMessage{}
	}
	if silent {
		return nil
	}
	if jf.jq != "" {
		data, err := json.Marshal(all)
		if err != nil {
			return err
		}
		return a.apiOutput(data, jf, false)
	}
	return a.printJSON(all)
}

// apiOutput prints an answer's body: as it is (indented when it is JSON),
// through --jq, or not at all with --silent.
func (a *app) apiOutput(raw []byte, jf *jsonFlags, silent bool) error {
	if silent {
		return nil
	}
	if jf.jq == "" {
		return a.printRaw(raw)
	}
	var doc any
	if err := iostreams.CheckJSON(raw); err != nil {
		var de *iostreams.DepthError
		if errors.As(err, &de) {
			return fmt.Errorf("--jq: %w", err)
		}
		return fmt.Errorf("--jq: the answer is not JSON")
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return fmt.Errorf("--jq: the answer is not JSON")
	}
	return a.runJQ(jf, doc)
}

var errNotArray = errors.New("not a JSON array")

// apiReservedHeaders are the headers -H cannot set: the library sets them
// (and refuses them per call).
var apiReservedHeaders = map[string]bool{
	"Authorization": true, "Cookie": true, "Host": true, "Content-Type": true,
	"Content-Length": true, "Transfer-Encoding": true, "Connection": true,
}

// printHead prints an answer's status line and headers, sorted, then a
// blank line (-i). Nothing when no answer arrived.
func (a *app) printHead(resp *forgejo.Response) {
	if resp == nil || resp.StatusCode == 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP %d %s\n", resp.StatusCode, http.StatusText(resp.StatusCode))
	names := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range resp.Header[k] {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	b.WriteString("\n")
	_, _ = io.WriteString(a.stdout, b.String())
}
