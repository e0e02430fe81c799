package forgejo

// The operations, models and the table of operations are generated from the
// pinned spec and the curated table in internal/api; see internal/gen.

//go:generate go run ./internal/gen
