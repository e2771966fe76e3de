package sheet

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
)

func TestSheetFillApproval(t *testing.T) {
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

	// Without approval: nothing is written, needs_approval.
	fc := &clitest.FakeCaller{Reply: reply}
	common, _, _ := clitest.NewCommon(fc, false, false)
	err := sheetRun(context.Background(), &SheetOptions{Common: common, Op: "fill", File: cells})
	if calls.Code(err) != "needs_approval" || len(fc.Calls) != 1 {
		t.Fatalf("unapproved: %v after %d calls", err, len(fc.Calls))
	}
	if req := fc.Calls[0].Params.(calls.SheetFillRequest); req.Cells["B2"] != "12" || req.Cells["C2"] != "paid" {
		t.Fatalf("cells sent: %+v", req.Cells)
	}
	// --allow-submit sends back the approval it was given, unchanged.
	fc = &clitest.FakeCaller{Reply: reply}
	common, out, _ := clitest.NewCommon(fc, false, false)
	if err := sheetRun(context.Background(), &SheetOptions{Common: common, Op: "fill", File: cells, AllowSubmit: true}); err != nil {
		t.Fatal(err)
	}
	if len(fc.Calls) != 2 || fc.Calls[1].Params.(calls.SheetFillRequest).Approve.Token != "L.1" || !strings.Contains(out.String(), `B2: "1" → "12" (read back)`) {
		t.Fatalf("allowed: %d calls, output %q", len(fc.Calls), out)
	}
	// --approve FILE sends a saved approval.
	saved := filepath.Join(dir, "approval.json")
	if err := os.WriteFile(saved, data, 0o600); err != nil {
		t.Fatal(err)
	}
	fc = &clitest.FakeCaller{Reply: reply}
	common, _, _ = clitest.NewCommon(fc, false, false)
	if err := sheetRun(context.Background(), &SheetOptions{Common: common, Op: "fill", File: cells, Approve: saved}); err != nil || len(fc.Calls) != 1 {
		t.Fatalf("approved from a file: %v after %d calls", err, len(fc.Calls))
	}
}
