package form

import (
	"bytes"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

func TestPrintQuestions(t *testing.T) {
	var b bytes.Buffer
	printQuestions(&b, &calls.Form{Questions: []calls.FormQuestion{{Label: "Shift", Kind: "ValueSelect", Required: true, Options: []string{"Day", "Night"}}}, Notes: []string{"n"}})
	if got := b.String(); !strings.Contains(got, `[not on the page yet] ValueSelect "Shift" required options: "Day", "Night"`) || !strings.Contains(got, "[note] n") {
		t.Errorf("%s", got)
	}
}
