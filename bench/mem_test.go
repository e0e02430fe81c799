package bench

import (
	"context"
	"net/http"
	"testing"

	forgejo "codeberg.org/forgego/forgejo"
)

func BenchmarkMemRepo(b *testing.B) {
	repo, err := fixture("repository/repo-single.json")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	hc := &http.Client{Transport: memTransport{repo}}
	c := forgegoClient(b, "http://mem.invalid", forgejo.WithHTTPClient(hc))
	b.Run("forgego", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if r, _, err := c.Repos.Get(ctx, "o", "r"); err != nil || r.ID == 0 {
				b.Fatal(err)
			}
		}
	})
	b.Run("raw", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var r forgejo.Repository
			if _, err := rawGet(hc, "http://mem.invalid/api/v1/repos/o/r", &r); err != nil || r.ID == 0 {
				b.Fatal(err)
			}
		}
	})
	b.Run("floor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := rawDiscard(hc, "http://mem.invalid/api/v1/repos/o/r"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
