package pilot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// act applies one operation: it takes the element's evidence from the live
// page before acting (the page may change after), performs the operation,
// checks its expectation, and records the step.
func (r *run) act(ctx context.Context, obs *observation, dec *decision) error {
	a := dec.Action
	var ev *calls.Evidence
	if a.Ref != "" {
		var err error
		ev, err = page(ctx, func(ctx context.Context) (*calls.Evidence, error) {
			return r.p.d.Locate(ctx, calls.LocateRequest{Target: "@" + a.Ref})
		})
		if err != nil {
			return r.pageFailure(ctx, fmt.Sprintf("[ref=%s] could not be identified on the page: %v", a.Ref, err))
		}
		if r.opts.Record && ev.Chosen == "" {
			// Nothing is guessed (invariant 4): a step whose element no
			// locator names alone could not be replayed.
			return r.pageFailure(ctx, fmt.Sprintf("no locator names [ref=%s] alone on this page, so the step could not be replayed; choose an element with a distinct name or label", a.Ref))
		}
	}
	sig := signature(a, ev)
	if a.Op == "scroll" && a.Ref == "" {
		// A page-wide scroll is the same step only over the same view:
		// scrolling on down a long list is progress; scrolling at the
		// bottom, where the page no longer changes, is a repeat.
		sig += " over " + viewKey(obs.snap.Text)
	}
	if idx, done := r.sigs[sig]; done {
		return r.repeated(sig, idx)
	}
	r.repeats = 0
	req, err := r.actRequest(a)
	if err != nil {
		return r.undecodableAnswer(err.Error())
	}
	before, err := r.look(ctx)
	if err != nil {
		return fmt.Errorf("look at the page: %w", err)
	}
	var landed *calls.PageInfo
	met := r.met
	r.met = nil
	submitted := false // the press needed a person's approval: a submit
	if a.Op == "goto" {
		url, err := r.vars.expand(a.URL)
		if err != nil {
			return r.undecodableAnswer(err.Error())
		}
		landed, err = page(ctx, func(ctx context.Context) (*calls.PageInfo, error) {
			return r.p.d.Open(ctx, calls.OpenRequest{URL: url})
		})
		if err != nil {
			return r.pageFailure(ctx, fmt.Sprintf("goto %s failed: %v", a.URL, err))
		}
	} else {
		req.Submits = "ask"
		if r.opts.AllowSubmit {
			req.Submits = "allow"
		}
		_, err := page(ctx, func(ctx context.Context) (*calls.Outcome, error) { return r.p.d.Act(ctx, req) })
		if errors.Is(err, calls.ErrNeedsApproval) {
			submitted = true
			err = r.approve(ctx, req, err)
		}
		r.met, _ = calls.PopupOf(err) // a popup in the way: the next click may close it
		if err != nil {
			if errors.Is(err, errRefused) || ctx.Err() != nil {
				return err
			}
			return r.pageFailure(ctx, fmt.Sprintf("%s on [ref=%s] failed: %v", a.Op, a.Ref, err))
		}
	}
	v, err := r.verify(ctx, a.Expect, before)
	if err != nil {
		return fmt.Errorf("check the step: %w", err)
	}
	var notices []calls.Notice
	if landed != nil && r.opts.Record {
		notices = r.landingNotices(ctx)
	}
	st := r.stepFor(a, dec.Thought, obs.snap.Text, ev, landed, notices, v)
	routine.MarkDismissal(&st, met, submitted || r.opts.AllowSubmit)
	r.keep(sig, st, stepLine(a, refLine(obs.snap.Text, a.Ref), v.OK, v.Observed))
	return r.verdict(v.OK)
}

// keep records a step and tells the model and the events about it. A
// step that retries the last one, whose check failed, takes its place.
func (r *run) keep(sig string, st routine.Step, line string) {
	n := len(r.steps)
	if n > 0 && r.lastSig == sig && !r.lastOK {
		r.steps, r.lines = r.steps[:n-1], r.lines[:n-1]
	}
	st.ID = fmt.Sprintf("s%d", len(r.steps)+1)
	r.steps = append(r.steps, st)
	r.lines = append(r.lines, line)
	r.lastSig, r.lastOK = sig, st.Verdict.OK
	r.emit(Event{Type: EventStep, Text: line, Step: &st, Verdict: st.Verdict})
	if st.Verdict.OK {
		r.sigs[sig] = len(r.steps) - 1
		r.failures = nil
		return
	}
	r.failures = appendRecent(r.failures, fmt.Sprintf("step %d (%s) did not have the effect you expected: expected %s; observed %s",
		len(r.steps), sig, st.Verdict.Expected, st.Verdict.Observed))
	r.recovering(GuardVerify, fmt.Sprintf("step %d did not check out: expected %s; observed %s", len(r.steps), st.Verdict.Expected, st.Verdict.Observed))
}

