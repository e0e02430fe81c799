package main

import (
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

// jsonFlags are gh's --json FIELDS, --jq EXPR and --template T on a list or
// view command. The fields are the Forgejo API's JSON names (number, title,
// state, labels, tag_name, assets…: what the API answers, values and all),
// comma-separated or repeated; --json without a value, or with an unknown
// field, is answered with the fields there are. --jq filters the JSON with a
// jq expression (github.com/itchyny/gojq): a string result is printed as it
// is, anything else as JSON, one a line. --template renders it with Go's
// text/template. Without --json, --jq and --template work on every field.
type jsonFlags struct {
	fields    []string
	jq        string
	template  string
	available []string
}

const jsonFieldsAnnotation = "forgego/json-fields"

// fieldsOf lists the JSON names of a struct's fields, sorted.
func fieldsOf(sample any) []string {
	t := reflect.TypeOf(sample)
	var out []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

func (j *jsonFlags) register(cmd *cobra.Command, sample any) {
	j.available = fieldsOf(sample)
	cmd.Flags().StringSliceVar(&j.fields, "json", nil, "print JSON with these `FIELDS` (comma-separated; --json alone lists them)")
	cmd.Flags().StringVarP(&j.jq, "jq", "q", "", "filter the JSON with a jq `EXPRESSION` (every field without --json)")
	cmd.Flags().StringVarP(&j.template, "template", "T", "", "render the JSON with a Go text/template `TEMPLATE` (functions: json, join, truncate)")
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[jsonFieldsAnnotation] = strings.Join(j.available, "\n")
	_ = cmd.RegisterFlagCompletionFunc("json", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return j.available, cobra.ShellCompDirectiveNoFileComp
	})
}

// on reports whether JSON was asked for.
func (j *jsonFlags) on() bool { return len(j.fields) > 0 || j.jq != "" || j.template != "" }

// check validates the fields and the expression before anything is sent.
func (j *jsonFlags) check() error {
	for _, f := range j.fields {
		if !slices.Contains(j.available, f) {
			msg := fmt.Sprintf("--json: unknown field %q", f)
			if strings.Contains(f, "/") {
				msg += " (--json takes the fields to print, such as --json number,title, and OWNER/REPO goes after the command)"
			}
			return &usageError{msg: msg, hint: fieldsHint(j.available)}
		}
	}
	if j.jq != "" && j.template != "" {
		return usagef("--jq and --template cannot be used together")
	}
	if j.jq != "" {
		if _, err := j.compile(); err != nil {
			return err
		}
	}
	if j.template != "" {
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
		return truncate(s, n)
	},
}

func (j *jsonFlags) parseTemplate() (*template.Template, error) {
	t, err := template.New("--template").Funcs(templateFuncs).Option("missingkey=zero").Parse(j.template)
	if err != nil {
		return nil, usagef("--template: %s", oneLine(err.Error()))
	}
	return t, nil
}

func fieldsHint(available []string) string {
	return "The fields: " + strings.Join(available, ", ") + "."
}

func (j *jsonFlags) compile() (*gojq.Code, error) {
	q, err := gojq.Parse(j.jq)
	if err != nil {
		return nil, usagef("--jq: %s", oneLine(err.Error()))
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return nil, usagef("--jq: %s", oneLine(err.Error()))
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
	return &usageError{msg: "--json needs one or more comma-separated fields", hint: "The fields:\n  " + strings.ReplaceAll(fields, "\n", "\n  ")}
}

// emit prints v (a struct or a slice of structs) as JSON with the selected
// fields, through --jq when given.
func (a *app) emit(j *jsonFlags, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return err
	}
	if doc == nil && reflect.ValueOf(v).Kind() == reflect.Slice {
		doc = []any{} // an empty list is [], as gh prints it, whatever the server said
	}
	if len(j.fields) > 0 {
		doc = selectFields(doc, j.fields)
	}
	switch {
	case j.template != "":
		t, err := j.parseTemplate()
		if err != nil {
			return err
		}
		var b strings.Builder
		if err := t.Execute(&b, doc); err != nil {
			return fmt.Errorf("--template: %s", oneLine(err.Error()))
		}
		_, err = io.WriteString(a.stdout, b.String())
		return err
	case j.jq != "":
		return a.runJQ(j, doc)
	}
	return a.printJSON(doc)
}

// runJQ prints what --jq makes of doc: a string as it is, anything else as
// JSON, one a line.
func (a *app) runJQ(j *jsonFlags, doc any) error {
	code, err := j.compile()
	if err != nil {
		return err
	}
	iter := code.RunWithContext(a.ctx, doc)
	for {
		out, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, isErr := out.(error); isErr {
			if he, ok := err.(*gojq.HaltError); ok && he.Value() == nil {
				return nil
			}
			return fmt.Errorf("--jq: %s", oneLine(err.Error()))
		}
		if s, isString := out.(string); isString {
			fmt.Fprintln(a.stdout, s)
			continue
		}
		b, err := gojq.Marshal(out)
		if err != nil {
			return err
		}
		if err := iostreams.WriteJSONLine(a.stdout, b); err != nil {
			return fmt.Errorf("--jq: %w", err)
		}
	}
}

// selectFields keeps only the named keys of an object, or of every object
// of an array.
func selectFields(doc any, fields []string) any {
	switch d := doc.(type) {
	case []any:
		for i := range d {
			d[i] = selectFields(d[i], fields)
		}
		return d
	case map[string]any:
		out := make(map[string]any, len(fields))
		for _, f := range fields {
			if v, ok := d[f]; ok {
				out[f] = v
			}
		}
		return out
	}
	return doc
}
