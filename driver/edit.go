package driver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/form"
	"github.com/waymark-dev/waymark/internal/hand"
	"github.com/waymark-dev/waymark/internal/keys"
	"github.com/waymark-dev/waymark/internal/wait"
)

// cdpCallEl runs a command on the element's session, turning a vanished
// node into a stale-ref error.
func cdpCallEl[P, R any](ctx context.Context, el *element, c cdp.Command[P, R], p P) (R, error) {
	r, err := cdp.Call(ctx, el.sess, c, p)
	if nodeGone(err) {
		return r, el.gone(err)
	}
	return r, browserErr(err)
}

func (el *element) focus(ctx context.Context) error {
	_, err := cdpCallEl(ctx, el, dom.Focus, dom.FocusParams{BackendNodeID: el.node})
	if notFocusable(err) {
		return calls.Errorf(calls.ErrNotInteractable, "focus a field, button or link instead", "%s cannot take the focus", el.what)
	}
	return err
}

// fill replaces the element's value: it selects what the field holds and
// inserts the new text as one input, as a paste would; date-like inputs,
// which take no typed text, get their value set with input and change
// events.
func (el *element) fill(ctx context.Context, value string, timeout time.Duration, h *hand.Hand) error {
	// Checked, then prepared (focused, its text selected), in one call.
	var how string
	if _, err := el.actionableThen(ctx, checkVisible|checkEnabled, timeout, jsPrepareFill, &how); err != nil {
		return err
	}
	switch {
	case strings.HasPrefix(how, "set:"):
		typ := strings.TrimPrefix(how, "set:")
		v, err := form.Value(typ, value)
		if err != nil {
			return fmt.Errorf("fill %s: %w", el.what, err)
		}
		var problem string
		if err := el.callOn(ctx, jsFillValue, &problem, v); err != nil {
			return err
		}
		if problem != "" {
			hint := "use the format the field expects"
			if f := form.Format(typ); f != "" {
				hint = "write it as " + f + ", within the field's limits"
			}
			return calls.Errorf(calls.ErrBadInput, hint, "fill %s: %s", el.what, problem)
		}
		return nil
	case strings.HasPrefix(how, "not-fillable:"):
		return calls.Errorf(calls.ErrNotInteractable, "fill a text field; use select for a <select>, check for a checkbox",
			"%s cannot be filled (%s)", el.what, strings.TrimPrefix(how, "not-fillable:"))
	}
	if value == "" || h != nil {
		// A hand clears what the field holds, then types; the selection
		// made above is what Delete removes.
		evs, _ := keys.Press("Delete")
		if err := keys.Dispatch(ctx, el.tab.sess, evs); err != nil || value == "" {
			return err
		}
		return el.tab.typeCadenced(ctx, value, h)
	}
	_, err := call(ctx, el.tab, input.InsertText, input.InsertTextParams{Text: value})
	return err
}

// typeText types key by key at the end of what the field holds.
func (el *element) typeText(ctx context.Context, text string, timeout time.Duration, h *hand.Hand) error {
	if _, err := el.actionable(ctx, checkVisible|checkEnabled, timeout); err != nil {
		return err
	}
	if err := el.focus(ctx); err != nil {
		return err
	}
	if err := el.callOn(ctx, jsCaretToEnd, nil); err != nil {
		return err
	}
	if h != nil {
		return el.tab.typeCadenced(ctx, text, h)
	}
	return keys.Send(ctx, el.tab.sess, keys.Type(text))
}

