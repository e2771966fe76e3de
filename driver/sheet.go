package driver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/input"

	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/sheetcell"
	"github.com/waymark-dev/waymark/internal/hand"
	"github.com/waymark-dev/waymark/internal/keys"
	"github.com/waymark-dev/waymark/internal/sheetclip"
	"github.com/waymark-dev/waymark/sheet"
)

// Spreadsheets, exact, with no model (issue 19): a range is gone to as a
// hand goes to it — the app's name box, the reference, Enter; or, for an
// app without one, a click on the first cell and a shift-click on the
// last — then copied with the app's own Control+C and read from the
// clipboard (clipboard.go). Nothing reads the app's state through its
// scripts: what the clipboard says is what the sheet shows.

// sheetStepTimeout bounds the wait for one cell or the name box to be
// there and actionable.
const sheetStepTimeout = 5 * time.Second

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
	g, formatted, err := s.readRange(ctx, t, app, rng, req.Hand)
	if err != nil {
		return nil, err
	}
	s.maskGrid(&g)
	return &calls.SheetGrid{URL: shownURL(t.url()), App: app.Label(), Range: rng.String(), Grid: g, Formatting: formatting(formatted)}, nil
}

// SheetDump reads the whole used range, bounded.
func (s *Session) SheetDump(ctx context.Context, req calls.SheetDumpRequest) (reply *calls.SheetGrid, err error) {
	defer s.masked(&reply, &err)
	maxRows, maxCols := req.MaxRows, req.MaxCols
	if maxRows <= 0 {
		maxRows = calls.SheetDumpRows
	}
	if maxCols <= 0 {
		maxCols = calls.SheetDumpCols
	}
	if maxRows*maxCols > 10*calls.SheetMaxCells {
		return nil, calls.Errorf(calls.ErrBadInput, "ask for fewer rows or columns", "a dump of %d rows × %d columns is too big", maxRows, maxCols)
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
	h := t.handFor(req.Hand)
	var rows [][]sheet.Cell
	var formatted bool
	if app.NameBox != "" {
		// The whole sheet may be millions of cells: go to the bounds
		// by name, and copy only them.
		rng := sheet.Range{To: sheet.Ref{Row: maxRows - 1, Col: maxCols - 1}}
		if err := s.goToRange(ctx, t, app, rng, h); err != nil {
			return nil, err
		}
		text, html, err := s.copySelection(ctx)
		if err != nil {
			return nil, err
		}
		rows, formatted = sheetclip.FromClipboard(text, html, app.CopiesMarkup)
	} else {
		if err := s.clickCell(ctx, t, app, sheet.Ref{}, false, h); err != nil {
			return nil, err
		}
		if err := pressKeys(ctx, t, "Control+a"); err != nil {
			return nil, err
		}
		text, html, err := s.copySelection(ctx)
		if err != nil {
			return nil, err
		}
		rows, formatted = sheetclip.FromClipboard(text, html, app.CopiesMarkup)
	}
	rows = sheet.Trim(rows)
	var cut []string
	if len(rows) > maxRows {
		cut = append(cut, fmt.Sprintf("%d rows, kept %d", len(rows), maxRows))
		rows = rows[:maxRows]
	}
	if len(rows) > 0 && len(rows[0]) > maxCols {
		cut = append(cut, fmt.Sprintf("%d columns, kept %d", len(rows[0]), maxCols))
		for i := range rows {
			rows[i] = rows[i][:maxCols]
		}
	}
	rows = sheet.Trim(rows)
	s.maskGrid(&sheet.Grid{Rows: rows})
	out := &calls.SheetGrid{URL: shownURL(t.url()), App: app.Label(), Grid: sheet.Grid{Rows: rows}, Cut: strings.Join(cut, "; "), Formatting: formatting(formatted)}
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

// readRange goes to a range, copies it and returns its cells, exactly the
// range's shape: a copy of another shape means the selection was not
// what was asked, and is refused rather than guessed.
func (s *Session) readRange(ctx context.Context, t *tab, app *apps.App, rng sheet.Range, hand bool) (sheet.Grid, bool, error) {
	h := t.handFor(hand)
	if err := s.goToRange(ctx, t, app, rng, h); err != nil {
		return sheet.Grid{}, false, err
	}
	text, html, err := s.copySelection(ctx)
	if err != nil {
		return sheet.Grid{}, false, err
	}
	rows, formatted := sheetclip.FromClipboard(text, html, app.CopiesMarkup)
	// A copy ends without a line break, but some apps add one, so a last
	// row of one blank cell cannot be told from none.
	if rng.Cols() == 1 && len(rows) == rng.Rows()-1 {
		rows = append(rows, []sheet.Cell{{}})
	}
	if len(rows) == 0 && rng.Rows() == 1 && rng.Cols() == 1 {
		rows = [][]sheet.Cell{{{}}}
	}
	if len(rows) != rng.Rows() {
		return sheet.Grid{}, false, calls.Errorf(calls.ErrNotInteractable, "the app may have selected something else: run "+calls.Cmd("snapshot")+", then try again",
			"the app copied %d rows for %s, not %d", len(rows), rng, rng.Rows())
	}
	for i, r := range rows {
		if len(r) != rng.Cols() {
			return sheet.Grid{}, false, calls.Errorf(calls.ErrNotInteractable, "the app may have selected something else: run "+calls.Cmd("snapshot")+", then try again",
				"the app copied %d cells in row %d of %s, not %d", len(r), rng.From.Row+i+1, rng, rng.Cols())
		}
	}
	return sheet.Grid{Origin: rng.From, Rows: rows}, formatted, nil
}

// goToRange selects a range as a hand does: through the name box when
// the app has one, else a click on its first cell and a shift-click on
// its last.
func (s *Session) goToRange(ctx context.Context, t *tab, app *apps.App, rng sheet.Range, h *hand.Hand) error {
	if app.NameBox != "" {
		box, err := s.find(ctx, t, "css="+app.NameBox, sheetStepTimeout)
		if err != nil {
			return fmt.Errorf("the name box of %s: %w", app.Name, err)
		}
		box.hand = h
		if err := box.fill(ctx, rng.String(), sheetStepTimeout, h); err != nil {
			return err
		}
		return pressKeys(ctx, t, "Enter")
	}
	if app.Cell == "" {
		return calls.Errorf(calls.ErrNotInteractable, "give the app a name_box or a cell selector under [[apps]] in waymark.toml",
			"%s has neither a name box nor a cell selector: waymark cannot go to a range in it", app.Name)
	}
	if err := s.clickCell(ctx, t, app, rng.From, false, h); err != nil {
		return err
	}
	if rng.From == rng.To {
		return nil
	}
	return s.clickCell(ctx, t, app, rng.To, true, h)
}

// clickCell clicks one cell (shift held to extend the selection).
func (s *Session) clickCell(ctx context.Context, t *tab, app *apps.App, at sheet.Ref, shift bool, h *hand.Hand) error {
	if app.Cell == "" {
		return calls.Errorf(calls.ErrNotInteractable, "give the app a cell selector under [[apps]] in waymark.toml", "%s has no cell selector", app.Name)
	}
	el, err := s.find(ctx, t, "css="+app.CellSelector(at.Row, at.Col), sheetStepTimeout)
	if err != nil {
		if errors.Is(err, calls.ErrNoMatch) {
			return calls.Errorf(calls.ErrNoMatch, "read a range inside the sheet ("+calls.Cmd("sheet dump")+" shows its used range)", "the sheet has no cell %s", at)
		}
		return err
	}
	el.hand = h
	p, err := el.actionable(ctx, checkVisible, sheetStepTimeout)
	if err != nil {
		return err
	}
	if !shift {
		return t.press(ctx, p, input.MouseButtonLeft, 1, h)
	}
	if err := t.moveTo(ctx, p, h); err != nil {
		return err
	}
	if err := keys.Dispatch(ctx, t.sess, []input.DispatchKeyEventParams{keys.Shift(true)}); err != nil {
		return err
	}
	defer keys.Dispatch(context.WithoutCancel(ctx), t.sess, []input.DispatchKeyEventParams{keys.Shift(false)})
	for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
		params := input.DispatchMouseEventParams{Type: typ, X: p.X, Y: p.Y, Button: input.MouseButtonLeft, ClickCount: 1, Modifiers: 8}
		if typ == input.DispatchMouseEventTypeMousePressed {
			params.Buttons = 1
		}
		if _, err := call(ctx, t, input.DispatchMouseEvent, params); err != nil {
			return err
		}
	}
	return nil
}
