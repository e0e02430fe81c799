package forgejotest

import "testing"

func TestLineChanges(t *testing.T) {
	for _, tc := range []struct {
		old, nw  string
		add, del int
	}{
		{"", "", 0, 0},
		{"", "a\nb\n", 2, 0},
		{"a\nb\n", "", 0, 2},
		{"a\nb\n", "a\nb\nc\n", 1, 0},
		{"a\nb", "a\nb\nc\n", 2, 1}, // the last line gains its newline
		{"a\nb\nc\n", "a\nx\nc\n", 1, 1},
		{"a\nb\nc\n", "c\nb\na\n", 2, 2},
	} {
		add, del := lineChanges(tc.old, tc.nw)
		if add != tc.add || del != tc.del {
			t.Errorf("lineChanges(%q, %q) = +%d -%d, want +%d -%d", tc.old, tc.nw, add, del, tc.add, tc.del)
		}
	}
}
