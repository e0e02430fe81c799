package main

import (
	"bytes"
	"errors"
	"fmt"
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

// printRaw prints an answer's body: JSON indented (iostreams.WriteJSON;
// one nested deeper than it prints is an error), anything else as text
// under the display rule on a terminal and, to a pipe or a file, as the
// bytes the server sent with only the secrets masked: a download
// ('forgego api .../raw/FILE > FILE') is not altered.
func (a *app) printRaw(raw []byte) error {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 {
		return nil
	}
	if looksLikeJSON(trimmed) {
		err := iostreams.WriteJSON(a.stdout, trimmed)
		var de *iostreams.DepthError
		if err == nil || errors.As(err, &de) {
			return err
		}
	}
	if !isTerminal(a.stdout) {
		a.flush()
		_, err := io.WriteString(a.rawStdout, a.mask.Mask(string(raw)))
		return err
	}
	_, err := fmt.Fprintf(a.stdout, "%s\n", bytes.TrimRight(raw, "\n"))
	return err
}

// looksLikeJSON reports whether a body starts as a JSON document does
// (an object, an array, a string).
func looksLikeJSON(b []byte) bool {
	return b[0] == '{' || b[0] == '[' || b[0] == '"'
}
