package sessions

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// Recording by hand: between record.start and record.stop, the element
// actions and navigations a session is asked for become the steps of a
// routine. Before each element action the element's evidence (chosen
// locator, candidates, frames, fingerprint) is taken from the live page, as
// it is when pressed; the step is kept only when the action succeeds. Typed
// and chosen values become proposed variables named after their fields;
// their values travel beside the routine, never in it.

// recorder holds the recordings in progress, by session name. The zero
// value is ready to use.
type recorder struct {
	mu     sync.Mutex // guards byName
	byName map[string]*recording
}

func (r *recorder) get(session string) *recording {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byName[session]
}

func (r *recorder) start(session, name string, from *routine.Step) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byName[session] != nil {
		return calls.Errorf(calls.ErrBadInput, "stop it first: "+calls.Cmd("record stop FILE")+" (or record another session with --session NAME)",
			"session %q is already recording", session)
	}
	if r.byName == nil {
		r.byName = make(map[string]*recording)
	}
	rec := &recording{name: name, secrets: new(secret.Set), values: map[string]string{}, ids: map[string]bool{}}
	if from != nil {
		from.ID = rec.id("open")
		rec.add(*from)
	}
	r.byName[session] = rec
	return nil
}

// stop ends the session's recording. It waits for an action being
// recorded to finish, so that the action is in the routine.
func (r *recorder) stop(session string) (*recording, error) {
	r.mu.Lock()
	rec := r.byName[session]
	delete(r.byName, session)
	r.mu.Unlock()
	if rec == nil {
		return nil, calls.Errorf(calls.ErrBadInput, "start one first: "+calls.Cmd("record start")+", then act on the page, then "+calls.Cmd("record stop FILE"),
			"session %q is not recording", session)
	}
	rec.mu.Lock()
	rec.done = true
	rec.mu.Unlock()
	return rec, nil
}

// startPage is the first step of a recording started in session: the
// goto of the page its tab is on ([routine.StartStep]), so that the
// routine replays in a session of its own, which opens on about:blank.
// Nil when the session has no page yet (no browser, no session, or
// about:blank): its recording begins with its own open. The session is
// looked up, never made: starting to record starts no browser.
func (m *Manager) startPage(ctx context.Context, session string) (*routine.Step, error) {
	b := m.current()
	if b == nil {
		return nil, nil
	}
	s, ok := m.lookup(b, session)
	if !ok {
		return nil, nil
	}
	_, u := s.Info()
	if !routine.StartablePage(u) {
		return nil, nil
	}
	// The page as it shows now, with its notices: a replay stops at a
	// sign-in page the routine did not record. A page that cannot be
	// looked at (a dialog open) is recorded by its URL alone.
	info, notices := &calls.PageInfo{URL: u}, []calls.Notice(nil)
	if snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true, Unseen: true}); err == nil {
		info, notices = &calls.PageInfo{URL: snap.URL, Title: snap.Title}, snap.Notices
	} else if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	st, ok := routine.StartStep(info, notices)
	if !ok {
		return nil, nil
	}
	return &st, nil
}

// recordedMethods are the calls a recording looks at; the others (looks,
// reads, waits) pass by untouched.
var recordedMethods = map[string]bool{
	calls.MethodOpen: true, calls.MethodBack: true, calls.MethodForward: true, calls.MethodReload: true,
	calls.MethodAct: true, calls.MethodTab: true, calls.MethodDialog: true, calls.MethodStateLoad: true,
	calls.MethodCookies: true, calls.MethodStorage: true, calls.MethodFormFill: true,
	calls.MethodDocInsert: true,
}

// recording reports whether the recorder handles the call: the record
// methods themselves, and the calls it records while session records.
func (m *Manager) recording(session, method string) bool {
	switch method {
	case calls.MethodRecordStart, calls.MethodRecordStop, calls.MethodRecordRows, calls.MethodRecordExtract:
		return true
	}
	return recordedMethods[method] && m.rec.get(session) != nil
}

