package rules

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/waymark-dev/waymark/pilot"
)

// Name is what the rules model calls itself in [pilot.Reply.Model].
const Name = "rules"

// Model is the rules model. The zero value is ready; it holds no state and
// is safe for concurrent use.
type Model struct{}

var _ pilot.Model = Model{}

// New returns the rules model.
func New() Model { return Model{} }

// Next answers an act turn with an [Answer] in Reply.Data, and a run's
// turn with the next step of a task of plain steps (task.go). Other
// purposes, and instructions it does not know, are a [NeedsModelError]; a
// target it cannot choose with confidence is a [TargetError]; an act
// instruction of several steps is a [MultiStepError]. All wrap
// [pilot.ErrCannot].
func (Model) Next(ctx context.Context, turn pilot.Turn) (pilot.Reply, error) {
	if err := ctx.Err(); err != nil {
		return pilot.Reply{}, err
	}
	if turn.Purpose == pilot.PurposeDecide {
		return decideTask(turn)
	}
	if turn.Purpose != pilot.PurposeAct {
		return pilot.Reply{}, &NeedsModelError{What: purposeWhat(turn.Purpose), Purpose: turn.Purpose}
	}
	instruction, outline := split(lastUser(turn))
	if steps := Steps(instruction); len(steps) > 1 {
		return pilot.Reply{}, &MultiStepError{Instruction: instruction, Steps: steps}
	}
	a, err := Decide(instruction, outline)
	if err != nil {
		return pilot.Reply{}, err
	}
	data, err := json.Marshal(a)
	if err != nil {
		return pilot.Reply{}, fmt.Errorf("rules: %w", err)
	}
	return pilot.Reply{Data: data, Model: Name}, nil
}

// Decide answers one instruction against an outline, as Next does for an
// act turn.
func Decide(instruction, outline string) (Answer, error) {
	in, ok := parseInstruction(instruction)
	if !ok {
		return Answer{}, &NeedsModelError{What: "“" + strings.TrimSpace(instruction) + "”"}
	}
	els := parseOutline(outline)
	switch in.action {
	case ActionGoto:
		return Answer{Action: ActionGoto, URL: in.url, Reason: "the instruction names the address"}, nil
	case ActionScroll:
		if in.target == "" {
			return Answer{Action: ActionScroll, Direction: in.direction, Reason: "the instruction says " + in.direction}, nil
		}
	case ActionPress:
		if in.orClick != "" {
			if same, _ := rank(els, norm(in.orClick)); len(same) > 0 && norm(same[0].Name) == norm(in.orClick) {
				return Answer{}, &TargetError{Action: ActionPress, Want: in.orClick, Err: ErrAmbiguous,
					Candidates: append(lines(same), "the "+in.key+" key")}
			}
		}
		if in.target == "" {
			return Answer{Action: ActionPress, Key: in.key, Reason: "the instruction names the key"}, nil
		}
	}
	roles := kinds[in.action]
	if in.action == ActionSelect && in.value == "" {
		roles = choosable
	}
	e, how, err := find(els, in.target, in.action, roles)
	if err != nil {
		return Answer{}, err
	}
	if in.action == ActionSelect && in.value != "" {
		if o, ok, err := optionIn(els, e, in.value); ok || err != nil {
			if err != nil {
				return Answer{}, err
			}
			return Answer{Action: ActionClick, Ref: o.Ref,
				Reason: fmt.Sprintf("%s is the option %q of %s, which matches %q by %s", o.Raw, in.value, e.Raw, in.target, how)}, nil
		}
	}
	a := Answer{Action: in.action, Ref: e.Ref, Value: in.value, Key: in.key, Direction: in.direction,
		Reason: fmt.Sprintf("%s matches %q by %s", e.Raw, in.target, how)}
	if in.action == ActionSelect && in.value == "" {
		// "select Express": tick a radio or checkbox, click an option or tab.
		a.Action = ActionClick
		if slices.Contains(kinds[ActionCheck], e.Role) {
			a.Action = ActionCheck
		}
	}
	return a, nil
}

func purposeWhat(p pilot.Purpose) string {
	switch p {
	case pilot.PurposeObserve:
		return "observe (finding candidate elements for a question)"
	case pilot.PurposeExtract:
		return "extract (reading data from the page)"
	case pilot.PurposeHeal:
		return "heal (finding a recorded step's element on a changed page)"
	case pilot.PurposeDecide:
		return "running a task (choosing each next step)"
	}
	return fmt.Sprintf("purpose %q", p)
}

// lastUser returns the text of the turn's last user message.
func lastUser(t pilot.Turn) string {
	for i := len(t.Messages) - 1; i >= 0; i-- {
		if t.Messages[i].Role == pilot.RoleUser {
			return t.Messages[i].Text
		}
	}
	return ""
}

// split takes a user message apart: the instruction and the outline in
// the page_content fence. Everything up to the last closing tag is page.
func split(msg string) (instruction, outline string) {
	outside := msg
	if i := strings.Index(msg, "<page_content"); i >= 0 {
		if gt := strings.IndexByte(msg[i:], '>'); gt >= 0 {
			body := msg[i+gt+1:]
			rest := ""
			if j := strings.LastIndex(body, "</page_content>"); j >= 0 {
				body, rest = body[:j], body[j+len("</page_content>"):]
			}
			outline, outside = body, msg[:i]+"\n"+rest
		}
	}
	if _, after, ok := strings.Cut(outside, "<instruction>"); ok {
		in, _, _ := strings.Cut(after, "</instruction>")
		return strings.TrimSpace(in), outline
	}
	for _, l := range strings.Split(outside, "\n") {
		l = strings.TrimSpace(l)
		if len(l) > 12 && strings.EqualFold(l[:12], "instruction:") {
			return strings.TrimSpace(l[12:]), outline
		}
	}
	return strings.TrimSpace(outside), outline
}

// optionIn finds the option named value among the options a list shows
// in the outline (an ARIA listbox, an open custom combobox): choosing one
// is a click on it, which a page's own list takes, where a select of a
// <select> would not reach it. ok is false when the list shows no
// options (a <select>: the driver chooses among its own).
func optionIn(els []element, list element, value string) (element, bool, error) {
	var opts []element
	for _, e := range els {
		if e.parent == list.Ref && (e.Role == "option" || e.Role == "menuitemradio" || e.Role == "treeitem") {
			opts = append(opts, e)
		}
	}
	if len(opts) == 0 {
		return element{}, false, nil
	}
	best, _ := rank(opts, norm(value))
	switch len(best) {
	case 1:
		if best[0].Has("disabled") {
			return element{}, true, &TargetError{Action: ActionSelect, Want: value, Candidates: lines(best), Err: ErrDisabled}
		}
		return best[0], true, nil
	case 0:
		return element{}, true, &TargetError{Action: ActionSelect, Want: value, Roles: []string{"option"}, Candidates: lines(opts), Err: ErrNoMatch}
	}
	return element{}, true, &TargetError{Action: ActionSelect, Want: value, Roles: []string{"option"}, Candidates: lines(best), Err: ErrAmbiguous}
}
