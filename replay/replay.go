// Package replay does a recorded task again (a routine, package routine)
// through a session alone, with no model unless one is given to heal.
//
//	r, err := routine.Load("checkout.routine.json")
//	…
//	res, err := replay.Run(ctx, s, r, replay.Options{ // s: a *driver.Session
//		Vars: map[string]string{"email": "ann@example.com"},
//	})
//	if err != nil { … }                // input that cannot be replayed at all
//	if res.Status != replay.StatusOK { // a stop is a result, not an error
//		fmt.Println(res.Cause, res.Message, res.Hint)
//	}
//
// A goto, act or verify step on a page that still matches costs no model
// call; an element that moved is found by its fingerprint, still with none.
// Run stops at the first step it cannot do with confidence and says why in
// [Result.Cause] (landed-elsewhere, sign-in, replaced, missing,
// needs-approval, …), each [Cause] with a [Cause.Hint]. With
// [Options.Model] a missing or renamed element costs one heal call and
// extract steps with no fitting recipe are read; without one they stop
// (missing, replaced, needs-model).
//
// A step that would send, pay, delete or confirm is not pressed by default
// (Options.Submits "ask"): the replay stops as needs-approval, unless
// [Options.Approve] asks a person, Submits is "allow", or the routine's
// recorded approval holds by the approval authority's word
// ([Options.Approvals], package approval). A send the control's handler
// makes a moment after its step (a timer, a debounce) is stopped by the
// driver's gate as well, and stops the replay as needs-approval once a
// look of the page tells it: before a goto, at a failed check, or at the
// end.
//
// A replay moves the pointer and types at a person's pace by default;
// [Options.NoHand] runs it at the driver's speed. Heals are kept as the
// routine's next version ([Result.Routine]) as [Options.KeepHeals] says.
// [Drift] checks, acting on nothing, whether a routine's elements still
// resolve; [SignIn] runs a site API recipe's sign-in routine.
package replay

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/lazyre"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
	"github.com/waymark-dev/waymark/siteapi"
)

// KeepHeals values: what happens to a routine healed during a replay.
const (
	KeepAlways = "always" // the result carries the next version, to save over the file
	KeepAsk    = "ask"    // the next version is marked pending, to save beside the file
	KeepNever  = "never"  // heals are reported and dropped
)

// Submits values: whether a step that would send, pay, delete or confirm
// is pressed.
const (
	SubmitsAsk   = "ask"   // stop the replay as needs-approval, nothing pressed (the default)
	SubmitsAllow = "allow" // press it
)

