package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
)

// TestSheetFillApprovalJSON: sheet fill held for approval, with --json:
// the envelope's data is the approval, whole, to be saved and sent back
// with --approve: the documented flow for a program.
func TestSheetFillApprovalJSON(t *testing.T) {
	dir := t.TempDir()
	cells := filepath.Join(dir, "cells.json")
	if err := os.WriteFile(cells, []byte(`{"B2": 12, "C2": "paid"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	approval := calls.Approval{Action: "write cells", URL: "http://x/", Control: "B2, C2", Form: map[string]string{"B2": "1", "C2": ""}, Token: "L.1"}
	data, _ := json.Marshal(approval)
	ask := &calls.Error{Kind: calls.ErrNeedsApproval, Msg: "writing 2 cells needs approval; nothing was written", Data: data}
	reply := func(method string, params any) (any, error) {
		if params.(calls.SheetFillRequest).Approve == nil {
			return nil, ask
		}
		return calls.SheetFillResult{Cells: []calls.SheetCell{{Cell: "B2", Before: "1", After: "12", ReadBack: true}, {Cell: "C2", After: "paid", ReadBack: true}}}, nil
	}

	code, stdout, _, _ := runMain(t, context.Background(), &clitest.FakeCaller{Reply: reply}, nil, "sheet", "fill", cells, "--json")
	var env struct {
		Data  calls.Approval        `json:"data"`
		Error struct{ Code string } `json:"error"`
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil || code == 0 || env.Error.Code != "needs_approval" || env.Data.Token != "L.1" || env.Data.Control != "B2, C2" {
		t.Fatalf("sheet fill --json: exit %d, %v, envelope %s", code, err, stdout)
	}
}
