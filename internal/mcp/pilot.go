package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// NewPilot builds a pilot over the browser of a waymark session. It is
// called once per tool call.
type NewPilot func(ctx context.Context, session string) (*pilot.Pilot, error)

// Replayer replays a routine on a session's browser: [replay.Run] over
// the session's driver, with the heal model (or none) set in opts.Model by
// whoever builds it. The tools set the rest of opts.
type Replayer func(ctx context.Context, session string, r *routine.Routine, opts replay.Options) (*replay.Result, error)

// PilotOptions tune [PilotTools].
type PilotOptions struct {
	// Session is the waymark session the tools act on outside a call of
	// this package's server; within one, the tools act on the calling
	// client's session.
	Session string
	// ActOnly offers act and no observe, extract or run: the model is the
	// rules model, which needs no key and does plain instructions only.
	ActOnly bool
	// Sheet, when set, says whether a session's page is a spreadsheet and
	// how to dump it (nil: it is not): extract then reads the sheet's
	// tables (extract_sheet.go).
	Sheet func(ctx context.Context, session string) (pilot.SheetDump, error)
	// Approvals is the approval authority replay asks whether a routine
	// file's recorded approvals are a person's (the CLI's is the user's,
	// approval.Default); nil: no file's are. It is only read here: no
	// tool approves anything.
	Approvals *approval.Authority
}

// The pilot tools' inputs.
type (
	actIn struct {
		Instruction string         `json:"instruction" jsonschema:"e.g. fill Email with %email%"`
		Vars        map[string]any `json:"vars,omitempty" jsonschema:"values of %name%"`
	}
	observeIn struct {
		Question string `json:"question"`
	}
	extractIn struct {
		Instruction string         `json:"instruction"`
		Schema      map[string]any `json:"schema"`
		List        map[string]any `json:"list,omitempty"` // extract_list.go
	}
	runIn struct {
		Task     string         `json:"task"`
		Inputs   map[string]any `json:"inputs,omitempty" jsonschema:"values of %name%"`
		MaxSteps int            `json:"max_steps,omitempty"`
		Record   bool           `json:"record,omitempty" jsonschema:"return the routine"`
	}
	replayIn struct {
		Routine any            `json:"routine" jsonschema:"routine JSON or file path"`
		Vars    map[string]any `json:"vars,omitempty"`
	}
)

// PilotTools returns what adds the model's tools to a server, for
// [Options.Extra]: act (and, unless opts.ActOnly, observe, extract and
// run) when newPilot is set, and replay when replayer is set.
//
// act answers as click does, with the changes since the agent's last
// look; the others answer with their result alone, and the last look
// stays what it was, so the next action's changes are counted from it.
func PilotTools(newPilot NewPilot, replayer Replayer, opts PilotOptions) func(*sdk.Server) {
	if opts.Session == "" {
		opts.Session = "default"
	}
	pt := pilotTools{newPilot: newPilot, replayer: replayer, session: opts.Session, sheet: opts.Sheet, approvals: opts.Approvals}
	return func(s *sdk.Server) {
		if newPilot != nil {
			act := "Do one step described in words."
			if opts.ActOnly {
				act = "Do a step described in words, or a sentence of plain steps in turn." // act_steps.go
			}
			add(s, "act", act, pt.act)
			if !opts.ActOnly {
				add(s, "observe", "Find elements that answer a question.", pt.observe)
				add(s, "extract", "Read page data as JSON", pt.extract)
				add(s, "run", "Let the model do a whole task.", pt.run)
			}
		}
		if replayer != nil {
			add(s, "replay", "Replay a recorded routine.", pt.replay)
		}
	}
}

type pilotTools struct {
	newPilot NewPilot
	replayer Replayer
	// approvals is [PilotOptions.Approvals].
	approvals *approval.Authority
	session   string
	sheet     func(ctx context.Context, session string) (pilot.SheetDump, error)
}

func (pt pilotTools) pilot(ctx context.Context) (*pilot.Pilot, error) {
	p, err := pt.newPilot(ctx, sessionFrom(ctx, pt.session))
	if err == nil && p == nil {
		err = calls.Errorf(calls.ErrUnavailable, "configure a model for "+calls.Cmd("mcp"), "no model")
	}
	return p, err
}

// act does one step in words. A submit it would press is put to the
// person ([gate]): the model is not the one to approve it.
// pilotActOut answers act: what the step did, the element it chose, the
// locator that finds it again, and the look after it.
type pilotActOut struct {
	actOut
	Element string `json:"element,omitempty"`
	Locator string `json:"locator,omitempty"`
}

