package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// This file reads the pinned Swagger 2.0 document into the few shapes the
// generator needs. Only the keywords the spec actually uses are modelled;
// anything else fails loudly rather than being guessed at.

// Schema is a Swagger schema object, as far as the Forgejo spec uses it.
type Schema struct {
	Ref                  string             `json:"$ref"`
	Type                 string             `json:"type"`
	Format               string             `json:"format"`
	Description          string             `json:"description"`
	Title                string             `json:"title"`
	Items                *Schema            `json:"items"`
	Properties           map[string]*Schema `json:"properties"`
	AdditionalProperties *Schema            `json:"additionalProperties"`
	Required             []string           `json:"required"`
	Enum                 []any              `json:"enum"`
}

// refName returns the definition a $ref points at, or "".
func (s *Schema) refName() string {
	if s == nil || s.Ref == "" {
		return ""
	}
	return s.Ref[strings.LastIndex(s.Ref, "/")+1:]
}

// Param is an operation parameter.
type Param struct {
	Name             string  `json:"name"`
	In               string  `json:"in"`
	Type             string  `json:"type"`
	Format           string  `json:"format"`
	Description      string  `json:"description"`
	CollectionFormat string  `json:"collectionFormat"`
	Required         bool    `json:"required"`
	Items            *Schema `json:"items"`
	Schema           *Schema `json:"schema"`
	Enum             []any   `json:"enum"`
}

// SpecResponse is one response of an operation (or a shared response).
type SpecResponse struct {
	Ref         string  `json:"$ref"`
	Description string  `json:"description"`
	Schema      *Schema `json:"schema"`
}

// SpecOp is one operation of the spec, with its method and path.
type SpecOp struct {
	ID          string                  `json:"operationId"`
	Summary     string                  `json:"summary"`
	Description string                  `json:"description"`
	Tags        []string                `json:"tags"`
	Consumes    []string                `json:"consumes"`
	Produces    []string                `json:"produces"`
	Parameters  []Param                 `json:"parameters"`
	Responses   map[string]SpecResponse `json:"responses"`
	Deprecated  bool                    `json:"deprecated"`

	Verb string `json:"-"` // upper case
	Path string `json:"-"`

	overridden bool // Verb is the table's, not the spec's (applyVerbOverrides)
}

// Spec is the parsed document.
type Spec struct {
	Ops         map[string]*SpecOp
	Definitions map[string]*Schema
	Responses   map[string]SpecResponse
}

var httpVerbs = []string{"get", "put", "post", "patch", "delete", "head", "options"}

func parseSpec(data []byte) (*Spec, error) {
	var doc struct {
		Paths       map[string]map[string]json.RawMessage `json:"paths"`
		Definitions map[string]*Schema                    `json:"definitions"`
		Responses   map[string]SpecResponse               `json:"responses"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("parse spec: %w", err)
	}
	s := &Spec{Ops: map[string]*SpecOp{}, Definitions: doc.Definitions, Responses: doc.Responses}
	for path, item := range doc.Paths {
		for key := range item {
			if key != "parameters" && !contains(httpVerbs, key) {
				return nil, fmt.Errorf("path %s: unexpected key %q", path, key)
			}
			if key == "parameters" {
				return nil, fmt.Errorf("path %s: path-level parameters are not supported", path)
			}
		}
		for _, verb := range httpVerbs {
			raw, ok := item[verb]
			if !ok {
				continue
			}
			op := new(SpecOp)
			if err := json.Unmarshal(raw, op); err != nil {
				return nil, fmt.Errorf("parse %s %s: %w", verb, path, err)
			}
			if op.ID == "" {
				return nil, fmt.Errorf("%s %s has no operationId", verb, path)
			}
			if _, dup := s.Ops[op.ID]; dup {
				return nil, fmt.Errorf("operationId %s appears twice", op.ID)
			}
			op.Verb, op.Path = strings.ToUpper(verb), path
			s.Ops[op.ID] = op
		}
	}
	return s, nil
}

// success returns the operation's 2xx responses, shared ones resolved, in
// status order.
func (s *Spec) success(op *SpecOp) ([]string, []SpecResponse, error) {
	var codes []string
	for code := range op.Responses {
		if strings.HasPrefix(code, "2") {
			codes = append(codes, code)
		}
	}
	sort.Strings(codes)
	out := make([]SpecResponse, len(codes))
	for i, code := range codes {
		r := op.Responses[code]
		if r.Ref != "" {
			name := r.Ref[strings.LastIndex(r.Ref, "/")+1:]
			shared, ok := s.Responses[name]
			if !ok {
				return nil, nil, fmt.Errorf("%s: unresolved response %s", op.ID, r.Ref)
			}
			r = shared
		}
		out[i] = r
	}
	return codes, out, nil
}

// def resolves a $ref.
func (s *Spec) def(sc *Schema) (*Schema, string) {
	name := sc.refName()
	if name == "" {
		return sc, ""
	}
	return s.Definitions[name], name
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