// pageFailure feeds back a step the page refused; it counts as a failed
// check for the breaker.
func (r *run) pageFailure(ctx context.Context, why string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r.lastOK = false
	r.failures = appendRecent(r.failures, why)
	r.recovering(GuardPage, why)
	return r.verdict(false)
}

// done accepts the model's word only when the page shows it: the
// expectation it gives with done holds, or else the last step's check
// passed.
func (r *run) done(ctx context.Context, dec *decision) (bool, error) {
	exp := dec.Action.Expect
	if exp != nil && !exp.empty() {
		v, err := r.verify(ctx, exp, nil)
		if err != nil {
			return false, fmt.Errorf("check done: %w", err)
		}
		if v.OK {
			r.final = exp
			return true, nil
		}
		why := fmt.Sprintf("done was not accepted: expected %s; observed %s", v.Expected, v.Observed)
		r.failures = appendRecent(r.failures, why)
		r.recovering(GuardVerify, why)
		return false, r.verdict(false)
	}
	if r.lastOK {
		return true, nil
	}
	why := "done was not accepted: the last step's check did not pass; say what on the page shows the task is done in expect"
	if len(r.steps) == 0 {
		why = "done was not accepted: no step was done; say what on the page shows the task is done in expect"
	}
	r.failures = appendRecent(r.failures, why)
	r.recovering(GuardVerify, why)
	return false, r.verdict(false)
}

// actRequest turns an act into a driver call, with a person's pace unless
// RunOptions.NoHand. The value is expanded here, at the driver call, and
// goes nowhere else.
func (r *run) actRequest(a action) (calls.ActRequest, error) {
	target := ""
	if a.Ref != "" {
		target = "@" + a.Ref
	}
	value, err := r.vars.expand(a.Value)
	if err != nil {
		return calls.ActRequest{}, err
	}
	req := calls.ActRequest{Kind: a.Op, Target: target, Hand: !r.opts.NoHand}
	switch a.Op {
	case "fill", "type":
		req.Value, req.Secret = value, secretIn(a.Value, r.vars)
	case "select":
		req.Values = []string{value}
	case "press":
		req.Key = a.Key
	case "scroll":
		req.Direction = scrollDirection(a)
	}
	return req, nil
}

// scrollDirection is where a scroll goes: as the model said, else into
// view with an element and down without.
func scrollDirection(a action) string {
	switch {
	case a.Direction != "":
		return a.Direction
	case a.Ref != "":
		return "into-view"
	}
	return "down"
}

// errRefused marks an approval that ends the run: no one to ask.
var errRefused = errors.New("no one to approve")

// approve puts a step that would submit to a person, and does it if they
// approve, on the page as approved. A refusal is fed back to the model.
func (r *run) approve(ctx context.Context, req calls.ActRequest, needs error) error {
	var ap calls.Approval
	if err := json.Unmarshal(calls.DataOf(needs), &ap); err != nil || r.opts.Ask == nil {
		return fmt.Errorf("%w: %w it", needs, errRefused) // the hint (--allow-submit, allow_submit) is the front's to give
	}
	prompt := ap.Describe() + "\nGo ahead? (y/N)"
	ask := AskRequest{Kind: "approve", Slot: "approve", Prompt: r.p.mask(prompt), Field: r.p.mask(ap.Control)}
	r.emit(Event{Type: EventAwait, Text: "waiting for approval: " + ap.Line(), Ask: &ask})
	answer, err := r.opts.Ask(ctx, ask)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// The question failed (the front could not ask its person, or
		// no answer came): no one approves, as with no Ask at all. Fed
		// back to the model, it would be one more failed step, and the
		// model's next try one more question that cannot be answered.
		return fmt.Errorf("%w; %w it: %w", needs, errRefused, err)
	}
	if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
		return fmt.Errorf("a person did not approve %s %s", ap.Action, calls.ShownControl(ap.Control))
	}
	req.Approve = &ap
	_, err = page(ctx, func(ctx context.Context) (*calls.Outcome, error) { return r.p.d.Act(ctx, req) })
	return err
}

// viewKey is a short fingerprint of what an observation showed.
func viewKey(outline string) string {
	h := fnv.New64a()
	h.Write([]byte(outline))
	return strconv.FormatUint(h.Sum64(), 36)
}
