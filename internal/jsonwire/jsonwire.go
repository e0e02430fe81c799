// Package jsonwire lends the root package's reflection-free JSON decoders
// (decoders_gen.go, on the scanner of jsonscan.go) to the module's other
// packages, without exporting them from the root package: the webhook
// package decodes its events with them. The root package sets Object when
// it is initialised, so any package that imports the root package (as every
// user of Object does) finds it set.
package jsonwire

// Object decodes data, which must be one JSON object, member by member, in
// one pass that also validates it. For each member, field receives the key
// (valid only during the call; unescaped) and whether the value is null,
// and returns where to decode the value, or nil to skip it (validated, not
// stored), and ok false to give up. A destination is a pointer to a model
// of the root package, to a slice of pointers to one, or to a string,
// int64, bool, time.Time, any or json.RawMessage (which receives the raw
// value, null included, copied). Decoding into a destination follows
// encoding/json to the value, null included.
//
// Object reports whether data was one valid JSON object and every value
// decoded into its destination; on false the destinations may be partly
// written, and the caller decodes with encoding/json instead, which
// reports the error.
var Object func(data []byte, field func(key []byte, null bool) (dst any, ok bool)) bool
