package pilot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/lazyre"
)

// decision is the model's answer to a decide turn: a thought, narrated,
// and one action.
type decision struct {
	Thought string `json:"thought"`
	Action  action `json:"action"`
}

// action is what the model wants to do next.
type action struct {
	Type   string  `json:"type"`            // act, need_login, need_input, done
	Op     string  `json:"op,omitempty"`    // act: click, fill, type, select, check, uncheck, press, goto, scroll
	Ref    string  `json:"ref,omitempty"`   // act: the element; need_*: the field the answer goes into
	Value  string  `json:"value,omitempty"` // fill, type, select: text, or %name% for a declared slot
	Key    string  `json:"key,omitempty"`   // press
	URL    string  `json:"url,omitempty"`   // goto
	Field  string  `json:"field,omitempty"` // need_input, need_login: what is needed ("password", "one-time code")
	Expect *expect `json:"expect,omitempty"`
	// Direction is where a scroll goes: up, down, left, right, or
	// into-view (the ref's element). Empty means into-view with a ref and
	// down without.
	Direction string `json:"direction,omitempty"`
}

// expect is an effect a step should have, as facts the page can show.
// Every fact given must hold; with none, the page must change.
type expect struct {
	URLChangesTo string      `json:"url_changes_to,omitempty"` // a glob, read by calls.MatchURL
	Appears      *elementRef `json:"appears,omitempty"`
	Disappears   *elementRef `json:"disappears,omitempty"`
	FieldValue   *fieldValue `json:"field_value,omitempty"`
	TextAppears  string      `json:"text_appears,omitempty"`
}

// elementRef names an element by its role and accessible name.
type elementRef struct {
	Role string `json:"role,omitempty"`
	Name string `json:"name,omitempty"`
}

// fieldValue says a field (by ref) holds a value.
type fieldValue struct {
	Ref   string `json:"ref"`
	Value string `json:"value"`
}

var ops = []string{"click", "fill", "type", "select", "check", "uncheck", "press", "goto", "scroll"}

