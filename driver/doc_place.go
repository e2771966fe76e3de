package driver

import (
	"context"
	"errors"
	"strings"

	"github.com/chromedp/cdproto/input"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/doctext"
	"github.com/waymark-dev/waymark/internal/keys"
)

// Where a document insert types: the caret put at words, over a line or
// at the end (a selection in our isolated world, clicks, or a key), an
// editor that draws only part of its document scrolled to the place
// first, and the text typed with the hand's keys.

// docPlaceReply is what js/doc_place.js returns.
type docPlaceReply struct {
	Count  int      `json:"count"`
	Places []string `json:"places"`
	Placed bool     `json:"placed"`
	First  *point   `json:"first"`
	Last   *point   `json:"last"`
	Key    string   `json:"key"` // the key that puts the caret there (CodeMirror 5's end)
}

// placeCaret puts the editor's caret (or selection) at the place: the
// words' place, or the end of the document.
func (s *Session) placeCaret(ctx context.Context, t *tab, d *docEd, mode, words, text string, line int) error {
	var focused bool
	if err := d.el.callOn(ctx, jsDocFocus, &focused); err != nil {
		return err
	}
	if !focused {
		return calls.Errorf(calls.ErrNotInteractable, "close what covers the editor, or name it with --editor", "the editor (%s) does not take the focus", d.name())
	}
	var r docPlaceReply
	if err := d.el.callOn(ctx, jsDocPlace, &r, mode, words); err != nil {
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
			if err := d.el.callOn(ctx, jsDocPlace, &r, mode, words); err != nil {
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
		return pressKeys(ctx, t, r.Key)
	case r.First == nil || r.Last == nil:
		return calls.Errorf(calls.ErrNotInteractable, "try again once the document settles", "could not place the caret at %q", words)
	}
	if mode == "after" {
		return t.press(ctx, *r.Last, input.MouseButtonLeft, 1, nil)
	}
	if err := t.press(ctx, *r.First, input.MouseButtonLeft, 1, nil); err != nil {
		return err
	}
	return t.shiftClick(ctx, *r.Last)
}

// typeDoc types the text with the hand's keys: a line break is Enter, a
// tab is inserted as text (the Tab key would move the focus), the rest
// as keys.Type sends it, or at a person's pace.
func (s *Session) typeDoc(ctx context.Context, t *tab, d *docEd, req calls.DocInsertRequest) error {
	text := strings.ReplaceAll(strings.ReplaceAll(req.Text, "\r\n", "\n"), "\r", "\n")
	h := t.handFor(req.Hand)
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			if err := pressKeys(ctx, t, "Enter"); err != nil {
				return err
			}
		}
		for k, run := range strings.Split(line, "\t") {
			if k > 0 {
				if _, err := call(ctx, t, input.InsertText, input.InsertTextParams{Text: "\t"}); err != nil {
					return err
				}
			}
			if run == "" {
				continue
			}
			var err error
			if h != nil {
				err = t.typeCadenced(ctx, run, h)
			} else {
				err = keys.Send(ctx, t.sess, keys.Type(run))
			}
			if err != nil {
				if errors.Is(err, calls.ErrBadInput) && req.Secret != "" {
					return calls.Errorf(calls.ErrBadInput, "", "the secret %s could not be typed", req.Secret)
				}
				return browserErr(err)
			}
		}
	}
	return nil
}

// docView is what js/doc_view.js says of an editor that draws only part
// of its document.
type docView struct {
	Top   float64  `json:"top"`
	Max   float64  `json:"max"`
	Lines []string `json:"lines"`
}

// scrollToLine scrolls an editor that draws only the lines near the view
// until it draws line (from 0) of doc, the document's text by lines,
// halving the scroller's range by where the drawn lines sit in doc. It
// reports false for an editor that draws everything, or when the drawn
// lines cannot be placed in doc.
func (d *docEd) scrollToLine(ctx context.Context, doc []string, line int) (bool, error) {
	var v *docView
	if err := d.el.callOn(ctx, jsDocView, &v, nil); err != nil || v == nil {
		return false, err
	}
	lo, hi := 0.0, v.Max
	next := v.Max * float64(line) / float64(max(1, len(doc)-1))
	for range 24 {
		var nv *docView
		if err := d.el.callOn(ctx, jsDocView, &nv, next); err != nil || nv == nil {
			return false, err
		}
		a, _, in, ok := doctext.DrawnAt(doc, nv.Lines, line)
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

// drawn waits for the page to draw two frames and run its timers once:
// what an editor deferred from the last key is done by then.
func (t *tab) drawn(ctx context.Context) error {
	return t.evalWorld(ctx, t.sess, t.mainFrame(), "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))))", nil)
}
