//go:build evals

package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/siteapi"
)

// recorder records a job on day 0 over a live session, writing each
// step as the recorders do: a goto's landed from the page it opened, an
// element's locator, candidates and fingerprint from the live element
// (driver Locate, routine.TargetOf), a recipe learned from the page by
// recipe.Learn with the rows a model would have read (the day's truth),
// an API learned from the capture of the page's load by
// siteapi.LearnCall, a form's answers keyed as the fill reported them.
type recorder struct {
	ctx  context.Context
	s    *driver.Session
	site *site
	job  *job
	base string // the server's URL
	r    *routine.Routine
	err  error
}

func (rc *recorder) add(s routine.Step) { rc.r.Steps = append(rc.r.Steps, s) }

func (rc *recorder) truth() []map[string]string { return rc.site.rows(rc.job, 0) }

func (rc *recorder) gotoStep(id, path string) {
	if rc.err != nil {
		return
	}
	rc.add(rc.gotoOf(id, path))
}

func (rc *recorder) gotoOf(id, path string) routine.Step {
	url := rc.base + path
	info, err := rc.s.Open(rc.ctx, calls.OpenRequest{URL: url})
	if err != nil {
		rc.err = err
		return routine.Step{}
	}
	var notices []calls.Notice
	if snap, err := rc.s.Snapshot(rc.ctx, calls.SnapshotRequest{}); err == nil {
		notices = snap.Notices
	}
	return routine.Step{ID: id, Kind: routine.KindGoto, URL: url, Landed: routine.LandedAt(url, info, notices)}
}

// target is the element on the outline line holding all words.
func (rc *recorder) target(words ...string) (*routine.Target, error) {
	snap, err := rc.s.Snapshot(rc.ctx, calls.SnapshotRequest{Interactive: true, Full: true})
	if err != nil {
		return nil, err
	}
	ref := refOf(snap.Text, words...)
	if ref == "" {
		return nil, fmt.Errorf("no line of the outline holds %q:\n%s", words, snap.Text)
	}
	ev, err := rc.s.Locate(rc.ctx, calls.LocateRequest{Target: "@" + ref})
	if err != nil {
		return nil, err
	}
	return routine.TargetOf(ev), nil
}

// refOf is the ref on the first outline line holding all words.
func refOf(outline string, words ...string) string {
	for _, line := range strings.Split(outline, "\n") {
		all := true
		for _, w := range words {
			all = all && strings.Contains(line, w)
		}
		if i := strings.Index(line, "[ref="); all && i >= 0 {
			rest := line[i+5:]
			return rest[:strings.IndexByte(rest, ']')]
		}
	}
	return ""
}

func (rc *recorder) click(id string, words ...string) error {
	if rc.err != nil {
		return rc.err
	}
	tg, err := rc.target(words...)
	if err != nil {
		return err
	}
	if _, err := rc.s.Act(rc.ctx, calls.ActRequest{Kind: calls.ActClick, Target: tg.Locator, Submits: "allow"}); err != nil {
		return fmt.Errorf("record %s: %w", id, err)
	}
	rc.add(routine.Step{ID: id, Kind: routine.KindAct, Op: calls.ActClick, Instruction: "click " + words[len(words)-1], Target: tg})
	return nil
}

// valueOf is a step's value: a plain variable or a secret one.
type valueOf struct{ slot, secret string }

func (rc *recorder) fill(id string, v *valueOf, actual string, words ...string) error {
	if rc.err != nil {
		return rc.err
	}
	tg, err := rc.target(words...)
	if err != nil {
		return err
	}
	req := calls.ActRequest{Kind: calls.ActFill, Target: tg.Locator, Value: actual}
	val := &routine.Value{From: "input", Slot: v.slot}
	if v.secret != "" {
		req.Secret, val = v.secret, &routine.Value{From: "secret", Slot: v.secret}
		rc.r.Variables = append(rc.r.Variables, routine.Variable{Name: v.secret, Secret: true})
	} else {
		rc.r.Variables = append(rc.r.Variables, routine.Variable{Name: v.slot})
	}
	if _, err := rc.s.Act(rc.ctx, req); err != nil {
		return fmt.Errorf("record %s: %w", id, err)
	}
	rc.add(routine.Step{ID: id, Kind: routine.KindAct, Op: calls.ActFill, Instruction: "fill in the " + words[len(words)-1], Target: tg, Value: val})
	return nil
}

func (rc *recorder) verify(id, text string) {
	rc.add(routine.Step{ID: id, Kind: routine.KindVerify, Check: &routine.Check{Text: text}})
}

// listRead is how a list is read over pages.
type listRead struct{ pages int }

