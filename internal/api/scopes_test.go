package api

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// TestTokenScopesPinned checks the measured table against its recorded
// hash, in the code and in PROVENANCE.md, and that every row parses.
func TestTokenScopesPinned(t *testing.T) {
	sum := sha256.Sum256(TokenScopesTSV)
	if got := hex.EncodeToString(sum[:]); got != TokenScopesSHA256 {
		t.Errorf("forgejo-15-token-scopes.tsv: sha256 %s, recorded %s", got, TokenScopesSHA256)
	}
	prov, err := os.ReadFile("PROVENANCE.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(prov), TokenScopesSHA256) {
		t.Errorf("PROVENANCE.md does not record %s", TokenScopesSHA256)
	}
	rows, err := ScopeRows()
	if err != nil || len(rows) != 491 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for id, ov := range ScopeOverrides {
		if r, ok := rows[id]; !ok || r.Required != "n/a" || r.Method == ov.Method {
			t.Errorf("override of %s: row %+v", id, r)
		}
	}
}
