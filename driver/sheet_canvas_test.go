package driver_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/apptest"
)

// A spreadsheet drawn on a canvas says why it cannot be read, and what to
// do instead: the real x-data-spreadsheet by its name, another canvas grid
// by what it is; a page with a chart on a canvas is no spreadsheet.
func TestSheetOnACanvasGridSaysWhy(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := apptest.XSpreadsheet(t, [][]string{{"Customer", "Amount"}, {"Ann", "12.5"}, {"Bob", "1200"}})
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Wait(ctx, calls.WaitRequest{Selector: ".x-spreadsheet canvas.x-spreadsheet-table"}); err != nil {
		t.Fatalf("the sheet was not drawn: %v", err)
	}
	// The cells are on the canvas only: the page's text does not hold them.
	if v, err := s.Eval(ctx, calls.EvalRequest{Expression: `document.body.innerText.includes('Ann')`}); err != nil || string(v.Value) != "false" {
		t.Fatalf("the cells are in the page's text (%v %s): not a canvas grid", err, v.Value)
	}
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Depth: 1, Unseen: true})
	if err != nil || snap.App != "x-data-spreadsheet (sheet)" {
		t.Errorf("the look names the app %q (%v)", snap.App, err)
	}
	_, err = s.SheetDump(ctx, calls.SheetDumpRequest{})
	var ce *calls.Error
	if !errors.Is(err, calls.ErrNoMatch) || !errors.As(err, &ce) ||
		!strings.Contains(ce.Msg, "x-data-spreadsheet, a spreadsheet waymark cannot read: its cells are drawn on a canvas") || !strings.Contains(ce.Hint, "CSV") {
		t.Errorf("sheet dump on x-data-spreadsheet: %v", err)
	}
	if _, err := s.SheetRead(ctx, calls.SheetReadRequest{Range: "A1:B3"}); err == nil || !strings.Contains(err.Error(), "cannot read") {
		t.Errorf("sheet read on x-data-spreadsheet: %v", err)
	}

	// Canvas grids waymark does not know, and a chart.
	srv2 := serve(t, map[string]string{
		"/grid":  canvasPage(`<div class="data-grid">`, 900, 600),
		"/chart": canvasPage(`<figure class="sales-chart">`, 900, 600),
	})
	for _, c := range []struct{ path, want string }{
		{"/grid", "it draws a grid on a canvas (div.data-grid > canvas, 900×600)"},
		{"/chart", "the page is not a spreadsheet waymark knows"},
	} {
		if _, err := s.Open(ctx, calls.OpenRequest{URL: srv2.URL + c.path}); err != nil {
			t.Fatal(err)
		}
		_, err := s.SheetDump(ctx, calls.SheetDumpRequest{})
		if !errors.Is(err, calls.ErrNoMatch) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.path, err, c.want)
		}
	}
}

func canvasPage(open string, w, h int) string {
	tag := strings.Fields(strings.TrimPrefix(open, "<"))[0]
	return `<!doctype html><html><head><style>body{margin:0}</style></head><body>` + open + `<canvas width="` + itoa(w) + `" height="` + itoa(h) + `"></canvas></` + tag + `>
<script>const g = document.querySelector('canvas').getContext('2d'); for (let x = 0; x < ` + itoa(w) + `; x += 100) g.fillRect(x, 0, 1, ` + itoa(h) + `);</script></body></html>`
}
