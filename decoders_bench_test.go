package forgejo

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// The decoder alone against encoding/json, on a 50-issue page and one
// repository.
func BenchmarkDecode(b *testing.B) {
	page := bnIssuePage(b)
	pretty, err := os.ReadFile("testdata/codeberg/repository/repo-single.json")
	if err != nil {
		b.Fatal(err)
	}
	var compact bytes.Buffer // as an instance sends it
	if err := json.Compact(&compact, pretty); err != nil {
		b.Fatal(err)
	}
	repo := compact.Bytes()
	for _, tc := range []struct {
		name string
		body []byte
		mk   func() any
	}{
		{"issues50", page, func() any { return new([]*Issue) }},
		{"repository", repo, func() any { return new(Repository) }},
	} {
		b.Run(tc.name+"/encoding-json", func(b *testing.B) {
			b.SetBytes(int64(len(tc.body)))
			b.ReportAllocs()
			for b.Loop() {
				if err := json.Unmarshal(tc.body, tc.mk()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/generated", func(b *testing.B) {
			b.SetBytes(int64(len(tc.body)))
			b.ReportAllocs()
			for b.Loop() {
				if !decodeFast(tc.body, tc.mk(), false, false) {
					b.Fatal("failed")
				}
			}
		})
	}
}
