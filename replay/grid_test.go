package replay

import (
	"context"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/sheet"
)

const gridRoutine = `{"format": "waymark.routine/1", "name": "orders", "steps": [
 {"id": "orders", "kind": "extract", "instruction": "every order",
  "schema": {"type": "array", "items": {"type": "object", "properties": {"customer": {"type": "string"}, "amount": {"type": "number"}}}},
  "grid": {"format": "waymark.grid/1", "title": "Orders", "header": ["Customer", "Amount"], "learned": 2,
   "fields": [{"name": "customer", "type": "string", "header": "Customer", "column": "A"}, {"name": "amount", "type": "number", "header": "Amount", "column": "B"}]}}]}`

func gridOf(lines ...string) *sheet.Grid {
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

// An extract step with a grid recipe reads the sheet with no model after
// its columns moved; a renamed header stops as needs-model with no
// model, and with one is a heal whose next version reads by the new
// headers.
func TestReplayGridStep(t *testing.T) {
	r, err := routine.Parse([]byte(gridRoutine))
	if err != nil {
		t.Fatal(err)
	}
	grid := gridOf("Orders", "Paid|Amount|Customer", "yes|$12.50|Ann", "no|$3|Bob")
	o := Options{CheckTimeout: -1, Sheet: func(context.Context) (*sheet.Grid, error) { return grid, nil }}
	res, err := Run(context.Background(), &fakeDriver{}, r, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusOK || string(res.Data["orders"]) != `[{"amount":12.5,"customer":"Ann"},{"amount":3,"customer":"Bob"}]` || res.ModelCalls != 0 {
		t.Fatalf("result = %+v, data %s", res, res.Data["orders"])
	}
	if d := res.Steps[0].Detail; !strings.Contains(d, "2 row(s) read by the grid recipe from A2:C4 'Orders'") {
		t.Errorf("detail %q", d)
	}

	grid = gridOf("Orders", "Paid|Total|Client", "yes|$12.50|Ann")
	res, _ = Run(context.Background(), &fakeDriver{}, r, o)
	if res.Cause != CauseNeedsModel || !strings.Contains(res.Message, `the headers "Customer" (field customer), "Amount" (field amount) are gone`) {
		t.Fatalf("renamed, no model: %+v", res)
	}

	// With a model: the synonyms place both fields, so it is not even
	// called; the heal is kept in the next version.
	m := scripted.New()
	o.Model, o.KeepHeals = m, KeepAlways
	res, err = Run(context.Background(), &fakeDriver{}, r, o)
	if err != nil {
		t.Fatal(err)
	}
	m.Verify(t)
	if res.Status != StatusOK || len(res.Heals) != 1 || res.Heals[0].How != HealGrid || res.Heals[0].After != "headers Total, Client" || res.Routine == nil {
		t.Fatalf("heal: %+v", res)
	}
	if g := res.Routine.Steps[0].Grid; g == nil || g.Fields[1].Header != "Client" {
		t.Fatalf("next version's grid: %+v", g)
	}

	// No sheet given: the session's own dump reads it, and a page that
	// is no sheet stops the replay saying so.
	res, _ = Run(context.Background(), &notSheet{}, r, Options{CheckTimeout: -1})
	if res.Cause != CauseFailed || !strings.Contains(res.Message, "not a spreadsheet") {
		t.Errorf("no sheet: %+v", res)
	}
}

// notSheet is a session whose page is no spreadsheet.
type notSheet struct{ fakeDriver }

func (*notSheet) SheetDump(context.Context, calls.SheetDumpRequest) (*calls.SheetGrid, error) {
	return nil, calls.Errorf(calls.ErrNoMatch, "open a spreadsheet", "the page is not a spreadsheet waymark knows (about:blank)")
}
