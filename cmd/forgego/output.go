package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
	"unicode/utf8"
)

// masker holds the secrets that are never printed: the token, and the
// webhook secret once 'webhook listen' has one.
type masker struct {
	mu      sync.RWMutex
	secrets []string
}

const maskText = "***"

func (m *masker) add(secret string) {
	if len(secret) < 4 { // masking "a" would garble everything
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.secrets = append(m.secrets, secret)
}

// apply replaces every secret in s.
func (m *masker) apply(s string) string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, sec := range m.secrets {
		s = strings.ReplaceAll(s, sec, maskText)
	}
	return s
}

// writer wraps w so that no secret reaches it: the last line of defence,
// whatever a command prints.
func (m *masker) writer(w io.Writer) io.Writer { return &maskWriter{w: w, m: m} }

type maskWriter struct {
	w io.Writer
	m *masker
}

func (mw *maskWriter) Write(p []byte) (int, error) {
	s := mw.m.apply(string(p))
	if len(s) == len(p) && s == string(p) {
		return mw.w.Write(p)
	}
	_, err := io.WriteString(mw.w, s)
	return len(p), err
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	if mw, ok := w.(*maskWriter); ok {
		w = mw.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (a *app) printJSON(v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(a.stdout, "%s\n", data)
	return err
}

// table writes rows aligned in columns for people. Cells are masked before
// they are aligned, so that a masked value does not shift its column.
func (a *app) table(rows [][]string) error {
	return writeTable(a.stdout, a.mask, rows)
}

func writeTable(w io.Writer, m *masker, rows [][]string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, r := range rows {
		cells := make([]string, len(r))
		for i, c := range r {
			// A tab or newline inside a value would break the columns.
			cells[i] = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(m.apply(c))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// printRaw prints a body, indented when it is JSON.
func (a *app) printRaw(raw []byte) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	var buf bytes.Buffer
	if json.Indent(&buf, raw, "", "  ") == nil {
		raw = buf.Bytes()
	}
	_, err := fmt.Fprintf(a.stdout, "%s\n", bytes.TrimRight(raw, "\n"))
	return err
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
