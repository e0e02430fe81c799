package forgejo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// This file runs the generated per-operation tests (*_gen_test.go): each
// case names an operation, the request it must produce (method, escaped
// path, query, body) and a representative answer; gnRunCases calls the
// method against an httptest server, checks the request, and compares the
// decoded result field by field with the answer. Helpers are prefixed gn.

type gnKind int

const (
	gnJSON  gnKind = iota // decode the body; compare with want (or respBody)
	gnNone                // NoBody: a 205 with a body, which must be ignored
	gnText                // the body as a string
	gnBytes               // the body as bytes
	gnBool                // 204 true, 404 false
)

type gnCase struct {
	op, name            string // operationId, Service.Method
	method, path, query string // the request the call must produce
	reqType, reqBody    string // its Content-Type and body, "" for none
	kind                gnKind
	status              int
	respBody            string
	want                string // gnJSON: what the result must hold, when not respBody (envelopes)
	alsoEmpty           bool   // the operation may answer 204 with no body: the result is nil
	withheld            bool   // a decode error must not quote the body
	call                gnCallFunc
	iter                func(ctx context.Context, c *Client) (int, error)
	// stream is the streaming form of a file-content operation; its result
	// is what it read, as a string.
	stream gnCallFunc
}

// gnCallFunc calls one operation with the case's sample arguments and
// opts.
type gnCallFunc func(ctx context.Context, c *Client, opts ...RequestOption) (any, *Response, error)

// gnTime is the instant of the generated samples, plus n seconds.
func gnTime(n int) time.Time {
	return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(n) * time.Second)
}

// gnResult and gnNoResult adapt a method's results to gnCase.call.
func gnResult[T any](v T, resp *Response, err error) (any, *Response, error) { return v, resp, err }

func gnNoResult(resp *Response, err error) (any, *Response, error) { return nil, resp, err }

