package pilot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// Why a run ended without the task done. Each is surfaced as a recovering
// event before the run stops, then as an error event. A bot check ends it
// with [ErrBlocked].
var (
	// ErrRepeats: the model proposed an operation already recorded three
	// times in a row.
	ErrRepeats = errors.New("the model kept repeating steps already done")
	// ErrUndecodable: three answers in a row could not be used.
	ErrUndecodable = errors.New("the model's answers could not be used")
	// ErrBudget: the run used its turns (RunOptions.MaxSteps) or tokens
	// (RunOptions.MaxTokens) without finishing.
	ErrBudget = errors.New("the run's budget is spent")
	// ErrBreaker: too many steps failed their checks (RunOptions.FailRate
	// over RunOptions.Window).
	ErrBreaker = errors.New("too many steps failed their checks")
	// ErrHandOver: the model needs a person (need_login, need_input) and
	// there is no RunOptions.Ask to ask one.
	ErrHandOver = errors.New("the task needs a person and no one can be asked")
	// ErrCanceled: the run's context was canceled. It wraps
	// context.Canceled, so errors.Is(err, context.Canceled) holds, and it
	// is reported as a canceled event, not as an error.
	ErrCanceled = fmt.Errorf("the run was canceled: %w", context.Canceled)
)

// Defaults of [RunOptions].
const (
	DefaultMaxSteps = 64
	DefaultWindow   = 50
	DefaultFailRate = 0.2
	// breakerMin is how many verdicts the breaker waits for before it may
	// halt a run.
	breakerMin = 5
	// guardLimit is how many repeats or undecodable answers in a row end a
	// run.
	guardLimit = 3
)

// RunOptions tune one run of the agent loop. The zero value is valid.
type RunOptions struct {
	// Inputs are the declared inputs with sample values: the model sees
	// their names and types them as %name%; the page gets the sample, and
	// the routine records a reference to the slot.
	Inputs map[string]string
	// Secrets are the declared secret slots. The model sees their names
	// only; their values are typed at the driver call and masked everywhere.
	Secrets map[string]secret.Value
	// MaxSteps bounds the model turns; zero means [DefaultMaxSteps].
	MaxSteps int
	// MaxTokens bounds the input plus output tokens of all model calls;
	// zero means no bound.
	MaxTokens int
	// Window is how many of the latest verdicts the breaker weighs; zero
	// means [DefaultWindow].
	Window int
	// FailRate is the share of failed verdicts in the window above which
	// the run halts (once it holds at least 5); zero means
	// [DefaultFailRate].
	FailRate float64
	// OnEvent receives every event, masked, in order, on the run's
	// goroutine; nil drops them.
	OnEvent func(Event)
	// Ask hands over to a person for a sign-in or a missing value; nil
	// makes need_login and need_input end the run with [ErrHandOver].
	Ask func(ctx context.Context, req AskRequest) (string, error)
	// AllowSubmit lets steps that send, pay, delete or confirm go ahead
	// (invariant 5). Without it such a step is put to Ask as an approval
	// (Kind "approve"; an answer of "y" or "yes" approves), or, with no
	// Ask or when Ask fails (no one could answer), ends the run with
	// calls.ErrNeedsApproval.
	AllowSubmit bool
	// Record makes RunResult.Routine hold the routine of the run.
	Record bool
	// Screenshots sends the view's picture with every turn, as
	// Options.Vision = VisionAlways does for this run alone.
	//
	// Deprecated: set Options.Vision, which rules act's and extract's
	// pictures too; the default, VisionAuto, sends one when the outline
	// is thin for what the view shows.
	Screenshots bool
	// BotCheckWait is how long the run waits, once, at a bot check that
	// may clear by itself (a vendor's interstitial that runs a script and
	// reloads) before it looks again; if the check is still there, the
	// run stops with [ErrBlocked]. Any other bot check or block stops the
	// run at once, before the model is asked. Zero means 5 s; negative
	// means no wait.
	BotCheckWait time.Duration
	// NoHand turns off a person's pace (pointer paths, typing cadence) in
	// the run's page actions; the zero value keeps it on, as for
	// [Pilot.Act].
	NoHand bool
	// VerifyWait is how long a failing check is retried while the page
	// may still be changing; zero means 2 s, negative means no retry.
	VerifyWait time.Duration
	// Now is the clock for the run's duration and the checks' waits; nil
	// means time.Now.
	Now func() time.Time
	// Extract, when set, reads data once the task is done (the result's
	// Data). A list (a schema that is an array of objects, or an object
	// holding one) learns its recipe, and a recorded routine ends with an
	// extract step holding it, so a replay reads the list with no model.
	Extract *RunExtract
}

