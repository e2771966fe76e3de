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
// A goto forgets the page it leaves, and the sends stopped there with
// it: so a goto after such a step looks first, and the goto's own look of
// the next page tells what the page left sent as it went (a beacon on
// pagehide). What the page sends after the replay's last look is stopped
// too (the gate's watch outlives the replay), but no replay hears of it;
// nor of a send stopped on a page an act step then left (a link's click),
// whose next page's looks forget it within half a second.

// lateStop is the needs-approval stop for a send the gate stopped after a
// step, or nil when the page tells of none. A look that fails leaves the
// replay as it was: the send was stopped either way.
func (x *run) lateStop(ctx context.Context) error {
	if !x.asked {
		return nil
	}
	snap, err := x.quietLook(ctx) // steps.go
	if snap == nil {
		return err
	}
	return x.stoppedIn(snap.Notices)
}

// stoppedIn is the needs-approval stop for the first send a look's
// notices say the gate stopped after a step, or nil.
func (x *run) stoppedIn(notices []calls.Notice) error {
	for _, n := range notices {
		if n.Kind == calls.NoticeSendStopped {
			return &stop{cause: CauseNeedsApproval, msg: x.known.Redact(n.Message), hint: lateHint}
		}
	}
	return nil
}

// lateHint is what to do about a send stopped after its step: a person
// approves it by pressing the control again when recording (a replay of
// their file presses it again with their approval), or lets the replay's
// submits through.
const lateHint = "the page sends a moment after the step, and that send needs approval: record the routine again, pressing the control a second time when it asks (the approval is kept in the file), or replay with --allow-submit"
