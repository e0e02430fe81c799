package iostreams

import (
	"bytes"
	"io"
	"os"
	"sync"

	"codeberg.org/forgego/forgejo/internal/secret"
)

// Masker holds the secrets that are never shown: the token, the credential
// given to git, a webhook secret, a Redis password. It is the library's own
// masker (every form of every secret, and any run of 8 bytes of one), so
// the CLI and the library mask alike. It is safe for concurrent use.
type Masker struct {
	set *secret.Set
}

// NewMasker returns a Masker that holds no secret yet.
func NewMasker() *Masker { return &Masker{set: secret.NewSet(nil)} }

// minSecret is the shortest secret that is masked: masking "a" would
// garble everything.
const minSecret = 4

// Add makes s a secret, from now on.
func (m *Masker) Add(s string) {
	if len(s) >= minSecret {
		m.set.Add(s)
	}
}

// Mask returns text with every secret masked.
func (m *Masker) Mask(text string) string { return m.set.Scrub(text) }

// Text returns what text shows as on a terminal: the display rule, then
// the masking. It is for a whole value (a table's cell) that must be
// measured as shown; a Writer does the same to a stream.
func (m *Masker) Text(text string) string { return m.Mask(Sanitize(text)) }

// maxLine is how much of a line without a newline a Writer holds before it
// writes part of it.
const maxLine = 64 << 10

// Writer is one of the program's output streams: it shows what is written
// under the display rule, masks every secret in what that shows, and
// writes the result a line at a time, so that a secret written in pieces
// (a table, several Fprintf calls) is masked whole. Call Flush at the end
// (and before anything else writes to the same stream). It is safe for
// concurrent use.
type Writer struct {
	mu   sync.Mutex
	out  io.Writer
	m    *Masker
	san  Sanitizer
	line []byte // shown, not yet masked nor written
	err  error
}

// NewWriter returns a Writer to out that masks m's secrets.
func NewWriter(out io.Writer, m *Masker) *Writer { return &Writer{out: out, m: m} }

// Write shows p. Its error is the first error of the underlying stream.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.line = w.san.Append(w.line, p)
	if i := bytes.LastIndexByte(w.line, '\n'); i >= 0 {
		w.emit(i + 1)
	} else if len(w.line) > maxLine {
		s := string(w.line)
		cut := w.m.set.SafeCut(s, len(s)-max(w.m.set.Longest(), 1))
		w.emit(cut)
	}
	if w.err != nil {
		return 0, w.err
	}
	return len(p), nil
}

// emit masks and writes line[:n]; the rest stays. w.mu is held.
func (w *Writer) emit(n int) {
	if n <= 0 {
		return
	}
	text := w.m.Mask(string(w.line[:n]))
	if w.err == nil {
		_, w.err = io.WriteString(w.out, text)
	}
	w.line = w.line[:copy(w.line, w.line[n:])]
}

// Flush writes what is held: a line without its newline, an incomplete
// character.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.line = w.san.Flush(w.line)
	w.emit(len(w.line))
	return w.err
}

// WriteControl flushes what is held, writes seq as it is, then text shown
// and masked, at once, without waiting for a newline: for the program's
// own control sequences (the progress line's "\r\x1b[K" and its status),
// never for a sequence that came from elsewhere.
func (w *Writer) WriteControl(seq, text string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.line = w.san.Flush(w.line)
	w.emit(len(w.line))
	if w.err == nil {
		_, w.err = io.WriteString(w.out, seq+w.m.Text(text))
	}
	return w.err
}

// IsTerminal reports whether w (or the stream a Writer writes to) is a
// terminal.
func IsTerminal(w io.Writer) bool {
	if iw, ok := w.(*Writer); ok {
		w = iw.out
	}
	f, ok := w.(*os.File)
	return ok && isTerminalFile(f)
}

// isTerminalFile reports whether f is a terminal (a character device).
func isTerminalFile(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
