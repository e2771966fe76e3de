package pilot

import (
	"context"
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/lazyre"
	"github.com/waymark-dev/waymark/routine"
)

// stepFor builds the recorded step with [routine.ActStep] or
// [routine.GotoStep]: the element as the page named it (the evidence's
// chosen locator), never as the model did, with the thought it came from
// as its instruction; a navigation with its URL as given and where it
// landed, with the notices of the page it landed on. outline is the page
// the model was shown.
func (r *run) stepFor(a action, thought, outline string, ev *calls.Evidence, landed *calls.PageInfo, notices []calls.Notice, v *routine.Verdict) routine.Step {
	if a.Op == "goto" {
		st := routine.GotoStep(a.URL, landed, notices)
		st.Verdict = v
		return st
	}
	// The values as the model wrote them (%name% for a variable), never
	// as typed: a secret's value stays out of the routine.
	req := calls.ActRequest{Kind: a.Op, Key: a.Key, Value: a.Value}
	if a.Op == "scroll" {
		req.Direction = scrollDirection(a) // as done, so a replay scrolls the same way
	}
	st := routine.ActStep(req, ev, func(_ *calls.Fingerprint, v string) *routine.Value {
		if v == "" {
			return nil
		}
		return r.valueRef(v)
	})
	st.Verdict, st.Instruction = v, r.instruction(thought, outline)
	return st
}

// maxInstruction bounds a recorded step's instruction, in characters.
const maxInstruction = 300

var (
	// modelSelector is a selector the model wrote in its thought with its
	// kind, up to the end of its clause.
	modelSelector = lazyre.New(`(?i)\b(?:css|xpath)\s*[=:].*?(?:[,;](?:\s|$)|$)`)
	// selectorWord is a word of a selector written bare: a tag with a
	// class, id or attribute (div.form, input[name=q]), a class or an id
	// (.btn, #email), an XPath, or a pseudo-class.
	selectorWord = lazyre.New(`(?i)^(?:(?:a|button|div|span|input|form|label|select|option|textarea|ul|ol|li|table|tr|td|th|tbody|nav|header|footer|main|section|article|aside|dialog|img|svg|iframe|p|h[1-6])?[.#\[][a-z_\-\[]|//)|:(?:nth-|has\(|not\()`)
	// refWord is a ref the thought names: e5, @e5, [ref=e5].
	refWord = lazyre.New(`\[?@?(?:ref=)?\b(e[0-9]+)\b\]?`)
	// roleName is the start of an outline line: role "name".
	roleName = lazyre.New(`^\w+ "[^"]*"`)
)

// instruction is the words a recorded step came from, for a heal at
// replay and for people: the model's thought on one line, with each ref
// it names turned into the element's role and name on the page it was
// shown (refs mean nothing at replay) and its own selectors left out
// (only the page names the element that is recorded), masked, and at most
// [maxInstruction] characters.
func (r *run) instruction(thought, outline string) string {
	s := refWord.ReplaceAllStringFunc(thought, func(m string) string {
		ref := refWord.FindStringSubmatch(m)[1]
		return roleName.FindString(refLine(outline, ref)) // "" when the ref is not on the page
	})
	s = dropSelectors(modelSelector.ReplaceAllString(s, " "))
	s = strings.Trim(s, " ,;:-")
	s = r.p.mask(s) // before the cut, which could split a secret out of sight
	if rs := []rune(s); len(rs) > maxInstruction {
		s = strings.TrimSpace(string(rs[:maxInstruction-1])) + "…"
	}
	return s
}

