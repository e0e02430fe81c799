package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	forgejo "codeberg.org/forgego/forgejo"
)

// ---- output helpers

func (e *env) printJSON(v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s\n", data)
	return err
}

// table writes rows aligned in columns for people.
func (e *env) table(rows [][]string) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

// splitRepo reads OWNER/REPO.
func splitRepo(args []string, cmd string) (owner, repo string, err error) {
	if len(args) != 1 {
		return "", "", usagef("%s needs exactly one OWNER/REPO argument", cmd)
	}
	owner, repo, ok := strings.Cut(args[0], "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
		return "", "", usagef("%s: %q is not OWNER/REPO", cmd, args[0])
	}
	return owner, repo, nil
}

func day(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02")
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// nullTime is a timestamp for JSON output: null when unset.
func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// ---- version

func versionCmd(fs *flag.FlagSet) func(*env, []string) error {
	return func(e *env, args []string) error {
		if len(args) != 0 {
			return usagef("version takes no arguments")
		}
		v, _, err := e.client.Misc.GetVersion(e.ctx)
		if err != nil {
			return err
		}
		if e.g.json {
			return e.printJSON(map[string]string{"server": v.Version, "client": forgejo.Version, "api": e.client.BaseURL()})
		}
		return e.table([][]string{
			{"server", v.Version},
			{"client", "forgego " + forgejo.Version},
			{"api", e.client.BaseURL()},
		})
	}
}

// ---- repo view

type repoJSON struct {
	FullName        string     `json:"full_name"`
	Description     string     `json:"description"`
	Private         bool       `json:"private"`
	Archived        bool       `json:"archived"`
	Fork            bool       `json:"fork"`
	DefaultBranch   string     `json:"default_branch"`
	StarsCount      int64      `json:"stars_count"`
	ForksCount      int64      `json:"forks_count"`
	OpenIssuesCount int64      `json:"open_issues_count"`
	OpenPRCounter   int64      `json:"open_pr_counter"`
	Topics          []string   `json:"topics"`
	HTMLURL         string     `json:"html_url"`
	CreatedAt       *time.Time `json:"created_at"`
	UpdatedAt       *time.Time `json:"updated_at"`
}

func repoViewCmd(fs *flag.FlagSet) func(*env, []string) error {
	return func(e *env, args []string) error {
		owner, name, err := splitRepo(args, "repo view")
		if err != nil {
			return err
		}
		r, _, err := e.client.Repos.Get(e.ctx, owner, name)
		if err != nil {
			return err
		}
		topics := r.Topics
		if topics == nil {
			topics = []string{}
		}
		if e.g.json {
			return e.printJSON(repoJSON{
				FullName: r.FullName, Description: r.Description, Private: r.Private, Archived: r.Archived, Fork: r.Fork,
				DefaultBranch: r.DefaultBranch, StarsCount: r.StarsCount, ForksCount: r.ForksCount,
				OpenIssuesCount: r.OpenIssuesCount, OpenPRCounter: r.OpenPrCounter, Topics: topics, HTMLURL: r.HTMLURL,
				CreatedAt: nullTime(r.CreatedAt), UpdatedAt: nullTime(r.UpdatedAt),
			})
		}
		visibility := "public"
		if r.Private {
			visibility = "private"
		}
		if r.Archived {
			visibility += ", archived"
		}
		desc := r.Description
		if desc == "" {
			desc = "(no description)"
		}
		fmt.Fprintf(e.stdout, "%s\n%s\n\n", r.FullName, desc)
		return e.table([][]string{
			{"  default branch", r.DefaultBranch},
			{"  stars", strconv.FormatInt(r.StarsCount, 10)},
			{"  forks", strconv.FormatInt(r.ForksCount, 10)},
			{"  open issues", strconv.FormatInt(r.OpenIssuesCount, 10)},
			{"  open pull requests", strconv.FormatInt(r.OpenPrCounter, 10)},
			{"  topics", strings.Join(topics, ", ")},
			{"  visibility", visibility},
			{"  updated", day(r.UpdatedAt)},
			{"  url", r.HTMLURL},
		})
	}
}

// ---- issue list

type issueJSON struct {
	Number    int64      `json:"number"`
	Title     string     `json:"title"`
	State     string     `json:"state"`
	Labels    []string   `json:"labels"`
	Author    string     `json:"author"`
	Comments  int64      `json:"comments"`
	CreatedAt *time.Time `json:"created_at"`
	UpdatedAt *time.Time `json:"updated_at"`
	ClosedAt  *time.Time `json:"closed_at"`
	URL       string     `json:"url"`
}

func labelNames(is *forgejo.Issue) []string {
	names := []string{}
	for _, l := range is.Labels {
		if l != nil {
			names = append(names, l.Name)
		}
	}
	return names
}

func toIssueJSON(is *forgejo.Issue) issueJSON {
	author := ""
	if is.User != nil {
		author = is.User.Login
	}
	return issueJSON{
		Number: is.Number, Title: is.Title, State: string(is.State), Labels: labelNames(is), Author: author,
		Comments: is.Comments, CreatedAt: nullTime(is.CreatedAt), UpdatedAt: nullTime(is.UpdatedAt),
		ClosedAt: nullTime(is.ClosedAt), URL: is.HTMLURL,
	}
}

// errEnough stops a walk once --limit items are in.
var errEnough = errors.New("enough items")

func issueListCmd(fs *flag.FlagSet) func(*env, []string) error {
	state := fs.String("state", "open", "open, closed or all")
	limit := fs.Int("limit", 30, "most issues to list")
	all := fs.Bool("all", false, "list every issue")
	return func(e *env, args []string) error {
		owner, name, err := splitRepo(args, "issue list")
		if err != nil {
			return err
		}
		limitSet := false
		fs.Visit(func(f *flag.Flag) { limitSet = limitSet || f.Name == "limit" })
		switch {
		case *all && limitSet:
			return usagef("--limit and --all cannot be used together")
		case *limit < 1:
			return usagef("--limit must be at least 1")
		case *state != "open" && *state != "closed" && *state != "all":
			return usagef("--state must be open, closed or all, not %q", *state)
		}
		pageSize := forgejo.CodebergMaxPageSize
		if !*all {
			pageSize = min(*limit, forgejo.CodebergMaxPageSize)
		}
		opts := forgejo.IssueListOptions{State: forgejo.StateType(*state), Type: forgejo.IssueTypeIssues}
		var (
			issues []*forgejo.Issue
			total  = -1
		)
		fetch := func(ctx context.Context, lo forgejo.ListOptions) ([]*forgejo.Issue, *forgejo.Response, error) {
			o := opts
			o.ListOptions = lo
			return e.client.Issues.List(ctx, owner, name, &o)
		}
		err = forgejo.WalkPages(e.ctx, forgejo.ListOptions{Limit: pageSize}, fetch, func(page []*forgejo.Issue, resp *forgejo.Response) error {
			if n, ok := resp.TotalCount(); ok && total < 0 {
				total = n
			}
			for _, is := range page {
				if !*all && len(issues) >= *limit {
					return errEnough
				}
				issues = append(issues, is)
			}
			if e.progress != nil {
				if total >= 0 {
					e.progress("fetched %d of %d issues…", len(issues), total)
				} else {
					e.progress("fetched %d issues…", len(issues))
				}
			}
			if !*all && len(issues) >= *limit {
				return errEnough
			}
			return nil
		})
		e.endProgress()
		if err != nil && !errors.Is(err, errEnough) {
			return err
		}
		if e.g.json {
			out := make([]issueJSON, 0, len(issues))
			for _, is := range issues {
				out = append(out, toIssueJSON(is))
			}
			return e.printJSON(out)
		}
		what := *state + " issues"
		if *state == "all" {
			what = "issues"
		}
		if len(issues) == 0 {
			fmt.Fprintf(e.stderr, "no %s in %s/%s\n", what, owner, name)
			return nil
		}
		rows := [][]string{{"NUMBER", "STATE", "TITLE", "LABELS", "UPDATED"}}
		for _, is := range issues {
			rows = append(rows, []string{"#" + strconv.FormatInt(is.Number, 10), string(is.State), truncate(is.Title, 60),
				strings.Join(labelNames(is), ", "), day(is.UpdatedAt)})
		}
		if err := e.table(rows); err != nil {
			return err
		}
		if total >= 0 {
			fmt.Fprintf(e.stderr, "showing %d of %d %s in %s/%s\n", len(issues), total, what, owner, name)
		} else {
			fmt.Fprintf(e.stderr, "showing %d %s in %s/%s\n", len(issues), what, owner, name)
		}
		return nil
	}
}

// ---- issue create

func issueCreateCmd(fs *flag.FlagSet) func(*env, []string) error {
	title := fs.String("title", "", "the issue's title")
	body := fs.String("body", "", "the issue's text")
	return func(e *env, args []string) error {
		owner, name, err := splitRepo(args, "issue create")
		if err != nil {
			return err
		}
		if strings.TrimSpace(*title) == "" {
			return usagef("issue create needs --title")
		}
		is, _, err := e.client.Issues.Create(e.ctx, owner, name, forgejo.CreateIssueOption{Title: *title, Body: *body})
		if err != nil {
			return err
		}
		if e.g.json {
			return e.printJSON(toIssueJSON(is))
		}
		fmt.Fprintf(e.stdout, "created issue #%d in %s/%s: %s\n", is.Number, owner, name, is.HTMLURL)
		return nil
	}
}

// ---- api

// fieldList collects repeated -f / -F key=value flags.
type fieldList struct {
	typed  bool
	fields *[]field
}

type field struct {
	key   string
	value any
	raw   string
}

func (f fieldList) String() string { return "" }

func (f fieldList) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("field %q is not key=value", s)
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
		default:
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				val = n
			}
		}
	}
	*f.fields = append(*f.fields, field{key: k, value: val, raw: v})
	return nil
}

