package mcp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/sheet"
)

// extract on a page that is a spreadsheet reads the sheet's tables
// (pilot.ExtractSheet); list.recipe then holds a grid recipe
// (waymark.grid/1), given back to read the sheet with no model.

// sheetOf is the dump of the calling session's page when it is a
// spreadsheet, else nil.
func (pt pilotTools) sheetOf(ctx context.Context) (pilot.SheetDump, error) {
	if pt.sheet == nil {
		return nil, nil
	}
	return pt.sheet(ctx, sessionFrom(ctx, pt.session))
}

// gridRecipe reads list.recipe when it is a grid recipe: ok is false for
// any other (a page recipe, or none).
func gridRecipe(raw json.RawMessage) (*sheet.Recipe, bool, error) {
	var head struct {
		Format string `json:"format"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &head) != nil || head.Format != sheet.RecipeFormat {
		return nil, false, nil
	}
	r, err := sheet.ParseRecipe(raw)
	if err != nil {
		return nil, true, calls.Errorf(calls.ErrBadInput, "give the grid recipe an earlier extract returned, unchanged", "list.recipe: %v", err)
	}
	return r, true, nil
}

// sheetNotes says what a read of a sheet adds to the reply: the table
// read, and the grid recipe learned.
func sheetNotes(res *pilot.ExtractResult, xo pilot.ExtractOptions) string {
	var b strings.Builder
	if res.Table != "" {
		b.WriteString("\nread from the sheet's table " + res.Table)
	}
	if res.Grid != nil && res.Grid != xo.Grid {
		g, _ := json.Marshal(res.Grid)
		b.WriteString("\ngrid recipe (give it back as list.recipe to read the sheet with no model): " + string(g))
	}
	return b.String()
}
