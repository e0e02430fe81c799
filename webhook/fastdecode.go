package webhook

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"codeberg.org/forgego/forgejo/internal/jsonwire"
)

// The fast path of decode: one pass over the payload with the root
// package's generated decoders (lent through internal/jsonwire), which
// reads the shape check's keys on the way. It gives up on anything out of
// the ordinary (a repeated key, a key that only matches a field
// case-insensitively, a value that does not fit), and decode then takes
// the encoding/json path, which has always been the reference: the fast
// path only ever returns what that path returns (TestFastDecodeDifferential
// on every captured delivery, FuzzFastDecode).

// fieldKind is how the fast path stores one member of an event.
type fieldKind int

const (
	fString   fieldKind = iota // a string type: stored through a *string
	fInt64                     // an int64 type
	fBool                      // a bool type
	fModelPtr                  // *T, T a model the root decoders cover: allocated, or nil for null
	fDirect                    // the field's own address, a type the root decoders cover
	fRaw                       // anything else: the raw value, then encoding/json into the field
)

type eventField struct {
	index int
	kind  fieldKind
	typ   reflect.Type // the field's type
}

// eventTable is the fast path's view of one event type.
type eventTable struct {
	byName map[string]int // JSON name → index into fields
	fields []eventField
	lower  bool // every JSON name is lower-case ASCII
	action int  // the field of "action", or -1
}

var eventTables sync.Map // reflect.Type → *eventTable (nil: no fast path)

var (
	stringPtr = reflect.TypeFor[*string]()
	int64Ptr  = reflect.TypeFor[*int64]()
	boolPtr   = reflect.TypeFor[*bool]()
)

// tableOf is the table of the struct type t, built once; nil when t has a
// member the fast path does not model, so that its events take the
// encoding/json path.
func tableOf(t reflect.Type) *eventTable {
	if v, ok := eventTables.Load(t); ok {
		return v.(*eventTable)
	}
	tbl := buildTable(t)
	eventTables.Store(t, tbl)
	return tbl
}

func buildTable(t reflect.Type) *eventTable {
	tbl := &eventTable{byName: map[string]int{}, lower: true, action: -1}
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" || !sf.IsExported() {
			continue
		}
		if sf.Anonymous {
			return nil // encoding/json would promote its fields
		}
		name, opts, _ := strings.Cut(tag, ",")
		if strings.Contains(opts, "string") {
			return nil
		}
		if name == "" {
			name = sf.Name
		}
		if _, dup := tbl.byName[name]; dup {
			return nil
		}
		for _, c := range name {
			if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
				tbl.lower = false
			}
		}
		f := eventField{index: i, kind: kindOf(sf.Type), typ: sf.Type}
		tbl.byName[name] = len(tbl.fields)
		if name == "action" {
			if f.kind != fString {
				return nil
			}
			tbl.action = i
		}
		tbl.fields = append(tbl.fields, f)
	}
	return tbl
}

// kindOf classifies a field's type. A model or slice of models counts as
// covered only when the root decoders decode an empty one (a hand-written
// model with its own UnmarshalJSON is not covered and goes through fRaw).
func kindOf(t reflect.Type) fieldKind {
	switch t.Kind() {
	case reflect.String:
		return fString
	case reflect.Int64:
		return fInt64
	case reflect.Bool:
		return fBool
	case reflect.Pointer:
		if t.Elem().Kind() == reflect.Struct && covered(reflect.New(t.Elem()).Interface(), `{}`) {
			return fModelPtr
		}
	case reflect.Slice:
		if covered(reflect.New(t).Interface(), `[]`) {
			return fDirect
		}
	}
	return fRaw
}

// covered reports whether the root decoders take dst for the value v.
func covered(dst any, v string) bool {
	return jsonwire.Object([]byte(`{"v":`+v+`}`), func([]byte, bool) (any, bool) { return dst, true })
}

