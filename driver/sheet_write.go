package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/sheetcell"
	"github.com/waymark-dev/waymark/internal/hand"
	"github.com/waymark-dev/waymark/internal/keys"
	"github.com/waymark-dev/waymark/secret"
	"github.com/waymark-dev/waymark/sheet"
)

// Writing cells: a cell is gone to, its value typed (with the hand's
// cadence when asked) and committed with Enter, then read back through
// the clipboard. One cell is a write; several are a fill, which is
// approved like a submit: the unapproved call shows what the cells hold
// and writes nothing, and the approval it gives (bound to the page load,
// used once, and to these very cells and values) writes only while the
// cells still hold what was shown.

// SheetWrite types one cell and reads it back.
func (s *Session) SheetWrite(ctx context.Context, req calls.SheetWriteRequest) (reply *calls.SheetWriteResult, err error) {
	defer s.masked(&reply, &err)
	at, err := sheetcell.ParseCell(req.Cell)
	if err != nil {
		return nil, err
	}
	if err := sheetcell.Typable(req.Cell, req.Value); err != nil {
		return nil, err
	}
	if err := sheetcell.Unapproved(req.Cell, req.Value); err != nil {
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
	h := t.handFor(req.Hand)
	if req.Secret != "" {
		s.rememberCellSecret(req.Secret, req.Value)
	}
	c, err := s.writeCell(ctx, t, app, at, req.Value, req.Secret != "", h, nil)
	if err != nil {
		return nil, err
	}
	if req.Secret != "" {
		c.After = secret.Mark(req.Secret)
	}
	if !c.ReadBack && strings.HasPrefix(req.Value, "=") && req.Secret == "" && c.After != "" {
		// A formula shows its result, not what was typed: said, not failed.
		c.Error = fmt.Sprintf("a formula: the cell shows %q", c.After)
	} else if !c.ReadBack {
		return nil, calls.Errorf(calls.ErrNotInteractable, "the app may have refused the value (a validation, a read-only cell): run "+calls.Cmd("sheet read")+" "+c.Cell,
			"typed into %s but it shows %q", c.Cell, c.After)
	}
	return &calls.SheetWriteResult{URL: shownURL(t.url()), App: app.Label(), SheetCell: c}, nil
}

// writeCell reads a cell, types its value, commits it with Enter and
// reads it back. A secret's value never reaches the result. approved,
// when not nil, is what the cell held as approved (as readCells shows
// it): a cell that holds something else now is not written (changed), so
// a page that changes a cell while the fill writes the ones before it
// does not have it overwritten.
func (s *Session) writeCell(ctx context.Context, t *tab, app *apps.App, at sheet.Ref, value string, isSecret bool, h *hand.Hand, approved *string) (calls.SheetCell, error) {
	one := sheet.Range{From: at, To: at}
	c := calls.SheetCell{Cell: at.String(), Secret: isSecret}
	before, _, err := s.readRange(ctx, t, app, one, h != nil)
	if err != nil {
		return c, err
	}
	c.Before = s.maskCellSecrets(before.At(at).Value)
	if approved != nil {
		if now := secret.Redact(c.Before); now != *approved {
			return c, calls.Errorf(calls.ErrChanged, "run the fill again without the approval to see what the cells hold now, and approve that",
				"%s holds %q now, not %q as approved; it was not written", at, now, *approved)
		}
	}
	// The cell is selected by the read: typing opens its editor with
	// what is typed in place of what it held.
	if err := s.withoutSubmits(ctx, t, "writing "+at.String(), func() error { return typeCell(ctx, t, value, h) }); err != nil {
		return c, err
	}
	after, _, err := s.readRange(ctx, t, app, one, h != nil)
	if err != nil {
		return c, err
	}
	got := after.At(at).Value
	c.ReadBack = got == value
	c.After = s.maskCellSecrets(got)
	if isSecret {
		c.Before = secret.Redact(c.Before)
		c.After = secret.Masked
	}
	return c, nil
}

// SheetFill writes several cells once approved.
func (s *Session) SheetFill(ctx context.Context, req calls.SheetFillRequest) (reply *calls.SheetFillResult, err error) {
	defer s.masked(&reply, &err)
	cells, err := sheetcell.Check(req)
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
	if req.Approve != nil {
		if err := t.approvalFresh(*req.Approve); err != nil {
			return nil, err
		}
	}
	now, err := s.readCells(ctx, t, app, cells, req.Hand)
	if err != nil {
		return nil, err
	}
	tabName, err := s.sheetTab(ctx, t, app)
	if err != nil {
		return nil, err
	}
	why := fmt.Sprintf("writes %d cells of the sheet", len(cells))
	if tabName != "" {
		why += fmt.Sprintf(" %q", tabName)
	}
	want := calls.Approval{Action: "write cells", URL: shownURL(t.url()), Control: sheetcell.List(cells),
		Why: why, Form: now, Writes: sheetcell.Writes(cells), Sends: "cells " + sheetcell.Digest(cells)}
	if req.Approve == nil {
		var b strings.Builder
		for _, c := range cells {
			fmt.Fprintf(&b, "; %s holds %q", c.Ref, now[c.Ref.String()])
		}
		return nil, needsApproval(t.bind(want), fmt.Sprintf("writing %d cells needs approval; nothing was written%s", len(cells), b.String()))
	}
	a := *req.Approve
	switch {
	case a.URL != want.URL:
		return nil, needsApprovalAgain(fmt.Sprintf("the approval was for %s, and the page is %s; nothing was written", a.URL, want.URL))
	case a.Why != want.Why:
		return nil, needsApprovalAgain(fmt.Sprintf("the approval %s, and the page's open sheet is %q; nothing was written", a.Why, tabName))
	case a.Control != want.Control || a.Sends != want.Sends:
		return nil, needsApprovalAgain("the approval was for other cells or other values; nothing was written")
	}
	for _, c := range cells {
		k := c.Ref.String()
		if a.Form[k] != now[k] {
			return nil, calls.Errorf(calls.ErrChanged, "run the fill again without the approval to see what the cells hold now, and approve that",
				"%s holds %q now, not %q as approved; nothing was written", k, now[k], a.Form[k])
		}
	}
	t.useApproval(a)
	h := t.handFor(req.Hand)
	out := &calls.SheetFillResult{URL: shownURL(t.url()), App: app.Label()}
	for _, c := range cells {
		// A secret is remembered (and masked in every later read) once
		// its cell was compared with the approval, which showed the cell
		// unmasked by it.
		was := a.Form[c.Ref.String()]
		wc, err := s.writeCell(ctx, t, app, c.Ref, c.Value, c.Secret, h, &was)
		if c.Secret {
			s.rememberCellSecret(c.Ref.String(), c.Value)
		}
		if err != nil {
			return nil, fmt.Errorf("%s (after %d of %d cells): %w", c.Ref, len(out.Cells), len(cells), err)
		}
		if !wc.ReadBack && !wc.Secret {
			wc.Error = fmt.Sprintf("it shows %q", wc.After)
		} else if !wc.ReadBack {
			wc.Error = "it does not show the secret typed"
		}
		out.Cells = append(out.Cells, wc)
	}
	return out, nil
}

// readCells reads what the cells hold now, by reference, with what looks
// secret masked: in one copy of the rectangle that holds them when it is
// small, else cell by cell.
func (s *Session) readCells(ctx context.Context, t *tab, app *apps.App, cells []sheetcell.Cell, hand bool) (map[string]string, error) {
	box := sheet.Range{From: cells[0].Ref, To: cells[0].Ref}
	for _, c := range cells {
		box.From.Row, box.From.Col = min(box.From.Row, c.Ref.Row), min(box.From.Col, c.Ref.Col)
		box.To.Row, box.To.Col = max(box.To.Row, c.Ref.Row), max(box.To.Col, c.Ref.Col)
	}
	out := map[string]string{}
	if box.Rows()*box.Cols() <= 4*len(cells)+16 {
		g, _, err := s.readRange(ctx, t, app, box, hand)
		if err != nil {
			return nil, err
		}
		for _, c := range cells {
			out[c.Ref.String()] = secret.Redact(s.maskCellSecrets(g.At(c.Ref).Value))
		}
		return out, nil
	}
	for _, c := range cells {
		g, _, err := s.readRange(ctx, t, app, sheet.Range{From: c.Ref, To: c.Ref}, hand)
		if err != nil {
			return nil, err
		}
		out[c.Ref.String()] = secret.Redact(s.maskCellSecrets(g.At(c.Ref).Value))
	}
	return out, nil
}

// typeCell types a value into the selected cell and commits it with
// Enter, or deletes what it holds.
func typeCell(ctx context.Context, t *tab, value string, h *hand.Hand) (err error) {
	if value == "" {
		if err := pressKeys(ctx, t, "Delete"); err != nil {
			return err
		}
	} else {
		if h != nil {
			err = t.typeCadenced(ctx, value, h)
		} else {
			err = keys.Send(ctx, t.sess, keys.Type(value))
		}
		if err != nil {
			return err
		}
		if err := pressKeys(ctx, t, "Enter"); err != nil {
			return err
		}
	}
	return nil
}

// sheetTab names the open sheet (tab) of a spreadsheet of several, by
// the app's Tab selector; "" when the app names none. Read in our world.
func (s *Session) sheetTab(ctx context.Context, t *tab, app *apps.App) (string, error) {
	if app.Tab == "" {
		return "", nil
	}
	sel, _ := json.Marshal(app.Tab)
	var name string
	expr := fmt.Sprintf(`(() => { const e = document.querySelector(%s); return e ? e.textContent.replace(/\s+/g, " ").trim().slice(0, 100) : ""; })()`, sel)
	if err := t.evalWorld(ctx, t.sess, t.mainFrame(), expr, &name); err != nil {
		return "", err
	}
	return name, nil
}
