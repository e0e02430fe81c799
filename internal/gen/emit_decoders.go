package main

import (
	"fmt"
	"strings"
)

// This file writes decoders_gen.go: a reflection-free decoder for every
// struct of the models, built on the scanner of jsonscan.go, and
// jdGenerated, which dispatches a result pointer to the decoder of its
// type (the model, a slice of it, or a named slice or map type). It also
// writes decoders_gen_test.go: every model, and a sample body of each, for
// the equivalence tests against encoding/json.

// emitDecoders writes decoders_gen.go.
func emitDecoders(m *models) string {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("package forgejo\n\nimport \"time\"\n\n")
	b.WriteString(comment("", "This file holds a reflection-free JSON decoder for every model (see jsonscan.go for the rules they keep)."))
	b.WriteString("\nvar _ time.Duration\n\n")
	types := m.sortedTypes()
	// The dispatch.
	b.WriteString(comment("", "jdGenerated decodes into a pointer to a model, to a slice of pointers to one, or to a named slice or map type; false for any other type."))
	b.WriteString("func jdGenerated(d *jdec, out any) bool {\n\tswitch p := out.(type) {\n")
	for _, td := range types {
		switch {
		case handWrittenModels[td.specName] != "":
			// Hand-written (emit_versions.go): its own UnmarshalJSON, so
			// encoding/json, decodes it; fields of its type call that.
		case td.cat == catStruct:
			fmt.Fprintf(&b, "\tcase *%s:\n\t\tjd%s(d, p)\n", td.name, td.name)
			fmt.Fprintf(&b, "\tcase *[]*%s:\n\t\tjdSlicePtr(d, p, jd%s)\n", td.name, td.name)
		case td.cat == catSlice, td.cat == catMap:
			fmt.Fprintf(&b, "\tcase *%s:\n\t\t%s\n", td.name, decodeCall(m, &gtype{kind: kNamed, name: td.name}, "p"))
		}
	}
	b.WriteString("\tdefault:\n\t\treturn false\n\t}\n\treturn true\n}\n\n")
	for _, td := range types {
		if td.cat != catStruct || handWrittenModels[td.specName] != "" {
			continue
		}
		emitDecoder(&b, m, td)
	}
	return b.String()
}

func emitDecoder(b *strings.Builder, m *models, td *typeDef) {
	lower := true
	var names, keys []string
	for _, f := range td.fields {
		if strings.ContainsAny(f.json, "\"\\") || strings.ContainsFunc(f.json, func(r rune) bool { return r < ' ' }) {
			// field compares a name with the key's raw bytes.
			panic("decoder: JSON name " + f.json + " would need escaping")
		}
		names = append(names, fmt.Sprintf("%q", f.json))
		keys = append(keys, fmt.Sprintf("`\"%s\":`", f.json))
		for _, c := range f.json {
			if c >= 0x80 || ('A' <= c && c <= 'Z') {
				lower = false
			}
		}
	}
	fmt.Fprintf(b, "var (\n\tjk%[1]s = []string{%[2]s}\n\tjo%[1]s = newJDOrder(%[3]s)\n)\n\n", td.name, packed(names), packed(keys))
	fmt.Fprintf(b, "func jd%s(d *jdec, v *%s) {\n", td.name, td.name)
	b.WriteString("\tif !d.obj() {\n\t\treturn\n\t}\n")
	// The learned order (jdOrder) guesses each key from the one before;
	// an unknown key leaves prev where it was.
	fmt.Fprintf(b, "\to, prev := jo%s, -1\n\tfor more, i := d.field(true, o, prev); more; more, i = d.field(false, o, prev) {\n", td.name)
	b.WriteString("\t\tif i < 0 {\n\t\t\tswitch string(d.key) {\n")
	for i, f := range td.fields {
		fmt.Fprintf(b, "\t\t\tcase %q:\n\t\t\t\ti = %d\n", f.json, i)
	}
	fmt.Fprintf(b, "\t\t\t}\n\t\t\tif i < 0 {\n\t\t\t\ti = d.fold(jk%s, %v)\n\t\t\t}\n\t\t\tif i < 0 {\n\t\t\t\td.skip()\n\t\t\t\tcontinue\n\t\t\t}\n\t\t\to.learn(prev, i)\n\t\t}\n\t\tprev = i\n\t\tswitch i {\n", td.name, lower)
	for i, f := range td.fields {
		typ, _ := m.fieldType(td, f)
		target := "&v." + f.name
		call := decodeCall(m, f.typ, target)
		if strings.HasPrefix(typ, "*") && !m.isStruct(f.typ) {
			// A partial update's scalar: a pointer, nil for null.
			call = fmt.Sprintf("jdPtr(d, %s, %s)", target, decodeFunc(m, f.typ))
		}
		fmt.Fprintf(b, "\t\tcase %d:\n\t\t\t%s\n", i, call)
	}
	b.WriteString("\t\t}\n\t}\n}\n\n") // every index is a case: unknown keys were skipped above
}

// structOf follows aliases from t to the struct it names, or nil.
func structOf(m *models, t *gtype) *typeDef {
	td := m.lookup(t)
	for td != nil && td.cat == catAlias && td.target.kind == kNamed {
		td = m.lookup(td.target)
	}
	if td != nil && td.cat == catStruct {
		return td
	}
	return nil
}

