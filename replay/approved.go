package replay

import (
	"context"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// A submit a person pressed while recording by hand ([routine.Approved])
// is pressed without asking while the routine is the file the person
// saved (the approval authority, package approval, says so through
// [Options.Approvals]), the step resolved as recorded (found, not moved,
// not healed) and the page still matches what they approved; otherwise
// the replay asks, as for any submit.

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
	a, ok := calls.ApprovalOf(err)
	if !ok {
		return out, err
	}
	if s.Approved == nil || x.untrusted != "" || sr.Heal != nil || s.Approved.Differs(a) != "" {
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
	req.Approve = &a
	return x.d.Act(ctx, req)
}

// approvedNote says why a step a person approved asks again, for the
// needs-approval stop; "" for a step no one approved.
func (x *run) approvedNote(s *routine.Step, sr *StepResult, err error) string {
	if s.Approved == nil {
		return ""
	}
	if x.untrusted != "" {
		return "; the step carries an approval, but no person's: " + x.untrusted
	}
	const head = "; you approved it when recording, but "
	if sr.Heal != nil {
		if sr.Heal.How == HealMoved {
			return head + "its element moved (" + sr.Heal.Before + " → " + sr.Heal.After + "), so it asks again"
		}
		return head + "its element was chosen again by a model, so it asks again"
	}
	if a, ok := calls.ApprovalOf(err); ok {
		if why := s.Approved.Differs(a); why != "" {
			return head + why + ", so it asks again"
		}
	}
	return head + "the page changed while it was pressed, so it asks again"
}
