package pilot_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps keeps the pilot free of the DevTools protocol and of vendor
// SDKs: it talks to a page only through Driver and to a model only through
// Model (DESIGN.md: the two halves).
func TestDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/waymark-dev/waymark/pilot").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/chromedp/", "github.com/anthropics/", "github.com/openai/", "github.com/waymark-dev/waymark/driver"} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("pilot depends on %s", dep)
			}
		}
	}
}
