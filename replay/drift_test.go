package replay

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/calls"
)

func TestDrift(t *testing.T) {
	d := shop()
	d.find["label=Email"] = calls.Resolution{Status: calls.Moved, Ref: "e9", Locator: "placeholder=Email"}
	delete(d.find, "label=Country")
	rep, err := Drift(context.Background(), d, checkoutRoutine(t))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range rep.Steps {
		got = append(got, s.Path+" "+s.Status)
	}
	want := []string{"steps[0] landed", "steps[1] moved", "steps[2] found", "steps[3] missing", "steps[4] found"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	if !rep.WouldStop() || rep.Steps[1].NewLocator != "placeholder=Email" {
		t.Errorf("would stop %v, %+v", rep.WouldStop(), rep.Steps[1])
	}
	if len(d.acted()) != 0 {
		t.Errorf("drift acted: %v", d.acted())
	}

	// Only moved: 20. All found: 0.
	d.find["label=Country"] = calls.Resolution{Status: calls.Found, Ref: "e3"}
	rep, _ = Drift(context.Background(), d, checkoutRoutine(t))
	if rep.WouldStop() || !rep.WouldHeal() {
		t.Errorf("would stop %v, heal %v, want a heal: %+v", rep.WouldStop(), rep.WouldHeal(), rep.Steps)
	}
	d.find["label=Email"] = calls.Resolution{Status: calls.Found, Ref: "e1"}
	rep, _ = Drift(context.Background(), d, checkoutRoutine(t))
	if rep.WouldStop() || rep.WouldHeal() {
		t.Errorf("would stop %v, heal %v, want neither", rep.WouldStop(), rep.WouldHeal())
	}

	// After a click, an element not on the page is unreached, not missing.
	r := checkoutRoutine(t)
	r.Steps = append(r.Steps, r.Steps[1])
	r.Steps[len(r.Steps)-1].ID = "after"
	tg := *r.Steps[1].Target
	tg.Locator = "label=Gone"
	r.Steps[len(r.Steps)-1].Target = &tg
	rep, _ = Drift(context.Background(), d, r)
	if last := rep.Steps[len(rep.Steps)-1]; last.Status != DriftUnreached || rep.WouldStop() || rep.WouldHeal() {
		t.Errorf("after a click: %+v, would stop %v, heal %v", last, rep.WouldStop(), rep.WouldHeal())
	}

	// A routine with no start URL (run --record made such): no page is
	// opened before its steps, which a replay in a fresh session meets
	// too: a replay would stop (drift exits 21), not "all found".
	r = checkoutRoutine(t)
	r.Steps = r.Steps[1:]
	rep, _ = Drift(context.Background(), d, r)
	if rep.Steps[0].Status != DriftUnreached || !rep.WouldStop() {
		t.Errorf("no start URL: %+v, would stop %v, want unreached and true", rep.Steps[0], rep.WouldStop())
	}

	// A goto that lands elsewhere: 21.
	d.pages["http://shop.test/checkout"] = fakePage{URL: "http://shop.test/login"}
	rep, _ = Drift(context.Background(), d, checkoutRoutine(t))
	if rep.Steps[0].Status != DriftElsewhere || !rep.WouldStop() {
		t.Errorf("elsewhere: %+v", rep.Steps[0])
	}
}
