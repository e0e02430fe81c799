package webhook

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"

	"codeberg.org/forgego/forgejo/internal/secret"
)

// How the package's types that hold a secret render without it; the one
// mechanism is internal/secret's:
//
//   - [Parser] keeps its secrets in secret.Text fields, and [Delivery] keeps
//     the request's header behind a function, so neither (nor [Handler],
//     nor any event) needs rendering methods;
//   - [BuildOptions] and [HeaderField] have exported secret fields, so they
//     render a masked copy under fmt, log/slog and encoding/json.
//
// [Outgoing] holds its header lines as HeaderFields and so renders masked
// by construction. TestSecretsNeverRender enumerates every exported type
// that holds a secret and checks each.

// sensitiveHeader reports whether a header line carries a credential: the
// hook's authorization header Forgejo sends as Authorization, and the other
// credential headers a proxy may add.
func sensitiveHeader(name string) bool {
	switch http.CanonicalHeaderKey(name) {
	case "Authorization", "Proxy-Authorization", "Cookie":
		return true
	}
	return false
}

// buildOptions is BuildOptions without its rendering methods.
type buildOptions BuildOptions

func (o BuildOptions) masked() buildOptions {
	m := buildOptions(o)
	m.Secret = secret.Masked(m.Secret)
	m.Authorization = secret.Masked(m.Authorization)
	return m
}

// Format renders the options with Secret and Authorization masked ("***"
// when set), under every fmt verb.
func (o BuildOptions) Format(f fmt.State, verb rune) {
	secret.Format(f, verb, "webhook.BuildOptions", o.masked())
}

// LogValue renders the options for log/slog with Secret and Authorization
// masked.
func (o BuildOptions) LogValue() slog.Value { return slog.AnyValue(o.masked()) }

// MarshalJSON encodes the options with Secret and Authorization masked:
// BuildOptions is configuration, never sent as JSON by this package, and
// its secrets do not belong in a log or a stored document.
func (o BuildOptions) MarshalJSON() ([]byte, error) { return json.Marshal(o.masked()) }

// headerField is HeaderField without its rendering methods.
type headerField HeaderField

func (h HeaderField) masked() headerField {
	m := headerField(h)
	if sensitiveHeader(m.Name) {
		m.Value = secret.Masked(m.Value)
	}
	return m
}

// Format renders the header line with the value of a credential header
// (Authorization, Proxy-Authorization, Cookie) masked, under every fmt
// verb. Value itself is unchanged.
func (h HeaderField) Format(f fmt.State, verb rune) {
	secret.Format(f, verb, "webhook.HeaderField", h.masked())
}

// LogValue renders the header line for log/slog with the value of a
// credential header masked.
func (h HeaderField) LogValue() slog.Value { return slog.AnyValue(h.masked()) }

// MarshalJSON encodes the header line with the value of a credential header
// masked.
func (h HeaderField) MarshalJSON() ([]byte, error) { return json.Marshal(h.masked()) }
