package sheet_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps keeps sheet on the standard library alone: package calls
// speaks its cells and references, and any program may import it.
func TestDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "github.com/waymark-dev/waymark/sheet").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep != "github.com/waymark-dev/waymark/sheet" {
			t.Errorf("sheet depends on %s, outside the standard library", dep)
		}
	}
}
