// Package misc is 'forgego version' and 'forgego ratelimit'.
package misc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"github.com/spf13/cobra"
)

// VersionFields are version's --json fields.
var VersionFields = cmdutil.Fields(nil, "api", "client", "server")

// RateLimitFields are ratelimit's --json fields ("known" is false when the
// instance sent no rate-limit headers: unknown is not zero).
var RateLimitFields = cmdutil.Fields(nil, "known", "source", "remaining", "quota", "reset_seconds", "policies", "retry_after_seconds")

// Options are 'version' and 'ratelimit' parsed.
type Options struct {
	F    *cmdutil.Factory
	Ctx  context.Context
	JSON *cmdutil.JSONFlags
}

// NewCmdVersion is 'version'.
func NewCmdVersion(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{F: f}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Show the instance's Forgejo version and this client's",
		Long: `Ask the instance for its version and print it with this client's and the
API's URL. 'forgego --version' prints the client's version without asking.`,
		Example: `  forgego version
  forgego --url https://git.example.org version --json server,api`,
		Args: cmdutil.NoArgs,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			c, err := f.Client("")
			if err != nil {
				return err
			}
			v, _, err := c.Misc.GetVersion(opts.Ctx)
			if err != nil {
				return err
			}
			if opts.JSON.On() {
				return opts.JSON.Write(opts.Ctx, f.IOStreams, map[string]string{"server": v.Version, "client": cmdutil.Version(), "api": c.BaseURL()})
			}
			return cmdutil.Table(f.IOStreams, [][]string{
				{"server", v.Version},
				{"client", "forgego " + cmdutil.Version()},
				{"api", c.BaseURL()},
			})
		}),
	}
	opts.JSON = cmdutil.AddJSONFlags(cmd, VersionFields)
	return cmd
}

// NewCmdRateLimit is 'ratelimit'.
func NewCmdRateLimit(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{F: f}
	cmd := &cobra.Command{
		Use:   "ratelimit",
		Short: "Show the rate-limit budget the instance reports",
		Long: `Send one cheap request (GET /version, never repeated) and print the
rate-limit headers of the answer: the budget left, the quota, the time to the
reset and the policies. A 429 answer is reported too (it carries the headers
and a Retry-After); any other error answer is a failure.

Codeberg sends the IETF RateLimit and RateLimit-Policy headers; a self-hosted
Forgejo usually sends none, which is reported as unknown, not as zero.`,
		Example: `  forgego ratelimit
  forgego ratelimit --json known,remaining,reset_seconds
  forgego --embedded ratelimit`,
		Args: cmdutil.NoArgs,
		RunE: cmdutil.RunE(func(cmd *cobra.Command, args []string) error {
			if err := opts.JSON.Check(); err != nil {
				return err
			}
			opts.Ctx = cmd.Context()
			if runF != nil {
				return runF(opts)
			}
			c, err := f.Client("")
			if err != nil {
				return err
			}
			// One attempt, never repeated: a 429 is an answer here, and its
			// headers are what the user asked for.
			resp, err := c.Do(opts.Ctx, &forgejo.Request{Method: http.MethodGet, Path: "/version", Retry: forgejo.RetryNever, Operation: "getVersion"}, nil)
			var retryAfter *float64
			if err != nil {
				var apiErr *forgejo.APIError
				if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusTooManyRequests {
					return err // no answer, or an error answer: nothing to report
				}
				if d, ok := apiErr.RetryAfter(); ok {
					secs := d.Seconds()
					retryAfter = &secs
				}
			}
			rl, ok := resp.RateLimit()
			if opts.JSON.On() {
				return opts.JSON.Write(opts.Ctx, f.IOStreams, rateLimitJSON(rl, ok, retryAfter))
			}
			if !ok {
				fmt.Fprintln(f.IOStreams.Out, "the instance sent no rate-limit headers (a self-hosted Forgejo usually sends none)")
				return nil
			}
			return cmdutil.Table(f.IOStreams, rateLimitRows(rl, retryAfter))
		}),
	}
	opts.JSON = cmdutil.AddJSONFlags(cmd, RateLimitFields)
	return cmd
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
