package pilot

import (
	"encoding/json"

	"github.com/waymark-dev/waymark/routine"
)

// EventType says what an [Event] reports.
type EventType string

// The events of a run, in the order they may come.
const (
	EventThought    EventType = "thought"    // the model's reasoning for its next action
	EventStep       EventType = "step"       // a step done and checked: Step, with its Verdict
	EventRecovering EventType = "recovering" // a guard or a failed check; Guard says which
	EventAwait      EventType = "await"      // waiting for a person: Ask
	EventCanceled   EventType = "canceled"   // the run was canceled; the last event
	EventError      EventType = "error"      // the run ended with an error; the last event
	EventDone       EventType = "done"       // the task is done; the last event
)

// Guards named by recovering events.
const (
	GuardRepeat      = "repeat"      // an operation already recorded; not done again
	GuardUndecodable = "undecodable" // an answer that could not be used
	GuardVerify      = "verify"      // a step's check failed, or done was not shown
	GuardBreaker     = "breaker"     // too many failed checks
	GuardBudget      = "budget"      // turns or tokens spent
	GuardPage        = "page"        // the page refused the step
	GuardBlocked     = "blocked"     // a bot check: waited for once, or the run stops
)

// Event is one thing that happened in a run. Every string in it is masked
// with the pilot's known secrets and the secret heuristic before it
// leaves the loop.
type Event struct {
	Type    EventType        `json:"type"`
	Turn    int              `json:"turn"`
	Text    string           `json:"text,omitempty"`    // for people: the thought, the step, what went wrong
	Step    *routine.Step    `json:"step,omitempty"`    // step: the recorded step
	Verdict *routine.Verdict `json:"verdict,omitempty"` // step, recovering (verify): the check
	Guard   string           `json:"guard,omitempty"`   // recovering: which guard
	Ask     *AskRequest      `json:"ask,omitempty"`     // await
	Error   string           `json:"error,omitempty"`   // error
	Summary *RunResult       `json:"summary,omitempty"` // done, canceled, error
}

// emit masks an event and hands it to OnEvent.
func (r *run) emit(e Event) {
	if r.opts.OnEvent == nil {
		return
	}
	e.Turn = r.res.Turns
	r.opts.OnEvent(r.maskEvent(e))
}

// recovering emits a recovering event.
func (r *run) recovering(guard, text string) {
	r.emit(Event{Type: EventRecovering, Guard: guard, Text: text})
}

// maskEvent masks every string of an event, whatever field holds it: the
// event goes through JSON, each string is redacted, and it comes back. A
// field added later is masked too.
func (r *run) maskEvent(e Event) Event {
	b, err := json.Marshal(e)
	if err != nil {
		return Event{Type: e.Type, Turn: e.Turn, Text: r.p.mask(e.Text)}
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return Event{Type: e.Type, Turn: e.Turn, Text: r.p.mask(e.Text)}
	}
	v = r.maskAny(v)
	b, err = json.Marshal(v)
	if err != nil {
		return Event{Type: e.Type, Turn: e.Turn}
	}
	var out Event
	if err := json.Unmarshal(b, &out); err != nil {
		return Event{Type: e.Type, Turn: e.Turn}
	}
	return out
}

// maskAny redacts every string (and map key) in a decoded JSON value.
func (r *run) maskAny(v any) any {
	switch x := v.(type) {
	case string:
		return r.p.mask(x)
	case []any:
		for i := range x {
			x[i] = r.maskAny(x[i])
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[r.p.mask(k)] = r.maskAny(e)
		}
		return out
	}
	return v
}
