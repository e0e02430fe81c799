package iostreams

import (
	"fmt"
	"io"
	"os"
)

// IOStreams are one run's streams: standard input, standard output and
// standard error as Writers (the display rule and the masking applied), the
// masker they share, and the raw standard output for the two commands whose
// job is to print what the rule would alter ('auth token', and 'api' writing
// a body to a pipe, masked by hand).
type IOStreams struct {
	In     io.Reader
	Out    *Writer
	ErrOut *Writer
	// RawOut is standard output as given. Flush Out before writing to it.
	RawOut io.Writer
	Mask   *Masker
	// Verbose is -v: Verbosef prints.
	Verbose bool
	// ForceProgress draws the progress line on ErrOut even when it is not
	// a terminal (tests).
	ForceProgress bool
}

// New returns the streams of a run over stdin, stdout and stderr, masking
// m's secrets.
func New(stdin io.Reader, stdout, stderr io.Writer, m *Masker) *IOStreams {
	return &IOStreams{In: stdin, Out: NewWriter(stdout, m), ErrOut: NewWriter(stderr, m), RawOut: stdout, Mask: m}
}

// IsStdoutTTY reports whether standard output is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return IsTerminal(s.Out) }

// IsStderrTTY reports whether standard error is a terminal.
func (s *IOStreams) IsStderrTTY() bool { return IsTerminal(s.ErrOut) }

// IsStdinTTY reports whether standard input is a terminal.
func (s *IOStreams) IsStdinTTY() bool {
	f, ok := s.In.(*os.File)
	return ok && isTerminalFile(f)
}

// Verbosef prints a line on standard error for -v.
func (s *IOStreams) Verbosef(format string, args ...any) {
	if s.Verbose {
		fmt.Fprintf(s.ErrOut, format, args...)
	}
}

// Flush writes what Out and ErrOut hold.
func (s *IOStreams) Flush() {
	_ = s.Out.Flush()
	_ = s.ErrOut.Flush()
}