func apiCmd(fs *flag.FlagSet) func(*env, []string) error {
	method := fs.String("X", "GET", "HTTP method")
	paginate := fs.Bool("paginate", false, "follow every page and print one JSON array")
	var fields []field
	fs.Var(fieldList{fields: &fields}, "f", "a string field key=value")
	fs.Var(fieldList{typed: true, fields: &fields}, "F", "a typed field key=value (true, false, null and integers are JSON values)")
	return func(e *env, args []string) error {
		if len(args) != 1 {
			return usagef("api needs exactly one PATH")
		}
		m := strings.ToUpper(*method)
		path, rawQuery, _ := strings.Cut(args[0], "?")
		path = "/" + strings.TrimPrefix(strings.TrimPrefix(path, "/"), "api/v1/")
		query, err := url.ParseQuery(rawQuery)
		if err != nil {
			return usagef("api: bad query in PATH: %v", err)
		}
		if *paginate && m != http.MethodGet {
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
		if *paginate {
			return e.apiPaginate(req)
		}
		var raw []byte
		if _, err := e.client.Do(e.ctx, req, &raw); err != nil {
			return err
		}
		return e.printRaw(raw)
	}
}

// printRaw prints a body, indented when it is JSON.
func (e *env) printRaw(raw []byte) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	var buf bytes.Buffer
	if json.Indent(&buf, raw, "", "  ") == nil {
		raw = buf.Bytes()
	}
	_, err := fmt.Fprintf(e.stdout, "%s\n", bytes.TrimRight(raw, "\n"))
	return err
}