// record runs a call [Manager.recording] claimed.
func (m *Manager) record(ctx context.Context, session, method string, params json.RawMessage) (any, error) {
	switch method {
	case calls.MethodRecordStart:
		var req calls.RecordStartRequest
		if err := decode(params, &req); err != nil {
			return nil, err
		}
		from, err := m.startPage(ctx, session)
		if err != nil {
			return nil, err
		}
		if err := m.rec.start(session, req.Name, from); err != nil {
			return nil, err
		}
		m.log.Info("recording started", "session", session)
		res := &calls.RecordStarted{Session: session, Name: req.Name}
		if from != nil {
			res.From = from.URL
		}
		return res, nil
	case calls.MethodRecordExtract:
		return m.recordExtract(session, params)
	case calls.MethodRecordStop:
		var req calls.RecordStopRequest
		if err := decode(params, &req); err != nil {
			return nil, err
		}
		if req.Keep {
			rec := m.rec.get(session)
			if rec == nil {
				return nil, calls.Errorf(calls.ErrBadInput, "start one first: "+calls.Cmd("record start")+", then act on the page, then "+calls.Cmd("record stop FILE"),
					"session %q is not recording", session)
			}
			return rec.result(req.Name)
		}
		rec, err := m.rec.stop(session)
		if err != nil {
			return nil, err
		}
		m.log.Info("recording stopped", "session", session, "steps", len(rec.steps))
		return rec.result(req.Name)
	}
	b, err := m.browserFor(ctx, session)
	if err != nil {
		return nil, err
	}
	s, err := m.session(ctx, b, session)
	if err != nil {
		return nil, err
	}
	if method == calls.MethodRecordRows {
		return m.recordRows(ctx, session, s, params)
	}
	pass := func() (any, error) { return sessionCalls[method](ctx, s, params) }
	rec := m.rec.get(session)
	if rec == nil { // stopped meanwhile
		return pass()
	}
	return rec.handle(ctx, s, method, params, pass)
}

func decode(params json.RawMessage, v any) error {
	if len(params) > 0 && string(params) != "null" {
		if err := json.Unmarshal(params, v); err != nil {
			return calls.Errorf(calls.ErrBadInput, "", "bad params: %v", err)
		}
	}
	return nil
}

// page is what recording needs of a session (a *driver.Session).
type page interface {
	Open(ctx context.Context, req calls.OpenRequest) (*calls.PageInfo, error)
	Back(ctx context.Context) (*calls.PageInfo, error)
	Forward(ctx context.Context) (*calls.PageInfo, error)
	Reload(ctx context.Context) (*calls.PageInfo, error)
	Snapshot(ctx context.Context, req calls.SnapshotRequest) (*calls.Snapshot, error)
	Locate(ctx context.Context, req calls.LocateRequest) (*calls.Evidence, error)
	Act(ctx context.Context, req calls.ActRequest) (*calls.Outcome, error)
	Eval(ctx context.Context, req calls.EvalRequest) (*calls.EvalResult, error) // a loop's rows are read by a recipe
}

// recording is one session's recording in progress.
type recording struct {
	name string

	// mu is held while a step is located, done and appended, so that the
	// steps keep the order the actions were done in; it guards the
	// fields below.
	mu      sync.Mutex
	done    bool // stopped: later calls are done, not recorded
	steps   []routine.Step
	vars    []proposed
	values  map[string]string // variable → recorded value
	secrets *secret.Set       // the secret values typed so far
	ids     map[string]bool   // step ids used
	notes   []string
	loop    *rowsLoop // between record rows start and stop: steps go into it
	// met is the popup that stopped or covered the last recorded action,
	// until the next action or navigation: a click right after it on the
	// popup's own "No thanks" is recorded as its dismissal
	// (routine.MarkDismissal).
	met *calls.Popup
}

// proposed is a variable with the field name it was named after.
type proposed struct {
	routine.Variable
	base string
}

