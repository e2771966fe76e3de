package routine

import (
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/notice"
)

// Dismissal says what popup an act step closes, for people: the popup as
// it was when recorded ("box \"Join our newsletter\""). A replay finds the
// popup's control by the step's target, never by these words.
type Dismissal struct {
	Popup string `json:"popup,omitempty"`
}

// maxDismissWords bounds a dismissal's label: "No thanks", "Not now,
// maybe later"; a longer label says more than no.
const maxDismissWords = 4

// MarkDismissal is the one rule of what a recorded dismissal is, for
// every recorder (recording by hand, the agent loop's --record): st, a
// click just done, is marked as closing met, the popup that stopped or
// covered the action right before it, when its control
//
//   - is named by dismissal words alone ("No thanks", "Not now", "Close",
//     a close glyph; notice.Dismisses) in at most four words,
//   - is one of met's own controls (by its label), when the driver listed
//     them,
//   - and is no submit: not pressed with an approval (the driver's gate
//     found it sends, pays, deletes or confirms), not a submit or image
//     input.
//
// It reports whether st was marked. A replay still presses the step's
// control only through the guarded click, asking before any submit.
func MarkDismissal(st *Step, met *calls.Popup, submitted bool) bool {
	if st == nil || met == nil || submitted || st.Approved != nil || st.Kind != KindAct || st.Op != calls.ActClick || st.Target == nil {
		return false
	}
	if st.Button != "" && st.Button != "left" || st.Count > 1 || st.Target.Positional || st.Target.Place != "" {
		return false // a row's control closes no popup
	}
	fp := st.Target.Fingerprint
	if t := strings.ToLower(fp.Type); t == "submit" || t == "image" {
		return false
	}
	label := dismissLabel(fp, met)
	if label == "" {
		return false
	}
	st.Dismisses = &Dismissal{Popup: met.Describe()}
	return true
}

// dismissLabel is the label of fp's control that says dismissal, and is
// one of the popup's controls when the popup lists them; "" when none is.
func dismissLabel(fp calls.Fingerprint, met *calls.Popup) string {
	for _, l := range []string{fp.Name, fp.Text, fp.Label} {
		l = strings.TrimSpace(l)
		if l == "" || len(strings.Fields(l)) > maxDismissWords || !notice.Dismisses(l) {
			continue
		}
		if len(met.Buttons) == 0 || PopupHas(met, l) {
			return l
		}
	}
	return ""
}

// PopupHas reports whether one of the popup's controls is labelled label
// (case and runs of space aside).
func PopupHas(p *calls.Popup, label string) bool {
	want := squash(label)
	for _, b := range p.Buttons {
		if squash(b) == want {
			return true
		}
	}
	return false
}

func squash(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// Closes reports whether st is a recorded dismissal that may close p: its
// control is one of p's controls (by its label), or p does not list its
// controls. A replay still finds the control by the step's target.
func (st *Step) Closes(p *calls.Popup) bool {
	if st.Dismisses == nil || st.Target == nil || p == nil {
		return false
	}
	if len(p.Buttons) == 0 {
		return true
	}
	fp := st.Target.Fingerprint
	for _, l := range []string{fp.Name, fp.Text, fp.Label} {
		if strings.TrimSpace(l) != "" && PopupHas(p, l) {
			return true
		}
	}
	return false
}

// Dismissals are the steps of steps, at any depth, that close a popup.
func Dismissals(steps []Step) []*Step {
	var out []*Step
	for i := range steps {
		s := &steps[i]
		if s.Dismisses != nil {
			out = append(out, s)
		}
		for _, inner := range [][]Step{s.Then, s.Else, s.Do, s.Fallback} {
			out = append(out, Dismissals(inner)...)
		}
	}
	return out
}
