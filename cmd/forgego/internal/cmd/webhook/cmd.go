package webhook

import (
	"context"
	"io"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/iostreams"
	"github.com/spf13/cobra"
)

// app is what the webhook commands read of the run: the factory's streams,
// masker and environment, the context of the command, and the group's
// --json switch (a stream of deliveries, one JSON object a line: not the
// field list of the commands that print data).
type app struct {
	f      *cmdutil.Factory
	ctx    context.Context
	stdout io.Writer
	stderr io.Writer
	mask   *iostreams.Masker
	getenv func(string) string
	g      struct{ json bool }
}

// NewCmdWebhook is the 'webhook' group: listen, work and dead-letters.
func NewCmdWebhook(f *cmdutil.Factory) *cobra.Command {
	a := &app{f: f, ctx: context.Background(), stdout: f.IOStreams.Out, stderr: f.IOStreams.ErrOut, mask: f.IOStreams.Mask, getenv: f.Getenv}
	cmd := a.webhookCmd()
	cmd.PersistentFlags().BoolVar(&a.g.json, "json", false, "print each delivery or dead letter as a line of JSON")
	cmd.PersistentPreRun = func(c *cobra.Command, _ []string) {
		if ctx := c.Context(); ctx != nil {
			a.ctx = ctx
		}
	}
	return cmd
}

// ReceiverGCPercent is the GC percent listen and work run with unless
// GOGC is set.
const ReceiverGCPercent = receiverGCPercent

// ReceiverGC applies ReceiverGCPercent unless getenv("GOGC") is set.
func ReceiverGC(getenv func(string) string) { (&app{getenv: getenv}).receiverGC() }

// The names the webhook commands use for what internal/cmdutil holds.
type usageError = cmdutil.UsageError

var (
	usagef   = cmdutil.Usagef
	runE     = cmdutil.RunE
	groupCmd = cmdutil.GroupCmd
	noArgs   = cmdutil.NoArgs
	oneLine  = cmdutil.OneLine
	truncate = cmdutil.Truncate
)
