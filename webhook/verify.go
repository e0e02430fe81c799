package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"unicode/utf8"

	"codeberg.org/forgego/forgejo/internal/secret"
)

// Sign returns the signature Forgejo sends for payload with secret: the
// lowercase hex HMAC-SHA256 of the payload bytes, keyed with the secret. It
// is the value of X-Forgejo-Signature, X-Gitea-Signature and
// X-Gogs-Signature, and of X-Hub-Signature-256 after "sha256=".
//
// For a form hook, payload is the JSON of the payload field, not the
// URL-encoded body.
func Sign(secret string, payload []byte) string {
	return hex.EncodeToString(mac(secret, payload))
}

func mac(secret string, payload []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(payload)
	return m.Sum(nil)
}

// signatureHeaders are read in this order; the first one present with a
// non-empty value is the signature.
var signatureHeaders = []struct {
	name, prefix string
}{
	{"X-Forgejo-Signature", ""},
	{"X-Gitea-Signature", ""},
	{"X-Gogs-Signature", ""},
	{"X-Hub-Signature-256", "sha256="},
}

// signature returns the signature the delivery carries and the header it
// came from; sig is "" when there is none (a hook without secret sends the
// headers empty, and X-Hub-Signature-256 as a bare "sha256="). valid is false
// for a value that cannot be a SHA-256 signature (X-Hub-Signature-256
// without its prefix).
func signature(h http.Header) (sig, from string, valid bool) {
	for _, sh := range signatureHeaders {
		v := strings.TrimSpace(headerValue(h, sh.name))
		if v == "" {
			continue
		}
		if sh.prefix != "" {
			rest, ok := strings.CutPrefix(v, sh.prefix)
			if !ok {
				return v, sh.name, false
			}
			if rest == "" {
				continue
			}
			v = rest
		}
		return v, sh.name, true
	}
	return "", "", false
}

// Verify checks the signature of a delivery's JSON payload against the
// secrets, any of which may match (several during a rotation). It returns nil
// or an [*Error] of kind ErrMissingSignature or ErrBadSignature.
//
// For a form hook, payload is the decoded payload field ([Parser.Parse] does
// this for you). Verify needs at least one secret; with none it reports
// ErrMissingSignature.
func Verify(payload []byte, header http.Header, secrets ...string) error {
	held := make([]secret.Text, 0, len(secrets))
	for _, s := range secrets {
		held = append(held, secret.New(s))
	}
	return verify(payload, header, held)
}

// verify is [Verify] with the secrets as a [Parser] holds them.
func verify(payload []byte, header http.Header, secrets []secret.Text) error {
	sig, from, valid := signature(header)
	if sig == "" {
		return &Error{Kind: ErrMissingSignature, Detail: "no X-Forgejo-Signature, X-Gitea-Signature, X-Gogs-Signature or X-Hub-Signature-256 value"}
	}
	got, err := hex.DecodeString(sig)
	if !valid || err != nil || len(got) != sha256.Size {
		return &Error{Kind: ErrBadSignature, Detail: from + " is not a hex SHA-256 HMAC"}
	}
	ok := false
	for _, s := range secrets {
		if s.IsZero() {
			continue
		}
		// Compare against every secret, without stopping early, so the
		// time taken does not tell which one matched.
		if hmac.Equal(got, mac(s.Reveal(), payload)) {
			ok = true
		}
	}
	if !ok {
		return &Error{Kind: ErrBadSignature, Detail: from + " matches no configured secret"}
	}
	return nil
}

// headerValuesOf is h.Values(name) for each of names, with the same
// case-insensitive fallback as [headerValue] (the values of every key that
// spells the name): vs[i] are the values of names[i]. canonical is
// canonicalASCIIKeys(h).
func headerValuesOf(h http.Header, canonical bool, names []string) (vs [][]string) {
	vs = make([][]string, len(names))
	if canonical {
		// As a server builds it: every key in canonical form, so the one
		// key that spells a name (if any) is the name's canonical form.
		for i, name := range names {
			vs[i] = h[name] // names are canonical (TestHeaderNamesCanonical)
		}
		return vs
	}
	for k, kv := range h {
		ascii := true
		for i := range len(k) {
			if k[i] >= utf8.RuneSelf {
				ascii = false
				break
			}
		}
		for i, name := range names {
			// Case folding keeps an ASCII key's length: a key of
			// another length cannot spell name.
			if (!ascii || len(k) == len(name)) && strings.EqualFold(k, name) {
				vs[i] = append(vs[i], kv...)
			}
		}
	}
	return vs
}

// canonicalASCIIKeys reports whether every key of h is ASCII and cased as
// textproto canonicalizes (upper case at the start and after each hyphen,
// lower case elsewhere): then the one key that spells a name, if any, is
// the name's canonical form. A non-ASCII key could still match a name by
// Unicode case folding.
func canonicalASCIIKeys(h http.Header) bool {
	for k := range h {
		upper := true
		for i := range len(k) {
			c := k[i]
			switch {
			case c >= utf8.RuneSelf:
				return false
			case upper && 'a' <= c && c <= 'z', !upper && 'A' <= c && c <= 'Z':
				return false
			}
			upper = c == '-'
		}
	}
	return true
}

// headerValue is h.Get(name), falling back to a case-insensitive search so
// that header maps built by hand (from a queue message, a serverless event
// with lower-case names, or Forgejo's own "X-GitHub-Event" spelling) work.
func headerValue(h http.Header, name string) string {
	if vs, ok := h[http.CanonicalHeaderKey(name)]; ok {
		if len(vs) == 0 {
			return ""
		}
		return vs[0]
	}
	for k, vs := range h {
		if strings.EqualFold(k, name) && len(vs) > 0 {
			return vs[0]
		}
	}
	return ""
}
