package pilot

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// ActAnswer is a model's answer to an act turn: one step on the page, on
// an element named by its outline ref. The rules model answers in the same
// shape (model/rules.Answer).
type ActAnswer struct {
	Action    string `json:"action"` // click, fill, type, select, check, uncheck, press, goto, scroll
	Ref       string `json:"ref,omitempty"`
	Value     string `json:"value,omitempty"`
	Key       string `json:"key,omitempty"`
	URL       string `json:"url,omitempty"`
	Direction string `json:"direction,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// ActSchema is the JSON Schema of [ActAnswer].
var ActSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "action": {"type": "string", "enum": ["click", "fill", "type", "select", "check", "uncheck", "press", "goto", "scroll"]},
    "ref": {"type": "string", "pattern": "^e[0-9]+$", "description": "the element's ref from the outline"},
    "value": {"type": "string", "description": "text for fill and type, the option for select; keep %name% placeholders as written"},
    "key": {"type": "string", "description": "key for press, e.g. Enter or Control+A"},
    "url": {"type": "string", "description": "address for goto"},
    "direction": {"type": "string", "enum": ["up", "down", "left", "right", "into-view"]},
    "reason": {"type": "string", "description": "one short sentence: why this element"}
  },
  "required": ["action"],
  "additionalProperties": false
}`)

const actSystem = `You operate a web browser for a user. You get one instruction and the current page as an outline. Answer with exactly one step that carries out the instruction, on one element named by its ref from the outline. Use only refs that appear in the outline. Keep %name% placeholders in values exactly as written: the user's values are filled in later. If the instruction cannot be done on this page, answer with the step that gets closest and say why in reason.`

// ActOptions tune one act.
type ActOptions struct {
	Vars Vars
	// AllowSubmit lets a step that sends, pays, deletes or confirms go
	// ahead. Without it (or Approve) such a step fails with
	// calls.ErrNeedsApproval carrying what it would press.
	AllowSubmit bool
	// Approve is an approval returned earlier: the step proceeds only if
	// the page still matches it.
	Approve *calls.Approval
	// NoHand turns off a person's pace (pointer paths, typing cadence),
	// which the pilot uses by default.
	NoHand bool
}

// ActResult is what one act did.
type ActResult struct {
	Answer   ActAnswer        // the model's step, as proposed (values still with placeholders)
	Request  calls.ActRequest // what was sent to the driver (secret values masked)
	Evidence *calls.Evidence  // the element's evidence from the live page; nil for goto and page-wide steps
	Outcome  *calls.Outcome
	Line     string // the outline line of the element the model chose
	Usage    Usage
}

