package shared

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSafeFileName(t *testing.T) {
	for _, name := range []string{"a.zip", "dist", "with space.txt", "ü.bin", ".hidden"} {
		if !SafeFileName(name) {
			t.Errorf("%q refused", name)
		}
	}
	for _, name := range []string{"", ".", "..", "a/b", `a\b`, "/etc/passwd", "../x", "C:x", "a\x00b"} {
		if SafeFileName(name) {
			t.Errorf("%q accepted", name)
		}
	}
}

// WriteFile writes a file whole or not at all, and keeps an existing one
// without clobber.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "a.zip")
	write := func(s string) func(io.Writer) (int64, error) {
		return func(w io.Writer) (int64, error) { n, err := io.WriteString(w, s); return int64(n), err }
	}
	if n, err := WriteFile(dst, "a", false, 5, write("hello")); err != nil || n != 5 {
		t.Fatal(n, err)
	}
	if _, err := WriteFile(dst, "a", false, -1, write("again")); err == nil || !strings.Contains(err.Error(), "not overwritten without --clobber") {
		t.Errorf("no clobber: %v", err)
	}
	if _, err := WriteFile(dst, "a", true, 10, write("short")); err == nil || !strings.Contains(err.Error(), "downloading a: got 5 of 10 bytes") {
		t.Errorf("short: %v", err)
	}
	cut := errors.New("connection reset")
	if _, err := WriteFile(dst, "a", true, -1, func(w io.Writer) (int64, error) { io.WriteString(w, "part"); return 4, cut }); !errors.Is(err, cut) {
		t.Errorf("cut: %v", err)
	}
	if data, _ := os.ReadFile(dst); string(data) != "hello" {
		t.Errorf("the file changed: %q", data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
	if _, err := WriteFile(dst, "a", true, -1, write("new")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(dst); string(data) != "new" {
		t.Errorf("clobber: %q", data)
	}
	if err := CheckTarget(dir, "a.zip", "artifact", false); err == nil {
		t.Error("CheckTarget: an existing file accepted without clobber")
	}
	if err := CheckTarget(dir, "../a.zip", "artifact", true); err == nil || !strings.Contains(err.Error(), "not a plain file name") {
		t.Errorf("CheckTarget: %v", err)
	}
}