func (pt pilotTools) act(ctx context.Context, r *sdk.CallToolRequest, in actIn) (string, pilotActOut, error) {
	p, err := pt.pilot(ctx)
	if err != nil {
		return "", pilotActOut{}, err
	}
	var steps *rules.MultiStepError
	res, f := gate(ctx, r, func(a *calls.Approval, allow bool) (*pilot.ActResult, error) {
		res, err := p.Act(ctx, in.Instruction, &pilot.ActOptions{Vars: pilot.Vars{Values: varValues(in.Vars)}, AllowSubmit: allow, Approve: a})
		errors.As(err, &steps)
		return res, err
	})
	if f != nil && steps != nil {
		return actSteps(ctx, r, p, in) // act_steps.go
	}
	if f != nil {
		if f.IsError && res != nil && res.Line != "" {
			prepend(f, "the model chose "+res.Answer.Action+" "+res.Line)
		}
		return "", pilotActOut{}, answered(f)
	}
	out := pilotActOut{Element: res.Line}
	if res.Outcome != nil {
		out.Outcome = *res.Outcome
	}
	if ev := res.Evidence; ev != nil {
		out.Locator = ev.Chosen
	}
	if t := toolsFrom(ctx); t != nil {
		text, look := t.look(ctx, r, describeAct(res)) // the changes, as click answers
		out.Look = look
		return text, out, nil
	}
	return describeAct(res), out, nil
}

// describeAct says what one act did: the step, the element it chose and
// the locator that finds it again.
func describeAct(res *pilot.ActResult) string {
	req := res.Request
	if res.Answer.Action == "goto" {
		req = calls.ActRequest{Kind: "goto", Target: res.Answer.URL}
	}
	out := calls.Outcome{}
	if res.Outcome != nil {
		out = *res.Outcome
	}
	s := describeOutcome(req, out)
	if res.Line != "" {
		s += "\nelement: " + res.Line
	}
	if ev := res.Evidence; ev != nil && ev.Chosen != "" {
		s += "\nlocator: " + ev.Chosen
	}
	return s
}

// observeOut answers observe: the elements, best first.
type observeOut struct {
	Observations []pilot.Observation `json:"observations"`
}

func (pt pilotTools) observe(ctx context.Context, _ *sdk.CallToolRequest, in observeIn) (string, observeOut, error) {
	p, err := pt.pilot(ctx)
	if err != nil {
		return "", observeOut{}, err
	}
	res, err := p.Observe(ctx, in.Question)
	if err != nil {
		return "", observeOut{}, err
	}
	obs := res.Observations
	if obs == nil {
		obs = []pilot.Observation{}
	}
	if len(obs) == 0 {
		return "nothing on the page answers that", observeOut{obs}, nil
	}
	var b strings.Builder
	for _, o := range obs {
		fmt.Fprintf(&b, "%s — %s\n", o.Line, o.Action)
	}
	return strings.TrimSuffix(b.String(), "\n"), observeOut{obs}, nil
}

func (pt pilotTools) extract(ctx context.Context, _ *sdk.CallToolRequest, in extractIn) (string, pilot.ExtractResult, error) {
	var none pilot.ExtractResult
	if in.Schema == nil {
		return "", none, calls.Errorf(calls.ErrBadInput, "give schema as a JSON Schema object", "no schema")
	}
	schema, _ := json.Marshal(in.Schema)
	// A list is always given its recipe (one script, no model call), to
	// give back to read it again with no model.
	_, notList := recipe.ListOf(schema)
	var list any
	if in.List != nil {
		list = in.List
	}
	xo, err := extractList(list, time.Now())
	if err != nil {
		return "", none, err
	}
	xo.Learn = notList == nil
	// A page recipe says the page is no sheet: it is read with no look.
	if xo.Recipe == nil {
		if xo.Sheet, err = pt.sheetOf(ctx); err != nil {
			return "", none, err
		}
	}
	p, err := pt.pilot(ctx)
	if err != nil {
		return "", none, err
	}
	res, err := p.ExtractWith(ctx, in.Instruction, schema, xo)
	if err != nil {
		return "", none, err
	}
	s := string(res.Data) + sheetNotes(res, xo)
	if len(res.Dropped) > 0 {
		s += "\nnot on the page, set to null: " + strings.Join(res.Dropped, ", ")
	}
	if res.Note != "" {
		s += "\nnote: " + res.Note
	}
	if res.Ended != "" {
		s += fmt.Sprintf("\n%d rows, %d pages, %d duplicates; ended: %s", res.Rows, res.Pages, res.Duplicates, res.Ended)
	}
	if res.Heal != nil {
		s += "\nthe recipe no longer fitted (" + res.Heal.Misfit + "): learned again"
	}
	if res.RecipeNote != "" {
		s += "\n" + res.RecipeNote
	}
	if res.Recipe != nil && res.Recipe != xo.Recipe {
		b, _ := res.Recipe.Marshal()
		s += "\nrecipe (give it back as list.recipe to read with no model): " + strings.TrimSpace(string(b))
	}
	if !res.OK {
		r := reply("the answer does not fit the schema:\n- "+strings.Join(res.Problems, "\n- ")+"\ndata: "+s, res)
		r.IsError = true
		return "", none, answered(r)
	}
	return s, *res, nil // the rows, and the recipe, as data
}

