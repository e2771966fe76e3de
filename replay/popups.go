package replay

import (
	"context"
	"errors"
	"fmt"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// Popups in a replay. A newsletter box or an offer shows on some days
// and not others, and not always at the same step. A recorded dismissal
// (an act step with "dismisses", routine.MarkDismissal) is therefore
// not an ordinary step:
//
//   - at its own place it is skipped, and said so, when its control is
//     not on the page (the popup is not open today);
//   - when a popup stops or covers another act step, the routine's
//     dismissals that fit it close it, and the step is taken again, once:
//     a popup that comes back stops the replay as popup, as does one the
//     routine records no dismissal for.
//
// A dismissal's control is only ever the one the replay's ordinary
// locating finds by its recorded target (no heal, no model, no guess),
// and it is pressed by the driver's guarded click asking before any
// submit, whatever the replay allows: a control that would send, pay,
// delete or confirm is never pressed as a dismissal.

// dismissTimeout bounds the wait for a dismissal's control to be
// pressable: one found but hidden, or covered by something else, is not
// waited on for an act's whole timeout.
const dismissTimeout = 2000

// dismissStep does a recorded dismissal at its own place in the routine:
// it closes the popup when its control is on the page, and is skipped
// when it is not.
func (x *run) dismissStep(ctx context.Context, s *routine.Step, path string, sr *StepResult) error {
	ref, why, err := x.findDismissal(ctx, s, false)
	if err != nil {
		return err
	}
	if ref == "" {
		sr.Status, sr.Detail = StepSkipped, "the popup it closes is not open: "+why
		return nil
	}
	sr.Ref = ref
	pressed, why, err := x.pressDismissal(ctx, s, path, ref)
	if err != nil {
		return err
	}
	if !pressed {
		sr.Status, sr.Detail = StepSkipped, "the popup it closes is not open: "+why
		return nil
	}
	sr.Detail = "closed " + dismissed(s)
	return nil
}

// findDismissal finds a dismissal's control by its recorded target: the
// ref when it is found as recorded, or, with moved, found by its
// fingerprint alone; else "" and why not. At its own place a dismissal
// takes only the control its locator finds (a page's own "Close" found
// elsewhere by its fingerprint is not the popup's); over a popup that
// met a step, whose controls say the dismissal's label, a moved one is
// the popup's.
func (x *run) findDismissal(ctx context.Context, s *routine.Step, moved bool) (ref, why string, err error) {
	t := s.Target
	res, err := x.d.Find(ctx, calls.FindRequest{Locator: t.Locator, Fingerprint: t.Fingerprint})
	if err != nil {
		return "", "", err
	}
	switch {
	case res.Status == calls.Found, res.Status == calls.Moved && moved:
		return res.Ref, "", nil
	case res.Status == calls.Moved:
		return "", fmt.Sprintf("%s is not where it was (%s)", describe(t), reason(res)), nil
	}
	return "", fmt.Sprintf("%s is not on the page (%s)", describe(t), reason(res)), nil
}

// pressDismissal presses a dismissal's control, ref, after a look at the
// page (the driver holds an action back when something appeared over the
// page since the last look; the replay has seen the popup and means to
// answer it). It reports false, and why, when the control could not be
// pressed (hidden, disabled, covered): nothing was pressed. A control the
// driver's gate finds would send, pay, delete or confirm stops the
// replay as popup, unpressed.
func (x *run) pressDismissal(ctx context.Context, s *routine.Step, path, ref string) (bool, string, error) {
	if _, err := x.d.Snapshot(ctx, calls.SnapshotRequest{Unseen: true}); err != nil {
		return false, "", err
	}
	req := calls.ActRequest{Kind: calls.ActClick, Target: "@" + ref, Submits: SubmitsAsk, Hand: !x.opts.NoHand, TimeoutMS: dismissTimeout}
	_, err := x.d.Act(ctx, req)
	switch {
	case err == nil:
		return true, "", nil
	case errors.Is(err, calls.ErrNeedsApproval):
		return false, "", stopf(CausePopup, "%s: the recorded dismissal %s would send, pay, delete or confirm now (%v); it is never pressed as a dismissal, and nothing was pressed",
			stepName(s, path), describe(s.Target), err)
	case errors.Is(err, calls.ErrNotInteractable) || errors.Is(err, calls.ErrStaleRef) || errors.Is(err, calls.ErrPopup):
		return false, fmt.Sprintf("%s is on the page but cannot be pressed (%v)", describe(s.Target), err), nil
	}
	return false, "", err
}

// meetPopup answers an act step that a popup stopped or covered (met):
// it closes the popup with a recorded dismissal that fits it and reports
// true, for the step to be taken again; a routine with none that fits,
// or whose dismissal's control is not there to press, stops as popup.
func (x *run) meetPopup(ctx context.Context, s *routine.Step, path string, met *calls.Popup, sr *StepResult) error {
	var tried []string
	for _, d := range routine.Dismissals(x.healed.Steps) {
		if d == s || !d.Closes(met) {
			continue
		}
		ref, why, err := x.findDismissal(ctx, d, len(met.Buttons) > 0)
		if err != nil {
			return err
		}
		if ref != "" {
			var pressed bool
			pressed, why, err = x.pressDismissal(ctx, d, stepName(d, ""), ref)
			if err != nil {
				return err
			}
			if pressed {
				sr.Closed = fmt.Sprintf("%s stood in the way; closed by the routine's dismissal %s (%s), then the step was taken again",
					met.Describe(), stepName(d, ""), describe(d.Target))
				return nil
			}
		}
		tried = append(tried, why)
	}
	if len(tried) == 0 {
		return stopf(CausePopup, "%s: %s stood in the way, and the routine records no dismissal for it; nothing was pressed", stepName(s, path), met.Describe())
	}
	return stopf(CausePopup, "%s: %s stood in the way, and the routine's dismissal could not close it (%s); nothing was pressed",
		stepName(s, path), met.Describe(), tried[0])
}

// dismissed names what a dismissal closes, for a step's detail.
func dismissed(s *routine.Step) string {
	if s.Dismisses.Popup != "" {
		return "the popup (" + s.Dismisses.Popup + ")"
	}
	return "the popup"
}
