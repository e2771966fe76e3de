package approval

import (
	"encoding/json"

	"github.com/waymark-dev/waymark/routine"
)

// Trust is the authority's word on one routine's recorded approvals, as
// it was loaded: a replay presses a recorded approval without asking only
// when [Trust.Holds] for the routine it runs. Only this package makes
// one; a nil Trust holds for nothing.
type Trust struct {
	ok    bool
	canon string // digest of the routine as loaded, to tell a routine changed in memory since
	file  string // the file checked, for the way to re-approve ("" for none)
	why   string // why the approvals are not a person's
}

// Holds says whether r's recorded approvals are a person's: the trust was
// given for r as it is now.
func (t *Trust) Holds(r *routine.Routine) bool {
	return t != nil && t.ok && r != nil && canonOf(r) == t.canon
}

// Why says why r's recorded approvals are not a person's and what to do
// about it, for the stop of a replay that asks again; "" when they are.
func (t *Trust) Why(r *routine.Routine) string {
	why := t.Reason(r)
	switch {
	case why == "":
		return ""
	case t == nil:
		return why + "; save it by recording by hand, or approve its file with `waymark routine approve FILE`"
	case t.ok:
		return why + "; replay the file as saved"
	case t.file == "":
		return why
	}
	return why + "; check it, then approve it again with `waymark routine approve " + t.file + "`"
}

// Reason is [Trust.Why] without what to do about it.
func (t *Trust) Reason(r *routine.Routine) string {
	switch {
	case t.Holds(r):
		return ""
	case t == nil:
		return "the routine did not come from a file a person saved (an MCP client's or a program's own routine carries no approval)"
	case t.ok: // approved as loaded, changed in memory since
		return "the routine was changed after it was loaded from " + t.file
	}
	return t.why
}

// Without is t no longer holding, for why: a runner that knows more than
// the file (an MCP client chose the values the routine types) takes the
// person's approval away; nothing gives it back.
func (t *Trust) Without(why string) *Trust {
	return &Trust{why: why}
}

// Relayed is the trust a batch worker gives a routine on the word of the
// person's CLI that submitted the batch: it checked the file with the
// authority before it put the batch on the stream (yes), and the stream
// is the user's own (their daemon's socket, closed to others, or their
// cluster). The worker cannot check the file itself: it may run on
// another machine, where neither the file nor the person's state folder
// is. No (a batch submitted by a program, or from a file that changed)
// holds for nothing.
func Relayed(r *routine.Routine, yes bool) *Trust {
	if !yes {
		return &Trust{why: "the batch was submitted without a person's approval of its routine (the routine file changed after it was saved, or the batch came from elsewhere); approve the file with `waymark routine approve FILE` and submit the batch again"}
	}
	return &Trust{ok: true, canon: canonOf(r)}
}

// canonOf is the digest of r as JSON.
func canonOf(r *routine.Routine) string {
	b, _ := json.Marshal(r)
	return digest(b)
}
