package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestReleaseHashes keeps the embedded release specs equal to what
// versions/PROVENANCE.md records, and each spec's info.version equal to
// Releases.
func TestReleaseHashes(t *testing.T) {
	prov, err := os.ReadFile("versions/PROVENANCE.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Releases {
		data, err := ReleaseSpecs.ReadFile(r.File)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != r.SHA256 {
			t.Errorf("%s: sha256 %s, Releases says %s", r.File, got, r.SHA256)
		}
		if !strings.Contains(string(prov), r.SHA256) {
			t.Errorf("%s: PROVENANCE.md does not record %s", r.File, r.SHA256)
		}
		var doc struct {
			Info struct{ Version string } `json:"info"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Info.Version != r.Served || !strings.HasPrefix(r.Served, r.Version+".") {
			t.Errorf("%s: info.version %q, Releases says %q (line %s)", r.File, doc.Info.Version, r.Served, r.Version)
		}
	}
}

// TestVerbOverridesAreQuirks: every override of the spec's method is a
// SpecWrong quirk with its evidence.
func TestVerbOverridesAreQuirks(t *testing.T) {
	for _, op := range Operations {
		if op.Verb != "" && (op.Quirks&SpecWrong == 0 || op.Note == "") {
			t.Errorf("%s: Verb %s without SpecWrong and a Note", op.ID, op.Verb)
		}
	}
}
