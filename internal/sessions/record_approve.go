package sessions

import (
	"context"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// Recording by hand is a person acting: a submit they press (a click or
// key that sends, pays, deletes or confirms) is theirs to approve. So a
// press a person asks for while recording is first put to the driver's
// gate (Submits "ask"), which says whether it is a submit and what the
// page is; a submit is then pressed with that approval, and its step
// records it ([routine.Approved]), for a replay to press it without asking
// while the page is the same.

// submitOps are the operations that can press a submit.
var submitOps = map[string]bool{calls.ActClick: true, calls.ActDblClick: true, calls.ActPress: true}

// pressAsPerson does a recorded action and returns, for a submit a person
// pressed, the approval it was pressed with (nil for anything else).
// An action the caller already gated (Submits "ask") or approved goes as
// it was asked: an approval it carries is the person's too (asked of them
// by MCP elicitation, or a replay's). Submits "allow" is a program's
// blanket leave (the agent loop's --allow-submit, [mcp] submits, a
// replay's --submits allow), not a person pressing this control: it goes
// as asked and is recorded without an approval. A person's own command
// (`waymark click`) sends no Submits.
func pressAsPerson(ctx context.Context, p page, req calls.ActRequest) (*calls.Outcome, *calls.Approval, error) {
	person := req.Submits == ""
	if !submitOps[req.Kind] || !person || req.Approve != nil {
		out, err := p.Act(ctx, req)
		if err != nil || req.Approve == nil {
			return out, nil, err
		}
		return out, req.Approve, nil
	}
	probe := req
	probe.Submits = "ask"
	out, err := p.Act(ctx, probe)
	a, ok := calls.ApprovalOf(err)
	if !ok {
		return out, nil, err // done (not a submit), or failed
	}
	req.Approve = &a
	out, err = p.Act(ctx, req)
	if err != nil {
		return out, nil, err
	}
	return out, &a, nil
}

// approve marks the step just recorded as the person's approved submit.
func (rec *recording) approve(before int, a *calls.Approval) {
	steps := *rec.stepList() // inside a loop over rows, its steps
	if a == nil || len(steps) != before+1 {
		return
	}
	steps[before].Approved = routine.ApprovedOf(*a)
}