// Act carries out one instruction on the page: it shows the model the
// outline, takes its step, checks that the ref is on the page, takes the
// element's evidence from the live page (the model's word never names the
// element that is recorded), and performs the step. A page behind a bot
// check gives [ErrBlocked], with no model call.
func (p *Pilot) Act(ctx context.Context, instruction string, opts *ActOptions) (*ActResult, error) {
	var o ActOptions
	if opts != nil {
		o = *opts
	}
	p.remember(o.Vars)
	for _, name := range placeholders(instruction) {
		if _, ok := o.Vars.lookup(name); !ok {
			return nil, calls.Errorf(calls.ErrBadInput, fmt.Sprintf("pass it with --var %s=… or --secret %s=env:VAR", name, name), "no value for %%%s%% in the instruction", name)
		}
	}
	vision := p.vision("")
	if err := p.checkVision(PurposeAct, vision); err != nil {
		return nil, err
	}
	snap, err := p.d.Snapshot(ctx, calls.SnapshotRequest{Interactive: true, Full: true, View: p.wantsView(PurposeAct, vision)})
	if err != nil {
		return nil, err
	}
	if err := pageBlocked(snap); err != nil {
		return nil, fmt.Errorf("act: %w", err)
	}
	imgs, err := p.picture(ctx, PurposeAct, vision, snap)
	if err != nil {
		return nil, err
	}
	page, clipped := clipLines(p.maskPage(snap.Text), p.opts.MaxPageChars)
	note := ""
	if clipped {
		note = "\n(The outline was cut to fit; elements further down are not shown.)"
	}
	msg := fmt.Sprintf("Instruction: %s\n\n%s\n\n%s%s", instruction, dataNote, fence(page), note)
	reply, err := p.ask(ctx, Turn{Purpose: PurposeAct, System: actSystem, SchemaName: "step", Schema: ActSchema,
		Messages: []Message{withPicture(Message{Role: RoleUser, Text: msg}, imgs)}})
	if err != nil {
		return nil, err
	}
	var ans ActAnswer
	if err := json.Unmarshal(reply.Data, &ans); err != nil || ans.Action == "" {
		return nil, fmt.Errorf("act: %w: %s", ErrMalformed, strings.TrimSpace(string(reply.Data)))
	}
	res := &ActResult{Answer: ans, Usage: reply.Usage}
	req, err := p.request(ans, snap.Text, o.Vars)
	if err != nil {
		return res, err
	}
	if req.Target != "" {
		res.Line = p.mask(refLine(snap.Text, strings.TrimPrefix(req.Target, "@")))
		ev, err := p.d.Locate(ctx, calls.LocateRequest{Target: req.Target})
		if err != nil {
			return res, fmt.Errorf("evidence of %s: %w", req.Target, err)
		}
		res.Evidence = maskJSON(p, ev)
	}
	req.Submits = "ask"
	req.Hand = !o.NoHand
	if o.AllowSubmit {
		req.Submits = "allow"
	}
	req.Approve = o.Approve
	res.Request = req
	res.Request.Value = p.mask(o.Vars.shown(ans.Value))
	if ans.Action == "goto" {
		info, err := p.d.Open(ctx, calls.OpenRequest{URL: ans.URL})
		if err != nil {
			return res, err
		}
		res.Outcome = maskJSON(p, &calls.Outcome{URL: info.URL, Title: info.Title, Navigated: true})
		return res, nil
	}
	out, err := p.d.Act(ctx, req)
	if err != nil {
		return res, err
	}
	res.Outcome = maskJSON(p, out)
	return res, nil
}

// request turns a model's answer into a driver call, refusing refs that
// are not on the page the model was shown.
func (p *Pilot) request(ans ActAnswer, outline string, vars Vars) (calls.ActRequest, error) {
	needsRef := map[string]bool{"click": true, "fill": true, "type": true, "select": true, "check": true, "uncheck": true}
	ref := strings.TrimPrefix(strings.TrimSpace(ans.Ref), "@")
	if needsRef[ans.Action] || ref != "" {
		if ref == "" {
			return calls.ActRequest{}, fmt.Errorf("the model chose %s with no element: %w", ans.Action, ErrMalformed)
		}
		if refLine(outline, ref) == "" {
			return calls.ActRequest{}, fmt.Errorf("the model chose [ref=%s], which is not on the page it was shown: %w", ref, ErrMalformed)
		}
	}
	target := ""
	if ref != "" {
		target = "@" + ref
	}
	value, err := vars.expand(ans.Value)
	if err != nil {
		return calls.ActRequest{}, &calls.Error{Kind: calls.ErrBadInput, Msg: err.Error()}
	}
	switch ans.Action {
	case "click":
		return calls.ActRequest{Kind: calls.ActClick, Target: target}, nil
	case "fill":
		return calls.ActRequest{Kind: calls.ActFill, Target: target, Value: value, Secret: secretIn(ans.Value, vars)}, nil
	case "type":
		return calls.ActRequest{Kind: calls.ActType, Target: target, Value: value, Secret: secretIn(ans.Value, vars)}, nil
	case "select":
		return calls.ActRequest{Kind: calls.ActSelect, Target: target, Values: []string{value}}, nil
	case "check":
		return calls.ActRequest{Kind: calls.ActCheck, Target: target}, nil
	case "uncheck":
		return calls.ActRequest{Kind: calls.ActUncheck, Target: target}, nil
	case "press":
		if ans.Key == "" {
			return calls.ActRequest{}, fmt.Errorf("the model chose press with no key: %w", ErrMalformed)
		}
		return calls.ActRequest{Kind: calls.ActPress, Target: target, Key: ans.Key}, nil
	case "scroll":
		return calls.ActRequest{Kind: calls.ActScroll, Target: target, Direction: ans.Direction}, nil
	case "goto":
		if ans.URL == "" {
			return calls.ActRequest{}, fmt.Errorf("the model chose goto with no URL: %w", ErrMalformed)
		}
		return calls.ActRequest{}, nil
	}
	return calls.ActRequest{}, fmt.Errorf("the model chose an unknown action %q: %w", ans.Action, ErrMalformed)
}
