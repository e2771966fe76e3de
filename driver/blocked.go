package driver

import (
	"context"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// blockedWait bounds the read after an action that may have tried to
// send a form: the page is settled by then, and a slow answer only costs
// the note.
const blockedWait = 2 * time.Second

// blockedSubmit says whether the action tried to send a form that the
// browser's own constraint validation stopped, and which fields it found
// invalid with the browser's messages (js/blocked_submit.js); nil when it
// did not, or it cannot tell. It is the one place an action's outcome
// learns that a submit did not go: a click that did nothing must not read
// as "clicked" alone, or an agent clicks again.
//
// Only a click (or double click) on a control, or Enter (pressed, or a
// line break typed), can submit; the
// read is one call in the element's world (for Enter with no target, the
// focused element's in the main frame).
func (s *Session) blockedSubmit(ctx context.Context, t *tab, req calls.ActRequest, el *element) *calls.NotSent {
	mode := ""
	switch {
	case req.Kind == calls.ActClick || req.Kind == calls.ActDblClick || req.Kind == calls.ActClickAt:
		mode = "click"
	case req.Kind == calls.ActPress && req.Key == "Enter",
		req.Kind == calls.ActType && strings.ContainsAny(req.Value, "\r\n"): // a line break is typed as Enter
		mode = "enter"
	default:
		return nil
	}
	rctx, cancel := context.WithTimeout(ctx, blockedWait)
	defer cancel()
	var invalid []calls.InvalidField
	var err error
	if el != nil {
		err = el.callOn(rctx, jsBlockedSubmit, &invalid, mode)
	} else if mode == "enter" {
		err = t.evalWorld(rctx, t.sess, t.mainFrame(), "("+jsBlockedSubmit+").call(null, "+`"enter"`+")", &invalid)
	}
	if err != nil || len(invalid) == 0 {
		return nil
	}
	return &calls.NotSent{Invalid: invalid}
}
