package cmdutil

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"text/template"

	"codeberg.org/forgego/forgejo/cmd/forgego/internal/iostreams"
	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"
)

// Field is one field of a command's --json: the name scripts use, and how
// its value is read from what the command fetched. The names are the CLI's
// scripting contract, written out per command (never read off the
// generated models), so that a change of the API specification cannot
// rename or drop one silently: a Key the model no longer has fails when the
// command is built (every test that builds the program).
type Field struct {
	Name string
	// Key is the model's JSON key the value is read from (Name when
	// empty and Get is nil).
	Key string
	// Get computes the value from the item instead (the item as the
	// command holds it: a *forgejo.Issue, a map...).
	Get func(item any) any
}

// Fields lists fields read from the model's JSON keys of the same names.
// sample is the model (a struct value or pointer, or nil for a map): each
// name must be one of its JSON keys.
func Fields(sample any, names ...string) []Field {
	keys := jsonKeys(sample)
	out := make([]Field, 0, len(names))
	for _, n := range names {
		if keys != nil && !slices.Contains(keys, n) {
			panic(fmt.Sprintf("cmdutil.Fields: %T has no JSON field %q (renamed in the specification? map the CLI's name to the new key with Field.Key)", sample, n))
		}
		out = append(out, Field{Name: n, Key: n})
	}
	return out
}