// runOut answers run: its summary, the routine when asked to record, and
// what it read.
type runOut struct {
	Done       bool            `json:"done"`
	Reason     string          `json:"reason"`
	Steps      int             `json:"steps"`
	Turns      int             `json:"turns"`
	ModelCalls int             `json:"model_calls"`
	Tokens     int             `json:"tokens"`
	DurationMS int64           `json:"duration_ms"`
	Routine    json.RawMessage `json:"routine,omitempty" jsonschema:"the routine (waymark.routine/1), with record"`
	Data       json.RawMessage `json:"data,omitempty"`
}

func (pt pilotTools) run(ctx context.Context, r *sdk.CallToolRequest, in runIn) (string, runOut, error) {
	p, err := pt.pilot(ctx)
	if err != nil {
		return "", runOut{}, err
	}
	return runTask(ctx, r, p, in)
}

// runTask runs a task with p as the run tool does: its submits put to
// the person as they come, or let through by the server's setting for a
// client that cannot ask.
func runTask(ctx context.Context, r *sdk.CallToolRequest, p *pilot.Pilot, in runIn) (string, runOut, error) {
	ro := pilot.RunOptions{Inputs: varValues(in.Inputs), MaxSteps: in.MaxSteps, Record: in.Record, AllowSubmit: approverFrom(ctx).submits == SubmitsAllow && !canAskNow(r)}
	if canAskNow(r) {
		// A submit the run would press is put to the person as it comes.
		ro.Ask = func(ctx context.Context, ask pilot.AskRequest) (string, error) {
			if ask.Kind != "approve" {
				return "", pilot.ErrHandOver
			}
			yes, err := askNow(ctx, r, "An agent's run asks to "+ask.Prompt)
			if err != nil || !yes {
				return "no", err
			}
			return "yes", nil
		}
	}
	res, err := p.Run(ctx, in.Task, ro)
	var b strings.Builder
	var data runOut
	if res != nil {
		b.WriteString(runSummary(res))
		data = runOut{Done: res.Done, Reason: res.Reason, Steps: res.Steps, Turns: res.Turns, ModelCalls: res.ModelCalls,
			Tokens: res.Usage.InputTokens + res.Usage.OutputTokens, DurationMS: res.Duration.Milliseconds(), Data: res.Data}
	}
	if err != nil {
		if h := calls.Hint(err); h != "" {
			b.WriteString("\nhint: " + mcpHint(h))
		}
		if a, ok := calls.ApprovalOf(err); ok {
			b.WriteString("\n" + a.Describe())
		}
		// The category, as a tool error's (failure): a run stopped at a
		// submit no one approved is needs_approval, not a failure.
		if code := calls.Code(err); code != "internal" {
			b.WriteString("\ncode: " + code)
		}
	}
	if res != nil && res.Routine != nil {
		rt, merr := routine.Marshal(res.Routine, nil)
		var c bytes.Buffer
		if merr == nil && json.Compact(&c, rt) == nil {
			b.WriteString("\nroutine: " + c.String())
			data.Routine = c.Bytes()
		} else if merr != nil {
			b.WriteString("\n(no routine: " + merr.Error() + ")")
		}
	}
	if err != nil {
		out := text(b.String())
		if res != nil {
			out = reply(b.String(), data)
		}
		out.IsError = true
		return "", data, answered(out)
	}
	return b.String(), data, nil
}

// runSummary is a run's result in one line.
func runSummary(res *pilot.RunResult) string {
	head := "done"
	if !res.Done {
		head = "not done: " + res.Reason
	}
	return fmt.Sprintf("%s (%d steps, %d turns, %d model calls, %d tokens, %s)", head, res.Steps, res.Turns, res.ModelCalls,
		res.Usage.InputTokens+res.Usage.OutputTokens, res.Duration.Round(100*time.Millisecond))
}

// replayOut answers replay: its result, with the healed routine as JSON.
type replayOut struct {
	replay.Result
	Routine json.RawMessage `json:"routine,omitempty" jsonschema:"the healed next version, pending: nothing was written"`
}

