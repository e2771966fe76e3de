package pilot

import (
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// signature is what makes two operations the same for the repeat guard:
// the op and the element, as the page names it (the chosen locator, or the
// ref when no locator is unique), never the value typed.
func signature(a action, ev *calls.Evidence) string {
	op := a.Op
	if op == "scroll" { // scrolling back up is not a repeat of scrolling down
		op += " " + scrollDirection(a)
	}
	switch {
	case a.Op == "goto":
		return "goto " + a.URL
	case ev != nil && ev.Chosen != "":
		return op + " " + ev.Chosen
	case a.Ref != "":
		return op + " @" + a.Ref
	case a.Op == "press":
		return "press " + a.Key
	}
	return op + " page"
}

// repeated handles an operation already recorded and verified: it is not
// done again, the model gets a hint, and the third in a row ends the run.
func (r *run) repeated(sig string, idx int) error {
	r.repeats++
	what := fmt.Sprintf("%q was already done and checked (step %d)", sig, idx+1)
	// The hint is outside the fence: it names the step, not the page's words.
	r.hints = append(r.hints, fmt.Sprintf("step %d was already done and checked; it is not done again. Act on a different element, or answer done if the task is complete.", idx+1))
	r.failures = appendRecent(r.failures, what+", so it was not done again")
	if r.repeats >= guardLimit {
		r.recovering(GuardRepeat, fmt.Sprintf("%s; %d repeats in a row; stopping", what, r.repeats))
		return fmt.Errorf("%w: %d in a row, the last %s", ErrRepeats, r.repeats, sig)
	}
	r.recovering(GuardRepeat, what+"; not doing it again, asking for another step")
	return nil
}

// stepLine is the short line the model reads for a step done.
func stepLine(a action, line string, ok bool, observed string) string {
	var b strings.Builder
	b.WriteString(a.Op)
	if a.Op == "scroll" {
		b.WriteString(" " + scrollDirection(a))
	}
	switch {
	case a.Op == "goto":
		b.WriteString(" " + a.URL)
	case line != "":
		b.WriteString(" " + strings.TrimPrefix(line, "- "))
	}
	if a.Value != "" {
		fmt.Fprintf(&b, " with %q", a.Value)
	}
	if a.Key != "" {
		b.WriteString(" key " + a.Key)
	}
	if ok {
		b.WriteString(" — checked")
	} else {
		b.WriteString(" — its check failed: " + observed)
	}
	return b.String()
}
