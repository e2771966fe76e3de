package rules

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
)

// A run's turn (waymark run with no key) is answered one step of the task
// a turn: the task sentence is split by [Steps], the steps the run has
// done are counted from its history, and the next step is answered as act
// answers it, on the turn's outline. With every step done the answer is
// done, which the run accepts only when the last step's check passed. A
// step that failed ends the run: the rules model knows no other way. A
// step that was taken and only left the page unchanged (the option
// already chosen) is not a failure of the task: the next step goes on.

// taskDecision is the run's decision, as pilot's decide schema has it.
type taskDecision struct {
	Thought string     `json:"thought"`
	Action  taskAction `json:"action"`
}

type taskAction struct {
	Type      string `json:"type"`
	Op        string `json:"op,omitempty"`
	Ref       string `json:"ref,omitempty"`
	Value     string `json:"value,omitempty"`
	Key       string `json:"key,omitempty"`
	URL       string `json:"url,omitempty"`
	Direction string `json:"direction,omitempty"`
}

// decideTask answers a decide turn.
func decideTask(turn pilot.Turn) (pilot.Reply, error) {
	msg := lastUser(turn)
	task := taskOf(msg)
	steps := Steps(task)
	if len(steps) == 0 {
		return pilot.Reply{}, &NeedsModelError{What: "running “" + task + "”", Purpose: pilot.PurposeDecide}
	}
	history, outline := fences(msg)
	done, kept, wrong := progress(history)
	if kept && strings.HasSuffix(wrong, "observed the page did not change") && !strings.Contains(wrong, "; step ") {
		// The step was taken and only left the page as it was: choosing
		// the option already chosen, the tab already open. The next
		// step goes on; done still needs a last step whose check passed.
		wrong = ""
	}
	if wrong != "" {
		// A step whose check failed is in the history; one the page
		// refused is not.
		n := done + 1
		if kept {
			n = done
		}
		n = max(1, min(n, len(steps)))
		return pilot.Reply{}, &StepFailedError{Step: n, Of: len(steps), Instruction: steps[n-1], Why: wrong}
	}
	var d taskDecision
	if done >= len(steps) {
		d = taskDecision{Thought: fmt.Sprintf("the %d steps of the task are done", len(steps)), Action: taskAction{Type: "done"}}
	} else {
		a, err := Decide(steps[done], outline)
		if err != nil {
			return pilot.Reply{}, fmt.Errorf("step %d of %d, “%s”: %w", done+1, len(steps), steps[done], err)
		}
		d = taskDecision{
			Thought: fmt.Sprintf("step %d of %d, “%s”: %s", done+1, len(steps), steps[done], a.Reason),
			Action: taskAction{Type: "act", Op: string(a.Action), Ref: a.Ref, Value: a.Value, Key: a.Key, URL: a.URL,
				Direction: a.Direction},
		}
	}
	data, err := json.Marshal(d)
	if err != nil {
		return pilot.Reply{}, fmt.Errorf("rules: %w", err)
	}
	return pilot.Reply{Data: data, Model: Name}, nil
}

// taskOf reads the task from a run's message: the "Task:" line, up to
// the declared inputs or the blank line after it.
func taskOf(msg string) string {
	_, after, ok := strings.Cut(msg, "Task:")
	if !ok {
		return ""
	}
	for _, end := range []string{"\nDeclared ", "\n\n"} {
		after, _, _ = strings.Cut(after, end)
	}
	return strings.TrimSpace(after)
}

// fences returns the first page_content fence's body (a run's history)
// and the last one's (the page). Page words inside are defanged by the
// pilot, so no fence closes early.
func fences(msg string) (first, last string) {
	var bodies []string
	rest := msg
	for {
		i := strings.Index(rest, "<page_content")
		if i < 0 {
			break
		}
		gt := strings.IndexByte(rest[i:], '>')
		if gt < 0 {
			break
		}
		body := rest[i+gt+1:]
		j := strings.Index(body, "</page_content>")
		if j < 0 {
			bodies = append(bodies, body)
			break
		}
		bodies = append(bodies, body[:j])
		rest = body[j+len("</page_content>"):]
	}
	if len(bodies) == 0 {
		return "", ""
	}
	return bodies[0], bodies[len(bodies)-1]
}

// progress counts the steps a run's history lists as done ("1. click …")
// and returns what went wrong with the current step, if the history says,
// and whether the last step listed is one whose check failed.
func progress(history string) (done int, failedLast bool, wrong string) {
	lines := strings.Split(history, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if reDoneLine().MatchString(l) {
			done++
			failedLast = strings.Contains(l, "— its check failed")
		}
		if strings.HasPrefix(l, "What went wrong") {
			var why []string
			for _, w := range lines[i+1:] {
				if w = strings.TrimSpace(w); strings.HasPrefix(w, "- ") {
					why = append(why, strings.TrimPrefix(w, "- "))
				}
			}
			return done, failedLast, strings.Join(why, "; ")
		}
	}
	return done, failedLast, ""
}

var reDoneLine = lazyRE(`^[0-9]+\. `)

// StepFailedError ends a run the rules model was answering: a step did
// not work, and it knows no other way to do it.
type StepFailedError struct {
	Step, Of    int
	Instruction string
	Why         string
}

func (e *StepFailedError) Error() string {
	return fmt.Sprintf("step %d of %d, “%s”, did not work (%s); the rules model knows no other way", e.Step, e.Of, e.Instruction, e.Why)
}

// ErrorHint says what to do next (calls.Hinter).
func (e *StepFailedError) ErrorHint() string {
	return "look at the page with " + calls.Cmd("snapshot -i") + " and do the step with " + calls.Cmd("act") +
		" by the element's ref, or set a model key so the run can try another way"
}

// Unwrap returns [pilot.ErrCannot] and [calls.ErrNeedsModel].
func (e *StepFailedError) Unwrap() []error { return []error{pilot.ErrCannot, calls.ErrNeedsModel} }

// MultiStepError is act's answer to an instruction that holds several
// steps: act does one.
type MultiStepError struct {
	Instruction string
	Steps       []string
}

func (e *MultiStepError) Error() string {
	return fmt.Sprintf("“%s” holds %d steps (“%s”); act does one at a time", e.Instruction, len(e.Steps), strings.Join(e.Steps, "”, “"))
}

// ErrorHint says what to do next (calls.Hinter).
func (e *MultiStepError) ErrorHint() string {
	return "give the whole sentence to " + calls.Cmd("run") + " (no key needed: it does the steps in turn), or act each step in turn; " +
		"a value that holds such words goes in quotes (fill Message with \"hi, then call me\")"
}

// ErrorData is the steps, for a program to act them one by one.
func (e *MultiStepError) ErrorData() any { return map[string]any{"steps": e.Steps} }

// Unwrap returns [pilot.ErrCannot] and [calls.ErrBadInput].
func (e *MultiStepError) Unwrap() []error { return []error{pilot.ErrCannot, calls.ErrBadInput} }