// recordedOps are the element operations a routine step can hold.
var recordedOps = map[string]bool{
	calls.ActClick: true, calls.ActDblClick: true, calls.ActHover: true, calls.ActFocus: true,
	calls.ActFill: true, calls.ActType: true, calls.ActPress: true, calls.ActSelect: true,
	calls.ActCheck: true, calls.ActUncheck: true, calls.ActScroll: true, calls.ActUpload: true,
}

// handle does one call of a recorded session and records it.
func (rec *recording) handle(ctx context.Context, p page, method string, params json.RawMessage, pass func() (any, error)) (any, error) {
	switch method {
	case calls.MethodOpen:
		var req calls.OpenRequest
		if err := decode(params, &req); err != nil {
			return nil, err
		}
		return rec.navigate(ctx, p, req.URL, "", func() (*calls.PageInfo, error) { return p.Open(ctx, req) })
	case calls.MethodBack:
		return rec.navigate(ctx, p, "", "back", func() (*calls.PageInfo, error) { return p.Back(ctx) })
	case calls.MethodForward:
		return rec.navigate(ctx, p, "", "forward", func() (*calls.PageInfo, error) { return p.Forward(ctx) })
	case calls.MethodReload:
		return rec.navigate(ctx, p, "", "reload", func() (*calls.PageInfo, error) { return p.Reload(ctx) })
	case calls.MethodAct:
		var req calls.ActRequest
		if err := decode(params, &req); err != nil {
			return nil, err
		}
		return rec.act(ctx, p, req)
	case calls.MethodFormFill:
		var req calls.FormFillRequest
		if err := decode(params, &req); err != nil {
			return nil, err
		}
		return rec.formFill(ctx, p, req) // record_form.go
	case calls.MethodDocInsert:
		var req calls.DocInsertRequest
		if err := decode(params, &req); err != nil {
			return nil, err
		}
		return rec.docInsert(ctx, p, req) // record_doc.go
	}
	// Calls a routine has no step for: done, and noted when they changed
	// something.
	var op struct {
		Op string `json:"op"`
	}
	_ = json.Unmarshal(params, &op)
	res, err := pass()
	if err != nil {
		return res, err
	}
	var note string
	switch {
	case method == calls.MethodTab && op.Op != "list":
		note = fmt.Sprintf("tab %s is not in the routine: a routine has no tab steps; replay works in the current tab", op.Op)
	case method == calls.MethodDialog:
		note = "a dialog was answered; the routine has no dialog step, so a replay stops where the dialog opens"
	case method == calls.MethodStateLoad:
		note = "state load is not in the routine: load the same state before replaying"
	case (method == calls.MethodCookies || method == calls.MethodStorage) && op.Op != "get" && op.Op != "":
		note = fmt.Sprintf("%s %s is not in the routine: do the same before replaying", method, op.Op)
	}
	if note != "" {
		rec.note(note)
	}
	return res, nil
}

func (rec *recording) note(s string) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if !rec.done {
		rec.notes = append(rec.notes, fmt.Sprintf("after step %d: %s", len(rec.steps), s))
	}
}

// navigate does a navigation and records it as a goto with where it
// landed. An open's goto holds the URL asked for; back, forward and reload
// become a goto of the page reached.
func (rec *recording) navigate(ctx context.Context, p page, asked, how string, do func() (*calls.PageInfo, error)) (*calls.PageInfo, error) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	info, err := do()
	if err != nil || rec.done {
		return info, err
	}
	rec.met = nil // a dismissal is the action right after the popup met one
	url := asked
	if how != "" {
		url = info.URL
	}
	if url == "" {
		return info, nil
	}
	// The landing says whether the page was a sign-in page: a replay
	// stops at one the routine did not record.
	var notices []calls.Notice
	if snap, err := p.Snapshot(ctx, calls.SnapshotRequest{Interactive: true, Unseen: true}); err == nil {
		notices = snap.Notices
	}
	st := routine.GotoStep(url, info, notices)
	if how != "" {
		st.Instruction = how + " (recorded as opening the page it reached)"
	}
	st.ID = rec.id("open")
	rec.add(st)
	return info, nil
}

