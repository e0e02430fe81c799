package forgejo_test

import (
	"testing"

	"codeberg.org/forgego/forgejo/internal/apirecord/record"

	// Linked so that go test's cache reruns this test when their API changes.
	_ "codeberg.org/forgego/forgejo/forgejotest"
	_ "codeberg.org/forgego/forgejo/webhook"
)

// TestAPIRecord fails, naming each identifier, when the exported API of this
// module (forgejo, forgejotest, webhook) differs from api/forgejo.txt. After an
// intended change: go run ./internal/apirecord -w (CONTRIBUTING.md, "The API
// record").
func TestAPIRecord(t *testing.T) {
	record.Check(t, ".")
}
