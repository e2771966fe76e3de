package routine

import (
	"encoding/json"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/recipe"
)

// The one step builder: both recorders (the agent loop's, `waymark run
// --record`, and recording by hand, `waymark record`) turn a done action
// and its evidence into a Step here, so a routine means the same whoever
// recorded it.

// GotoStep is the step of a goto of url that landed on the page info
// describes, whose notices the driver gave.
func GotoStep(url string, info *calls.PageInfo, notices []calls.Notice) Step {
	st := Step{Kind: KindGoto, URL: url}
	if info != nil {
		st.Landed = LandedAt(url, info, notices)
	}
	return st
}

// TargetOf is the target of an element as the page named it: the
// evidence's chosen locator, candidates, frames and fingerprint, taken
// from the live page before the action.
func TargetOf(ev *calls.Evidence) *Target {
	return &Target{Locator: ev.Chosen, Candidates: ev.Candidates, Frame: ev.Frame, Fingerprint: ev.Fingerprint}
}

// ExtractStep is the step of a done read: its instruction (masked by the
// caller), the schema the data fits and, for a list, the recipe that
// reads it again with no model (nil: the model reads it at replay) and
// how it was read over pages (nil: one page). into names the replay's
// data it goes to; the step's id is the recorder's to give.
func ExtractStep(instruction string, schema json.RawMessage, r *recipe.Recipe, list *ListRead, into string) Step {
	return Step{Kind: KindExtract, Instruction: instruction, Schema: schema, Recipe: r, List: list, Into: into}
}

// ActStep is the step of a done element action: req as it was asked (its
// values as the recorder wants them referred to, not necessarily as they
// were typed), ev the evidence of its element (nil: the action named
// none). value turns each value typed, chosen or uploaded into the
// routine's reference to it; fp is the element's fingerprint (nil: none).
// The step's id and instruction are the recorder's to give.
func ActStep(req calls.ActRequest, ev *calls.Evidence, value func(fp *calls.Fingerprint, v string) *Value) Step {
	st := Step{Kind: KindAct, Op: req.Kind}
	var fp *calls.Fingerprint
	if ev != nil {
		st.Target = TargetOf(ev)
		fp = &st.Target.Fingerprint
	}
	switch req.Kind {
	case calls.ActFill, calls.ActType:
		st.Value = value(fp, req.Value)
	case calls.ActSelect:
		vals := req.Values
		if len(vals) == 0 && req.Value != "" {
			vals = []string{req.Value}
		}
		for _, v := range vals {
			st.Values = append(st.Values, value(fp, v))
		}
		if len(st.Values) == 1 {
			st.Value, st.Values = st.Values[0], nil
		}
	case calls.ActUpload:
		// A replay uploads one file.
		if len(req.Files) > 0 {
			st.Value = value(fp, req.Files[0])
		}
	case calls.ActPress:
		st.Key = req.Key
	case calls.ActClick, calls.ActDblClick:
		if b := strings.ToLower(req.Button); b != "left" {
			st.Button = b
		}
		if req.Kind == calls.ActClick && req.Count > 1 {
			st.Count = req.Count
		}
	case calls.ActScroll:
		// The direction the driver scrolled: none is down, even over an
		// element (a replay of a step without one rolls the element into
		// view instead).
		st.Direction = strings.ToLower(req.Direction)
		switch st.Direction {
		case "":
			st.Direction = "down"
		case "intoview":
			st.Direction = "into-view"
		}
		if st.Direction != "into-view" && req.Pixels > 0 {
			st.Pixels = req.Pixels
		}
	}
	return st
}

// StepName is a base for a step's id, in snake_case: its first
// variable, else its element's name, else its operation.
func StepName(st *Step) string {
	for _, v := range append([]*Value{st.Value}, st.Values...) {
		if v != nil && v.Slot != "" {
			return v.Slot
		}
	}
	if st.Target != nil {
		fp := st.Target.Fingerprint
		if n := snake(firstOf(fp.Name, fp.Label, fp.Placeholder, fp.Text, fp.TestID, fp.ID)); n != "" {
			return n
		}
	}
	if st.Op != "" {
		return st.Op
	}
	return st.Kind
}
