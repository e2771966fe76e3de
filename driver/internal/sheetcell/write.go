package sheetcell

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/hand"
	"github.com/waymark-dev/waymark/secret"
	"github.com/waymark-dev/waymark/sheet"
)

// Writing cells: a cell is gone to, its value typed (with the hand's
// cadence when asked) and committed with Enter, then read back through
// the clipboard. The typing is the core's, with the tab's form
// submissions held (View.WithoutSubmits).

// WriteCell reads a cell, types its value, commits it with Enter and
// reads it back. A secret's value never reaches the result. approved,
// when not nil, is what the cell held as approved (as ReadCells shows
// it): a cell that holds something else now is not written (changed), so
// a page that changes a cell while the fill writes the ones before it
// does not have it overwritten.
func WriteCell(ctx context.Context, v View, app *apps.App, at sheet.Ref, value string, isSecret bool, h *hand.Hand, approved *string) (calls.SheetCell, error) {
	one := sheet.Range{From: at, To: at}
	c := calls.SheetCell{Cell: at.String(), Secret: isSecret}
	before, _, err := ReadRange(ctx, v, app, one, h != nil)
	if err != nil {
		return c, err
	}
	c.Before = v.Mask(before.At(at).Value)
	if approved != nil {
		if now := secret.Redact(c.Before); now != *approved {
			return c, calls.Errorf(calls.ErrChanged, "run the fill again without the approval to see what the cells hold now, and approve that",
				"%s holds %q now, not %q as approved; it was not written", at, now, *approved)
		}
	}
	// The cell is selected by the read: typing opens its editor with
	// what is typed in place of what it held.
	if err := v.WithoutSubmits(ctx, "writing "+at.String(), func() error { return typeCell(ctx, v, value, h) }); err != nil {
		return c, err
	}
	after, _, err := ReadRange(ctx, v, app, one, h != nil)
	if err != nil {
		return c, err
	}
	got := after.At(at).Value
	c.ReadBack = got == value
	c.After = v.Mask(got)
	if isSecret {
		c.Before = secret.Redact(c.Before)
		c.After = secret.Masked
	}
	return c, nil
}

// ReadCells reads what the cells hold now, by reference, with what looks
// secret masked: in one copy of the rectangle that holds them when it is
// small, else cell by cell.
func ReadCells(ctx context.Context, v View, app *apps.App, cells []Cell, hand bool) (map[string]string, error) {
	box := sheet.Range{From: cells[0].Ref, To: cells[0].Ref}
	for _, c := range cells {
		box.From.Row, box.From.Col = min(box.From.Row, c.Ref.Row), min(box.From.Col, c.Ref.Col)
		box.To.Row, box.To.Col = max(box.To.Row, c.Ref.Row), max(box.To.Col, c.Ref.Col)
	}
	out := map[string]string{}
	if box.Rows()*box.Cols() <= 4*len(cells)+16 {
		g, _, err := ReadRange(ctx, v, app, box, hand)
		if err != nil {
			return nil, err
		}
		for _, c := range cells {
			out[c.Ref.String()] = secret.Redact(v.Mask(g.At(c.Ref).Value))
		}
		return out, nil
	}
	for _, c := range cells {
		g, _, err := ReadRange(ctx, v, app, sheet.Range{From: c.Ref, To: c.Ref}, hand)
		if err != nil {
			return nil, err
		}
		out[c.Ref.String()] = secret.Redact(v.Mask(g.At(c.Ref).Value))
	}
	return out, nil
}

// typeCell types a value into the selected cell and commits it with
// Enter, or deletes what it holds.
func typeCell(ctx context.Context, v View, value string, h *hand.Hand) error {
	if value == "" {
		return v.PressKeys(ctx, "Delete")
	}
	if err := v.TypeKeys(ctx, value, h); err != nil {
		return err
	}
	return v.PressKeys(ctx, "Enter")
}

// SheetTab names the open sheet (tab) of a spreadsheet of several, by
// the app's Tab selector; "" when the app names none. Read in waymark's
// isolated world.
func SheetTab(ctx context.Context, v View, app *apps.App) (string, error) {
	if app.Tab == "" {
		return "", nil
	}
	sel, _ := json.Marshal(app.Tab)
	var name string
	expr := fmt.Sprintf(`(() => { const e = document.querySelector(%s); return e ? e.textContent.replace(/\s+/g, " ").trim().slice(0, 100) : ""; })()`, sel)
	if err := v.EvalPage(ctx, expr, &name); err != nil {
		return "", err
	}
	return name, nil
}
