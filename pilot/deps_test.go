package pilot_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps keeps the pilot free of the DevTools protocol and of vendor
// SDKs: it talks to a page only through Driver and to a model only through
// Model (DESIGN.md: the two halves). What it reads of a page is free of
// DevTools types too: the outline's text format (internal/outline, which
// only internal/outline/build turns DevTools snapshots into) and the notice
// detector whose kinds it acts on.
func TestDeps(t *testing.T) {
	const mod = "github.com/waymark-dev/waymark/"
	devtools := []string{"github.com/chromedp/"}
	for _, c := range []struct {
		pkg    string
		banned []string
	}{
		{"pilot", append(devtools, "github.com/anthropics/", "github.com/openai/", mod+"driver")},
		{"internal/outline", devtools},
		{"internal/notice", devtools},
	} {
		deps := nonStandardDeps(t, mod+c.pkg)
		for _, dep := range deps {
			// HAR 1.2's types (capture writes them) and the JSON package
			// they marshal with: a file format generated from its spec,
			// no part of the DevTools protocol.
			if dep == "github.com/chromedp/cdproto/har" || dep == "github.com/chromedp/cdproto/cdp/jsonv2" {
				continue
			}
			for _, banned := range c.banned {
				if strings.HasPrefix(dep, banned) {
					t.Errorf("%s depends on %s", c.pkg, dep)
				}
			}
		}
		if c.pkg == "internal/outline" && len(deps) != 1 {
			t.Errorf("the outline format imports more than the standard library: %v", deps)
		}
	}
}

// nonStandardDeps lists pkg and what it depends on outside the standard
// library.
func nonStandardDeps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	return strings.Fields(string(out))
}
