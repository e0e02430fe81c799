// Command apirecord keeps api/<module>.txt, the record of every module's
// exported API (one line per exported identifier with its signature, in the
// manner of the Go project's api/*.txt). Run it from the repository root:
//
//	go run ./internal/apirecord -w   # rewrite every record (after an intended API change)
//	go run ./internal/apirecord      # tell, per module, what differs from the record
//
// The modules are those go.work uses, except the tools under internal/.
// Every module also checks its own record in its tests (record.Check), so
// `go test ./...` in any module fails on an API change that the record does
// not show.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"codeberg.org/forgego/forgejo/internal/apirecord/record"
)

func main() {
	write := flag.Bool("w", false, "write the records instead of comparing with them")
	flag.Parse()
	mods, err := modules()
	if err != nil {
		fmt.Fprintln(os.Stderr, "apirecord:", err)
		os.Exit(1)
	}
	differs := false
	for _, m := range mods {
		lines, err := record.API(m)
		if err != nil {
			fmt.Fprintf(os.Stderr, "apirecord: %s: %v\n", m.Path, err)
			os.Exit(1)
		}
		file := m.RecordFile()
		rel, _ := filepath.Rel(m.Top, file)
		if *write {
			data := record.Format(m, lines)
			if old, err := os.ReadFile(file); err == nil && bytes.Equal(old, data) {
				fmt.Printf("%s: %d lines, unchanged\n", rel, len(lines))
				continue
			}
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				fmt.Fprintln(os.Stderr, "apirecord:", err)
				os.Exit(1)
			}
			if err := os.WriteFile(file, data, 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "apirecord:", err)
				os.Exit(1)
			}
			fmt.Printf("%s: %d lines, written\n", rel, len(lines))
			continue
		}
		recorded, err := record.Read(file)
		if err != nil {
			fmt.Printf("%s: %v\n", rel, err)
			differs = true
			continue
		}
		if d := record.Compare(recorded, lines); !d.Empty() {
			fmt.Printf("%s (module %s):\n%s", rel, m.Path, d)
			differs = true
		} else {
			fmt.Printf("%s: %d lines, as recorded\n", rel, len(lines))
		}
	}
	if differs {
		fmt.Printf("\nupdate the records with `%s` and commit api/\n", record.UpdateCommand)
		os.Exit(1)
	}
}

// modules lists the modules of go.work (go work edit -json), the tools
// under internal/ left out.
func modules() ([]record.Module, error) {
	out, err := exec.Command("go", "work", "edit", "-json").Output()
	if err != nil {
		return nil, fmt.Errorf("go work edit -json (run from the repository root, where go.work is): %w", err)
	}
	var work struct{ Use []struct{ DiskPath string } }
	if err := json.Unmarshal(out, &work); err != nil {
		return nil, err
	}
	gowork, err := exec.Command("go", "env", "GOWORK").Output()
	if err != nil {
		return nil, err
	}
	top := filepath.Dir(strings.TrimSpace(string(gowork)))
	if top == "." || top == "" {
		return nil, fmt.Errorf("no go.work in use (GOWORK=off?)")
	}
	var mods []record.Module
	for _, u := range work.Use {
		rel := filepath.ToSlash(filepath.Clean(u.DiskPath))
		if rel == "internal" || strings.HasPrefix(rel, "internal/") {
			continue
		}
		m, ok, err := record.FindModule(filepath.Join(top, u.DiskPath))
		if err != nil {
			return nil, err
		}
		if !ok || m.Top != top {
			return nil, fmt.Errorf("%s: not a module of %s", u.DiskPath, top)
		}
		mods = append(mods, m)
	}
	return mods, nil
}
