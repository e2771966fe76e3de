package replay

import (
	"context"
	"fmt"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// SignIn replays a recipe's sign-in routine (siteapi.Recipe.Relogin,
// named name) in the session d, where the refused call is made: the one
// way every runner (the CLI's api call and replay, a batch row, MCP's
// api_call and replay) runs one, so a sign-in presses, keeps and stops
// alike on each. The runner finds the routine and asks the approval
// authority about it (trust): a file it read through the authority, a
// batch's bundle relayed by the submitter's word. What is the same for
// every runner is set here: its submits ask (a submit a person pressed
// while recording it, the Sign in button, is pressed while trust holds
// and the page matches; any other goes to opts.Approve, or stops it), no
// heal is kept, and a sign-in routine's own api steps sign in no further.
// opts gives the rest: the variables and secrets (the run's own: a
// sign-in types what the caller was given, masked as the caller masks),
// the pace, Approve. A replay that did not finish is an error saying
// where it stopped, for siteapi.Relogin to report.
func SignIn(ctx context.Context, d calls.Session, name string, r *routine.Routine, trust *approval.Trust, opts Options) (*Result, error) {
	opts.Approvals, opts.Submits, opts.KeepHeals, opts.SignIn = trust, SubmitsAsk, KeepNever, nil
	res, err := Run(ctx, d, r, opts)
	if err != nil {
		return nil, err
	}
	if res.Status != StatusOK {
		return res, fmt.Errorf("%s stopped (%s): %s", name, res.Cause, res.Message)
	}
	return res, nil
}
