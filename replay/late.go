package replay

import (
	"context"

	"github.com/waymark-dev/waymark/calls"
)

// A control's handler may send after its step: a "Continue" whose handler
// posts from a 300 ms timer, a debounced save. The driver's gate goes on
// watching the page after a step that asks for submits, stops a commit it
// sees there before it leaves the browser, and tells it in the page's
// looks (calls.NoticeSendStopped); pressing the control again asks for
// approval. So a routine whose send was stopped so never made its commit,
// and a replay that went on to its end would say "ok": a batch row marked
// done that placed no order. A replay whose steps asked for submits
// therefore ends with one look at the page, unseen by anyone, and a send
// stopped after a step stops it as needs-approval, naming the send; so
// does a check that failed on a page that tells one (the check waited for
// what the stopped send would have brought).
//
// What the page sends after the replay's last look is stopped too (the
// gate's watch outlives the replay), but no replay hears of it.

// lateStop is the needs-approval stop for a send the gate stopped after a
// step, or nil when the page tells of none. A look that fails leaves the
// replay as it was: the send was stopped either way.
func (x *run) lateStop(ctx context.Context) error {
	if !x.asked {
		return nil
	}
	snap, err := x.d.Snapshot(ctx, calls.SnapshotRequest{Unseen: true})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return nil
	}
	for _, n := range snap.Notices {
		if n.Kind == calls.NoticeSendStopped {
			return &stop{cause: CauseNeedsApproval, msg: x.known.Redact(n.Message),
				hint: "the page sends after the step; record the routine again and press the control again when asked (its approval is recorded), or replay with --allow-submit"}
		}
	}
	return nil
}
