package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"

	forgejo "codeberg.org/forgego/forgejo"
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
With GET, HEAD and DELETE the fields go in the query; with other methods
they make a JSON object sent as the body.

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
		fields   []field
		jf       jsonFlags
	)
	cmd := &cobra.Command{
		Use:   "api PATH",
		Short: "Make an API request, like 'gh api'",
		Long:  apiLong,
		Example: `  forgego api /version
  forgego api /repos/forgejo/forgejo/issues -f state=closed -f limit=5
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
			path, rawQuery, _ := strings.Cut(args[0], "?")
			path = "/" + strings.TrimPrefix(strings.TrimPrefix(path, "/"), "api/v1/")
			query, err := url.ParseQuery(rawQuery)
			if err != nil {
				return usagef("api: bad query in PATH: %v", err)
			}
			if paginate && m != http.MethodGet {
				return usagef("--paginate works with GET only")
			}
			var body map[string]any
			for _, f := range fields {
				if m == http.MethodGet || m == http.MethodHead || m == http.MethodDelete {
					query.Add(f.key, f.raw)
					continue
				}
				if body == nil {
					body = map[string]any{}
				}
				body[f.key] = f.value
			}
			retry := forgejo.Never // a request we know nothing about is not repeated…
			if m == http.MethodGet || m == http.MethodHead {
				retry = forgejo.IdempotentOnly // …unless it is a read
			}
			req := &forgejo.Request{Method: m, Path: path, Query: query, Retry: retry, Operation: "api"}
			if body != nil {
				req.Body = body
			}
			c, err := a.connect()
			if err != nil {
				return err
			}
			if paginate {
				return a.apiPaginate(c, req, &jf, silent)
			}
			var raw []byte
			if _, err := c.Do(a.ctx, req, &raw); err != nil {
				return err
			}
			return a.apiOutput(raw, &jf, silent)
		}),
	}
	cmd.Flags().StringVarP(&method, "method", "X", "GET", "the HTTP `METHOD`")
	cmd.Flags().BoolVar(&paginate, "paginate", false, "follow every page and print one JSON array")
	cmd.Flags().StringVarP(&jf.jq, "jq", "q", "", "filter the answer with a jq `EXPRESSION`")
	cmd.Flags().BoolVar(&silent, "silent", false, "do not print the answer's body")
	// gh's names: -f/--raw-field is the string one, -F/--field the typed one.
	cmd.Flags().VarP(fieldList{fields: &fields}, "raw-field", "f", "add a string field (repeatable)")
	cmd.Flags().VarP(fieldList{typed: true, fields: &fields}, "field", "F", "add a typed field: true, false, null, integers, @FILE (repeatable)")
	_ = cmd.RegisterFlagCompletionFunc("method", cobra.FixedCompletions([]string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// apiPaginate walks every page of a listing with the library's walker and
// prints one JSON array. The page and limit of PATH's query, if any, are
// where it starts and the size it asks.
func (a *app) apiPaginate(c *forgejo.Client, req *forgejo.Request, jf *jsonFlags, silent bool) error {
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
		resp, err := c.Do(ctx, &r, &raw)
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
	if err := json.Unmarshal(raw, &doc); err != nil {
		return fmt.Errorf("--jq: the answer is not JSON")
	}
	return a.runJQ(jf, doc)
}

var errNotArray = errors.New("not a JSON array")
