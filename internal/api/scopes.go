package api

import (
	_ "embed"
	"fmt"
	"strings"
)

// TokenScopesTSV is the token scope of every operation of the Forgejo 15.0.3
// spec, measured on a real server (provenance in PROVENANCE.md).
//
//go:embed forgejo-15-token-scopes.tsv
var TokenScopesTSV []byte

// TokenScopesSHA256 is TokenScopesTSV's hash, recorded in PROVENANCE.md.
const TokenScopesSHA256 = "c8a0a93d6aef8b0d6aaec0b9dc0bbbdf5edb3dfcd9e6bd17f47dde01b114e783"

// ScopeRow is one row of TokenScopesTSV.
type ScopeRow struct {
	ID, Method, Path string
	// Required is the required_scopes column: "read:repository",
	// "read:repository,read:user" (all of them), "write:user|write:organization"
	// (one, by who owns the repository), "none" or "n/a" (method not routed).
	Required string
}

// ScopeRows parses TokenScopesTSV, keyed by operationId.
func ScopeRows() (map[string]ScopeRow, error) {
	rows := map[string]ScopeRow{}
	for i, line := range strings.Split(strings.TrimRight(string(TokenScopesTSV), "\n"), "\n") {
		if i == 0 || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 4 {
			return nil, fmt.Errorf("token scopes line %d: %d fields", i+1, len(f))
		}
		if _, dup := rows[f[0]]; dup {
			return nil, fmt.Errorf("token scopes line %d: %s twice", i+1, f[0])
		}
		rows[f[0]] = ScopeRow{ID: f[0], Method: f[1], Path: f[2], Required: f[3]}
	}
	return rows, nil
}

// ScopeOverride is the scope of an operation the client sends with another
// method than the measured row's, and the evidence for it.
type ScopeOverride struct {
	Method, Required, Why string
}

// ScopeOverrides are the operations whose row says n/a (the spec's method
// is not routed) and whose row in Operations sends the method the server
// routes; the scope of that method was probed too (the TSV's notes).
var ScopeOverrides = map[string]ScopeOverride{
	"activitypubInstanceActorOutbox": {Method: "GET", Required: "read:activitypub", Why: "the server routes GET only; GET on the same path was probed: 403 [read:activitypub] to write:misc, 200 to read:activitypub"},
	"activitypubRepositoryOutbox":    {Method: "GET", Required: "read:activitypub", Why: "the server routes GET only; GET on the same path was probed: 403 [read:activitypub] to write:misc, 400 (no HTTP signature) to read:activitypub"},
}
