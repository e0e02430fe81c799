package webhook

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// headerValuesSlow is headerValuesOf without its fast path: every key
// compared with every name, case-insensitively.
func headerValuesSlow(h http.Header, names []string) [][]string {
	vs := make([][]string, len(names))
	for k, kv := range h {
		for i, name := range names {
			if strings.EqualFold(k, name) {
				vs[i] = append(vs[i], kv...)
			}
		}
	}
	return vs
}

// TestHeaderValuesOf: the fast path (a server's canonical keys) finds what
// the case-insensitive search finds, for keys a hand-built map or a hostile
// sender may carry.
func TestHeaderValuesOf(t *testing.T) {
	keys := []string{
		"X-Forgejo-Delivery", "x-forgejo-delivery", "X-FORGEJO-DELIVERY", "X-Gitea-Delivery", "X-Github-Delivery", "X-GitHub-Delivery",
		"X-Gogs-Delivery", "X-Gogſ-Delivery", "X-Forgejo-Event-Type", "x-gitea-event-type", "X-Gogs-Event-Type", "X-Github-Event-Type",
		"Content-Type", "X-Forgejo-Delivery ", " X-Forgejo-Delivery", "X-Forgejo_Delivery", "X-\u212aorgejo-Delivery", "",
	}
	names := slices.Concat(deliveryIDHeaders, eventTypeHeaders)
	// Every subset of up to three keys, each with its own value.
	check := func(h http.Header) {
		t.Helper()
		got, want := headerValuesOf(h, canonicalASCIIKeys(h), names), headerValuesSlow(h, names)
		for i := range names {
			g, w := slices.Sorted(slices.Values(got[i])), slices.Sorted(slices.Values(want[i]))
			if !slices.Equal(g, w) {
				t.Fatalf("%v: %s: got %q, want %q", h, names[i], g, w)
			}
		}
	}
	for i := range keys {
		for j := i; j < len(keys); j++ {
			for k := j; k < len(keys); k++ {
				h := http.Header{}
				for n, key := range []string{keys[i], keys[j], keys[k]} {
					h[key] = append(h[key], key+"="+string(rune('a'+n)))
				}
				check(h)
			}
		}
	}
}

// TestHeaderNamesCanonical: the header-name lists headerValuesOf reads are
// spelled in canonical form, which its fast path looks up as they are.
func TestHeaderNamesCanonical(t *testing.T) {
	for _, name := range slices.Concat(deliveryIDHeaders, eventTypeHeaders) {
		if c := http.CanonicalHeaderKey(name); c != name {
			t.Errorf("%q is spelled %q in canonical form", name, c)
		}
	}
}

// setHeaderFold replaces every key of h that spells name, in any case
// (Build keeps Forgejo's X-GitHub- spelling), with name set to vs; no vs
// removes it.
func setHeaderFold(h http.Header, name string, vs ...string) {
	for k := range h {
		if strings.EqualFold(k, name) {
			delete(h, k)
		}
	}
	if len(vs) > 0 {
		h[name] = vs
	}
}
