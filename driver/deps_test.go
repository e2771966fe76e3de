package driver_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps keeps the driver below the pilot: it holds the page and never
// calls a model (DESIGN.md: the two halves), so it imports neither the
// pilot, nor a model package, nor a vendor's SDK.
func TestDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/waymark-dev/waymark/driver").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{
			"github.com/waymark-dev/waymark/pilot",
			"github.com/waymark-dev/waymark/replay",
			"github.com/waymark-dev/waymark/model",
			"github.com/waymark-dev/waymark/internal/model",
			"github.com/anthropics/",
			"github.com/openai/",
		} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("driver depends on %s", dep)
			}
		}
	}
}
