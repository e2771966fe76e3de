package replay

import (
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/replay"
)

// TestProgressLinePopups: a replay's text progress says a dismissal was
// skipped and why, and which popup was closed before a step was taken
// again.
func TestProgressLinePopups(t *testing.T) {
	skipped := progressLine(replay.StepEvent{N: 2, Of: 4, Step: replay.StepResult{ID: "no_thanks", Kind: "act", Op: "click", Status: replay.StepSkipped,
		Detail: `the popup it closes is not open: button "No thanks" is not on the page (missing)`}})
	if !strings.Contains(skipped, "skipped") || !strings.Contains(skipped, "not open") {
		t.Errorf("skipped dismissal: %q", skipped)
	}
	closed := progressLine(replay.StepEvent{N: 4, Of: 4, Step: replay.StepResult{ID: "add", Kind: "act", Op: "click", Status: "ok",
		Closed: `box "Join our newsletter" stood in the way; closed by the routine's dismissal no_thanks (button "No thanks"), then the step was taken again`}})
	if !strings.Contains(closed, "\n     popup: box \"Join our newsletter\" stood in the way; closed by") {
		t.Errorf("a step the popup met: %q", closed)
	}
}
