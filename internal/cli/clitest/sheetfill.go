package clitest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// HeldSheetFill is a sheet whose cell writes need approval, for the tests
// of sheet fill's approval flow: it writes the cells file (B2 12, C2
// "paid") into dir and returns it, the approval the sheet asks for (token
// "L.1"), and the daemon's reply: needs_approval without an approval,
// the cells written and read back with one.
func HeldSheetFill(t testing.TB, dir string) (cells string, approval calls.Approval, reply func(method string, params any) (any, error)) {
	t.Helper()
	cells = filepath.Join(dir, "cells.json")
	if err := os.WriteFile(cells, []byte(`{"B2": 12, "C2": "paid"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	approval = calls.Approval{Action: "write cells", URL: "http://x/", Control: "B2, C2", Why: "writes 2 cells of the sheet", Form: map[string]string{"B2": "1", "C2": ""}, Token: "L.1"}
	data, _ := json.Marshal(approval)
	ask := &calls.Error{Kind: calls.ErrNeedsApproval, Msg: approval.Line() + ", so it needs approval; nothing was written", Data: data}
	reply = func(method string, params any) (any, error) {
		if params.(calls.SheetFillRequest).Approve == nil {
			return nil, ask
		}
		return calls.SheetFillResult{Cells: []calls.SheetCell{{Cell: "B2", Before: "1", After: "12", ReadBack: true}, {Cell: "C2", After: "paid", ReadBack: true}}}, nil
	}
	return cells, approval, reply
}
