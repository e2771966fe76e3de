package pilot

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/routine"
)

// RunExtract is data a run reads once its task is done (RunOptions.Extract).
type RunExtract struct {
	Instruction string          // what to read: "every order with its total"
	Schema      json.RawMessage // the answer's JSON Schema
}

// extractDone reads RunOptions.Extract on the page the task ended on, with
// [Pilot.ExtractWith]: a list learns its recipe, so the recorded routine's
// extract step reads it with no model at replay.
func (r *run) extractDone(ctx context.Context) error {
	x := r.opts.Extract
	_, notList := recipe.ListOf(x.Schema)
	before := r.p.asked.Load()
	res, err := r.p.ExtractWith(ctx, x.Instruction, x.Schema, ExtractOptions{Learn: notList == nil})
	r.res.ModelCalls += int(r.p.asked.Load() - before)
	if res != nil {
		r.res.Usage = r.res.Usage.Add(res.Usage)
	}
	if err != nil {
		return fmt.Errorf("the task is done, but reading its data failed: %w", err)
	}
	r.res.Data, r.res.Recipe, r.res.RecipeNote = res.Data, res.Recipe, res.RecipeNote
	if !res.OK {
		return fmt.Errorf("the task is done, but the data read does not fit the schema: %v", res.Problems)
	}
	st := routine.ExtractStep(r.p.mask(x.Instruction), x.Schema, res.Recipe, nil, "data")
	st.ID = "data"
	r.extracted = &st
	return nil
}
