package doctext

import (
	"context"
	"errors"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/elem"
)

// Where a document insert types: the caret put at words, over a line or
// at the end (a selection in waymark's isolated world, clicks, or a key),
// an editor that draws only part of its document scrolled to the place
// first, and the text typed with the hand's keys.

// placeReply is what js/doc_place.js returns.
type placeReply struct {
	Count  int         `json:"count"`
	Places []string    `json:"places"`
	Placed bool        `json:"placed"`
	First  *elem.Point `json:"first"`
	Last   *elem.Point `json:"last"`
	Key    string      `json:"key"` // the key that puts the caret there (CodeMirror 5's end)
}

// placeCaret puts the editor's caret (or selection) at the place: the
// words' place, or the end of the document.
func placeCaret(ctx context.Context, v View, d *Editor, mode, words, text string, line int) error {
	var focused bool
	if err := d.el.CallOn(ctx, jsDocFocus, &focused); err != nil {
		return err
	}
	if !focused {
		return calls.Errorf(calls.ErrNotInteractable, "close what covers the editor, or name it with --editor", "the editor (%s) does not take the focus", d.Name())
	}
	var r placeReply
	if err := d.el.CallOn(ctx, jsDocPlace, &r, mode, words); err != nil {
		return err
	}
	if r.Count == 0 && line > 0 {
		// An editor that draws only the lines near the view (CodeMirror)
		// is scrolled to the line, and the words looked for again.
		drawn, err := d.scrollToLine(ctx, strings.Split(text, "\n"), line-1)
		if err != nil {
			return err
		}
		if drawn {
			if err := d.el.CallOn(ctx, jsDocPlace, &r, mode, words); err != nil {
				return err
			}
		}
	}
	switch {
	case r.Count == 0:
		return calls.Errorf(calls.ErrNoMatch, "scroll the document so that the place shows, then try again",
			"the editor does not show %q now (it draws only the part of a long document on screen)", words)
	case r.Count > 1:
		return calls.Errorf(calls.ErrAmbiguous, "give more words, so that they name one place", "the editor shows %q %d times; nothing was typed", words, r.Count)
	case r.Placed:
		return nil
	case r.Key != "":
		return v.PressKeys(ctx, r.Key)
	case r.First == nil || r.Last == nil:
		return calls.Errorf(calls.ErrNotInteractable, "try again once the document settles", "could not place the caret at %q", words)
	}
	if mode == "after" {
		return v.PressAt(ctx, *r.Last, nil)
	}
	if err := v.PressAt(ctx, *r.First, nil); err != nil {
		return err
	}
	return v.ShiftClickAt(ctx, *r.Last)
}

// typeDoc types the text with the hand's keys: a line break is Enter, a
// tab is inserted as text (the Tab key would move the focus), the rest
// as the keyboard types it, or at a person's pace.
func typeDoc(ctx context.Context, v View, req calls.DocInsertRequest) error {
	text := strings.ReplaceAll(strings.ReplaceAll(req.Text, "\r\n", "\n"), "\r", "\n")
	h := v.Hand(req.Hand)
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			if err := v.PressKeys(ctx, "Enter"); err != nil {
				return err
			}
		}
		for k, run := range strings.Split(line, "\t") {
			if k > 0 {
				if err := v.InsertText(ctx, "\t"); err != nil {
					return err
				}
			}
			if run == "" {
				continue
			}
			if err := v.TypeKeys(ctx, run, h); err != nil {
				if errors.Is(err, calls.ErrBadInput) && req.Secret != "" {
					return calls.Errorf(calls.ErrBadInput, "", "the secret %s could not be typed", req.Secret)
				}
				return err
			}
		}
	}
	return nil
}

// drawnView is what js/doc_view.js says of an editor that draws only
// part of its document.
type drawnView struct {
	Top   float64  `json:"top"`
	Max   float64  `json:"max"`
	Lines []string `json:"lines"`
}

// scrollToLine scrolls an editor that draws only the lines near the view
// until it draws line (from 0) of doc, the document's text by lines,
// halving the scroller's range by where the drawn lines sit in doc. It
// reports false for an editor that draws everything, or when the drawn
// lines cannot be placed in doc.
func (d *Editor) scrollToLine(ctx context.Context, doc []string, line int) (bool, error) {
	var dv *drawnView
	if err := d.el.CallOn(ctx, jsDocView, &dv, nil); err != nil || dv == nil {
		return false, err
	}
	lo, hi := 0.0, dv.Max
	next := dv.Max * float64(line) / float64(max(1, len(doc)-1))
	for range 24 {
		var nv *drawnView
		if err := d.el.CallOn(ctx, jsDocView, &nv, next); err != nil || nv == nil {
			return false, err
		}
		a, _, in, ok := DrawnAt(doc, nv.Lines, line)
		switch {
		case in:
			return true, nil
		case !ok:
			return false, nil
		case line < a:
			hi = nv.Top
		default:
			lo = nv.Top
		}
		if hi-lo < 1 {
			return false, nil
		}
		next = (lo + hi) / 2
	}
	return false, nil
}