// Options tune a replay. The zero value is valid: no variables, no
// model (a missing element stops the replay), heals kept as pending,
// submits stopped for approval, a person's moves on.
type Options struct {
	// Vars are the values of plain variables; a list variable's value is a
	// JSON array.
	Vars map[string]string
	// Secrets are the values of secret variables. They reach the page and
	// nothing else: never a prompt, a result or a progress event.
	Secrets map[string]secret.Value
	// Model heals a missing element, or a different one standing in its
	// place (a rename), with one call (purpose heal), and reads extract
	// steps. Its pick of a step that would send, pay, delete or confirm is
	// asked for again whatever Submits says; no pick stops as missing or
	// replaced. Nil means no model: a missing element stops the replay as
	// missing, a replaced one as replaced, an extract step as needs-model.
	Model pilot.Model
	// Memory keeps notes about sites across replays: a heal is shown the
	// notes on the page's site, and told what it found (a control's new
	// name, a list whose recipe was learned again), never a value the
	// replay typed. Nil keeps none.
	Memory pilot.Memory
	// KeepHeals is always, ask or never; empty means ask.
	KeepHeals string
	// Submits goes to every act: "ask" (or empty, the default) makes a
	// step that would send, pay, delete or confirm stop the replay as
	// needs-approval, with nothing pressed; "allow" presses it (someone
	// approved the routine's submits for this replay, as --allow-submit
	// does).
	Submits string
	// Approve, when set, is asked about a step that would send, pay,
	// delete or confirm and that Submits does not let through (nor the
	// person's approval recorded with the step): a person's answer. True
	// presses it, if the page still matches a; false, or an error, stops
	// the replay as needs-approval. step is the step's id or path.
	Approve func(ctx context.Context, step string, a calls.Approval) (bool, error)
	// Approvals is the approval authority's word on the routine's recorded
	// approvals (package approval: Authority.Load, or a batch's Relayed):
	// a step a person approved when recording is pressed without asking
	// only when it holds for the routine run. Nil: the routine's recorded
	// approvals are no one's, and its submits ask like any other.
	Approvals *approval.Trust
	// Progress, when set, is called after each step, in order.
	Progress func(StepEvent)
	// Sheet dumps the grid of the spreadsheet the page shows, for extract
	// steps with a grid recipe; nil means the session's SheetDump.
	Sheet pilot.SheetDump
	// Now is the clock for history entries and for the relative dates
	// ("3 hours ago") of lists read by a recipe; nil means time.Now.
	Now func() time.Time
	// CheckTimeout bounds how long a verify step waits for the page to
	// show what it checks; zero means 5 s, negative means one look.
	CheckTimeout time.Duration
	// NoHand turns off a person's moves and pace (calls.ActRequest.Hand:
	// pointer paths, typing cadence), which a replay uses by default so
	// pages with hover menus and debounced fields behave as they did when
	// recorded. With NoHand a replay runs at the driver's speed.
	NoHand bool
	// NetLog, when set, sums up what Chromium's NetLog saw during a step
	// that stopped the replay as blocked, unreachable or timed out (a
	// goto that could not open or was answered with an error status, a
	// navigation error, a timeout): it gets the step's span and returns
	// one line for the step's result ([StepResult].NetLog), such as
	// "GET https://shop.example/: ERR_CONNECTION_RESET before any
	// answer, after the request was sent (TLS 1.3, h2)". The step is not
	// run again: the browser logs all along, and a second run of a step
	// that may have sent something could send it twice. Nil means no
	// such evidence.
	NetLog func(ctx context.Context, since, until time.Time) (string, error)
	// Capture, when set, records the session's network while the browser
	// steps of an api step whose API changed run, so the API is learned
	// again from what they read (a heal of kind api). Nil means the
	// session's own capture (StartCapture and StopCapture; a capture the
	// person runs already is read and left running).
	Capture CaptureFunc
	// SignIn runs the sign-in routine an api step's recipe names
	// (relogin) when the site refuses the session: once a call, then the
	// call is made again (siteapi.Relogin). The routine's path is as the
	// recipe gives it, relative to the routine's file. Nil: an auth
	// failure stops the replay.
	SignIn siteapi.SignIn
	// Dir is the routine file's folder, a whole path: a relative file path
	// the routine writes itself (an upload step's or a form answer's
	// literal or template) is read from there, as its author, who wrote
	// it beside the file, expects, and as relogin is. VarsDir is the
	// folder of whoever gave the values of its variables (and rows): a
	// relative path that is a variable's whole value is read from there,
	// the working folder of the `waymark replay --var cv=cv.pdf` it was
	// typed (and tab-completed) in. Either empty sends such a path with no
	// folder: a driver in this process reads it from the process's folder,
	// the daemon refuses it with a hint to give it whole
	// (driver.Options.RemoteCallers), as it does a batch row's, whose
	// worker has no folder of the submitter's.
	Dir, VarsDir string
}

// Result is what a replay did.
type Result struct {
	Status     string                     `json:"status"` // ok, stopped or canceled
	Cause      Cause                      `json:"cause,omitempty"`
	Message    string                     `json:"message,omitempty"`
	Hint       string                     `json:"hint,omitempty"`
	Steps      []StepResult               `json:"steps"`
	Heals      []Heal                     `json:"heals,omitempty"`
	Data       map[string]json.RawMessage `json:"data,omitempty"` // extracted, by the extract step's into (or id)
	ModelCalls int                        `json:"model_calls"`
	DurMS      int64                      `json:"dur_ms"`
	// Routine is the healed next version, when heals were made and kept
	// (KeepHeals always or ask; with ask it is marked Pending).
	Routine *routine.Routine `json:"routine,omitempty"`
}