// fastDecode decodes payload into ev, the event of type t (a pointer to an
// event struct), and checks its shape. ok false means the fast path gave
// up, leaving ev partly written: decode then starts again on the
// encoding/json path. With ok true, why is what checkShape would say.
func fastDecode(ev Event, t EventType, payload []byte) (why string, ok bool) {
	rv := reflect.ValueOf(ev).Elem()
	tbl := tableOf(rv.Type())
	if tbl == nil || jsonwire.Object == nil {
		return "", false
	}
	var (
		set     uint64 // fields decoded so far, by index into tbl.fields
		seen    uint64 // shape keys met, null or not
		present uint64 // shape keys met with a value other than null
		raws    [4]struct {
			f   int
			raw json.RawMessage
		}
		nraw int
	)
	if len(tbl.fields) > 64 {
		return "", false
	}
	field := func(key []byte, null bool) (any, bool) {
		if bit, ok := shapeKeyBits[string(key)]; ok {
			if seen&bit != 0 {
				return nil, false // a repeated key: the last one wins on the other path
			}
			seen |= bit
			if !null {
				present |= bit
			}
		}
		i, ok := tbl.byName[string(key)]
		if !ok {
			if tbl.foldsToField(key) {
				return nil, false
			}
			return nil, true // an unknown member: skipped
		}
		if set&(1<<i) != 0 {
			return nil, false
		}
		set |= 1 << i
		f := tbl.fields[i]
		fv := rv.Field(f.index)
		switch f.kind {
		case fString:
			return fv.Addr().Convert(stringPtr).Interface(), true
		case fInt64:
			return fv.Addr().Convert(int64Ptr).Interface(), true
		case fBool:
			return fv.Addr().Convert(boolPtr).Interface(), true
		case fModelPtr:
			if null {
				fv.SetZero()
				return nil, true
			}
			if fv.IsNil() {
				fv.Set(reflect.New(f.typ.Elem()))
			}
			return fv.Interface(), true
		case fDirect:
			return fv.Addr().Interface(), true
		}
		if nraw == len(raws) {
			return nil, false
		}
		raws[nraw].f = i
		nraw++
		return &raws[nraw-1].raw, true
	}
	if !jsonwire.Object(payload, field) {
		return "", false
	}
	for _, r := range raws[:nraw] {
		f := tbl.fields[r.f]
		if json.Unmarshal(r.raw, rv.Field(f.index).Addr().Interface()) != nil {
			return "", false
		}
	}
	s, known := shapes[t]
	if !known {
		return "", true
	}
	has := func(k string) bool { return present&shapeKeyBits[k] != 0 }
	action := func() string {
		if tbl.action < 0 {
			return ""
		}
		return rv.Field(tbl.action).String()
	}
	return shapeProblem(t, s, has, action, func() EventType { return reviewTypeOf(ev) }), true
}

// foldsToField reports whether key, which names no field exactly, names
// one case-insensitively (encoding/json would decode it into that field).
func (tbl *eventTable) foldsToField(key []byte) bool {
	if tbl.lower {
		plain := true
		for _, c := range key {
			if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
				plain = false
				break
			}
		}
		if plain {
			return false
		}
	}
	for name := range tbl.byName {
		if bytes.EqualFold(key, []byte(name)) {
			return true
		}
	}
	return false
}

// reviewTypeOf is the review.type of a decoded review event, as the shape
// check reads it.
func reviewTypeOf(ev Event) EventType {
	var r *Review
	switch e := ev.(type) {
	case *PullRequestReviewEvent:
		r = e.Review
	case *PullRequestEvent:
		r = e.Review
	}
	if r == nil {
		return ""
	}
	return EventType(r.Type)
}

// shapeKeyBits gives each key the shape check reads a bit of its own.
var shapeKeyBits = func() map[string]uint64 {
	m := map[string]uint64{}
	for k := range shapeKeys {
		if len(m) == 64 {
			panic("webhook: more than 64 shape keys")
		}
		m[k] = 1 << len(m)
	}
	return m
}()
