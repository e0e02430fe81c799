package webhook

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// canonicalDeliveryIDReference is CanonicalDeliveryID as first written
// (fmt.Sprintf, no fast path): the reference the faster one matches.
func canonicalDeliveryIDReference(id string) string {
	id = strings.TrimSpace(id)
	s := id
	if len(s) > 9 && strings.EqualFold(s[:9], "urn:uuid:") {
		s = s[9:]
	} else if len(s) > 2 && s[0] == '{' && s[len(s)-1] == '}' {
		s = s[1 : len(s)-1]
	}
	var hexDigits []byte
	switch len(s) {
	case 36:
		for i := 0; i < len(s); i++ {
			if i == 8 || i == 13 || i == 18 || i == 23 {
				if s[i] != '-' {
					return id
				}
				continue
			}
			hexDigits = append(hexDigits, s[i])
		}
	case 32:
		hexDigits = []byte(s)
	default:
		return id
	}
	var b [16]byte
	if n, err := hex.Decode(b[:], hexDigits); err != nil || n != 16 {
		return id
	}
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// TestCanonicalDeliveryIDReference: the same answer as the reference for
// UUIDs in every form, damaged ones and other IDs.
func TestCanonicalDeliveryIDReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := "0123456789abcdefABCDEFxg-{} :urnid"
	for range 20000 {
		var b [16]byte
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		u := fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
		forms := []string{u, strings.ToUpper(u), "{" + u + "}", "urn:uuid:" + u, "URN:UUID:" + strings.ToUpper(u),
			strings.ReplaceAll(u, "-", ""), " " + u + "\t", u[:35], u + "0", strings.Replace(u, "-", "x", 1)}
		// A random character somewhere.
		c := []byte(u)
		c[r.IntN(len(c))] = alphabet[r.IntN(len(alphabet))]
		forms = append(forms, string(c), "{"+string(c)+"}")
		for _, f := range forms {
			if got, want := CanonicalDeliveryID(f), canonicalDeliveryIDReference(f); got != want {
				t.Fatalf("%q: %q, reference %q", f, got, want)
			}
		}
	}
	for _, f := range []string{"", " ", "{}", "urn:uuid:", "delivery-1", "ABC", "{" + strings.Repeat("a", 36) + "}"} {
		if got, want := CanonicalDeliveryID(f), canonicalDeliveryIDReference(f); got != want {
			t.Errorf("%q: %q, reference %q", f, got, want)
		}
	}
}
