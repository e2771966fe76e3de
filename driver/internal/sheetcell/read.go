package sheetcell

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/elem"
	"github.com/waymark-dev/waymark/internal/hand"
	"github.com/waymark-dev/waymark/internal/sheetclip"
	"github.com/waymark-dev/waymark/sheet"
)

// Spreadsheets, exact, with no model (issue 19): a range is gone to as a
// hand goes to it — the app's name box, the reference, Enter; or, for an
// app without one, a click on the first cell and a shift-click on the
// last — then copied with the app's own Control+C and read from the
// clipboard. Nothing reads the app's state through its scripts: what the
// clipboard says is what the sheet shows.

// stepTimeout bounds the wait for one cell or the name box to be there
// and actionable.
const stepTimeout = 5 * time.Second

// ReadRange goes to a range, copies it and returns its cells, exactly the
// range's shape: a copy of another shape means the selection was not
// what was asked, and is refused rather than guessed. formatted says the
// clipboard had HTML.
func ReadRange(ctx context.Context, v View, app *apps.App, rng sheet.Range, hand bool) (g sheet.Grid, formatted bool, err error) {
	h := v.Hand(hand)
	if err := goToRange(ctx, v, app, rng, h); err != nil {
		return sheet.Grid{}, false, err
	}
	text, html, err := v.Copy(ctx)
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

// DumpBounds are the rows and columns a dump keeps at most: the
// request's, else the defaults; a dump too big is refused.
func DumpBounds(req calls.SheetDumpRequest) (maxRows, maxCols int, err error) {
	maxRows, maxCols = req.MaxRows, req.MaxCols
	if maxRows <= 0 {
		maxRows = calls.SheetDumpRows
	}
	if maxCols <= 0 {
		maxCols = calls.SheetDumpCols
	}
	if maxRows*maxCols > 10*calls.SheetMaxCells {
		return 0, 0, calls.Errorf(calls.ErrBadInput, "ask for fewer rows or columns", "a dump of %d rows × %d columns is too big", maxRows, maxCols)
	}
	return maxRows, maxCols, nil
}

// Dump copies the used range, bounded by maxRows × maxCols when the app
// has a name box (the whole sheet may be millions of cells: the bounds
// are gone to by name, and only they are copied), else all of it
// (Control+A from the first cell), and returns its rows trimmed and cut
// to the bounds; cut says what was left out.
func Dump(ctx context.Context, v View, app *apps.App, maxRows, maxCols int, hand bool) (rows [][]sheet.Cell, cut string, formatted bool, err error) {
	h := v.Hand(hand)
	if app.NameBox != "" {
		rng := sheet.Range{To: sheet.Ref{Row: maxRows - 1, Col: maxCols - 1}}
		if err := goToRange(ctx, v, app, rng, h); err != nil {
			return nil, "", false, err
		}
	} else {
		if err := clickCell(ctx, v, app, sheet.Ref{}, false, h); err != nil {
			return nil, "", false, err
		}
		if err := v.PressKeys(ctx, "Control+a"); err != nil {
			return nil, "", false, err
		}
	}
	text, html, err := v.Copy(ctx)
	if err != nil {
		return nil, "", false, err
	}
	rows, formatted = sheetclip.FromClipboard(text, html, app.CopiesMarkup)
	rows = sheet.Trim(rows)
	var cuts []string
	if len(rows) > maxRows {
		cuts = append(cuts, fmt.Sprintf("%d rows, kept %d", len(rows), maxRows))
		rows = rows[:maxRows]
	}
	if len(rows) > 0 && len(rows[0]) > maxCols {
		cuts = append(cuts, fmt.Sprintf("%d columns, kept %d", len(rows[0]), maxCols))
		for i := range rows {
			rows[i] = rows[i][:maxCols]
		}
	}
	return sheet.Trim(rows), strings.Join(cuts, "; "), formatted, nil
}

// goToRange selects a range as a hand does: through the name box when
// the app has one, else a click on its first cell and a shift-click on
// its last.
func goToRange(ctx context.Context, v View, app *apps.App, rng sheet.Range, h *hand.Hand) error {
	if app.NameBox != "" {
		box, err := v.Find(ctx, "css="+app.NameBox, stepTimeout, h)
		if err != nil {
			return fmt.Errorf("the name box of %s: %w", app.Name, err)
		}
		if err := box.Fill(ctx, rng.String(), stepTimeout, h); err != nil {
			return err
		}
		return v.PressKeys(ctx, "Enter")
	}
	if app.Cell == "" {
		return calls.Errorf(calls.ErrNotInteractable, "give the app a name_box or a cell selector under [[apps]] in waymark.toml",
			"%s has neither a name box nor a cell selector: waymark cannot go to a range in it", app.Name)
	}
	if err := clickCell(ctx, v, app, rng.From, false, h); err != nil {
		return err
	}
	if rng.From == rng.To {
		return nil
	}
	return clickCell(ctx, v, app, rng.To, true, h)
}

// clickCell clicks one cell (shift held to extend the selection).
func clickCell(ctx context.Context, v View, app *apps.App, at sheet.Ref, shift bool, h *hand.Hand) error {
	if app.Cell == "" {
		return calls.Errorf(calls.ErrNotInteractable, "give the app a cell selector under [[apps]] in waymark.toml", "%s has no cell selector", app.Name)
	}
	el, err := v.Find(ctx, "css="+app.CellSelector(at.Row, at.Col), stepTimeout, h)
	if err != nil {
		if errors.Is(err, calls.ErrNoMatch) {
			return calls.Errorf(calls.ErrNoMatch, "read a range inside the sheet ("+calls.Cmd("sheet dump")+" shows its used range)", "the sheet has no cell %s", at)
		}
		return err
	}
	p, err := el.Where(ctx, elem.Visible, stepTimeout)
	if err != nil {
		return err
	}
	if !shift {
		return v.PressAt(ctx, p, h)
	}
	if err := v.MoveTo(ctx, p, h); err != nil {
		return err
	}
	return v.ShiftClickAt(ctx, p)
}
