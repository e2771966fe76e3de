package testplan

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// TestTraceStepPastesBack: a trace's step is written as plan text that
// reads back as the step that ran (issue 28): a locator with a space,
// a value with quotes, a role locator with its quoted name.
func TestTraceStepPastesBack(t *testing.T) {
	for _, tc := range []struct {
		act      calls.ActRequest
		verb     string
		wantArgs []string
	}{
		{calls.ActRequest{Kind: "fill", Target: "label=Full name", Value: "Ann Lee"}, "fill", []string{"label=Full name", "Ann Lee"}},
		{calls.ActRequest{Kind: "fill", Target: "label=Notes", Value: `say "hi" 'there'`}, "fill", []string{"label=Notes", `say "hi" 'there'`}},
		{calls.ActRequest{Kind: "select", Target: `role=combobox[name="Ship to"]`, Values: []string{"United Kingdom"}}, "select", []string{`role=combobox[name="Ship to"]`, "United Kingdom"}},
		{calls.ActRequest{Kind: "click", Target: "text=Add to cart"}, "click", []string{"text=Add to cart"}},
		{calls.ActRequest{Kind: "press", Key: "Enter"}, "press", []string{"Enter"}},
	} {
		params, _ := json.Marshal(tc.act)
		line := callText(calls.MethodAct, params)
		st, err := parseStepString(line, 1)
		if err != nil {
			t.Fatalf("%q does not read back: %v", line, err)
		}
		if st.Verb != tc.verb || !slices.Equal(st.Args, tc.wantArgs) {
			t.Errorf("%q reads back as %s %q, want %s %q", line, st.Verb, st.Args, tc.verb, tc.wantArgs)
		}
	}
	if got := callText(calls.MethodAct, json.RawMessage(`{"kind":"fill","target":"label=Full name","value":"Ann Lee"}`)); got != `fill "label=Full name" "Ann Lee"` {
		t.Errorf("written %s", got)
	}
}
