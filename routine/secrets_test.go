package routine

import (
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/secret"
)

// TestMarshalRefusesWhatThePilotRefused holds the refusals of the pilot's
// own check (pilot.CheckRoutine, deleted: Marshal is the one check at
// persistence): a literal, template, URL or key that looks like a
// credential, and a known secret's value anywhere in a step, nested ones
// too. Each is refused as bad input naming the step.
func TestMarshalRefusesWhatThePilotRefused(t *testing.T) {
	const token = "ghp_R8x2Kq9LmZ4vT7nB3cW6yH1jF5dG0sPaQeUi"
	known := new(secret.Set)
	known.Add("pin", "plain-words-here")
	fill := func(v *Value) Step {
		return Step{ID: "s7", Kind: KindAct, Op: calls.ActFill, Target: &Target{Locator: "label=Key"}, Value: v}
	}
	tests := []struct {
		name  string
		steps []Step
		vars  []Variable
		where string
	}{
		{"a literal", []Step{fill(&Value{Literal: token})}, nil, `steps[0] (id "s7").value.literal`},
		{"one of several values", []Step{{ID: "s7", Kind: KindAct, Op: calls.ActSelect, Target: &Target{Locator: "label=Key"},
			Values: []*Value{{Literal: "red"}, {Literal: token}}}}, nil, `steps[0] (id "s7").values[1].literal`},
		{"a template", []Step{fill(&Value{Template: "key " + token + " for %who%"})}, []Variable{{Name: "who"}}, `steps[0] (id "s7").value.template`},
		{"a template split by a reference", []Step{fill(&Value{Template: "ghp_R8x2Kq9LmZ4vT7nB%who%3cW6yH1jF5dG0sPaQeUi"})}, []Variable{{Name: "who"}}, `steps[0] (id "s7").value.template`},
		{"a URL", []Step{{ID: "s7", Kind: KindGoto, URL: "https://shop.example/?token=" + token}}, nil, `steps[0] (id "s7").url`},
		{"a key", []Step{{ID: "s7", Kind: KindAct, Op: calls.ActPress, Key: token}}, nil, `steps[0] (id "s7").key`},
		{"a known secret's value", []Step{fill(&Value{Literal: "plain-words-here"})}, nil, `steps[0] (id "s7")`},
		{"a known secret in an instruction", []Step{{ID: "s7", Kind: KindAct, Op: calls.ActClick, Target: &Target{Locator: "label=Key"},
			Instruction: "click it, the pin is plain-words-here"}}, nil, `steps[0] (id "s7")`},
		{"a known secret nested", []Step{{ID: "s1", Kind: KindIf, Check: &Check{Text: "Cart"}, Then: []Step{fill(&Value{Literal: "plain-words-here"})}}},
			nil, `steps[0] (id "s1").then[0] (id "s7")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Routine{Format: Format, Name: "r", Version: 1, Steps: tt.steps, Variables: tt.vars}
			_, err := Marshal(r, known)
			var le *LoadError
			if !errors.As(err, &le) || !errors.Is(err, calls.ErrBadInput) {
				t.Fatalf("Marshal = %v, want a refusal", err)
			}
			if !strings.HasPrefix(le.Where, tt.where) {
				t.Errorf("where = %q, want %q", le.Where, tt.where)
			}
		})
	}
}
