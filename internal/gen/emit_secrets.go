package main

import (
	"fmt"
	"sort"
	"strings"
)

// secretFields name the properties that carry a credential, keyed
// "Definition.wire_name": a token's value, a password, a client secret,
// a hook's secret and authorization header. A map-valued property lists
// the keys whose values are secret. Each model holding one gets Format and
// LogValue methods that render it masked (secrets_gen.go), the one
// mechanism of internal/secret; its JSON, what the wire carries and the
// library itself sends, keeps the value. A name that matches no property
// stops the generator.
var secretFields = map[string][]string{
	"AccessToken.sha1":                       nil,
	"CreateHookOption.authorization_header":  nil,
	"CreateHookOption.config":                {"secret"},
	"CreateOrUpdateSecretOption.data":        nil,
	"CreatePushMirrorOption.remote_password": nil,
	"CreateUserOption.password":              nil,
	"EditHookOption.authorization_header":    nil,
	"EditHookOption.config":                  {"secret"},
	"EditUserOption.password":                nil,
	"Hook.authorization_header":              nil,
	"Hook.config":                            {"secret"},
	"MigrateRepoOptions.auth_password":       nil,
	"MigrateRepoOptions.auth_token":          nil,
	"OAuth2Application.client_secret":        nil,
	"RegisterRunnerResponse.token":           nil,
	"RegistrationToken.token":                nil,
}

// secretModel is one model with secret fields, as emitted.
type secretModel struct {
	name   string
	fields []secretField
	mapOf  []string // a map type itself: the secret keys
}

type secretField struct {
	name string   // Go name
	typ  string   // Go type
	keys []string // map keys, for a map
}

// collectSecrets joins secretFields to the models.
func collectSecrets(m *models) ([]secretModel, error) {
	used := map[string]bool{}
	var out []secretModel
	mapTypes := map[string][]string{}
	for _, td := range m.sortedTypes() {
		if td.cat != catStruct {
			continue
		}
		var sm secretModel
		for _, f := range td.fields {
			key := td.specName + "." + f.json
			keys, ok := secretFields[key]
			if !ok {
				continue
			}
			used[key] = true
			typ, _ := m.fieldType(td, f)
			sm.fields = append(sm.fields, secretField{name: f.name, typ: typ, keys: keys})
			if len(keys) > 0 && !strings.HasPrefix(typ, "map[") {
				mapTypes[typ] = keys // a named map type: masked on its own too
			}
		}
		if len(sm.fields) > 0 {
			sm.name = td.name
			out = append(out, sm)
		}
	}
	var missing []string
	for k := range secretFields {
		if !used[k] {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("secretFields entries that match no property: %s", strings.Join(missing, ", "))
	}
	for _, name := range sortedKeys(mapTypes) {
		out = append(out, secretModel{name: name, mapOf: mapTypes[name]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// emitSecrets writes secrets_gen.go: Format and LogValue for every model
// that holds a secret.
func emitSecrets(sms []secretModel) string {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("package forgejo\n\nimport (\n\t\"fmt\"\n\t\"log/slog\"\n\n\t\"codeberg.org/forgego/forgejo/internal/secret\"\n)\n\n")
	b.WriteString(comment("", "This file gives every model that carries a credential (a token's value, a password, "+
		"a client secret, a hook's secret or authorization header) a rendering without it: fmt under every verb and "+
		"log/slog show \"***\" in its place (internal/secret). The JSON encoding is the wire format, and keeps it."))
	b.WriteString("\n")
	for _, sm := range sms {
		plain := "masked" + sm.name
		var names []string
		for _, f := range sm.fields {
			names = append(names, f.name)
		}
		what := "its secret values"
		if len(names) > 0 {
			what = strings.Join(names, ", ")
		}
		if sm.mapOf != nil {
			what = "the values of " + strings.Join(quoteAll(sm.mapOf), ", ")
		}
		b.WriteString(comment("", plain+" is "+sm.name+" without methods, rendered in its place."))
		fmt.Fprintf(&b, "type %s %s\n\n", plain, sm.name)
		b.WriteString(comment("", "Format renders v with "+what+" masked, under every verb, so that printing one never shows a credential. Its JSON encoding keeps them."))
		fmt.Fprintf(&b, "func (v %s) Format(f fmt.State, verb rune) { secret.Format(f, verb, \"forgejo.%s\", v.masked()) }\n\n", sm.name, sm.name)
		b.WriteString(comment("", "LogValue renders v for log/slog with "+what+" masked."))
		fmt.Fprintf(&b, "func (v %s) LogValue() slog.Value { return slog.AnyValue(v.masked()) }\n\n", sm.name)
		fmt.Fprintf(&b, "func (v %s) masked() %s {\n", sm.name, plain)
		if sm.mapOf != nil {
			fmt.Fprintf(&b, "\treturn %s(secret.MaskedMap(v, %s))\n}\n\n", plain, strings.Join(quoteAll(sm.mapOf), ", "))
			continue
		}
		fmt.Fprintf(&b, "\tm := %s(v)\n", plain)
		for _, f := range sm.fields {
			switch {
			case f.typ == "string":
				fmt.Fprintf(&b, "\tm.%s = secret.Masked(m.%s)\n", f.name, f.name)
			case f.typ == "*string":
				fmt.Fprintf(&b, "\tm.%s = secret.MaskedPtr(m.%s)\n", f.name, f.name)
			case f.typ == "map[string]string":
				fmt.Fprintf(&b, "\tm.%s = secret.MaskedMap(m.%s, %s)\n", f.name, f.name, strings.Join(quoteAll(f.keys), ", "))
			default: // a named map type
				fmt.Fprintf(&b, "\tm.%s = %s(secret.MaskedMap(m.%s, %s))\n", f.name, f.typ, f.name, strings.Join(quoteAll(f.keys), ", "))
			}
		}
		b.WriteString("\treturn m\n}\n\n")
	}
	return b.String()
}

// emitSecretSamples writes secrets_gen_test.go: a value of every model
// that holds a secret, its secret fields set to s, for the rendering test
// (secrets_render_test.go).
func emitSecretSamples(sms []secretModel) string {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("package forgejo\n\n")
	b.WriteString("// generatedSecretSamples returns a value of every generated model that holds\n// a secret, with each secret field set to s (secretFields in internal/gen).\n")
	b.WriteString("func generatedSecretSamples(s string) map[string]any {\n\treturn map[string]any{\n")
	for _, sm := range sms {
		if sm.mapOf != nil {
			fmt.Fprintf(&b, "\t\t%q: %s{", sm.name, sm.name)
			for _, k := range sm.mapOf {
				fmt.Fprintf(&b, "%q: s, ", k)
			}
			b.WriteString("\"url\": \"https://example.com/hook\"},\n")
			continue
		}
		fmt.Fprintf(&b, "\t\t%q: %s{", sm.name, sm.name)
		for _, f := range sm.fields {
			switch {
			case f.typ == "string":
				fmt.Fprintf(&b, "%s: s, ", f.name)
			case f.typ == "*string":
				fmt.Fprintf(&b, "%s: &s, ", f.name)
			default:
				fmt.Fprintf(&b, "%s: %s{", f.name, f.typ)
				for _, k := range f.keys {
					fmt.Fprintf(&b, "%q: s, ", k)
				}
				b.WriteString("\"url\": \"https://example.com/hook\"}, ")
			}
		}
		b.WriteString("},\n")
	}
	b.WriteString("\t}\n}\n")
	return b.String()
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