// decideSchema is the JSON Schema of [decision].
var decideSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "thought": {"type": "string", "description": "one or two sentences: what you see and why this action"},
    "action": {
      "type": "object",
      "properties": {
        "type": {"type": "string", "enum": ["act", "need_login", "need_input", "done"]},
        "op": {"type": "string", "enum": ["click", "fill", "type", "select", "check", "uncheck", "press", "goto", "scroll"]},
        "ref": {"type": "string", "pattern": "^e[0-9]+$", "description": "act: the element's ref; need_login, need_input: the field the answer goes into"},
        "value": {"type": "string", "description": "fill, type, select: the text; write %name% for a declared input or secret"},
        "key": {"type": "string", "description": "press: e.g. Enter"},
        "url": {"type": "string", "description": "goto: the address"},
        "direction": {"type": "string", "enum": ["up", "down", "left", "right", "into-view"], "description": "scroll: which way (the ref's element, else the page); into-view brings the ref's element on screen; default down, or into-view with a ref"},
        "field": {"type": "string", "description": "need_login, need_input: what you need, e.g. password"},
        "expect": {
          "type": "object",
          "description": "what the page will show after the step; done: what shows the task is done",
          "properties": {
            "url_changes_to": {"type": "string", "description": "a glob of the new URL, e.g. */account"},
            "appears": {"$ref": "#/$defs/element"},
            "disappears": {"$ref": "#/$defs/element"},
            "field_value": {"type": "object", "properties": {"ref": {"type": "string", "pattern": "^e[0-9]+$"}, "value": {"type": "string"}}, "required": ["ref", "value"], "additionalProperties": false},
            "text_appears": {"type": "string"}
          },
          "additionalProperties": false
        }
      },
      "required": ["type"],
      "additionalProperties": false
    }
  },
  "required": ["thought", "action"],
  "additionalProperties": false,
  "$defs": {
    "element": {"type": "object", "properties": {"role": {"type": "string"}, "name": {"type": "string"}}, "additionalProperties": false}
  }
}`)

// decideChecker compiles the schema on first use, not at init: the pilot is
// linked into every waymark process, and most never run the loop.
var decideChecker = sync.OnceValue(func() *checker {
	c, err := compileSchema(decideSchema)
	if err != nil {
		panic(err) // programmer error: the schema above is wrong
	}
	return c
})

const decideSystem = `You carry out a task in a web browser, one step at a time. Each turn you get the task, the page as an outline, the steps done so far and what went wrong last. Answer with a short thought and one action:
- "act" with an op on one element, named by its ref from the outline (goto takes a url; press takes a key; scroll takes a direction, and scrolls the page when no ref is given), and what the page will show after it in "expect" (the URL changes to a glob, an element with a role and name appears or disappears, a field holds a value, or a text appears). Your step is checked against the page.
- "need_login" when the page wants a sign-in you have no value for, or "need_input" when a field needs a value you were not given: name the field's ref and what is needed in "field". A person answers.
- "done" when the task is complete, with "expect" saying what on the page shows it.
Use only refs that appear in the outline. Type declared inputs and secrets as %name%: their values are filled in for you. Never repeat a step that is already done; if a step failed, try another way.`

// observation is what a turn shows the model.
type observation struct {
	snap *calls.Snapshot // the interactive outline, unmasked
	url  string
}

// observe looks at the page. A page behind a bot check stops the run
// here, before the model is asked (blocked.go).
func (r *run) observe(ctx context.Context) (*observation, error) {
	snap, err := r.snapshot(ctx, true)
	if err != nil {
		return nil, fmt.Errorf("look at the page: %w", err)
	}
	if snap, err = r.pastBotCheck(ctx, snap); err != nil {
		return nil, err
	}
	return &observation{snap: snap, url: snap.URL}, nil
}

// prompt builds the turn's message.
func (r *run) prompt(ctx context.Context, obs *observation) (Message, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Task: %s\n", r.task)
	if names := sortedKeys(r.opts.Inputs); len(names) > 0 {
		fmt.Fprintf(&b, "Declared inputs (type them as %%name%%): %s\n", strings.Join(names, ", "))
	}
	if names := sortedKeys(r.opts.Secrets); len(names) > 0 {
		fmt.Fprintf(&b, "Declared secrets (type them as %%name%%; you never see their values): %s\n", strings.Join(names, ", "))
	}
	// The page's address and title, the steps done (which name elements
	// as the page does) and what went wrong (which quotes the page) are
	// page words too: they go in a fence of their own (invariant 3).
	var h strings.Builder
	fmt.Fprintf(&h, "Page: %s\n", calls.PageName(obs.url, obs.snap.Title))
	h.WriteString("\nSteps done so far:\n")
	if len(r.lines) == 0 {
		h.WriteString("(none)\n")
	}
	for i, l := range r.lines {
		fmt.Fprintf(&h, "%d. %s\n", i+1, l)
	}
	if len(r.failures) > 0 {
		h.WriteString("\nWhat went wrong with the current step (try another way):\n")
		for _, f := range r.failures {
			fmt.Fprintf(&h, "- %s\n", f)
		}
	}
	fmt.Fprintf(&b, "\n%s\n\n%s\n", historyNote, fence(r.p.mask(strings.TrimRight(h.String(), "\n"))))
	for _, hint := range r.hints {
		fmt.Fprintf(&b, "\nHint: %s\n", hint)
	}
	r.hints = nil
	outline, clipped := clipLines(r.p.maskPage(obs.snap.Text), r.p.opts.MaxPageChars)
	fmt.Fprintf(&b, "\n%s\n\n%s", dataNote, fence(outline))
	if clipped {
		b.WriteString("\n(The outline was cut to fit; scroll to see more.)")
	}
	imgs, err := page(ctx, func(ctx context.Context) ([]Image, error) {
		return r.p.picture(ctx, PurposeDecide, r.vision(), obs.snap)
	})
	if err != nil {
		return Message{}, err
	}
	msg := withPicture(Message{Role: RoleUser, Text: b.String()}, imgs)
	return msg, nil
}

// decide asks the model for the next action. An answer that cannot be
// used returns nil and no error, after it was fed back; three in a row
// return [ErrUndecodable].
func (r *run) decide(ctx context.Context, obs *observation) (*decision, error) {
	msg, err := r.prompt(ctx, obs)
	if err != nil {
		return nil, err
	}
	r.res.ModelCalls++
	reply, err := r.p.ask(ctx, Turn{Purpose: PurposeDecide, System: decideSystem, SchemaName: "decision",
		Schema: decideSchema, Messages: []Message{msg}})
	r.res.Usage = r.res.Usage.Add(reply.Usage)
	if err != nil {
		if ctx.Err() != nil || !errors.Is(err, ErrMalformed) {
			return nil, err
		}
		return nil, r.undecodableAnswer(err.Error())
	}
	if r.opts.MaxTokens > 0 {
		if used := r.res.Usage.InputTokens + r.res.Usage.OutputTokens; used > r.opts.MaxTokens {
			r.recovering(GuardBudget, fmt.Sprintf("%d tokens used, over the budget of %d; stopping", used, r.opts.MaxTokens))
			return nil, fmt.Errorf("%w: %d tokens of %d", ErrBudget, used, r.opts.MaxTokens)
		}
	}
	dec, problems := decodeDecision(reply)
	if len(problems) == 0 {
		problems = r.checkAgainstPage(dec, obs)
	}
	if len(problems) > 0 {
		return nil, r.undecodableAnswer(strings.Join(problems, "; "))
	}
	r.undecodable = 0
	return dec, nil
}

// undecodableAnswer feeds an unusable answer back, and ends the run at
// the third in a row.
func (r *run) undecodableAnswer(why string) error {
	r.undecodable++
	r.failures = appendRecent(r.failures, "your last answer could not be used: "+why)
	if r.undecodable >= guardLimit {
		r.recovering(GuardUndecodable, fmt.Sprintf("answer %d in a row could not be used (%s); stopping", r.undecodable, why))
		return fmt.Errorf("%w: %d in a row; the last: %s", ErrUndecodable, r.undecodable, why)
	}
	r.recovering(GuardUndecodable, fmt.Sprintf("the answer could not be used (%s); asking again with a fresh look", why))
	return nil
}

// checkAgainstPage refuses refs that are not on the page the model was
// shown, and placeholders that name no declared slot.
func (r *run) checkAgainstPage(d *decision, obs *observation) []string {
	var out []string
	a := d.Action
	if a.Ref != "" && refLine(obs.snap.Text, a.Ref) == "" {
		out = append(out, fmt.Sprintf("[ref=%s] is not on the page you were shown", a.Ref))
	}
	if a.Expect != nil && a.Expect.FieldValue != nil && refLine(obs.snap.Text, a.Expect.FieldValue.Ref) == "" {
		out = append(out, fmt.Sprintf("expect.field_value names [ref=%s], which is not on the page you were shown", a.Expect.FieldValue.Ref))
	}
	for _, s := range []string{a.Value, a.URL} {
		for _, name := range placeholders(s) {
			if _, ok := r.vars.lookup(name); !ok {
				out = append(out, fmt.Sprintf("%%%s%% is not a declared input or secret (declared: %s)", name, strings.Join(r.slotNames(), ", ")))
			}
		}
	}
	return out
}

func (r *run) slotNames() []string {
	names := append(sortedKeys(r.opts.Inputs), sortedKeys(r.opts.Secrets)...)
	if len(names) == 0 {
		return []string{"none"}
	}
	return names
}

// decodeDecision reads the model's answer, forgiving near-misses, and
// validates it. It returns the problems when it cannot be used.
func decodeDecision(reply Reply) (*decision, []string) {
	v, err := decodeAnswer(reply)
	if err != nil {
		return nil, []string{err.Error()}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, []string{"the answer is not a JSON object"}
	}
	normalize(m)
	if problems := decideChecker().problems(m); len(problems) > 0 {
		return nil, problems
	}
	b, _ := json.Marshal(m)
	var d decision
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, []string{err.Error()}
	}
	if p := needs(d.Action); p != "" {
		return nil, []string{p}
	}
	return &d, nil
}

// needs says what an action lacks for its type and op, or "".
func needs(a action) string {
	switch a.Type {
	case "act":
		switch {
		case a.Op == "":
			return "act needs an op"
		case a.Op == "goto" && a.URL == "":
			return "goto needs a url"
		case a.Op == "press" && a.Key == "":
			return "press needs a key"
		case slices.Contains([]string{"click", "fill", "type", "select", "check", "uncheck"}, a.Op) && a.Ref == "":
			return a.Op + " needs the element's ref"
		case slices.Contains([]string{"fill", "type", "select"}, a.Op) && a.Value == "":
			return a.Op + " needs a value"
		}
	case "need_login", "need_input":
		if a.Ref == "" {
			return a.Type + " needs the ref of the field the answer goes into"
		}
	}
	return ""
}

var refLike = lazyre.New(`^\[?@?(?:ref=)?(e[0-9]+)\]?$`)

// normalize mends near-misses in place: an op given as the type ("type":
// "click"), the action's fields at the top level, refs written "@e5" or
// "[ref=e5]", case and spacing, "navigate" for goto, "finish" for done.
func normalize(m map[string]any) {
	a, ok := m["action"].(map[string]any)
	if !ok {
		if s, isStr := m["action"].(string); isStr {
			// {"action": "click", "ref": "e5", …}: the flat shape of an act answer.
			a = map[string]any{"type": s}
		} else {
			a = map[string]any{}
		}
		for _, k := range []string{"type", "op", "ref", "value", "key", "url", "field", "expect", "direction"} {
			if x, has := m[k]; has {
				if _, set := a[k]; !set {
					a[k] = x
				}
				delete(m, k)
			}
		}
		m["action"] = a
	}
	for _, k := range []string{"reason", "reasoning", "thinking"} {
		if s, isStr := m[k].(string); isStr {
			if _, has := m["thought"]; !has {
				m["thought"] = s
			}
			delete(m, k)
		}
	}
	if _, has := m["thought"]; !has {
		m["thought"] = ""
	}
	for k, x := range a {
		if s, isStr := x.(string); isStr {
			a[k] = strings.TrimSpace(s)
		}
		if x == nil {
			delete(a, k)
		}
	}
	lower := func(k string) {
		if s, isStr := a[k].(string); isStr {
			a[k] = strings.ReplaceAll(strings.ToLower(s), "-", "_")
		}
	}
	lower("type")
	lower("op")
	if d, isStr := a["direction"].(string); isStr {
		switch d = strings.ToLower(d); d {
		case "":
			delete(a, "direction")
		case "into_view", "intoview", "into view":
			a["direction"] = "into-view"
		default:
			a["direction"] = d
		}
	}
	aliases := map[string]string{"navigate": "goto", "open": "goto", "visit": "goto", "finish": "done", "finished": "done",
		"complete": "done", "needs_input": "need_input", "ask": "need_input", "login": "need_login", "needs_login": "need_login", "tap": "click", "enter": "fill"}
	for _, k := range []string{"type", "op"} {
		if s, isStr := a[k].(string); isStr && aliases[s] != "" {
			a[k] = aliases[s]
		}
	}
	if t, _ := a["type"].(string); slices.Contains(ops, t) {
		if _, has := a["op"]; !has {
			a["op"] = t
		}
		a["type"] = "act"
	}
	if _, has := a["type"]; !has {
		if _, hasOp := a["op"]; hasOp {
			a["type"] = "act"
		}
	}
	for _, k := range []string{"ref"} {
		if s, isStr := a[k].(string); isStr {
			if sm := refLike.FindStringSubmatch(s); sm != nil {
				a[k] = sm[1]
			}
		}
	}
	if e, ok := a["expect"].(map[string]any); ok {
		if fv, ok := e["field_value"].(map[string]any); ok {
			if s, isStr := fv["ref"].(string); isStr {
				if sm := refLike.FindStringSubmatch(strings.TrimSpace(s)); sm != nil {
					fv["ref"] = sm[1]
				}
			}
		}
		for k, x := range e {
			if x == nil {
				delete(e, k)
			}
		}
	} else {
		// A null, or an expectation in words ("the page changes"): the
		// weak default stands in for it.
		delete(a, "expect")
	}
}

// appendRecent keeps the last few failures of the current step.
func appendRecent(list []string, s string) []string {
	list = append(list, s)
	if len(list) > 4 {
		list = list[len(list)-4:]
	}
	return list
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
