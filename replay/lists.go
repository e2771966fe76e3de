package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/routine"
)

// Lists read by a recipe: an extract step with one, and an each whose rows
// are read from the page by its recipe each time round, with the controls
// of each row found at their place in the row.

// HealRecipe is a heal of a recipe that no longer fitted the page: the
// list was read by one model call and the recipe learned again.
const HealRecipe = "recipe"

// readList reads the list of a step with a recipe through the pilot: with
// no model call when the recipe fits; when it does not, with one model
// call that learns it again (recorded as a heal, the healed version
// holding the new recipe), or a stop as needs-model when there is no
// model. schema is the step's; nil reads by the recipe's own. Relative
// dates count from now.
func (x *run) readList(ctx context.Context, s *routine.Step, path string, schema json.RawMessage, now time.Time, sr *StepResult) (*pilot.ExtractResult, error) {
	if len(schema) == 0 {
		schema = s.Recipe.Schema()
	}
	var m pilot.Model
	if x.model != nil {
		m = x.model
	}
	instruction := s.Instruction
	if instruction == "" {
		instruction = "every row of the list"
	}
	xo := pilot.ExtractOptions{Recipe: s.Recipe, Now: now}
	if l := s.List; l != nil {
		xo.List = pilot.ListOptions{Pages: l.Pages, Scroll: l.Scroll, Key: l.Key, Limit: l.Limit, UntilField: l.UntilField, Now: now}
		if l.Until != "" {
			d, ok := recipe.ParseDate(l.Until, now)
			if !ok {
				return nil, stopf(CauseFailed, "%s: list.until %q is not a date", stepName(s, path), l.Until)
			}
			xo.List.Until = d
		}
	}
	p := x.pilot(m)
	res, err := p.ExtractWith(ctx, instruction, schema, xo)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if m == nil && errors.Is(err, calls.ErrNoMatch) {
			return nil, stopf(CauseNeedsModel, "%s: %v; a model reads the page and learns the recipe again (one call)", stepName(s, path), err)
		}
		return nil, err
	}
	if !res.OK {
		return nil, stopf(CauseFailed, "%s: the data read does not fit the schema: %s", stepName(s, path), strings.Join(res.Problems, "; "))
	}
	sr.Detail = fmt.Sprintf("%d row(s) read by the recipe", res.Rows)
	if res.Ended != "" {
		sr.Detail += fmt.Sprintf(" over %d page(s), ended: %s", res.Pages, res.Ended)
	}
	if res.Heal != nil {
		if res.Recipe == nil {
			return nil, stopf(CauseFailed, "%s: the recipe no longer fits the page (%s), and none could be learned again: %s", stepName(s, path), res.Heal.Misfit, res.RecipeNote)
		}
		x.heal(&Heal{Step: stepName(s, path), Path: path, How: HealRecipe, Before: recipeWhere(res.Heal.Before), After: recipeWhere(res.Recipe), Reason: res.Heal.Misfit}, sr)
		s.Recipe = res.Recipe // the healed version reads by the new one
		x.learn(ctx, p, res.Recipe.URL, fmt.Sprintf("the list of step %s changed its layout; its recipe was learned again", stepName(s, path)))
		sr.Detail = fmt.Sprintf("%d row(s) read by the model; the recipe was learned again", res.Rows)
	}
	return res, nil
}

// recipeWhere names where a recipe finds its rows, for a heal's before and
// after.
func recipeWhere(r *recipe.Recipe) string {
	if r == nil {
		return ""
	}
	return r.Container + " > " + r.Row
}

// eachRecipe runs an each whose rows are read from the page by its recipe.
// Before each row the list is read again (the steps of the row before may
// have changed the page): the row is taken where it is now, found by its
// values, and a row that is gone stops the replay as missing.
func (x *run) eachRecipe(ctx context.Context, s *routine.Step, path string, sr StepResult, start time.Time) error {
	ev := x.d
	// One clock for every read of the loop: a row's relative date ("5
	// minutes ago") reads the same each time round.
	now := x.now()
	res, err := x.readList(ctx, s, path, nil, now, &sr)
	var items []map[string]any
	if err == nil {
		var data any
		if err = json.Unmarshal(res.Data, &data); err == nil {
			for _, it := range listRowsOf(s.Recipe, data) {
				if m, ok := it.(map[string]any); ok {
					items = append(items, m)
				}
			}
		}
	}
	sr.DurMS = time.Since(start).Milliseconds()
	if err != nil {
		sr.Status, sr.Error = "stopped", x.known.Redact(stopMessage(err))
		x.report(sr)
		return err
	}
	x.report(sr)
	for i, it := range items {
		at := i
		if i > 0 {
			got, err := recipe.ReadAt(ctx, ev, s.Recipe, now)
			if err != nil {
				return err
			}
			if at = rowAt(got.Rows, it, i); at < 0 {
				return stopf(CauseMissing, "%s: row %d (%s) is no longer in the list; nothing more was pressed", stepName(s, path), i+1, x.known.Redact(rowWords(it)))
			}
		}
		if err := x.steps(ctx, s.Do, path+".do", &row{index: i, item: it, recipe: s.Recipe, at: at}); err != nil {
			return err
		}
	}
	return nil
}

// listRowsOf is the rows of what a recipe read.
func listRowsOf(r *recipe.Recipe, data any) []any {
	if r.List != "" {
		obj, _ := data.(map[string]any)
		data = obj[r.List]
	}
	rows, _ := data.([]any)
	return rows
}

// rowAt is where the row it is in the list now: at want when it is still
// there, else the first row with the same values; -1 when it is gone.
func rowAt(rows []map[string]any, it map[string]any, want int) int {
	same := func(r map[string]any) bool {
		if len(r) != len(it) {
			return false
		}
		for k, v := range r {
			if !recipe.Same(v, it[k]) {
				return false
			}
		}
		return true
	}
	if want < len(rows) && same(rows[want]) {
		return want
	}
	for i, r := range rows {
		if same(r) {
			return i
		}
	}
	return -1
}

// rowWords is a row's values on one line, for a message.
func rowWords(it map[string]any) string {
	b, _ := json.Marshal(it)
	return string(b)
}

func stopMessage(err error) string {
	var st *stop
	if errors.As(err, &st) {
		return st.msg
	}
	return err.Error()
}

// placed finds a step's control at its place in the current row of an each
// with a recipe: "css=…" naming that one element. A row with nothing of
// the recorded tag there stops the replay as missing: a control in a row
// is found by its place alone and never healed, so no other row's control
// is pressed.
func (x *run) placed(ctx context.Context, s *routine.Step, path string, rw *row) (string, error) {
	ev := x.d
	t := s.Target
	at, err := recipe.ControlAt(ctx, ev, rw.recipe, rw.at, t.Place)
	if err != nil {
		return "", err
	}
	if at.Missing != "" {
		return "", stopf(CauseMissing, "%s: %s, where %s was in row 1; nothing was pressed (a control in a row is found by its place only, never healed)", stepName(s, path), at.Missing, describe(t))
	}
	if t.Fingerprint.Tag != "" && !strings.EqualFold(at.Tag, t.Fingerprint.Tag) {
		return "", stopf(CauseReplaced, "%s: row %d has a %s where %s was in row 1; nothing was pressed", stepName(s, path), rw.index+1, at.Tag, describe(t))
	}
	return "css=" + at.CSS, nil
}
