package outline

import (
	"fmt"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	long := make([]string, 200)
	for i := range long {
		long[i] = fmt.Sprintf("line %d", i)
	}
	tests := []struct {
		name   string
		a, b   string
		want   string
		wantOK bool
	}{
		{"equal", "a\nb", "a\nb", "", true},
		{"added", "a\nc", "a\nb\nc", "+ b", true},
		{"removed", "a\nb\nc", "a\nc", "- b", true},
		{"changed", "a\nb\nc", "a\nB\nc", "- b\n+ B", true},
		{"two places", "a\nb\nc\nd\ne", "a\nB\nc\nd\ne\nf", "- b\n+ B\n+ f", true},
		{"from empty", "", "a", "- \n+ a", true},
		{"same ref changed", "a\n- link \"Cart (0)\" [ref=e5]\nc", "a\n- link \"Cart (2)\" [ref=e5]\nc", "~ link \"Cart (2)\" [ref=e5]", true},
		{"fields typed", "- form:\n  - textbox \"Name\" [ref=e1]\n  - textbox \"Email\" [ref=e2]\n- x", "- form:\n  - textbox \"Name\" [ref=e1] value=\"Ann\"\n  - textbox \"Email\" [ref=e2] value=\"a@b\"\n- x",
			"~ textbox \"Name\" [ref=e1] value=\"Ann\"\n~ textbox \"Email\" [ref=e2] value=\"a@b\"", true},
		{"ref moved to another element line", "- link \"A\" [ref=e1]\n- b", "- b\n- button \"A\" [ref=e1]", "~ button \"A\" [ref=e1]", true},
		{"different refs stay apart", "- link \"A\" [ref=e1]", "- link \"A\" [ref=e2]", "- - link \"A\" [ref=e1]\n+ - link \"A\" [ref=e2]", true},
		{"too many changes", strings.Join(long[:100], "\n"), strings.Join(long[100:], "\n"), "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Diff(tt.a, tt.b)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Diff = %q, %v; want %q, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}
