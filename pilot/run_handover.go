package pilot

import (
	"context"
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/lazyre"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// notSlot is what a slot name may not hold.
var notSlot = lazyre.New(`[^a-z0-9_]+`)

// slotName turns what the model says it needs into a slot name that can
// be a %placeholder%.
func slotName(field, kind string) string {
	s := strings.Trim(notSlot.ReplaceAllString(strings.ToLower(field), "_"), "_")
	if s == "" {
		s = kind
	}
	if s[0] >= '0' && s[0] <= '9' {
		s = "v_" + s
	}
	return s
}

// handOver asks a person for a sign-in or a value, types the answer into
// the field the model named, and records a fill that refers to the slot,
// never the answer. The answer is a known secret for the rest of the run.
func (r *run) handOver(ctx context.Context, obs *observation, dec *decision) error {
	a := dec.Action
	kind := strings.TrimPrefix(a.Type, "need_")
	slot := slotName(a.Field, kind)
	line := refLine(obs.snap.Text, a.Ref)
	_, declaredSecret := r.vars.Secrets[slot]
	isSecret := kind == "login" || declaredSecret || secret.Field{Words: a.Field + " " + line}.Secret()
	answer, declared := r.vars.lookup(slot)
	if declared {
		isSecret = declaredSecret
	} else {
		if r.opts.Ask == nil {
			return calls.WithHint(fmt.Errorf("%w: the model needs %q for %s", ErrHandOver, a.Field, line),
				fmt.Sprintf("declare it with --input %s=… or --secret %s=…, or run on a terminal", slot, slot))
		}
		req := AskRequest{Kind: kind, Slot: slot, Prompt: r.p.mask(dec.Thought), Secret: isSecret, Field: r.p.mask(line)}
		r.emit(Event{Type: EventAwait, Text: fmt.Sprintf("waiting for a person: %s for %s", slot, line), Ask: &req})
		var err error
		answer, err = r.opts.Ask(ctx, req)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("ask for %s: %w", slot, err)
		}
	}
	// Known from now on, whatever it is: masked in every event, and the
	// field it goes into masked in every outline however short it is.
	r.p.opts.Secrets.Add(slot, answer)
	if !declared {
		r.declare(slot, answer, isSecret)
	}
	r.repeats = 0
	ev, err := page(ctx, func(ctx context.Context) (*calls.Evidence, error) {
		return r.p.d.Locate(ctx, calls.LocateRequest{Target: "@" + a.Ref})
	})
	if err != nil {
		return r.pageFailure(ctx, fmt.Sprintf("[ref=%s] could not be identified on the page: %v", a.Ref, err))
	}
	fill := action{Type: "act", Op: "fill", Ref: a.Ref, Value: "%" + slot + "%",
		Expect: &expect{FieldValue: &fieldValue{Ref: a.Ref, Value: "%" + slot + "%"}}}
	req, err := r.actRequest(fill)
	if err != nil {
		return err
	}
	req.Secret = slot // the driver masks the field by position, secret or not
	if _, err := page(ctx, func(ctx context.Context) (*calls.Outcome, error) { return r.p.d.Act(ctx, req) }); err != nil {
		return r.pageFailure(ctx, fmt.Sprintf("typing the answer into [ref=%s] failed: %v", a.Ref, r.p.mask(err.Error())))
	}
	v, err := r.verify(ctx, fill.Expect, nil)
	if err != nil {
		return fmt.Errorf("check the step: %w", err)
	}
	st := r.stepFor(fill, dec.Thought, obs.snap.Text, ev, nil, nil, v)
	sig := signature(fill, ev)
	r.keep(sig, st, stepLine(fill, line, v.OK, v.Observed))
	return r.verdict(v.OK)
}

// declare adds a slot learnt from a person to the run's variables.
func (r *run) declare(slot, answer string, isSecret bool) {
	if isSecret {
		if r.vars.Secrets == nil {
			r.vars.Secrets = map[string]secret.Value{}
		}
		r.vars.Secrets[slot] = secret.New(slot, answer)
	} else {
		if r.vars.Values == nil {
			r.vars.Values = map[string]string{}
		}
		r.vars.Values[slot] = answer
	}
	r.slots = append(r.slots, routine.Variable{Name: slot, Secret: isSecret, Description: "asked of a person when recorded"})
}
