package routine

import (
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// TestMarkDismissal: the one rule of what a recorded dismissal is.
func TestMarkDismissal(t *testing.T) {
	popup := &calls.Popup{Kind: "box", Text: "Join our newsletter for 10% off", Buttons: []string{"Subscribe", "No thanks", "Close"}}
	click := func(name, typ string) Step {
		return Step{Kind: KindAct, Op: calls.ActClick, Target: &Target{Locator: `role=button[name="` + name + `"]`,
			Fingerprint: calls.Fingerprint{Tag: "button", Role: "button", Name: strings.ToLower(name), Type: typ}}}
	}
	tests := []struct {
		name      string
		st        Step
		met       *calls.Popup
		submitted bool
		want      bool
	}{
		{"no thanks in the popup", click("No thanks", ""), popup, false, true},
		{"a close icon", click("Close", ""), popup, false, true},
		{"a glyph, the popup's controls not listed", click("×", ""), &calls.Popup{Kind: "covered", By: `div#pop`}, false, true},
		{"no popup met before it", click("No thanks", ""), nil, false, false},
		{"the popup's own offer", click("Subscribe", ""), popup, false, false},
		{"a dismissal word, not one of the popup's controls", click("Not now", ""), popup, false, false},
		{"pressed with an approval: a submit", click("No thanks", ""), popup, true, false},
		{"a submit input", click("No thanks", "submit"), popup, false, false},
		{"a label that says more than no", click("Close my account now please", ""), &calls.Popup{Kind: "box"}, false, false},
		{"a right click", func() Step { s := click("No thanks", ""); s.Button = "right"; return s }(), popup, false, false},
		{"a fill", func() Step { s := click("No thanks", ""); s.Op = calls.ActFill; return s }(), popup, false, false},
		{"a row's control", func() Step { s := click("No thanks", ""); s.Target.Positional = true; return s }(), popup, false, false},
		{"approved", func() Step { s := click("No thanks", ""); s.Approved = &Approved{}; return s }(), popup, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := tt.st
			if got := MarkDismissal(&st, tt.met, tt.submitted); got != tt.want || (st.Dismisses != nil) != tt.want {
				t.Fatalf("MarkDismissal = %v (dismisses %+v), want %v", got, st.Dismisses, tt.want)
			}
			if tt.want && !st.Closes(tt.met) {
				t.Errorf("the marked step does not close the popup it was marked for")
			}
		})
	}
	st := click("No thanks", "")
	MarkDismissal(&st, popup, false)
	if st.Closes(&calls.Popup{Kind: "box", Buttons: []string{"Accept", "Later"}}) {
		t.Errorf("a dismissal closes a popup it is not a control of")
	}
}

// TestLoadDismisses: a dismissal is a click with a target, never an
// approved submit; routines without the field load as before.
func TestLoadDismisses(t *testing.T) {
	target := `"target": {"locator": "role=button[name=\"No thanks\"]", ` + fp + `}`
	r, err := Parse([]byte(routineWith(`[]`, `[{"id": "no", "kind": "act", "op": "click", "dismisses": {"popup": "box \"Join\""}, `+target+`},
		{"id": "go", "kind": "act", "op": "click", `+target+`}]`)))
	if err != nil {
		t.Fatal(err)
	}
	if r.Steps[0].Dismisses == nil || r.Steps[0].Dismisses.Popup != `box "Join"` || r.Steps[1].Dismisses != nil {
		t.Errorf("dismisses read as %+v, %+v", r.Steps[0].Dismisses, r.Steps[1].Dismisses)
	}
	if len(Dismissals(r.Steps)) != 1 {
		t.Errorf("Dismissals = %d, want 1", len(Dismissals(r.Steps)))
	}
	for name, src := range map[string]string{
		"on a fill":   `[{"kind": "act", "op": "fill", "dismisses": {}, "value": {"literal": "x"}, ` + target + `}]`,
		"approved":    `[{"kind": "act", "op": "click", "dismisses": {}, "approved": {"action": "click", "path": "/", "control": "button", "why": "submits"}, ` + target + `}]`,
		"extra field": `[{"kind": "act", "op": "click", "dismisses": {"how": "x"}, ` + target + `}]`,
	} {
		if _, err := Parse([]byte(routineWith(`[]`, src))); err == nil || !strings.Contains(err.Error(), "dismisses") && !strings.Contains(err.Error(), "how") {
			t.Errorf("%s: %v, want refused naming dismisses", name, err)
		}
	}
}
