package routine

import (
	"strings"
	"testing"
)

// TestDocSteps: doc_insert needs one place and a value; doc_read takes
// neither; doc belongs to the document steps; a replaced line is at most
// 200 characters.
func TestDocSteps(t *testing.T) {
	ok := `{"format":"waymark.routine/1","name":"d","variables":[{"name":"who"}],"steps":[
 {"kind":"doc_insert","doc":{"after":"Dear Ann,"},"value":{"template":" and %who%"}},
 {"kind":"doc_insert","doc":{"end":true},"value":{"literal":"Signed"}},
 {"kind":"doc_read","into":"letter"}]}`
	if _, err := Parse([]byte(ok)); err != nil {
		t.Fatalf("a good routine: %v", err)
	}
	for _, c := range []struct{ name, step, want string }{
		{"no place", `{"kind":"doc_insert","doc":{},"value":{"literal":"x"}}`, "exactly one of after, replace or end"},
		{"two places", `{"kind":"doc_insert","doc":{"after":"a","end":true},"value":{"literal":"x"}}`, "exactly one"},
		{"no value", `{"kind":"doc_insert","doc":{"end":true}}`, "value"},
		{"read with a place", `{"kind":"doc_read","doc":{"after":"a"}}`, "reads the whole document"},
		{"doc on a goto", `{"kind":"goto","url":"http://a.test/","doc":{"end":true}}`, "doc"},
		{"long replace", `{"kind":"doc_insert","doc":{"replace":"` + strings.Repeat("x", 201) + `"},"value":{"literal":"x"}}`, "200"},
		{"undeclared", `{"kind":"doc_insert","doc":{"after":"%nobody%"},"value":{"literal":"x"}}`, "undeclared"},
	} {
		_, err := Parse([]byte(`{"format":"waymark.routine/1","name":"d","steps":[` + c.step + `]}`))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}
