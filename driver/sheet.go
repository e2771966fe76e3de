package driver

import (
	"context"
	"fmt"

	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/sheetcell"
	"github.com/waymark-dev/waymark/sheet"
)

// Spreadsheets, exact, with no model (issue 19): going to a range as a
// hand does and copying it is the sheet room's (internal/sheetcell),
// through the core's elements, keys and clipboard (surface.go). What
// stays here is each call's session side: which app the tab shows, a
// dialog in the way, the masks of the secrets typed in the session.

// sheetApp is the tab's spreadsheet, or an error that says what to do.
func (s *Session) sheetApp(ctx context.Context, t *tab) (*apps.App, error) {
	if d := t.pendingDialog(); d != nil {
		return nil, calls.Errorf(calls.ErrNotInteractable, "answer it first: "+calls.Cmd("dialog accept|dismiss"), "%s is open (%q)", d.Named(), d.Message)
	}
	app := s.detectApp(ctx, t)
	switch {
	case app == nil:
		if grid := s.canvasGrid(ctx, t); grid != "" {
			return nil, calls.Errorf(calls.ErrNoMatch, apps.CanvasHint,
				"the page is not a spreadsheet waymark can read (%s): it draws a grid on a canvas (%s), whose cells are not written in the page, and waymark knows no name box or cells of it to select a range by and copy it with the app's own Control+C", t.url(), grid)
		}
		return nil, calls.Errorf(calls.ErrNoMatch, "open a spreadsheet (Google Sheets, Excel for the web, Airtable, Jspreadsheet…), or describe yours under [[apps]] in waymark.toml ("+calls.Cmd("doctor --apps")+" lists the known ones)",
			"the page is not a spreadsheet waymark knows (%s)", t.url())
	case app.Unreadable != "":
		return nil, calls.Errorf(calls.ErrNoMatch, apps.CanvasHint, "the page is %s, a spreadsheet waymark cannot read: %s", app.Name, app.Unreadable)
	case app.Kind != apps.KindSheet:
		return nil, calls.Errorf(calls.ErrBadInput, "use "+calls.Cmd("doc read")+" for a document", "the page is %s, a document, not a spreadsheet", app.Name)
	}
	return app, nil
}

// SheetRead reads a range of the current page's spreadsheet.
func (s *Session) SheetRead(ctx context.Context, req calls.SheetReadRequest) (reply *calls.SheetGrid, err error) {
	defer s.masked(&reply, &err)
	rng, err := sheetcell.ParseRange(req.Range)
	if err != nil {
		return nil, err
	}
	if n := rng.Rows() * rng.Cols(); rng.Rows() > calls.SheetMaxCells || n > calls.SheetMaxCells {
		return nil, calls.Errorf(calls.ErrBadInput, fmt.Sprintf("read at most %d cells at once (%d rows × %d columns): split the range, or use "+calls.Cmd("sheet dump")+" for the used range", calls.SheetMaxCells, calls.SheetDumpRows, calls.SheetDumpCols),
			"the range %s is %d rows × %d columns", rng, rng.Rows(), rng.Cols())
	}
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	app, err := s.sheetApp(ctx, t)
	if err != nil {
		return nil, err
	}
	g, formatted, err := sheetcell.ReadRange(ctx, s.view(t), app, rng, req.Hand)
	if err != nil {
		return nil, err
	}
	s.maskGrid(&g)
	return &calls.SheetGrid{URL: shownURL(t.url()), App: app.Label(), Range: rng.String(), Grid: g, Formatting: formatting(formatted)}, nil
}

// SheetDump reads the whole used range, bounded.
func (s *Session) SheetDump(ctx context.Context, req calls.SheetDumpRequest) (reply *calls.SheetGrid, err error) {
	defer s.masked(&reply, &err)
	maxRows, maxCols, err := sheetcell.DumpBounds(req)
	if err != nil {
		return nil, err
	}
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	app, err := s.sheetApp(ctx, t)
	if err != nil {
		return nil, err
	}
	rows, cut, formatted, err := sheetcell.Dump(ctx, s.view(t), app, maxRows, maxCols, req.Hand)
	if err != nil {
		return nil, err
	}
	s.maskGrid(&sheet.Grid{Rows: rows})
	out := &calls.SheetGrid{URL: shownURL(t.url()), App: app.Label(), Grid: sheet.Grid{Rows: rows}, Cut: cut, Formatting: formatting(formatted)}
	if out.Grid.Rows == nil {
		out.Grid.Rows = [][]sheet.Cell{}
	}
	if len(rows) > 0 {
		out.Range = sheet.Range{To: sheet.Ref{Row: len(rows) - 1, Col: len(rows[0]) - 1}}.String()
	}
	// Found in the masked grid: a title or header that shows a secret
	// is its mark here too.
	for _, tb := range sheet.Tables(&out.Grid) {
		out.Tables = append(out.Tables, calls.SheetTable{Summary: tb.String(), At: tb.Range.String(), Table: tb})
	}
	return out, nil
}

func formatting(html bool) string {
	if html {
		return "clipboard html"
	}
	return "none"
}
