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
	if rep.ExitCode() != 21 || rep.Steps[1].NewLocator != "placeholder=Email" {
		t.Errorf("exit %d, %+v", rep.ExitCode(), rep.Steps[1])
	}
	if len(d.acted()) != 0 {
		t.Errorf("drift acted: %v", d.acted())
	}

	// Only moved: 20. All found: 0.
	d.find["label=Country"] = calls.Resolution{Status: calls.Found, Ref: "e3"}
	rep, _ = Drift(context.Background(), d, checkoutRoutine(t))
	if rep.ExitCode() != 20 {
		t.Errorf("exit %d, want 20: %+v", rep.ExitCode(), rep.Steps)
	}
	d.find["label=Email"] = calls.Resolution{Status: calls.Found, Ref: "e1"}
	rep, _ = Drift(context.Background(), d, checkoutRoutine(t))
	if rep.ExitCode() != 0 {
		t.Errorf("exit %d, want 0", rep.ExitCode())
	}

	// After a click, an element not on the page is unreached, not missing.
	r := checkoutRoutine(t)
	r.Steps = append(r.Steps, r.Steps[1])
	r.Steps[len(r.Steps)-1].ID = "after"
	tg := *r.Steps[1].Target
	tg.Locator = "label=Gone"
	r.Steps[len(r.Steps)-1].Target = &tg
	rep, _ = Drift(context.Background(), d, r)
	if last := rep.Steps[len(rep.Steps)-1]; last.Status != DriftUnreached || rep.ExitCode() != 0 {
		t.Errorf("after a click: %+v, exit %d", last, rep.ExitCode())
	}

	// A goto that lands elsewhere: 21.
	d.pages["http://shop.test/checkout"] = fakePage{URL: "http://shop.test/login"}
	rep, _ = Drift(context.Background(), d, checkoutRoutine(t))
	if rep.Steps[0].Status != DriftElsewhere || rep.ExitCode() != 21 {
		t.Errorf("elsewhere: %+v", rep.Steps[0])
	}
}

// TestDriftExitCodes: drift's codes are apart from the CLI's error codes
// (1 failed, 2 usage, 3 unavailable) and from a replay's causes.
func TestDriftExitCodes(t *testing.T) {
	replayCodes := map[int]bool{}
	for c := range exitCodes {
		replayCodes[ExitCode(c)] = true
	}
	for _, n := range []int{DriftExitMoved, DriftExitBroken} {
		if n <= 3 || replayCodes[n] {
			t.Errorf("drift exit code %d collides with an error code or a replay cause", n)
		}
	}
}