func (pt pilotTools) replay(ctx context.Context, req *sdk.CallToolRequest, in replayIn) (string, replayOut, error) {
	r, trust, file, err := pt.routineArg(in.Routine)
	if err != nil {
		return "", replayOut{}, err
	}
	vars := varValues(in.Vars)
	// The person approved the routine's submits, not the values the agent
	// now has it type: those are asked again.
	trust = clientValues(r, trust, vars) // signin.go
	// Heals come back in the result as the routine's next version,
	// pending: nothing is written.
	// A submit the person approved when recording is pressed while the
	// page matches and the routine is the file they saved, as the approval
	// authority says; any other goes by the server's setting.
	ro := replay.Options{Vars: vars, KeepHeals: replay.KeepAsk, Submits: approverFrom(ctx).submits, Approvals: trust}
	if file != "" {
		// A relative file path the routine writes is read beside it. The
		// client's values have no folder (this server's is not the
		// client's): a relative one is refused with a hint to give it
		// whole (replay.Options.VarsDir).
		ro.Dir = filepath.Dir(file)
	}
	if t := toolsFrom(ctx); t != nil {
		ro.SignIn = t.signIn(req, file, "replay", vars) // an api step's relogin, next to the routine's file
	}
	if canAskNow(req) {
		ro.Submits = SubmitsAsk // a person who can be asked is asked
		// Any other submit is put to the person as the replay reaches it.
		ro.Approve = func(ctx context.Context, step string, a calls.Approval) (bool, error) {
			return askNow(ctx, req, "A replay asks to "+a.Describe()+"\n(step "+step+")\nAllow it? (Accept presses it once, if the page is still as shown.)")
		}
	}
	res, err := pt.replayer(ctx, sessionFrom(ctx, pt.session), r, ro)
	if err != nil {
		return "", replayOut{}, err
	}
	// The hint in this server's words, in the text and in the result
	// (structured, and its JSON below).
	res.Hint = mcpHint(res.Hint)
	var b strings.Builder
	if res.Status == replay.StatusOK {
		fmt.Fprintf(&b, "ok: %d steps, %d model calls", len(res.Steps), res.ModelCalls)
	} else {
		fmt.Fprintf(&b, "%s: %s: %s", res.Status, res.Cause, res.Message)
		if res.Hint != "" {
			b.WriteString("\nhint: " + res.Hint)
		}
	}
	full, _ := json.Marshal(res)
	b.WriteString("\nresult: " + string(full))
	data := replayOut{Result: *res}
	if data.Steps == nil {
		data.Steps = []replay.StepResult{}
	}
	if res.Routine != nil {
		data.Routine, _ = json.Marshal(res.Routine)
	}
	if res.Status != replay.StatusOK {
		out := reply(b.String(), data)
		out.IsError = true
		return "", data, answered(out)
	}
	return b.String(), data, nil
}

// submitNeedsPerson says what to do when a run or replay stopped at a
// submit: neither asks the person mid-way, so the step is done alone.
const submitNeedsPerson = "Nothing was pressed: do that step with the click or press tool, which asks the person for approval."

// varValues turns variables' values into text: a string as it is, anything
// else (a number, a list variable's rows) as its JSON.
func varValues(m map[string]any) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
			continue
		}
		b, _ := json.Marshal(v)
		out[k] = string(b)
	}
	return out
}

// routineArg reads replay's routine argument: the routine as an object,
// its JSON text, or the path of its file in the working or routines folder
// (files.go, returned as file), with the approval authority's word on the
// approvals it records. A routine the client gives as JSON is the client's own: it
// carries no approval (nil), whatever its steps say.
func (pt pilotTools) routineArg(v any) (r *routine.Routine, trust *approval.Trust, file string, err error) {
	switch x := v.(type) {
	case map[string]any:
		b, err := json.Marshal(x)
		if err != nil {
			return nil, nil, "", calls.Errorf(calls.ErrBadInput, "", "routine: %v", err)
		}
		r, err := routine.Parse(b)
		return r, nil, "", err
	case string:
		if s := strings.TrimSpace(x); strings.HasPrefix(s, "{") {
			r, err := routine.Parse([]byte(s))
			return r, nil, "", err
		} else if s != "" {
			file, err := hostFile(s, "replay")
			if err != nil {
				return nil, nil, "", err
			}
			if pt.approvals == nil {
				r, err = routine.Load(file)
			} else {
				r, trust, err = pt.approvals.Load(file)
			}
			return r, trust, file, err
		}
	}
	return nil, nil, "", calls.Errorf(calls.ErrBadInput, "give the routine as an object, its JSON, or a file path", "no routine")
}

// approvalText is the tool error of an action that needs approval: the
// message and what it would press.
func approvalText(err error) (string, bool) {
	a, ok := calls.ApprovalOf(err)
	if !ok {
		return "", false
	}
	return withApproval(err.Error(), a) + "\ncode: needs_approval", true
}

// prepend puts a line before a result's first text.
func prepend(r *sdk.CallToolResult, line string) {
	if len(r.Content) > 0 {
		if tc, ok := r.Content[0].(*sdk.TextContent); ok {
			tc.Text = line + "\n" + tc.Text
			return
		}
	}
	r.Content = append([]sdk.Content{&sdk.TextContent{Text: line}}, r.Content...)
}
