package pilot

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecodeDecisionMendsNearMisses(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want action
	}{
		{"op as the type", `{"thought":"t","action":{"type":"click","ref":"@e5"}}`, action{Type: "act", Op: "click", Ref: "e5"}},
		{"flat act answer", `{"action":"fill","ref":"[ref=e3]","value":"x","reason":"r"}`, action{Type: "act", Op: "fill", Ref: "e3", Value: "x"}},
		{"case and aliases", `{"thought":"t","action":{"type":"ACT","op":"Navigate","url":"https://a.test/"}}`, action{Type: "act", Op: "goto", URL: "https://a.test/"}},
		{"expect in words", `{"thought":"t","action":{"type":"act","op":"click","ref":"e1","expect":"the page changes"}}`, action{Type: "act", Op: "click", Ref: "e1"}},
		{"finish", `{"thought":"t","action":{"type":"finish"}}`, action{Type: "done"}},
		{"field ref", `{"thought":"t","action":{"type":"act","op":"fill","ref":"e3","value":"v","expect":{"field_value":{"ref":"@e3","value":"v"}}}}`,
			action{Type: "act", Op: "fill", Ref: "e3", Value: "v", Expect: &expect{FieldValue: &fieldValue{Ref: "e3", Value: "v"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, problems := decodeDecision(Reply{Data: json.RawMessage(tt.in)})
			if len(problems) > 0 {
				t.Fatalf("problems: %v", problems)
			}
			if diff := cmp.Diff(tt.want, d.Action); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	for _, bad := range []string{`[]`, `{"thought":"t","action":{"type":"jump"}}`, `{"thought":"t","action":{"type":"act","op":"click"}}`, `{"thought":"t","action":{"type":"act","op":"fill","ref":"e1"}}`, `{"thought":"t","action":{"type":"need_input","field":"pin"}}`} {
		if _, problems := decodeDecision(Reply{Data: json.RawMessage(bad)}); len(problems) == 0 {
			t.Errorf("%s was accepted", bad)
		}
	}
}