// typeCadenced types text key by key at a person's pace, following a
// seeded, digraph-aware plan: the wait before each key, its hold, and the
// Shift key held around a run of capitals and shifted symbols (down before
// the run's first key, up after its last). A line break is refused: typing
// never presses Enter.
func (t *tab) typeCadenced(ctx context.Context, text string, h *hand.Hand) error {
	plan, err := hand.Cadence(text, time.Now().UnixNano())
	if err != nil {
		return calls.Errorf(calls.ErrBadInput, "type each line, then press Enter as its own step", "%v", err)
	}
	steps := make([][]keys.Step, len(plan))
	for i, k := range plan {
		steps[i] = keys.Type(string(k.Rune))
	}
	start := time.Now()
	for _, ev := range hand.Timeline(plan) {
		if err := wait.Sleep(ctx, ev.At-time.Since(start)); err != nil {
			return err
		}
		if ev.Shift {
			if err := keys.Dispatch(ctx, t.sess, []input.DispatchKeyEventParams{keys.Shift(ev.Down)}); err != nil {
				return err
			}
			continue
		}
		if err := sendHalf(ctx, t, steps[ev.Index], ev.Down); err != nil {
			return err
		}
	}
	return nil
}

// sendHalf sends the down half of a character's steps (the keydown and its
// text, or inserted text) or the up half (the keyup).
func sendHalf(ctx context.Context, t *tab, steps []keys.Step, down bool) error {
	for _, step := range steps {
		if step.Kind != keys.StepKey || len(step.Events) < 2 {
			if down {
				if err := keys.Send(ctx, t.sess, []keys.Step{step}); err != nil {
					return err
				}
			}
			continue
		}
		last := len(step.Events) - 1
		evs := step.Events[last:]
		if down {
			evs = step.Events[:last]
		}
		if err := keys.Dispatch(ctx, t.sess, evs); err != nil {
			return err
		}
	}
	return nil
}

func (el *element) selectOptions(ctx context.Context, values []string, timeout time.Duration) error {
	if _, err := el.actionable(ctx, checkVisible, timeout); err != nil {
		return err
	}
	var res struct {
		Error    string   `json:"error"`
		Options  []string `json:"options"`
		Selected []string `json:"selected"`
	}
	if err := el.callOn(ctx, jsSelectOptions, &res, values); err != nil {
		return err
	}
	if res.Error != "" {
		hint := "pick one of the select's options"
		if len(res.Options) > 0 {
			hint = "options: " + quoteList(res.Options, 12)
		}
		return calls.Errorf(calls.ErrBadInput, hint, "select %s: %s", el.what, res.Error)
	}
	return nil
}

// quoteList quotes a list's items for a hint (form.QuoteList).
func quoteList(items []string, max int) string { return form.QuoteList(items, max) }

// setChecked clicks a checkbox, radio or switch when its state differs,
// then checks the state took.
func (el *element) setChecked(ctx context.Context, want bool, timeout time.Duration, h *hand.Hand) error {
	var state struct {
		Checkable bool `json:"checkable"`
		Checked   bool `json:"checked"`
	}
	if err := el.callOn(ctx, jsCheckedState, &state); err != nil {
		return err
	}
	if !state.Checkable {
		return calls.Errorf(calls.ErrNotInteractable, "check a checkbox, radio button or switch", "%s is not a checkbox, radio or switch", el.what)
	}
	if state.Checked == want {
		return nil
	}
	p, err := el.actionable(ctx, checkVisible|checkEnabled|checkHit, timeout)
	if err != nil {
		return err
	}
	before := el.tab.mark()
	if err := el.tab.press(ctx, p, input.MouseButtonLeft, 1, h); err != nil {
		return err
	}
	// A change that navigates (a form sent on change) takes the control
	// away with its page: the click was done, and the navigation is the
	// outcome, not an error (an error would invite a second send).
	if el.tab.leftPage(before) {
		return nil
	}
	if err := el.callOn(ctx, jsCheckedState, &state); err != nil {
		if el.tab.leftPage(before) {
			return nil
		}
		return err
	}
	if state.Checked != want && !el.tab.leftPage(before) {
		verb := "check"
		if !want {
			verb = "uncheck"
		}
		return calls.Errorf(calls.ErrNotInteractable, "the page may refuse the change (a radio cannot be unchecked by a click)", "%s did not %s after a click", el.what, verb)
	}
	return nil
}
