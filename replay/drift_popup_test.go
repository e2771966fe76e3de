package replay

import (
	"context"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// TestDriftSkipsAClosedPopup: a recorded dismissal whose popup is not
// open now is what a replay skips, not a missing element that would stop
// it; and, as it navigates nowhere, the steps after it are still on the
// page drift has.
func TestDriftSkipsAClosedPopup(t *testing.T) {
	d := shop()
	r := checkoutRoutine(t)
	dismiss := routine.Step{ID: "no_thanks", Kind: routine.KindAct, Op: calls.ActClick, Dismisses: &routine.Dismissal{},
		Target: &routine.Target{Locator: `role=button[name="No thanks"]`, Fingerprint: calls.Fingerprint{Tag: "button", Role: "button", Name: "no thanks"}}}
	r.Steps = append([]routine.Step{r.Steps[0], dismiss}, r.Steps[1:]...)
	rep, err := Drift(context.Background(), d, r)
	if err != nil {
		t.Fatal(err)
	}
	if s := rep.Steps[1]; s.ID != "no_thanks" || s.Status != DriftSkipped || rep.WouldStop() {
		t.Fatalf("the dismissal: %+v, would stop %v", s, rep.WouldStop())
	}
	if s := rep.Steps[2]; s.Status != calls.Found {
		t.Errorf("the step after the dismissal: %+v, want found on the page drift has", s)
	}
	// Open now, it is found.
	d.find[`role=button[name="No thanks"]`] = calls.Resolution{Status: calls.Found, Ref: "e7"}
	rep, _ = Drift(context.Background(), d, r)
	if s := rep.Steps[1]; s.Status != calls.Found {
		t.Errorf("an open popup's dismissal: %+v", s)
	}
	if len(d.acted()) != 0 {
		t.Errorf("drift acted: %v", d.acted())
	}
}
