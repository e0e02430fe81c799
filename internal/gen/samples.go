package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// This file synthesises the sample values of the generated tests: arguments,
// query options, request bodies (as a Go literal and the JSON it must
// marshal to) and representative responses, with distinctive values so that
// a test can tell that every field arrived where it belongs.

// sampleBase is the instant behind every sample time; the test helper
// gnTime(n) returns it plus n seconds.
var sampleBase = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// maxDepth bounds how deep samples nest objects (Repository.parent is a
// Repository...).
const maxDepth = 2

// undeclaredKey is added to every sample response object: the client must
// ignore fields it does not model.
const undeclaredKey = "x_undeclared"

type sampler struct {
	m *models
	n int
}

func (s *sampler) next() int { s.n++; return s.n }

// response returns a representative JSON value for t.
func (s *sampler) response(t *gtype, depth int, key string) (any, bool) {
	switch t.kind {
	case kString:
		return fmt.Sprintf("%s-%d", key, s.next()), true
	case kInt, kDuration:
		return int64(1000 + s.next()), true
	case kFloat:
		return float64(s.next()) + 0.5, true
	case kBool:
		return true, true
	case kTime:
		return sampleBase.Add(time.Duration(s.next()) * time.Second).Format(time.RFC3339), true
	case kAny:
		return fmt.Sprintf("any-%d", s.next()), true
	case kSlice:
		v, ok := s.response(t.elem, depth, key)
		if !ok {
			return nil, false
		}
		return []any{v}, true
	case kMap:
		v, ok := s.response(t.elem, depth, key)
		if !ok {
			return nil, false
		}
		return map[string]any{fmt.Sprintf("key-%d", s.next()): v}, true
	}
	td := s.m.lookup(t)
	switch td.cat {
	case catAlias, catSlice, catMap:
		return s.response(td.target, depth, key)
	}
	if depth > maxDepth {
		return nil, false
	}
	obj := map[string]any{}
	for _, f := range td.fields {
		if v, ok := s.response(f.typ, depth+1, f.json); ok {
			obj[f.json] = v
		}
	}
	if depth == 0 {
		obj[undeclaredKey] = 1
	}
	return obj, true
}

// goLit is a sample request value: a Go expression and the JSON value it
// marshals to.
type goLit struct {
	expr string
	json any
}

// request returns a sample value of t for a request body. ok is false when
// the sample is left unset (too deep).
func (s *sampler) request(t *gtype, depth int, key string) (goLit, bool) {
	if t.kind == kNamed && t.name == "LabelRef" {
		v := int64(100 + s.next())
		return goLit{fmt.Sprintf("LabelID(%d)", v), v}, true
	}
	switch t.kind {
	case kString:
		v := fmt.Sprintf("%s-%d", key, s.next())
		return goLit{strconv.Quote(v), v}, true
	case kInt, kDuration:
		v := int64(1000 + s.next())
		return goLit{strconv.FormatInt(v, 10), v}, true
	case kFloat:
		v := float64(s.next()) + 0.5
		return goLit{strconv.FormatFloat(v, 'f', -1, 64), v}, true
	case kBool:
		return goLit{"true", true}, true
	case kTime:
		n := s.next()
		return goLit{fmt.Sprintf("gnTime(%d)", n), sampleBase.Add(time.Duration(n) * time.Second).Format(time.RFC3339)}, true
	case kAny:
		v := fmt.Sprintf("any-%d", s.next())
		return goLit{strconv.Quote(v), v}, true
	case kSlice:
		e, ok := s.request(t.elem, depth, key)
		if !ok {
			return goLit{}, false
		}
		return goLit{s.m.goType(t) + "{" + e.expr + "}", []any{e.json}}, true
	case kMap:
		e, ok := s.request(t.elem, depth, key)
		if !ok {
			return goLit{}, false
		}
		k := fmt.Sprintf("key-%d", s.next())
		return goLit{s.m.goType(t) + "{" + strconv.Quote(k) + ": " + e.expr + "}", map[string]any{k: e.json}}, true
	}
	td := s.m.lookup(t)
	switch td.cat {
	case catAlias:
		return s.request(td.target, depth, key)
	case catSlice:
		e, ok := s.request(td.target.elem, depth, key)
		if !ok {
			return goLit{}, false
		}
		return goLit{td.name + "{" + e.expr + "}", []any{e.json}}, true
	case catMap:
		e, ok := s.request(td.target.elem, depth, key)
		if !ok {
			return goLit{}, false
		}
		k := fmt.Sprintf("key-%d", s.next())
		return goLit{td.name + "{" + strconv.Quote(k) + ": " + e.expr + "}", map[string]any{k: e.json}}, true
	}
	if depth > maxDepth {
		return goLit{}, false
	}
	var b strings.Builder
	obj := map[string]any{}
	b.WriteString("&" + td.name + "{\n")
	for _, f := range td.fields {
		typ, opts := s.m.fieldType(td, f)
		v, ok := s.request(f.typ, depth+1, f.json)
		if !ok {
			if opts == "" {
				obj[f.json] = nil // not set, and sent anyway: null
			}
			continue
		}
		expr := v.expr
		if strings.HasPrefix(typ, "*") && !s.m.isStruct(f.typ) {
			expr = "Ptr[" + typ[1:] + "](" + expr + ")"
		}
		fmt.Fprintf(&b, "%s: %s,\n", f.name, expr)
		obj[f.json] = v.json
	}
	b.WriteString("}")
	return goLit{b.String(), obj}, true
}

// escape percent-encodes like the client does (RFC 3986 unreserved
// characters stay literal).
func escape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

func mustJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(data)
}