// Result statuses.
const (
	StatusOK       = "ok"
	StatusStopped  = "stopped"
	StatusCanceled = "canceled"
)

// StepSkipped is the status of a step not taken, with why in its Detail:
// a recorded popup dismissal whose popup is not open.
const StepSkipped = "skipped"

// StepResult is the outcome of one step (one per row inside each).
type StepResult struct {
	ID     string `json:"id,omitempty"`
	Path   string `json:"path"` // steps[3], steps[5].do[0]
	Kind   string `json:"kind"`
	Op     string `json:"op,omitempty"`
	Row    *int   `json:"row,omitempty"`    // inside each: the item's index
	Status string `json:"status"`           // ok, healed, skipped (StepSkipped), stopped
	DurMS  int64  `json:"dur_ms"`           // time the step took
	Ref    string `json:"ref,omitempty"`    // the element acted on
	Heal   *Heal  `json:"heal,omitempty"`   // what changed, when the element was healed
	Error  string `json:"error,omitempty"`  // why it stopped
	Detail string `json:"detail,omitempty"` // for people: where a goto landed, what a check saw
	// Closed says the popup that met the step, closed with the routine's
	// recorded dismissal before the step was taken again.
	Closed string `json:"closed,omitempty"`
	// NetLog is what Chromium's NetLog saw in the span of a step that
	// stopped as blocked, unreachable or timed out (Options.NetLog).
	NetLog string `json:"netlog,omitempty"`
}

// StepEvent is one progress report: a step done.
type StepEvent struct {
	N    int        // steps done so far, this one included
	Of   int        // top-level steps of the routine
	Step StepResult // the step's outcome
}

// Heal is one element found again on a changed page.
type Heal struct {
	Step   string `json:"step"` // the step's id, or its path
	Path   string `json:"path"`
	How    string `json:"how"`    // "moved": found by its fingerprint, no model; "model": chosen by one heal call
	Before string `json:"before"` // the recorded locator
	After  string `json:"after"`  // the locator now
	Reason string `json:"reason,omitempty"`
}

// Heal ways.
const (
	HealMoved = "moved"
	HealModel = "model"
)

// Run replays a routine's steps through the session alone. It calls the
// model only to heal a missing element (one call) and to read extract
// steps; a routine of goto, act and verify steps on pages that still match
// makes no model call. It stops at the first step it cannot do with
// confidence and says why in the result's Cause. The error is for input
// that cannot be replayed at all (a variable with no value); a stop is a
// result, not an error.
//
// The session is the whole contract ([calls.Session]): a routine's forms,
// sheets, documents, API calls and recipe loops are calls of it, checked
// by the compiler, so a wrapper around a session (the batch worker's
// journal) keeps every step it does not override rather than hiding it.
func Run(ctx context.Context, d calls.Session, r *routine.Routine, opts Options) (*Result, error) {
	if err := routine.Validate(r); err != nil {
		return nil, err
	}
	x, err := newRun(d, r, opts)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	err = x.steps(ctx, x.healed.Steps, "steps", nil)
	if err == nil {
		err = x.landed(ctx)
	}
	res := x.res
	res.DurMS = time.Since(start).Milliseconds()
	if x.model != nil {
		res.ModelCalls = int(x.model.n.Load())
	}
	var st *stop
	switch {
	case err == nil:
		res.Status = StatusOK
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		res.Status, res.Cause, res.Message = StatusCanceled, CauseCanceled, "canceled"
		res.Hint = CauseCanceled.Hint()
	case errors.As(err, &st):
		res.Status, res.Cause, res.Message = StatusStopped, st.cause, x.known.Redact(st.msg)
		res.Hint = cmp.Or(st.hint, st.cause.Hint())
	default:
		res.Status, res.Cause, res.Message = StatusStopped, CauseFailed, x.known.Redact(err.Error())
		res.Hint = calls.Hint(err)
		if res.Hint == "" {
			res.Hint = CauseFailed.Hint()
		}
	}
	if len(res.Heals) > 0 && opts.KeepHeals != KeepNever {
		next := x.healed
		from := max(r.Version, 1)
		next.Version = from + 1
		next.Pending = opts.KeepHeals != KeepAlways
		at := x.now().UTC().Round(time.Second)
		for _, h := range res.Heals {
			note := "healed: found by its fingerprint (no model)"
			switch h.How {
			case HealModel:
				note = "healed: chosen by one model call"
			case HealRecipe:
				note = "healed: the recipe no longer fitted (" + h.Reason + "); learned again with one model call"
			case HealAPI:
				note = "healed: the site's API changed (" + h.Reason + "); learned again from what the browser steps read"
			}
			next.History = append(next.History, routine.Change{Version: next.Version, At: at, Note: note, Step: h.Step, Before: h.Before, After: h.After})
		}
		res.Routine = next
	}
	return res, nil
}

