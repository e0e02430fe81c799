package main

import (
	"io"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/iostreams"
)

// The streams: a.stdout and a.stderr are iostreams Writers, the one
// place where what the program prints is shown under the display rule and
// masked (internal/iostreams). Nothing else writes to the process's
// standard output and error, except 'auth token' and 'fake serve'
// (IOStreams.RawOut), whose job is to print a token, and 'api' writing a
// body to a pipe (masked by hand).

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool { return iostreams.IsTerminal(w) }
