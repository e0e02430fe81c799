package secret

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"
)

// TestSecretSetEviction: eviction keeps the credential and the latest
// tokens in every form, and masks nothing of what it dropped.
func TestSecretSetEviction(t *testing.T) {
	s := NewSet(nil, "static-credential-aa11bb22", "pw")
	var toks []string
	for i := 0; i < MaxSourceTokens*3; i++ {
		tok := randomHex(6) + `/é"` + randomHex(6)
		toks = append(toks, tok)
		s.AddToken(tok)
		s.AddToken(tok) // a repeat changes nothing
	}
	for _, f := range s.Forms("static-credential-aa11bb22") {
		if got := s.Scrub("x " + f + " y"); got != "x *** y" {
			t.Errorf("the credential's form %q is not masked: %q", f, got)
		}
	}
	if got := s.Scrub("a pw b"); got != "a *** b" {
		t.Errorf("the short credential is not masked: %q", got)
	}
	for i, tok := range toks {
		kept := i >= len(toks)-MaxSourceTokens
		for _, f := range s.Forms(tok) {
			masked := !strings.Contains(s.Scrub(f), f[:RunLen])
			if masked != kept {
				t.Errorf("token %d form %q: masked %v, want %v", i, f, masked, kept)
			}
		}
	}
	if len(s.tokens) != MaxSourceTokens || len(s.seen) != MaxSourceTokens+2 {
		t.Errorf("tokens %d, seen %d", len(s.tokens), len(s.seen))
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// TestSetMasksRunsAcrossACut: a piece of a secret of RunLen bytes or more
// is masked wherever it appears, so a secret cut in two pieces of RunLen or
// more shows neither.
func TestSetMasksRunsAcrossACut(t *testing.T) {
	const tok = "0123456789abcdef0123456789abcdef01234567"
	s := NewSet(nil, tok)
	for cut := RunLen; cut+RunLen <= len(tok); cut++ {
		for _, piece := range []string{tok[:cut], tok[cut:]} {
			if got := s.Scrub("<" + piece + ">"); got != "<"+Mask+">" {
				t.Fatalf("cut %d: %q scrubbed to %q", cut, piece, got)
			}
		}
	}
}
