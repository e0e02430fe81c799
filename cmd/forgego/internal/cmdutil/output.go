package cmdutil

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	forgejo "codeberg.org/forgego/forgejo"
	"codeberg.org/forgego/forgejo/cmd/forgego/internal/iostreams"
	"github.com/spf13/cobra"
)

// PrintJSON prints v as indented JSON (iostreams.WriteJSON: the data kept,
// what a terminal would obey escaped, the depth bounded).
func PrintJSON(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return iostreams.WriteJSON(w, data)
}

// Table writes rows aligned in columns for people on standard output.
func Table(ios *iostreams.IOStreams, rows [][]string) error {
	return WriteTable(ios.Out, ios.Mask, rows)
}

// WriteTable writes rows aligned in columns. Cells are masked before they
// are aligned, so that a masked value does not shift its column.
func WriteTable(w io.Writer, m *iostreams.Masker, rows [][]string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			// A tab or a line end inside a value would break the columns;
			// the rest is aligned as it will be shown.
			cells[i] = m.Text(cellSpaces.Replace(c))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// cellSpaces turns what would break a table's columns into spaces.
var cellSpaces = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")

// Day is t's date, or "-" when unset.
func Day(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02")
}

// Truncate shortens s to n characters, the last one an ellipsis.
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Plural is "no other arguments", "one argument", "2 arguments".
func Plural(n int, word string) string {
	switch n {
	case 0:
		return "no other " + word + "s"
	case 1:
		return "one " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// ParseNumber reads an issue or pull request number, with or without "#".
func ParseNumber(cmd *cobra.Command, s string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimPrefix(s, "#"), 10, 64)
	if err != nil || n < 1 {
		return 0, Usagef("%s: %q is not a number such as 12", cmd.CommandPath(), s)
	}
	return n, nil
}

// Version is the CLI's own version: the module version when installed
// with go install, else the library's.
func Version() string {
	v := forgejo.Version
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = strings.TrimPrefix(bi.Main.Version, "v")
	}
	return v
}

// NoArgs is cobra.NoArgs with our wording.
func NoArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return Usagef("%s takes no arguments, got %q", cmd.CommandPath(), args[0])
	}
	return nil
}
