package main

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// One JSON mechanism: every command that prints data has --json FIELDS,
// --jq and --template (cmdutil.AddJSONFlags), and the others have none of
// them (api's --jq filters the body it prints; webhook's --json is a switch
// for its stream of deliveries).
func TestEveryDataCommandHasJSONFlags(t *testing.T) {
	withJSON := []string{
		"issue list", "issue view", "issue create", "issue edit", "issue close", "issue reopen",
		"pr list", "pr view", "pr create", "pr close", "pr reopen",
		"label list", "label create", "label edit",
		"release list", "release view", "release create",
		"repo view", "repo list", "repo create", "repo fork",
		"ratelimit", "version",
		"run list", "run view", "workflow list", "workflow view", "workflow run",
		"secret list", "variable list", "variable get",
	}
	root := newApp(context.Background(), io.Discard, io.Discard, func(string) string { return "" }).rootCmd()
	var got []string
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if c.HasSubCommands() || !c.Runnable() {
			return
		}
		path := strings.TrimPrefix(c.CommandPath(), "forgego ")
		_, fields := c.Annotations["forgego/json-fields"]
		js, jq, tpl := c.LocalFlags().Lookup("json"), c.LocalFlags().Lookup("jq"), c.LocalFlags().Lookup("template")
		switch {
		case fields:
			if js == nil || js.Value.Type() != "stringSlice" || jq == nil || tpl == nil {
				t.Errorf("%s: --json FIELDS without --jq and --template", path)
			}
			got = append(got, path)
		case strings.HasPrefix(path, "webhook"), path == "api":
		case js != nil || tpl != nil:
			t.Errorf("%s: --json or --template outside the one mechanism", path)
		}
	}
	walk(root)
	slices.Sort(got)
	slices.Sort(withJSON)
	if !slices.Equal(got, withJSON) {
		t.Errorf("commands with --json FIELDS:\n got  %q\n want %q", got, withJSON)
	}
}
