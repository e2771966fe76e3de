package rules

import (
	"errors"
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
	"github.com/waymark-dev/waymark/pilot"
)

// Action is what an [Answer] asks the driver to do.
type Action string

// The actions of an act answer.
const (
	ActionClick   Action = "click"
	ActionFill    Action = "fill"    // clear the field and set Value
	ActionType    Action = "type"    // press Value's keys in the field
	ActionSelect  Action = "select"  // choose the option Value of a combobox or listbox
	ActionCheck   Action = "check"   // tick a checkbox, switch or radio
	ActionUncheck Action = "uncheck" // untick a checkbox or switch
	ActionPress   Action = "press"   // press Key, in Ref if set, else in the focused element
	ActionGoto    Action = "goto"    // load URL
	ActionScroll  Action = "scroll"  // scroll Direction; "into-view" brings Ref on screen
)

// Answer is the structured answer to an act turn: one step on the page.
// It is the shape the pilot should ask every model for ([AnswerSchema]);
// pilot.ActAnswer, when the pilot defines it, should have the same JSON.
type Answer struct {
	Action    Action `json:"action"`
	Ref       string `json:"ref,omitempty"`       // the element, as in the outline: "e5"
	Value     string `json:"value,omitempty"`     // fill, type, select
	Key       string `json:"key,omitempty"`       // press: "Enter", "Control+A"
	URL       string `json:"url,omitempty"`       // goto
	Direction string `json:"direction,omitempty"` // scroll: up, down, left, right, into-view
	Reason    string `json:"reason,omitempty"`    // why this element, for the journal
}

// AnswerSchema is the JSON Schema of [Answer], for [pilot.Turn.Schema].
var AnswerSchema = pilot.ActSchema

// Why a target could not be chosen. A [TargetError] wraps one of these
// and [pilot.ErrCannot].
var (
	ErrNoMatch   = errors.New("no element matches")
	ErrAmbiguous = errors.New("more than one element matches")
	ErrWrongKind = errors.New("the element cannot take this action")
	ErrDisabled  = errors.New("the element is disabled")
)

// TargetError says why the element an instruction names could not be
// chosen, with the outline lines of the candidates.
type TargetError struct {
	Action     Action
	Want       string   // what was looked for, as the instruction says it
	Roles      []string // the roles looked among; nil for any
	Candidates []string // outline lines of the elements in question
	Err        error    // ErrNoMatch, ErrAmbiguous, ErrWrongKind or ErrDisabled
}

func (e *TargetError) Error() string {
	want := fmt.Sprintf("%q", e.Want)
	if len(e.Roles) > 0 {
		want += " (" + strings.Join(e.Roles, ", ") + ")"
	}
	switch e.Err {
	case ErrNoMatch:
		return fmt.Sprintf("nothing on the page is named like %s", want)
	case ErrAmbiguous:
		return fmt.Sprintf("%s matches %d elements: %s", want, len(e.Candidates), strings.Join(e.Candidates, "; "))
	case ErrWrongKind:
		return fmt.Sprintf("%s cannot be %s: %s", want, pastTense(e.Action), strings.Join(e.Candidates, "; "))
	case ErrDisabled:
		return fmt.Sprintf("%s is disabled: %s", want, strings.Join(e.Candidates, "; "))
	}
	return fmt.Sprintf("%s: %v", want, e.Err)
}

// ErrorHint says what to do next (calls.Hinter).
func (e *TargetError) ErrorHint() string {
	switch e.Err {
	case ErrNoMatch:
		return fmt.Sprintf("check the name in "+calls.Cmd("snapshot -i")+", or use its ref (%s e5)", e.Action)
	case ErrAmbiguous:
		return fmt.Sprintf(`name one exactly (in quotes, with its case), say which ("the second …"), or use its ref (%s %s)`, e.Action, refOf(e.Candidates[0]))
	case ErrWrongKind:
		return "name an element of that kind"
	case ErrDisabled:
		return "do what enables it first"
	}
	return ""
}

// ErrorData is what a program acts on: the candidates' outline lines (the
// CLI's JSON envelope gives it as data).
func (e *TargetError) ErrorData() any {
	if len(e.Candidates) == 0 {
		return nil
	}
	return map[string]any{"candidates": e.Candidates}
}

// Unwrap lets callers test for the reason, for [pilot.ErrCannot], and for
// the calls category an agent branches on (not_found, ambiguous).
func (e *TargetError) Unwrap() []error {
	out := []error{e.Err, pilot.ErrCannot}
	switch e.Err {
	case ErrNoMatch:
		out = append(out, calls.ErrNoMatch)
	case ErrAmbiguous:
		out = append(out, calls.ErrAmbiguous)
	case ErrWrongKind, ErrDisabled:
		out = append(out, calls.ErrNotInteractable)
	}
	return out
}

// NeedsModelError is the answer to what the rules model cannot do.
type NeedsModelError struct {
	What string // the instruction or purpose, as a reader would name it
	// Purpose is what the model was asked to do; empty (or act) for an
	// instruction the rules do not know.
	Purpose pilot.Purpose
}

func (e *NeedsModelError) Error() string {
	return e.What + " needs a language model: set ANTHROPIC_API_KEY or OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)"
}

// ErrorHint says how to get one, or what does the same with none, for
// what was asked (calls.Hinter): act's plain instructions fit act alone.
func (e *NeedsModelError) ErrorHint() string {
	switch e.Purpose {
	case pilot.PurposeExtract:
		return "set a model key to read it the first time; with none, read it by the recipe an earlier extract saved (--recipe FILE), a spreadsheet's cells with " +
			calls.Cmd("sheet read RANGE") + " (extract reads a sheet's header row with no model), or one value at a time with " + calls.Cmd("get text TARGET")
	case pilot.PurposeObserve:
		return "set a model key; with none, look at the page with " + calls.Cmd("snapshot -i") + " and pick the element by its ref or a locator (role=button[name=\"Pay\"], text=, label=)"
	case pilot.PurposeHeal:
		return "set a model key so replay can find the step's element on the changed page, or record the routine again"
	case pilot.PurposeDecide:
		return "set a model key; with none, do the task step by step: " + calls.Cmd("act") + " takes plain instructions (click X, fill X with Y, select Y in X, check X, press KEY, go to URL)"
	}
	return `set a model key, or say it as one of the plain instructions: click X, fill X with Y, select Y in X, check X, press KEY, go to URL, scroll down`
}

// Unwrap returns [pilot.ErrCannot] and [calls.ErrNeedsModel].
func (e *NeedsModelError) Unwrap() []error { return []error{pilot.ErrCannot, calls.ErrNeedsModel} }

func pastTense(a Action) string {
	switch a {
	case ActionFill:
		return "filled"
	case ActionType:
		return "typed into"
	case ActionSelect:
		return "selected in"
	case ActionCheck:
		return "checked"
	case ActionUncheck:
		return "unchecked"
	}
	return string(a) + "ed"
}

// refOf returns the ref in a candidate's outline line (written without
// its "- "), or "e5" for the example.
func refOf(line string) string {
	if l, ok := outline.ParseLine("- " + line); ok && l.Ref != "" {
		return l.Ref
	}
	return "e5"
}
