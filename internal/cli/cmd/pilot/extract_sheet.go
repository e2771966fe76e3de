package pilot

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/sheet"
)

// `waymark extract --schema FILE` on a page that is a spreadsheet reads
// the sheet's tables (pilot.ExtractSheet): headers place the fields, a
// model only those no header places. --recipe FILE then holds a grid
// recipe (waymark.grid/1) instead of a page recipe.

// sheetOf says whether the session's page is a spreadsheet and, when it
// is, how to dump its grid; nil when it is not. o.SheetOf decides when
// set (tests); otherwise sheetDumpOf.
func (o *ExtractOptions) sheetOf(ctx context.Context) (pilot.SheetDump, error) {
	if o.SheetOf != nil {
		return o.SheetOf(ctx)
	}
	return pilotflags.SheetDumpOf(ctx, o.Remote())
}

// gridRecipeFile reads --recipe FILE when it holds a grid recipe: ok is
// false for any other file (a page recipe, or none yet).
func gridRecipeFile(path string) (r *sheet.Recipe, ok bool, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false, nil // read again, and reported, as a page recipe
	}
	var head struct {
		Format string `json:"format"`
	}
	if json.Unmarshal(b, &head) != nil || head.Format != sheet.RecipeFormat {
		return nil, false, nil
	}
	r, err = sheet.ParseRecipe(b)
	if err != nil {
		return nil, true, &calls.Error{Kind: calls.ErrBadInput, Msg: fmt.Sprintf("%s: %v", path, err), Hint: "remove the file to learn the grid recipe again"}
	}
	return r, true, nil
}

// saveGrid writes a grid recipe learned or learned again, and says so.
func (o *ExtractOptions) saveGrid(res *pilot.ExtractResult, used *sheet.Recipe) error {
	if o.RecipeFile == "" || res.Grid == nil || res.Grid == used {
		return nil
	}
	b, err := res.Grid.Marshal()
	if err == nil {
		err = os.WriteFile(o.RecipeFile, b, 0o644)
	}
	if err != nil {
		return fmt.Errorf("save the grid recipe: %w", err)
	}
	if res.Heal != nil {
		o.Note("grid recipe learned again (a heal) and saved to %s", o.RecipeFile)
	} else {
		o.Note("grid recipe saved to %s: the next extract --recipe %s reads the sheet with no model", o.RecipeFile, o.RecipeFile)
	}
	return nil
}
