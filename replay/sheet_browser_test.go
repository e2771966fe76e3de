package replay

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/apptest"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// TestReplaySheetSteps replays a routine of sheet steps on the real
// spreadsheet with no model: a read into the data, a write, and a fill
// that asks (stopped needs-approval) unless submits are allowed.
func TestReplaySheetSteps(t *testing.T) {
	t.Parallel()
	srv := apptest.Sheet(t, apptest.SheetOptions{Data: [][]string{{"Item", "Qty", "PIN"}, {"lamp", "3", ""}, {"desk", "12", ""}}})
	r := &routine.Routine{Format: routine.Format, Name: "stock",
		Variables: []routine.Variable{{Name: "qty"}, {Name: "pin", Secret: true}},
		Steps: []routine.Step{
			{ID: "open", Kind: routine.KindGoto, URL: srv.URL + "/"},
			{ID: "read", Kind: routine.KindSheetRead, Range: "A1:B3", Into: "stock"},
			{ID: "write", Kind: routine.KindSheetWrite, Cell: "B2", Value: &routine.Value{From: "input", Slot: "qty"}},
			{ID: "fill", Kind: routine.KindSheetFill, Cells: map[string]*routine.Value{
				"B3": {Literal: "13"}, "C2": {From: "secret", Slot: "pin"},
			}},
		}}
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := routine.Parse(raw); err != nil {
		t.Fatalf("the routine does not load: %v", err)
	}
	opts := Options{Vars: map[string]string{"qty": "4"}, Secrets: map[string]secret.Value{"pin": secret.New("pin", "8421")}, NoHand: true}

	t.Run("ask", func(t *testing.T) {
		s, ctx := newSession(t, t.Name())
		res, err := Run(ctx, s, r, opts)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(res)
		if res.Cause != CauseNeedsApproval || strings.Contains(string(out), "8421") {
			t.Fatalf("cause %q: %s", res.Cause, out)
		}
		var data struct{ Rows [][]string }
		if err := json.Unmarshal(res.Data["stock"], &data); err != nil || len(data.Rows) != 3 || data.Rows[2][1] != "12" {
			t.Fatalf("read into data: %s (%v)", res.Data["stock"], err)
		}
		g, err := s.SheetRead(ctx, calls.SheetReadRequest{Range: "B2:C3"})
		if err != nil {
			t.Fatal(err)
		}
		if v := g.Grid.Values(); v[0][0] != "4" || v[1][0] != "12" || v[0][1] != "" {
			t.Fatalf("after the stop the sheet holds %q: the write, and no fill", v)
		}
	})
	t.Run("allowed", func(t *testing.T) {
		s, ctx := newSession(t, t.Name())
		o := opts
		o.Submits = SubmitsAllow
		res, err := Run(ctx, s, r, o)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(res)
		if res.Cause != CauseNone || strings.Contains(string(out), "8421") {
			t.Fatalf("cause %q: %s", res.Cause, out)
		}
		g, err := s.SheetRead(ctx, calls.SheetReadRequest{Range: "B2:C3"})
		if err != nil {
			t.Fatal(err)
		}
		// The secret is typed, and a read shows its mark, never the value.
		if v := g.Grid.Values(); v[1][0] != "13" || v[0][1] != "«secret:C2»" || v[0][0] != "4" {
			t.Fatalf("the sheet holds %q", v)
		}
		pin, err := s.Eval(ctx, calls.EvalRequest{Expression: "window.sheet.getValueFromCoords(2, 1)", MainWorld: true})
		// The app's own value, read through the session, is the secret's
		// mark: the whole value is there, and masked on the way out.
		if err != nil || string(pin.Value) != `"«secret:C2»"` {
			t.Fatalf("the app holds %s (%v)", pin.Value, err)
		}
	})
	t.Run("a person says no", func(t *testing.T) {
		s, ctx := newSession(t, t.Name())
		o := opts
		var asked []string
		o.Approve = func(_ context.Context, step string, a calls.Approval) (bool, error) {
			asked = append(asked, step+": "+a.Control+" "+a.Writes["C2"])
			return false, nil
		}
		res, err := Run(ctx, s, r, o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Cause != CauseNeedsApproval || len(asked) != 1 || !strings.Contains(asked[0], "C2, B3 "+secret.Masked) {
			t.Fatalf("cause %q, asked %q", res.Cause, asked)
		}
	})
}
