package shared

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// The path rules of every command that writes files the instance named
// (release download, run download): a name is a plain file name or it is
// refused, an existing file is not overwritten without --clobber (checked
// for every file before anything is downloaded, and again when the file is
// put in place), and each file is written whole or not at all.

// SafeFileName reports whether a name the instance chose is a plain file
// name: no directory part on any system, not . or .., not hidden tricks
// such as a drive letter or a NUL.
func SafeFileName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, "/\\:\x00") &&
		filepath.IsLocal(name) && filepath.Base(name) == name
}

// MatchesAny reports whether name matches one of the globs (every name,
// with none).
func MatchesAny(patterns []string, name string) bool {
	if len(patterns) == 0 {
		return true
	}
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// CheckGlobs refuses a --pattern that is not a glob.
func CheckGlobs(patterns []string) error {
	for _, p := range patterns {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("--pattern %q is not a glob such as '*.tar.gz'", p)
		}
	}
	return nil
}

// CheckTarget refuses to write name into dir when name is not a plain file
// name, or (without clobber) when the file exists.
func CheckTarget(dir, name, what string, clobber bool) error {
	if !SafeFileName(name) {
		return fmt.Errorf("the %s name %q is not a plain file name: refused, it would be written outside %s", what, name, dir)
	}
	if _, err := os.Lstat(filepath.Join(dir, name)); err == nil && !clobber {
		return fmt.Errorf("%s exists: not overwritten without --clobber", filepath.Join(dir, name))
	}
	return nil
}

// WriteFile writes what write produces into dst: into a temporary file
// beside it, renamed over dst when complete (with clobber), or linked to
// dst, which fails if dst appeared meanwhile (without). want is the size
// the instance announced (-1: unknown); a shorter or longer file is an
// error and nothing is left behind. A failure to write is said as
// "downloading NAME: …".
func WriteFile(dst, name string, clobber bool, want int64, write func(w io.Writer) (int64, error)) (int64, error) {
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".forgego-download-*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name()) // after a rename or a link, only the temporary name goes
	n, err := write(tmp)
	if err == nil && want >= 0 && n != want {
		err = fmt.Errorf("got %d of %d bytes", n, want)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("downloading %s: %w", name, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return 0, err
	}
	if clobber {
		err = os.Rename(tmp.Name(), dst)
	} else if err = os.Link(tmp.Name(), dst); errors.Is(err, fs.ErrExist) {
		err = fmt.Errorf("%s exists: not overwritten without --clobber", dst)
	}
	return n, err
}

// ByteSize renders a size for people: 512 B, 1.5 KiB, 12.0 MiB.
func ByteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
