package driver_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/apps/apptest"
)

// openSheet opens the served spreadsheet and waits until it is drawn.
func openSheet(t *testing.T, s *driver.Session, ctx context.Context, o apptest.SheetOptions) {
	t.Helper()
	srv := apptest.Sheet(t, o)
	open(t, s, ctx, srv.URL+"/")
	if _, err := s.Wait(ctx, calls.WaitRequest{Selector: ".jss_worksheet td[data-x='0'][data-y='0']"}); err != nil {
		t.Fatalf("the sheet was not drawn: %v", err)
	}
}

// appValue reads the app's own data for a cell (test-only, in the page's
// world).
func appValue(t *testing.T, s *driver.Session, ctx context.Context, col, row int) string {
	t.Helper()
	res, err := s.Eval(ctx, calls.EvalRequest{Expression: `String(window.sheet.getValueFromCoords(` + itoa(col) + `,` + itoa(row) + `))`, MainWorld: true})
	if err != nil {
		t.Fatal(err)
	}
	var v string
	_ = json.Unmarshal(res.Value, &v)
	return v
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestSheetReadExact(t *testing.T) {
	s, ctx := newSession(t)
	data := [][]string{{"Name", "Qty", "Note"}, {"lamp", "3", "a<b & c"}, {"desk", "12", ""}, {"chair", "7", "end"}}
	openSheet(t, s, ctx, apptest.SheetOptions{Data: data})
	start := time.Now()
	g, err := s.SheetRead(ctx, calls.SheetReadRequest{Range: "A1:C4"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("read in %s: %+v", time.Since(start), g)
	got := g.Grid.Values()
	for i := range data {
		for j := range data[i] {
			if got[i][j] != data[i][j] {
				t.Errorf("%d,%d = %q, want %q", i, j, got[i][j], data[i][j])
			}
		}
	}
}
