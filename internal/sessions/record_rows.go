package sessions

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/sheet"
)

// A loop over a list's rows, recorded by hand: record rows start reads the
// list by a recipe and opens an each step; the actions until record rows
// stop go inside it. A control pressed inside the list's first row is
// recorded at its place in the row (recipe.PlaceOf), so a replay presses
// the same place in every row; a control in another row is refused; a
// control outside the list is recorded as it is. A value typed that is one
// of the first row's fields becomes %row.field%.

// rowsLoop is an each being recorded.
type rowsLoop struct {
	id          string
	instruction string
	recipe      *recipe.Recipe
	first       map[string]any // the first row as read at start
	do          []routine.Step
}

// step is the each the loop is so far; false when there is no loop or it
// holds no step.
func (l *rowsLoop) step() (routine.Step, bool) {
	if l == nil || len(l.do) == 0 {
		return routine.Step{}, false
	}
	return routine.Step{ID: l.id, Kind: routine.KindEach, Instruction: l.instruction, Recipe: l.recipe, Do: l.do}, true
}

// field is the first row's field whose value v is, as %row.field% reads it
// at replay; "" when none (or no loop).
func (l *rowsLoop) field(v string) string {
	if l == nil || strings.TrimSpace(v) == "" {
		return ""
	}
	for _, f := range l.recipe.Fields {
		var s string
		switch x := l.first[f.Name].(type) {
		case nil:
			continue
		case string:
			s = x
		default:
			b, _ := json.Marshal(x)
			s = string(b)
		}
		if s == v {
			return f.Name
		}
	}
	return ""
}

// stepList is where recorded steps go: the open loop's steps, else the
// routine's.
func (rec *recording) stepList() *[]routine.Step {
	if rec.loop != nil {
		return &rec.loop.do
	}
	return &rec.steps
}

// add appends a recorded step: inside the loop when one is open.
func (rec *recording) add(st routine.Step) {
	l := rec.stepList()
	*l = append(*l, st)
}

// placeIn is the place of the element of ev in the first row of the open
// loop's list: "" when there is no loop, no element, or the element is not
// in the list. An element in another row is refused: nothing is done.
// Called with rec.mu held.
func (rec *recording) placeIn(ctx context.Context, p page, ev *calls.Evidence) (string, error) {
	if rec.loop == nil || ev == nil {
		return "", nil
	}
	fp := ev.Fingerprint
	c := recipe.Control{Tag: fp.Tag, Name: fp.Name, Text: fp.Text}
	if fp.Row != nil {
		c.Key = fp.Row.Key
	}
	at, err := recipe.PlaceOf(ctx, p, rec.loop.recipe, c)
	if err != nil {
		return "", calls.Errorf(calls.ErrNoMatch, "look at the page ("+calls.Cmd("snapshot")+"): the list the loop goes over must be on it", "%v", err)
	}
	switch {
	case at.Ambiguous:
		return "", calls.Errorf(calls.ErrBadInput, "press a control whose row can be told apart (its first cell or heading), or record outside the loop",
			"%s %q is in several rows of the list and nothing tells which one was pressed; nothing was done", fp.Role, fp.Name)
	case at.Row > 0:
		return "", calls.Errorf(calls.ErrBadInput, "press the control in the list's first row: the loop presses it at the same place in every row",
			"%s %q is in row %d of the list; nothing was done", fp.Role, fp.Name, at.Row+1)
	case at.Row == 0 && at.Several:
		return "", calls.Errorf(calls.ErrBadInput, "give a control the row holds once",
			"the list's first row holds several %s elements named %q; nothing was done", fp.Tag, fp.Name)
	case at.Row == 0:
		return at.Place, nil
	}
	return "", nil
}

// recordRows runs record.rows on a recording session.
func (m *Manager) recordRows(ctx context.Context, session string, p page, params json.RawMessage) (any, error) {
	var req calls.RecordRowsRequest
	if err := decode(params, &req); err != nil {
		return nil, err
	}
	rec := m.rec.get(session)
	if rec == nil {
		return nil, calls.Errorf(calls.ErrBadInput, "start a recording first: "+calls.Cmd("record start"),
			"session %q is not recording", session)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	switch req.Op {
	case "start":
		if rec.loop != nil {
			return nil, calls.Errorf(calls.ErrBadInput, "stop it first: "+calls.Cmd("record rows stop"), "a loop over rows is already being recorded")
		}
		r, err := recipe.Parse(req.Recipe)
		if err != nil {
			return nil, calls.Errorf(calls.ErrBadInput, "give a recipe learned by "+calls.Cmd("extract --schema FILE --recipe FILE"), "%v", err)
		}
		got, err := recipe.Read(ctx, p, r)
		if err != nil {
			return nil, err
		}
		if got.Misfit != "" {
			return nil, calls.Errorf(calls.ErrNoMatch, "open the page of the list, or learn the recipe again ("+calls.Cmd("extract --recipe FILE")+" with a model)",
				"the recipe does not fit the page: %s", got.Misfit)
		}
		rec.loop = &rowsLoop{id: rec.id("rows"), instruction: req.Instruction, recipe: r, first: got.Rows[0]}
		return &calls.RecordRowsResult{Rows: got.Rows}, nil
	case "stop":
		if rec.loop == nil {
			return nil, calls.Errorf(calls.ErrBadInput, "start one first: "+calls.Cmd("record rows start --recipe FILE"), "no loop over rows is being recorded")
		}
		each, ok := rec.loop.step()
		if !ok {
			return nil, calls.Errorf(calls.ErrBadInput, "act in the list's first row ("+calls.Cmd("click")+" @REF), then "+calls.Cmd("record rows stop"),
				"nothing was recorded inside the loop")
		}
		rec.loop = nil
		rec.steps = append(rec.steps, each)
		return &calls.RecordRowsResult{Steps: len(each.Do)}, nil
	}
	return nil, calls.Errorf(calls.ErrBadInput, "use start or stop", "unknown record rows op %q", req.Op)
}

// recordExtract adds an extract done while recording as a step, with the
// recipe it learned or read by (inside a loop over rows, into the loop).
// A session that does not record records nothing.
func (m *Manager) recordExtract(session string, params json.RawMessage) (any, error) {
	var req calls.RecordExtractRequest
	if err := decode(params, &req); err != nil {
		return nil, err
	}
	rec := m.rec.get(session)
	if rec == nil {
		return calls.Empty{}, nil
	}
	st := routine.ExtractStep(req.Instruction, req.Schema, nil, nil, "")
	if len(req.Recipe) > 0 && string(req.Recipe) != "null" {
		r, err := recipe.Parse(req.Recipe)
		if err != nil {
			return nil, calls.Errorf(calls.ErrBadInput, "give the recipe the extract learned or read by, unchanged", "%v", err)
		}
		st.Recipe = r
		if len(req.List) > 0 && string(req.List) != "null" {
			var l routine.ListRead
			if err := json.Unmarshal(req.List, &l); err != nil {
				return nil, calls.Errorf(calls.ErrBadInput, "", "list: %v", err)
			}
			st.List = &l
		}
	}
	if len(req.Grid) > 0 && string(req.Grid) != "null" {
		g, err := sheet.ParseRecipe(req.Grid)
		if err != nil {
			return nil, calls.Errorf(calls.ErrBadInput, "give the grid recipe the extract learned or read by, unchanged", "%v", err)
		}
		st.Grid = g
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.done {
		return calls.Empty{}, nil
	}
	st.ID = rec.id("extract")
	st.Into = st.ID // later steps (an each) read the data by it
	rec.add(st)
	return calls.Empty{}, nil
}
