package calls

import (
	"context"
	"encoding/json"
)

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
	// From is the page the tab was on, recorded as the routine's first
	// step (a goto), so that a replay in a new session opens it; empty
	// when the tab was on about:blank (the recording begins with an open).
	From string `json:"from,omitempty"`
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

// MethodRecordRows starts or ends a loop over a list's rows in the
// session's recording (RecordRowsRequest → RecordRowsResult).
const MethodRecordRows = "record.rows"

// RecordRowsRequest starts (Op "start") or ends (Op "stop") a loop over
// the rows of a list on the page, read by a recipe (waymark.recipe/1).
// Between the two, the actions recorded go inside the loop: a control
// pressed inside the list's first row is pressed at the same place in
// each row at replay, and a value typed that is one of the first row's
// fields becomes %row.field%.
type RecordRowsRequest struct {
	Op string `json:"op"`
	// Recipe (start) is the recipe as JSON; package calls cannot import
	// package recipe.
	Recipe json.RawMessage `json:"recipe,omitempty"`
	// Instruction (start) is what the list is, for a heal and for people.
	Instruction string `json:"instruction,omitempty"`
}

// RecordRowsResult says what the loop reads or recorded.
type RecordRowsResult struct {
	// Rows (start) are the rows the recipe reads on the page now; actions
	// go in the first one.
	Rows []map[string]any `json:"rows,omitempty"`
	// Steps (stop) is how many steps the loop holds.
	Steps int `json:"steps,omitempty"`
}

// RecordRows starts or ends a loop over a list's rows in the session's
// recording by hand.
func (r Remote) RecordRows(ctx context.Context, req RecordRowsRequest) (*RecordRowsResult, error) {
	return remote[RecordRowsResult](ctx, r, MethodRecordRows, req)
}

// MethodRecordExtract adds what an extract read to the session's
// recording, as an extract step (RecordExtractRequest → Empty). A session
// that does not record takes it and records nothing.
const MethodRecordExtract = "record.extract"

// RecordExtractRequest is an extract done while recording: its words, its
// schema, and the recipe that reads the list again with no model (none
// for data that is not a list).
type RecordExtractRequest struct {
	Instruction string          `json:"instruction"`
	Schema      json.RawMessage `json:"schema"`
	Recipe      json.RawMessage `json:"recipe,omitempty"`
	// List is how it read the list over pages, as the routine's
	// waymark.routine/1 "list" object; nil: one page.
	List json.RawMessage `json:"list,omitempty"`
	// Grid is the grid recipe (waymark.grid/1) a list read from a
	// spreadsheet was learned or read by.
	Grid json.RawMessage `json:"grid,omitempty"`
}

// RecordExtract adds an extract step to the session's recording, if it
// records.
func (r Remote) RecordExtract(ctx context.Context, req RecordExtractRequest) (*Empty, error) {
	return remote[Empty](ctx, r, MethodRecordExtract, req)
}
