package calls

import "encoding/json"

// Calls of recording by hand: between record.start and record.stop, the
// element actions and navigations made on a session become the steps of a
// routine (package routine), each element with the locator, evidence and
// fingerprint taken from the live page just before it was pressed.

const (
	MethodRecordStart = "record.start" // RecordStartRequest → RecordStarted
	MethodRecordStop  = "record.stop"  // RecordStopRequest → RecordStopResult
)

// RecordStartRequest starts recording the request's session. Starting a
// session that already records is an error.
type RecordStartRequest struct {
	Name string `json:"name,omitempty"` // the routine's name; empty: the stop request's, or "recording"
}

// RecordStarted says a recording began.
type RecordStarted struct {
	Session string `json:"session"`
	Name    string `json:"name,omitempty"`
}

// RecordStopRequest ends the session's recording and returns the routine.
// Stopping a session that does not record is an error.
type RecordStopRequest struct {
	// Name is the routine's name when the start gave none (the CLI sends
	// the file's base name); empty means "recording".
	Name string `json:"name,omitempty"`
	// Keep returns the routine recorded so far and goes on recording. The
	// CLI asks for it, writes the file, and stops only once it is
	// written, so that a file that cannot be written loses nothing.
	Keep bool `json:"keep,omitempty"`
}

// RecordStopResult is the recorded routine and the values of the
// variables it proposes. The routine never holds a value: a typed value
// became a declared variable (secret when it looks like a credential or
// went into a password field), and its value travels beside, in Values,
// for the front to show (masking secrets) and to refuse it in the file.
type RecordStopResult struct {
	// Routine is the routine as JSON (format waymark.routine/1); package
	// calls cannot import package routine, which imports it.
	Routine json.RawMessage `json:"routine"`
	// Values holds each proposed variable's recorded value, by name.
	Values map[string]string `json:"values,omitempty"`
	// Notes say what was done while recording but is not in the routine
	// (a drag, a tab switch, an answered dialog), and how a step was
	// recorded when it is not what was done.
	Notes []string `json:"notes,omitempty"`
}
