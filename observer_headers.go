package forgejo

import (
	"context"
	"net/http"
	"net/textproto"
)

// This file is which headers a HeaderObserver (observer.go) may add to an
// attempt: canonical names, none the pipeline owns, no credential, no
// control character; and which the redirect rule strips off the base URL's
// origin.

// observerHeaders asks the client's HeaderObserver, if it has one, for the
// attempt's headers, and returns those it may add: canonical names, none
// reserved, none with a control character. It returns nil when there are
// none.
func (c *Client) observerHeaders(ctx context.Context, call CallContext) http.Header {
	ho, ok := c.observer.(HeaderObserver)
	if !ok {
		return nil
	}
	h := safeInjectHeaders(ho, ctx, call)
	if len(h) == 0 {
		return nil
	}
	out := make(http.Header, len(h))
	for name, values := range h {
		canon := textproto.CanonicalMIMEHeaderKey(name)
		if !validHeaderName(canon) || reservedHeaders[canon] || credentialHeader(canon) {
			continue
		}
		var keep []string
		for _, v := range values {
			if !hasControl(v) {
				keep = append(keep, v)
			}
		}
		if len(keep) > 0 {
			out[canon] = append(out[canon], keep...)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func safeInjectHeaders(ho HeaderObserver, ctx context.Context, call CallContext) (h http.Header) {
	h = http.Header{}
	defer func() {
		if recover() != nil {
			h = nil // nothing a panicking observer wrote is sent
		}
	}()
	ho.InjectHeaders(ctx, call, h)
	return h
}

// credentialHeader reports whether a canonical name is one the redirect
// rule strips as a credential (credentialHeaders, client.go).
func credentialHeader(canon string) bool { return credentialHeaderSet[canon] }

var credentialHeaderSet = func() map[string]bool {
	set := make(map[string]bool, len(credentialHeaders))
	for _, name := range credentialHeaders {
		set[textproto.CanonicalMIMEHeaderKey(name)] = true
	}
	return set
}()

// redirectStripped returns the names the redirect rule must remove off the
// base URL's origin: the per-call headers and the observer's.
func redirectStripped(perCall, observed http.Header) http.Header {
	switch {
	case len(observed) == 0:
		return perCall
	case len(perCall) == 0:
		return observed
	}
	names := make(http.Header, len(perCall)+len(observed))
	for name := range perCall {
		names[name] = nil
	}
	for name := range observed {
		names[name] = nil
	}
	return names
}