// gnReadAll drains and closes a streaming form's reader.
func gnReadAll(rc io.ReadCloser, resp *Response, err error) (any, *Response, error) {
	if err != nil {
		return nil, resp, err
	}
	if rc == nil {
		return nil, resp, errors.New("a nil reader with a nil error")
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	return string(data), resp, err
}

// gnCount drains an iterator, counting its items.
func gnCount[T any](seq iter.Seq2[T, error]) (int, error) {
	n := 0
	for _, err := range seq {
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// gnSamePage checks that an iterator left the caller's options alone.
func gnSamePage(page int, err error) error {
	if err == nil && page != 2 {
		return fmt.Errorf("the iterator changed the caller's options: Page = %d, want 2", page)
	}
	return err
}

// gnOps records the operation of every attempt.
type gnOps struct {
	mu  sync.Mutex
	ops []string
}

func (o *gnOps) OnRequest(_ context.Context, call CallContext) {
	o.mu.Lock()
	o.ops = append(o.ops, call.Operation)
	o.mu.Unlock()
}

func (o *gnOps) OnResponse(context.Context, CallContext, int) {}

func (o *gnOps) OnError(context.Context, CallContext, error) {}

func gnClient(t *testing.T, url string, obs tObserver) *Client {
	t.Helper()
	// A transport of the test's own: these tests run in parallel, and
	// httptest.Server.Close closes http.DefaultTransport's idle
	// connections, which a parallel test may be picking up.
	c, err := NewClient(WithBaseURL(url), WithRetryPolicy(RetryOff()), withObserver(obs), WithHTTPClient(testHTTPClient()))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func gnRunCases(t *testing.T, cases []gnCase) {
	t.Helper()
	names := map[string]bool{}
	for _, tc := range cases {
		if names[tc.name] {
			t.Fatalf("two cases for %s", tc.name)
		}
		names[tc.name] = true
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gnRunCase(t, tc)
		})
	}
}

func gnRunCase(t *testing.T, tc gnCase) {
	ctx := context.Background()
	gnCheckNotModified(t, tc, tc.call)
	if tc.stream != nil {
		gnCheckNotModified(t, tc, tc.stream)
	}
	switch tc.kind {
	case gnBool:
		for _, st := range []struct {
			status int
			want   bool
		}{{http.StatusNoContent, true}, {http.StatusNotFound, false}} {
			v, _ := gnCall(t, tc, st.status, "application/json", "", tc.call)
			if got, ok := v.(bool); !ok || got != st.want {
				t.Errorf("status %d: result %v, want %v", st.status, v, st.want)
			}
		}
		return
	case gnNone:
		v, resp := gnCall(t, tc, tc.status, "application/json", tc.respBody, tc.call)
		if v != nil || resp == nil || resp.StatusCode != tc.status {
			t.Errorf("result %v, response %v", v, resp)
		}
		return
	case gnText:
		v, _ := gnCall(t, tc, tc.status, "text/plain; charset=utf-8", tc.respBody, tc.call)
		if got, ok := v.(string); !ok || got != tc.respBody {
			t.Errorf("result %#v, want %q", v, tc.respBody)
		}
		gnCheckStream(t, tc, "text/plain; charset=utf-8")
		return
	case gnBytes:
		v, _ := gnCall(t, tc, tc.status, "application/octet-stream", tc.respBody, tc.call)
		if got, ok := v.([]byte); !ok || string(got) != tc.respBody {
			t.Errorf("result %#v, want %q", v, tc.respBody)
		}
		gnCheckStream(t, tc, "application/octet-stream")
		return
	}
	v, _ := gnCall(t, tc, tc.status, "application/json", tc.respBody, tc.call)
	want := tc.want
	if want == "" {
		want = tc.respBody
	}
	gnCheckJSON(t, v, want)
	if tc.alsoEmpty {
		v, _ := gnCall(t, tc, http.StatusNoContent, "", "", tc.call)
		if rv := reflect.ValueOf(v); !rv.IsValid() || !rv.IsNil() {
			t.Errorf("204 with no body: result %#v, want nil", v)
		}
	}
	if tc.withheld {
		const secret = "gn-secret-material-0123456789"
		srv, _ := tsReplyServer(t, tc.status, "application/json", `{"sha1":"`+secret+`", [`)
		_, _, err := tc.call(ctx, gnClient(t, srv.URL, nil))
		var de *DecodeError
		if !errors.As(err, &de) || strings.Contains(err.Error(), secret) || strings.Contains(de.Snippet, secret) {
			t.Errorf("malformed credential body: err = %v", err)
		}
	}
	if tc.iter != nil {
		srv, seen := tsReplyServer(t, tc.status, "application/json", tc.respBody)
		n, err := tc.iter(ctx, gnClient(t, srv.URL, nil))
		if err != nil || n != 1 {
			t.Errorf("iterator: %d items, err %v; want 1 item", n, err)
		}
		if len(seen()) != 1 {
			t.Fatalf("iterator sent %d requests, want 1", len(seen()))
		}
		gnCheckRequest(t, tc, seen()[0])
	}
}

// gnCheckNotModified makes the call conditional (IfNoneMatch) against a
// server answering 304: a nil error, NotModified, and the zero result (a
// streaming form reads nothing from a reader it can close).
func gnCheckNotModified(t *testing.T, tc gnCase, call gnCallFunc) {
	t.Helper()
	srv, seen := tsReplyServer(t, http.StatusNotModified, "", "")
	v, resp, err := call(context.Background(), gnClient(t, srv.URL, nil), IfNoneMatch(`"gn-etag"`))
	if err != nil {
		t.Fatalf("conditional call answered 304: %v", err)
	}
	if rv := reflect.ValueOf(v); rv.IsValid() && !rv.IsZero() {
		t.Errorf("conditional call answered 304: result %#v, want the zero result", v)
	}
	if resp == nil || !resp.NotModified {
		t.Errorf("conditional call answered 304: NotModified is false")
	}
	if len(seen()) != 1 {
		t.Fatalf("conditional call sent %d requests, want 1", len(seen()))
	}
	gnCheckRequest(t, tc, seen()[0])
}

// gnCheckStream runs the streaming form, when the operation has one, and
// checks that it sends the same request and reads the whole body.
func gnCheckStream(t *testing.T, tc gnCase, ctype string) {
	t.Helper()
	if tc.stream == nil {
		return
	}
	v, _ := gnCall(t, tc, tc.status, ctype, tc.respBody, tc.stream)
	if got, ok := v.(string); !ok || got != tc.respBody {
		t.Errorf("stream read %#v, want %q", v, tc.respBody)
	}
}

// gnCall runs the case's call against a server answering status and body,
// and checks the request it produced.
func gnCall(t *testing.T, tc gnCase, status int, ctype, body string, call gnCallFunc) (any, *Response) {
	t.Helper()
	srv, seen := tsReplyServer(t, status, ctype, body)
	obs := &gnOps{}
	v, resp, err := call(context.Background(), gnClient(t, srv.URL, obs))
	if err != nil {
		t.Fatalf("status %d: %v", status, err)
	}
	if len(seen()) != 1 {
		t.Fatalf("sent %d requests, want 1", len(seen()))
	}
	gnCheckRequest(t, tc, seen()[0])
	obs.mu.Lock()
	defer obs.mu.Unlock()
	if len(obs.ops) != 1 || obs.ops[0] != tc.op {
		t.Errorf("observed operations %v, want [%s]", obs.ops, tc.op)
	}
	return v, resp
}

func gnCheckRequest(t *testing.T, tc gnCase, got tsSeen) {
	t.Helper()
	if got.method != tc.method || got.path != tc.path || got.query != tc.query {
		t.Errorf("request %s %s?%s\nwant    %s %s?%s", got.method, got.path, got.query, tc.method, tc.path, tc.query)
	}
	if got.ctype != tc.reqType {
		t.Errorf("Content-Type %q, want %q", got.ctype, tc.reqType)
	}
	switch {
	case tc.reqBody == "":
		if len(got.body) != 0 {
			t.Errorf("body %q, want none", got.body)
		}
	case tc.reqType == "application/json":
		var g, w any
		if err := json.Unmarshal([]byte(got.body), &g); err != nil {
			t.Fatalf("body %s: %v", got.body, err)
		}
		if err := json.Unmarshal([]byte(tc.reqBody), &w); err != nil {
			t.Fatalf("want body %s: %v", tc.reqBody, err)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("body %s\nwant %s", got.body, tc.reqBody)
		}
	default:
		if got.body != tc.reqBody {
			t.Errorf("body %q, want %q", got.body, tc.reqBody)
		}
	}
}

// gnUndeclared is the field every sample answer adds and no model has.
const gnUndeclared = "x_undeclared"

// gnCheckJSON compares a decoded result with the JSON it was decoded from:
// every key of every object must land in the field whose tag names it, with
// the same value.
func gnCheckJSON(t *testing.T, got any, wantJSON string) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(wantJSON))
	dec.UseNumber()
	var want any
	if err := dec.Decode(&want); err != nil {
		t.Fatalf("sample %s: %v", wantJSON, err)
	}
	for _, p := range gnCompare("$", reflect.ValueOf(got), want) {
		t.Error(p)
	}
}

