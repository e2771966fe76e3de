package driver

import (
	"context"
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/sheetcell"
	"github.com/waymark-dev/waymark/secret"
)

// Writing cells: a cell is gone to, its value typed (with the hand's
// cadence when asked) and committed with Enter, then read back through
// the clipboard (the sheet room's: sheetcell.WriteCell). One cell is a
// write; several are a fill, which is approved like a submit: the
// unapproved call shows what the cells hold and writes nothing, and the
// approval it gives (bound to the page load, used once, and to these
// very cells and values) writes only while the cells still hold what was
// shown. The secret registry and the approval stay here, in the core.

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
	c, err := sheetcell.WriteCell(ctx, s.view(t), app, at, req.Value, req.Secret != "", h, nil)
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
	now, err := sheetcell.ReadCells(ctx, s.view(t), app, cells, req.Hand)
	if err != nil {
		return nil, err
	}
	tabName, err := sheetcell.SheetTab(ctx, s.view(t), app)
	if err != nil {
		return nil, err
	}
	why := fmt.Sprintf("writes %d cells of the sheet", len(cells))
	if tabName != "" {
		why += fmt.Sprintf(" %q", tabName)
	}
	want := calls.Approval{Action: "write cells", URL: s.mask(shownURL(t.url())), Control: sheetcell.List(cells),
		Why: why, Form: now, Writes: sheetcell.Writes(cells), Sends: "cells " + sheetcell.Digest(cells)}
	if req.Approve == nil {
		var b strings.Builder
		for _, c := range cells {
			fmt.Fprintf(&b, "; %s holds %q", c.Ref, now[c.Ref.String()])
		}
		return nil, needsApproval(t.bind(want), want.Line()+", so it needs approval; nothing was written"+b.String())
	}
	a := *req.Approve
	switch {
	case a.URL != want.URL:
		return nil, needsApprovalAgain(fmt.Sprintf("the approval was for %s, and the page is %s; nothing was written", a.URL, want.URL))
	case a.Why != want.Why:
		return nil, needsApprovalAgain(fmt.Sprintf("the approved fill %s, and the page's open sheet is %q; nothing was written", calls.WhyPhrase(a.Why), tabName))
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
		wc, err := sheetcell.WriteCell(ctx, s.view(t), app, c.Ref, c.Value, c.Secret, h, &was)
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
