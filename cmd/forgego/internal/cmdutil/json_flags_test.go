package cmdutil

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

type model struct {
	Number int64  `json:"number"`
	Title  string `json:"title"`
	Secret string `json:"internal_thing"`
}

func TestFieldsRefuseWhatTheModelHasNot(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), `no JSON field "renamed"`) {
			t.Errorf("recover %v", r)
		}
	}()
	Fields(model{}, "number", "renamed")
}

func TestJSONExportsOnlyTheContract(t *testing.T) {
	fields := append(Fields(&model{}, "number", "title"), Field{Name: "short", Get: func(v any) any { return Truncate(v.(*model).Title, 3) }})
	for _, tc := range []struct {
		args []string
		v    any
		want string
	}{
		{[]string{"--json", "number"}, &model{Number: 1, Title: "Hello", Secret: "x"}, "{\n  \"number\": 1\n}\n"},
		{[]string{"--jq", "."}, &model{Number: 1, Title: "Hello", Secret: "x"}, `{"number":1,"short":"He…","title":"Hello"}` + "\n"},
		{[]string{"--json", "title", "--jq", ".[].title"}, []*model{{Title: "a"}, {Title: "b"}}, "a\nb\n"},
		{[]string{"--json", "title"}, []*model(nil), "[]\n"},
		{[]string{"--template", "{{.number}}:{{.short}}"}, &model{Number: 7, Title: "Hello"}, "7:He…"},
	} {
		f, out, _ := TestFactory("")
		cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
		j := AddJSONFlags(cmd, fields)
		if err := ExecuteTest(cmd, tc.args...); err != nil {
			t.Fatal(err)
		}
		if err := j.Check(); err != nil {
			t.Fatal(err)
		}
		if err := j.Write(context.Background(), f.IOStreams, tc.v); err != nil {
			t.Fatal(err)
		}
		f.IOStreams.Flush()
		if out.String() != tc.want {
			t.Errorf("%q: %q, want %q", tc.args, out.String(), tc.want)
		}
	}
}
