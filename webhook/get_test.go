package webhook

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// getRequest is what Forgejo sends for a hook configured with GET: no
// body, no Content-Type, the payload in the query parameter payload next
// to the hook URL's own query, the headers of a POST.
func getRequest(typ EventType, payload, secret, hookQuery string) *http.Request {
	out := Build(typ, []byte(payload), BuildOptions{Secret: secret, DeliveryID: "g1"})
	vals, _ := url.ParseQuery(hookQuery)
	vals["payload"] = []string{payload}
	req := httptest.NewRequest(http.MethodGet, "/hook?"+vals.Encode(), nil)
	req.Header = out.HTTPHeader()
	req.Header.Del("Content-Type")
	return req
}

// TestGETHooks: a GET delivery is parsed like a POST; a GET that is not
// one is refused.
func TestGETHooks(t *testing.T) {
	p := mustParser(t, WithSecret(testSecret), WithMaxBodyBytes(4096))
	withBody := getRequest(EventPush, pushPayload, testSecret, "")
	withBody.Body, withBody.ContentLength = io.NopCloser(strings.NewReader("x")), 1
	twice := getRequest(EventPush, pushPayload, testSecret, "")
	twice.URL.RawQuery += "&payload=%7B%7D"
	badEscape := getRequest(EventPush, pushPayload, testSecret, "")
	badEscape.URL.RawQuery += "&x=%zz"
	for _, tc := range []struct {
		name   string
		req    *http.Request
		status int
		kind   error
	}{
		{"valid", getRequest(EventPush, pushPayload, testSecret, ""), 200, nil},
		{"valid, the hook URL's own query kept", getRequest(EventPush, pushPayload, testSecret, "token=abc&env=prod"), 200, nil},
		{"valid, with a Content-Type anyway", func() *http.Request {
			r := getRequest(EventPush, pushPayload, testSecret, "")
			r.Header.Set("Content-Type", "text/plain")
			return r
		}(), 200, nil},
		{"missing payload", httptest.NewRequest(http.MethodGet, "/hook?token=abc", nil), 400, ErrMalformed},
		{"health check", httptest.NewRequest(http.MethodGet, "/hook", nil), 400, ErrMalformed},
		{"bad signature", getRequest(EventPush, pushPayload, "guessed", ""), 401, ErrBadSignature},
		{"payload changed", func() *http.Request {
			r := getRequest(EventPush, pushPayload, testSecret, "")
			r.URL.RawQuery = url.Values{"payload": {strings.Replace(pushPayload, "main", "prod", 1)}}.Encode()
			return r
		}(), 401, ErrBadSignature},
		{"unsigned", func() *http.Request {
			r := getRequest(EventPush, pushPayload, testSecret, "")
			for _, s := range signatureHeaders {
				r.Header.Del(s.name)
			}
			return r
		}(), 401, ErrMissingSignature},
		{"oversized query", getRequest(EventPush, `{"ref":"refs/heads/main","x":"`+strings.Repeat("a", 4096)+`"}`, testSecret, ""), 413, ErrTooLarge},
		{"two payloads", twice, 400, ErrMalformed},
		{"a body too", withBody, 400, ErrMalformed},
		{"query does not parse", badEscape, 400, ErrMalformed},
		{"resent as another type", func() *http.Request {
			r := getRequest(EventPush, pushPayload, testSecret, "")
			for _, k := range eventTypeHeaders {
				setHeaderFold(r.Header, k, "release")
			}
			return r
		}(), 400, ErrEventMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev, err := p.ParseRequest(tc.req)
			if tc.kind == nil {
				if err != nil {
					t.Fatal(err)
				}
				pe := ev.(*PushEvent)
				if pe.ContentType() != "query" || !pe.Signed() || pe.Branch() != "main" || string(pe.Payload()) != pushPayload || len(pe.RawBody()) != 0 {
					t.Errorf("%+v", pe)
				}
			} else if !errors.Is(err, tc.kind) {
				t.Errorf("err %v, want %v", err, tc.kind)
			}
			var got int
			rt := NewRouter()
			h := must(NewHandler(p, rt))
			HandleNothing := func(context.Context, Event) error { return nil }
			rt.HandleDefault(HandleNothing)
			tc.req.Body = http.NoBody
			if tc.name == "a body too" {
				tc.req.Body = io.NopCloser(strings.NewReader("x"))
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, tc.req)
			got = rec.Code
			if got != tc.status {
				t.Errorf("Handler: %d, want %d", got, tc.status)
			}
		})
	}
}

// TestCapturesAsGET: every real delivery, sent as a GET hook sends it,
// parses into the same event as its POST.
func TestCapturesAsGET(t *testing.T) {
	p := mustParser(t, WithSecret(testSecret))
	n := 0
	for _, c := range loadCaptures(t) {
		post, err := p.Parse(c.body, c.header)
		if err != nil {
			continue
		}
		req := httptest.NewRequest(http.MethodGet, "/?"+url.Values{"payload": {string(c.payload)}}.Encode(), nil)
		req.Header = c.header.Clone()
		req.Header.Del("Content-Type")
		get, err := p.ParseRequest(req)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if get.EventType() != post.EventType() || get.DeliveryID() != post.DeliveryID() || string(get.Payload()) != string(post.Payload()) {
			t.Errorf("%s: %s %s", c.name, get.EventType(), get.DeliveryID())
		}
		n++
	}
	if n < 100 {
		t.Errorf("only %d", n)
	}
}

// TestGETOverHTTP: a GET delivery over a real connection on 127.0.0.1,
// through the durable mode.
func TestGETOverHTTP(t *testing.T) {
	q := NewMemoryQueue(4)
	h := must(NewHandler(mustParser(t, WithSecret(testSecret)), nil, WithQueue(q)))
	srv := httptest.NewServer(h)
	defer srv.Close()
	r := getRequest(EventPush, pushPayload, testSecret, "env=prod")
	req, _ := http.NewRequest(http.MethodGet, srv.URL+r.URL.RequestURI(), nil)
	req.Header = r.Header
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted || q.Len() != 1 {
		t.Fatalf("%d, %d stored", resp.StatusCode, q.Len())
	}
	l, _ := q.Receive(context.Background(), "c", 0)
	if l.Delivery.ContentType != "query" || string(l.Delivery.Payload) != pushPayload || len(l.Delivery.Body) != 0 {
		t.Errorf("%+v", l.Delivery)
	}
}
