package testplan

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// A trace of a session (waymark trace start|stop) is shown in the format
// of the test report: one scenario, the session, whose steps are the
// calls made on it, each with the screenshot before it (the element acted
// on outlined) and after it, and the console errors and failed requests
// of the pages meanwhile.

// TraceHTML writes tr as a self-contained HTML report to w.
func TraceHTML(w io.Writer, tr *calls.Trace) error {
	rep, files := traceReport(tr)
	im := &images{files: files}
	text, err := reportHTML(rep, im)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, im.fill(text))
	return err
}

// traceReport turns a trace into a report and its images by path.
func traceReport(tr *calls.Trace) (*Report, map[string][]byte) {
	rep := &Report{
		Format:     ReportFormat,
		Plan:       "trace of session " + tr.Session,
		Started:    time.UnixMilli(tr.StartedUnixMS),
		DurationMS: tr.DurationMS,
	}
	files := map[string][]byte{}
	sc := ScenarioResult{Name: tr.Session, Session: tr.Session, Status: StatusPassed, DurationMS: tr.DurationMS}
	for _, e := range tr.Entries {
		st := StepResult{Index: e.Index, Text: callText(e.Method, e.Params), Status: StatusPassed, DurationMS: e.DurationMS, Detail: e.Outcome}
		if !e.OK {
			st.Status, st.Error, st.Code = StatusFailed, e.Error, e.Code
			if sc.Status == StatusPassed {
				sc.Status = StatusFailed
				sc.Failure = fmt.Sprintf("call %d (%s): %s", e.Index, st.Text, e.Error)
			}
		}
		if len(e.Before) > 0 {
			st.Before = fmt.Sprintf("%03d-before.png", e.Index)
			files[st.Before] = e.Before
		}
		if len(e.After) > 0 {
			st.Screenshot = fmt.Sprintf("%03d-after.png", e.Index)
			files[st.Screenshot] = e.After
		}
		for _, c := range e.Console {
			if c.Level == "error" {
				sc.Console = append(sc.Console, fmt.Sprintf("[call %d] %s", e.Index, c.Text))
			}
		}
		for _, r := range e.Requests {
			if r.Bad() {
				outcome := r.Failed
				if r.Status >= 400 {
					outcome = fmt.Sprintf("HTTP %d", r.Status)
				}
				sc.FailedRequests = append(sc.FailedRequests, fmt.Sprintf("[call %d] %s %s → %s", e.Index, r.Method, r.URL, outcome))
			}
		}
		sc.Steps = append(sc.Steps, st)
	}
	rep.Scenarios = []ScenarioResult{sc}
	if tr.Dropped > 0 {
		rep.Missing = append(rep.Missing, fmt.Sprintf("%d calls past the trace's bound", tr.Dropped))
	}
	rep.tally()
	return rep, files
}

// callText reads a call as its plan step (or CLI command) would, written
// by [Line] so that it pastes back into a plan as it ran: "click @e3",
// `fill "label=Full name" «secret:EMAIL»`, "open https://…".
func callText(method string, params json.RawMessage) string {
	var p map[string]any
	_ = json.Unmarshal(params, &p)
	str := func(k string) string { s, _ := p[k].(string); return s }
	verb, args := method, []string(nil)
	switch method {
	case calls.MethodAct:
		verb = str("kind")
		args = []string{str("target")}
		v := str("value")
		if vs, ok := p["values"].([]any); ok && v == "" && len(vs) == 1 {
			v, _ = vs[0].(string)
		}
		for _, w := range []string{v, str("key"), str("direction")} {
			if w != "" {
				args = append(args, w)
			}
		}
	case calls.MethodOpen:
		args = []string{str("url")}
	default:
		if len(params) > 0 {
			return method + " " + string(params)
		}
		return method
	}
	kept := args[:0]
	for _, a := range args {
		if a != "" {
			kept = append(kept, a)
		}
	}
	return Line(verb, "", kept...)
}
