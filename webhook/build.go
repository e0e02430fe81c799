package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
)

// BuildOptions describes the hook a delivery is built for.
type BuildOptions struct {
	// Secret is the hook's secret. Empty builds what Forgejo sends for a
	// hook without one: the signature headers present but empty (and
	// X-Hub-Signature/-256 as bare "sha1="/"sha256=").
	Secret string
	// Form builds the delivery of a hook with content_type form: the body
	// is payload=<URL-encoded JSON>, the signature still covers the JSON.
	Form bool
	// DeliveryID is the delivery's UUID; empty draws a random one.
	DeliveryID string
	// Authorization is the hook's authorization header, sent as
	// Authorization when not empty.
	Authorization string
}

// HeaderField is one header line.
type HeaderField struct {
	Name  string
	Value string
}

// Outgoing is a delivery as Forgejo 15 sends it: the body and the header
// lines, for tests and tools that play the part of a Forgejo instance.
type Outgoing struct {
	// Body is the request body: the payload for a JSON hook, the URL-encoded
	// form for a form hook.
	Body []byte
	// Header holds the header lines Forgejo sets, with Forgejo's spelling
	// (X-GitHub-Event, not X-Github-Event) and in the order they go on the
	// wire, which is sorted by name. Go's HTTP client adds Host, User-Agent
	// and Content-Length before them and Accept-Encoding after them.
	Header []HeaderField
}

// Build returns the delivery Forgejo 15 sends for the event type t with the
// JSON payload, as seen on the wire: Content-Type, the X-Forgejo-*,
// X-GitHub-*, X-Gitea-* and X-Gogs-* delivery, event, event type and
// signature headers, X-Hub-Signature (HMAC-SHA1) and X-Hub-Signature-256.
// X-Forgejo-Event carries [EventType.Family] (empty for package events, as
// Forgejo sends it). payload is used as given, not checked.
func Build(t EventType, payload []byte, o BuildOptions) *Outgoing {
	id := o.DeliveryID
	if id == "" {
		id = newUUID()
	}
	var sig256, sig1 string
	if o.Secret != "" {
		sig256 = Sign(o.Secret, payload)
		m := hmac.New(sha1.New, []byte(o.Secret))
		m.Write(payload)
		sig1 = hex.EncodeToString(m.Sum(nil))
	}
	out := &Outgoing{}
	contentType := "application/json"
	if o.Form {
		contentType = "application/x-www-form-urlencoded"
		out.Body = []byte(url.Values{"payload": {string(payload)}}.Encode())
	} else {
		out.Body = bytes.Clone(payload)
	}
	family := t.Family()
	if o.Authorization != "" {
		out.Header = append(out.Header, HeaderField{"Authorization", o.Authorization})
	}
	out.Header = append(out.Header, HeaderField{"Content-Type", contentType})
	for _, prefix := range []string{"X-Forgejo-", "X-GitHub-", "X-Gitea-", "X-Gogs-"} {
		out.Header = append(out.Header,
			HeaderField{prefix + "Delivery", id},
			HeaderField{prefix + "Event", family},
			HeaderField{prefix + "Event-Type", string(t)},
		)
		if prefix != "X-GitHub-" {
			out.Header = append(out.Header, HeaderField{prefix + "Signature", sig256})
		}
	}
	out.Header = append(out.Header,
		HeaderField{"X-Hub-Signature", "sha1=" + sig1},
		HeaderField{"X-Hub-Signature-256", "sha256=" + sig256},
	)
	return out
}

// HTTPHeader returns the header lines as an http.Header, keyed with
// Forgejo's spelling (so h["X-GitHub-Event"], not h.Get, finds that one;
// this package's parser matches names case-insensitively).
func (o *Outgoing) HTTPHeader() http.Header {
	h := make(http.Header, len(o.Header))
	for _, f := range o.Header {
		h[f.Name] = append(h[f.Name], f.Value)
	}
	return h
}

// NewRequest returns a POST of the delivery to url, ready for an
// http.Client.
func (o *Outgoing) NewRequest(ctx context.Context, url string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(o.Body))
	if err != nil {
		return nil, err
	}
	req.Header = o.HTTPHeader()
	return req, nil
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
