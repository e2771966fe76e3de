package calls

import (
	"context"
	"encoding/json"
)

// Calls of tracing: between trace.start and trace.stop, the daemon keeps,
// for every call made on a session, what was asked, how it ended, a
// screenshot before and after each call that may change the page, and the
// console messages and requests of the pages meanwhile. The daemon
// answers these calls, not the driver.

const (
	MethodTraceStart = "trace.start" // Empty → TraceStarted
	MethodTraceStop  = "trace.stop"  // Empty → Trace
)

// TraceFormat is the version string of a trace file.
const TraceFormat = "waymark.trace/1"

// TraceStarted says a trace began.
type TraceStarted struct {
	Session string `json:"session"`
}

// Trace is a session's trace: its calls in order. Every string in it is
// masked (the secrets typed into the session, and what looks like one).
type Trace struct {
	Format        string       `json:"format"`
	Session       string       `json:"session"`
	StartedUnixMS int64        `json:"started_unix_ms"` // a moment, in Unix milliseconds
	DurationMS    int64        `json:"duration_ms"`
	Entries       []TraceEntry `json:"entries"`
	// Dropped counts the calls past the bound a trace keeps.
	Dropped int `json:"dropped,omitempty"`
}

// TraceEntry is one call of a traced session.
type TraceEntry struct {
	Index         int             `json:"index"` // 1-based
	Method        string          `json:"method"`
	Params        json.RawMessage `json:"params,omitempty"`
	StartedUnixMS int64           `json:"started_unix_ms"`
	DurationMS    int64           `json:"duration_ms"`
	OK            bool            `json:"ok"`
	Code          string          `json:"code,omitempty"`    // the error's category when not OK
	Error         string          `json:"error,omitempty"`   // its message
	Outcome       string          `json:"outcome,omitempty"` // where the page is after, what followed
	// Before and After are PNG screenshots around a call that may change
	// the page (navigations, actions, dialogs, tabs); none for reads.
	Before   []byte           `json:"before,omitempty"`
	After    []byte           `json:"after,omitempty"`
	Console  []ConsoleMessage `json:"console,omitempty"`  // logged during the call
	Requests []Request        `json:"requests,omitempty"` // sent during the call
}

// TraceStart begins tracing the session.
func (r Remote) TraceStart(ctx context.Context) (*TraceStarted, error) {
	return remote[TraceStarted](ctx, r, MethodTraceStart, Empty{})
}

// TraceStop ends the session's trace and returns it.
func (r Remote) TraceStop(ctx context.Context) (*Trace, error) {
	return remote[Trace](ctx, r, MethodTraceStop, Empty{})
}

// UnmarshalJSON reads a trace, and one written before the start was
// named started_unix_ms (2026-12: started_ms, which read as a duration).
func (t *Trace) UnmarshalJSON(b []byte) error {
	type plain Trace
	var v struct {
		plain
		Old int64 `json:"started_ms"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*t = Trace(v.plain)
	if t.StartedUnixMS == 0 {
		t.StartedUnixMS = v.Old
	}
	return nil
}

// UnmarshalJSON reads an entry, and one of a trace written before the
// start was named started_unix_ms.
func (e *TraceEntry) UnmarshalJSON(b []byte) error {
	type plain TraceEntry
	var v struct {
		plain
		Old int64 `json:"started_ms"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*e = TraceEntry(v.plain)
	if e.StartedUnixMS == 0 {
		e.StartedUnixMS = v.Old
	}
	return nil
}