// jsonKeys lists the JSON names of a struct's fields, or nil when sample
// is not a struct.
func jsonKeys(sample any) []string {
	t := reflect.TypeOf(sample)
	if t == nil {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// JSONFlags are --json FIELDS, --jq EXPRESSION and --template TEMPLATE, the
// one JSON mechanism of every command that prints data. --json takes
// the fields to print, comma-separated or repeated; --json alone, or an
// unknown field, is answered with the fields there are. --jq filters the
// JSON with a jq expression (github.com/itchyny/gojq): a string result is
// printed as it is, anything else as JSON, one a line. --template renders
// it with Go's text/template. Without --json, --jq and --template see
// every field.
type JSONFlags struct {
	Fields   []string
	JQ       string
	Template string
	fields   []Field
}

const jsonFieldsAnnotation = "forgego/json-fields"

// AddJSONFlags gives cmd --json, --jq and --template over fields, and
// returns where their values go.
func AddJSONFlags(cmd *cobra.Command, fields []Field) *JSONFlags {
	j := &JSONFlags{fields: fields}
	names := j.Available()
	cmd.Flags().StringSliceVar(&j.Fields, "json", nil, "print JSON with these `FIELDS` (comma-separated; --json alone lists them)")
	cmd.Flags().StringVarP(&j.JQ, "jq", "q", "", "filter the JSON with a jq `EXPRESSION` (every field without --json)")
	cmd.Flags().StringVarP(&j.Template, "template", "T", "", "render the JSON with a Go text/template `TEMPLATE` (functions: json, join, truncate)")
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[jsonFieldsAnnotation] = strings.Join(names, "\n")
	_ = cmd.RegisterFlagCompletionFunc("json", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return names, cobra.ShellCompDirectiveNoFileComp
	})
	return j
}

// Available lists the field names, sorted.
func (j *JSONFlags) Available() []string {
	names := make([]string, len(j.fields))
	for i, f := range j.fields {
		names[i] = f.Name
	}
	slices.Sort(names)
	return names
}

// On reports whether JSON was asked for.
func (j *JSONFlags) On() bool { return len(j.Fields) > 0 || j.JQ != "" || j.Template != "" }

// Check validates the fields and the expression before anything is sent.
func (j *JSONFlags) Check() error {
	available := j.Available()
	for _, f := range j.Fields {
		if !slices.Contains(available, f) {
			msg := fmt.Sprintf("--json: unknown field %q", f)
			if strings.Contains(f, "/") {
				msg += " (--json takes the fields to print, such as --json number,title, and OWNER/REPO goes after the command)"
			}
			return &UsageError{Msg: msg, Hint: "The fields: " + strings.Join(available, ", ") + "."}
		}
	}
	if j.JQ != "" && j.Template != "" {
		return Usagef("--jq and --template cannot be used together")
	}
	if j.JQ != "" {
		if _, err := j.compile(); err != nil {
			return err
		}
	}
	if j.Template != "" {
		if _, err := j.parseTemplate(); err != nil {
			return err
		}
	}
	return nil
}

// templateFuncs are --template's functions beyond text/template's own.
var templateFuncs = template.FuncMap{
	"json": func(v any) (string, error) {
		b, err := json.Marshal(v)
		return string(b), err
	},
	"join": func(sep string, v any) string {
		var parts []string
		if list, ok := v.([]any); ok {
			for _, x := range list {
				if m, ok := x.(map[string]any); ok && m["name"] != nil {
					x = m["name"] // labels: their names
				}
				parts = append(parts, fmt.Sprint(x))
			}
		}
		return strings.Join(parts, sep)
	},
	"truncate": func(n int, s string) string {
		if n < 1 {
			return ""
		}
		return Truncate(s, n)
	},
}

func (j *JSONFlags) parseTemplate() (*template.Template, error) {
	t, err := template.New("--template").Funcs(templateFuncs).Option("missingkey=zero").Parse(j.Template)
	if err != nil {
		return nil, Usagef("--template: %s", OneLine(err.Error()))
	}
	return t, nil
}

func (j *JSONFlags) compile() (*gojq.Code, error) {
	q, err := gojq.Parse(j.JQ)
	if err != nil {
		return nil, Usagef("--jq: %s", OneLine(err.Error()))
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return nil, Usagef("--jq: %s", OneLine(err.Error()))
	}
	return code, nil
}

// jsonFieldsError is the answer to --json without fields (pflag's "flag
// needs an argument"), as gh gives it: the fields there are.
func jsonFieldsError(cmd *cobra.Command, msg string) error {
	if cmd == nil || !strings.Contains(msg, "flag needs an argument: --json") {
		return nil
	}
	fields, ok := cmd.Annotations[jsonFieldsAnnotation]
	if !ok {
		return nil
	}
	return &UsageError{Msg: "--json needs one or more comma-separated fields", Hint: "The fields:\n  " + strings.ReplaceAll(fields, "\n", "\n  ")}
}

// Write prints v (an item or a slice of items) as JSON with the selected
// fields (every field without --json), through --jq or --template when
// given.
func (j *JSONFlags) Write(ctx context.Context, ios *iostreams.IOStreams, v any) error {
	doc, err := j.export(v)
	if err != nil {
		return err
	}
	switch {
	case j.Template != "":
		t, err := j.parseTemplate()
		if err != nil {
			return err
		}
		var b strings.Builder
		if err := t.Execute(&b, doc); err != nil {
			return fmt.Errorf("--template: %s", OneLine(err.Error()))
		}
		_, err = io.WriteString(ios.Out, b.String())
		return err
	case j.JQ != "":
		return j.RunJQ(ctx, ios, doc)
	}
	return PrintJSON(ios.Out, doc)
}

// export turns v into the JSON document of the curated fields: an object,
// or an array of them.
func (j *JSONFlags) export(v any) (any, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Slice {
		out := make([]any, rv.Len())
		for i := range out {
			o, err := j.exportOne(rv.Index(i).Interface())
			if err != nil {
				return nil, err
			}
			out[i] = o
		}
		return out, nil // an empty list is [], as gh prints it
	}
	return j.exportOne(v)
}

func (j *JSONFlags) exportOne(item any) (any, error) {
	data, err := json.Marshal(item)
	if err != nil {
		return nil, err
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	obj, _ := doc.(map[string]any)
	if obj == nil {
		return doc, nil
	}
	out := make(map[string]any, len(j.fields))
	for _, f := range j.fields {
		if len(j.Fields) > 0 && !slices.Contains(j.Fields, f.Name) {
			continue
		}
		if f.Get != nil {
			out[f.Name] = f.Get(item)
			continue
		}
		key := f.Key
		if key == "" {
			key = f.Name
		}
		if val, ok := obj[key]; ok {
			out[f.Name] = val
		}
	}
	return out, nil
}

// RunJQ prints what --jq makes of doc: a string as it is, anything else as
// JSON, one a line.
func (j *JSONFlags) RunJQ(ctx context.Context, ios *iostreams.IOStreams, doc any) error {
	code, err := j.compile()
	if err != nil {
		return err
	}
	iter := code.RunWithContext(ctx, doc)
	for {
		out, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, isErr := out.(error); isErr {
			if he, ok := err.(*gojq.HaltError); ok && he.Value() == nil {
				return nil
			}
			return fmt.Errorf("--jq: %s", OneLine(err.Error()))
		}
		if s, isString := out.(string); isString {
			fmt.Fprintln(ios.Out, s)
			continue
		}
		b, err := gojq.Marshal(out)
		if err != nil {
			return err
		}
		if err := iostreams.WriteJSONLine(ios.Out, b); err != nil {
			return fmt.Errorf("--jq: %w", err)
		}
	}
}

// AddJQFlag gives cmd --jq alone, for a command that prints what the server
// sent as it is ('api'): RunJQ filters it.
func AddJQFlag(cmd *cobra.Command, usage string) *JSONFlags {
	j := &JSONFlags{}
	cmd.Flags().StringVarP(&j.JQ, "jq", "q", "", usage)
	return j
}
