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
		{"fields typed", "- form:\n  - textbox \"Name\" [required] [ref=e1]\n  - textbox \"Email\" [ref=e2] value=\"a@b\"\n- x", "- form:\n  - textbox \"Name\" [required] [ref=e1] value=\"Ann\"\n  - textbox \"Email\" [ref=e2]\n- x",
			"~ textbox [ref=e1] value=\"Ann\"\n~ textbox [ref=e2] value=\"\"", true},
		{"name and text changed", "- button \"Count 0\" [disabled] [ref=e3]: zero\n- x", "- button \"Count 1\" [disabled] [ref=e3]: one\n- x", "~ button \"Count 1\" [ref=e3]: one", true},
		{"inferred name changed", "- textbox ~\"Old\" [ref=e4]", "- textbox ~\"New\" [ref=e4]", "~ textbox ~\"New\" [ref=e4]", true},
		{"a flag came", "- checkbox \"Terms\" [ref=e6]", "- checkbox \"Terms\" [checked] [ref=e6]", "~ checkbox \"Terms\" [checked] [ref=e6]", true},
		{"a flag went", "- checkbox \"Terms\" [checked] [ref=e6]", "- checkbox \"Terms\" [ref=e6]", "~ checkbox \"Terms\" [ref=e6]", true},
		{"the name went", "- link \"Cart (2)\" [ref=e5]", "- link [ref=e5]", "~ link [ref=e5]", true},
		{"only the place changed", "- main:\n  - link \"A\" [ref=e1]", "- main:\n- link \"A\" [ref=e1]", "~ link \"A\" [ref=e1]", true},
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

// TestDiffFilledLeavesOutWhatTheReaderFilled: a field that holds the value
// the reader filled has no "~" line (its fill's reply said so); one the
// page changed otherwise, a field cleared, a field whose flags changed
// too, and every other change keep theirs.
func TestDiffFilledLeavesOutWhatTheReaderFilled(t *testing.T) {
	a := `- main:
  - link "Cart (0)" [ref=e5]
  - form:
    - textbox "Full name" [required] [ref=e1]
    - textbox "Email" [required] [ref=e2]
    - textbox "Phone" [ref=e3]
    - textbox "Notes" [ref=e4] value="x"
    - checkbox "Terms" [ref=e6]
  - button "Gone" [ref=e7]`
	b := `- main:
  - link "Cart (2)" [ref=e5]
  - form:
    - textbox "Full name" [required] [ref=e1] value="Ann Example"
    - textbox "Email" [required] [invalid: Enter an email] [ref=e2] value="ann@"
    - textbox "Phone" [ref=e3] value="+49 30 1234"
    - textbox "Notes" [ref=e4]
    - checkbox "Terms" [ref=e6]`
	filledValues := map[string]string{"e1": "Ann Example", "e2": "ann@", "e3": "030 1234", "e4": "x"}
	got, dropped, ok := DiffFilled(a, b, func(ref, value string) bool { return filledValues[ref] == value })
	want := `~ link "Cart (2)" [ref=e5]
~ textbox "Email" [required] [invalid: Enter an email] [ref=e2] value="ann@"
~ textbox [ref=e3] value="+49 30 1234"
~ textbox [ref=e4] value=""
-   - button "Gone" [ref=e7]`
	if got != want || dropped != 1 || !ok {
		t.Errorf("DiffFilled = %q, %d, %v; want %q, 1, true", got, dropped, ok, want)
	}
	if got, _ := Diff(a, b); !strings.Contains(got, `~ textbox [ref=e1] value="Ann Example"`) {
		t.Errorf("Diff without fills left out a field:\n%s", got)
	}
}