// apiPaginate walks every page of a listing with the library's walker
// (Link first, X-Total-Count where an endpoint sends no Link) and prints
// one JSON array.
func (e *env) apiPaginate(req *forgejo.Request) error {
	start := forgejo.ListOptions{Limit: forgejo.CodebergMaxPageSize}
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
		resp, err := e.client.Do(ctx, &r, &raw)
		if err != nil {
			return nil, resp, err
		}
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, resp, fmt.Errorf("--paginate: %s does not answer a JSON array", req.Path)
		}
		return items, resp, nil
	}
	err := forgejo.WalkPages(e.ctx, start, fetch, func(items []json.RawMessage, resp *forgejo.Response) error {
		all = append(all, items...)
		if e.progress != nil {
			e.progress("fetched %d items…", len(all))
		}
		return nil
	})
	e.endProgress()
	if err != nil {
		return err
	}
	if all == nil {
		all = []json.RawMessage{}
	}
	return e.printJSON(all)
}

// ---- ratelimit

func rateLimitCmd(fs *flag.FlagSet) func(*env, []string) error {
	return func(e *env, args []string) error {
		if len(args) != 0 {
			return usagef("ratelimit takes no arguments")
		}
		// One cheap attempt, never repeated: a 429 is an answer here, and
		// its headers are what the user asked for.
		resp, err := e.client.Do(e.ctx, &forgejo.Request{Method: http.MethodGet, Path: "/version", Retry: forgejo.Never, Operation: "getVersion"}, nil)
		if resp == nil || resp.StatusCode == 0 {
			return err // no answer at all: nothing to report
		}
		rl, ok := resp.RateLimit()
		var retryAfter *float64
		var apiErr *forgejo.APIError
		if errors.As(err, &apiErr) {
			if d, ok := apiErr.RetryAfter(); ok {
				secs := d.Seconds()
				retryAfter = &secs
			}
		}
		if e.g.json {
			return e.printJSON(rateLimitJSON(rl, ok, retryAfter))
		}
		if !ok {
			fmt.Fprintln(e.stdout, "the instance sent no rate-limit headers (a self-hosted Forgejo usually sends none)")
			return nil
		}
		return e.table(rateLimitRows(rl, retryAfter))
	}
}

