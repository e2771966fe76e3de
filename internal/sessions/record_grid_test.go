package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/routine"
)

// An extract read from a sheet while recording becomes an extract step
// holding its grid recipe; a broken one is refused.
func TestRecordExtractGrid(t *testing.T) {
	ctx := context.Background()
	m := New(driver.Options{})
	if _, err := m.Handle(ctx, "g", calls.MethodRecordStart, params(t, calls.RecordStartRequest{})); err != nil {
		t.Fatal(err)
	}
	req := calls.RecordExtractRequest{Instruction: "every order", Schema: json.RawMessage(`{"type":"array","items":{"type":"object","properties":{"customer":{"type":"string"}}}}`),
		Grid: json.RawMessage(`{"format":"waymark.grid/1","header":["Customer"],"fields":[{"name":"customer","type":"string","header":"Customer","column":"A"}],"learned":2}`)}
	if _, err := m.Handle(ctx, "g", calls.MethodRecordExtract, params(t, req)); err != nil {
		t.Fatal(err)
	}
	bad := req
	bad.Grid = json.RawMessage(`{"format":"waymark.grid/1","header":[],"fields":[]}`)
	if _, err := m.Handle(ctx, "g", calls.MethodRecordExtract, params(t, bad)); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("a bad grid recipe: %v", err)
	}
	out, err := m.Handle(ctx, "g", calls.MethodRecordStop, params(t, calls.RecordStopRequest{}))
	if err != nil {
		t.Fatal(err)
	}
	r, err := routine.Parse(out.(*calls.RecordStopResult).Routine)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 1 || r.Steps[0].Grid == nil || r.Steps[0].Grid.Fields[0].Header != "Customer" || r.Steps[0].Recipe != nil {
		t.Fatalf("steps %+v", r.Steps)
	}
}
