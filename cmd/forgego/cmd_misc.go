package main

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	forgejo "codeberg.org/forgego/forgejo"
	"github.com/spf13/cobra"
)

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Show the instance's Forgejo version and this client's",
		Long: `Ask the instance for its version and print it with this client's and the
API's URL. 'forgego --version' prints the client's version without asking.`,
		Example: `  forgego version
  forgego --url https://git.example.org version --json`,
		Args: noArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			c, err := a.connect()
			if err != nil {
				return err
			}
			v, _, err := c.Misc.GetVersion(a.ctx)
			if err != nil {
				return err
			}
			if a.g.json {
				return a.printJSON(map[string]string{"server": v.Version, "client": version(), "api": c.BaseURL()})
			}
			return a.table([][]string{
				{"server", v.Version},
				{"client", "forgego " + version()},
				{"api", c.BaseURL()},
			})
		}),
	}
}

// noArgs is cobra.NoArgs with our wording.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("%s takes no arguments, got %q", cmd.CommandPath(), args[0])
	}
	return nil
}

func (a *app) rateLimitCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "ratelimit",
		Short: "Show the rate-limit budget the instance reports",
		Long: `Send one cheap request (GET /version, never repeated) and print the
rate-limit headers of the answer: the budget left, the quota, the time to the
reset and the policies. A 429 answer is reported too (it carries the headers
and a Retry-After); any other error answer is a failure.

Codeberg sends the IETF RateLimit and RateLimit-Policy headers; a self-hosted
Forgejo usually sends none, which is reported as unknown, not as zero.`,
		Example: `  forgego ratelimit
  forgego ratelimit --json
  forgego --embedded ratelimit`,
		Args: noArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			c, err := a.connect()
			if err != nil {
				return err
			}
			// One attempt, never repeated: a 429 is an answer here, and its
			// headers are what the user asked for.
			resp, err := c.Do(a.ctx, &forgejo.Request{Method: http.MethodGet, Path: "/version", Retry: forgejo.RetryNever, Operation: "getVersion"}, nil)
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
			if a.g.json {
				return a.printJSON(rateLimitJSON(rl, ok, retryAfter))
			}
			if !ok {
				fmt.Fprintln(a.stdout, "the instance sent no rate-limit headers (a self-hosted Forgejo usually sends none)")
				return nil
			}
			return a.table(rateLimitRows(rl, retryAfter))
		}),
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