// act takes the element's evidence from the live page, does the action,
// and on success records it as a step.
func (rec *recording) act(ctx context.Context, p page, req calls.ActRequest) (*calls.Outcome, error) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.done {
		return p.Act(ctx, req)
	}
	if !recordedOps[req.Kind] {
		out, err := p.Act(ctx, req)
		switch {
		case err != nil:
		case req.Kind == calls.ActClickAt:
			// A point is no way to find a control again on another day:
			// the control the point hit is named, to be clicked by it.
			rec.notes = append(rec.notes, fmt.Sprintf("after step %d: click-at (%s) is not in the routine: a point is not found again when the page moves; click the control by its ref or a locator to record it", len(rec.steps), out.Pressed))
		default:
			rec.notes = append(rec.notes, fmt.Sprintf("after step %d: %s is not in the routine: a routine has no %s step", len(rec.steps), req.Kind, req.Kind))
		}
		return out, err
	}
	var ev *calls.Evidence
	if req.Target != "" {
		var err error
		if ev, err = p.Locate(ctx, calls.LocateRequest{Target: req.Target}); err != nil {
			return nil, err // the action would fail the same way; nothing was done
		}
	}
	place, err := rec.placeIn(ctx, p, ev)
	if err != nil {
		return nil, err // pressed in another row than the first: nothing was done
	}
	out, approved, err := pressAsPerson(ctx, p, req)
	met := rec.met
	rec.met, _ = calls.PopupOf(err) // a popup in the way: the next click may close it
	if err != nil {
		return out, err
	}
	before := len(*rec.stepList())
	rec.addAct(req, ev, place)
	rec.approve(before, approved)
	rec.dismissal(before, met, approved != nil)
	return out, nil
}

// dismissal marks the step just recorded as closing met, the popup that
// stopped or covered the action before it, when it is its dismissal
// (routine.MarkDismissal, the one rule for every recorder). submitted:
// the press needed a person's approval (a submit).
func (rec *recording) dismissal(before int, met *calls.Popup, submitted bool) {
	steps := *rec.stepList()
	if met == nil || len(steps) != before+1 {
		return
	}
	routine.MarkDismissal(&steps[before], met, submitted)
}

// addAct appends the step of a done element action.
func (rec *recording) addAct(req calls.ActRequest, ev *calls.Evidence, place string) {
	if ev == nil && req.Kind != calls.ActPress && req.Kind != calls.ActScroll {
		rec.notes = append(rec.notes, fmt.Sprintf("after step %d: %s without an element is not in the routine: give the element (a ref or a locator)", len(rec.steps), req.Kind))
		return
	}
	if req.Kind == calls.ActUpload && len(req.Files) > 1 {
		rec.notes = append(rec.notes, fmt.Sprintf("step %d: only the first of %d files is in the routine: a replay uploads one file", len(rec.steps)+1, len(req.Files)))
	}
	st := routine.ActStep(req, ev, func(fp *calls.Fingerprint, v string) *routine.Value {
		if f := rec.loop.field(v); f != "" && req.Secret == "" {
			return &routine.Value{Template: "%row." + f + "%"}
		}
		return rec.variable(fp, v, req.Secret) // set only for fill and type
	})
	if st.Target != nil {
		rec.scrub(st.Target)
		if place != "" {
			st.Target.Positional, st.Target.Place = true, place
		}
	}
	st.Instruction = routine.Words(&st)
	st.ID = rec.id(routine.StepName(&st))
	rec.add(st)
}

