// Package api holds the pinned Forgejo API spec (forgejo-swagger.v1.json,
// provenance in PROVENANCE.md) and the curated per-operation table that,
// together, drive code generation (see internal/gen).
//
// The spec says what the wire looks like; the table says what the spec cannot:
// the Go name of each operation, whether it may be repeated and why, how it
// pages, what its response really is, and which measured quirks apply.
// Nothing here is imported by the forgejo package at run time.
package api

import _ "embed"

// Spec is the pinned Swagger 2.0 document, byte for byte as served.
//
//go:embed forgejo-swagger.v1.json
var Spec []byte

// SpecSHA256 is the hash of Spec recorded in PROVENANCE.md; a test keeps
// the two in step so that a re-pin is always deliberate.
const SpecSHA256 = "90c40aa5e69a387700d1f28f6e61ba3ed01837b96e21fdfd8795e944fddaf9d5"

// Retry is an operation's retry eligibility (forgejo.RetryEligibility).
type Retry int

const (
	// Idempotent repeats the call only when its method is GET or HEAD.
	Idempotent Retry = iota + 1
	// Never repeats the call: it creates something or applies a delta.
	Never
	// Always repeats the call on a retryable failure: it names one resource
	// and states its whole intended state, so N attempts equal one.
	Always
)

// Paging is how an operation pages.
type Paging int

const (
	// NoPaging: the operation takes no paging parameters.
	NoPaging Paging = iota
	// PageLimit: `page` and `limit`, always sent together.
	PageLimit
	// PageOnly: `page` alone; the instance picks the size
	// (repoGetWikiPageRevisions).
	PageOnly
	// PagePerPage: `page` and `per_page` (GetTree ignores `limit`).
	PagePerPage
)

// Response is what a successful call answers, as the client must read it.
type Response int

const (
	// JSON decodes the body into the operation's model.
	JSON Response = iota
	// NoBody ignores whatever body arrives (204, 205, or a 200/201 whose
	// body the client deliberately does not model).
	NoBody
	// Contents is the repoGetContents union: an object for a file, an array
	// for a directory.
	Contents
	// Text returns the body as a string (signing keys, rendered markdown,
	// diffs and patches).
	Text
	// Bytes returns the raw body, bounded by the download limit (archives,
	// raw files, ZIP downloads).
	Bytes
	// Bool is a check: 204 means yes, 404 means no.
	Bool
)

// Quirk is a bit set of measured behaviours that differ from the spec.
type Quirk uint32

const (
	// EnvelopeOKData: the body is {"ok": true, "data": [...]} although the
	// listing is an array of the items (/repos/search, /users/search).
	EnvelopeOKData Quirk = 1 << iota
	// EnvelopeTopics: the body is {"topics": [...]} but the call is a paged
	// listing of topic names (repoListTopics).
	EnvelopeTopics
	// NoLink: the instance sends X-Total-Count but no Link header, so the
	// walker decides by count (forks, stargazers, labels, milestones,
	// issue comments, pull reviews/commits/files...).
	NoLink
	// TextPlainBody: the request body is text/plain, not JSON
	// (POST /markdown/raw).
	TextPlainBody
	// Multipart: the request body is multipart/form-data (attachment and
	// asset uploads, avatars where the spec says so).
	Multipart
	// MarkRead: a mark-read call; the instance answers 205, possibly with a
	// body, which the client ignores.
	MarkRead
	// Unpaged: an array response with no paging parameters at all (the
	// instance returns everything in one response).
	Unpaged
	// CredentialBody: a success body carries a credential (created token,
	// OAuth2 client secret, runner registration token); decode-error snippets
	// and logs must withhold it.
	CredentialBody
	// SpecWrong: the spec's response schema is wrong for this operation;
	// Note says how.
	SpecWrong
	// WrappedList: the spec declares a bare array, but Gitea wraps it in
	// {"<items>": [...], "total_count": n} (docs/HAZARDS.md §11). Only these
	// listings are unwrapped; anywhere else an object where a list was
	// expected is a decode error, never a short list.
	WrappedList
)

// Op is one row of the curated table.
type Op struct {
	// ID is the operationId in the spec, kept on record whatever the Go name.
	ID string
	// Service is the Go service (Services); Method is the Go method name.
	// Both follow the naming rules in naming.go.
	Service string
	Method  string
	// Renamed is the reason Method departs from a naming rule, or "".
	Renamed string
	// Retry is the eligibility; Why is its one-line reason, stated for every
	// operation that is not a plain read.
	Retry Retry
	Why   string
	// Paging and Response are what the client sends and reads.
	Paging   Paging
	Response Response
	// Quirks are measured differences from the spec; Note explains any that
	// need words.
	Quirks Quirk
	Note   string
	// Doc, when set, replaces the sentence the generator derives from the
	// spec's summary at the top of the method's doc comment: one or more
	// sentences of Go doc text, without the "METHOD /path" line, which the
	// generator always adds.
	Doc string
	// HandWritten, when set, says why the method is written by hand in the
	// forgejo package rather than generated (the contents union, multipart
	// uploads, ...). The generator still emits the operation's entry in the
	// operations table and leaves the method, its options and its test to
	// the hand-written file.
	HandWritten string
	// DropBody, when set, says why the spec's (optional) request body is not
	// modelled: the method takes no body argument and sends none.
	DropBody string
	// Defaults are query parameters the client sends with the given value
	// when the caller leaves them empty, because servers disagree on the
	// default the spec promises (Note gives the evidence).
	Defaults map[string]string
	// Verb, when set, is the HTTP method the server really routes where the
	// spec states another (Quirks must include SpecWrong, and Note must give
	// the evidence): the client sends Verb. A re-pin that fixes the spec
	// fails the generator until the override is removed.
	Verb string
	// Stream marks an operation whose result is file content (a Bytes or
	// Text response that is a file, an archive, a diff or a log): it also
	// gets a streaming method (rule N10).
	Stream bool
}
