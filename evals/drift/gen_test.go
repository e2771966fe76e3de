package drift

import (
	"slices"
	"strings"
	"testing"
)

// TestGenerate checks the corpus without a browser: the same seed gives
// the same pages, every scenario has its target once on the pages it
// must be pressed on and the variants say what the truth needs (no
// target where another control took its place or its row is gone, a
// copy of it where two candidates are equal), and no page names the
// truth.
func TestGenerate(t *testing.T) {
	a, b := Generate(30, len(builders), Quick), Generate(30, len(builders), Quick)
	if len(a) != len(builders) {
		t.Fatalf("%d scenarios, want %d", len(a), len(builders))
	}
	for i, c := range a {
		if len(c.Variants) != 11 {
			t.Errorf("%s: %d variants, want 11", c.Name, len(c.Variants))
		}
		for j, v := range c.Variants {
			token := func() string { return "t" }
			frame := func(int) string { return "/f" }
			page := Render(c.Title, v.Body, token, frame).Main
			if page != Render(b[i].Title, b[i].Variants[j].Body, token, frame).Main {
				t.Errorf("%s/%s: the same seed gave another page", c.Name, v.Name)
			}
			ctls := v.Body.Ctls()
			for _, ctl := range append([]string{Target}, ctls...) {
				if strings.Contains(page, ctl) {
					t.Errorf("%s/%s: the page names the control %q for the truth", c.Name, v.Name, ctl)
				}
			}
			targets := 0
			for _, ctl := range ctls {
				if ctl == Target {
					targets++
				}
			}
			switch {
			case v.Expect == Press && targets != 1:
				t.Errorf("%s/%s: %d targets on a page it must be pressed on", c.Name, v.Name, targets)
			case v.Kind == KindSubstitution && (targets != 0 || !slices.ContainsFunc(ctls, func(s string) bool { return strings.HasPrefix(s, "sub:") })):
				t.Errorf("%s/%s: the target is there or nothing took its place: %v", c.Name, v.Name, ctls)
			case v.Kind == KindAmbiguity && (targets != 1 || !slices.Contains(ctls, "copy:"+Target)):
				t.Errorf("%s/%s: not two equal candidates: %v", c.Name, v.Name, ctls)
			case v.Kind == KindRows && v.Expect == Refuse && targets != 0:
				t.Errorf("%s/%s: the target's row is still there", c.Name, v.Name)
			}
		}
	}
}