// rateLimitRows renders a parsed snapshot for people.
func rateLimitRows(rl forgejo.RateLimit, retryAfter *float64) [][]string {
	rows := [][]string{{"source", rl.Source}, {"remaining", strconv.FormatInt(rl.Remaining, 10)}}
	if rl.HasQuota {
		rows = append(rows, []string{"quota", strconv.FormatInt(rl.Quota, 10)})
	}
	if rl.HasReset {
		rows = append(rows, []string{"reset in", rl.Reset.String()})
	}
	for _, p := range rl.Policies {
		desc := strconv.FormatInt(p.Quota, 10) + " " + p.Unit
		if p.Window > 0 {
			desc += " per " + p.Window.String()
		}
		rows = append(rows, []string{"policy " + p.Name, desc})
	}
	if retryAfter != nil {
		rows = append(rows, []string{"retry after", strconv.FormatFloat(*retryAfter, 'f', -1, 64) + "s"})
	}
	return rows
}

// rateLimitJSON renders a parsed snapshot for scripts; "known" is false when
// the instance said nothing (unknown is not zero).
func rateLimitJSON(rl forgejo.RateLimit, ok bool, retryAfter *float64) map[string]any {
	out := map[string]any{"known": ok}
	if !ok {
		return out
	}
	out["source"] = rl.Source
	out["remaining"] = rl.Remaining
	if rl.HasQuota {
		out["quota"] = rl.Quota
	}
	if rl.HasReset {
		out["reset_seconds"] = rl.Reset.Seconds()
	}
	policies := []map[string]any{}
	for _, p := range rl.Policies {
		policies = append(policies, map[string]any{"name": p.Name, "quota": p.Quota, "window_seconds": p.Window.Seconds(), "unit": p.Unit})
	}
	out["policies"] = policies
	if retryAfter != nil {
		out["retry_after_seconds"] = *retryAfter
	}
	return out
}
