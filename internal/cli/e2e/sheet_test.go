package e2e

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
)

// TestSheetFillApprovalJSON: sheet fill held for approval, with --json:
// the envelope's data is the approval, whole, to be saved and sent back
// with --approve: the documented flow for a program.
func TestSheetFillApprovalJSON(t *testing.T) {
	dir := t.TempDir()
	cells, approval, reply := clitest.HeldSheetFill(t, dir)

	code, stdout, _, _ := runMain(t, context.Background(), &clitest.FakeCaller{Reply: reply}, nil, "sheet", "fill", cells, "--json")
	var env struct {
		Data  calls.Approval        `json:"data"`
		Error struct{ Code string } `json:"error"`
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil || code == 0 || env.Error.Code != "needs_approval" || env.Data.Token != approval.Token || env.Data.Control != approval.Control {
		t.Fatalf("sheet fill --json: exit %d, %v, envelope %s", code, err, stdout)
	}
}
