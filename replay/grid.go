package replay

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/sheet"
)

// HealGrid is a heal of a grid recipe that no longer fitted the sheet: a
// model placed the fields no header placed and the recipe was learned
// again.
const HealGrid = "grid"

// readGrid reads an extract step's list from the sheet the page shows by
// its grid recipe: with no model call when the table is found by its
// header row; when it is not, with a model placing the columns again
// (recorded as a heal, the healed version holding the new grid recipe),
// or a stop as needs-model when there is no model.
func (x *run) readGrid(ctx context.Context, s *routine.Step, path string, sr *StepResult) (*pilot.ExtractResult, error) {
	dump := x.opts.Sheet
	if dump == nil { // the session's own dump: every runner reads a sheet
		dump = func(ctx context.Context) (*sheet.Grid, error) {
			g, err := x.d.SheetDump(ctx, calls.SheetDumpRequest{})
			if err != nil { // not a sheet: no model would help
				return nil, stopf(CauseFailed, "%s: %v", stepName(s, path), err)
			}
			return &g.Grid, nil
		}
	}
	schema := s.Schema
	instruction := s.Instruction
	if instruction == "" {
		instruction = "every row of the table"
	}
	var m pilot.Model
	if x.model != nil {
		m = x.model
	}
	p := x.pilot(m)
	res, err := p.ExtractWith(ctx, instruction, schema, pilot.ExtractOptions{Grid: s.Grid, Sheet: dump, Now: x.now()})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if m == nil && errors.Is(err, calls.ErrNoMatch) {
			return nil, stopf(CauseNeedsModel, "%s: %v; a model places the columns and learns the grid recipe again (one call)", stepName(s, path), err)
		}
		return nil, err
	}
	if !res.OK {
		return nil, stopf(CauseFailed, "%s: the data read does not fit the schema: %s", stepName(s, path), strings.Join(res.Problems, "; "))
	}
	sr.Detail = fmt.Sprintf("%d row(s) read by the grid recipe from %s", res.Rows, res.Table)
	if res.Heal != nil {
		if res.Grid == nil {
			return nil, stopf(CauseFailed, "%s: the grid recipe no longer fits the sheet (%s), and none could be learned again: %s", stepName(s, path), res.Heal.Misfit, res.RecipeNote)
		}
		x.heal(&Heal{Step: stepName(s, path), Path: path, How: HealGrid, Before: gridWhere(s.Grid), After: gridWhere(res.Grid), Reason: res.Heal.Misfit}, sr)
		s.Grid = res.Grid // the healed version reads by the new one
		sr.Detail = fmt.Sprintf("%d row(s) read from %s; the grid recipe was learned again", res.Rows, res.Table)
	}
	return res, nil
}

// gridWhere names a grid recipe's fields by their headers, for a heal.
func gridWhere(r *sheet.Recipe) string {
	var hs []string
	for _, f := range r.Fields {
		hs = append(hs, f.Header)
	}
	return "headers " + strings.Join(hs, ", ")
}