// schemaOf is a list schema of string fields.
func schemaOf(fields []string) json.RawMessage {
	props := map[string]any{}
	for _, f := range fields {
		props[f] = map[string]string{"type": "string"}
	}
	b, _ := json.Marshal(map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": props, "required": fields}})
	return b
}

// learn learns the recipe that reads want (the rows a model read) from
// the page.
func (rc *recorder) learn(fields []string, want []map[string]string) (*recipe.Recipe, error) {
	l, err := recipe.ListOf(schemaOf(fields))
	if err != nil {
		return nil, err
	}
	rows := make([]map[string]any, len(want))
	for i, w := range want {
		rows[i] = map[string]any{}
		for _, f := range fields {
			rows[i][f] = w[f]
		}
	}
	return recipe.Learn(rc.ctx, rc.s, l, rows)
}

func (rc *recorder) extract(into, instruction string, fields []string, want []map[string]string, lr *listRead) error {
	if rc.err != nil {
		return rc.err
	}
	rec, err := rc.learn(fields, want)
	if err != nil {
		return fmt.Errorf("learn the recipe of %s: %w", rc.job.name, err)
	}
	st := routine.Step{ID: into, Kind: routine.KindExtract, Instruction: instruction, Schema: schemaOf(fields), Recipe: rec, Into: into}
	if lr != nil {
		st.List = &routine.ListRead{Pages: lr.pages}
	}
	rc.add(st)
	return nil
}

func (rc *recorder) sheetRead(into, rng string) {
	rc.add(routine.Step{ID: into, Kind: routine.KindSheetRead, Range: rng, Into: into})
}

// each loops over the rows the recipe reads, pressing the button at its
// place in each row, as `waymark record rows start` records it.
func (rc *recorder) each(id, instruction string, fields []string, want []map[string]string, place, button string) error {
	if rc.err != nil {
		return rc.err
	}
	rec, err := rc.learn(fields, want)
	if err != nil {
		return fmt.Errorf("learn the recipe of %s: %w", rc.job.name, err)
	}
	tg, err := rc.target("button", button)
	if err != nil {
		return err
	}
	fp := tg.Fingerprint
	fp.Row = nil
	rc.add(routine.Step{ID: id, Kind: routine.KindEach, Instruction: instruction, Recipe: rec, Do: []routine.Step{
		{ID: "press", Kind: routine.KindAct, Op: calls.ActClick, Instruction: "click " + button,
			Target: &routine.Target{Positional: true, Place: place, Fingerprint: fp}},
	}})
	return nil
}

// api records the job's API: the page's load captured, the API learned
// from it and verified by a direct call, the page's browser steps (goto,
// verify, extract by a recipe) kept as the fallback.
func (rc *recorder) api(name string, fields []string) error {
	if rc.err != nil {
		return rc.err
	}
	if _, err := rc.s.StartCapture(rc.ctx, calls.CaptureStartRequest{}); err != nil {
		return err
	}
	open := rc.gotoOf("open", "/j/"+name+"/")
	if rc.err != nil {
		return rc.err
	}
	if _, err := rc.s.Wait(rc.ctx, calls.WaitRequest{Text: "items listed"}); err != nil {
		return err
	}
	res, err := rc.s.StopCapture(rc.ctx, calls.CaptureStopRequest{})
	if err != nil {
		return err
	}
	var f capture.File
	if err := json.Unmarshal(res.Capture, &f); err != nil {
		return err
	}
	want := rc.truth()
	rows := make([]map[string]any, len(want))
	for i, w := range want {
		rows[i] = map[string]any{}
		for _, fl := range fields {
			rows[i][fl] = w[fl]
		}
	}
	api, _, err := siteapi.LearnCall(rc.ctx, rc.s, &f, rows, siteapi.LearnOptions{Page: open.URL})
	if err != nil {
		return fmt.Errorf("learn the API of %s: %w", name, err)
	}
	dom, err := rc.learn(fields, want)
	if err != nil {
		return fmt.Errorf("learn the recipe of %s: %w", name, err)
	}
	rc.add(routine.Step{ID: "list", Kind: routine.KindAPI, API: api, Into: "rows", List: &routine.ListRead{Pages: 1},
		Fallback: []routine.Step{open, {ID: "listed", Kind: routine.KindVerify, Check: &routine.Check{Text: "items listed"}},
			{ID: "read", Kind: routine.KindExtract, Instruction: "every row of the list", Schema: schemaOf(fields), Recipe: dom, Into: "page"}}})
	return nil
}

// ledger records a form filled and saved: its answers are the job's
// variables (or, in a loop, the fields of each entry of a list variable).
func (rc *recorder) ledger(name string, labels, fields []string, first map[string]string, button string, each bool) error {
	if rc.err != nil {
		return rc.err
	}
	outer := rc.r.Steps
	rc.r.Steps = nil
	rc.gotoStep("open", "/j/"+name+"/new")
	if rc.err != nil {
		return rc.err
	}
	answers := map[string]string{}
	for i, l := range labels {
		answers[l] = first[fields[i]]
	}
	res, err := rc.s.FillForm(rc.ctx, calls.FormFillRequest{Answers: answers})
	if err != nil {
		return err
	}
	if len(res.Unmatched) > 0 {
		return fmt.Errorf("record %s: no field for %v", name, res.Unmatched)
	}
	step := routine.Step{ID: "form", Kind: routine.KindForm, Answers: map[string]*routine.Value{}}
	for _, f := range res.Fields {
		for i, l := range labels {
			if f.Label != l {
				continue
			}
			if each {
				step.Answers[f.Key] = &routine.Value{Template: "%row." + fields[i] + "%"}
			} else {
				step.Answers[f.Key] = &routine.Value{From: "input", Slot: fields[i]}
				rc.r.Variables = append(rc.r.Variables, routine.Variable{Name: fields[i]})
			}
		}
	}
	rc.add(step)
	if err := rc.click("save", "button", button); err != nil {
		return err
	}
	rc.verify("saved", "Saved entry")
	if each {
		rc.r.Variables = append(rc.r.Variables, routine.Variable{Name: "entries", List: true})
		rc.r.Steps = append(outer, routine.Step{ID: "entries", Kind: routine.KindEach, Over: "entries", Do: rc.r.Steps})
	} else {
		rc.r.Steps = append(outer, rc.r.Steps...)
	}
	return nil
}
