package routine

import (
	"strings"
	"testing"
)

// gridRec is a grid recipe that checks.
const gridRec = `{"format": "waymark.grid/1", "header": ["Customer", "Amount"], "fields": [{"name": "customer", "type": "string", "header": "Customer", "column": "A"}], "learned": 2}`

// An extract step holds its grid recipe inline; it loads, and a grid on
// another step, beside a page recipe, or broken is refused where it is.
func TestLoadGridSteps(t *testing.T) {
	r, err := Parse([]byte(routineWith(`[]`, `[{"kind": "extract", "instruction": "every order", "schema": {}, "grid": `+gridRec+`}]`)))
	if err != nil {
		t.Fatal(err)
	}
	if g := r.Steps[0].Grid; g == nil || g.Fields[0].Header != "Customer" {
		t.Fatalf("grid lost: %+v", r.Steps[0])
	}
	for _, tt := range []struct{ name, src, where, msg string }{
		{"grid on an each", routineWith(`[]`, `[{"kind": "each", "recipe": `+rec+`, "grid": `+gridRec+`, "do": []}]`), "steps[0].grid", "this is a each step"},
		{"grid and recipe", routineWith(`[]`, `[{"kind": "extract", "instruction": "x", "schema": {}, "recipe": `+rec+`, "grid": `+gridRec+`}]`), "steps[0].grid", "not both"},
		{"grid with no header", routineWith(`[]`, `[{"kind": "extract", "instruction": "x", "schema": {}, "grid": {"format": "waymark.grid/1", "header": [], "fields": [{"name": "a", "type": "string", "header": " "}]}}]`),
			"steps[0].grid", "field a has no header"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			le := loadErr(t, tt.src)
			if le.Where != tt.where || !strings.Contains(le.Msg, tt.msg) {
				t.Errorf("%s: %q, want %s: %q", le.Where, le.Msg, tt.where, tt.msg)
			}
		})
	}
}