var gnTimeType = reflect.TypeFor[time.Time]()

func gnCompare(path string, got reflect.Value, want any) []string {
	if !got.IsValid() {
		return []string{fmt.Sprintf("%s: no value, want %v", path, want)}
	}
	for got.Kind() == reflect.Pointer || got.Kind() == reflect.Interface {
		if got.IsNil() {
			if want == nil {
				return nil
			}
			return []string{fmt.Sprintf("%s: nil, want %v", path, want)}
		}
		if got.Kind() == reflect.Interface {
			// any fields hold what encoding/json made of the value.
			g, _ := json.Marshal(got.Interface())
			w, _ := json.Marshal(want)
			if !bytes.Equal(g, w) {
				return []string{fmt.Sprintf("%s: %s, want %s", path, g, w)}
			}
			return nil
		}
		got = got.Elem()
	}
	mismatch := func() []string {
		return []string{fmt.Sprintf("%s: %v, want %v", path, got.Interface(), want)}
	}
	if got.Type() == gnTimeType {
		s, _ := want.(string)
		w, err := time.Parse(time.RFC3339, s)
		if err != nil || !got.Interface().(time.Time).Equal(w) {
			return mismatch()
		}
		return nil
	}
	if _, ok := got.Interface().(ldContextMarshaler); ok {
		// A hand-written wire type (LDContext): compare what it encodes to.
		g, _ := json.Marshal(got.Interface())
		w, _ := json.Marshal(want)
		if !bytes.Equal(g, w) {
			return []string{fmt.Sprintf("%s: %s, want %s", path, g, w)}
		}
		return nil
	}
	switch got.Kind() {
	case reflect.Struct:
		obj, ok := want.(map[string]any)
		if !ok {
			return mismatch()
		}
		fields := map[string]reflect.Value{}
		for i := range got.NumField() {
			name, _, _ := strings.Cut(got.Type().Field(i).Tag.Get("json"), ",")
			fields[name] = got.Field(i)
		}
		var out []string
		for key, w := range obj {
			if key == gnUndeclared {
				continue
			}
			f, ok := fields[key]
			if !ok {
				out = append(out, fmt.Sprintf("%s: no field for %q", path, key))
				continue
			}
			out = append(out, gnCompare(path+"."+key, f, w)...)
		}
		return out
	case reflect.Slice:
		arr, ok := want.([]any)
		if !ok || got.Len() != len(arr) {
			return mismatch()
		}
		var out []string
		for i := range arr {
			out = append(out, gnCompare(fmt.Sprintf("%s[%d]", path, i), got.Index(i), arr[i])...)
		}
		return out
	case reflect.Map:
		obj, ok := want.(map[string]any)
		if !ok || got.Len() != len(obj) {
			return mismatch()
		}
		var out []string
		for k, w := range obj {
			out = append(out, gnCompare(path+"."+k, got.MapIndex(reflect.ValueOf(k)), w)...)
		}
		return out
	case reflect.String:
		if s, ok := want.(string); !ok || s != got.String() {
			return mismatch()
		}
	case reflect.Bool:
		if b, ok := want.(bool); !ok || b != got.Bool() {
			return mismatch()
		}
	case reflect.Int, reflect.Int64, reflect.Int32:
		n, ok := want.(json.Number)
		if i, err := n.Int64(); !ok || err != nil || i != got.Int() {
			return mismatch()
		}
	case reflect.Float64:
		n, ok := want.(json.Number)
		if f, err := n.Float64(); !ok || err != nil || f != got.Float() {
			return mismatch()
		}
	default:
		return []string{fmt.Sprintf("%s: unexpected kind %s", path, got.Kind())}
	}
	return nil
}

// ldContextMarshaler is the hand-written encoder gnCompare compares by its
// JSON.
type ldContextMarshaler interface {
	json.Marshaler
	isLDContext()
}

func (LDContext) isLDContext() {}

// testHTTPClient returns a client with a transport of its own, for tests
// that run in parallel.
func testHTTPClient() *http.Client {
	return &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
}