// AskRequest is a hand-over to a person: what the model needs, and the
// field the answer goes into.
type AskRequest struct {
	Kind   string `json:"kind"`   // "login", "input", or "approve" (a step that submits)
	Slot   string `json:"slot"`   // the name the answer is recorded under
	Prompt string `json:"prompt"` // what the model says it needs, masked
	Secret bool   `json:"secret"` // ask without echo; record as a secret slot
	Field  string `json:"field"`  // the outline line of the field the answer is typed into
}

// RunResult is the summary of a run. Run returns it whatever the outcome.
type RunResult struct {
	Done bool `json:"done"`
	// Reason is why the run ended: "done", "canceled", "blocked" (a bot
	// check, [ErrBlocked]), or the error in words.
	Reason     string           `json:"reason"`
	Steps      int              `json:"steps"` // steps recorded
	Turns      int              `json:"turns"`
	ModelCalls int              `json:"model_calls"`
	Usage      Usage            `json:"usage"`
	Duration   time.Duration    `json:"duration"`
	Routine    *routine.Routine `json:"routine,omitempty"` // when RunOptions.Record
	// Data is what RunOptions.Extract read; Recipe reads it again with no
	// model when it is a list, or RecipeNote says why there is none.
	Data       json.RawMessage `json:"data,omitempty"`
	Recipe     *recipe.Recipe  `json:"recipe,omitempty"`
	RecipeNote string          `json:"recipe_note,omitempty"`
}

// Run lets the model carry out a task on the page, one verified step a
// turn, until it is done, the guards stop it, or ctx is canceled. The
// result is never nil; the error is nil only when the task is done, and
// wraps [ErrCanceled] when ctx was canceled.
//
// API maturity: the agent loop is new; its options and events may change.
func (p *Pilot) Run(ctx context.Context, task string, opts RunOptions) (*RunResult, error) {
	r := newRun(p, task, opts)
	err := r.loop(ctx)
	return r.finish(ctx, err)
}

// run is the state of one Run. It lives on the run's goroutine.
type run struct {
	p    *Pilot
	task string
	opts RunOptions
	vars Vars

	start time.Time
	res   RunResult

	steps []routine.Step
	// startURL is the page the run began on (the first observation's):
	// a recorded routine opens it first, so that it replays in a fresh
	// session.
	startURL string
	sigs     map[string]int // operation signature → index of the verified step that holds it
	lines    []string       // the steps so far, one short line each, for the model
	failures []string       // recent failures of the current step, for the model
	hints    []string       // one-turn hints (repeats), for the model
	slots    []routine.Variable

	lastOK      bool    // the last step's verification passed
	lastSig     string  // the last step's signature
	final       *expect // what showed the task done, when the model said
	repeats     int     // repeats in a row
	undecodable int     // undecodable answers in a row
	breaker     breaker
	extracted   *routine.Step // RunOptions.Extract's step, once read

	// met is the popup that stopped or covered the last action, until
	// the next action: a click right after it on the popup's own "No
	// thanks" is recorded as its dismissal (routine.MarkDismissal).
	met *calls.Popup
}

