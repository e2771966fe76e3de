package pilot

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/sheet"
)

func cellsOf(lines ...string) *sheet.Grid {
	g := &sheet.Grid{}
	for _, l := range lines {
		var row []sheet.Cell
		for _, v := range strings.Split(l, "|") {
			row = append(row, sheet.Cell{Value: v})
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

// extract on a page that is a sheet reads its table with no model (none
// is configured), learns the grid recipe into --recipe FILE, and reads by
// it next time after the sheet's columns moved; a renamed header is a
// misfit named, exit code of no-match.
func TestExtractOnASheet(t *testing.T) {
	dir := t.TempDir()
	schema := filepath.Join(dir, "s.json")
	rf := filepath.Join(dir, "orders.grid.json")
	os.WriteFile(schema, []byte(`{"type":"array","items":{"type":"object","properties":{"customer":{"type":"string"},"amount":{"type":"number"}}}}`), 0o644)
	grid := cellsOf("Orders", "", "Customer|Amount|Paid", "Ann|$12.50|yes", "Bob|$1,200.00|no")
	dumps := 0
	fc := &clitest.FakeCaller{Results: map[string]any{}}
	common, out, errOut := clitest.NewCommon(fc, false, false)
	common.Getenv = func(string) string { return "" }
	opts := &ExtractOptions{PilotOptions: pilotflags.PilotOptions{Common: common}, Instruction: "every order", SchemaFile: schema, RecipeFile: rf,
		SheetOf: func(context.Context) (pilot.SheetDump, error) {
			return func(context.Context) (*sheet.Grid, error) { dumps++; return grid, nil }, nil
		}}
	if err := extractRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	const want = `[{"amount":12.5,"customer":"Ann"},{"amount":1200,"customer":"Bob"}]`
	if got := strings.TrimSpace(out.String()); got != want || dumps != 1 {
		t.Fatalf("printed %s (%d dumps)", got, dumps)
	}
	b, err := os.ReadFile(rf)
	if err != nil || !strings.Contains(string(b), `"format": "waymark.grid/1"`) {
		t.Fatalf("grid recipe file: %s %v", b, err)
	}
	if !strings.Contains(errOut.String(), "grid recipe saved to") || !strings.Contains(errOut.String(), "A3:C5 'Orders': 2 rows") {
		t.Errorf("stderr: %s", errOut)
	}
	// The page is not read: only the recording is told.
	if m := fc.Methods(); len(m) != 1 || m[0] != calls.MethodRecordExtract {
		t.Fatalf("calls %v", m)
	}
	if req, ok := fc.Calls[0].Params.(calls.RecordExtractRequest); !ok || !strings.Contains(string(req.Grid), `"header":"Amount"`) || req.Recipe != nil {
		t.Errorf("recorded %+v", fc.Calls[0].Params)
	}

	// Columns swapped and a row added above: read by the grid recipe.
	grid = cellsOf("Q1", "Orders", "Paid|Amount|Customer", "yes|$12.50|Ann", "no|$1,200.00|Bob")
	out.Reset()
	if err := extractRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != want {
		t.Fatalf("by the grid recipe: %s", got)
	}

	grid = cellsOf("Orders", "Paid|Total|Customer", "yes|$12.50|Ann")
	err = extractRun(context.Background(), opts)
	var ce *calls.Error
	if !errors.As(err, &ce) || ce.Kind != calls.ErrNoMatch || !strings.Contains(ce.Msg, `the header "Amount" (field amount) is gone`) {
		t.Fatalf("renamed: %v", err)
	}

	// A grid recipe on a page that is no sheet.
	opts.SheetOf = func(context.Context) (pilot.SheetDump, error) { return nil, nil }
	if err := extractRun(context.Background(), opts); !errors.As(err, &ce) || ce.Kind != calls.ErrBadInput || !strings.Contains(ce.Msg, "not one") {
		t.Fatalf("no sheet: %v", err)
	}
	// A broken grid recipe file is the user's to fix.
	os.WriteFile(rf, []byte(`{"format":"waymark.grid/1","header":[],"fields":[]}`), 0o644)
	if err := extractRun(context.Background(), opts); !errors.As(err, &ce) || ce.Kind != calls.ErrBadInput || ce.Hint == "" {
		t.Fatalf("broken file: %v", err)
	}
}