// dropSelectors joins the words of s on one line, leaving out those of a
// selector: selector-like words, and a combinator (>, +, ~) with the word
// on each side of it.
func dropSelectors(s string) string {
	words := strings.Fields(s)
	drop := make([]bool, len(words))
	for i, w := range words {
		switch {
		case w == ">" || w == "+" || w == "~" || w == ">>":
			drop[i] = true
			if i > 0 {
				drop[i-1] = true
			}
			if i+1 < len(words) {
				drop[i+1] = true
			}
		case selectorWord.MatchString(w):
			drop[i] = true
		}
	}
	kept := words[:0]
	for i, w := range words {
		if !drop[i] {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// landingNotices are the notices of the page a goto landed on, for its
// step: a replay stops at a sign-in page its routine did not record
// (issue 6). None when the page cannot be read.
func (r *run) landingNotices(ctx context.Context) []calls.Notice {
	snap, err := page(ctx, func(ctx context.Context) (*calls.Snapshot, error) {
		return r.p.d.Snapshot(ctx, calls.SnapshotRequest{Interactive: true, Unseen: true})
	})
	if err != nil {
		return nil
	}
	return snap.Notices
}

// valueRef records a value: a slot reference for %name%, a template when
// placeholders sit in text, a declared input's slot when the value is its
// sample, else the literal.
func (r *run) valueRef(v string) *routine.Value {
	if names := placeholders(v); len(names) > 0 {
		if len(names) == 1 && v == "%"+names[0]+"%" {
			from := "input"
			if _, ok := r.vars.Secrets[names[0]]; ok {
				from = "secret"
			}
			return &routine.Value{From: from, Slot: names[0]}
		}
		return &routine.Value{Template: v}
	}
	for _, name := range sortedKeys(r.vars.Values) {
		if r.vars.Values[name] == v {
			return &routine.Value{From: "input", Slot: name}
		}
	}
	return &routine.Value{Literal: v}
}

// routine is the run as a routine.
func (r *run) routine() *routine.Routine {
	rt := &routine.Routine{Format: routine.Format, Name: routineName(r.task), Version: 1, Task: r.task, Steps: []routine.Step{}}
	for _, name := range sortedKeys(r.opts.Inputs) {
		rt.Variables = append(rt.Variables, routine.Variable{Name: name})
	}
	for _, name := range sortedKeys(r.opts.Secrets) {
		rt.Variables = append(rt.Variables, routine.Variable{Name: name, Secret: true})
	}
	rt.Variables = append(rt.Variables, r.slots...)
	if start := r.startStep(); start != nil {
		rt.Steps = append(rt.Steps, *start)
	}
	rt.Steps = append(rt.Steps, r.steps...)
	if r.final != nil {
		for _, c := range finalChecks(r.final) {
			rt.Steps = append(rt.Steps, routine.Step{ID: fmt.Sprintf("s%d", len(rt.Steps)+1), Kind: routine.KindVerify, Check: c,
				Instruction: "the task is done"})
		}
	}
	if r.extracted != nil {
		rt.Steps = append(rt.Steps, *r.extracted)
	}
	return rt
}

// startStep is the goto that opens the page the run began on, when the
// run's own first step does not go somewhere: without it, the routine
// replays only in a session already on that page. Nil when the run began
// on no web page (about:blank) or its first step is a goto. The rule is
// the recorders' one ([routine.StartStep]).
func (r *run) startStep() *routine.Step {
	if len(r.steps) > 0 && r.steps[0].Kind == routine.KindGoto {
		return nil
	}
	st, ok := routine.StartStep(&calls.PageInfo{URL: r.startURL}, nil)
	if !ok {
		return nil
	}
	st.ID, st.Instruction, st.Landed = "start", "open the page the task began on", nil
	return &st
}

// finalChecks turns what showed the task done into checks a replay can
// make with no model: a URL glob and texts. An element is checked by its
// name as text; a field's value is not replayed.
func finalChecks(e *expect) []*routine.Check {
	var out []*routine.Check
	if e.URLChangesTo != "" {
		out = append(out, &routine.Check{URL: e.URLChangesTo})
	}
	if e.TextAppears != "" {
		out = append(out, &routine.Check{Text: e.TextAppears})
	}
	if e.Appears != nil && e.Appears.Name != "" {
		out = append(out, &routine.Check{Text: e.Appears.Name})
	}
	if e.Disappears != nil && e.Disappears.Name != "" {
		out = append(out, &routine.Check{Text: e.Disappears.Name, Absent: true})
	}
	return out
}

// routineName makes a short name from the task.
func routineName(task string) string {
	words := strings.Fields(strings.ToLower(task))
	if len(words) > 8 {
		words = words[:8]
	}
	name := strings.Trim(notSlot.ReplaceAllString(strings.Join(words, "-"), "-"), "-")
	if name == "" {
		return "routine"
	}
	return name
}

// SaveRoutine writes a routine to path with [routine.Save], which refuses
// a routine holding what looks like a secret or the value of one of the
// pilot's known secrets (those declared and those a person gave in a run).
// Its errors name the file already.
func (p *Pilot) SaveRoutine(path string, rt *routine.Routine) error {
	return routine.Save(path, rt, p.opts.Secrets)
}