func newRun(p *Pilot, task string, o RunOptions) *run {
	if o.MaxSteps <= 0 {
		o.MaxSteps = DefaultMaxSteps
	}
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	if o.FailRate <= 0 {
		o.FailRate = DefaultFailRate
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	// The maps are copied: hand-overs add to them.
	r := &run{p: p, task: task, opts: o, vars: Vars{Values: maps.Clone(o.Inputs), Secrets: maps.Clone(o.Secrets)},
		sigs: map[string]int{}, breaker: breaker{window: o.Window, rate: o.FailRate}}
	r.start = o.Now()
	p.remember(r.vars)
	return r
}

// vision is the run's way of taking pictures: the pilot's, unless
// the run's options ask for one every turn.
func (r *run) vision() Vision {
	if r.opts.Screenshots {
		return r.p.vision(VisionAlways)
	}
	return r.p.vision("")
}

// loop runs turns until the task is done or a guard stops it.
func (r *run) loop(ctx context.Context) error {
	// Pictures a model cannot take are refused before the first turn.
	if err := r.p.checkVision(PurposeDecide, r.vision()); err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if r.res.Turns >= r.opts.MaxSteps {
			r.recovering("budget", fmt.Sprintf("%d turns used without finishing; stopping", r.res.Turns))
			return calls.WithHint(fmt.Errorf("%w: %d turns", ErrBudget, r.res.Turns), "raise --max-steps")
		}
		r.res.Turns++
		done, err := r.turn(ctx)
		if err != nil || done {
			return err
		}
	}
}

// turn observes, decides and applies once. It reports whether the task is
// done.
func (r *run) turn(ctx context.Context) (bool, error) {
	obs, err := r.observe(ctx)
	if err != nil {
		return false, err
	}
	if r.startURL == "" {
		r.startURL = obs.url
	}
	dec, err := r.decide(ctx, obs)
	if err != nil {
		return false, err
	}
	if dec == nil { // undecodable, already fed back
		return false, nil
	}
	r.emit(Event{Type: EventThought, Text: dec.Thought})
	switch dec.Action.Type {
	case "done":
		return r.done(ctx, dec)
	case "need_login", "need_input":
		return false, r.handOver(ctx, obs, dec)
	default:
		return false, r.act(ctx, obs, dec)
	}
}

// finish turns the loop's end into the result, the last event and the
// returned error.
func (r *run) finish(ctx context.Context, err error) (*RunResult, error) {
	if err == nil && r.opts.Extract != nil {
		err = r.extractDone(ctx)
	}
	r.res.Duration = r.opts.Now().Sub(r.start)
	r.res.Steps = len(r.steps)
	if r.opts.Record {
		r.res.Routine = r.routine()
	}
	switch {
	case err == nil:
		r.res.Done, r.res.Reason = true, "done"
		r.emit(Event{Type: EventDone, Text: "the task is done", Summary: r.summary()})
		return &r.res, nil
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled):
		err = ErrCanceled
		r.res.Reason = "canceled"
		r.emit(Event{Type: EventCanceled, Text: "canceled", Summary: r.summary()})
	case ctx.Err() != nil:
		err = fmt.Errorf("the run's deadline passed: %w", ctx.Err())
		r.res.Reason = r.p.mask(err.Error())
		r.emit(Event{Type: EventCanceled, Text: r.res.Reason, Summary: r.summary()})
	case errors.Is(err, ErrBlocked):
		r.res.Reason = "blocked"
		msg := r.p.mask(err.Error())
		r.emit(Event{Type: EventError, Text: msg, Error: msg, Summary: r.summary()})
	default:
		r.res.Reason = r.p.mask(err.Error())
		r.emit(Event{Type: EventError, Text: r.res.Reason, Error: r.res.Reason, Summary: r.summary()})
	}
	return &r.res, err
}

// summary is the copy of the result that rides on the last event.
func (r *run) summary() *RunResult {
	s := r.res
	s.Routine = nil
	return &s
}

// page calls the driver so that a canceled ctx abandons the call at once,
// even if the driver is slow to notice: the call goes on in a goroutine
// that ends when the driver returns, and its result is dropped.
func page[T any](ctx context.Context, f func(context.Context) (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1) // buffered: the goroutine never blocks on an abandoned call
	go func() {
		v, err := f(ctx)
		ch <- result{v, err}
	}()
	select {
	case res := <-ch:
		return res.v, res.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// snapshot takes an outline of the page.
func (r *run) snapshot(ctx context.Context, interactive bool) (*calls.Snapshot, error) {
	return page(ctx, func(ctx context.Context) (*calls.Snapshot, error) {
		// The turn's look measures the view when the picture rule reads it.
		view := interactive && r.p.wantsView(PurposeDecide, r.vision())
		return r.p.d.Snapshot(ctx, calls.SnapshotRequest{Interactive: interactive, Full: true, View: view})
	})
}
