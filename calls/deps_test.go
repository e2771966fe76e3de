package calls_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps keeps calls, the vocabulary every layer speaks, on the
// standard library alone, so any front or program can import it. Package
// sheet (cells and A1 references) is vocabulary too, and holds to the
// same rule (its own deps test).
func TestDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "github.com/waymark-dev/waymark/calls").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep != "github.com/waymark-dev/waymark/calls" && dep != "github.com/waymark-dev/waymark/sheet" {
			t.Errorf("calls depends on %s, outside the standard library", dep)
		}
	}
}
