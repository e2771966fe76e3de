package mcp

import (
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// The form tool's text names the ATS and tells the questions not on the
// page yet and the read's notes, as the CLI does.
func TestFormTextATS(t *testing.T) {
	got := formText(&calls.Form{URL: "https://jobs.example/a", Title: "Apply", ATS: "Greenhouse",
		Fields:    []calls.FormField{{Key: "visa_status", Kind: calls.FieldCombobox, Required: true, Options: []string{"Citizen", "Work permit"}}},
		Questions: []calls.FormQuestion{{Label: "LinkedIn Profile", Kind: "input_text"}},
		Notes:     []string{"Greenhouse's published definition: 2 questions"}})
	for _, want := range []string{"(Greenhouse)", `visa_status combobox = "" required options ["Citizen","Work permit"]`, `not on the page yet: input_text "LinkedIn Profile"`, "note: Greenhouse's published definition"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
}
