package main

import (
	"io"
	"strings"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/cmdutil"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/iostreams"
)

// The streams: a.stdout and a.stderr are iostreams Writers, the one
// place where what the program prints is shown under the display rule and
// masked (internal/iostreams). Nothing else writes to the process's
// standard output and error, except 'auth token' (rawStdout), whose job is
// to print the token.

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool { return iostreams.IsTerminal(w) }

// printJSON prints v as indented JSON (iostreams.WriteJSON: the data kept,
// what a terminal would obey escaped, the depth bounded).
func (a *app) printJSON(v any) error { return cmdutil.PrintJSON(a.stdout, v) }

// table writes rows aligned in columns for people. Cells are masked before
// they are aligned, so that a masked value does not shift its column.
func (a *app) table(rows [][]string) error {
	return cmdutil.Table(a.f.IOStreams, rows)
}

// cellSpaces turns what would break a table's columns into spaces.
var cellSpaces = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")
