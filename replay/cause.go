package replay

// Cause is why a replay stopped. Each has its own exit code ([ExitCode])
// and a hint that says what to do ([Cause.Hint]).
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
	CauseNeedsModel    Cause = "needs-model"      // an extract step, and no model was given
	CauseFailed        Cause = "failed"           // the browser refused the step (timeout, not interactable, navigation error)
	CauseCanceled      Cause = "canceled"         // the context was canceled
)

// Exit codes of a replay, for schedulers and CI:
//
//	0   ok: every step ran
//	1   failed: the browser refused a step (see the message)
//	10  landed-elsewhere
//	11  sign-in
//	12  verify
//	13  replaced
//	14  ambiguous
//	15  missing
//	16  needs-approval
//	17  needs-model
//	130 canceled
//
// A drift check has its own codes, 20 and 21 ([DriftReport.ExitCode]).
var exitCodes = map[Cause]int{
	CauseNone:          0,
	CauseFailed:        1,
	CauseLandedAway:    10,
	CauseSignIn:        11,
	CauseVerify:        12,
	CauseReplaced:      13,
	CauseAmbiguous:     14,
	CauseMissing:       15,
	CauseNeedsApproval: 16,
	CauseNeedsModel:    17,
	CauseCanceled:      130,
}

// ExitCode is the process exit status for a cause; an unknown cause is 1.
func ExitCode(c Cause) int {
	if n, ok := exitCodes[c]; ok {
		return n
	}
	return 1
}

// Hint says what to do about a stop.
func (c Cause) Hint() string {
	switch c {
	case CauseLandedAway:
		return "the site sent the page elsewhere: open the URL by hand to see why (moved, down, or an error page), then fix the goto or record the routine again"
	case CauseSignIn:
		return "the site asks to sign in: load a signed-in state first (waymark state load FILE), or record the sign-in into the routine with secret variables"
	case CauseVerify:
		return "the page did not show what the routine checks for: look at it (waymark snapshot) to see what happened instead"
	case CauseReplaced:
		return "a different control stands where the recorded one was; nothing was pressed. Check the page, then record the step again"
	case CauseAmbiguous:
		return "several elements fit the recorded one equally; nothing was pressed. Record the step again with a narrower target"
	case CauseMissing:
		return "the element is gone: configure a model so replay can heal it (one model call), or record the step again"
	case CauseNeedsApproval:
		return "the step would send, pay, delete or confirm: check it, then replay with --allow-submit"
	case CauseNeedsModel:
		return "an extract step reads the page with a model: configure one (waymark config) and replay again"
	case CauseFailed:
		return "the browser refused the step: run waymark snapshot to see the page, then replay again"
	case CauseCanceled:
		return "the replay was interrupted; run it again"
	}
	return ""
}
