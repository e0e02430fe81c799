package webhook

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

const canonicalTestID = "666ecf9a-d736-4958-90eb-eaed11d5474c"

// withID returns h with every delivery header set to id ("" removes them).
func withID(h http.Header, id string) http.Header {
	h = h.Clone()
	for _, name := range deliveryIDHeaders {
		if id == "" {
			setHeaderFold(h, name)
		} else {
			setHeaderFold(h, name, id)
		}
	}
	return h
}

// TestDeliveryGuardKey is the table of the guard's key: forms of one
// delivery ID must be one delivery, a request naming two different IDs is
// refused, and a delivery without an ID is keyed on its payload.
func TestDeliveryGuardKey(t *testing.T) {
	payload := []byte(`{"ref":"refs/heads/main","before":"a","after":"b","commits":[]}`)
	other := []byte(`{"ref":"refs/heads/other","before":"a","after":"b","commits":[]}`)
	base := Build(EventPush, payload, BuildOptions{Secret: testSecret, DeliveryID: canonicalTestID}).HTTPHeader()
	const (
		dup    = "duplicate" // answered 200, not dispatched again
		fresh  = "new"       // dispatched
		reject = "rejected"  // answered 400, not dispatched
	)
	set := func(name string, vs ...string) func(http.Header) http.Header {
		return func(h http.Header) http.Header {
			h = h.Clone()
			h[name] = vs
			return h
		}
	}
	type vector struct {
		first  func(http.Header) http.Header // the first delivery (nil: base)
		second func(http.Header) http.Header // the second, same payload unless body is set
		body   []byte
		want   string
	}
	id := func(s string) func(http.Header) http.Header {
		return func(h http.Header) http.Header { return withID(h, s) }
	}
	vectors := map[string]vector{
		"upper case":                       {second: id(strings.ToUpper(canonicalTestID)), want: dup},
		"braces":                           {second: id("{" + canonicalTestID + "}"), want: dup},
		"braces, upper case":               {second: id("{" + strings.ToUpper(canonicalTestID) + "}"), want: dup},
		"urn:uuid:":                        {second: id("urn:uuid:" + canonicalTestID), want: dup},
		"URN:UUID:, upper case":            {second: id("URN:UUID:" + strings.ToUpper(canonicalTestID)), want: dup},
		"no hyphens":                       {second: id(strings.ReplaceAll(canonicalTestID, "-", "")), want: dup},
		"surrounding whitespace":           {second: id(" \t" + canonicalTestID + " "), want: dup},
		"first upper, second lower":        {first: id(strings.ToUpper(canonicalTestID)), second: id(canonicalTestID), want: dup},
		"another ID":                       {second: id("0b6a4c1e-1111-4222-8333-444455556666"), want: fresh},
		"two equal values":                 {second: set("X-Forgejo-Delivery", canonicalTestID, canonicalTestID), want: dup},
		"two equal values, forms differ":   {second: set("X-Forgejo-Delivery", canonicalTestID, "{"+strings.ToUpper(canonicalTestID)+"}"), want: dup},
		"two different values":             {second: set("X-Forgejo-Delivery", canonicalTestID, "other-id"), want: reject},
		"two different values, new first":  {second: set("X-Forgejo-Delivery", "other-id", canonicalTestID), want: reject},
		"two values in one line":           {second: set("X-Forgejo-Delivery", canonicalTestID+", other-id"), want: reject},
		"X-Gitea-Delivery disagrees":       {second: set("X-Gitea-Delivery", "other-id"), want: reject},
		"X-Gogs-Delivery disagrees":        {second: set("X-Gogs-Delivery", "other-id"), want: reject},
		"X-GitHub-Delivery disagrees":      {second: set("X-GitHub-Delivery", "other-id"), want: reject},
		"X-Forgejo-Delivery alone differs": {second: set("X-Forgejo-Delivery", "other-id"), want: reject},
		"X-Forgejo-Delivery upper, rest lower": {
			second: set("X-Forgejo-Delivery", strings.ToUpper(canonicalTestID)), want: dup},
		"X-Forgejo-Delivery absent, aliases carry it": {
			second: func(h http.Header) http.Header { h = h.Clone(); delete(h, "X-Forgejo-Delivery"); return h }, want: dup},
		"X-Forgejo-Delivery empty, aliases carry it": {second: set("X-Forgejo-Delivery", ""), want: dup},
		"no ID, same bytes":                          {first: id(""), second: id(""), want: dup},
		"no ID, other bytes":                         {first: id(""), second: id(""), body: other, want: fresh},
		"no ID after an ID, same bytes":              {second: id(""), want: fresh},
		"event type headers disagree":                {second: set("X-Gitea-Event-Type", "issues"), want: reject},
		"two event type values":                      {second: set("X-Forgejo-Event-Type", "push", "release"), want: reject},
	}
	failing := 0
	for name, v := range vectors {
		t.Run(name, func(t *testing.T) {
			var calls atomic.Int32
			rt := NewRouter()
			h := must(NewHandler(mustParser(t, WithSecret(testSecret)), rt, WithGuard(NewMemoryGuard(0))))
			rt.HandleDefault(func(context.Context, Event) error { calls.Add(1); return nil })
			send := func(hdr http.Header, body []byte) int {
				c := capture{body: body, header: hdr}
				for k, vs := range hdr {
					for _, s := range vs {
						c.lines = append(c.lines, HeaderField{k, s})
					}
				}
				return serve(h, c).Code
			}
			first := base
			if v.first != nil {
				first = v.first(base)
			}
			if code := send(first, payload); code != http.StatusOK || calls.Load() != 1 {
				t.Fatalf("first delivery: %d, %d calls", code, calls.Load())
			}
			body := payload
			if v.body != nil {
				body = v.body
			}
			second := v.second(first)
			if v.body != nil {
				for _, name := range []string{"X-Forgejo-Signature", "X-Gitea-Signature", "X-Gogs-Signature"} {
					second.Set(name, Sign(testSecret, body))
				}
				second.Set("X-Hub-Signature-256", "sha256="+Sign(testSecret, body))
			}
			code := send(second, body)
			got := map[bool]string{true: fresh, false: dup}[calls.Load() == 2]
			if code == http.StatusBadRequest && calls.Load() == 1 {
				got = reject
			}
			if got != v.want {
				failing++
				t.Errorf("second delivery %s (%d), want %s", got, code, v.want)
			}
			if v.want == reject {
				_, err := mustParser(t, WithSecret(testSecret)).Parse(body, second)
				if !errors.Is(err, ErrAmbiguous) {
					t.Errorf("Parse: %v, want ErrAmbiguous", err)
				}
			}
		})
	}
	t.Logf("%d vectors, %d failing", len(vectors), failing)
}

func TestCanonicalDeliveryID(t *testing.T) {
	for in, want := range map[string]string{
		canonicalTestID: canonicalTestID,
		"{" + strings.ToUpper(canonicalTestID) + "}":            canonicalTestID,
		"urn:uuid:" + canonicalTestID:                           canonicalTestID,
		" " + strings.ReplaceAll(canonicalTestID, "-", "") + "": canonicalTestID,
		"d-0001":              "d-0001",
		" Not-A-UUID ":        "Not-A-UUID",
		"{not-a-uuid}":        "{not-a-uuid}",
		"urn:uuid:not-a-uuid": "urn:uuid:not-a-uuid",
		"":                    "",
	} {
		if got := CanonicalDeliveryID(in); got != want {
			t.Errorf("CanonicalDeliveryID(%q) = %q, want %q", in, got, want)
		}
	}
}