// landed waits, once every step has been taken, for the rest of the last
// action's settle: an action answers as soon as what it did is known and
// leaves the page's load and the requests it set going to the tab's
// pending settle, which the tab's next command waits for and whose failure
// it tells (a load that never ended, a navigation the URL policy refused).
// A replay's ok means its last step's requests were answered, so it ends
// with such a command rather than leave the outcome to whoever comes next
// (a replay that is the last command would never hear it). The command is
// the cheapest the tab has (its URL).
func (x *run) landed(ctx context.Context) error {
	if _, err := x.d.Get(ctx, calls.GetRequest{What: "url"}); err != nil {
		return fmt.Errorf("after the last step: %w", err)
	}
	return x.lateStop(ctx) // late.go
}

// stop is a replay that cannot go on with confidence.
type stop struct {
	cause Cause
	msg   string
	hint  string // what to do, when the cause's own hint does not fit
	// wire: the site refused or did not answer (an API call that met a
	// server error or kept answering 429), so the NetLog may say why.
	wire bool
}

func (s *stop) Error() string { return string(s.cause) + ": " + s.msg }

func stopf(c Cause, format string, args ...any) error {
	return &stop{cause: c, msg: fmt.Sprintf(format, args...)}
}

// run is one replay's state. It belongs to the goroutine that runs it.
type run struct {
	d      calls.Session
	opts   Options
	model  *countingModel // nil: no model
	known  *secret.Set    // the secret values, to mask
	vars   map[string]routine.Variable
	lists  map[string][]any
	healed *routine.Routine // a copy of the routine, healed as the replay goes
	res    *Result
	done   int
	// onSignIn: the routine recorded the page as a sign-in page (the last
	// goto's landed.sign_in) and no step since may have left it.
	onSignIn bool
	// opened: a goto step ran, so the tab shows a page the routine chose.
	opened bool
	// untrusted says why the routine's recorded approvals are not a
	// person's ("" when they are): [Options.Approvals].
	untrusted string
	// asked: an act step asked for submits, so the gate may have stopped
	// what its control sent after it (late.go).
	asked bool
}

// strayValues says which given values name no variable of r, with the
// routine's variables, for the error of a variable left without a value:
// a typo (--var emial=…) is then named beside the variable it missed. A
// stray value alone is no error: a sign-in or a batch row may carry more
// names than the routine uses. "" when every given name is a variable.
func strayValues(r *routine.Routine, opts Options) string {
	known := map[string]bool{}
	names := make([]string, 0, len(r.Variables))
	for _, v := range r.Variables {
		known[v.Name] = true
		names = append(names, v.Name)
	}
	var stray []string
	for name := range opts.Vars {
		if !known[name] {
			stray = append(stray, name)
		}
	}
	for name := range opts.Secrets {
		if !known[name] {
			stray = append(stray, name)
		}
	}
	if len(stray) == 0 {
		return ""
	}
	slices.Sort(stray)
	return fmt.Sprintf(" (%s names no variable of this routine; its variables: %s)", strings.Join(stray, ", "), strings.Join(names, ", "))
}

