package forgeredis_test

import (
	"testing"

	"codeberg.org/forgego/forgejo/internal/apirecord/record"
)

// TestAPIRecord fails, naming each identifier, when the exported API of this
// module differs from its record in the repository's api/. After an intended
// change: go run ./internal/apirecord -w from the repository root
// (CONTRIBUTING.md, "The API record").
func TestAPIRecord(t *testing.T) {
	record.Check(t, ".")
}
