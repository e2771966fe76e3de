package pilot

import (
	"context"
	"slices"
	"time"

	"github.com/waymark-dev/waymark/recipe"
)

// teacher keeps the pages of a list the model read over pages, so each
// recipe learned is learned against all of them ([recipe.LearnPages]), and
// the row shapes those pages showed, so a later page whose rows show a new
// one is read by the model too rather than by a recipe that never saw it
// (a sale price, a badge, a field the earlier pages all left empty: a
// recipe reads those as null or as the wrong element without a misfit).
type teacher struct {
	pages []recipe.Page
	known map[string]bool // row shapes of the pages the model read
}

// learn learns the recipe of the page in the tab, whose rows the model
// read, against every page the model read before; the page is kept for
// the recipes learned after it, whether or not one is learned now.
func (t *teacher) learn(ctx context.Context, ev recipe.Evaler, list *recipe.List, rows []map[string]any, now time.Time) (*recipe.Recipe, error) {
	r, err := recipe.LearnPages(ctx, ev, list, append(slices.Clip(t.pages), recipe.Page{Rows: rows}), now)
	if snap, serr := recipe.Snapshot(ctx, ev); serr == nil {
		t.pages = append(t.pages, recipe.Page{Snapshot: snap, Rows: rows})
	}
	if r != nil {
		if got, gerr := recipe.ReadAt(ctx, ev, r, now); gerr == nil {
			if t.known == nil {
				t.known = map[string]bool{}
			}
			for _, s := range got.Shapes {
				t.known[s] = true
			}
		}
	}
	return r, err
}

// unknown is the first row shape of shapes no page the model read showed,
// or "" (also when the model read no page yet: a recipe given is trusted).
func (t *teacher) unknown(shapes []string) string {
	if t == nil || len(t.known) == 0 {
		return ""
	}
	for _, s := range shapes {
		if !t.known[s] {
			return s
		}
	}
	return ""
}