// decodeCall is a statement decoding into ptr, a pointer to a value of the
// Go type of t.
func decodeCall(m *models, t *gtype, ptr string) string {
	switch t.kind {
	case kString:
		return "d.str(" + ptr + ")"
	case kInt:
		return "d.int64(" + ptr + ")"
	case kDuration:
		return "d.int64((*int64)(" + ptr + "))"
	case kFloat:
		return "d.float64(" + ptr + ")"
	case kBool:
		return "d.bool(" + ptr + ")"
	case kTime:
		return "d.time(" + ptr + ")"
	case kAny:
		return "d.any(" + ptr + ")"
	case kSlice:
		if st := structOf(m, t.elem); st != nil {
			return fmt.Sprintf("jdSlicePtr(d, %s, %s)", ptr, structFunc(st))
		}
		return fmt.Sprintf("jdSlice(d, %s, %s)", ptr, decodeFunc(m, t.elem))
	case kMap:
		return fmt.Sprintf("jdMap(d, %s, %s)", ptr, decodeFunc(m, t.elem))
	}
	if st := structOf(m, t); st != nil {
		return fmt.Sprintf("jdPtr(d, %s, %s)", ptr, structFunc(st))
	}
	td := m.lookup(t)
	if td == nil {
		// A hand-written type (LabelRef): its own UnmarshalJSON, as
		// encoding/json calls it.
		return "d.unmarshaler(" + ptr + ")"
	}
	switch td.cat {
	case catAlias:
		if len(td.enum) > 0 {
			// An open enumeration: a named string.
			return "d.str((*string)(" + ptr + "))"
		}
		return decodeCall(m, td.target, ptr) // type X = Y: the same type
	case catSlice, catMap:
		// type X []Y: convert to the unnamed type.
		return decodeCall(m, td.target, "(*"+m.goType(td.target)+")("+ptr+")")
	}
	panic("decodeCall: unexpected type " + t.name)
}

// structFunc is the decoder of a struct: generated, or the hand-written
// type's UnmarshalJSON.
func structFunc(st *typeDef) string {
	if handWrittenModels[st.specName] != "" {
		return fmt.Sprintf("func(d *jdec, v *%s) { d.unmarshaler(v) }", st.name)
	}
	return "jd" + st.name
}

// decodeFunc is a func(*jdec, *T) expression for the Go type of t.
func decodeFunc(m *models, t *gtype) string {
	switch t.kind {
	case kString:
		return "(*jdec).str"
	case kInt:
		return "(*jdec).int64"
	case kFloat:
		return "(*jdec).float64"
	case kBool:
		return "(*jdec).bool"
	case kTime:
		return "(*jdec).time"
	case kAny:
		return "(*jdec).any"
	}
	return fmt.Sprintf("func(d *jdec, p *%s) { %s }", m.goType(t), decodeCall(m, t, "p"))
}

// emitDecoderTests writes decoders_gen_test.go: a constructor for every
// type the decoders cover, and a sample body of every model.
func emitDecoderTests(m *models) string {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("package forgejo\n\n")
	b.WriteString(comment("", "jdTestTypes makes a fresh value of every type the generated decoders cover, by name."))
	b.WriteString("var jdTestTypes = []struct {\n\tname string\n\tnew  func() any\n}{\n")
	types := m.sortedTypes()
	for _, td := range types {
		if handWrittenModels[td.specName] != "" {
			continue
		}
		switch td.cat {
		case catStruct:
			fmt.Fprintf(&b, "\t{%q, func() any { return new(%s) }},\n", td.name, td.name)
			fmt.Fprintf(&b, "\t{%q, func() any { return new([]*%s) }},\n", "[]*"+td.name, td.name)
		case catSlice, catMap:
			fmt.Fprintf(&b, "\t{%q, func() any { return new(%s) }},\n", td.name, td.name)
		}
	}
	b.WriteString("}\n\n")
	b.WriteString(comment("", "jdTestSamples are a generated sample body of every model (internal/gen/samples.go), by type name."))
	b.WriteString("var jdTestSamples = map[string]string{\n")
	s := &sampler{m: m}
	for _, td := range types {
		if td.cat != catStruct || handWrittenModels[td.specName] != "" {
			continue
		}
		v, ok := sampleOf(s, td)
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "\t%q: %q,\n", td.name, mustJSON(v))
	}
	b.WriteString("}\n")
	return b.String()
}

// sampleOf is the sample response of td; false when it has none, or holds
// a hand-written type the sampler does not know (LabelRef, in a request
// body only).
func sampleOf(s *sampler, td *typeDef) (v any, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = nil, false
		}
	}()
	return s.response(&gtype{kind: kNamed, name: td.name}, 0, td.name)
}

// packed lays out a list's items over lines of about 80 columns, each line
// indented twice, the closing bracket on a line of its own, as gofmt keeps
// a list written by hand.
func packed(items []string) string {
	var b strings.Builder
	line := 0
	for _, it := range items {
		if line == 0 || line+len(it)+2 > 72 {
			b.WriteString("\n\t\t")
			line = 0
		} else {
			b.WriteString(" ")
			line++
		}
		b.WriteString(it)
		b.WriteString(",")
		line += len(it) + 1
	}
	b.WriteString("\n\t")
	return b.String()
}
