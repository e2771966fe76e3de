package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/sheet"
)

func cells(lines ...string) *sheet.Grid {
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

// extract on a session whose page is a sheet reads its table with no
// model call, gives the grid recipe back, and reads by it when it comes
// back as list.recipe after the columns moved.
func TestPilotExtractASheet(t *testing.T) {
	grid := cells("Customer|Amount", "Ann|$12.50", "Bob|$3")
	var asked []string
	po := PilotOptions{Sheet: func(_ context.Context, session string) (pilot.SheetDump, error) {
		asked = append(asked, session)
		return func(context.Context) (*sheet.Grid, error) { return grid, nil }, nil
	}}
	m := scripted.New()
	defer m.Verify(t)
	cs, _ := pilotServer(t, &fakeCaller{}, m, po, nil)
	schema := map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{"client": map[string]any{"type": "string"}, "amount": map[string]any{"type": "number"}}}}
	got, isErr, res := callTool(t, cs, "extract", map[string]any{"instruction": "every order", "schema": schema})
	if isErr || !strings.HasPrefix(got, `[{"amount":12.5,"client":"Ann"},{"amount":3,"client":"Bob"}]`) || !strings.Contains(got, "grid recipe (give it back as list.recipe") ||
		!strings.Contains(got, "read from the sheet's table A1:B3: 2 rows; Customer, Amount (currency)") || len(asked) != 1 {
		t.Fatalf("isErr=%v reply %q (asked %v)", isErr, got, asked)
	}
	sc, _ := json.Marshal(res.StructuredContent)
	var out struct {
		Source string
		Grid   map[string]any
	}
	if json.Unmarshal(sc, &out) != nil || out.Source != pilot.SourceSheet || out.Grid == nil {
		t.Fatalf("structuredContent %s", sc)
	}
	grid = cells("Amount|Customer", "$12.50|Ann", "$3|Bob")
	got, isErr, _ = callTool(t, cs, "extract", map[string]any{"instruction": "every order", "schema": schema, "list": map[string]any{"recipe": out.Grid}})
	if isErr || !strings.HasPrefix(got, `[{"amount":12.5,"client":"Ann"},{"amount":3,"client":"Bob"}]`) || strings.Contains(got, "grid recipe (") {
		t.Fatalf("by the grid recipe: isErr=%v reply %q", isErr, got)
	}
	bad := map[string]any{"format": "waymark.grid/1", "header": []string{}, "fields": []any{}}
	if got, isErr, _ = callTool(t, cs, "extract", map[string]any{"instruction": "x", "schema": schema, "list": map[string]any{"recipe": bad}}); !isErr || !strings.Contains(got, "list.recipe") {
		t.Errorf("a broken grid recipe: %q", got)
	}
}
