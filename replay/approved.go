package replay

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// A submit a person pressed while recording by hand ([routine.Approved])
// is pressed without asking while the step resolved as recorded (found,
// not moved, not healed) and the page still matches what they approved;
// otherwise the replay asks, as for any submit.

// pressApproved does an act step. For a step a person approved, when the
// driver's gate asks, the approval it gives is compared with the person's
// and, when it matches, the step is pressed with it.
//
// Any other submit is put to [Options.Approve], when set: a person's yes
// presses it.
func (x *run) pressApproved(ctx context.Context, s *routine.Step, path string, req calls.ActRequest, sr *StepResult) (*calls.Outcome, error) {
	out, err := x.d.Act(ctx, req)
	if err == nil || req.Submits != SubmitsAsk {
		return out, err
	}
	a, ok := approvalOf(err)
	if !ok {
		return out, err
	}
	if s.Approved == nil || sr.Heal != nil || s.Approved.Differs(a) != "" {
		if x.opts.Approve == nil {
			return out, err
		}
		yes, aerr := x.opts.Approve(ctx, stepName(s, path), a)
		if aerr != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			return out, err
		}
		if !yes {
			return out, &calls.Error{Kind: calls.ErrNeedsApproval, Msg: err.Error() + "; the person said no", Hint: calls.Hint(err), Data: calls.DataOf(err)}
		}
	}
	a.Sends = onlySend(a)
	req.Approve = &a
	out, err = x.d.Act(ctx, req)
	if a.Sends != "" && err != nil {
		if held, ok := approvalOf(err); ok && held.Sends != "" {
			return out, alsoSent{&calls.Error{Kind: calls.ErrNeedsApproval, Hint: calls.Hint(err), Data: calls.DataOf(err),
				Msg: "it was pressed with what was approved (" + a.Sends + "), but the page also tried to send " + held.Sends +
					", which was stopped before it left the browser"}}
		}
	}
	return out, err
}

// onlySend is the one request an approved press may send: its form's
// own submission, when that posts ("POST https://shop/order"), so that a
// beacon, a fetch or a second form the page sends with it is held (the
// driver watches a press with an approval that names its send). A press
// the gate held at sending already names its send; a GET form's is a
// URL its values make, so it goes unwatched.
func onlySend(a calls.Approval) string {
	if a.Sends != "" {
		return a.Sends
	}
	method, u, ok := strings.Cut(a.Target, " ")
	if !ok || method == "GET" || method == "DIALOG" {
		return ""
	}
	u, _, _ = strings.Cut(u, "#")
	return method + " " + u
}

// alsoSent is the stop of an approved press whose page sent more than
// was approved: it was pressed, so it does not "ask again".
type alsoSent struct{ err error }

func (e alsoSent) Error() string { return e.err.Error() }
func (e alsoSent) Unwrap() error { return e.err }

// approvedNote says why a step a person approved asks again, for the
// needs-approval stop; "" for a step no one approved.
func approvedNote(s *routine.Step, sr *StepResult, err error) string {
	if s.Approved == nil || errors.As(err, new(alsoSent)) {
		return ""
	}
	const head = "; you approved it when recording, but "
	if sr.Heal != nil {
		if sr.Heal.How == HealMoved {
			return head + "its element moved (" + sr.Heal.Before + " → " + sr.Heal.After + "), so it asks again"
		}
		return head + "its element was chosen again by a model, so it asks again"
	}
	if a, ok := approvalOf(err); ok {
		if why := s.Approved.Differs(a); why != "" {
			return head + why + ", so it asks again"
		}
	}
	return head + "the page changed while it was pressed, so it asks again"
}

// approvalOf reads the approval a needs-approval error carries.
func approvalOf(err error) (calls.Approval, bool) {
	var a calls.Approval
	if !errors.Is(err, calls.ErrNeedsApproval) && calls.Code(err) != "needs_approval" {
		return a, false
	}
	data := calls.DataOf(err)
	return a, len(data) > 0 && json.Unmarshal(data, &a) == nil && a.Action != ""
}