func newRun(d calls.Session, r *routine.Routine, opts Options) (*run, error) {
	x := &run{d: d, opts: opts, known: new(secret.Set), vars: map[string]routine.Variable{}, lists: map[string][]any{},
		res: &Result{Steps: []StepResult{}, Data: map[string]json.RawMessage{}}, untrusted: opts.Approvals.Why(r)}
	if opts.Model != nil {
		x.model = &countingModel{m: opts.Model}
	}
	switch opts.KeepHeals {
	case "", KeepAlways, KeepAsk, KeepNever:
	default:
		return nil, calls.Errorf(calls.ErrBadInput, "use always, ask or never", "unknown keep-heals %q", opts.KeepHeals)
	}
	switch opts.Submits {
	case "", SubmitsAsk, SubmitsAllow:
	default:
		return nil, calls.Errorf(calls.ErrBadInput, "use ask or allow", "unknown submits %q", opts.Submits)
	}
	for name, v := range opts.Secrets {
		x.known.Add(name, v.Reveal())
	}
	for _, v := range r.Variables {
		x.vars[v.Name] = v
		switch {
		case v.Secret:
			if _, ok := opts.Secrets[v.Name]; !ok {
				return nil, calls.Errorf(calls.ErrBadInput, fmt.Sprintf("pass it with --secret %s=env:VAR", v.Name), "no value for the secret variable %q%s", v.Name, strayValues(r, opts))
			}
		case v.List:
			raw, ok := opts.Vars[v.Name]
			if !ok {
				return nil, calls.Errorf(calls.ErrBadInput, fmt.Sprintf(`pass it as a JSON array: --var '%s=[{"field":"…"}]'`, v.Name), "no value for the list variable %q%s", v.Name, strayValues(r, opts))
			}
			var items []any
			if err := json.Unmarshal([]byte(raw), &items); err != nil {
				return nil, calls.Errorf(calls.ErrBadInput, fmt.Sprintf(`pass it as a JSON array: --var '%s=[{"field":"…"}]'`, v.Name), "the list variable %q is not a JSON array: %v", v.Name, err)
			}
			x.lists[v.Name] = items
		default:
			if _, ok := opts.Vars[v.Name]; !ok {
				return nil, calls.Errorf(calls.ErrBadInput, fmt.Sprintf("pass it with --var %s=…", v.Name), "no value for the variable %q%s", v.Name, strayValues(r, opts))
			}
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	x.healed = new(routine.Routine)
	if err := json.Unmarshal(b, x.healed); err != nil {
		return nil, err
	}
	return x, nil
}

func (x *run) now() time.Time {
	if x.opts.Now != nil {
		return x.opts.Now()
	}
	return time.Now()
}

// row is the current item of an each.
type row struct {
	index int
	item  any
	// In an each with a recipe: the recipe, and the row's place in the
	// list now (where a step's control in the row is found).
	recipe *recipe.Recipe
	at     int
}

func (x *run) steps(ctx context.Context, steps []routine.Step, where string, rw *row) error {
	for i := range steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		s := &steps[i]
		path := fmt.Sprintf("%s[%d]", where, i)
		if err := x.step(ctx, s, path, rw); err != nil {
			return err
		}
	}
	return nil
}

// step runs one step and reports it.
func (x *run) step(ctx context.Context, s *routine.Step, path string, rw *row) error {
	sr := StepResult{ID: s.ID, Path: path, Kind: s.Kind, Op: s.Op, Status: "ok"}
	if rw != nil {
		i := rw.index
		sr.Row = &i
	}
	start := time.Now()
	var err error
	switch s.Kind {
	case routine.KindGoto:
		x.opened = true
		err = x.gotoStep(ctx, s, rw, &sr)
	case routine.KindAct:
		if s.Dismisses != nil {
			err = x.dismissStep(ctx, s, path, &sr) // popups.go
			break
		}
		err = x.actStep(ctx, s, path, rw, &sr)
	case routine.KindVerify:
		err = x.verifyStep(ctx, s, path, rw, &sr)
	case routine.KindExtract:
		err = x.extractStep(ctx, s, path, &sr)
	case routine.KindForm:
		err = x.formStep(ctx, s, path, rw, &sr)
	case routine.KindSheetRead, routine.KindSheetWrite, routine.KindSheetFill:
		err = x.sheetStep(ctx, s, path, rw, &sr)
	case routine.KindDocInsert, routine.KindDocRead:
		err = x.docStep(ctx, s, path, rw, &sr) // doc.go
	case routine.KindAPI:
		err = x.apiStep(ctx, s, path, rw, &sr)
	case routine.KindIf:
		var ok bool
		ok, sr.Detail, err = x.check(ctx, s.Check, path, rw, -1)
		if err == nil {
			branch, name := s.Then, "then"
			if !ok {
				branch, name = s.Else, "else"
			}
			sr.Detail = fmt.Sprintf("%s: %s", name, sr.Detail)
			sr.DurMS = time.Since(start).Milliseconds()
			x.report(sr)
			return x.steps(ctx, branch, path+"."+name, rw)
		}
	case routine.KindEach:
		if s.Recipe != nil {
			return x.eachRecipe(ctx, s, path, sr, start)
		}
		var items []any
		items, err = x.items(s.Over)
		if err == nil {
			sr.Detail = fmt.Sprintf("%d item(s) of %s", len(items), s.Over)
			sr.DurMS = time.Since(start).Milliseconds()
			x.report(sr)
			for i, it := range items {
				if err := x.steps(ctx, s.Do, path+".do", &row{index: i, item: it}); err != nil {
					return err
				}
			}
			return nil
		}
	default:
		err = fmt.Errorf("unknown step kind %q", s.Kind)
	}
	sr.DurMS = time.Since(start).Milliseconds()
	if err != nil {
		sr.Status = "stopped"
		if ctx.Err() != nil {
			sr.Status = StatusCanceled
		}
		var st *stop
		if errors.As(err, &st) {
			sr.Error = x.known.Redact(st.msg)
		} else {
			sr.Error = x.known.Redact(err.Error())
		}
		if x.opts.NetLog != nil && ctx.Err() == nil && belowDevTools(err) {
			sr.NetLog = x.netLog(ctx, start)
		}
	}
	x.report(sr)
	return err
}

// belowDevTools reports whether a step's failure may have its cause on
// the wire, where DevTools often shows nothing: the site refused or did
// not answer (a goto that could not open, an error status, a navigation
// error, an API call that met a server error or a rate limit) or the step
// timed out.
func belowDevTools(err error) bool {
	var st *stop
	if errors.As(err, &st) {
		return st.cause == CauseLandedAway || st.wire
	}
	return errors.Is(err, calls.ErrTimeout) || errors.Is(err, calls.ErrNavigation)
}

// netLog is the NetLog's line on a failed step that began at start,
// masked like the step's error.
func (x *run) netLog(ctx context.Context, start time.Time) string {
	cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	line, err := x.opts.NetLog(cctx, start, time.Now())
	switch {
	case err != nil:
		line = "no NetLog: " + err.Error()
	case line == "":
		line = "the NetLog shows no failed request in the step's time"
	}
	return x.known.Redact(line)
}

func (x *run) report(sr StepResult) {
	// A step's detail may hold a URL a secret was put into (a goto of
	// ?token=%key%): masked like the messages beside it.
	sr.Detail = x.known.Redact(sr.Detail)
	if sr.Heal != nil && sr.Status == "ok" {
		sr.Status = "healed"
	}
	x.res.Steps = append(x.res.Steps, sr)
	x.done++
	if x.opts.Progress != nil {
		x.opts.Progress(StepEvent{N: x.done, Of: len(x.healed.Steps), Step: sr})
	}
}

// items returns the rows an each goes over: a list variable, an extract
// that is a list or an object holding one list, or a field of an extract
// named with a dot ("products.items", "page.results.rows").
func (x *run) items(over string) ([]any, error) {
	if items, ok := x.lists[over]; ok {
		return items, nil
	}
	name, path, _ := strings.Cut(over, ".")
	raw, ok := x.res.Data[name]
	if !ok {
		return nil, stopf(CauseFailed, "each goes over %q, which no earlier step extracted", name)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	if path != "" {
		for _, field := range strings.Split(path, ".") {
			obj, isObj := v.(map[string]any)
			if !isObj {
				return nil, stopf(CauseFailed, "each goes over %q, but what %s extracted has no field %q here", over, name, field)
			}
			if v, ok = obj[field]; !ok {
				return nil, stopf(CauseFailed, "each goes over %q, but what %s extracted has no field %q (it has: %s)", over, name, field, fieldNames(obj))
			}
		}
	}
	switch t := v.(type) {
	case []any:
		return t, nil
	case map[string]any:
		// An extract answering {"items": [...]}: its one list.
		var lists []string
		for k, f := range t {
			if _, ok := f.([]any); ok {
				lists = append(lists, k)
			}
		}
		if len(lists) == 1 {
			return t[lists[0]].([]any), nil
		}
		if len(lists) > 1 {
			slices.Sort(lists)
			return nil, stopf(CauseFailed, "each goes over %q, which holds %d lists (%s): name one, as in \"over\": \"%s.%s\"",
				over, len(lists), strings.Join(lists, ", "), over, lists[0])
		}
	case nil:
		return nil, nil
	}
	return nil, stopf(CauseFailed, "each goes over %q, which is not a list", over)
}

// fieldNames lists an object's fields, sorted, for a message.
func fieldNames(obj map[string]any) string {
	names := slices.Sorted(maps.Keys(obj))
	return strings.Join(names, ", ")
}

// countingModel counts the calls a replay makes.
type countingModel struct {
	m pilot.Model
	n atomic.Int64
}

func (c *countingModel) Next(ctx context.Context, t pilot.Turn) (pilot.Reply, error) {
	c.n.Add(1)
	return c.m.Next(ctx, t)
}

// value is what a step types or chooses, with variables filled in.
func (x *run) value(v *routine.Value, rw *row) (string, error) {
	switch {
	case v == nil:
		return "", nil
	case v.Slot != "":
		return x.lookup(v.Slot, rw)
	case v.Template != "":
		return x.expand(v.Template, rw)
	}
	return v.Literal, nil
}

// fileDir is the folder a relative file path that v gives is read from:
// the caller's (Options.VarsDir) for a variable's or a row's value, the
// routine's (Options.Dir) for a literal or a template the routine writes.
func (x *run) fileDir(v *routine.Value) string {
	if v != nil && v.Slot != "" {
		return x.opts.VarsDir
	}
	return x.opts.Dir
}

// lookup returns a variable's value: a secret, a plain value, or a field
// of the current row.
func (x *run) lookup(name string, rw *row) (string, error) {
	if name == "row" || strings.HasPrefix(name, "row.") {
		if rw == nil {
			return "", fmt.Errorf("%%%s%% outside an each", name)
		}
		return rowField(rw.item, strings.TrimPrefix(strings.TrimPrefix(name, "row"), "."))
	}
	if s, ok := x.opts.Secrets[name]; ok && x.vars[name].Secret {
		return s.Reveal(), nil
	}
	if v, ok := x.opts.Vars[name]; ok {
		return v, nil
	}
	return "", calls.Errorf(calls.ErrBadInput, fmt.Sprintf("pass it with --var %s=…", name), "no value for %%%s%%", name)
}

// rowField reads field (dotted) of an item; "" is the item itself.
func rowField(item any, field string) (string, error) {
	v := item
	if field != "" {
		for _, f := range strings.Split(field, ".") {
			m, ok := v.(map[string]any)
			if !ok {
				return "", stopf(CauseFailed, "the row has no field %q", field)
			}
			if v, ok = m[f]; !ok {
				return "", stopf(CauseFailed, "the row has no field %q", field)
			}
		}
	}
	switch t := v.(type) {
	case string:
		return t, nil
	case nil:
		return "", nil
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// expand fills %name% and %row.field% in s.
func (x *run) expand(s string, rw *row) (string, error) {
	var firstErr error
	out := varRef.ReplaceAllStringFunc(s, func(m string) string {
		v, err := x.lookup(m[1:len(m)-1], rw)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return v
	})
	return out, firstErr
}

// varRef matches %name% and %row.field%.
var varRef = lazyre.New(`%([A-Za-z_][A-Za-z0-9_.-]*)%`)
