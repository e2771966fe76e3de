package sheet

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

func TestSheetFillApproval(t *testing.T) {
	dir := t.TempDir()
	cells, approval, reply := clitest.HeldSheetFill(t, dir)
	data, _ := json.Marshal(approval)

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

// TestSheetFillSecrets: --secret CELL=env:VAR sends the cell's value apart
// from the cells, and --secret CELL alone with no terminal is a usage error
// (it used to panic: no IOStreams to prompt on).
func TestSheetFillSecrets(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cells.json")
	if err := os.WriteFile(file, []byte(`{"B2": "12"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _, _ := clitest.NewCommon(&clitest.FakeCaller{}, false, false)
	c.Getenv = func(k string) string { return map[string]string{"PIN": "4821"}[k] }
	o := &SheetOptions{Common: c, File: file, Secrets: []string{"C3=env:PIN"}}
	req, err := o.fillRequest()
	if err != nil {
		t.Fatal(err)
	}
	if req.Secrets["C3"] != "4821" || req.Cells["C3"] != "" || req.Cells["B2"] != "12" {
		t.Errorf("request %+v", req)
	}
	o.Secrets = []string{"C3"}
	var ue *cmdutil.UsageError
	if _, err := o.fillRequest(); !errors.As(err, &ue) || !strings.Contains(err.Error(), "needs a terminal") {
		t.Errorf("want a usage error that asks for a terminal, got %v", err)
	}
}