// variable proposes a variable for a value typed or chosen in the field
// fp (nil: no field). A value the caller named as a secret (act --secret:
// calls.ActRequest.Secret, whose name the variable takes), a value that
// looks like a credential, or one typed into a field secret.Field calls
// secret (a password, a CVC, a one-time code) is a secret. The same value
// typed again into a field of the same name, or a secret typed again
// anywhere (a password confirmed), reuses the variable.
func (rec *recording) variable(fp *calls.Fingerprint, value, secretName string) *routine.Value {
	isSecret := secretName != "" || secret.LooksSecret(value) || secretField(fp) || rec.isSecretValue(value)
	base := routine.VariableName(fp, isSecret)
	if secretName != "" {
		base = secretName
	}
	from := "input"
	if isSecret {
		from = "secret"
	}
	for _, v := range rec.vars {
		if v.Secret == isSecret && rec.values[v.Name] == value && (v.base == base || isSecret && value != "") {
			return &routine.Value{From: from, Slot: v.Name}
		}
	}
	name := base
	for i := 2; rec.taken(name); i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	rec.vars = append(rec.vars, proposed{Variable: routine.Variable{Name: name, Secret: isSecret}, base: base})
	rec.values[name] = value
	if isSecret {
		rec.secrets.Add(name, value)
	}
	return &routine.Value{From: from, Slot: name}
}

// secretField reports whether fp is a field whose value is a secret.
func secretField(fp *calls.Fingerprint) bool {
	if fp == nil {
		return false
	}
	words := strings.Join([]string{fp.Label, fp.Name, fp.Placeholder, fp.ID, fp.TestID}, " ")
	return secret.Field{Words: words, Type: fp.Type}.Secret()
}

// isSecretValue reports a value typed before as a secret.
func (rec *recording) isSecretValue(value string) bool {
	for _, v := range rec.vars {
		if v.Secret && value != "" && rec.values[v.Name] == value {
			return true
		}
	}
	return false
}

func (rec *recording) taken(name string) bool {
	if name == "row" { // reserved for each's current item
		return true
	}
	_, ok := rec.values[name]
	return ok
}

// scrub keeps secret values typed earlier out of a target: a field
// located again after a password went into it may show it.
func (rec *recording) scrub(t *routine.Target) {
	has := func(s string) bool {
		_, ok := rec.secrets.Contains(s)
		return s != "" && ok
	}
	fp := &t.Fingerprint
	for _, f := range []*string{&fp.Text, &fp.Name, &fp.Label, &fp.Placeholder} {
		if has(*f) {
			*f = ""
		}
	}
	if has(t.Locator) {
		t.Locator = ""
	}
	if fp.Row != nil && has(fp.Row.Key) {
		fp.Row = nil
	}
	kept := t.Candidates[:0:0]
	for _, c := range t.Candidates {
		if !has(c.Value) {
			kept = append(kept, c)
		}
	}
	t.Candidates = kept
}

// id returns a step id from base not used yet.
func (rec *recording) id(base string) string {
	id := base
	for i := 2; rec.ids[id]; i++ {
		id = fmt.Sprintf("%s_%d", base, i)
	}
	rec.ids[id] = true
	return id
}

// NoStartPageNote is record stop's warning for a routine whose first step
// is not a goto: it was started on about:blank and its first action was
// not an open, so a replay in a session of its own stops at once.
func NoStartPageNote() string {
	return "warning: the routine has no start page (its first step is not an open): a replay in a new session starts on about:blank and stops at step 1; " + routine.NoStartPageHint()
}

// result is the routine recorded, as JSON, with the variables' values.
func (rec *recording) result(fallbackName string) (*calls.RecordStopResult, error) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	name := rec.name
	if name == "" {
		name = fallbackName
	}
	if name == "" {
		name = "recording"
	}
	r := routine.Routine{Format: routine.Format, Name: name, Version: 1, Steps: rec.steps}
	notes := rec.notes
	if each, ok := rec.loop.step(); ok {
		// Still inside a loop: the routine so far ends with it, as
		// record rows stop would have closed it.
		r.Steps = append(slices.Clip(r.Steps), each)
		notes = append(slices.Clip(notes), "the loop over rows was still open at record stop: it ends there")
	}
	if r.Steps == nil {
		r.Steps = []routine.Step{}
	}
	if !routine.HasStartPage(r.Steps) {
		notes = append(slices.Clip(notes), NoStartPageNote())
	}
	for _, v := range rec.vars {
		r.Variables = append(r.Variables, v.Variable)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	res := &calls.RecordStopResult{Routine: b, Notes: notes}
	if len(rec.values) > 0 {
		res.Values = rec.values
	}
	return res, nil
}
