package replay

import "github.com/waymark-dev/waymark/calls"

// Cause is why a replay stopped, with a hint that says what to do
// ([Cause.Hint]). The waymark command gives each cause its own exit status;
// the table is the command's (internal/cli), not this package's.
type Cause string

// Causes of a stop. The zero Cause is a replay that ran to the end.
const (
	CauseNone          Cause = ""
	CauseLandedAway    Cause = "landed-elsewhere" // a goto opened another path, or an error status
	CauseSignIn        Cause = "sign-in"          // a sign-in page the routine did not record, after a goto or where a step's element was not found
	CauseVerify        Cause = "verify"           // a verify step failed
	CauseReplaced      Cause = "replaced"         // a different control stands in the recorded one's place
	CauseAmbiguous     Cause = "ambiguous"        // several elements fit equally well
	CauseMissing       Cause = "missing"          // the element is gone and there was no model to heal with (or the heal failed)
	CauseNeedsApproval Cause = "needs-approval"   // the step would send, pay, delete or confirm and needs approval
	CauseNeedsModel    Cause = "needs-model"      // an extract step with no recipe (or one that no longer fits), and no model was given
	CauseFailed        Cause = "failed"           // the browser refused the step (timeout, not interactable, navigation error)
	CausePopup         Cause = "popup"            // a popup stood in a step's way that the routine records no dismissal for, or it came back after it was closed
	CauseCanceled      Cause = "canceled"         // the context was canceled
)

// Hint says what to do about a stop.
func (c Cause) Hint() string {
	switch c {
	case CauseLandedAway:
		return "the site sent the page elsewhere: open the URL by hand to see why (moved, down, or an error page), then fix the goto or record the routine again"
	case CauseSignIn:
		return "the site asks to sign in: load a signed-in state first (" + calls.Cmd("state load FILE") + "), or record the sign-in into the routine with secret variables"
	case CauseVerify:
		return "the page did not show what the routine checks for: look at it (" + calls.Cmd("snapshot") + ") to see what happened instead"
	case CauseReplaced:
		return "a different control stands where the recorded one was; nothing was pressed. Check the page, then record the step again"
	case CauseAmbiguous:
		return "several elements fit the recorded one equally; nothing was pressed. Record the step again with a narrower target"
	case CauseMissing:
		return "the element is gone: configure a model so replay can heal it (one model call), or record the step again"
	case CauseNeedsApproval:
		return "the step would send, pay, delete or confirm: check it, then replay with --allow-submit"
	case CauseNeedsModel:
		return "the step reads the page with a model (it has no recipe, or its recipe no longer fits the page): configure one (" + calls.Cmd("config") + ") and replay again"
	case CausePopup:
		return "a popup stood in the way and nothing was pressed: look at it (" + calls.Cmd("snapshot") + "); record the routine again closing it (its \"No thanks\" or close control, right after it stops a step), or load a state in which the site no longer shows it"
	case CauseFailed:
		return "the browser refused the step: run " + calls.Cmd("snapshot") + " to see the page, then replay again"
	case CauseCanceled:
		return "the replay was interrupted; run it again"
	}
	return ""
}
